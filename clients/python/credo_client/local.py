"""Starting ``credo serve`` on this machine, for tests, examples and benchmarks.

The server listens on a free 127.0.0.1 port (so only this machine can
reach it) and is ready when ``/healthz`` answers.
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import time
import urllib.request
from typing import Iterator, Mapping


def free_port() -> int:
    """A TCP port free on 127.0.0.1 now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(binary: str, *args: str, env: Mapping[str, str] | None = None,
                 timeout: float = 60.0) -> tuple[subprocess.Popen, str]:
    """Runs `binary serve --addr 127.0.0.1:PORT args…`; (process, URL) once /healthz answers.

    Its output goes to a pipe read only when it fails to start (the
    error then holds its last 3,000 characters); pass --quiet to keep
    request logs from filling the pipe in long runs.
    """
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    p = subprocess.Popen([str(binary), "serve", "--addr", f"127.0.0.1:{port}", *args],
                         env={**os.environ, **(env or {})}, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    deadline = time.monotonic() + timeout
    while True:
        if p.poll() is not None:
            out = p.stdout.read() if p.stdout else ""
            raise RuntimeError(f"{binary} serve exited {p.returncode}:\n{out[-3000:]}")
        try:
            with urllib.request.urlopen(url + "/healthz", timeout=1) as r:
                if r.status == 200:
                    return p, url
        except OSError:
            pass
        if time.monotonic() > deadline:
            stop_server(p)
            raise RuntimeError(f"{binary} serve did not answer /healthz within {timeout:.0f} s")
        time.sleep(0.05)


def stop_server(p: subprocess.Popen, timeout: float = 30.0) -> int:
    """SIGTERM (the server finishes its requests in flight), then its exit code."""
    if p.poll() is None:
        p.terminate()
        try:
            p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
    if p.stdout:
        p.stdout.close()
    return p.returncode


@contextlib.contextmanager
def serving(url: str = "", binary: str = "", *args: str) -> Iterator[tuple[str, subprocess.Popen | None]]:
    """(url, None) for a running server at url, else starts binary's (stopped on exit): (url, process)."""
    if url:
        yield url, None
        return
    if not binary:
        raise ValueError("give a credo serve URL or a credo binary to start")
    p, u = start_server(binary, "--quiet", *args)
    try:
        yield u, p
    finally:
        stop_server(p)
