"""SkyRL: credo's per-token credit through SkyRL's advantage-estimator registry.

Follows SkyRL 0.4.0 (PyPI package ``skyrl``; NovaSky-AI/SkyRL at the
commit that release was built from), ``skyrl/backends/skyrl_train/utils/ppo_utils.py``:
``register_advantage_estimator(name)`` / ``AdvantageEstimatorRegistry``
and ``compute_advantages_and_returns(token_level_rewards, response_mask,
index, adv_estimator, config, ...)``, which the trainer
(``skyrl/train/trainer.py``, ``compute_advantages_and_returns``) calls
with the batch's token-level rewards, response mask and uids; and the
generator output's ``rewards``, which may be one list of floats per
response (token-level rewards, right-aligned into the (B, T) tensor by
``skyrl/train/dataset/preprocess.py``).

Estimators see tensors only, so credo's placement is done before them:
``per_token_rewards`` verifies the generator output's responses and asks
credo for their per-token advantages, returned as token-level rewards
(call it from your trainer's ``postprocess_generator_output`` override,
before SkyRL's own, with each row's record); the estimator "credo"
(``algorithm.advantage_estimator=credo``, registered by ``register()``,
which importing this module with SkyRL installed calls) returns them
masked.

Tested (make test-engines, clients/python/tests/engines/test_skyrl.py):
the registration and ``compute_advantages_and_returns(...,
adv_estimator="credo")`` on a CPU batch built from ``per_token_rewards``.
Untested, because it needs Ray workers and a GPU inference engine: a
trainer run with the ``postprocess_generator_output`` override.
"""

from __future__ import annotations

from typing import Any, Sequence

from ..offsets import token_ranges
from .common import Credo, Sample, record_item

NAME = "credo"


def credo_advantage(token_level_rewards: Any, response_mask: Any, index: Any = None, **kwargs: Any) -> tuple[Any, Any]:
    """SkyRL estimator "credo": the per-token advantages credo placed, masked (advantages, returns)."""
    adv = token_level_rewards * response_mask
    return adv, adv


def per_token_rewards(credo: Credo, tokenizer: Any, generator_output: dict, uids: Sequence[str],
                      records: Sequence[Any], step: int = 0) -> list[list[float]]:
    """credo's per-token advantages for a SkyRL generator output, one list per response.

    Assign the result to ``generator_output["rewards"]``. records: one per
    response (a record of credo.format, its JSON, or a prompt id).
    """
    samples = []
    for ids, uid, rec in zip(generator_output["response_ids"], uids, records, strict=True):
        text, ranges = token_ranges(tokenizer, ids)
        samples.append(Sample(str(uid), text, [int(t) for t in ids], ranges, record_item(rec, credo.format)))
    c = credo.credit(samples, step=step)
    return [[float(x) for x in a] for a in c.advantages.advantages] if c.advantages else []


def register() -> None:
    """Registers estimator "credo" with SkyRL (idempotent)."""
    from skyrl.backends.skyrl_train.utils.ppo_utils import AdvantageEstimatorRegistry

    if NAME not in AdvantageEstimatorRegistry.list_available():
        AdvantageEstimatorRegistry.register(NAME, credo_advantage)


try:
    import skyrl.backends.skyrl_train.utils.ppo_utils  # noqa: F401
except ImportError:
    pass
else:
    register()
