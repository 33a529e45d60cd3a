#!/usr/bin/env bash
# Where a training step's time goes, per credit method, side by side in one
# run: each method trains STEPS steps from the same warmed-up policy on the
# same prompts, then the mean share of each phase (steps 2 on: step 1
# compiles the graphs) and the method's step time against GDPO's are
# printed from the runs' metrics.jsonl; then each phase's seconds, the
# process's peak RSS, and the update's rate: the trainer's update/gflop
# (6 × parameters × the update's prompt and response tokens) per second, and
# that against CREDO_PEAK_GFLOPS (MFU; the head's skipped prompt positions
# and attention are not counted, so it is a floor-ish estimate).
#
#   scripts/phases.sh INIT_DIR [TASK] [METHODS]
#   e.g. scripts/phases.sh runs/demo/warmup toolcall grpo,gdpo,span,mrtpo
#   issue 53's 135M recipe on SmolLM2-135M-Instruct (a credo import-gguf folder):
#   STEPS=3 GROUP=8 LR=1e-5 scripts/phases.sh <smollm2 folder> ifeval span
#
# Environment: STEPS (default 10), PROMPTS (4), GROUP (4), MAX_TOKENS (128),
# LR (the trainer's default when unset), CREDO_PEAK_GFLOPS (MFU's peak;
# scripts/peak.sh's when unset), PRM (a process reward model folder, for p2t); MAX_LOAD and FORCE: it
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
[ -n "${LR:-}" ] && extra+=(--lr "$LR")
peak=${CREDO_PEAK_GFLOPS:-$(bash scripts/peak.sh 2>/dev/null | awk '/peak float32/ {print $3}')}
for m in ${methods//,/ }; do
  # peak RSS in KiB, from GNU time (kept beside the run; the run's own output is dropped)
  /usr/bin/time -f %M -o "$out/$m.rss" "$out/credo" train --init "$init" --task "$task" --method "$m" --out "$out/$m" \
    --steps "${STEPS:-10}" --prompts "${PROMPTS:-4}" --group "${GROUP:-4}" --max-tokens "${MAX_TOKENS:-128}" \
    --eval-prompts 0 --checkpoint-every 0 "${extra[@]}" >/dev/null 2>&1
done
load_note end
/usr/bin/env python3 - "$out" "$methods" "${peak:-0}" <<'PY'
import json, sys
out, methods = sys.argv[1], sys.argv[2].split(",")
peak = float(sys.argv[3])
rows = {}
for m in methods:
    ls = [json.loads(l) for l in open(f"{out}/{m}/metrics.jsonl")]
    ls = ls[1:] or ls  # step 1 compiles the graphs
    mean = lambda k: sum(l[k] for l in ls) / len(ls)
    rows[m] = {k: mean("time/" + k) for k in ("step", "sample", "verify", "credit", "update")}
    rows[m]["pairs"] = mean("credit/replay/pairs") if all("credit/replay/pairs" in l for l in ls) else None
    rows[m]["gflop"] = mean("update/gflop") if all("update/gflop" in l for l in ls) else None
    rows[m]["rss"] = int(open(f"{out}/{m}.rss").read().split()[-1]) / 1024**2  # GiB
print(f"{'method':8} {'s/step':>7} {'sample':>7} {'verify':>7} {'credit':>7} {'update':>7} {'vs gdpo':>8} {'replayed':>8}")
for m, r in rows.items():
    rel = f"{r['step'] / rows['gdpo']['step'] - 1:+.0%}" if "gdpo" in rows else "—"
    shares = " ".join(f"{r[k] / r['step']:7.1%}" for k in ("sample", "verify", "credit", "update"))
    pairs = "—" if r["pairs"] is None else f"{r['pairs']:.0%}"  # share of (response, reward) pairs replayed
    print(f"{m:8} {r['step']:7.2f} {shares} {rel:>8} {pairs:>8}")
print()
print(f"{'method':8} {'s/step':>7} {'sample s':>9} {'verify s':>9} {'credit s':>9} {'update s':>9} {'peak GiB':>9} {'upd GFLOP/s':>12} {'upd MFU':>8}")
for m, r in rows.items():
    secs = " ".join(f"{r[k]:9.1f}" for k in ("sample", "verify", "credit", "update"))
    rate = mfu = "—"
    if r["gflop"] and r["update"] > 0:
        g = r["gflop"] / r["update"]
        rate = f"{g:.1f}"
        mfu = f"{100 * g / peak:.0f}%" if peak > 0 else "—"
    print(f"{m:8} {r['step']:7.2f} {secs} {r['rss']:9.2f} {rate:>12} {mfu:>8}")
print(f"# update GFLOP/s: the trainer's update/gflop (6 x parameters x positions) over time/update; peak {peak:g} GFLOP/s")
PY
