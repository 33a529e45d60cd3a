#!/usr/bin/env bash
# The calibration study in docs/results/calibration.md: per task a warm-up
# of 120 steps at the default difficulty, continued for 180 more (a fresh
# learning-rate schedule), and `credo calibrate` (64 training prompts × 8
# responses) of both checkpoints at the default and candidate settings.
# Then, where a task has an easiest setting (adapt), the 300-step warm-up
# continued for 120 steps on that setting's demonstrations (what `credo
# compare --difficulty` warms up on) and, as its control, for 120 steps at
# the default; both calibrated at the default and at the setting.
#
#   scripts/calibration.sh [TASK ...]     (default: toolcall arith sql ifeval)
#   WARM=/tmp/warm scripts/calibration.sh arith
#   ONLY=120 scripts/calibration.sh sql   (calibrate only the 120-step checkpoint;
#                                          ONLY=300: only the 300-step one)
#
# Checkpoints go to $WARM/<task>-120 and $WARM/<task>-300 (default
# runs/warmups; one already there is reused), calibrations to
# $WARM/cal-<task>-<steps>-<n>.json for the n-th setting below.
set -euo pipefail
cd "$(dirname "$0")/.."
export GOTOOLCHAIN=go1.27.3 GOEXPERIMENT=simd
BIN=${BIN:-bin/credo}
[ -n "${BIN_BUILT:-}" ] || go build -o "$BIN" ./cmd/credo
WARM=${WARM:-runs/warmups}
settings() {
  case $1 in
    toolcall) echo "default tools=1,optional=omit tools=1,optional=omit,vocab=4" ;;
    arith)    echo "default min_ops=1,max_ops=1 min_ops=1,max_ops=2,max=20 min_ops=1,max_ops=1,operators=+,max=9,words=0" ;;
    sql)      echo "default kinds=filter kinds=filter+order,joins=0,aggregates=0" ;;
    ifeval)   echo "default min=1,max=2 min=1,max=1" ;;
  esac
}
adapt() {
  case $1 in
    toolcall) echo "tools=1,optional=omit,vocab=4" ;;
    arith)    echo "min_ops=1,max_ops=1,operators=+,max=9,words=0" ;;
  esac
}
index() { # the n of setting $2 among task $1's settings
  local n=0
  for s in $(settings "$1"); do [ "$s" = "$2" ] && echo $n; n=$((n + 1)); done
}
calibrate() { # task steps
  local n=0 d
  for s in $(settings "$1"); do
    d=$s; [ "$s" = default ] && d=
    echo "== $1 warm-up $2 steps, difficulty=$s, load $(cut -d' ' -f1-3 /proc/loadavg)"
    "$BIN" calibrate --task "$1" --init "$WARM/$1-$2" --difficulty "$d" --out "$WARM/cal-$1-$2-$n.json"
    n=$((n + 1))
  done
}
for task in ${@:-toolcall arith sql ifeval}; do
  [ -f "$WARM/$task-120/config.json" ] ||
    "$BIN" sft --task "$task" --steps 120 --eval-prompts 0 --out "$WARM/$task-120"
  [ "${ONLY:-}" = 300 ] || calibrate "$task" 120
  [ "${ONLY:-}" = 120 ] && continue
  [ -f "$WARM/$task-300/config.json" ] ||
    "$BIN" sft --task "$task" --init "$WARM/$task-120" --steps 180 --eval-prompts 0 --out "$WARM/$task-300"
  calibrate "$task" 300
  [ "${ONLY:-}" = 300 ] && continue
  a=$(adapt "$task")
  [ -n "$a" ] || continue
  [ -f "$WARM/$task-420easy/config.json" ] ||
    "$BIN" sft --task "$task" --init "$WARM/$task-300" --difficulty "$a" --steps 120 --eval-prompts 0 --out "$WARM/$task-420easy"
  "$BIN" calibrate --task "$task" --init "$WARM/$task-420easy" --difficulty "$a" --out "$WARM/cal-$task-420easy.json"
  "$BIN" calibrate --task "$task" --init "$WARM/$task-420easy" --out "$WARM/cal-$task-420easy-atdefault.json"
  [ -f "$WARM/$task-420/config.json" ] ||
    "$BIN" sft --task "$task" --init "$WARM/$task-300" --steps 120 --eval-prompts 0 --out "$WARM/$task-420"
  "$BIN" calibrate --task "$task" --init "$WARM/$task-420" --out "$WARM/cal-$task-420-0.json"
  "$BIN" calibrate --task "$task" --init "$WARM/$task-420" --difficulty "$a" --out "$WARM/cal-$task-420-$(index "$task" "$a").json"
done
