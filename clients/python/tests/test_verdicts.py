"""verify over HTTP gives the verdicts credo's Go verifiers give in process.

The Go side is tests/goverdicts (built here with go build), which runs
task/ifeval's and task/toolcall's verifiers on the same records and
responses without the service. Real data: every IFEval record and the
BFCL simple_python and multiple cases of ../shared/data.
"""

from __future__ import annotations

import json
import subprocess

import pytest

from conftest import go_build, need_shared

IFEVAL_RESPONSES = [
    "hello world, this is a short answer",
    "<<A Title>>\n\n*first highlight* then *second highlight* and *third highlight*.\n\n"
    "SECTION 1\nThe quick brown fox jumps over the lazy dog.\n\nSECTION 2\nAnother paragraph here.\n\n***\n\n"
    "Third paragraph.\n\nP.S. Thanks for reading.",
    json.dumps({"answer": "Yes, certainly. I think so."}),
    "THE QUICK BROWN FOX, JUMPS OVER THE LAZY DOG. " * 40,
    "Réponse : déjà vu — naïve café 😀. Is there anything else I can help with?",
    "",
]


def _norm(v: dict) -> dict:
    return {
        "score": float(v["score"]),
        "skip": bool(v.get("skip", False)),
        "info": v.get("info", ""),
        "reason": v.get("reason", ""),
        "spans": [(s["start"], s["end"], float(s.get("strength") or 1)) for s in v.get("spans") or []],
    }


@pytest.fixture(scope="module")
def goverdicts(tmp_path_factory):
    return go_build("./clients/python/tests/goverdicts", tmp_path_factory.mktemp("go") / "goverdicts")


def run_go(binary, cases):
    lines = "".join(json.dumps(c) + "\n" for c in cases)
    r = subprocess.run([str(binary)], input=lines, capture_output=True, text=True, check=False)
    assert r.returncode == 0, r.stderr
    return [json.loads(x) for x in r.stdout.splitlines()]


def test_ifeval_verdicts_match_go(client, goverdicts):
    path = need_shared("ifeval/input_data.jsonl")
    records = [json.loads(x) for x in path.read_text().splitlines() if x.strip()]
    cases = [{"format": "ifeval", "record": r, "responses": IFEVAL_RESPONSES + [r["prompt"]]} for r in records]
    want = run_go(goverdicts, cases)
    rewards = sorted({i for r in records for i in r["instruction_id_list"]})
    got = client.verify("ifeval", [{"record": c["record"], "responses": c["responses"]} for c in cases],
                        rewards=rewards)
    assert got["rewards"] == rewards
    n = diff = 0
    for c, w, item in zip(cases, want, got["items"]):
        assert item["prompt_id"] == f"ifeval-{c['record']['key']}"
        for g, resp in enumerate(item["responses"]):
            by_name = dict(zip(got["rewards"], resp["verdicts"]))
            for name, wv in zip(w["rewards"], w["verdicts"][g]):
                n += 1
                if _norm(by_name[name]) != _norm(wv):
                    diff += 1
                    assert _norm(by_name[name]) == _norm(wv), (c["record"]["key"], name, g)
            for name in set(rewards) - set(w["rewards"]):
                assert by_name[name]["skip"], (c["record"]["key"], name)
    assert n > 3000 and diff == 0
    print(f"{n} IFEval verdicts over HTTP equal Go's ({len(records)} records x {len(cases[0]['responses'])} responses)")


def _first(values):
    for v in values:
        if v != "":
            return v
    return None


def _bfcl_responses(truth: dict) -> list[str]:
    (name, params), = truth.items()
    args = {k: _first(v) for k, v in params.items() if _first(v) is not None}
    good = json.dumps({"name": name, "arguments": args})
    wrong = dict(args)
    for k, v in wrong.items():
        wrong[k] = v + 7 if isinstance(v, (int, float)) and not isinstance(v, bool) else "zq not accepted"
        break
    bad = json.dumps({"name": name, "arguments": wrong})
    return [
        f"<think>I will call it.</think><tool_call>{good}</tool_call>",
        f"<think>Überlegung — ok</think><tool_call>{bad}</tool_call>",
        good,
        "<think>no call</think>",
        "",
    ]


def test_bfcl_verdicts_match_go(client, goverdicts):
    cases, records = [], []
    for name in ("BFCL_v4_simple_python.json", "BFCL_v4_multiple.json"):
        qs = need_shared("bfcl/" + name).read_text().splitlines()
        ans = need_shared("bfcl/possible_answer/" + name).read_text().splitlines()
        for q, a in zip(qs, ans):
            if not q.strip():
                continue
            rec = json.loads(q)
            rec["ground_truth"] = json.loads(a)["ground_truth"]
            resps = _bfcl_responses(rec["ground_truth"][0])
            cases.append({"format": "bfcl", "question": q, "answer": a, "responses": resps})
            records.append(rec)
    want = run_go(goverdicts, cases)
    got = client.verify("bfcl", [{"record": r, "responses": c["responses"]} for r, c in zip(records, cases)])
    assert got["rewards"] == ["format", "call"]
    n = ones = 0
    for r, w, item in zip(records, want, got["items"]):
        assert item["prompt_id"] == r["id"]
        for g, resp in enumerate(item["responses"]):
            for k, name in enumerate(w["rewards"]):
                assert _norm(resp["verdicts"][k]) == _norm(w["verdicts"][g][k]), (r["id"], name, g)
                n += 1
                ones += resp["verdicts"][k]["score"] == 1
    assert n == 600 * 5 * 2 and 0 < ones < n
    print(f"{n} BFCL verdicts over HTTP equal Go's ({ones} score 1)")
