#!/usr/bin/env python3
"""service-rss.py: the peak memory of `credo serve` under hostile requests.

Starts the binary (default bin/credo; build it with `go build -o bin/credo
./cmd/credo`) on a free port of 127.0.0.1 with its default limits, sends
the hostile set below, one request at a time and then four at once, and
prints each request's status and time, the server's peak RSS (VmHWM of
/proc/PID/status) and its RSS a few seconds after the last request.
docs/SERVICE.md §10 quotes its output. Linux only (/proc); standard
library only.

The hostile set: a 50 MB comma-heavy IFEval response; a 50 MB verify body
of 200 responses of 256 KiB of "a," each (the per-response limit: 131,072
commas, one span each before the cap); four of those at once; 65,536 tiny
responses; a config object of 50,000 keys; 4,097 spans over 65,536 tokens;
a record nested 100,000 deep; a body one byte over --max-body; four bodies
just under it at once (an unterminated string).

    python3 scripts/service-rss.py [--bin bin/credo] [--settle 5]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import socket
import subprocess
import sys
import threading
import time
from typing import Callable

MiB = 1 << 20
NO_COMMA = {"prompt": "Write.", "instruction_id_list": ["punctuation:no_comma"], "kwargs": [{}]}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def status_kb(pid: int, field: str) -> int:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise RuntimeError(f"no {field} in /proc/{pid}/status")


def post(port: int, path: str, body: bytes, timeout: float = 300) -> tuple[int, int]:
    """POST body; returns (status, answer bytes)."""
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        c.request("POST", path, body=body, headers={"Content-Type": "application/json"})
        r = c.getresponse()
        return r.status, len(r.read())
    except (ConnectionError, http.client.HTTPException) as e:  # the server may close on an oversized body
        return -1, len(str(e))
    finally:
        c.close()


def verify(responses: list[str]) -> bytes:
    return json.dumps({"format": "ifeval", "items": [{"record": NO_COMMA, "responses": responses}]}).encode()


def hostile(max_body: int) -> list[tuple[str, str, Callable[[], bytes], int]]:
    """(name, endpoint, body maker, how many at once)."""
    small = {"method": "span", "rewards": ["a"], "responses": [
        {"group": 0, "response": "ab", "tokens": [1, 2], "offsets": [[0, 1], [1, 2]], "scores": [1]},
        {"group": 0, "response": "c", "tokens": [3], "offsets": [[0, 1]], "scores": [0]}]}

    def keys() -> bytes:
        cfg = ",".join(f'"k{i}": 0' for i in range(50_000))
        return json.dumps(small).encode()[:-1] + b', "config": {' + cfg.encode() + b"}}"

    def span_work() -> bytes:
        T = 1 << 16
        b = json.loads(json.dumps(small))
        r = b["responses"][0]
        r.update(response="x" * T, tokens=[0] * T, offsets=[[i, i + 1] for i in range(T)])
        r.pop("scores")
        r["verdicts"] = [{"score": 1, "spans": [{"start": i, "end": i + 1} for i in range(4097)]}]
        return json.dumps(b).encode()

    def nested() -> bytes:
        return b'{"format": "ifeval", "items": [{"record": ' + b"[" * 100_000 + b"]" * 100_000 + b', "responses": ["a"]}]}'

    kb256 = "a," * (128 << 10)
    return [
        ("one 50 MB comma-heavy response", "/v1/verify", lambda: verify(["a," * (25 * MiB)]), 1),
        ("200 responses of 256 KiB of commas (50 MB)", "/v1/verify", lambda: verify([kb256] * 200), 1),
        ("the same, 4 at once", "/v1/verify", lambda: verify([kb256] * 200), 4),
        ("65,536 tiny responses", "/v1/verify", lambda: verify(["a, b"] * 65_536), 1),
        ("config of 50,000 keys", "/v1/advantages", keys, 1),
        ("4,097 spans × 65,536 tokens", "/v1/advantages", span_work, 1),
        ("a record nested 100,000 deep", "/v1/verify", nested, 1),
        ("a body 1 byte over --max-body", "/v1/advantages", lambda: b'{"method": "' + b"a" * (max_body - 11), 1),
        ("bodies just under --max-body, 4 at once", "/v1/advantages", lambda: b'{"method": "' + b"a" * (max_body - 13), 4),
    ]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", default="bin/credo", help="the credo binary (default bin/credo)")
    ap.add_argument("--max-body", type=int, default=128 * MiB, help="the server's --max-body in bytes (default its default, 128 MiB)")
    ap.add_argument("--settle", type=float, default=5.0, help="seconds to wait after the last request before reading RSS again")
    a = ap.parse_args()
    if not os.path.exists(a.bin):
        print(f"service-rss: no {a.bin}: build it with `go build -o bin/credo ./cmd/credo`", file=sys.stderr)
        return 2
    port = free_port()
    proc = subprocess.Popen([a.bin, "serve", "--addr", f"127.0.0.1:{port}", "--max-body", f"{a.max_body}", "--quiet"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        for _ in range(300):
            try:
                c = http.client.HTTPConnection("127.0.0.1", port, timeout=1)
                c.request("GET", "/healthz")
                if c.getresponse().status == 200:
                    break
            except OSError:
                time.sleep(0.1)
        else:
            print("service-rss: the server did not answer /healthz", file=sys.stderr)
            return 1
        print(f"credo serve pid {proc.pid}, --max-body {a.max_body}, idle RSS {status_kb(proc.pid, 'VmRSS') // 1024} MiB")
        for name, path, make, n in hostile(a.max_body):
            body = make()
            got: list[tuple[int, int]] = []
            t0 = time.monotonic()
            ts = [threading.Thread(target=lambda: got.append(post(port, path, body))) for _ in range(n)]
            for t in ts:
                t.start()
            for t in ts:
                t.join()
            dt = time.monotonic() - t0
            codes = ",".join(str(s) for s, _ in got)
            print(f"{name:45s} body {len(body) / MiB:7.1f} MiB  status {codes:15s} answer {max(b for _, b in got) / MiB:7.2f} MiB"
                  f"  {dt:6.2f} s  peak RSS {status_kb(proc.pid, 'VmHWM') // 1024} MiB")
            del body
        time.sleep(a.settle)
        peak, now = status_kb(proc.pid, "VmHWM") // 1024, status_kb(proc.pid, "VmRSS") // 1024
        print(f"peak RSS (VmHWM) {peak} MiB; RSS {a.settle:g} s after the last request {now} MiB")
        return 0 if proc.poll() is None else 1
    finally:
        proc.terminate()
        proc.wait(timeout=30)


if __name__ == "__main__":
    sys.exit(main())
