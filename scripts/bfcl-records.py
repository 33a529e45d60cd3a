#!/usr/bin/env python3
"""Join a BFCL question file with its possible_answer file into the records
`credo --records FILE --format bfcl` and `/v1/verify` take: each question
line with its answer's "ground_truth" added, in the questions' order.

    python3 scripts/bfcl-records.py ../shared/data/bfcl/BFCL_v4_simple_python.json > bfcl.jsonl

The answers are read from possible_answer/<the question file's name> beside
it unless --answers names them. A question without an answer, or an answer
without a question, is an error naming its id (nothing is written).
"""
import argparse
import json
import os
import sys


def read_lines(path: str) -> list[dict]:
    out = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                rec = json.loads(line)
            except json.JSONDecodeError as e:
                sys.exit(f"{path}:{n}: not JSON: {e}")
            if not isinstance(rec, dict) or not isinstance(rec.get("id"), str):
                sys.exit(f'{path}:{n}: not an object with a string "id"')
            out.append(rec)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("questions", help="a BFCL question file (JSON Lines)")
    ap.add_argument("--answers", help="its possible_answer file (default: possible_answer/NAME beside it)")
    a = ap.parse_args()
    answers = a.answers or os.path.join(os.path.dirname(a.questions), "possible_answer", os.path.basename(a.questions))
    truth = {}
    for rec in read_lines(answers):
        if "ground_truth" not in rec:
            sys.exit(f'{answers}: {rec["id"]} has no "ground_truth"')
        truth[rec["id"]] = rec["ground_truth"]
    questions = read_lines(a.questions)
    missing = [q["id"] for q in questions if q["id"] not in truth]
    if missing:
        sys.exit(f"{answers} has no answer for {len(missing)} question(s), first {missing[0]}")
    extra = set(truth) - {q["id"] for q in questions}
    if extra:
        sys.exit(f"{answers} answers {len(extra)} id(s) not among the questions, first {sorted(extra)[0]}")
    lines = [json.dumps({**q, "ground_truth": truth[q["id"]]}, ensure_ascii=False) for q in questions]
    sys.stdout.write("\n".join(lines) + "\n")
    print(f"{len(lines)} BFCL records", file=sys.stderr)


if __name__ == "__main__":
    main()
