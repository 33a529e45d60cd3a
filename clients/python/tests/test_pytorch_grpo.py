"""examples/pytorch_grpo.py runs a few steps against the real server (the full
40-step run that learns is docs/results/pytorch-grpo.md)."""

from __future__ import annotations

import importlib.util
import json
import math
import subprocess

import pytest

from conftest import ROOT

pytest.importorskip("torch")


@pytest.fixture(scope="module")
def warm(credo_bin, tmp_path_factory):
    out = tmp_path_factory.mktemp("warm") / "slots"
    r = subprocess.run([str(credo_bin), "sft", "--task", "slots", "--difficulty", "slots=3,max=5", "--size", "tiny",
                        "--steps", "4", "--batch", "4", "--demos", "32", "--eval-prompts", "0", "--out", str(out)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[-2000:]
    return out


def _example():
    spec = importlib.util.spec_from_file_location("pytorch_grpo", ROOT / "examples" / "pytorch_grpo.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_a_few_steps(server, warm, tmp_path, capsys):
    ex = _example()
    runs = []
    for n in range(2):
        out = tmp_path / f"curve{n}.json"
        assert ex.main(["--model", str(warm), "--credo", server.url, "--steps", "2", "--prompts", "2", "--group", "4",
                        "--max-tokens", "12", "--out", str(out)]) == 0
        runs.append(json.loads(out.read_text())["curve"])
    printed = capsys.readouterr().out
    assert "step   1" in printed and "reward curve" in printed
    for row in runs[0]:
        assert all(0 <= row[k] <= 1 for k in ("slot1", "slot2", "slot3"))
        assert math.isfinite(row["loss"])
    strip = [[{k: v for k, v in r.items() if k != "seconds"} for r in run] for run in runs]
    assert strip[0] == strip[1]  # seeded: the same run twice
