"""slime: credo's verifiers and per-token credit through slime's custom-function hooks.

Follows THUDM/slime's main branch as read at 624b824 (August 2026):
``slime/ray/rollout.py`` (``RolloutManager._convert_samples_to_train_data``
calls ``custom_reward_post_process_func(args, samples) -> (raw_rewards,
rewards)``, then builds the train data itself: ``rollout_ids``,
``rollout_mask_sums``, the loss masks, and each sample's
``teacher_log_probs``; ``_split_train_data_by_dp`` ships only a fixed list
of keys to the training ranks) and ``slime/backends/megatron_utils/``
(``actor.py`` slices ``teacher_log_probs`` for context parallelism and
moves it to the device; ``loss.py``'s ``compute_advantages_and_returns``
calls ``--custom-advantage-function-path``'s ``fn(args, rollout_data)``
after the KL, which must set ``rollout_data["advantages"]`` and
``["returns"]``, one tensor per sample over its response tokens).

Two hooks, on slime's own conversion (no custom conversion: slime's
builds the fields its data-parallel split and loss now need)::

    --custom-reward-post-process-path credo_client.adapters.slime.post_process_rewards
    --custom-advantage-function-path credo_client.adapters.slime.compute_advantages

``post_process_rewards`` verifies the whole rollout batch (each sample's
``tokens[-response_length:]``, its ``label`` as the record, groups by
``group_index``), asks credo for per-token advantages and returns the
weighted rewards (raw) and credo's response-level advantages. Each
sample's per-token advantages ride to the training ranks in
``sample.teacher_log_probs``: slime ships no field of a custom name
(``credo_advantages`` was dropped by ``_split_train_data_by_dp``), and
that per-token float field is read only by on-policy distillation, so
``--use-opd`` is refused. slime logs it as ``teacher_log_probs`` (their
mean). ``compute_advantages`` reads them back, masked by the loss masks,
as advantages and returns; context parallelism works, since slime slices
the field as it slices log-probs. Settings come from the environment
(CREDO_URL, CREDO_FORMAT, CREDO_METHOD, …: credo_client.adapters.common).

Untested against slime itself: it is not on PyPI, and ``slime.ray.rollout``
imports SGLang (CUDA) at module level, so slime's ``RolloutManager
._convert_samples_to_train_data``, ``_split_train_data_by_dp``, the
actor's ``slice_log_prob_with_cp`` and ``compute_advantages_and_returns``
were read, not run. clients/python/tests/test_adapters.py runs these
hooks on samples with slime's ``Sample`` fields and a copy of the
conversion's lines that carry them.
"""

from __future__ import annotations

from typing import Any

from ..offsets import token_ranges
from .common import Credo, Sample, record_item

_CREDO: Credo | None = None


def _credo() -> Credo:
    global _CREDO
    if _CREDO is None:
        _CREDO = Credo()
    return _CREDO


def _tokenizer(args: Any) -> Any:
    tok = getattr(args, "_credo_tokenizer", None)
    if tok is None:
        from transformers import AutoTokenizer

        tok = AutoTokenizer.from_pretrained(args.hf_checkpoint, trust_remote_code=True)
        args._credo_tokenizer = tok
    return tok


def post_process_rewards(args: Any, samples: list, credo: Credo | None = None, tokenizer: Any = None) -> tuple[list, list]:
    """slime reward post-process: (weighted rewards, credo's response advantages).

    Each sample's per-token advantages go to ``sample.teacher_log_probs``,
    which slime's own conversion ships to the training ranks.
    """
    if getattr(args, "use_opd", False):
        raise ValueError("credo's slime adapter carries its per-token advantages in teacher_log_probs: "
                         "it cannot run with --use-opd (on-policy distillation reads that field)")
    if samples and isinstance(samples[0], list):
        samples = sum(samples, [])
    credo = credo or _credo()
    tok = tokenizer or _tokenizer(args)
    batch = []
    for s in samples:
        n = int(s.response_length)
        ids = [int(t) for t in (s.tokens[-n:] if n else [])]
        text, ranges = token_ranges(tok, ids)
        group = s.group_index if getattr(s, "group_index", None) is not None else s.index
        batch.append(Sample(group, text, ids, ranges, record_item(s.label, credo.format, prompt=str(s.prompt))))
    c = credo.credit(batch, step=int(getattr(args, "rollout_id", 0) or 0))
    for s, a in zip(samples, c.advantages.advantages if c.advantages else []):
        s.teacher_log_probs = [float(x) for x in a]
    return list(c.totals), list(c.advantages.response_advantages if c.advantages else [])


def compute_advantages(args: Any, rollout_data: dict) -> None:
    """slime custom advantage function: credo's per-token advantages (masked) as advantages and returns."""
    import torch

    if "teacher_log_probs" not in rollout_data:
        raise ValueError("no credo advantages in rollout_data['teacher_log_probs']: set "
                         "--custom-reward-post-process-path credo_client.adapters.slime.post_process_rewards")
    kl = rollout_data["kl"]
    advs = []
    for i, a in enumerate(rollout_data["teacher_log_probs"]):
        t = torch.as_tensor(a, dtype=torch.float32, device=kl[i].device)
        mask = torch.as_tensor(rollout_data["loss_masks"][i], dtype=torch.float32, device=t.device)
        if t.shape != mask.shape:
            raise ValueError(f"sample {i}: {t.numel()} credo advantages for {mask.numel()} response tokens")
        advs.append(t * mask)
    rollout_data["advantages"] = advs
    rollout_data["returns"] = advs
