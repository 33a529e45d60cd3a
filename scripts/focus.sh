#!/usr/bin/env bash
# The focus diagnostic (`credo focus`, lab.Focus) on finished comparisons:
# how much of a uniform advantage's logit update already lands on the
# tokens each verifier blamed, and how much of span's does, from each
# comparison's first warm-up (docs/results/focus.md).
#
#   scripts/focus.sh [COMPARE_DIR ...]   # default: the six in focus.md
#
# For each comparison it samples one step of 512 responses from warm-up 1
# with span's run settings (its config.json: task, task seed, difficulty,
# group, max tokens) at a learning rate of 1e-9, so the samples, their
# verdicts and span's relevance are logged as the warm-up made them
# (into COMPARE_DIR/focus-probe, kept), then runs `credo focus` on them
# and writes COMPARE_DIR/focus.txt. ~1-3 minutes per 1M comparison on 2
# cores, ~3 at 10M.
set -euo pipefail
cd "$(dirname "$0")/.."
export GOTOOLCHAIN=go1.27.3 GOEXPERIMENT=simd
bin=${BIN:-bin/credo}
[ -n "${BIN:-}" ] || go build -buildvcs=auto -o "$bin" ./cmd/credo
dirs=("$@")
[ ${#dirs[@]} -gt 0 ] || dirs=(runs/exp-ifeval-heldout runs/exp-slots-heldout runs/exp-slots-10m-plain
  runs/exp-toolcall-args-heldout runs/exp-arith-heldout runs/exp-sql-plain-heldout)
for dir in "${dirs[@]}"; do
  cfg=$dir/runs/span/warmup-1/seed-1/config.json
  [ -f "$cfg" ] || { echo "$dir: no span run from warm-up 1 ($cfg)" >&2; exit 1; }
  group=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["group"])' "$cfg")
  probe=$dir/focus-probe
  [ -f "$probe/samples.jsonl" ] || "$bin" train --config "$cfg" --init "$dir/warmup-1" --out "$probe" --steps 1 \
    --prompts $((512 / group)) --samples-per-step 512 --lr 1e-9 --eval-prompts 0
  "$bin" focus --model "$dir/warmup-1" --samples "$probe" --step 1 | tee "$dir/focus.txt" | sed -n '1,/^{/p' | head -n -1
done
