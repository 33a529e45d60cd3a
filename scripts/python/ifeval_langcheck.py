"""IFEval's langdetect-based checks beside credo's, on `credo eval --responses`.

credo's task/ifeval judges change_case:english_lowercase,
change_case:english_capital and language:response_language with a script and
stopword heuristic where IFEval calls langdetect. This script recomputes those
three checks as google-research instruction_following_eval/instructions.py
does (its check_following logic restated, Apache-2.0; langdetect seeded 0 so
that a rerun agrees), strict and loose (evaluation_lib's eight variants), on
every line of a --responses file, lists each instruction where the two
disagree, and gives IFEval's four figures with langdetect's verdicts in place
of credo's for those ids (all prompts, and each split present).

  "$(scripts/python/venv.sh ifeval)/bin/python" scripts/python/ifeval_langcheck.py \
      ../shared/data/ifeval/input_data.jsonl responses.jsonl
"""
import json
import logging
import sys

import langdetect
from langdetect import DetectorFactory

DetectorFactory.seed = 0


def _is(value, language):
    try:
        return langdetect.detect(value) == language
    except langdetect.LangDetectException:
        return True  # IFEval counts an undetectable text as followed


def check(iid, kwargs, value):
    """IFEval's check_following for the three ids; None for any other id."""
    if iid == "change_case:english_lowercase":
        return value.islower() and _is(value, "en")
    if iid == "change_case:english_capital":
        return value.isupper() and _is(value, "en")
    if iid == "language:response_language":
        return _is(value, kwargs["language"])
    return None


def variants(r):
    """evaluation_lib.test_instruction_following_loose's eight texts."""
    lines = r.split("\n")
    first = "\n".join(lines[1:]).strip()
    last = "\n".join(lines[:-1]).strip()
    both = "\n".join(lines[1:-1]).strip()
    star = lambda s: s.replace("*", "")
    return [r, star(r), first, last, both, star(first), star(last), star(both)]


def figures(judged):
    prompts = len(judged)
    n = sum(len(s) for s, _ in judged)
    return (sum(all(s) for s, _ in judged) / prompts, sum(all(l) for _, l in judged) / prompts,
            sum(sum(s) for s, _ in judged) / n, sum(sum(l) for _, l in judged) / n)


def main(records, responses):
    logging.disable(logging.CRITICAL)
    recs = {}
    for line in open(records, encoding="utf-8"):
        r = json.loads(line)
        recs["ifeval-%d" % r["key"]] = r
    counts, diffs, judged = {}, [], {"all": []}
    for line in open(responses, encoding="utf-8"):
        o = json.loads(line)
        kwargs = recs[o["id"]]["kwargs"]
        strict, loose = list(o["strict"]), list(o["loose"])
        for i, iid in enumerate(o["instruction_id_list"]):
            if check(iid, kwargs[i], "x") is None:
                continue
            r = o["response"]
            s = bool(r.strip()) and check(iid, kwargs[i], r)
            l = any(v.strip() and check(iid, kwargs[i], v) for v in variants(r))
            c = counts.setdefault(iid, [0, 0, 0, 0, 0])
            c[0] += 1
            c[1] += s
            c[2] += o["strict"][i]
            c[3] += l
            c[4] += o["loose"][i]
            if (s, l) != (o["strict"][i], o["loose"][i]):
                diffs.append((o["id"], iid, kwargs[i], s, o["strict"][i], l, o["loose"][i], o["response"][:80]))
            strict[i], loose[i] = s, l
        judged["all"].append((strict, loose))
        judged.setdefault(o["split"], []).append((strict, loose))
    print("instruction id: n, followed strictly by langdetect / credo, loosely by langdetect / credo")
    for iid, c in sorted(counts.items()):
        print("  %s: %d, strict %d / %d, loose %d / %d" % (iid, *c))
    print("disagreements (id, instruction, kwargs, strict langdetect, credo, loose langdetect, credo, response):")
    for d in diffs:
        print("  %s %s %s strict %s/%s loose %s/%s %r" % d)
    print("IFEval's figures with langdetect's verdicts for these ids (prompt strict, loose; instruction strict, loose):")
    for k, js in judged.items():
        print("  %s (%d prompts): %.4f %.4f %.4f %.4f" % (k, len(js), *figures(js)))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
