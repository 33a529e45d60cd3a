#!/usr/bin/env python3
"""What a reward's failed verdicts said, per method, over a comparison's runs.

    python3 scripts/failures.py runs/exp-sql-executes-heldout executes

Reads every run's samples.jsonl (COMPARISON/runs/METHOD/warmup-W/seed-S/)
and, for the verdicts of REWARD that scored below 1, counts their
information block with its specifics blanked (a name after ": " or in
quotes becomes X), so "Error: no such column: nmae" and "Error: no such
column: ctiy" count as one kind; the share of the response the verdict
quoted (its spans' bytes over the response's); and how many quoted under
a tenth of it (a located fault, such as the one word SQLite names).
Standard library only.
"""
from __future__ import annotations

import collections
import json
import pathlib
import re
import sys

QUOTED = re.compile(r'"[^"]*"|\'[^\']*\'')
UNCLOSED = re.compile(r'["\'].*$')  # a quote the message cut off
AFTER_COLON = re.compile(r"(: )[^:]+$")


def kind(info: str) -> str:
    """info with its specifics blanked: quoted text and the last ": name"."""
    if not info:
        return "(no information block)"
    k = UNCLOSED.sub("X", QUOTED.sub("X", info.splitlines()[0]))
    if k.count(": ") >= 2:
        k = AFTER_COLON.sub(r"\1X", k)
    return k


def quoted_share(spans: list[dict], n: int) -> float:
    """Bytes of the response inside the union of spans, over its length."""
    if n == 0:
        return 0.0
    covered = [False] * n
    for s in spans or []:
        for i in range(max(0, s["Start"]), min(n, s["End"])):
            covered[i] = True
    return sum(covered) / n


def main(argv: list[str]) -> int:
    if len(argv) != 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    root, reward = pathlib.Path(argv[1]) / "runs", argv[2]
    if not root.is_dir():
        print(f"failures: {root} is not a comparison's runs folder", file=sys.stderr)
        return 1
    for method_dir in sorted(p for p in root.iterdir() if p.is_dir()):
        kinds: collections.Counter[str] = collections.Counter()
        shares: list[float] = []
        total = 0
        for path in sorted(method_dir.glob("warmup-*/seed-*/samples.jsonl")):
            with path.open() as f:
                for line in f:
                    s = json.loads(line)
                    for v in s.get("verdicts") or []:
                        if v.get("reward") != reward:
                            continue
                        total += 1
                        if v.get("score", 0) >= 1:
                            continue
                        kinds[kind(v.get("info", ""))] += 1
                        shares.append(quoted_share(v.get("spans"), len(s["response"].encode())))
        failed = sum(kinds.values())
        print(f"## {method_dir.name}: {failed} of {total} {reward} verdicts failed")
        if not failed:
            continue
        located = sum(1 for x in shares if x < 0.1)
        print(f"quoted share of the response: mean {sum(shares) / failed:.3f}; "
              f"under a tenth (located) {located / failed:.1%}")
        print("| information block (specifics as X) | failed verdicts | share |")
        print("| --- | ---: | ---: |")
        for k, c in kinds.most_common(12):
            print(f"| {k[:90]} | {c} | {c / failed:.1%} |")
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
