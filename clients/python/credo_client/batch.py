"""Padded batches, as trainers lay them out, to credo's wire format and back.

Engines keep a batch's responses in a (B, T) tensor of token ids with a
mask that is 1 on response tokens: right-padded (verl's ``responses``,
TRL's ``completion_ids``, OpenRLHF's actions), left-padded (SkyRL's
right-aligned responses) or with the prompt in the same row (a
``[prompt | response]`` row whose ``response_mask`` covers the response).
Whatever the layout, row i's response is the tokens where its mask is set,
in column order. ``from_padded`` turns such a batch into the responses of
an advantages request and remembers where each token came from;
``to_padded`` puts credo's per-token advantages back in the same places, a
(B, T) tensor that is 0 wherever the mask is 0.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from .client import response
from .offsets import Range, token_ranges

try:
    import numpy as _np
except ImportError:  # pragma: no cover
    _np = None


@dataclass
class Layout:
    """Where each response token sits in the padded batch: shape (B, T), and
    for each row the columns of its response tokens, in order."""

    shape: tuple[int, int]
    columns: list[list[int]]

    def lengths(self) -> list[int]:
        return [len(c) for c in self.columns]


def _rows(x: Any) -> list[list[Any]]:
    if hasattr(x, "detach"):
        x = x.detach().cpu()
    if hasattr(x, "tolist"):
        return x.tolist()
    return [list(r) for r in x]


def _array(x: Any) -> Any:
    if hasattr(x, "detach"):
        x = x.detach().cpu().numpy()
    return _np.asarray(x)


def layout(mask: Any) -> Layout:
    """The layout of a (B, T) mask (torch, numpy or nested lists; nonzero = response token)."""
    if _np is not None:
        m = _array(mask)
        if m.ndim != 2:
            raise ValueError(f"mask has shape {m.shape}, want (B, T)")
        return Layout((int(m.shape[0]), int(m.shape[1])), [_np.flatnonzero(r).tolist() for r in m])
    rows = _rows(mask)
    width = len(rows[0]) if rows else 0
    cols = []
    for i, r in enumerate(rows):
        if len(r) != width:
            raise ValueError(f"mask row {i} has {len(r)} columns, row 0 has {width}")
        cols.append([t for t, m in enumerate(r) if m])
    return Layout((len(rows), width), cols)


def from_padded(
    token_ids: Any,
    mask: Any,
    groups: Sequence[int | str],
    *,
    tokenizer: Any = None,
    texts: Sequence[str] | None = None,
    offsets: Sequence[Sequence[Range]] | None = None,
    scores: Sequence[Sequence[float]] | None = None,
    verdicts: Sequence[Sequence[Mapping[str, Any]]] | None = None,
    prompts: Sequence[str] | None = None,
    skip_special_tokens: bool = True,
) -> tuple[list[dict[str, Any]], Layout]:
    """A padded batch as the responses of an advantages request, and its layout.

    token_ids, mask: (B, T). groups: B group ids (verl's uid strings, or
    ints). Each response's text and byte ranges come from texts and offsets
    when given, else from tokenizer (credo_client.offsets.token_ranges).
    scores (B x K) or verdicts (B x K, as verify returns them) give the
    rewards; prompts (B replay bases) are needed by mrtpo and p2t.
    """
    lay = layout(mask)
    ids = _array(token_ids) if _np is not None else _rows(token_ids)
    n = lay.shape[0]
    width = len(ids[0]) if len(ids) else 0
    if len(ids) != n or (n and width != lay.shape[1]):
        raise ValueError(f"token_ids is {len(ids)}x{width}, mask is {n}x{lay.shape[1]}")
    for name, v in (("groups", groups), ("texts", texts), ("offsets", offsets), ("scores", scores),
                    ("verdicts", verdicts), ("prompts", prompts)):
        if v is not None and len(v) != n:
            raise ValueError(f"{name} has {len(v)} entries for a batch of {n}")
    out = []
    for i in range(n):
        toks = ids[i][lay.columns[i]].tolist() if _np is not None else [int(ids[i][c]) for c in lay.columns[i]]
        if offsets is not None:
            if texts is None:
                raise ValueError("offsets need texts")
            text, rng = texts[i], [tuple(map(int, r)) for r in offsets[i]]
        elif tokenizer is not None:
            text, rng = token_ranges(tokenizer, toks, skip_special_tokens=skip_special_tokens)
            if texts is not None and texts[i] != text:
                raise ValueError(f"row {i}: texts[{i}] is not the decoded response {text[:60]!r}; pass offsets too")
        elif not toks and texts is not None:
            text, rng = texts[i], []
        else:
            raise ValueError("from_padded needs a tokenizer, or texts and offsets")
        if len(rng) != len(toks):
            raise ValueError(f"row {i}: {len(toks)} tokens but {len(rng)} ranges")
        out.append(
            response(
                groups[i],
                text,
                toks,
                rng,
                scores=None if scores is None else scores[i],
                verdicts=None if verdicts is None else verdicts[i],
                prompt="" if prompts is None else prompts[i],
            )
        )
    return out, lay


def to_padded(advantages: Sequence[Sequence[float]], lay: Layout, like: Any = None, dtype: Any = None) -> Any:
    """Per-token advantages [N][T_i] as a (B, T) array in the batch's layout (0 off the mask).

    like: a torch tensor whose device (and, without dtype, float dtype) the
    result takes; with torch absent, a numpy array (or nested lists without
    numpy) is returned.
    """
    b, t = lay.shape
    if len(advantages) != b:
        raise ValueError(f"{len(advantages)} advantage rows for a batch of {b}")
    for i, (a, c) in enumerate(zip(advantages, lay.columns)):
        if len(a) != len(c):
            raise ValueError(f"row {i}: {len(a)} advantages for {len(c)} masked tokens")
    if _np is None:
        grid = [[0.0] * t for _ in range(b)]
        for i, (a, c) in enumerate(zip(advantages, lay.columns)):
            for v, col in zip(a, c):
                grid[i][col] = float(v)
        return grid
    grid = _np.zeros((b, t), dtype=_np.float64)
    for i, (a, c) in enumerate(zip(advantages, lay.columns)):
        if c:
            grid[i, c] = _np.asarray(a, dtype=_np.float64)
    if like is None or not hasattr(like, "detach"):
        return grid if dtype is None else grid.astype(dtype)
    import torch

    want = dtype or (like.dtype if like.is_floating_point() else torch.float32)
    return torch.from_numpy(grid).to(device=like.device, dtype=want)
