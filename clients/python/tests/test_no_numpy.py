"""The client at run time needs only the standard library: with numpy made
unimportable, packing, layouts and padding still work and agree."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

CODE = r"""
import sys
sys.modules["numpy"] = None  # import numpy now fails
sys.path.insert(0, sys.argv[1])
import credo_client as c
p = c.pack([1, -2, 3], "int32")
assert list(c.unpack(p, "int32")) == [1, -2, 3]
assert c.pack_offsets([(0, 1), (1, 3)]) == "AAAAAAEAAAABAAAAAwAAAA=="
lay = c.layout([[0, 1, 1], [1, 0, 0], [0, 0, 0]])
assert lay.columns == [[1, 2], [0], []]
assert c.to_padded([[0.5, 1.5], [2.0], []], lay) == [[0.0, 0.5, 1.5], [2.0, 0.0, 0.0], [0.0, 0.0, 0.0]]
rs, _ = c.from_padded([[0, 5, 6], [7, 0, 0], [0, 0, 0]], [[0, 1, 1], [1, 0, 0], [0, 0, 0]], [0, 0, 0],
                      texts=["ab", "c", ""], offsets=[[(0, 1), (1, 2)], [(0, 1)], []], scores=[[1], [0], [0]])
assert [r["tokens"] for r in rs] == [[5, 6], [7], []]
print("ok")
"""


def test_stdlib_only():
    root = Path(__file__).resolve().parents[1]
    r = subprocess.run([sys.executable, "-c", CODE, str(root)], capture_output=True, text=True)
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr
