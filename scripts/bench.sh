#!/usr/bin/env bash
# Side-by-side speed of one training step: credo (optim.BenchmarkTrainStep)
# against the same step in PyTorch 1.13 on the CPU (scripts/bench_torch.py),
# for the ~1M and ~10M presets, 16 x 256 tokens, AdamW.
#
#   scripts/bench.sh             # ROUNDS=2 alternating credo/torch runs
#
# Environment:
#   CREDO_PEAK_GFLOPS  float32 peak for MFU; measured with scripts/peak.sh
#                      (best of 3) when unset
#   ROUNDS             alternating rounds (default 2)
#   OPENBLAS_CORETYPE  OpenBLAS kernels for PyTorch (default: SkylakeX with
#                      AVX-512, else Haswell: on this AVX2 EPYC it matched or
#                      beat Zen and autodetection, all within noise)
#   OMP_WAIT_POLICY    for PyTorch: PASSIVE (default) or ACTIVE, or "default"
#                      for libgomp's own spin-then-sleep. With libgomp's
#                      spinning, one core busy with other work made PyTorch's
#                      steps 20-40x slower; on an idle machine it is ~10%
#                      faster than PASSIVE on the 1M config.
#   CREDO_BENCH_CACHE  where the OpenBLAS package is unpacked
#                      (default ~/.cache/credo-bench)
#
# Debian's torch links the reference BLAS (~3 GFLOP/s, one thread); the peer
# is made fair by loading OpenBLAS (OpenMP build) in its place through
# LD_LIBRARY_PATH, with as many threads as credo uses. Each table row shows
# the best of the rounds for each side; every run's line is printed first.
set -euo pipefail
cd "$(dirname "$0")/.."
export GOTOOLCHAIN=go1.27.3 GOEXPERIMENT=simd
ROUNDS=${ROUNDS:-2}
THREADS=$(nproc)

# (a) Dependencies: Debian's PyTorch, and OpenBLAS unpacked (not installed,
# so the system's BLAS stays as it is); sets PY, OBDIR, OPENBLAS_CORETYPE
# and OMP_WAIT_POLICY.
source scripts/torch_env.sh

# (b) Peak: best of three runs, since other load only lowers it.
if [ -z "${CREDO_PEAK_GFLOPS:-}" ]; then
	best=0
	for _ in 1 2 3; do
		g=$(bash scripts/peak.sh 2>/dev/null | awk '/peak float32/ {print $3}')
		best=$(awk -v a="$best" -v b="$g" 'BEGIN {print (b > a ? b : a)}')
	done
	CREDO_PEAK_GFLOPS=$best
fi
export CREDO_PEAK_GFLOPS
echo "# peak ${CREDO_PEAK_GFLOPS} GFLOP/s, ${THREADS} threads, OPENBLAS_CORETYPE=${OPENBLAS_CORETYPE}, OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-default}"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go test -c -o "$tmp/optim.test" ./optim
results=$tmp/results

# (c, d) Alternate the two so machine noise falls on both.
for round in $(seq 1 "$ROUNDS"); do
	echo "# round $round credo: go test ./optim -run XXX -bench TrainStep -benchtime 5x  (load $(cut -d' ' -f1-3 /proc/loadavg))"
	(cd optim && "$tmp/optim.test" -test.run XXX -test.bench TrainStep -test.benchtime 5x) | tee "$tmp/go.out"
	# BenchmarkTrainStep/10M-10724736params-2  5  2.4e9 ns/op  ... 15.3 MFU% ...
	awk -v r="$round" '/^BenchmarkTrainStep\// {
		split($1, a, "/"); split(a[2], b, "-"); ns = mfu = ""
		for (i = 2; i < NF; i++) { if ($(i+1) == "ns/op") ns = $i; if ($(i+1) == "MFU%") mfu = $i }
		printf "credo %s round=%s step_s=%.4f mfu=%s\n", b[1], r, ns / 1e9, mfu
	}' "$tmp/go.out" >>"$results"
	echo "# round $round torch: scripts/bench_torch.py --steps 10  (load $(cut -d' ' -f1-3 /proc/loadavg))"
	OMP_NUM_THREADS=$THREADS LD_LIBRARY_PATH=$OBDIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} \
		"$PY" scripts/bench_torch.py --peak "$CREDO_PEAK_GFLOPS" --threads "$THREADS" --steps 10 | tee "$tmp/torch.out"
	grep -q 'blas=openblas' "$tmp/torch.out" || { echo "bench.sh: PyTorch did not load OpenBLAS" >&2; exit 1; }
	awk -v r="$round" '/^torch / {
		step = mfu = ""
		for (i = 3; i <= NF; i++) { split($i, kv, "="); if (kv[1] == "step_s") step = kv[2]; if (kv[1] == "mfu") mfu = kv[2] }
		printf "torch %s round=%s step_s=%s mfu=%s\n", $2, r, step, mfu
	}' "$tmp/torch.out" >>"$results"
done

# (e) Best of the rounds per side; ratio > 1 means credo is faster.
echo
echo "# best of $ROUNDS rounds; ratio = torch s/step / credo s/step (>1: credo faster)"
awk '{
	split($4, s, "="); split($5, m, "="); k = $1 SUBSEP $2
	if (!(k in best) || s[2] < best[k]) { best[k] = s[2]; mfu[k] = m[2] }
	if (!($2 in seen)) { seen[$2] = 1; order[++n] = $2 }
} END {
	printf "%-6s %14s %14s %7s %10s %10s\n", "config", "credo s/step", "torch s/step", "ratio", "credo MFU", "torch MFU"
	for (i = 1; i <= n; i++) {
		c = order[i]; cs = best["credo", c]; ts = best["torch", c]
		printf "%-6s %14.3f %14.3f %7.2f %9.1f%% %9.1f%%\n", c, cs, ts, ts / cs, mfu["credo", c], mfu["torch", c]
	}
}' "$results"
