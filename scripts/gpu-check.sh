#!/usr/bin/env bash
# gpu-check.sh: credo on one NVIDIA GPU through XLA's CUDA PJRT plugin, in
# under 10 minutes, from what travels to a GPU machine (the tree and
# bin/gpu-check, no registry, no Go toolchain), writing one results file.
#
#   scripts/gpu-check.sh --build     # here: build bin/gpu-check (stripped -tags xla
#                                    # binaries, gzipped: about 31 MB), then carry it
#   scripts/gpu-check.sh [--out F]   # on the GPU machine: the check (default F:
#                                    # gpu-check-results.txt, or $OUT/ when set)
#   scripts/gpu-check.sh --cpu       # the same parts on XLA's CPU plugin at tiny
#                                    # sizes: tests this script where there is no GPU
#
# On the GPU machine it expects a Python (python3, or $PYTHON) holding JAX
# 0.11.2's jax-cuda13-pjrt/jax-cuda13-plugin (and their nvidia-* libraries),
# PyTorch and transformers. The parts, each under its own time limit, each
# recorded as passed, failed (with its last lines) or skipped, in order:
#   1. the machine: GPU, driver, Python, JAX, PyTorch, the plugin found as
#      <site-packages>/jax_plugins/xla_cuda*/xla_cuda_plugin.so;
#   2. the model's reference tests on the GPU (XLA with tf32=false, since the
#      fixtures are float32): log-probs, every weight gradient, AdamW steps
#      against the PyTorch and transformers fixtures, the KV cache against a
#      re-run, XLA against the Go backend;
#   3. the training step at 10M, 40M and 135M (self-initialised, 16 × 256
#      tokens, AdamW), credo on XLA against eager PyTorch on the same GPU
#      (scripts/bench_torch.py --device cuda), both with TF32 matmuls, MFU
#      against the GPU's dense TF32 peak (PEAK_GFLOPS overrides the table);
#   4. generation at batch 64 (8 prompts × G = 8, 128 new tokens) at 10M and
#      135M against PyTorch (scripts/bench_generate_torch.py --device cuda);
#   5. a 30-step RL comparison, gdpo against span, from a short sft warm-up
#      on the slots task, one seed: final greedy rewards and seconds per step.
# Environment: PYTHON, PLUGIN (a plugin path: skips the search), PEAK_GFLOPS,
# SIZES ("10M 40M 135M"), GEN_SIZES ("10M 135M"), RL_STEPS (30),
# SFT_STEPS (150), REF_RUN (the model tests' -test.run pattern), REF_LIMIT
# (the reference tests' seconds, 180), BUDGET (seconds for the whole check,
# default 570). Tested here with --cpu (BUDGET=1500 on a busy 2-core
# machine: every part ran; the reference tests and PyTorch's step passed
# their limits there, as a busy CPU does).
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD
bin=$root/bin/gpu-check
mode=gpu
results=${OUT:+$OUT/}gpu-check-results.txt
while [ $# -gt 0 ]; do
  case "$1" in
    --build) mode=build ;;
    --cpu) mode=cpu ;;
    --out) results=$2; shift ;;
    -h|--help) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "gpu-check.sh: unknown argument $1 (--build, --cpu, --out FILE)" >&2; exit 2 ;;
  esac
  shift
done

if [ "$mode" = build ]; then
  set -e
  export GOTOOLCHAIN=go1.27.3 GOEXPERIMENT=simd CGO_ENABLED=1
  mkdir -p "$bin"
  for p in model optim sample; do
    echo "gpu-check.sh: go test -c -tags xla ./$p" >&2
    go test -c -tags xla -ldflags='-s -w' -o "$bin/$p.test" "./$p"
  done
  echo "gpu-check.sh: go build -tags xla ./cmd/credo" >&2
  go build -tags xla -buildvcs=auto -ldflags='-s -w' -o "$bin/credo" ./cmd/credo
  for f in credo model.test optim.test sample.test; do gzip -6 -f "$bin/$f"; done
  git rev-parse HEAD >"$bin/commit" 2>/dev/null || echo unknown >"$bin/commit"
  du -bc "$bin"/* | tail -1 | awk '{printf "gpu-check.sh: bin/gpu-check holds %.1f MB\n", $1 / 1e6}' >&2
  exit 0
fi

start=$(date +%s)
BUDGET=${BUDGET:-570}
PY=${PYTHON:-python3}
mkdir -p "$(dirname "$results")"
: >"$results"
log() { echo "$*" | tee -a "$results"; }
left() { echo $((BUDGET - ($(date +%s) - start))); }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The binaries: gzipped as they travel, unpacked here.
for f in credo model.test optim.test sample.test; do
  if [ -f "$bin/$f.gz" ]; then
    gzip -dc "$bin/$f.gz" >"$work/$f" && chmod +x "$work/$f"
  elif [ -x "$bin/$f" ]; then
    cp "$bin/$f" "$work/$f"
  else
    log "FATAL: no $bin/$f(.gz): run scripts/gpu-check.sh --build first, and carry bin/gpu-check"
    exit 1
  fi
done

# part runs a command for at most $1 seconds (never past the budget),
# recording whether it passed and, when not, its last lines.
part() {
  local name=$1 limit=$2
  shift 2
  local l
  l=$(left)
  if [ "$l" -lt 20 ]; then
    log "== $name: SKIPPED (out of time: ${l}s of the ${BUDGET}s budget left)"
    return 1
  fi
  [ "$limit" -gt "$l" ] && limit=$l
  log "== $name (limit ${limit}s)"
  local t0=$(date +%s) rc=0
  timeout --kill-after=5 "$limit" "$@" >"$work/part.out" 2>&1 || rc=$?
  cat "$work/part.out" >>"$work/all.log"
  if [ "$rc" -eq 0 ]; then
    log "   passed in $(($(date +%s) - t0))s"
  else
    [ "$rc" -eq 124 ] && log "   TIMED OUT after ${limit}s" || log "   FAILED (exit $rc) after $(($(date +%s) - t0))s"
    tail -15 "$work/part.out" | sed 's/^/   | /' | tee -a "$results"
  fi
  return "$rc"
}

# 1. The machine and the plugin.
log "# gpu-check: credo $(cat "$bin/commit" 2>/dev/null || echo '(commit unknown)'), mode $mode, $(date -u +%FT%TZ)"
export GOMLX_NO_AUTO_INSTALL=1 GOPJRT_CUDA_CHECKS=0
if [ "$mode" = cpu ]; then
  PLUGIN=${PLUGIN:-$(scripts/xla-plugin.sh)}
  SIZES=${SIZES:-1M}
  GEN_SIZES=${GEN_SIZES:-1M}
  RL_STEPS=${RL_STEPS:-2}
  SFT_STEPS=${SFT_STEPS:-4}
  device=cpu
  PEAK_GFLOPS=${PEAK_GFLOPS:-200}
  gpu="CPU ($(nproc) cores; --cpu)"
  refopts=""
  REF_RUN=${REF_RUN:-XLAMatchesGo|ReferenceLogProbs} # the whole set takes minutes on a busy CPU
  GEN_RUNS=1 GEN_WARMUP=0 # PyTorch's 1M generation takes a minute here
  REF_LIMIT=${REF_LIMIT:-420}
  PY=${PYTHON:-$("$root/scripts/python/venv.sh" client 2>/dev/null)/bin/python}
else
  SIZES=${SIZES:-10M 40M 135M}
  GEN_SIZES=${GEN_SIZES:-10M 135M}
  RL_STEPS=${RL_STEPS:-30}
  SFT_STEPS=${SFT_STEPS:-150}
  device=cuda
  refopts=",tf32=false"
  GEN_RUNS=3 GEN_WARMUP=1
  REF_LIMIT=${REF_LIMIT:-180}
  REF_RUN=${REF_RUN:-XLAMatchesGo|ReferenceLogProbs|ReferenceGradients|ReferenceEmbeddingGradient|TransformersReference|DecodeMatchesFullForward}
  gpu=$(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null | head -1)
  [ -n "$gpu" ] || { log "FATAL: nvidia-smi finds no GPU"; exit 1; }
  if [ -z "${PLUGIN:-}" ]; then
    PLUGIN=$("$PY" - <<'EOF'
import glob, os, site, sys
dirs = list(site.getsitepackages()) + [site.getusersitepackages()] + [p for p in sys.path if p.endswith("-packages")]
for d in dirs:
    for p in sorted(glob.glob(os.path.join(d, "jax_plugins", "xla_cuda*", "xla_cuda_plugin.so"))):
        print(p)
        sys.exit(0)
sys.exit("no jax_plugins/xla_cuda*/xla_cuda_plugin.so under " + ", ".join(dirs))
EOF
    ) || { log "FATAL: no CUDA PJRT plugin found under $PY's site-packages"; exit 1; }
  fi
  # The plugin finds CUDA's libraries (and ptxas) in the nvidia-* wheels
  # beside it: site-packages/nvidia.
  site=$(dirname "$(dirname "$(dirname "$PLUGIN")")")
  if [ -d "$site/nvidia" ]; then
    export XLA_FLAGS="${XLA_FLAGS:+$XLA_FLAGS }--xla_gpu_cuda_data_dir=$site/nvidia"
    libs=$(find "$site/nvidia" -maxdepth 3 -type d -name lib | tr '\n' ':')
    export LD_LIBRARY_PATH="${libs}${LD_LIBRARY_PATH:-}"
    nvbin=$(find "$site/nvidia" -maxdepth 3 -type d -name bin | tr '\n' ':')
    export PATH="${nvbin}$PATH"
  fi
  if [ -z "${PEAK_GFLOPS:-}" ]; then # dense TF32 tensor-core peaks (NVIDIA's data sheets, without sparsity)
    case "$gpu" in
      *H200*|*H100*SXM*|*H100*HBM3*|*GH200*) PEAK_GFLOPS=494700 ;;
      *H100*NVL*) PEAK_GFLOPS=417500 ;;
      *H100*) PEAK_GFLOPS=378000 ;;
      *A100*) PEAK_GFLOPS=156000 ;;
      *L40S*) PEAK_GFLOPS=91600 ;;
      *) PEAK_GFLOPS=0 ;;
    esac
  fi
fi
backend="xla:$PLUGIN"
log "gpu: $gpu"
log "plugin: $PLUGIN"
log "python: $PY: $("$PY" -c 'import sys, importlib.metadata as m
def v(n):
    try: return m.version(n)
    except Exception: return "absent"
print(sys.version.split()[0], "jax", v("jax"), "jax-cuda13-pjrt", v("jax-cuda13-pjrt"), "torch", v("torch"), "transformers", v("transformers"))' 2>&1)"
log "peak: ${PEAK_GFLOPS} GFLOP/s (dense TF32; 0: unknown GPU, set PEAK_GFLOPS for MFU)"
"$work/credo" --version | sed 's/^/credo: /' | tee -a "$results"

# 2. Reference tests on the device (run from each package's folder, where
#    its testdata is).
reftests() {
  (cd "$root/model" && CREDO_BACKEND="$backend$refopts" "$work/model.test" -test.v -test.count=1 -test.run "$REF_RUN") &&
    (cd "$root/optim" && CREDO_BACKEND="$backend$refopts" "$work/optim.test" -test.v -test.count=1 -test.run 'ReferenceAdamW') &&
    (cd "$root/sample" && CREDO_BACKEND="$backend$refopts" "$work/sample.test" -test.v -test.count=1 -test.run 'GreedyMatchesNoCache|LogProbsMatchForward')
}
export root work backend refopts SFT_STEPS RL_STEPS REF_RUN
export -f reftests
part "reference tests on $device (XLA$refopts)" "$REF_LIMIT" bash -c reftests
grep -E '^(--- (PASS|FAIL)|ok|FAIL)|max diff .*grad model.embed|within' "$work/part.out" | head -40 | sed 's/^/   /' >>"$results"

# 3. The training step: credo on XLA, then eager PyTorch.
for size in $SIZES; do
  part "train step $size: credo on XLA" 90 env CREDO_BACKEND="$backend" CREDO_PEAK_GFLOPS="$PEAK_GFLOPS" \
    CREDO_BENCH_SHAPE="size=$size,batch=16,seq=256" sh -c "cd '$root/optim' && '$work/optim.test' -test.run XXX -test.bench TrainShape -test.benchtime 5x" &&
    grep '^BenchmarkTrainShape' "$work/part.out" | sed 's/^/   credo: /' | tee -a "$results"
  part "train step $size: PyTorch eager on $device" 90 "$PY" scripts/bench_torch.py --device "$device" --size "$size" \
    --batch 16 --seq 256 --steps 5 --warmup 2 --peak "$PEAK_GFLOPS" &&
    grep '^torch ' "$work/part.out" | sed 's/^/   /' | tee -a "$results"
done

# 4. Generation at batch 64.
for size in $GEN_SIZES; do
  part "generate $size: credo on XLA" 90 env CREDO_BACKEND="$backend" CREDO_GEN_SIZE="$size" \
    sh -c "cd '$root/sample' && '$work/sample.test' -test.run XXX -test.bench GenerateSize -test.benchtime 3x" &&
    grep '^BenchmarkGenerateSize' "$work/part.out" | sed 's/^/   credo: /' | tee -a "$results"
  part "generate $size: PyTorch eager on $device" 90 "$PY" scripts/bench_generate_torch.py --device "$device" \
    --configs "$size" --runs "$GEN_RUNS" --warmup "$GEN_WARMUP" --peak "$PEAK_GFLOPS" &&
    grep '^torch-gen ' "$work/part.out" | sed 's/^/   /' | tee -a "$results"
done

# 5. RL: gdpo against span from one short warm-up, one seed.
rl() {
  "$work/credo" sft --backend "$backend" --task slots --steps "$SFT_STEPS" --eval-prompts 0 --seed 1 --out "$work/warmup" || return 1
  for m in gdpo span; do
    local t0=$(date +%s.%N)
    "$work/credo" train --backend "$backend" --task slots --method "$m" --init "$work/warmup" --steps "$RL_STEPS" \
      --eval-every 0 --eval-prompts 32 --seed 1 --out "$work/rl-$m" || return 1
    echo "rl $m: $RL_STEPS steps in $(echo "$(date +%s.%N) - $t0" | bc) s"
  done
}
export -f rl
part "RL: gdpo and span, $RL_STEPS steps each from a $SFT_STEPS-step warm-up (slots, seed 1)" 200 bash -c rl
grep -E '^(rl |final greedy|trained )' "$work/part.out" | sed 's/^/   /' | tee -a "$results"

log "# done in $(($(date +%s) - start))s; results in $results"
