"""OpenRLHF 0.11.2's own HTTP reward client against credo's /get_reward (make test-engines)."""

from __future__ import annotations

import asyncio

import pytest

pytest.importorskip("openrlhf")
from openrlhf.utils.agent import SingleTurnAgentExecutor  # noqa: E402

from conftest import LABEL, PROMPT  # noqa: E402



def test_openrlhf_fetches_credo_rewards(openrlhf_endpoint):
    ex = SingleTurnAgentExecutor(remote_rm_url=openrlhf_endpoint)
    queries = [PROMPT + "answer: 7<|im_end|>", PROMPT + "answer: 9<|im_end|>"]
    out = asyncio.run(ex._fetch_rewards_via_http(queries, [PROMPT] * 2, [LABEL] * 2))
    assert len(out) == 1  # one server, one shard
    assert out[0]["rewards"] == [1.0, 0.0] and out[0]["scores"] == [1.0, 0.0]
    assert out[0]["extra_logs"]["answer"] == [1.0, 0.0]


class _Engine:
    """A stand-in for OpenRLHF's vLLM engine: generate answers a fixed continuation."""

    def __init__(self, tok, text: str) -> None:
        self.ids = tok(text, add_special_tokens=False)["input_ids"]

    async def generate(self, prompt_token_ids, sampling_params, multi_modal_data=None):
        from types import SimpleNamespace

        out = SimpleNamespace(token_ids=list(self.ids), text="", finish_reason="stop", logprobs=None)
        return SimpleNamespace(outputs=[out])


@pytest.mark.parametrize("answer, reward", [("answer: 7<|im_end|>", 1.0), ("answer: 9<|im_end|>", 0.0)])
def test_openrlhf_execute_scores_through_credo(openrlhf_endpoint, qwen3_tokenizer, answer, reward):
    # SingleTurnAgentExecutor.execute: tokenize, generate, decode prompt + action, fetch the reward over HTTP
    from types import SimpleNamespace

    ex = SingleTurnAgentExecutor(remote_rm_url=openrlhf_endpoint)
    params = SimpleNamespace(max_tokens=64, logprobs=None)
    out = asyncio.run(ex.execute(PROMPT, LABEL, params, 512, qwen3_tokenizer, _Engine(qwen3_tokenizer, answer)))
    # one query, one shard: OpenRLHF keeps the shard's lists (execute swallows a failed fetch: None then)
    assert out["reward"] == [reward] and out["scores"] == [reward]
    assert out["extra_logs"]["answer"] == [reward]
    start, end = out["action_ranges"][0]
    assert qwen3_tokenizer.decode(out["observation_tokens"][start:end]) == answer
