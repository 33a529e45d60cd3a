#!/usr/bin/env bash
# Side-by-side speed of one training step: credo (optim.BenchmarkTrainStep)
# against the same step in PyTorch on the CPU (scripts/bench_torch.py), for
# the ~1M and ~10M presets, 16 x 256 tokens, AdamW. Two PyTorch peers:
#
#   1.13      Debian's torch with OpenBLAS (below), written-out attention
#   2.15      PyPI's wheel (scripts/python/venv.sh client), its own MKL,
#             F.scaled_dot_product_attention; eager, and again with
#             torch.compile (inductor) on the loss and the update, its own
#             column ("compile failed: <reason>" when it does not build)
#
#   scripts/bench.sh             # ROUNDS=2 alternating credo/torch runs
#
# Environment:
#   CREDO_PEAK_GFLOPS  float32 peak for MFU; measured with scripts/peak.sh
#                      (best of 3) when unset
#   ROUNDS             alternating rounds (default 2)
#   TORCH_STEPS        timed steps per PyTorch run (default 10, the median
#                      reported)
#   PEER2              0: leave PyTorch 2.15 out (the 1.13 columns only)
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
#   MAX_LOAD, FORCE    it refuses to start when the 1-minute load average
#                      is above MAX_LOAD (default 0.5) unless FORCE=1
#                      (scripts/lib/load.sh); the load is printed at the
#                      start, before every run and at the end
#
# Debian's torch links the reference BLAS (~3 GFLOP/s, one thread); the 1.13
# peer is made fair by loading OpenBLAS (OpenMP build) in its place through
# LD_LIBRARY_PATH, with as many threads as credo uses. Each table row shows
# the best of the rounds for each side; every run's line is printed first.
set -euo pipefail
cd "$(dirname "$0")/.."
export GOTOOLCHAIN=go1.27.3 GOEXPERIMENT=simd
source scripts/lib/load.sh # load_guard, load
load_guard bench.sh
ROUNDS=${ROUNDS:-2}
THREADS=$(nproc)

TORCH_STEPS=${TORCH_STEPS:-10}

# (a) Dependencies: Debian's PyTorch, and OpenBLAS unpacked (not installed,
# so the system's BLAS stays as it is), PyTorch 2.15's environment; sets
# PY, PY2, OBDIR, OPENBLAS_CORETYPE and OMP_WAIT_POLICY, defines
# peak_gflops.
source scripts/torch_env.sh

# (b) Peak: best of three runs, since other load only lowers it. Every MFU
# below, each side's, is against this one figure.
CREDO_PEAK_GFLOPS=${CREDO_PEAK_GFLOPS:-$(peak_gflops)}
export CREDO_PEAK_GFLOPS
echo "# peak ${CREDO_PEAK_GFLOPS} GFLOP/s, ${THREADS} threads, OPENBLAS_CORETYPE=${OPENBLAS_CORETYPE}, OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-default} (load $(load))"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go test -c -o "$tmp/optim.test" ./optim
results=$tmp/results

# run_torch SIDE BLAS PYTHON ARGS…: one bench_torch.py run, its lines appended
# to $results as "SIDE CONFIG round=R step_s=S mfu=M". A run that fails
# (a compile that does not build, say) records "failed: <its last error
# line>" for each config instead, so the table says why the column is empty.
run_torch() {
	local side=$1 blas=$2 py=$3
	shift 3
	echo "# round $round $side: scripts/bench_torch.py --steps $TORCH_STEPS $*  (load $(load))"
	if ! "$py" scripts/bench_torch.py --peak "$CREDO_PEAK_GFLOPS" --threads "$THREADS" --steps "$TORCH_STEPS" "$@" \
		>"$tmp/torch.out" 2>"$tmp/torch.err"; then
		cat "$tmp/torch.out"
		tail -3 "$tmp/torch.err"
		local why
		why=$(grep -E '^[A-Za-z_.]*(Error|Exception)' "$tmp/torch.err" | tail -1 | cut -c1-80 | tr ' ' '_')
		for c in 1M 10M; do echo "$side $c round=$round failed:${why:-see_the_log_above}" >>"$results"; done
		return
	fi
	cat "$tmp/torch.out"
	grep -q "blas=$blas" "$tmp/torch.out" || { echo "bench.sh: $side did not run on $blas" >&2; exit 1; }
	awk -v r="$round" -v side="$side" '/^torch / {
		step = mfu = ""
		for (i = 3; i <= NF; i++) { split($i, kv, "="); if (kv[1] == "step_s") step = kv[2]; if (kv[1] == "mfu") mfu = kv[2] }
		printf "%s %s round=%s step_s=%s mfu=%s\n", side, $2, r, step, mfu
	}' "$tmp/torch.out" >>"$results"
}

# (c, d) Alternate the sides so machine noise falls on all of them.
for round in $(seq 1 "$ROUNDS"); do
	echo "# round $round credo: go test ./optim -run XXX -bench TrainStep -benchtime 5x  (load $(load))"
	(cd optim && "$tmp/optim.test" -test.run XXX -test.bench TrainStep -test.benchtime 5x) | tee "$tmp/go.out"
	# BenchmarkTrainStep/10M-10724736params-2  5  2.4e9 ns/op  ... 15.3 MFU% ...
	awk -v r="$round" '/^BenchmarkTrainStep\// {
		split($1, a, "/"); split(a[2], b, "-"); ns = mfu = ""
		for (i = 2; i < NF; i++) { if ($(i+1) == "ns/op") ns = $i; if ($(i+1) == "MFU%") mfu = $i }
		printf "credo %s round=%s step_s=%.4f mfu=%s\n", b[1], r, ns / 1e9, mfu
	}' "$tmp/go.out" >>"$results"
	OMP_NUM_THREADS=$THREADS LD_LIBRARY_PATH=$OBDIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} run_torch t1.13 openblas "$PY"
	if [ -n "$PY2" ]; then
		OMP_NUM_THREADS=$THREADS run_torch t2.15 mkl "$PY2"
		# Three untimed steps: the first compiles the loss and the update,
		# the second recompiles the update (AdamW's state exists from then on).
		OMP_NUM_THREADS=$THREADS run_torch t2.15c mkl "$PY2" --compile --warmup 3
	fi
done

# (e) Best of the rounds per side; a ratio > 1 means credo is faster.
echo
echo "# best of $ROUNDS rounds; ratio = torch s/step / credo s/step (>1: credo faster); MFU against ${CREDO_PEAK_GFLOPS} GFLOP/s; load at the end $(load)"
awk '{
	split($4, s, "="); split($5, m, "="); k = $1 SUBSEP $2
	if ($4 ~ /^failed:/) { if (!(k in best)) fail[k] = substr($4, 8); next }
	if (!(k in best) || s[2] < best[k]) { best[k] = s[2]; mfu[k] = m[2] }
	if (!($2 in seen)) { seen[$2] = 1; order[++n] = $2 }
	if (!($1 in sseen)) { sseen[$1] = 1; sides[++ns] = $1 }
} END {
	for (k in fail) { split(k, p, SUBSEP); if (!(p[1] in sseen)) { sseen[p[1]] = 1; sides[++ns] = p[1] } }
	printf "%-6s", "config"
	for (j = 1; j <= ns; j++) printf " %14s", sides[j] " s/step"
	for (j = 2; j <= ns; j++) printf " %12s", sides[j] "/credo"
	for (j = 1; j <= ns; j++) printf " %12s", sides[j] " MFU"
	printf "\n"
	for (i = 1; i <= n; i++) {
		c = order[i]; cs = best["credo", c]
		printf "%-6s", c
		for (j = 1; j <= ns; j++) { k = sides[j] SUBSEP c; printf " %14s", (k in best) ? sprintf("%.3f", best[k]) : "-" }
		for (j = 2; j <= ns; j++) { k = sides[j] SUBSEP c; printf " %12s", (k in best) ? sprintf("%.2f", best[k] / cs) : "-" }
		for (j = 1; j <= ns; j++) { k = sides[j] SUBSEP c; printf " %11s%%", (k in best) ? mfu[k] : "-" }
		printf "\n"
	}
	for (k in fail) if (!(k in best)) { split(k, p, SUBSEP); printf "# %s %s: failed: %s\n", p[1], p[2], fail[k] }
}' "$results"
