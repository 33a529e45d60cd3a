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


# What slime's main (624b824) does between the two hooks, copied from
# slime/ray/rollout.py: RolloutManager._convert_samples_to_train_data's
# fields and the keys _split_train_data_by_dp ships to the training ranks
# (slime does not import on a CPU: slime.ray.rollout imports SGLang).
SLIME_SHIPPED = ["tokens", "multimodal_train_inputs", "response_lengths", "rewards", "truncated", "loss_masks",
                 "round_number", "sample_indices", "rollout_ids", "rollout_mask_sums", "rollout_log_probs",
                 "rollout_top_p_token_ids", "rollout_top_p_token_offsets", "rollout_routed_experts", "source_names",
                 "prompt", "teacher_log_probs"]


def _slime_convert_and_ship(args, samples, post_process):
    raw_rewards, rewards = post_process(args, samples)
    rollout_ids = [s.rollout_id for s in samples]
    data = {"tokens": [s.tokens for s in samples], "response_lengths": [s.response_length for s in samples],
            "rewards": rewards, "raw_reward": raw_rewards, "truncated": [0 for _ in samples],
            "sample_indices": [s.index for s in samples], "rollout_ids": rollout_ids}
    loss_masks = []
    for s in samples:
        if s.loss_mask is None:
            s.loss_mask = [1] * s.response_length
        loss_masks.append(s.loss_mask)
    data["loss_masks"] = loss_masks
    total: dict = {}
    for rid, m in zip(rollout_ids, loss_masks):
        total[rid] = total.get(rid, 0) + sum(m)
    data["rollout_mask_sums"] = [total[rid] for rid in rollout_ids]
    if samples[0].teacher_log_probs is not None:
        data["teacher_log_probs"] = [s.teacher_log_probs for s in samples]
    shipped = {k: data[k] for k in SLIME_SHIPPED if k in data}
    shipped["raw_reward"] = data["raw_reward"]
    return shipped


def _slime_samples(answers):
    prompt = [7, 8, 9]
    return [SimpleNamespace(tokens=prompt + list(a.encode()), response_length=len(a.encode()), label=GSM8K[0]["answer"],
                            prompt=GSM8K[0]["question"], group_index=0, index=i, rollout_id=i, metadata={},
                            loss_mask=None, teacher_log_probs=None, status="completed") for i, a in enumerate(answers)]


def test_slime_hooks_through_slimes_conversion(server, client):
    samples = _slime_samples(ANSWERS)
    args = SimpleNamespace(rollout_id=0, use_opd=False)
    credo = Credo(url=server.url, format="gsm8k")
    data = _slime_convert_and_ship(args, samples, lambda a, s: slime.post_process_rewards(a, s, credo, ByteTokenizer()))
    want = _want(client, ANSWERS)
    assert data["raw_reward"] == [1.0, 0.0, 1.0, 0.0]
    assert data["rewards"] == want.response_advantages
    assert data["rollout_ids"] == [0, 1, 2, 3] and data["rollout_mask_sums"] == [len(a.encode()) for a in ANSWERS]
    data["kl"] = [torch.zeros(n) for n in data["response_lengths"]]
    slime.compute_advantages(args, data)  # on the training rank, from the shipped keys only
    for got, w in zip(data["advantages"], want.advantages):
        assert got.tolist() == pytest.approx(list(w), abs=1e-6)
    assert data["returns"] is data["advantages"]


def test_slime_refuses_opd_and_a_missing_post_process():
    with pytest.raises(ValueError, match="use-opd"):
        slime.post_process_rewards(SimpleNamespace(use_opd=True), _slime_samples(ANSWERS))
    with pytest.raises(ValueError, match="custom-reward-post-process-path"):
        slime.compute_advantages(SimpleNamespace(), {"kl": [], "loss_masks": []})


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


def test_trl_logs_only_the_rewards_present():
    from collections import defaultdict

    from credo_client.adapters.trl import drop_absent_rewards

    nan = float("nan")
    m = defaultdict(list, {"rewards/punctuation:no_comma/mean": [1.0, nan], "rewards/punctuation:no_comma/std": [0.0, nan],
                           "rewards/change_case:english_lowercase/mean": [nan, nan],
                           "rewards/change_case:english_lowercase/std": [nan, nan], "reward": [nan], "loss": [0.5]})
    drop_absent_rewards(m)
    assert sorted(m) == ["loss", "reward", "rewards/punctuation:no_comma/mean", "rewards/punctuation:no_comma/std"]
