#!/usr/bin/env bash
# Side-by-side sampling speed: credo's BenchmarkGenerate (sample/bench_test.go,
# KV cache and full re-run) against KV-cache generation in PyTorch
# (scripts/bench_generate_torch.py), for the ~1M and ~10M presets at batch 64
# (8 prompts x G = 8), 128 new tokens, temperature 1. Two PyTorch peers:
# Debian's 1.13 with OpenBLAS, and PyPI's 2.15 (scripts/python/venv.sh
# client, its own MKL), both eager (see bench_generate_torch.py for why not
# compiled).
#
#   scripts/bench-sample.sh          # ROUNDS=2 alternating credo/torch runs
#   SKIP=Generate/10M/rerun scripts/bench-sample.sh   # without the slowest run
#   CONFIGS=1M scripts/bench-sample.sh                # one config
#   CONFIGS="1M 10M 135M" scripts/bench-sample.sh     # and SmolLM2-135M's real weights
#
# The cached runs use -benchtime 3x: Go reports the 3 runs after a first one
# that includes compiling the graphs (as the PyTorch side reports the median
# of 3 after a warm-up); the re-runs, 100x slower, use 1x.
#
# Every run is its own process, one config each, under /usr/bin/time, so
# each has its own peak RSS (for credo's the test binary also builds the
# other config's model, unused, a few MiB at 1M and ~45 MiB at 10M). MFU
# is one generation's model FLOPs (bench_generate_torch.gen_flops, the
# same count for both sides) over its time, against the peak measured at
# the start.
#
# Environment: ROUNDS (default 2), CONFIGS (default "1M 10M"), SKIP (a go
# test -skip pattern for the credo sub-benchmarks, default none),
# CREDO_PEAK_GFLOPS (default: scripts/peak.sh's best of three), PEER2=0
# (leave 2.15 out), and OPENBLAS_CORETYPE, OMP_WAIT_POLICY,
# CREDO_BENCH_CACHE as in scripts/bench.sh, which also explains why the
# 1.13 peer gets OpenBLAS through LD_LIBRARY_PATH; MAX_LOAD and FORCE: it
# refuses to start when the 1-minute load average is above MAX_LOAD
# (default 0.5) unless FORCE=1 (scripts/lib/load.sh). Every run's line,
# with the load before it, is printed first; the table shows the best of
# the rounds for each side.
set -euo pipefail
cd "$(dirname "$0")/.."
export GOTOOLCHAIN=go1.27.3 GOEXPERIMENT=simd
ROUNDS=${ROUNDS:-2}
SKIP=${SKIP:-}
CONFIGS=${CONFIGS:-1M 10M}
# 135M is SmolLM2-135M-Instruct's real weights against transformers'
# generate: its own script (scripts/bench-sample-real.sh), run after the rest.
real=0
case " $CONFIGS " in *" 135M "*) real=1; CONFIGS=$(echo " $CONFIGS " | sed 's/ 135M / /; s/^ *//; s/ *$//') ;; esac
if [ -z "$CONFIGS" ]; then exec scripts/bench-sample-real.sh; fi
source scripts/lib/load.sh # load_guard, load
load_guard bench-sample.sh
THREADS=$(nproc)
source scripts/torch_env.sh # PY, PY2, OBDIR, OPENBLAS_CORETYPE, OMP_WAIT_POLICY, peak_gflops
CREDO_PEAK_GFLOPS=${CREDO_PEAK_GFLOPS:-$(peak_gflops)}
export CREDO_PEAK_GFLOPS
echo "# ${THREADS} threads, peak ${CREDO_PEAK_GFLOPS} GFLOP/s, OPENBLAS_CORETYPE=${OPENBLAS_CORETYPE}, OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-default} (load $(load))"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go test -c -o "$tmp/sample.test" ./sample
results=$tmp/results
touch "$results"
# rss: the last /usr/bin/time run's peak RSS in MiB.
rss() { awk -F= '/^maxrss_kib=/ {printf "%.0f", $2 / 1024}' "$tmp/rss"; }

# torch_gen SIDE BLAS PYTHON CONFIG: one bench_generate_torch.py process,
# "SIDE CONFIG tokens/s peak-MiB gflop" appended to $results.
torch_gen() {
	local side=$1 blas=$2 py=$3 c=$4
	echo "# round $round $side: scripts/bench_generate_torch.py --configs $c  (load $(load))"
	/usr/bin/time -f 'maxrss_kib=%M' -o "$tmp/rss" \
		"$py" scripts/bench_generate_torch.py --threads "$THREADS" --configs "$c" --peak "$CREDO_PEAK_GFLOPS" | tee "$tmp/torch.out"
	grep -q "blas=$blas" "$tmp/torch.out" || { echo "bench-sample.sh: $side did not run on $blas" >&2; exit 1; }
	awk -v side="$side" -v mib="$(rss)" '/^torch-gen / {
		for (i = 3; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
		print side, $2, v["tokens_s"], mib, v["gflop"]
	}' "$tmp/torch.out" >>"$results"
}

for round in $(seq 1 "$ROUNDS"); do
	for c in $CONFIGS; do
		for mode in cache:3x rerun:1x; do
			echo "# round $round credo: go test ./sample -run XXX -bench 'Generate/$c/${mode%:*}' -skip '$SKIP' -benchtime ${mode#*:}  (load $(load))"
			(cd sample && /usr/bin/time -f 'maxrss_kib=%M' -o "$tmp/rss" "$tmp/sample.test" -test.run XXX \
				-test.bench "Generate/$c/${mode%:*}\$" -test.skip "$SKIP" -test.benchtime "${mode#*:}") | tee "$tmp/go.out"
			# BenchmarkGenerate/1M/cache-2  1  2549738242 ns/op  115.6 heap-MiB  2789 tokens/s
			awk -v mib="$(rss)" '/^BenchmarkGenerate\// {
				split($1, a, "/"); split(a[3], m, "-"); tps = ""
				for (i = 2; i < NF; i++) if ($(i+1) == "tokens/s") tps = $i
				printf "credo-%s %s %s %s -\n", m[1], a[2], tps, mib
			}' "$tmp/go.out" >>"$results"
		done
		OMP_NUM_THREADS=$THREADS LD_LIBRARY_PATH=$OBDIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} torch_gen t1.13 openblas "$PY" "$c"
		[ -z "$PY2" ] || OMP_NUM_THREADS=$THREADS torch_gen t2.15 mkl "$PY2" "$c"
	done
done

# Best (highest tokens/s) of the rounds per side, its largest peak; MFU
# from the FLOPs PyTorch's side counted for the same generation.
echo
echo "# best of $ROUNDS rounds, tokens/s; MFU against ${CREDO_PEAK_GFLOPS} GFLOP/s; peak RSS MiB; load at the end $(load)"
awk -v peak="$CREDO_PEAK_GFLOPS" '{
	k = $1 SUBSEP $2
	if (!(k in best) || $3 > best[k]) best[k] = $3
	if (!(k in mib) || $4 > mib[k]) mib[k] = $4
	if ($5 != "-") gflop[$2] = $5
	if (!($2 in seen)) { seen[$2] = 1; order[++n] = $2 }
} END {
	printf "%-6s %11s %11s %11s %9s %9s %9s %9s %7s %7s %7s %7s %7s %7s\n", "config", "credo cache", "credo rerun", "cache/rerun",
		"t1.13", "t2.15", "c÷t1.13", "c÷t2.15", "MFU c", "t1.13", "t2.15", "MiB c", "t1.13", "t2.15"
	for (i = 1; i <= n; i++) {
		c = order[i]; cc = best["credo-cache", c]; cr = best["credo-rerun", c]; t1 = best["t1.13", c]; t2 = best["t2.15", c]
		g = gflop[c] * 1e9 / (64 * 128) # FLOPs per generated token
		printf "%-6s %11s %11s %11s %9s %9s %9s %9s %7s %7s %7s %7s %7s %7s\n", c,
			(cc == "" ? "-" : sprintf("%.0f", cc)), (cr == "" ? "-" : sprintf("%.1f", cr)),
			(cr == "" || cc == "" ? "-" : sprintf("%.1fx", cc / cr)),
			(t1 == "" ? "-" : sprintf("%.0f", t1)), (t2 == "" ? "-" : sprintf("%.0f", t2)),
			(t1 == "" || cc == "" ? "-" : sprintf("%.2fx", cc / t1)), (t2 == "" || cc == "" ? "-" : sprintf("%.2fx", cc / t2)),
			(cc == "" || g == 0 ? "-" : sprintf("%.1f%%", 100 * cc * g / (peak * 1e9))),
			(t1 == "" || g == 0 ? "-" : sprintf("%.1f%%", 100 * t1 * g / (peak * 1e9))),
			(t2 == "" || g == 0 ? "-" : sprintf("%.1f%%", 100 * t2 * g / (peak * 1e9))),
			(cc == "" ? "-" : mib["credo-cache", c]), (t1 == "" ? "-" : mib["t1.13", c]), (t2 == "" ? "-" : mib["t2.15", c])
	}
}' "$results"
if [ "$real" = 1 ]; then
	echo
	scripts/bench-sample-real.sh
fi
