"""The adapters whose engines are not on PyPI (prime-rl, slime), on stand-in
objects shaped as their code reads them: each must hand the engine exactly
the per-token advantages credo serve gives for the same batch."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest

from conftest import GSM8K, ByteTokenizer
from credo_client import response
from credo_client.adapters import prime_rl, slime
from credo_client.adapters.common import Credo

torch = pytest.importorskip("torch")
ANSWERS = ["answer: 7", "answer: 8", "So 7.\nanswer: 7", ""]


def _want(client, answers):
    v = client.verify("gsm8k", [{"record": GSM8K[0], "responses": answers}])
    rs = [response(0, a, list(a.encode()), [(i, i + 1) for i in range(len(a.encode()))],
                   verdicts=r["verdicts"]) for a, r in zip(answers, v["items"][0]["responses"])]
    return client.advantages("span", rs, v["rewards"], v["weights"])


def test_prime_rl_credit_traces(server, client):
    def node(ids, mask):
        return SimpleNamespace(token_ids=ids, mask=mask)

    traces = []
    for a in ANSWERS:
        b = list(a.encode())
        user, asst = node([1, 2, 3], [False] * 3), node(b, [True] * len(b))
        traces.append(SimpleNamespace(nodes=[user, asst], branches=[SimpleNamespace(trainable=True, nodes=[user, asst])],
                                      info={"credo_record": json.dumps(GSM8K[0])}))
    got = prime_rl.credit_traces(Credo(url=server.url, format="gsm8k"), ByteTokenizer(), traces)
    want = _want(client, ANSWERS)
    assert got == [list(map(float, a)) for a in want.advantages]
    assert [len(g) for g in got] == [len(a.encode()) for a in ANSWERS]  # one per sampled token


def test_slime_hooks(server, client):
    prompt = [7, 8, 9]
    samples = [SimpleNamespace(tokens=prompt + list(a.encode()), response_length=len(a.encode()), label=GSM8K[0]["answer"],
                               prompt=GSM8K[0]["question"], group_index=0, index=i, metadata=None, loss_mask=None,
                               status="completed") for i, a in enumerate(ANSWERS)]
    args = SimpleNamespace(rollout_id=0)
    data = slime.convert_samples_to_train_data(args, samples, Credo(url=server.url, format="gsm8k"), ByteTokenizer())
    want = _want(client, ANSWERS)
    assert data["raw_reward"] == [1.0, 0.0, 1.0, 0.0]
    assert data["rewards"] == want.response_advantages
    assert data["loss_masks"][0] == [1] * len(ANSWERS[0].encode())
    data["kl"] = [torch.zeros(n) for n in data["response_lengths"]]
    slime.compute_advantages(args, data)
    for got, w in zip(data["advantages"], want.advantages):
        assert got.tolist() == pytest.approx(list(w), abs=1e-6)
    assert data["returns"] is data["advantages"]


def test_verl_batch_of_responses_judged_on_different_rewards(client):
    # verl verifies one response at a time: IFEval records give each response its own rewards
    from credo_client.adapters.verl import _aligned, _union_rewards

    a = {"rewards": ["punctuation:no_comma"], "weights": [1.0], "verdicts": [{"score": 1, "spans": [], "skip": False}]}
    b = {"rewards": ["change_case:english_lowercase", "punctuation:no_comma"], "weights": [2.0, 1.0],
         "verdicts": [{"score": 0, "spans": [], "skip": False}, {"score": 0, "spans": [], "skip": False}]}
    names, weights = _union_rewards([a, b])
    assert names == ["punctuation:no_comma", "change_case:english_lowercase"] and weights == [1.0, 2.0]
    va, vb = _aligned(a, names), _aligned(b, names)
    assert va[1]["skip"] and vb[0]["score"] == 0 and vb[1]["score"] == 0
    rs = [response(0, "x,", [1, 2], [(0, 1), (1, 2)], verdicts=va), response(0, "y", [3], [(0, 1)], verdicts=vb)]
    out = client.advantages("span", rs, names, weights)  # one consistent reward list: the server accepts it
    assert [len(x) for x in out.advantages] == [2, 1]


@pytest.mark.parametrize("given, answer", [
    ("18", 18),  # verl's GSM8K preprocessing: ground_truth is the bare number, as text
    (18, 18),
    (2.5, 2.5),
    ("so 9 * 2 = 18\n#### 18", "so 9 * 2 = 18\n#### 18"),
    ({"question": "q", "answer": "#### 3"}, "#### 3"),
])
def test_gsm8k_record_item_takes_the_answer_alone(given, answer):
    from credo_client.adapters.common import record_item

    item = record_item(given, "gsm8k", prompt="q")
    assert item == {"record": {"question": "q", "answer": answer}}


def test_record_item_refuses_what_is_no_record():
    from credo_client.adapters.common import record_item

    for given, fmt in [(18, "ifeval"), (True, "gsm8k"), ("not json", "bfcl"), ([1], "gsm8k")]:
        with pytest.raises(ValueError):
            record_item(given, fmt)


def test_gsm8k_bare_answer_is_judged(client):
    from credo_client.adapters.common import record_item

    v = client.verify("gsm8k", [{**record_item("18", "gsm8k", prompt="How many?"), "responses": ["answer: 18", "answer: 17"]}])
    assert [r["verdicts"][0]["score"] for r in v["items"][0]["responses"]] == [1, 0]
