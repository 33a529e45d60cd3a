#!/usr/bin/env python3
"""End-to-end speed of /v1/advantages through the Python client.

A batch of 1,024 responses x 512 tokens x 4 rewards (128 groups of 8,
seeded 0/1 scores; span's verdicts name two byte ranges per reward):
each timed call packs the batch (numpy, base64), sends it, waits for
credo serve, and decodes the base64 float64 advantages; ``--padded``
also scatters them into a (B, T) torch tensor. Then 16 threads, each its
own keep-alive connection, send the span batch concurrently: p50 and
p99 latency, errors, and the server's peak RSS when this script started
it.

    python clients/python/bench/bench_client.py --serve bin/credo      # or: make bench-python
    python clients/python/bench/bench_client.py --credo http://127.0.0.1:8700
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import threading
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from credo_client import Client, CredoError, layout, response, to_padded  # noqa: E402
from credo_client.local import serving  # noqa: E402


def batch(n: int, t: int, k: int, group: int, spans: bool, seed: int = 0) -> tuple[list[dict], list[str]]:
    rng = np.random.default_rng(seed)
    text = ("abcdefgh" * (t // 8 + 1))[:t]
    offsets = np.stack([np.arange(t), np.arange(1, t + 1)], 1).astype("<i4")
    scores = rng.integers(0, 2, size=(n, k)).astype(float)
    rs = []
    for i in range(n):
        toks = rng.integers(0, 150000, size=t).astype("<i4")
        if spans:
            vs = [{"score": scores[i, j], "info": "", "skip": False,
                   "spans": [{"start": j * t // 10, "end": j * t // 10 + t // 25},
                             {"start": t // 2 + j * t // 50, "end": t // 2 + j * t // 50 + t // 25}]}
                  for j in range(k)]
            rs.append(response(i // group, text, toks, offsets, verdicts=vs))
        else:
            rs.append(response(i // group, text, toks, offsets, scores=scores[i]))
    return rs, [f"r{j}" for j in range(k)]


def timed(fn, reps: int) -> tuple[list[float], list[float]]:
    """Wall and this process's CPU milliseconds of each call."""
    wall, cpu = [], []
    for _ in range(reps):
        t0, c0 = time.perf_counter(), time.process_time()
        fn()
        wall.append((time.perf_counter() - t0) * 1e3)
        cpu.append((time.process_time() - c0) * 1e3)
    return wall, cpu


def server_seconds(c: Client, endpoint: str) -> tuple[float, int]:
    """credo_request_duration_seconds' sum and count for an endpoint (the handler's own time)."""
    total, n = 0.0, 0
    for line in c.metrics().splitlines():
        if line.startswith("credo_request_duration_seconds_sum{") and f'endpoint="{endpoint}"' in line:
            total = float(line.split()[-1])
        if line.startswith("credo_request_duration_seconds_count{") and f'endpoint="{endpoint}"' in line:
            n = int(float(line.split()[-1]))
    return total, n


def fmt(ms: list[float]) -> str:
    s = sorted(ms)
    return f"p50 {statistics.median(s):.1f} ms, min {s[0]:.1f}, max {s[-1]:.1f} (n={len(s)})"


def concurrent(url: str, rs: list[dict], rewards: list[str], threads: int, per: int) -> tuple[list[float], int]:
    lat: list[float] = []
    errors = 0
    lock = threading.Lock()

    def work() -> None:
        nonlocal errors
        c = Client(url)
        for _ in range(per):
            t0 = time.perf_counter()
            try:
                c.advantages("span", rs, rewards)
                ok = True
            except CredoError as e:
                ok = False
                print("error:", e, file=sys.stderr)
            dt = (time.perf_counter() - t0) * 1e3
            with lock:
                lat.append(dt)
                errors += not ok
        c.close()

    ts = [threading.Thread(target=work) for _ in range(threads)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    return lat, errors


def peak_rss_mib(pid: int) -> float | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--credo", default="")
    ap.add_argument("--serve", default="", help="a credo binary: start its server for the run")
    ap.add_argument("--n", type=int, default=1024)
    ap.add_argument("--t", type=int, default=512)
    ap.add_argument("--k", type=int, default=4)
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--threads", type=int, default=16)
    ap.add_argument("--per-thread", type=int, default=5)
    a = ap.parse_args()
    if not (a.credo or a.serve):
        ap.error("give --credo URL or --serve BINARY")
    with serving(a.credo, a.serve) as (url, proc):
        c = Client(url)
        print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; batch {a.n} x {a.t} tokens x {a.k} rewards")
        for method, spans in (("gdpo", False), ("span", True)):
            rs, rewards = batch(a.n, a.t, a.k, 8, spans)
            c.advantages(method, rs, rewards)  # warm the connection and the server
            s0, n0 = server_seconds(c, "/v1/advantages")
            wall, cpu = timed(lambda: c.advantages(method, rs, rewards), a.reps)
            s1, n1 = server_seconds(c, "/v1/advantages")
            print(f"{method:5s} client.advantages: wall {fmt(wall)}; client CPU p50 {statistics.median(cpu):.1f} ms; "
                  f"server handler mean {1e3 * (s1 - s0) / max(n1 - n0, 1):.1f} ms")
            mask = np.ones((a.n, a.t), dtype=bool)
            lay = layout(mask)
            import torch

            like = torch.zeros(0)

            def padded() -> None:
                out = c.advantages(method, rs, rewards)
                to_padded(out.advantages, lay, like=like, dtype=torch.float32)

            wall, cpu = timed(padded, a.reps)
            print(f"{method:5s} + (B, T) torch tensor: wall {fmt(wall)}; client CPU p50 {statistics.median(cpu):.1f} ms")
        rs, rewards = batch(a.n, a.t, a.k, 8, True)
        lat, errors = concurrent(url, rs, rewards, a.threads, a.per_thread)
        s = sorted(lat)
        p99 = s[min(len(s) - 1, int(round(0.99 * (len(s) - 1))))]
        print(f"{a.threads} concurrent clients x {a.per_thread} span requests: p50 {statistics.median(s):.0f} ms, "
              f"p99 {p99:.0f} ms, errors {errors}")
        if proc is not None:
            rss = peak_rss_mib(proc.pid)
            if rss is not None:
                print(f"server peak RSS {rss:.0f} MiB")


if __name__ == "__main__":
    main()
