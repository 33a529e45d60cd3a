"""The OpenRLHF /get_reward endpoint (credo_client.openrlhf) against credo serve."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

import pytest

from conftest import LABEL, PROMPT  # noqa: E402
from credo_client.openrlhf import response_of



def post(url: str, body: dict) -> tuple[int, dict]:
    req = urllib.request.Request(url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def test_response_of_strips_prompt_and_end_tokens():
    assert response_of(PROMPT + "answer: 7<|im_end|>", PROMPT) == "answer: 7"
    with pytest.raises(ValueError):
        response_of("something else", PROMPT)


def test_get_reward_matches_verify(client, openrlhf_endpoint):
    answers = ["answer: 7", "answer: 8", "#### 7", "no idea"]
    body = {"query": [PROMPT + a + "<|im_end|>" for a in answers], "prompts": [PROMPT] * 4, "labels": [LABEL] * 4}
    status, out = post(openrlhf_endpoint, body)
    assert status == 200, out
    v = client.verify("gsm8k", [{"record": {"question": PROMPT, "answer": LABEL}, "responses": answers}])
    want = [sum(w * (0 if d["skip"] else d["score"]) for w, d in zip(v["weights"], r["verdicts"]))
            for r in v["items"][0]["responses"]]
    assert out["rewards"] == want == out["scores"]
    assert want[0] == 1 and want[1] == 0
    assert set(out["extra_logs"]) == set(v["rewards"]) and out["extra_logs"]["answer"] == want


def test_get_reward_bad_requests(openrlhf_endpoint):
    status, out = post(openrlhf_endpoint, {"query": ["x"], "prompts": [PROMPT, PROMPT], "labels": [LABEL]})
    assert status == 400 and out["error"]["path"] == "prompts"
    status, out = post(openrlhf_endpoint, {"query": [PROMPT + "answer: 7"], "prompts": [PROMPT], "labels": [{"question": "q"}]})
    assert status == 400 and out["error"]["path"].startswith("items[0].record"), out  # credo's own path
    status, out = post(openrlhf_endpoint, {"query": "not a list"})
    assert status == 400 and out["error"]["path"] == "query"
