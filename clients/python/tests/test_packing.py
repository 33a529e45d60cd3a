"""Packed arrays (SERVICE.md §1): little-endian int32/float32/float64 in base64."""

import base64
import math
import struct

import pytest

from credo_client import pack, pack_offsets, unpack

np = pytest.importorskip("numpy")


@pytest.mark.parametrize("use_numpy", [True, False])
def test_int32_bytes_are_little_endian(use_numpy):
    got = base64.b64decode(pack([1, -1, 2**31 - 1, 258], "int32", numpy=use_numpy))
    assert got == struct.pack("<4i", 1, -1, 2**31 - 1, 258)


@pytest.mark.parametrize("use_numpy", [True, False])
def test_float_round_trip(use_numpy):
    xs = [0.0, -0.0, 1.5, -2.25e-300, 1e300, math.pi]
    back = unpack(pack(xs, "float64", numpy=use_numpy), "float64", numpy=use_numpy)
    assert list(back) == xs
    assert base64.b64decode(pack([0.1], "float32", numpy=use_numpy)) == struct.pack("<f", 0.1)


def test_numpy_and_stdlib_agree():
    rng = np.random.default_rng(7)
    ids = rng.integers(-1, 150000, size=1000)
    assert pack(ids, "int32") == pack(ids.tolist(), "int32", numpy=False)
    lp = rng.standard_normal(1000).astype(np.float32)
    assert pack(lp, "float32") == pack(lp.tolist(), "float32", numpy=False)


def test_offsets_flatten_to_pairs():
    raw = base64.b64decode(pack_offsets([(0, 3), (3, 3), (3, 7)]))
    assert struct.unpack("<6i", raw) == (0, 3, 3, 3, 3, 7)
    assert pack_offsets([(0, 3), (3, 7)], numpy=False) == pack_offsets(np.array([[0, 3], [3, 7]]))
    assert pack_offsets([]) == ""


def test_torch_tensors_pack():
    torch = pytest.importorskip("torch")
    t = torch.tensor([5, 6, 7])
    assert pack(t, "int32") == pack([5, 6, 7], "int32")


def test_bad_kind_and_floats_as_ids():
    with pytest.raises(ValueError, match="kind"):
        pack([1], "int64")
    with pytest.raises(TypeError, match="integers"):
        pack(np.array([1.5]), "int32")
    with pytest.raises(ValueError):
        unpack("not base64!", "float64")
