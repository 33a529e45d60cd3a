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
# PLUGIN (default: scripts/xla-plugin.sh's pinned CPU plugin); MAX_LOAD
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
for round in $(seq 1 "$ROUNDS"); do
  for size in $SIZES; do
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
echo "# best of $ROUNDS round(s); train: s/step (lower is better) and MFU; generate: tokens/s (higher is better); xla/go > 1: XLA faster; end: load $(load)"
awk '{ k = $1 " " $2; v = $4 + 0
  if ($1 == "train") { if (!((k, $3) in best) || v < best[k, $3]) { best[k, $3] = v; mfu[k, $3] = $5 } }
  else if (!((k, $3) in best) || v > best[k, $3]) best[k, $3] = v
  if (!(k in seen)) { seen[k] = 1; order[++n] = k } }
END { printf "%-16s %12s %12s %8s %9s %9s\n", "what", "go", "xla", "xla/go", "go MFU", "xla MFU"
  for (i = 1; i <= n; i++) { k = order[i]; g = best[k, "go"]; x = best[k, "xla"]
    r = (k ~ /^train/) ? (x > 0 ? g / x : 0) : (g > 0 ? x / g : 0)
    t = (k ~ /^train/)
    printf "%-16s %12s %12s %8.2f %9s %9s\n", k, g, x, r, t ? mfu[k, "go"] "%" : "-", t ? mfu[k, "xla"] "%" : "-" } }' "$results"
