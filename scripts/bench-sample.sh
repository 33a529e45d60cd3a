#!/usr/bin/env bash
# Side-by-side sampling speed: credo's BenchmarkGenerate (sample/bench_test.go,
# KV cache and full re-run) against KV-cache generation in PyTorch 1.13
# (scripts/bench_generate_torch.py), for the ~1M and ~10M presets at batch 64
# (8 prompts x G = 8), 128 new tokens, temperature 1.
#
#   scripts/bench-sample.sh          # ROUNDS=2 alternating credo/torch runs
#   SKIP=Generate/10M/rerun scripts/bench-sample.sh   # without the slowest run
#
# The cached runs use -benchtime 3x: Go reports the 3 runs after a first one
# that includes compiling the graphs (as the PyTorch side reports the median
# of 3 after a warm-up); the re-runs, 100x slower, use 1x.
#
# Environment: ROUNDS (default 2), SKIP (a go test -skip pattern for the
# credo sub-benchmarks, default none), and OPENBLAS_CORETYPE,
# OMP_WAIT_POLICY, CREDO_BENCH_CACHE as in scripts/bench.sh, which also
# explains why PyTorch gets OpenBLAS through LD_LIBRARY_PATH. Every run's
# line is printed first; the table shows the best of the rounds for each side.
set -euo pipefail
cd "$(dirname "$0")/.."
export GOTOOLCHAIN=go1.27.3 GOEXPERIMENT=simd
ROUNDS=${ROUNDS:-2}
SKIP=${SKIP:-}
THREADS=$(nproc)
source scripts/torch_env.sh # PY, OBDIR, OPENBLAS_CORETYPE, OMP_WAIT_POLICY
echo "# ${THREADS} threads, OPENBLAS_CORETYPE=${OPENBLAS_CORETYPE}, OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-default}"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go test -c -o "$tmp/sample.test" ./sample
results=$tmp/results

for round in $(seq 1 "$ROUNDS"); do
	: >"$tmp/go.out"
	for mode in cache:3x rerun:1x; do
		echo "# round $round credo: go test ./sample -run XXX -bench 'Generate/.*/${mode%:*}' -skip '$SKIP' -benchtime ${mode#*:}  (load $(cut -d' ' -f1-3 /proc/loadavg))"
		(cd sample && "$tmp/sample.test" -test.run XXX -test.bench "Generate/.*/${mode%:*}" -test.skip "$SKIP" -test.benchtime "${mode#*:}") | tee -a "$tmp/go.out"
	done
	# BenchmarkGenerate/1M/cache-2  1  2549738242 ns/op  115.6 heap-MiB  2789 tokens/s
	awk '/^BenchmarkGenerate\// {
		split($1, a, "/"); split(a[3], m, "-"); tps = ""
		for (i = 2; i < NF; i++) if ($(i+1) == "tokens/s") tps = $i
		printf "credo-%s %s %s\n", m[1], a[2], tps
	}' "$tmp/go.out" >>"$results"
	echo "# round $round torch: scripts/bench_generate_torch.py  (load $(cut -d' ' -f1-3 /proc/loadavg))"
	OMP_NUM_THREADS=$THREADS LD_LIBRARY_PATH=$OBDIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} \
		"$PY" scripts/bench_generate_torch.py --threads "$THREADS" | tee "$tmp/torch.out"
	grep -q 'blas=openblas' "$tmp/torch.out" || { echo "bench-sample.sh: PyTorch did not load OpenBLAS" >&2; exit 1; }
	awk '/^torch-gen / {
		for (i = 3; i <= NF; i++) { split($i, kv, "="); if (kv[1] == "tokens_s") print "torch", $2, kv[2] }
	}' "$tmp/torch.out" >>"$results"
done

# Best (highest tokens/s) of the rounds per side.
echo
echo "# best of $ROUNDS rounds, tokens/s; load at the end $(cut -d' ' -f1-3 /proc/loadavg)"
awk '{
	k = $1 SUBSEP $2
	if (!(k in best) || $3 > best[k]) best[k] = $3
	if (!($2 in seen)) { seen[$2] = 1; order[++n] = $2 }
} END {
	printf "%-6s %12s %12s %12s %12s %12s\n", "config", "credo cache", "credo rerun", "cache/rerun", "torch cache", "credo/torch"
	for (i = 1; i <= n; i++) {
		c = order[i]; cc = best["credo-cache", c]; cr = best["credo-rerun", c]; tc = best["torch", c]
		printf "%-6s %12s %12s %11s %12s %11s\n", c, (cc == "" ? "-" : sprintf("%.0f", cc)),
			(cr == "" ? "-" : sprintf("%.1f", cr)), (cr == "" || cc == "" ? "-" : sprintf("%.1fx", cc / cr)),
			(tc == "" ? "-" : sprintf("%.0f", tc)), (tc == "" || cc == "" ? "-" : sprintf("%.2fx", cc / tc))
	}
}' "$results"
