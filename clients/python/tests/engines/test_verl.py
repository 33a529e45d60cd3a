"""verl 0.9.1 itself: its plugin loader, estimator registry and reward-manager
path, through verl's own functions, on a CPU batch (make test-engines)."""

from __future__ import annotations

import json

import numpy as np
import pytest

torch = pytest.importorskip("torch")
verl = pytest.importorskip("verl")

from verl import DataProto  # noqa: E402
from verl.experimental.reward_loop.reward_manager import registry  # noqa: E402
from verl.trainer.ppo import core_algos  # noqa: E402

from conftest import GSM8K  # noqa: E402
from credo_client import Client, from_padded, token_ranges  # noqa: E402

RECORDS = GSM8K
ANSWERS = [["answer: 7", "answer: 8", "So 7.\nanswer: 7", "no"], ["answer: 12", "answer: 13", "12 eggs\nanswer: 12", ""]]


def test_import_verl_registers_credo():
    # verl/__init__.py imported credo_client.adapters.verl through the verl.plugins entry point
    assert "credo" in core_algos.ADV_ESTIMATOR_REGISTRY
    assert "credo" in registry.REWARD_MANAGER
    assert core_algos.get_adv_estimator_fn("credo").__module__ == "credo_client.adapters.verl"


def _batch(tok):
    prompts = [tok(r["question"], add_special_tokens=False)["input_ids"] for r in RECORDS for _ in range(4)]
    resps = [tok(a, add_special_tokens=False)["input_ids"] + [tok.eos_token_id] for g in ANSWERS for a in g]
    p, t = max(map(len, prompts)), max(map(len, resps)) + 2
    pad = tok.pad_token_id
    ids_p = torch.full((8, p), pad)
    ids_r = torch.full((8, t), pad)
    att = torch.zeros((8, p + t), dtype=torch.int64)
    for i, (a, b) in enumerate(zip(prompts, resps)):
        ids_p[i, p - len(a):] = torch.tensor(a)  # prompts left-padded, responses right-padded, as verl lays them out
        ids_r[i, : len(b)] = torch.tensor(b)
        att[i, p - len(a): p + len(b)] = 1
    non_tensor = {
        "uid": np.array([f"u{i // 4}" for i in range(8)], dtype=object),
        "data_source": np.array(["gsm8k"] * 8, dtype=object),
        "reward_model": np.array([{"style": "rule", "ground_truth": RECORDS[i // 4]["answer"]} for i in range(8)], dtype=object),
        "extra_info": np.array([{"credo_record": json.dumps(RECORDS[i // 4])} for i in range(8)], dtype=object),
    }
    return DataProto.from_dict(tensors={"prompts": ids_p, "responses": ids_r, "attention_mask": att},
                               non_tensors=non_tensor, meta_info={"global_steps": 3})


def test_reward_manager_and_estimator_through_verl(server, qwen3_tokenizer):
    from omegaconf import OmegaConf
    from verl.trainer.ppo.ray_trainer import compute_advantage
    from verl.trainer.ppo.reward import load_reward_manager

    tok = qwen3_tokenizer
    config = OmegaConf.create({
        "reward": {"reward_manager": {"name": "credo", "source": "register"}, "custom_reward_function": {"path": None},
                   "sandbox_fusion": None, "credo": {"url": server.url, "format": "gsm8k", "method": "span"}},
        "trainer": {"experiment_name": "credo-test"},
    })
    manager = load_reward_manager(config, tok)
    data = _batch(tok)
    # on the loop verl gave the manager (RewardManagerBase.__init__: get_event_loop()), as its workers run it
    outs = [manager.loop.run_until_complete(manager.run_single(data[i: i + 1])) for i in range(len(data))]
    scores = [o["reward_score"] for o in outs]
    assert [float(s) for s in scores] == [1, 0, 1, 0, 1, 0, 1, 0]
    assert outs[0]["reward_extra_info"]["answer"] == 1.0
    rm = type(manager).assemble_rm_scores(data, scores)
    assert rm.shape == data.batch["responses"].shape

    # what credo says for the same batch, computed here independently of the adapter
    p = data.batch["prompts"].size(1)
    mask = data.batch["attention_mask"][:, p:]
    texts = [token_ranges(tok, data.batch["responses"][i][mask[i].bool()].tolist()) for i in range(8)]
    client = Client(server.url)
    v = client.verify("gsm8k", [{"record": r, "responses": [t for t, _ in texts[4 * j: 4 * j + 4]]}
                                for j, r in enumerate(RECORDS)])
    verdicts = [r["verdicts"] for item in v["items"] for r in item["responses"]]
    rs, lay = from_padded(data.batch["responses"], mask, list(data.non_tensor_batch["uid"]), texts=[t for t, _ in texts],
                          offsets=[o for _, o in texts], verdicts=verdicts)
    want = client.advantages("span", rs, v["rewards"], v["weights"], step=3)
    for i in range(8):
        got = rm[i][mask[i].bool()]
        assert torch.allclose(got.double(), torch.as_tensor(want.advantages[i]), atol=1e-6), i
    assert torch.all(rm[mask == 0] == 0)
    assert float(rm[0][mask[0].bool()].std()) > 0  # placed, not uniform

    # verl's own compute_advantage with adv_estimator=credo trains on exactly those
    data.batch["token_level_rewards"] = rm
    data.batch["response_mask"] = mask
    out = compute_advantage(data, adv_estimator="credo", config=OmegaConf.create({}))
    assert torch.equal(out.batch["advantages"], rm * mask)
    assert torch.equal(out.batch["returns"], rm * mask)
