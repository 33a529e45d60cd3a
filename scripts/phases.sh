#!/usr/bin/env bash
# Where a training step's time goes, per credit method, side by side in one
# run: each method trains STEPS steps from the same warmed-up policy on the
# same prompts, then the mean share of each phase (steps 2 on: step 1
# compiles the graphs) and the method's step time against GDPO's are
# printed from the runs' metrics.jsonl.
#
#   scripts/phases.sh INIT_DIR [TASK] [METHODS]
#   e.g. scripts/phases.sh runs/demo/warmup toolcall grpo,gdpo,span,mrtpo
#
# Environment: STEPS (default 10), PROMPTS (4), GROUP (4), MAX_TOKENS (128),
# PRM (a process reward model folder, for p2t); MAX_LOAD and FORCE: it
# refuses to start when the 1-minute load average is above MAX_LOAD
# (default 0.5) unless FORCE=1 (scripts/lib/load.sh), and prints the load
# at the start and at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
export GOTOOLCHAIN=go1.27.3 GOEXPERIMENT=simd
init=${1:?usage: scripts/phases.sh INIT_DIR [TASK] [METHODS]}
task=${2:-toolcall}
methods=${3:-grpo,gdpo,span,mrtpo}
source scripts/lib/load.sh # load_guard, load_note
load_guard phases.sh
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
go build -o "$out/credo" ./cmd/credo
extra=()
[ -n "${PRM:-}" ] && extra+=(--prm "$PRM")
for m in ${methods//,/ }; do
  "$out/credo" train --init "$init" --task "$task" --method "$m" --out "$out/$m" \
    --steps "${STEPS:-10}" --prompts "${PROMPTS:-4}" --group "${GROUP:-4}" --max-tokens "${MAX_TOKENS:-128}" \
    --eval-prompts 0 --checkpoint-every 0 "${extra[@]}" >/dev/null 2>&1
done
load_note end
/usr/bin/env python3 - "$out" "$methods" <<'PY'
import json, sys
out, methods = sys.argv[1], sys.argv[2].split(",")
rows = {}
for m in methods:
    ls = [json.loads(l) for l in open(f"{out}/{m}/metrics.jsonl")]
    ls = ls[1:] or ls  # step 1 compiles the graphs
    mean = lambda k: sum(l[k] for l in ls) / len(ls)
    rows[m] = {k: mean("time/" + k) for k in ("step", "sample", "verify", "credit", "update")}
    rows[m]["pairs"] = mean("credit/replay/pairs") if all("credit/replay/pairs" in l for l in ls) else None
print(f"{'method':8} {'s/step':>7} {'sample':>7} {'verify':>7} {'credit':>7} {'update':>7} {'vs gdpo':>8} {'replayed':>8}")
for m, r in rows.items():
    rel = f"{r['step'] / rows['gdpo']['step'] - 1:+.0%}" if "gdpo" in rows else "—"
    shares = " ".join(f"{r[k] / r['step']:7.1%}" for k in ("sample", "verify", "credit", "update"))
    pairs = "—" if r["pairs"] is None else f"{r['pairs']:.0%}"  # share of (response, reward) pairs replayed
    print(f"{m:8} {r['step']:7.2f} {shares} {rel:>8} {pairs:>8}")
PY
