"""verl: credo's verifiers and token-level credit as a reward manager and an
advantage estimator.

Follows verl 0.9.1 (PyPI; the same code as volcengine/verl at its v0.9.1
tag): ``verl/experimental/reward_loop/reward_manager/base.py``
(``RewardManagerBase.run_single``; its default ``assemble_rm_scores``
puts each score on the last token), ``.../reward_manager/registry.py``
(``register``), ``verl/trainer/ppo/core_algos.py`` (``register_adv_est``),
``verl/trainer/ppo/ray_trainer.py`` (``compute_advantage``) and
``verl/__init__.py``, which imports every ``verl.plugins`` entry point
at ``import verl``: installing credo_client registers both, as "credo".

Config (a whole command: clients/python/examples/verl-credo.sh)::

    algorithm.adv_estimator=credo algorithm.use_kl_in_reward=False
    reward.reward_manager.name=credo trainer.use_v1=False
    # and in the environment of verl's processes:
    CREDO_URL=http://127.0.0.1:8700 CREDO_FORMAT=gsm8k CREDO_METHOD=span

How credit flows. ``run_single`` (verl calls it once per response, in its
reward workers) decodes the response's valid tokens, gives each its UTF-8
byte range (credo_client.offsets.token_ranges), verifies it through the
service and returns the weighted reward as ``reward_score``: verl writes it
on the response's last token (``rm_scores``), so ``token_level_scores``,
the ``critic/score/*`` and ``critic/rewards/*`` metrics and dumped rollouts
show rewards. Its ``reward_extra_info`` holds, for every response, the
same keys: each reward of the run (CREDO_REWARDS, else every reward of the
format, GET /v1/tasks: IFEval's 25 instruction ids) with the response's
score, or None where its record is not judged on that reward (verl takes
the keys of a batch from its first row, so an IFEval batch whose records
carry different ids needs them all; verl's validation metrics leave None
out), and ``credo``, a JSON text of what credit needs (text, token ids,
byte ranges, verdicts, record). The estimator "credo" (verl's
``compute_advantage``, on the driver) reads those payloads from the batch
it is computing, sends them grouped by ``uid`` to /v1/advantages in one
request and returns credo's per-token advantages (and returns) under the
response mask. verl hands an estimator no batch (only GDPO gets one,
verl#7473), so it finds ``compute_advantage``'s ``data`` in its caller's
frame; it raises, saying so, where there is none. Both of verl 0.9.1's
reward paths carry ``reward_extra_info`` into the batch: the agent loop's
streaming one (the default without a reward model) and
``RewardLoopManager.compute_rm_score``.

A record per prompt: the dataset row's ``extra_info["credo_record"]`` (a
record of the format, or its JSON), ``extra_info["credo_prompt_id"]`` for
format "task", else ``reward_model["ground_truth"]`` (a GSM8K answer: a
worked solution or, as verl's own GSM8K preprocessing writes it, the bare
number "18"; or a record's JSON).

Tested (make test-engines, clients/python/tests/engines/test_verl.py)
through verl's own loop on a CPU: verl's GSM8K preprocessing
(examples/data_preprocess/gsm8k.py) writes the parquet, verl's
``RewardLoopManager`` (Ray, local) scores it with this manager in its
reward workers, verl's ``extract_reward``, ``compute_advantage`` and
``compute_data_metrics`` follow as ``RayPPOTrainer.fit`` calls them; and
a batch of IFEval records with different instruction ids. Not run: a
whole ``main_ppo`` step. Tried on a CPU with a 2-layer Qwen2 and that
parquet (``trainer.device=cpu trainer.n_gpus_per_node=1``): with
``trainer.use_v1=False`` it stops in ``RayPPOTrainer.init_workers`` →
``ResourcePoolManager.create_resource_pool`` →
``_check_resource_available``: "Total available GPUs 0 is less than
total desired GPUs 1"; past it, its rollout registry
(``verl/workers/rollout/base.py``: vllm, sglang, trtllm) has no CPU
engine. 0.9.1's default trainer (``trainer.use_v1=True``) stops earlier,
at ``import transfer_queue`` (the TransferQueue extra), and would not
suit this estimator anyway: its ``_compute_advantage`` hands
``compute_advantage`` only uid, masks, ``rm_scores`` and log-probs, not
the reward's extra info, so the estimator raises there. Use
``trainer.use_v1=False`` (verl's ``RayPPOTrainer``, which this test drives).

CREDO_REWARDS (comma-separated) names the rewards to judge: the extra
info then has just those keys (and ``credo``), where an IFEval run would
otherwise carry all 25 ids. verl's own ``gdpo`` estimator reads the keys
named in ``algorithm.gdpo_reward_keys``; a None in them (a record not
judged on that reward) is not a number, so give gdpo records judged on
the same rewards.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from ..batch import layout, to_padded
from ..offsets import token_ranges
from .common import Credit, Credo, Sample, record_item

NAME = "credo"
PAYLOAD = "credo"  # the reward_extra_info key that carries what credit needs


def _find_batch(token_level_rewards: Any) -> Any:
    """compute_advantage's ``data`` (a DataProto carrying credo's payloads), from the caller's frames."""
    f = sys._getframe(2)
    for _ in range(8):
        if f is None:
            break
        d = f.f_locals.get("data")
        nt = getattr(d, "non_tensor_batch", None)
        if isinstance(nt, dict) and PAYLOAD in nt and len(nt[PAYLOAD]) == token_level_rewards.shape[0]:
            return d
        f = f.f_back
    raise RuntimeError(
        "verl estimator 'credo': no batch with credo's payloads (reward_extra_info['credo']) in compute_advantage's "
        "frame: score with reward.reward_manager.name=credo and run verl's RayPPOTrainer (trainer.use_v1=False: "
        "the v1 trainer does not pass the reward's extra info to advantages), or pass data= (a DataProto) yourself")


def credo_advantage(token_level_rewards: Any, response_mask: Any, index: Any = None, config: Any = None,
                    data: Any = None, **kwargs: Any) -> tuple[Any, Any]:
    """verl estimator "credo": credo's per-token advantages for the batch, masked (advantages, returns).

    token_level_rewards (verl's rewards on the last tokens) are not read:
    credo's credit reads the verdicts the reward manager put in the batch.
    """
    batch = data if data is not None else _find_batch(token_level_rewards)
    adv = batch_advantages(batch, response_mask, index)
    return adv, adv


def _item(row: Any, fmt: str) -> dict[str, Any]:
    extra = row.get("extra_info") or {}
    if isinstance(extra, dict):
        if "credo_prompt_id" in extra:
            return {"prompt_id": str(extra["credo_prompt_id"])}
        if "credo_record" in extra:
            return record_item(extra["credo_record"], fmt)
    gt = (row.get("reward_model") or {}).get("ground_truth")
    if gt is None:
        raise ValueError("no credo record: set extra_info.credo_record (or reward_model.ground_truth)")
    return record_item(gt, fmt, prompt=str(extra.get("question", "")) if isinstance(extra, dict) else "")


def sample_payload(credo: Credo, tokenizer: Any, response_ids: Any, row: Any,
                   names: list[str] | None = None) -> tuple[float, dict[str, Any], dict]:
    """One response (valid ids and its non-tensor row): (weighted reward, extra info, credit payload).

    names: the keys of the extra info, the same for every response (a
    reward the record is not judged on is None); default the rewards judged.
    """
    ids = [int(t) for t in response_ids]
    text, ranges = token_ranges(tokenizer, ids)
    s = Sample(group=0, text=text, tokens=ids, offsets=ranges, item=_item(row, credo.format))
    c = credo.verify([s])
    judged = {name: (None if v.get("skip") else float(v["score"])) for name, v in zip(c.rewards, c.verdicts[0])}
    extra: dict[str, Any] = {n: judged.get(n) for n in (names if names is not None else c.rewards)}
    payload = {"text": text, "tokens": ids, "offsets": ranges, "item": s.item, "rewards": c.rewards,
               "weights": c.weights, "verdicts": c.verdicts[0], "prompt": c.prompts[0],
               "settings": credo.settings()}
    extra[PAYLOAD] = json.dumps(payload)
    return c.totals[0], extra, payload


def batch_advantages(data: Any, response_mask: Any, index: Any = None) -> Any:
    """credo's per-token advantages for verl's whole batch, as (B, T_response), from its payloads."""
    import torch

    payloads = [json.loads(p) if isinstance(p, str) else p for p in data.non_tensor_batch[PAYLOAD]]
    credo = Credo(**payloads[0]["settings"])
    uids = index if index is not None else data.non_tensor_batch.get("uid")
    samples = []
    for i, p in enumerate(payloads):
        group = str(uids[i]) if uids is not None else json.dumps(data.batch["prompts"][i].tolist())
        samples.append(Sample(group, p["text"], p["tokens"], [tuple(r) for r in p["offsets"]], p["item"], p["prompt"]))
    lay = layout(response_mask)
    for i, p in enumerate(payloads):
        if len(lay.columns[i]) != len(p["tokens"]):
            raise ValueError(f"row {i}: {len(lay.columns[i])} masked tokens, run_single saw {len(p['tokens'])}")
    names, weights = _union_rewards(payloads)
    verdicts = [_aligned(p, names) for p in payloads]
    totals = [sum(w * (0.0 if v.get("skip") else float(v["score"])) for w, v in zip(weights, row)) for row in verdicts]
    c = Credit(names, weights, verdicts, totals, prompts=[p["prompt"] for p in payloads])
    step = int(data.meta_info.get("global_steps", 0)) if hasattr(data, "meta_info") else 0
    adv = credo.advantages(samples, c, step=step)
    return to_padded(adv.advantages, lay, like=torch.zeros(0, device=response_mask.device), dtype=torch.float32)


SKIPPED = {"score": 0.0, "info": "", "spans": [], "skip": True}


def _union_rewards(payloads: list[dict]) -> tuple[list[str], list[float]]:
    """Every reward some response was judged on, in order of first appearance, with its weight.

    Verified one response at a time, an IFEval batch's responses have
    different rewards (each record's own instruction ids).
    """
    names: list[str] = []
    weight: dict[str, float] = {}
    for p in payloads:
        for n, w in zip(p["rewards"], p["weights"]):
            if n not in weight:
                names.append(n)
                weight[n] = float(w)
    return names, [weight[n] for n in names]


def _aligned(p: dict, names: list[str]) -> list[dict]:
    """A response's verdicts in the batch's reward order; a reward it was not judged on is skipped."""
    mine = dict(zip(p["rewards"], p["verdicts"]))
    return [mine.get(n, SKIPPED) for n in names]


def _manager_class() -> type:
    from verl.experimental.reward_loop.reward_manager.base import RewardManagerBase

    class CredoRewardManager(RewardManagerBase):
        """verl reward manager "credo": credo's verifiers per response (its credit is the estimator's)."""

        def __init__(self, config: Any, tokenizer: Any, compute_score: Any = None, reward_router_address: Any = None,
                     reward_model_tokenizer: Any = None, **kwargs: Any) -> None:
            super().__init__(config, tokenizer, compute_score)
            reward = config.get("reward") if hasattr(config, "get") else None
            opts = dict((reward.get("credo") if reward is not None else None) or {})
            self.credo = Credo(**{k: v for k, v in opts.items() if v is not None})
            self.names: list[str] | None = None  # the extra info's keys, asked of the server once

        async def run_single(self, data: Any) -> dict:
            item = data[-1:][0]  # multi-sequence outputs: the last one, as verl's managers do
            response_ids = item.batch["responses"]
            n = int(item.batch["attention_mask"][-response_ids.shape[-1]:].sum())
            row = dict(item.non_tensor_batch)

            def score() -> tuple[float, dict[str, Any], dict]:
                if self.names is None:
                    self.names = self.credo.reward_names()
                return sample_payload(self.credo, self.tokenizer, response_ids[:n].tolist(), row, self.names)

            total, extra, _ = await self.loop.run_in_executor(None, score)
            return {"reward_score": total, "reward_extra_info": extra}

    CredoRewardManager.__name__ = CredoRewardManager.__qualname__ = "CredoRewardManager"
    return CredoRewardManager


def register() -> None:
    """Registers estimator and reward manager "credo" with verl (idempotent)."""
    from verl.experimental.reward_loop.reward_manager import registry
    from verl.trainer.ppo import core_algos

    if core_algos.ADV_ESTIMATOR_REGISTRY.get(NAME) is not credo_advantage:
        core_algos.register_adv_est(NAME)(credo_advantage)
    if NAME not in registry.REWARD_MANAGER:
        registry.register(NAME)(_manager_class())


try:  # verl's plugin loader imports this module at `import verl`
    import verl  # noqa: F401
except ImportError:  # verl not installed: the module still imports (docs, tests)
    pass
else:
    try:
        register()
    except ImportError:  # an older verl without these modules: register() raises when called
        pass
