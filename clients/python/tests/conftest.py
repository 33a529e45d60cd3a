"""Fixtures: the real ``credo serve`` binary on a free loopback port.

The binary is $CREDO_BIN when set, else built from this repository
(``go build ./cmd/credo``, with the Makefile's toolchain settings). Tests
that need it skip, saying why, where Go or the serve command is missing;
tests that read ../shared/data skip where it is absent.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Iterator

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]  # the repository (clients/python/tests -> ../../..)
sys.path.insert(0, str(HERE.parent))  # credo_client from the source tree when not installed

from credo_client import Client  # noqa: E402
from credo_client.local import start_server, stop_server  # noqa: E402

GOENV = {**os.environ, "GOTOOLCHAIN": os.environ.get("GOTOOLCHAIN", "go1.27.3"),
         "GOEXPERIMENT": os.environ.get("GOEXPERIMENT", "simd")}


def shared_data() -> Path | None:
    """../shared/data beside the repository root, or None."""
    p = ROOT.parent / "shared" / "data"
    return p if p.is_dir() else None


def need_shared(rel: str) -> Path:
    d = shared_data()
    if d is None or not (d / rel).exists():
        pytest.skip(f"../shared/data/{rel} is absent beside the repository root: skipping the test that reads it")
    return d / rel


def go_build(pkg: str, out: Path) -> Path:
    if shutil.which("go") is None:
        pytest.skip("no go command on PATH: cannot build " + pkg)
    r = subprocess.run(["go", "build", "-o", str(out), pkg], cwd=ROOT, env=GOENV, capture_output=True, text=True)
    if r.returncode != 0:
        pytest.fail(f"go build {pkg} failed:\n{r.stderr[-3000:]}")
    return out


@pytest.fixture(scope="session")
def credo_bin(tmp_path_factory: pytest.TempPathFactory) -> Path:
    env = os.environ.get("CREDO_BIN")
    b = Path(env) if env else go_build("./cmd/credo", tmp_path_factory.mktemp("bin") / "credo")
    if not b.exists():
        pytest.fail(f"CREDO_BIN={b} does not exist")
    r = subprocess.run([str(b), "help", "serve"], capture_output=True, text=True)
    if r.returncode != 0:
        pytest.skip(f"{b} has no serve command (credo help serve exited {r.returncode}): the service is not built")
    return b


class Server:
    """A running credo serve process (credo_client.local)."""

    def __init__(self, binary: Path, *args: str, env: dict[str, str] | None = None) -> None:
        self.proc, self.url = start_server(str(binary), "--quiet", *args, env=env)

    def stop(self) -> int:
        return stop_server(self.proc)


@pytest.fixture(scope="session")
def server(credo_bin: Path) -> Iterator[Server]:
    s = Server(credo_bin)
    yield s
    s.stop()


@pytest.fixture(scope="session")
def client(server: Server) -> Iterator[Client]:
    c = Client(server.url)
    yield c
    c.close()


@pytest.fixture(scope="session")
def qwen3_tokenizer():
    """The Qwen3 tokenizer of ../shared/data/tokenizers (byte-level BPE), through transformers."""
    path = need_shared("tokenizers/qwen3/tokenizer.json").parent
    transformers = pytest.importorskip("transformers")
    return transformers.AutoTokenizer.from_pretrained(str(path))


class ByteTokenizer:
    """A stand-in tokenizer whose ids are UTF-8 bytes (decode is all token_ranges needs)."""

    all_special_ids: list[int] = []

    def decode(self, ids, skip_special_tokens=True):
        return bytes(ids).decode("utf-8", "replace")


GSM8K = [{"question": "Tom has 3 apples and buys 4 more. How many apples?", "answer": "3 + 4 = 7\n#### 7"},
         {"question": "A box holds 6 eggs. How many eggs in 2 boxes?", "answer": "6 * 2 = 12\n#### 12"}]

# an OpenRLHF query's prompt (a chat-templated GSM8K question) and its label
PROMPT = "<|im_start|>user\n" + GSM8K[0]["question"] + "<|im_end|>\n<|im_start|>assistant\n"
LABEL = GSM8K[0]["answer"]


@pytest.fixture(scope="module")
def openrlhf_endpoint(client):
    """credo_client.openrlhf's /get_reward server for GSM8K, in a thread."""
    from credo_client.openrlhf import RewardModel, serve_in_thread

    srv, url = serve_in_thread(RewardModel(client, "gsm8k"))
    yield url
    srv.shutdown()
    srv.server_close()
