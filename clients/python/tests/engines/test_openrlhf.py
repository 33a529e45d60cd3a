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
