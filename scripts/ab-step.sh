#!/usr/bin/env bash
# One training recipe under two credo binaries (or commits), in turn: for
# each, `credo train … --steps STEPS --eval-prompts 0 --checkpoint-every 0`
# under GNU time, then the last step's phases from its metrics.jsonl and the
# process's peak RSS. A change that should move nothing but memory, or
# nothing but one phase, is checked here side by side, on one warm machine.
#
#   scripts/ab-step.sh A B INIT_DIR [TASK] [METHOD]
#   A and B: a credo binary, or a commit (built into a temporary folder)
#   e.g. scripts/ab-step.sh 2e1435c 0ef7e4d <SmolLM2 folder> ifeval mrtpo
#
# Environment: STEPS (default 2; step 1 compiles the graphs), PROMPTS (4),
# GROUP (8), MAX_TOKENS (128), LR (1e-5), ROUNDS (1: A then B; 2: A B A B);
# MAX_LOAD and FORCE as scripts/lib/load.sh says.
set -euo pipefail
cd "$(dirname "$0")/.."
export GOTOOLCHAIN=go1.27.3 GOEXPERIMENT=simd
a=${1:?usage: scripts/ab-step.sh A B INIT_DIR [TASK] [METHOD]}
b=${2:?usage: scripts/ab-step.sh A B INIT_DIR [TASK] [METHOD]}
init=${3:?usage: scripts/ab-step.sh A B INIT_DIR [TASK] [METHOD]}
task=${4:-ifeval}
method=${5:-span}
source scripts/lib/load.sh
load_guard ab-step.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# binary prints the path of a credo binary for $1: itself when it is an
# executable file, else the commit built in a temporary worktree.
binary() {
  if [ -x "$1" ] && [ -f "$1" ]; then echo "$1"; return; fi
  local tree="$tmp/tree-$1" out="$tmp/credo-$1"
  git worktree add -q --detach "$tree" "$1" >&2
  (cd "$tree" && go build -o "$out" ./cmd/credo) >&2
  git worktree remove --force "$tree" >&2
  echo "$out"
}
bin_a=$(binary "$a")
bin_b=$(binary "$b")

for round in $(seq "${ROUNDS:-1}"); do
  for side in a b; do
    if [ $side = a ]; then bin=$bin_a name=$a; else bin=$bin_b name=$b; fi
    out="$tmp/run-$side-$round"
    /usr/bin/time -f %M -o "$out.rss" "$bin" train --init "$init" --task "$task" --method "$method" --out "$out" \
      --steps "${STEPS:-2}" --prompts "${PROMPTS:-4}" --group "${GROUP:-8}" --max-tokens "${MAX_TOKENS:-128}" \
      --lr "${LR:-1e-5}" --eval-prompts 0 --checkpoint-every 0 >/dev/null 2>"$out.log" || {
      echo "ab-step.sh: $name failed:" >&2; tail -5 "$out.log" >&2; exit 1; }
    python3 - "$out" "$name" "$(load)" <<'PY'
import json, sys
out, name, load = sys.argv[1:]
last = [json.loads(l) for l in open(f"{out}/metrics.jsonl")][-1]
rss = int(open(f"{out}.rss").read().split()[-1]) / 1024**2
t = lambda k: last.get("time/" + k, 0.0)
print(f"{name:>12}  step {last['step']}: {t('step'):6.1f} s  sample {t('sample'):5.1f}  credit {t('credit'):5.1f}  "
      f"update {t('update'):5.1f}  peak {rss:.2f} GiB  (load {load.split()[0]})")
PY
  done
done
load_note end
