#!/usr/bin/env bash
# The comparisons in README.md, each at a scale that runs in under an hour
# on 2 cores: a warm-up of the small (~1M) policy, then every method with 3
# seeds for 30 steps of 4 prompts × 8 responses, from the same checkpoint.
#
#   scripts/experiments.sh [TASK ...]      (default: toolcall sql ifeval arith)
#   SEEDS=2 scripts/experiments.sh sql      (fewer seeds, for a shorter run)
#   SEEDS=2 GROUP=4 scripts/experiments.sh ifeval   (what README's ifeval table used)
#
# Results go to runs/exp-<task>/ (table.md, report.html); a finished run is
# not run again, so an interrupted script resumes where it stopped.
set -euo pipefail
cd "$(dirname "$0")/.."
export GOTOOLCHAIN=go1.27.3 GOEXPERIMENT=simd
go build -o bin/credo ./cmd/credo
common=(--seeds "${SEEDS:-3}" --steps 30 --prompts 4 --group "${GROUP:-8}" --lr 2e-4 --eval-every 10 --eval-prompts 32)
for t in "${@:-toolcall sql ifeval arith}"; do
  for task in $t; do
    out=runs/exp-$task
    start=$(date +%s)
    case $task in
      toolcall) bin/credo compare --task toolcall --out "$out" --warmup-steps 400 "${common[@]}" ;;
      sql)      bin/credo compare --task sql --out "$out" --warmup-steps 400 "${common[@]}" ;;
      ifeval)   bin/credo compare --task ifeval --out "$out" --warmup-steps 300 --max-tokens 160 "${common[@]}" ;;
      arith)
        [ -f runs/prm-arith/prm.json ] || bin/credo prm train --task arith --out runs/prm-arith
        bin/credo compare --task arith --out "$out" --warmup-steps 500 --prm runs/prm-arith \
          --methods grpo,gdpo,span,mrtpo,p2t "${common[@]}" ;;
      *) echo "unknown task $task" >&2; exit 2 ;;
    esac
    echo "$task: $(( ($(date +%s) - start) / 60 )) minutes" | tee -a runs/experiments.log
  done
done
