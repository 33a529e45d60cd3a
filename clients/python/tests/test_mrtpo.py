"""MRTPO from top-k log-probs the trainer computes itself (SERVICE.md §8-9).

A tiny seeded torch model over bytes scores the plan's requests; with
k = 256 (the whole vocabulary) the service's relevance must equal the
Jensen-Shannon divergence computed here from the full distributions.
"""

from __future__ import annotations

import base64
import math
import struct

import pytest

from conftest import GSM8K
from credo_client import CredoError, response

torch = pytest.importorskip("torch")
np = pytest.importorskip("numpy")
V = 256


class TinyLM(torch.nn.Module):
    """A causal byte model: a GRU over embeddings (prompt and response alike)."""

    def __init__(self) -> None:
        super().__init__()
        g = torch.Generator().manual_seed(1234)
        self.emb = torch.nn.Embedding(V, 16)
        self.rnn = torch.nn.GRU(16, 32, batch_first=True)
        self.out = torch.nn.Linear(32, V)
        with torch.no_grad():
            for p in self.parameters():
                p.copy_(torch.randn(p.shape, generator=g) * 0.5)

    @torch.no_grad()
    def logprobs(self, ids: list[int]) -> torch.Tensor:
        h, _ = self.rnn(self.emb(torch.tensor([ids])))
        return torch.log_softmax(self.out(h[0]).double(), -1)  # row j predicts token j+1


def score(model: TinyLM, plan: dict, responses: list[dict], k: int) -> tuple[list[dict], list[np.ndarray]]:
    """Top-k answers for every planned request, and the full distributions."""
    answers, full = [], []
    for req in plan["requests"]:
        prompt = list(plan["prompts"][req["prompt"]].encode())
        toks = responses[req["response"]]["tokens"]
        lp = model.logprobs(prompt + toks)[len(prompt) - 1: len(prompt) - 1 + len(toks)]
        full.append(lp.exp().numpy())
        top = torch.topk(lp.float(), k, dim=-1)
        answers.append({"k": k, "ids": top.indices.reshape(-1).tolist(), "logprobs": top.values.reshape(-1).tolist()})
    return answers, full


def js(p: np.ndarray, q: np.ndarray) -> np.ndarray:
    m = 0.5 * (p + q)
    with np.errstate(divide="ignore", invalid="ignore"):
        a = np.where(p > 0, p * np.log(p / m), 0.0).sum(-1)
        b = np.where(q > 0, q * np.log(q / m), 0.0).sum(-1)
    return 0.5 * (a + b) / math.log(2)


@pytest.fixture(scope="module")
def batch(client):
    recs = GSM8K  # the answer verifier's information block is the reference number
    resps = [["answer: 7", "answer: 8", "I think 7.\nanswer: 7", "answer: 70"],
             ["answer: 12", "answer: 13", "12 eggs\nanswer: 12", "no idea"]]
    v = client.verify("gsm8k", [{"record": r, "responses": g} for r, g in zip(recs, resps)])
    rs = []
    for j, item in enumerate(v["items"]):
        for g, text in enumerate(resps[j]):
            b = text.encode()
            rs.append(response(j, text, list(b), [(i, i + 1) for i in range(len(b))],
                               verdicts=item["responses"][g]["verdicts"], prompt=item["replay_base"]))
    return v["rewards"], v["weights"], rs


CONFIG = {"replay_warmup_steps": 0}


def test_plan_lists_only_varying_groups(client, batch):
    rewards, weights, rs = batch
    plan = client.replay_plan("mrtpo", rs, rewards, weights, config=CONFIG)
    assert len(plan["plan"]) == 64 and plan["requests"]
    assert len(set(plan["prompts"])) == len(plan["prompts"])  # deduplicated
    assert {p["reward"] for p in plan["pairs"]} == {rewards.index("answer")}  # format is skipped on GSM8K


@pytest.mark.parametrize("k", [V, 20])
def test_mrtpo_from_topk(client, batch, k):
    rewards, weights, rs = batch
    plan = client.replay_plan("mrtpo", rs, rewards, weights, config=CONFIG)
    answers, full = score(TinyLM(), plan, rs, k)
    out = client.advantages("mrtpo", rs, rewards, weights, config=CONFIG, return_relevance=True,
                            replay={"plan": plan["plan"], "answers": answers})
    gd = client.advantages("gdpo", rs, rewards, weights)
    assert out.response_advantages == pytest.approx(gd.response_advantages, abs=1e-9)
    moved = 0
    for i, a in enumerate(out.advantages):
        if len(a):
            assert abs(float(np.mean(a)) - out.response_advantages[i]) < 1e-6
            moved += float(np.ptp(a)) > 1e-6
    assert moved >= 4  # replay moved credit inside the responses of varying groups
    rel = out.relevance["answer"]
    worst = 0.0
    for pair in plan["pairs"]:
        q = np.asarray(rel[pair["response"]])
        mine = js(full[pair["full"]], full[pair["without"]])
        if k == V:
            worst = max(worst, float(np.max(np.abs(q - mine))))
        else:  # merging the tail into one bucket can only lower JS; a rank swap raises it a little
            assert np.corrcoef(q, mine)[0, 1] > 0.9
    if k == V:
        print(f"relevance at k=V against JS of the full distributions: max |diff| = {worst:.2e}")
        assert worst < 1e-4


def test_mrtpo_warms_up_to_gdpo_at_step_0(client, batch):
    rewards, weights, rs = batch
    plan = client.replay_plan("mrtpo", rs, rewards, weights)
    answers, _ = score(TinyLM(), plan, rs, 20)
    out = client.advantages("mrtpo", rs, rewards, weights, step=0, replay={"plan": plan["plan"], "answers": answers})
    gd = client.advantages("gdpo", rs, rewards, weights)
    assert [list(a) for a in out.advantages] == [list(a) for a in gd.advantages]


def test_bad_replay_answers(client, batch):
    rewards, weights, rs = batch
    plan = client.replay_plan("mrtpo", rs, rewards, weights, config=CONFIG)
    answers, _ = score(TinyLM(), plan, rs, 5)
    with pytest.raises(CredoError) as e:  # one answer short
        client.advantages("mrtpo", rs, rewards, weights, config=CONFIG,
                          replay={"plan": plan["plan"], "answers": answers[:-1]})
    assert e.value.status == 400 and e.value.path.startswith("replay.answers"), e.value
    bad = [dict(a) for a in answers]
    n = len(bad[0]["logprobs"])
    bad[0]["logprobs"] = base64.b64encode(struct.pack(f"<{n}f", float("nan"), *bad[0]["logprobs"][1:])).decode()
    with pytest.raises(CredoError) as e:  # NaN inside a packed array
        client.advantages("mrtpo", rs, rewards, weights, config=CONFIG, replay={"plan": plan["plan"], "answers": bad})
    assert e.value.status == 400 and e.value.path.startswith("replay.answers[0].logprobs"), e.value
    with pytest.raises(CredoError) as e:  # another batch's plan
        client.advantages("mrtpo", rs, rewards, weights, config=CONFIG,
                          replay={"plan": "0" * 64, "answers": answers})
    assert e.value.status == 400 and e.value.path.startswith("replay.plan"), e.value
