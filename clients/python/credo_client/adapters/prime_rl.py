"""prime-rl: credo's per-token credit through ``assign_advantages(trace, values)``.

Follows PrimeIntellect-ai/prime-rl's orchestrator as read at its main,
559b447 (August 2026) (``src/prime_rl/orchestrator/algo/routing.py``:
``assign_advantages(trace: vf.Trace, values: float | list[float])``, one
value per sampled token across the nodes of the trace's trainable
branches, in ``trace.nodes`` order; ``algo/base.py``: an ``Algorithm``'s
``async score_group(episodes)`` and ``iter_trainable_traces(episodes)``;
``verifiers.v1``'s ``Trace`` with ``nodes`` holding ``token_ids``,
``mask`` and ``message``). prime-rl registers algorithms in a fixed table
(``ALGORITHM_CLASSES``), so using this needs a one-line entry there and a
config class, as its guide for new algorithms says.

Untested against prime-rl itself: it is not on PyPI, and
``prime_rl.orchestrator.algo.routing`` imports ``verifiers.v1``,
``prime_rl.configs`` and ``prime_rl.transports`` (its whole orchestrator
package). So prime-rl's ``assign_advantages``, ``iter_trainable_traces``
and an ``Algorithm.score_group`` calling them were read, not run.
``credit_traces`` is written against the duck-typed trace above and is
exercised in clients/python/tests/test_adapters.py on stand-in objects.

    class CredoAlgorithm(Algorithm):            # in prime_rl/orchestrator/algo/credo.py
        async def score_group(self, episodes):
            traces = [t for _, t in iter_trainable_traces(episodes)]
            for trace, values in zip(traces, credit_traces(CREDO, TOKENIZER, traces)):
                assign_advantages(trace, values)

A trace's record comes from ``trace.info["credo_record"]`` or the task's
data (``trace.task.data``: its ``credo_record`` field, else its ``answer``
for GSM8K). prime-rl scores one group per call, so GDPO's batch
normalization runs over that group.
"""

from __future__ import annotations

from typing import Any, Sequence

from ..offsets import token_ranges
from .common import Credo, Sample, record_item


def sampled_tokens(trace: Any) -> list[int]:
    """The sampled (mask-True) token ids of the trace's trainable branches, in trace.nodes order."""
    branches = getattr(trace, "branches", None)
    if branches is None:
        trainable = None
    else:
        trainable = {id(n) for b in branches if getattr(b, "trainable", True) for n in b.nodes}
    out: list[int] = []
    for node in trace.nodes:
        if trainable is not None and id(node) not in trainable:
            continue
        out.extend(int(t) for t, m in zip(node.token_ids, node.mask) if m)
    return out


def _record(trace: Any) -> Any:
    info = getattr(trace, "info", None) or {}
    if "credo_record" in info:
        return info["credo_record"]
    data = getattr(getattr(trace, "task", None), "data", None)
    for key in ("credo_record", "answer"):
        v = data.get(key) if isinstance(data, dict) else getattr(data, key, None)
        if v is not None:
            return v
    raise ValueError("a trace needs trace.info['credo_record'] or a task record")


def credit_traces(credo: Credo, tokenizer: Any, traces: Sequence[Any], step: int = 0) -> list[list[float]]:
    """credo's per-token advantages for one group of traces, one list per trace for assign_advantages."""
    samples = []
    for t in traces:
        ids = sampled_tokens(t)
        text, ranges = token_ranges(tokenizer, ids)
        samples.append(Sample(0, text, ids, ranges, record_item(_record(t), credo.format)))
    c = credo.credit(samples, step=step)
    return [[float(x) for x in a] for a in c.advantages.advantages] if c.advantages else []
