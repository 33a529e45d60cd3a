"""TRL: a ``GRPOTrainer`` that trains on credo's per-token advantages.

Follows TRL v1.16.0 (PyPI; huggingface/trl at tag v1.16.0),
``trl/trainer/grpo_trainer.py``: ``_calculate_rewards(inputs, prompts,
completions, completion_ids_list)`` returns the (N, K) rewards of the
batch gathered over processes; ``_generate_and_score_completions``
returns the batch dict whose ``"advantages"`` ``_compute_loss`` reads,
and since v1.x it accepts (B, T) advantages ("To support subclasses that
provide advantages with shape (B, T), we *conditionally* unsqueeze").

``CredoGRPOTrainer`` replaces the reward functions by credo's verifiers
(one verify request per batch; one reward column per credo reward, named
after it, so TRL logs ``rewards/<reward>/mean`` and ``/std``; a skipped
reward is NaN, which TRL leaves out of the mean, and a reward no response
of the logging interval was judged on is not logged at all: IFEval's 25
instruction ids would otherwise make 50 mostly empty columns) and, after TRL has scored the batch, replaces its
advantages by credo's (B, T) per-token advantages (one advantages request
per batch), 0 under the padding. Dataset rows carry their record in a
column (``credo_record`` by default: a record of the format, or its JSON;
for format "task" the prompt id).

    trainer = CredoGRPOTrainer(model, args=GRPOConfig(...), train_dataset=ds,
                               processing_class=tok, credo=Credo(format="ifeval", method="span"))
    trainer.train()

Tested (make test-engines, clients/python/tests/engines/test_trl.py): a
real ``GRPOTrainer.train()`` of a few steps on a tiny model on a CPU, the
advantages ``_compute_loss`` receives checked against the service's. With
several processes the groups are gathered with accelerate's
``gather_object`` before the advantages request: that path is untested
(one CPU process here).
"""

from __future__ import annotations

import math
from typing import Any

from ..batch import Layout, to_padded
from ..offsets import token_ranges
from .common import Credo, Sample, record_item


def _placeholder(name: str) -> Any:
    def reward(*args: Any, **kwargs: Any) -> list[float]:
        raise RuntimeError("credo's rewards come from CredoGRPOTrainer._calculate_rewards")

    reward.__name__ = name
    return reward


def drop_absent_rewards(metrics: dict[str, list[float]]) -> None:
    """Removes ``rewards/<name>/…`` metrics whose every value is NaN (no response judged on the reward)."""
    for key in [k for k in metrics if k.startswith("rewards/")]:
        if all(math.isnan(v) for v in metrics[key]):
            del metrics[key]


def _trainer_class() -> type:
    import torch
    from trl import GRPOTrainer

    class CredoGRPOTrainer(GRPOTrainer):
        """GRPOTrainer whose rewards are credo's verdicts and whose advantages are credo's (B, T) ones."""

        def __init__(self, *args: Any, credo: Credo, record_column: str = "credo_record", **kwargs: Any) -> None:
            if kwargs.get("reward_funcs"):
                raise ValueError("CredoGRPOTrainer's rewards are credo's: do not pass reward_funcs")
            self.credo, self.record_column = credo, record_column
            names = credo.reward_names()
            credo.rewards = names  # every batch judged on the same reward columns
            kwargs["reward_funcs"] = [_placeholder(n) for n in names]
            self._credo_pending: tuple[list[Sample], Any] | None = None
            self.credo_last: dict[str, Any] = {}
            super().__init__(*args, **kwargs)

        def _calculate_rewards(self, inputs: list[dict], prompts: list, completions: list,
                               completion_ids_list: list[list[int]]) -> Any:
            device = self.accelerator.device
            tok = getattr(self, "_tokenizer", None) or self.processing_class
            start = self.accelerator.process_index * len(prompts)
            ng = self.num_generations if self.model.training else self.num_generations_eval
            samples = []
            for i, (row, ids) in enumerate(zip(inputs, completion_ids_list)):
                text, ranges = token_ranges(tok, ids)
                item = record_item(row[self.record_column], self.credo.format)
                samples.append(Sample((start + i) // ng, text, list(map(int, ids)), ranges, item))
            credit = self.credo.verify(samples)
            names = [f.__name__ for f in self.reward_funcs]
            if credit.rewards != names:
                raise ValueError(f"credo judged {credit.rewards}, the trainer has reward columns {names}")
            rewards = torch.tensor(credit.scores(skipped=float("nan")), dtype=torch.float32, device=device)
            self._credo_pending = (samples, credit)
            from accelerate.utils import gather

            return gather(rewards.reshape(len(samples), len(names)))

        def _generate_and_score_completions(self, inputs: list[dict]) -> dict:
            out = super()._generate_and_score_completions(inputs)
            assert self._credo_pending is not None
            samples, credit = self._credo_pending
            self._credo_pending = None
            if self.accelerator.num_processes > 1:  # groups may span processes (untested here)
                from accelerate.utils import gather_object

                all_samples = gather_object(samples)
                credit.verdicts = gather_object(credit.verdicts)
                credit.prompts = gather_object(credit.prompts)
            else:
                all_samples = samples
            step = int(self.state.global_step)
            adv = self.credo.advantages(all_samples, credit, step=step)
            lo = self.accelerator.process_index * len(samples)
            local = adv.advantages[lo: lo + len(samples)]
            mask = out["completion_mask"]
            lay = Layout(tuple(mask.shape), [list(range(len(s.tokens))) for s in samples])
            per_token = to_padded(local, lay, like=mask, dtype=torch.float32) * mask
            out["advantages"] = per_token
            mode = "train" if self.model.training else "eval"
            for k, v in adv.metrics.items():
                self._metrics[mode][k].append(v)
            self.credo_last = {"advantages": per_token.detach().clone(), "samples": samples,
                               "response_advantages": adv.response_advantages[lo: lo + len(samples)],
                               "metrics": adv.metrics}
            return out

        def log(self, logs: dict[str, float], start_time: float | None = None) -> None:
            drop_absent_rewards(self._metrics["train" if self.model.training else "eval"])
            super().log(logs, start_time)

    return CredoGRPOTrainer


def __getattr__(name: str) -> Any:  # CredoGRPOTrainer is built when first asked for (trl imported then)
    if name == "CredoGRPOTrainer":
        cls = _trainer_class()
        globals()[name] = cls
        return cls
    raise AttributeError(name)
