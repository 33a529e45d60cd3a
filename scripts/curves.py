#!/usr/bin/python3
"""Prints a comparison's per-reward learning curves as windows, and its cost.

    python3 scripts/curves.py DIR [--window N]

DIR is a `credo compare --out` folder. For each method (mean over its
runs, every seed and warm-up) and each reward, the training reward's mean
(metrics.jsonl's reward/<name>/mean) over the first and the last N steps
and the change between them; then, per method, the median step time and
its sample/credit/update parts (time/…, seconds) and mean response length.
It reads only what the runs wrote: the standard library, no plotting
(credo report draws the curves).
"""
import argparse
import json
import os
import statistics
import sys


def load(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dir", help="a credo compare --out folder")
    ap.add_argument("--window", type=int, default=4, help="steps in the first and last window (default 4)")
    args = ap.parse_args()
    try:
        with open(os.path.join(args.dir, "compare.json")) as f:
            cmp = json.load(f)
    except (OSError, ValueError) as e:
        sys.exit(f"curves.py: {args.dir}: not a comparison folder: {e}")
    by_method = {}
    for run in cmp["runs"]:
        path = os.path.join(args.dir, run["dir"], "metrics.jsonl")
        if not os.path.exists(path):
            print(f"# {run['dir']}: no metrics yet", file=sys.stderr)
            continue
        rows = load(path)
        by_method.setdefault(run["method"], []).append(rows)
    w = args.window
    rewards = sorted({k.split("/")[1] for runs in by_method.values() for rows in runs for r in rows
                      for k in r if k.startswith("reward/") and k.endswith("/mean")})
    print(f"# {args.dir}: first and last {w} steps, mean over runs (runs per method: "
          + ", ".join(f"{m} {len(r)}" for m, r in by_method.items()) + ")")
    print("| method | " + " | ".join(rewards) + " |")
    print("| --- |" + " ---: |" * len(rewards))
    for m, runs in by_method.items():
        cells = []
        for name in rewards:
            key = f"reward/{name}/mean"
            first = [statistics.fmean(r[key] for r in rows[:w] if key in r) for rows in runs if any(key in r for r in rows[:w])]
            last = [statistics.fmean(r[key] for r in rows[-w:] if key in r) for rows in runs if any(key in r for r in rows[-w:])]
            if not first or not last:
                cells.append("–")
                continue
            a, b = statistics.fmean(first), statistics.fmean(last)
            cells.append(f"{a:.2f} → {b:.2f} ({b - a:+.2f})")
        print(f"| {m} | " + " | ".join(cells) + " |")
    print()
    print("| method | steps | step s (median) | sample | credit | update | response tokens (median) |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for m, runs in by_method.items():
        rows = [r for rs in runs for r in rs]

        def med(key):
            xs = [r[key] for r in rows if key in r]
            return f"{statistics.median(xs):.1f}" if xs else "–"

        print(f"| {m} | {len(rows)} | {med('time/step')} | {med('time/sample')} | {med('time/credit')} | "
              f"{med('time/update')} | {med('response/length')} |")

    print()
    print("| method | " + " | ".join(f"{r} loc. / conc." for r in rewards) + " |")
    print("| --- |" + " ---: |" * len(rewards))
    for m, runs in by_method.items():
        rows = [r for rs in runs for r in rs]
        cells = []
        for name in rewards:
            loc = [r[f"credit/localization/{name}"] for r in rows if f"credit/localization/{name}" in r]
            conc = [r[f"credit/concentration/{name}"] for r in rows if f"credit/concentration/{name}" in r]
            cells.append(f"{statistics.fmean(loc):.2f} / {statistics.fmean(conc):.2f}" if loc and conc else "–")
        print(f"| {m} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
