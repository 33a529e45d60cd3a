#!/usr/bin/env bash
# How concentrated MRTPO's replay relevance is, in its two forms, on the
# same batches (issue 13 item 4): JS divergence / ln 2 (credo's default)
# and its square root, the Jensen–Shannon distance the MRTPO paper names.
# Concentration is the smallest share of a response's tokens that holds
# 80% of its relevance q (credit/concentration/<reward>; lower is more
# concentrated); the paper reports 80% of the distance on 13–15% of tokens
# for tool calling and 26–29% for SQL.
#
#   scripts/concentration.sh INIT_DIR TASK        e.g. runs/warm-toolcall toolcall
#
# Both runs train mrtpo from INIT_DIR with the same seed and β = 0
# (--place-beta 0: the update is GDPO's whatever the relevance), so every
# step's batch is the same in both and only the relevance's form differs.
# Environment: STEPS (default 5), PROMPTS (8), GROUP (8), MAX_TOKENS (128).
set -euo pipefail
cd "$(dirname "$0")/.."
export GOTOOLCHAIN=go1.27.3 GOEXPERIMENT=simd
init=${1:?usage: scripts/concentration.sh INIT_DIR TASK}
task=${2:?usage: scripts/concentration.sh INIT_DIR TASK}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
go build -o "$out/credo" ./cmd/credo
for js in divergence distance; do
  echo "# $task: mrtpo --js $js, ${STEPS:-5} steps of ${PROMPTS:-8} x ${GROUP:-8} from $init" >&2
  "$out/credo" train --init "$init" --task "$task" --method mrtpo --js "$js" --place-beta 0 --seed 1 \
    --out "$out/$js" --steps "${STEPS:-5}" --prompts "${PROMPTS:-8}" --group "${GROUP:-8}" \
    --max-tokens "${MAX_TOKENS:-128}" --eval-prompts 0 --checkpoint-every 0 >/dev/null
done
/usr/bin/env python3 - "$out" "$task" <<'PY'
import json, sys
out, task = sys.argv[1], sys.argv[2]
runs = {js: [json.loads(l) for l in open(f"{out}/{js}/metrics.jsonl")] for js in ("divergence", "distance")}
pre = "credit/concentration/"
rewards = sorted({k[len(pre):] for l in runs["divergence"] for k in l if k.startswith(pre)})
print(f"| task | reward | steps with replay | 80% of divergence on | 80% of distance on |")
print(f"| --- | --- | ---: | ---: | ---: |")
for r in rewards:
    vals = {js: [l[pre + r] for l in ls if pre + r in l] for js, ls in runs.items()}
    n = len(vals["divergence"])
    mean = lambda v: sum(v) / len(v)
    print(f"| {task} | {r} | {n} | {mean(vals['divergence']):.1%} of tokens | {mean(vals['distance']):.1%} of tokens |")
PY
