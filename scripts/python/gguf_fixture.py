"""Write gguf/testdata/quants.gguf with the `gguf` package (llama.cpp's own
writer and quantizers), for the Go reader's tests.

Run: "$(scripts/python/venv.sh peers)/bin/python" scripts/python/gguf_fixture.py

For every type credo dequantizes it holds `q.<TYPE>`, a [2, 64] tensor of
seeded normal values (its second row's second block constant, its first
row's last block zero, so a zero scale is covered) quantized by
gguf.quants.quantize, and `want.<TYPE>`, the same tensor as F32 as
gguf.quants.dequantize decodes it. Metadata has one key of every value type
and a 64-byte alignment, so the parser meets a real writer's layout.
"""

from __future__ import annotations

import importlib.metadata
import pathlib
import sys

import gguf
import numpy as np
from gguf import GGMLQuantizationType as Q

TYPES = [Q.F16, Q.BF16, Q.Q8_0, Q.Q4_0, Q.Q4_1, Q.Q5_0, Q.Q5_1]


def values() -> np.ndarray:
    rng = np.random.default_rng(30)
    x = rng.normal(0.0, 1.0, size=(2, 64)).astype(np.float32)
    x[1, 32:] = 0.75
    x[0, 32:] = 0.0
    return x


def write(path: pathlib.Path) -> None:
    w = gguf.GGUFWriter(str(path), "test")
    w.add_custom_alignment(64)
    w.add_uint8("test.u8", 200)
    w.add_int8("test.i8", -100)
    w.add_uint16("test.u16", 60000)
    w.add_int16("test.i16", -30000)
    w.add_uint32("test.u32", 4000000000)
    w.add_int32("test.i32", -2000000000)
    w.add_float32("test.f32", 0.1)
    w.add_bool("test.bool", True)
    w.add_string("test.string", "héllo\nwörld")
    w.add_uint64("test.u64", 2**63 + 5)
    w.add_int64("test.i64", -(2**62))
    w.add_float64("test.f64", 1e-300)
    w.add_array("test.strings", ["a", "", "ċ"])
    w.add_array("test.ints", [1, -2, 3])
    x = values()
    for t in TYPES:
        q = gguf.quants.quantize(x, t)
        w.add_tensor(f"q.{t.name}", q, raw_shape=q.shape, raw_dtype=t)
        w.add_tensor(f"want.{t.name}", gguf.quants.dequantize(q, t).astype(np.float32))
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()


if __name__ == "__main__":
    out = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "gguf/testdata/quants.gguf")
    write(out)
    print(f"wrote {out} ({out.stat().st_size} bytes) with gguf {importlib.metadata.version('gguf')}")
