"""Packed numeric arrays of credo's wire format (docs/SERVICE.md §1).

A packed array is the standard base64 (RFC 4648 §4, with ``=`` padding) of
its values as little-endian fixed-size numbers: int32, float32 or float64.
numpy does it in one call when it is installed; otherwise the standard
library's ``array`` module does, byte-swapped on a big-endian machine.
"""

from __future__ import annotations

import array
import base64
import sys
from typing import Any, Iterable, Sequence

try:  # optional: 3-10x faster packing of large batches
    import numpy as _np
except ImportError:  # pragma: no cover - exercised by the no-numpy test
    _np = None

_CODES = {"int32": ("<i4", "i"), "float32": ("<f4", "f"), "float64": ("<f8", "d")}


def _flat(values: Any) -> Any:
    """A torch tensor, numpy array or sequence, as something array/numpy takes."""
    if hasattr(values, "detach"):  # torch.Tensor, without importing torch
        values = values.detach().cpu().numpy() if _np is not None else values.detach().cpu().tolist()
    return values


def _array_code(kind: str) -> str:
    code = _CODES[kind][1]
    if array.array(code).itemsize != 4 + 4 * (kind == "float64"):
        raise RuntimeError(f"this Python's array({code!r}) is not {kind}")  # pragma: no cover
    return code


def pack(values: Any, kind: str, numpy: bool = True) -> str:
    """values (a flat sequence, numpy array or torch tensor) as a packed string.

    kind is "int32", "float32" or "float64". With numpy=False the standard
    library packs even when numpy is installed (for tests).
    """
    if kind not in _CODES:
        raise ValueError(f"kind {kind!r}: want one of {sorted(_CODES)}")
    values = _flat(values)
    if numpy and _np is not None:
        a = _np.asarray(values)
        if kind == "int32" and a.size and a.dtype.kind == "f":
            raise TypeError("int32 values must be integers, got floats")
        raw = _np.ascontiguousarray(a, dtype=_CODES[kind][0]).tobytes()
    else:
        if hasattr(values, "tolist"):
            values = values.tolist()
        a = array.array(_array_code(kind), values)
        if sys.byteorder == "big":  # pragma: no cover - no big-endian CI
            a.byteswap()
        raw = a.tobytes()
    return base64.b64encode(raw).decode("ascii")


def unpack(text: str, kind: str, numpy: bool = True) -> Sequence[float]:
    """A packed string as a numpy array (when numpy is installed) or an array.array."""
    if kind not in _CODES:
        raise ValueError(f"kind {kind!r}: want one of {sorted(_CODES)}")
    raw = base64.b64decode(text, validate=True)
    if numpy and _np is not None:
        return _np.frombuffer(raw, dtype=_CODES[kind][0]).astype(_CODES[kind][0][1:], copy=True)
    a = array.array(_array_code(kind))
    a.frombytes(raw)
    if sys.byteorder == "big":  # pragma: no cover
        a.byteswap()
    return a


def pack_offsets(offsets: Iterable[Sequence[int]] | Any, numpy: bool = True) -> str:
    """Token byte ranges [(start, end), …] (or a (T, 2) array) as packed int32 pairs."""
    offsets = _flat(offsets)
    if numpy and _np is not None:
        a = _np.asarray(offsets, dtype="<i4").reshape(-1)
        return pack(a, "int32")
    flat: list[int] = []
    for s, e in offsets:
        flat.extend((int(s), int(e)))
    return pack(flat, "int32", numpy=False)
