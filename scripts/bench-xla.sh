#!/usr/bin/env bash
# XLA's CPU plugin beside the pure-Go backend, on this machine's CPU: the
# training step (optim's BenchmarkTrainShape: AdamW on BATCH × SEQ tokens)
# for SIZES, and KV-cache generation (sample's BenchmarkGenerateSize: batch
# 64, 128 new tokens) for GEN_SIZES. One test binary per package, built once
# with -tags xla (cgo), runs both backends (CREDO_BACKEND); every run is its
# own process, the backends alternate within a round, and the table shows
# the best of the rounds. XLA's first step compiles its graphs (seconds on
# this plugin): Go's benchmark harness runs a step before the timed ones,
# and the timed steps reuse the compiled graphs.
#
#   scripts/bench-xla.sh                          # the whole table (long at 135M)
#   SIZES=1M GEN_SIZES=1M BENCHTIME=2x scripts/bench-xla.sh   # a quick check (3-4 minutes
#                                                 # here, most of it building the test binaries)
#
# Environment: SIZES (default "1M 10M 135M"), GEN_SIZES (default "1M 135M"),
# BATCH (16), SEQ (256), ROUNDS (1), BENCHTIME (3x, the timed steps per run),
# CREDO_PEAK_GFLOPS (MFU's peak; default: scripts/peak.sh's best of three),
# PLUGIN (default: scripts/xla-plugin.sh's pinned CPU plugin), TORCH (1,
# the default: PyTorch 2.15 beside them, from scripts/python/venv.sh client:
# the same training step eager and torch.compile'd, scripts/bench_torch.py,
# and generation at the same batch, scripts/bench_generate_torch.py; 0:
# none); MAX_LOAD
# and FORCE: it refuses to start when the 1-minute load average is above
# MAX_LOAD (default 0.5) unless FORCE=1 (scripts/lib/load.sh), and prints
# the load at the start, before every run and at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
export GOTOOLCHAIN=go1.27.3 GOEXPERIMENT=simd GOMLX_NO_AUTO_INSTALL=1
source scripts/lib/load.sh # load_guard, load
load_guard bench-xla.sh
SIZES=${SIZES:-1M 10M 135M}
GEN_SIZES=${GEN_SIZES:-1M 135M}
BATCH=${BATCH:-16}
SEQ=${SEQ:-256}
ROUNDS=${ROUNDS:-1}
BENCHTIME=${BENCHTIME:-3x}
PLUGIN=${PLUGIN:-$(scripts/xla-plugin.sh)}
if [ -z "${CREDO_PEAK_GFLOPS:-}" ]; then # best of three: other load only lowers it
  CREDO_PEAK_GFLOPS=$(for _ in 1 2 3; do bash scripts/peak.sh 2>/dev/null | awk '/peak float32/ {print $3}'; done | sort -g | tail -1)
fi
export CREDO_PEAK_GFLOPS
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "# building optim.test and sample.test with -tags xla (cgo)"
CGO_ENABLED=1 go test -tags xla -c -o "$tmp/optim.test" ./optim
CGO_ENABLED=1 go test -tags xla -c -o "$tmp/sample.test" ./sample
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
echo "# commit $commit, $(nproc) cores, peak ${CREDO_PEAK_GFLOPS} GFLOP/s, plugin $PLUGIN, load $(load)"
results=$tmp/results
PY2=""
if [ "${TORCH:-1}" = 1 ]; then
  PY2="$(scripts/python/venv.sh client)/bin/python"
fi
# torch_run KIND SIZE ARGS…: one PyTorch 2.15 run (its own process, 2
# threads), its line appended to the results as KIND.
torch_run() {
  local kind=$1 size=$2
  shift 2
  echo "# round $round $kind $size on torch (load $(load))"
  # OMP_WAIT_POLICY as scripts/bench.sh sets it (PASSIVE unless given).
  if ! OMP_NUM_THREADS=$(nproc) OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-PASSIVE} "$PY2" "$@" | tee "$tmp/out"; then
    echo "# torch $kind $size failed" >&2
    return
  fi
  awk -v k="$kind" -v s="$size" '/^torch / || /^torch-gen / {
    for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
    if (k == "generate") printf "generate %s torch %s -\n", s, v["tokens_s"]
    else printf "train %s %s %s %s\n", s, k, v["step_s"], v["mfu"] }' "$tmp/out" >>"$results"
}
for round in $(seq 1 "$ROUNDS"); do
  for size in $SIZES; do
    if [ -n "$PY2" ]; then
      args=(scripts/bench_torch.py --size "$size" --batch "$BATCH" --seq "$SEQ" --steps "${BENCHTIME%x}" --threads "$(nproc)" --peak "$CREDO_PEAK_GFLOPS")
      torch_run torch "$size" "${args[@]}" --warmup 2
      torch_run torchc "$size" "${args[@]}" --warmup 3 --compile
    fi
    for be in go "xla:$PLUGIN"; do
      name=${be%%:*}
      echo "# round $round train $size on $name (load $(load))"
      (cd optim && CREDO_BACKEND=$be CREDO_BENCH_SHAPE="size=$size,batch=$BATCH,seq=$SEQ" \
        "$tmp/optim.test" -test.run XXX -test.bench TrainShape -test.benchtime "$BENCHTIME") | tee "$tmp/out"
      awk -v n="$name" -v s="$size" '/^BenchmarkTrainShape\// {
        ns = mfu = ""; for (i = 2; i < NF; i++) { if ($(i+1) == "ns/op") ns = $i; if ($(i+1) == "MFU%") mfu = $i }
        printf "train %s %s %.4f %s\n", s, n, ns / 1e9, mfu }' "$tmp/out" >>"$results"
    done
  done
  for size in $GEN_SIZES; do
    if [ -n "$PY2" ]; then
      torch_run generate "$size" scripts/bench_generate_torch.py --configs "$size" --runs "${BENCHTIME%x}" --threads "$(nproc)" --peak "$CREDO_PEAK_GFLOPS"
    fi
    for be in go "xla:$PLUGIN"; do
      name=${be%%:*}
      echo "# round $round generate $size on $name (load $(load))"
      (cd sample && CREDO_BACKEND=$be CREDO_GEN_SIZE=$size \
        "$tmp/sample.test" -test.run XXX -test.bench GenerateSize -test.benchtime "$BENCHTIME") | tee "$tmp/out"
      awk -v n="$name" -v s="$size" '/^BenchmarkGenerateSize\// {
        t = ""; for (i = 2; i < NF; i++) if ($(i+1) == "tokens/s") t = $i
        printf "generate %s %s %s -\n", s, n, t }' "$tmp/out" >>"$results"
    done
  done
done
echo
echo "# best of $ROUNDS round(s); train: s/step (lower is better) and MFU; generate: tokens/s (higher is better);"
echo "# xla/go > 1: XLA faster; torch: PyTorch $( [ -n "$PY2" ] && "$PY2" -c 'import torch; print(torch.__version__.split("+")[0])' || echo -) eager, torchc: torch.compile'd"
load_note end
awk '{ k = $1 " " $2; v = $4 + 0
  if ($1 == "train") { if (!((k, $3) in best) || v < best[k, $3]) { best[k, $3] = v; mfu[k, $3] = $5 } }
  else if (!((k, $3) in best) || v > best[k, $3]) best[k, $3] = v
  if (!(k in seen)) { seen[k] = 1; order[++n] = k } }
function cell(k, side) { return ((k, side) in best) ? best[k, side] : "-" }
function pct(k, side) { return ((k, side) in mfu) ? mfu[k, side] "%" : "-" }
END { printf "%-16s %10s %10s %10s %10s %8s %8s %8s %8s\n", "what", "go", "xla", "torch", "torchc", "xla/go", "go MFU", "xla MFU", "torch MFU"
  for (i = 1; i <= n; i++) { k = order[i]; g = best[k, "go"]; x = best[k, "xla"]
    t = (k ~ /^train/)
    r = t ? (x > 0 ? g / x : 0) : (g > 0 ? x / g : 0)
    printf "%-16s %10s %10s %10s %10s %8.2f %8s %8s %8s\n", k, cell(k, "go"), cell(k, "xla"), cell(k, "torch"), t ? cell(k, "torchc") : "-", r,
      t ? pct(k, "go") : "-", t ? pct(k, "xla") : "-", t ? pct(k, "torch") : "-" } }' "$results"
