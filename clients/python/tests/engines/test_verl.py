"""verl 0.9.1 itself, through its own reward loop, on a CPU (make test-engines).

A verl user's data: the parquet verl's own GSM8K preprocessing writes
(verl_gsm8k_preprocess.py, a copy of examples/data_preprocess/gsm8k.py,
run on the shared GSM8K lines), and IFEval records whose instruction ids
differ. verl's ``RewardLoopManager`` (Ray in local mode) scores each batch
with the reward manager "credo" in its reward workers; then verl's
``extract_reward``, ``compute_advantage`` (estimator "credo") and
``compute_data_metrics`` run as ``RayPPOTrainer.fit`` calls them.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")
verl = pytest.importorskip("verl")
ray = pytest.importorskip("ray")
pd = pytest.importorskip("pandas")

from verl import DataProto  # noqa: E402
from verl.experimental.reward_loop.reward_manager import registry  # noqa: E402
from verl.trainer.ppo import core_algos  # noqa: E402

from conftest import need_shared  # noqa: E402
from credo_client import Client, from_padded, token_ranges  # noqa: E402

HERE = Path(__file__).resolve().parent


def test_import_verl_registers_credo():
    # verl/__init__.py imported credo_client.adapters.verl through the verl.plugins entry point
    assert "credo" in core_algos.ADV_ESTIMATOR_REGISTRY
    assert "credo" in registry.REWARD_MANAGER
    assert core_algos.get_adv_estimator_fn("credo").__module__ == "credo_client.adapters.verl"


@pytest.fixture(scope="module")
def gsm8k_parquet(tmp_path_factory) -> "pd.DataFrame":
    """verl's own preprocessing of the first shared GSM8K lines, read back from its parquet."""
    lines = need_shared("gsm8k/test.jsonl").read_text().splitlines()[:4]
    raw = tmp_path_factory.mktemp("gsm8k-raw")
    (raw / "main").mkdir()
    for split in ("train", "test"):
        (raw / "main" / f"{split}.jsonl").write_text("\n".join(lines) + "\n")
    # the Hugging Face repository's layout: config "main", as the script loads it
    (raw / "README.md").write_text("---\nconfigs:\n- config_name: main\n  data_files:\n"
                                   "  - split: train\n    path: main/train.jsonl\n"
                                   "  - split: test\n    path: main/test.jsonl\n---\n")
    out = tmp_path_factory.mktemp("gsm8k-verl")
    env = {**os.environ, "HF_DATASETS_OFFLINE": "1", "HF_HUB_OFFLINE": "1"}
    r = subprocess.run([sys.executable, str(HERE / "verl_gsm8k_preprocess.py"), "--local_dataset_path", str(raw),
                        "--local_save_dir", str(out)], capture_output=True, text=True, env=env)
    assert r.returncode == 0, r.stderr[-3000:]
    return pd.read_parquet(out / "train.parquet")


@pytest.fixture(scope="module")
def ray_local(server):
    """Ray on this machine, its workers told where credo serve is."""
    env = {"CREDO_URL": server.url, "CREDO_METHOD": "span"}
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, runtime_env={"env_vars": env})
    yield
    ray.shutdown()


def _config(tokenizer_dir: Path, fmt: str):
    """verl's own trainer config (ppo_trainer.yaml) as main_ppo composes it, for its RayPPOTrainer."""
    from hydra import compose, initialize_config_dir
    from hydra.core.global_hydra import GlobalHydra

    GlobalHydra.instance().clear()
    with initialize_config_dir(config_dir=str(Path(verl.__file__).parent / "trainer" / "config"), version_base=None):
        return compose("ppo_trainer", overrides=[
            f"actor_rollout_ref.model.path={tokenizer_dir}", "reward.reward_manager.name=credo",
            "reward.reward_manager.source=register", "reward.num_workers=1", "algorithm.adv_estimator=credo",
            "algorithm.use_kl_in_reward=False", "trainer.use_v1=False", f"+reward.credo.format={fmt}"])


def _batch(tok, rows: list[dict], responses: list[list[str]]) -> DataProto:
    """A verl batch laid out as its agent loop returns one: prompts left-padded, responses right-padded."""
    prompts, resps, nt = [], [], {"uid": [], "data_source": [], "reward_model": [], "extra_info": []}
    for j, (row, answers) in enumerate(zip(rows, responses)):
        p = tok.apply_chat_template(list(row["prompt"]), add_generation_prompt=True, tokenize=False)
        for a in answers:
            prompts.append(tok(p, add_special_tokens=False)["input_ids"])
            resps.append(tok(a, add_special_tokens=False)["input_ids"] + [tok.eos_token_id])
            nt["uid"].append(f"u{j}")
            for k in ("data_source", "reward_model", "extra_info"):
                nt[k].append(row[k])
    b, p, t = len(prompts), max(map(len, prompts)), max(map(len, resps)) + 3
    ids_p, ids_r = torch.full((b, p), tok.pad_token_id), torch.full((b, t), tok.pad_token_id)
    att = torch.zeros((b, p + t), dtype=torch.int64)
    for i, (a, r) in enumerate(zip(prompts, resps)):
        ids_p[i, p - len(a):] = torch.tensor(a)
        ids_r[i, : len(r)] = torch.tensor(r)
        att[i, p - len(a): p + len(r)] = 1
    non_tensor = {k: np.array(v, dtype=object) for k, v in nt.items()}
    return DataProto.from_dict(tensors={"prompts": ids_p, "responses": ids_r, "attention_mask": att},
                               non_tensors=non_tensor, meta_info={"global_steps": 3})


def _through_verl(config, batch: DataProto):
    """What RayPPOTrainer.fit does from the reward to the metrics, with verl's own functions."""
    from verl.experimental.reward_loop import RewardLoopManager
    from verl.trainer.ppo.metric_utils import compute_data_metrics
    from verl.trainer.ppo.ray_trainer import compute_advantage, compute_response_mask
    from verl.trainer.ppo.reward import extract_reward

    manager = RewardLoopManager(config=config)
    batch.batch["response_mask"] = compute_response_mask(batch)
    batch = batch.union(manager.compute_rm_score(batch))
    reward_tensor, extra = extract_reward(batch)
    batch.batch["token_level_scores"] = reward_tensor
    batch.non_tensor_batch.update({k: np.array(v) for k, v in extra.items()})
    batch.batch["token_level_rewards"] = batch.batch["token_level_scores"]
    batch = compute_advantage(batch, adv_estimator=config.algorithm.adv_estimator, num_repeat=1, config=config.algorithm)
    return batch, extra, compute_data_metrics(batch, use_critic=False)


def test_gsm8k_parquet_through_the_reward_loop(server, ray_local, gsm8k_parquet):
    tok_dir = need_shared("tokenizers/qwen3/tokenizer.json").parent
    from transformers import AutoTokenizer

    tok = AutoTokenizer.from_pretrained(str(tok_dir))
    rows = gsm8k_parquet.to_dict("records")[:2]
    gts = [r["reward_model"]["ground_truth"] for r in rows]
    assert all(g.isdigit() for g in gts)  # verl writes the bare number: what credo refused before
    answers = [[f"{g} it is.\n#### {g}", "#### 0", f"So the answer is {g}.\nanswer: {g}", "I do not know."] for g in gts]
    batch, extra, metrics = _through_verl(_config(tok_dir, "gsm8k"), _batch(tok, rows, answers))

    rewards = [1.0, 0.0, 1.0, 0.0] * 2
    assert [float(x) for x in batch.batch["token_level_scores"].sum(-1)] == rewards
    assert metrics["critic/score/mean"] == pytest.approx(np.mean(rewards))  # rewards, not sums of advantages
    assert metrics["critic/score/max"] == 1.0 and metrics["critic/score/min"] == 0.0
    assert set(extra) == {"answer", "format", "credo"} and list(extra["answer"]) == rewards
    assert all(x is None for x in extra["format"])  # format does not judge GSM8K records

    client = Client(server.url)
    mask = batch.batch["response_mask"]
    texts = [token_ranges(tok, batch.batch["responses"][i][mask[i].bool()].tolist()) for i in range(len(batch))]
    items = [{"record": {"question": r["extra_info"]["question"], "answer": g}, "responses": [t for t, _ in texts[4 * j: 4 * j + 4]]}
             for j, (r, g) in enumerate(zip(rows, gts))]
    v = client.verify("gsm8k", items)
    verdicts = [r["verdicts"] for item in v["items"] for r in item["responses"]]
    rs, _ = from_padded(batch.batch["responses"], mask, list(batch.non_tensor_batch["uid"]), texts=[t for t, _ in texts],
                        offsets=[o for _, o in texts], verdicts=verdicts)
    want = client.advantages("span", rs, v["rewards"], v["weights"], step=3)
    adv = batch.batch["advantages"]
    for i in range(len(batch)):
        assert torch.allclose(adv[i][mask[i].bool()].double(), torch.as_tensor(want.advantages[i]), atol=1e-6), i
    assert torch.all(adv[mask == 0] == 0)
    assert metrics["critic/advantages/max"] == pytest.approx(float(adv[mask.bool()].max()), abs=1e-6)


def test_mixed_ifeval_records_through_the_reward_loop(server, ray_local):
    tok_dir = need_shared("tokenizers/qwen3/tokenizer.json").parent
    from transformers import AutoTokenizer

    tok = AutoTokenizer.from_pretrained(str(tok_dir))
    recs = [json.loads(x) for x in need_shared("ifeval/input_data.jsonl").read_text().splitlines()[:3]]
    assert len({tuple(r["instruction_id_list"]) for r in recs}) == 3  # different ids: verl's KeyError before
    rows = [{"prompt": [{"role": "user", "content": r["prompt"]}], "data_source": "ifeval",
             "reward_model": {"style": "rule", "ground_truth": ""}, "extra_info": {"credo_record": json.dumps(r)}}
            for r in recs]
    answers = [["Plain words without any punctuation at all", "One, two, three."]] * 3
    batch, extra, metrics = _through_verl(_config(tok_dir, "ifeval"), _batch(tok, rows, answers))

    names = Client(server.url).tasks()
    ids = next(f["rewards"] for f in names["formats"] if f["name"] == "ifeval")
    assert set(extra) == set(ids) | {"credo"}  # every row the same keys: the format's
    for i, rec in enumerate(r for r in recs for _ in range(2)):
        for name in ids:
            assert (extra[name][i] is None) == (name not in rec["instruction_id_list"]), (i, name)
    scores = batch.batch["token_level_scores"].sum(-1)
    assert metrics["critic/score/mean"] == pytest.approx(float(scores.mean()))
    assert float(scores.max()) <= 3.0  # a weighted sum of at most 3 judged rewards, not advantages
    mask = batch.batch["response_mask"]
    assert torch.all(batch.batch["advantages"][mask == 0] == 0)
    assert float(batch.batch["advantages"][mask.bool()].abs().sum()) > 0


def test_estimator_without_credo_payloads_says_why():
    from verl.trainer.ppo.ray_trainer import compute_advantage

    data = DataProto.from_dict(tensors={"token_level_rewards": torch.zeros(2, 3), "response_mask": torch.ones(2, 3)},
                               non_tensors={"uid": np.array(["a", "a"], dtype=object)})
    with pytest.raises(RuntimeError, match="reward_manager.name=credo"):
        compute_advantage(data, adv_estimator="credo", config=None)
