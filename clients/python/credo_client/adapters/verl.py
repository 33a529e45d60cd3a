"""verl: credo's verifiers and token-level credit as a reward manager and an
advantage estimator.

Follows verl 0.9.1 (PyPI; the same code as volcengine/verl at its v0.9.1
tag): ``verl/experimental/reward_loop/reward_manager/base.py``
(``RewardManagerBase.run_single``, the classmethod
``assemble_rm_scores(data, scores)``), ``.../reward_manager/registry.py``
(``register``), ``verl/trainer/ppo/core_algos.py`` (``register_adv_est``)
and ``verl/__init__.py``, which imports every ``verl.plugins`` entry point
at ``import verl``: installing credo_client registers both, as "credo".

Config (a whole command: clients/python/examples/verl-credo.sh)::

    algorithm.adv_estimator=credo algorithm.use_kl_in_reward=False
    reward.reward_manager.name=credo
    # and in the environment of verl's processes:
    CREDO_URL=http://127.0.0.1:8700 CREDO_FORMAT=gsm8k CREDO_METHOD=span

How credit flows. ``run_single`` (verl calls it once per response, in its
reward workers) decodes the response's valid tokens, gives each its UTF-8
byte range (credo_client.offsets.token_ranges), verifies it through the
service and returns the weighted reward, each reward's score in
``reward_extra_info`` (so verl's own ``gdpo`` estimator, with
``algorithm.gdpo_reward_keys`` set to credo's reward names, works too),
and everything credit needs, carried on the score. ``assemble_rm_scores``
(verl calls it with the whole batch) sends the batch's responses, grouped
by ``uid``, to /v1/advantages in one request and writes credo's per-token
advantages into ``rm_scores`` under the response mask. The estimator
"credo" returns them masked as advantages (and returns): verl's estimators
do not see per-reward components (verl#7473), so the placement is done
before them.

A record per prompt: the dataset row's ``extra_info["credo_record"]`` (a
record of the format, or its JSON), ``extra_info["credo_prompt_id"]`` for
format "task", else ``reward_model["ground_truth"]`` (a GSM8K answer, or a
record's JSON).

Tested (make test-engines, clients/python/tests/engines/test_verl.py) with
verl's own functions on a CPU batch: ``load_reward_manager`` building
this manager from a config, its ``run_single`` on each row,
``assemble_rm_scores`` and ``ray_trainer.compute_advantage`` with
``adv_estimator="credo"``. Untested, because it needs a GPU rollout: a
whole ``main_ppo`` run. In verl 0.9.1 ``assemble_rm_scores`` is called on
its colocated reward path (``RewardLoopManager.compute_rm_score``); on
the streaming path of rule-based rewards the agent loop writes each
sample's scalar on its last token itself (``agent_loop.py``), and then
``adv_estimator=credo`` would train on that scalar alone: use ``gdpo``
there, or the colocated path.
"""

from __future__ import annotations

import json
from typing import Any

from ..batch import layout, to_padded
from ..offsets import token_ranges
from .common import Credit, Credo, Sample, record_item

NAME = "credo"


class CredoScore(float):
    """A response's weighted reward that also carries what credo's credit needs."""

    credo: dict[str, Any]

    def __new__(cls, value: float, credo: dict[str, Any]) -> "CredoScore":
        x = super().__new__(cls, value)
        x.credo = credo
        return x

    def __reduce__(self) -> Any:  # keep the payload through Ray's pickling
        return (CredoScore, (float(self), self.credo))


def credo_advantage(token_level_rewards: Any, response_mask: Any, index: Any = None, config: Any = None,
                    **kwargs: Any) -> tuple[Any, Any]:
    """verl estimator "credo": the token-level scores credo placed, masked (advantages, returns)."""
    adv = token_level_rewards * response_mask
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


def sample_payload(credo: Credo, tokenizer: Any, response_ids: Any, row: Any) -> tuple[float, dict[str, Any], dict]:
    """One response (valid ids and its non-tensor row): (weighted reward, extra info, credit payload)."""
    ids = [int(t) for t in response_ids]
    text, ranges = token_ranges(tokenizer, ids)
    s = Sample(group=0, text=text, tokens=ids, offsets=ranges, item=_item(row, credo.format))
    c = credo.verify([s])
    extra = {name: (0.0 if v.get("skip") else float(v["score"])) for name, v in zip(c.rewards, c.verdicts[0])}
    payload = {"text": text, "tokens": ids, "offsets": ranges, "item": s.item, "rewards": c.rewards,
               "weights": c.weights, "verdicts": c.verdicts[0], "prompt": c.prompts[0],
               "settings": credo.settings()}
    return c.totals[0], extra, payload


def batch_rm_scores(data: Any, scores: list[Any]) -> Any:
    """credo's per-token advantages for verl's whole batch, as (B, T_response) rm_scores."""
    import torch

    payloads = [getattr(s, "credo", None) for s in scores]
    if not payloads or any(p is None for p in payloads):
        return None
    credo = Credo(**payloads[0]["settings"])
    prompt_len = data.batch["prompts"].size(1)
    mask = data.batch["attention_mask"][:, prompt_len:]
    uids = data.non_tensor_batch.get("uid") if hasattr(data, "non_tensor_batch") else None
    samples = []
    for i, p in enumerate(payloads):
        group = str(uids[i]) if uids is not None else json.dumps(data.batch["prompts"][i].tolist())
        samples.append(Sample(group, p["text"], p["tokens"], [tuple(r) for r in p["offsets"]], p["item"], p["prompt"]))
    lay = layout(mask)
    for i, p in enumerate(payloads):
        if len(lay.columns[i]) != len(p["tokens"]):
            raise ValueError(f"row {i}: {len(lay.columns[i])} masked tokens, run_single saw {len(p['tokens'])}")

    names, weights = _union_rewards(payloads)
    verdicts = [_aligned(p, names) for p in payloads]
    c = Credit(names, weights, verdicts, [float(s) for s in scores], prompts=[p["prompt"] for p in payloads])
    step = int(data.meta_info.get("global_steps", 0)) if hasattr(data, "meta_info") else 0
    adv = credo.advantages(samples, c, step=step)
    return to_padded(adv.advantages, lay, like=torch.zeros(0, device=mask.device), dtype=torch.float32)


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
        """verl reward manager "credo": credo's verifiers per response, its credit per batch."""

        def __init__(self, config: Any, tokenizer: Any, compute_score: Any = None, reward_router_address: Any = None,
                     reward_model_tokenizer: Any = None, **kwargs: Any) -> None:
            super().__init__(config, tokenizer, compute_score)
            reward = config.get("reward") if hasattr(config, "get") else None
            opts = dict((reward.get("credo") if reward is not None else None) or {})
            self.credo = Credo(**{k: v for k, v in opts.items() if v is not None})

        async def run_single(self, data: Any) -> dict:
            item = data[-1:][0]  # multi-sequence outputs: the last one, as verl's managers do
            response_ids = item.batch["responses"]
            n = int(item.batch["attention_mask"][-response_ids.shape[-1]:].sum())
            row = dict(item.non_tensor_batch)
            total, extra, payload = await self.loop.run_in_executor(
                None, lambda: sample_payload(self.credo, self.tokenizer, response_ids[:n].tolist(), row))
            return {"reward_score": CredoScore(total, payload), "reward_extra_info": extra}

        @classmethod
        def assemble_rm_scores(cls, data: Any, scores: list[float]) -> Any:
            got = batch_rm_scores(data, scores)
            return got if got is not None else super().assemble_rm_scores(data, [float(s) for s in scores])

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
