"""slime: credo's verifiers and per-token credit through slime's custom-function hooks.

Follows THUDM/slime's ``slime/ray/rollout.py`` (``RolloutManager``:
``custom_reward_post_process_func(args, samples) -> (raw_rewards,
rewards)`` and ``custom_convert_samples_to_train_data_func(args,
samples)``, which replaces the conversion of samples into the train-data
dict) and ``slime/backends/megatron_utils/loss.py``
(``compute_advantages_and_returns``: with
``--custom-advantage-function-path`` set it calls ``fn(args,
rollout_data)`` after the KL, and the function must set
``rollout_data["advantages"]`` and ``["returns"]``, one tensor per
sample over its response tokens), as of its 2026 main branch.

Three hooks, used together::

    --custom-reward-post-process-path credo_client.adapters.slime.post_process_rewards
    --custom-convert-samples-to-train-data-path credo_client.adapters.slime.convert_samples_to_train_data
    --custom-advantage-function-path credo_client.adapters.slime.compute_advantages

``post_process_rewards`` verifies the whole rollout batch (each sample's
``response``, its ``tokens[-response_length:]``, its ``label`` as the
record, groups by ``group_index``) and asks credo for per-token
advantages; it returns the weighted rewards (raw) and credo's
response-level advantages, and keeps each sample's per-token advantages
in ``sample.metadata["credo_advantages"]``. ``convert_samples_to_train_data``
builds slime's train-data fields (tokens, response_lengths, rewards,
raw_reward, truncated, sample_indices, loss_masks) plus
``credo_advantages``, which slime splits over data-parallel ranks with
the rest; ``compute_advantages`` turns them into the advantages (and
returns) the loss reads. Settings come from the environment (CREDO_URL,
CREDO_FORMAT, CREDO_METHOD, …: credo_client.adapters.common).

With context parallelism (``--context-parallel-size`` > 1) slime hands
each rank a slice of a sequence's response; ``compute_advantages`` assumes
whole responses and says so (a length mismatch is an error).

UNTESTED: slime is not on PyPI and needs Megatron and SGLang on GPUs;
these functions follow its code and are exercised in
clients/python/tests/test_adapters.py on stand-in samples only.
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
    """slime reward post-process: (weighted rewards, credo's response advantages); per-token ones in metadata."""
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
        if s.metadata is None:
            s.metadata = {}
        s.metadata["credo_advantages"] = [float(x) for x in a]
    return list(c.totals), list(c.advantages.response_advantages if c.advantages else [])


def convert_samples_to_train_data(args: Any, samples: list, credo: Credo | None = None, tokenizer: Any = None) -> dict:
    """slime sample conversion, with each sample's credo per-token advantages."""
    if samples and isinstance(samples[0], list):
        samples = sum(samples, [])
    raw, rewards = post_process_rewards(args, samples, credo, tokenizer)
    loss_masks = []
    for s in samples:
        if s.loss_mask is None:
            s.loss_mask = [1] * s.response_length
        if len(s.loss_mask) != s.response_length:
            raise ValueError(f"sample {s.index}: loss mask of {len(s.loss_mask)} for {s.response_length} tokens")
        loss_masks.append(s.loss_mask)
    truncated = [1 if str(getattr(s.status, "value", s.status)).lower() == "truncated" else 0 for s in samples]
    return {
        "tokens": [s.tokens for s in samples],
        "response_lengths": [s.response_length for s in samples],
        "rewards": rewards,
        "raw_reward": raw,
        "truncated": truncated,
        "sample_indices": [s.index for s in samples],
        "loss_masks": loss_masks,
        "credo_advantages": [s.metadata["credo_advantages"] for s in samples],
    }


def compute_advantages(args: Any, rollout_data: dict) -> None:
    """slime custom advantage function: credo's per-token advantages (masked) as advantages and returns."""
    import torch

    kl = rollout_data["kl"]
    advs = []
    for i, a in enumerate(rollout_data["credo_advantages"]):
        t = torch.as_tensor(a, dtype=torch.float32, device=kl[i].device)
        mask = torch.as_tensor(rollout_data["loss_masks"][i], dtype=torch.float32, device=t.device)
        if t.shape != mask.shape:
            raise ValueError(f"sample {i}: {t.numel()} credo advantages for {mask.numel()} response tokens")
        advs.append(t * mask)
    rollout_data["advantages"] = advs
    rollout_data["returns"] = advs
