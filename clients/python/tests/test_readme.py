"""README.md's opening example runs as written against a real credo serve.

It is run in a fresh interpreter with numpy and torch blocked, as after a
plain `pip install ./clients/python` (standard library only), with
CREDO_URL pointing at the test's server on 127.0.0.1.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys

from conftest import HERE

README = HERE.parent / "README.md"
BLOCK = "import sys\nfor m in ('numpy', 'torch'):\n    sys.modules[m] = None  # the base install has neither\n"


def first_python_block() -> str:
    m = re.search(r"```python\n(.*?)```", README.read_text(), re.S)
    assert m, "README.md has no python example"
    return m.group(1)


def test_readme_opening_example_runs(server):
    code = first_python_block()
    env = {**os.environ, "CREDO_URL": server.url, "PYTHONPATH": str(HERE.parent)}
    r = subprocess.run([sys.executable, "-c", BLOCK + code], capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 0, r.stderr[-3000:]
    lines = r.stdout.strip().splitlines()
    assert lines[0] == "['answer'] [[1], [0]]", lines
    assert len(lines) == 3 and lines[1].startswith("'3 + 4 = 7") and lines[2].startswith("'3 + 4 = 8"), lines
    wrong = [float(x) for x in lines[2].split("[", 1)[1].rstrip("]").split(",")]
    right = [float(x) for x in lines[1].split("[", 1)[1].rstrip("]").split(",")]
    assert min(right) > 0 and max(wrong) < 0


def test_readme_example_is_the_first_code_after_install():
    text = README.read_text()
    assert text.index("pip install ./clients/python") < text.index("```python")
