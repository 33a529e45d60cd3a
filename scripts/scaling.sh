#!/usr/bin/env bash
# Scaling of one AdamW training step, credo (optim.BenchmarkTrainShape)
# against PyTorch 1.13 on the CPU (scripts/bench_torch.py --size) at the
# same shape: seconds per step and peak resident memory over three sweeps,
# and against PyTorch 2.15 (PyPI's wheel, eager and torch.compile'd: see
# scripts/bench.sh) in a table of its own, with every side's MFU,
#
#   model size       1M, 10M, 40M parameters (SIZES), 16 sequences
#                    (SIZE_BATCH) x 256 tokens
#   sequence length  128, 256, 512, 1024 tokens, 16 sequences, 1M and 10M
#   group size       8 prompts x G completions, G = 2, 4, 8, 16 (16..128
#                    sequences of 256 tokens), 1M
#
# Writes docs/results/scaling.md (a table per sweep, with the command, date,
# machine and load) and docs/scaling.svg (the plot, drawn by
# scripts/scalingplot).
#
#   scripts/scaling.sh            # the full sweep: ~12-15 minutes on an idle 2-core machine
#   QUICK=1 scripts/scaling.sh    # tiny shapes, a minute: checks the pipeline
#
# Every shape runs in its own process for each side (credo's test binary,
# then PyTorch's script), so a process's peak RSS (VmHWM; ru_maxrss for
# PyTorch) is that shape's alone. Shapes shared by sweeps (1M, 16 x 256) are
# measured once. The sides alternate shape by shape, round by round, and
# each table keeps the best round's s/step (other load only slows a run)
# and the largest peak. s/step is the mean of the timed steps, each side
# after two untimed warm-up steps (credo's: the first step, then Go's b.N=1
# pass). Whole batches, no micro-batches: at 10M and 1024 tokens each side
# holds ~620 MiB per sequence, ~10 GiB at 16 (extrapolated from 1 and 2),
# so the 10M sequence sweep needs an idle machine with 16 GB or more; drop
# it with SWEEPS="size seq group".
#
# Environment:
#   QUICK        1: tiny shapes, 2 steps, 1 round; writes to $OUT (default
#                a temporary directory, printed) instead of docs/
#   STEPS        timed steps per process (default 3)
#   ROUNDS       alternating rounds per shape (default 2)
#   SWEEPS       which sweeps to run (default "size seq seq10M group")
#   SIZES        the size sweep's models (default "1M 10M 40M"; 135M is
#                SmolLM2-135M's shape, with its 49,152-token vocabulary)
#   SIZE_BATCH   the size sweep's sequences per step (default 16; at 135M
#                16 x 256 tokens needs well over 16 GB, 4 fits)
#   PEERS        PyTorch sides (default "torch t2.15 t2.15c": 1.13, 2.15
#                eager, 2.15 compiled); the plot and the sweep tables show
#                1.13 ("torch"), the PyTorch 2.15 table the others
#   CREDO_PEAK_GFLOPS  the peak MFU is stated against (default: measured,
#                scripts/peak.sh's best of three)
#   NICE         niceness of the measured processes (default 0; use 5 on a
#                shared machine)
#   LIMIT_MIB    a process whose peak RSS passes this is killed and shown
#                as "> peak (killed)" (default 16384)
#   FLOOR_MIB    ... or that leaves the machine less than this available
#                (default 1024)
#   OUT          directory for scaling.md and scaling.svg (default: docs/results/scaling.md and docs/scaling.svg)
#   OPENBLAS_CORETYPE, OMP_WAIT_POLICY, CREDO_BENCH_CACHE: as in bench.sh
#                (scripts/torch_env.sh sets the PyTorch peer up for both)
#   MAX_LOAD, FORCE  it refuses to start when the 1-minute load average is
#                above MAX_LOAD (default 0.5) unless FORCE=1 or QUICK=1
#                (scripts/lib/load.sh); scaling.md states the load at the
#                start and at the end, and a forced start
set -euo pipefail
cd "$(dirname "$0")/.."
export GOTOOLCHAIN=go1.27.3 GOEXPERIMENT=simd
QUICK=${QUICK:-0}
THREADS=$(nproc)
NICE=${NICE:-0}
LIMIT_MIB=${LIMIT_MIB:-16384}
FLOOR_MIB=${FLOOR_MIB:-1024}
source scripts/lib/load.sh # load_guard, load
if [ "$QUICK" = 1 ]; then # a check of the pipeline: its figures are not kept
	load_note start >&2
else
	load_guard scaling.sh >&2
fi
if [ "$QUICK" = 1 ]; then
	STEPS=${STEPS:-2} ROUNDS=${ROUNDS:-1}
else
	STEPS=${STEPS:-3} ROUNDS=${ROUNDS:-2}
fi
SWEEPS=${SWEEPS:-size seq seq10M group}
SIZES=${SIZES:-1M 10M 40M}
SIZE_BATCH=${SIZE_BATCH:-16}
PEERS=${PEERS:-torch t2.15 t2.15c}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ -n "${OUT:-}" ]; then
	mkdir -p "$OUT"
	md=$OUT/scaling.md svg=$OUT/scaling.svg
elif [ "$QUICK" = 1 ]; then
	OUT=$(mktemp -d) # kept: the quick run's output is for looking at
	md=$OUT/scaling.md svg=$OUT/scaling.svg
else
	md=docs/results/scaling.md svg=docs/scaling.svg
fi

source scripts/torch_env.sh # PY, PY2, OBDIR, peak_gflops …
[ -n "$PY2" ] || PEERS=${PEERS//t2.15c/} PEERS=${PEERS//t2.15/}
CREDO_PEAK_GFLOPS=${CREDO_PEAK_GFLOPS:-$(peak_gflops)}
export CREDO_PEAK_GFLOPS

# (a) The shapes: "panel|x label|series|x|tick|size|batch|seq" per line,
# x the position on the plot's axis. The 1M and 10M parameter counts are
# model.Small(268)'s and model.Medium(268)'s, 40M the benchmark's config.
declare -A params=([1M]=821888 [10M]=10724736 [40M]=40814720 [135M]=134515008)
want() { [[ " $SWEEPS " == *" $1 "* ]]; }
shapes=()
if [ "$QUICK" = 1 ]; then
	# Tiny: the size sweep at 2 x 16 tokens, the others on 1M.
	if want size; then
		for s in 1M 10M; do shapes+=("model size (2 x 16 tokens)|parameters||${params[$s]}|$s|$s|2|16"); done
	fi
	if want seq; then
		for t in 16 32; do shapes+=("sequence length (2 sequences)|tokens per sequence|1M|$t|$t|1M|2|$t"); done
	fi
	if want group; then
		for g in 1 2; do shapes+=("group size (2 prompts x G, 16 tokens)|G, completions per prompt||$g|$g|1M|$((2 * g))|16"); done
	fi
else
	if want size; then
		for s in $SIZES; do shapes+=("model size ($SIZE_BATCH x 256 tokens)|parameters||${params[$s]}|$s|$s|$SIZE_BATCH|256"); done
	fi
	for m in 1M 10M; do
		sweep=seq
		[ "$m" = 10M ] && sweep=seq10M
		if want "$sweep"; then
			for t in 128 256 512 1024; do shapes+=("sequence length (16 sequences)|tokens per sequence|$m|$t|$t|$m|16|$t"); done
		fi
	done
	if want group; then
		for g in 2 4 8 16; do shapes+=("group size (8 prompts x G, 256 tokens, 1M)|G, completions per prompt||$g|$g|1M|$((8 * g))|256"); done
	fi
fi
[ "${#shapes[@]}" -gt 0 ] || { echo "scaling.sh: no shapes (SWEEPS=$SWEEPS)" >&2; exit 1; }
# Distinct shapes, in order of first appearance.
mapfile -t unique < <(printf '%s\n' "${shapes[@]}" | awk -F'|' '!seen[$6 "," $7 "," $8]++ {print $6 "," $7 "," $8}')

# (b) measure KEY SIDE CMD…: runs CMD with the memory watchdog and appends
# "SIDE KEY step_s peak_mib mfu" to $tmp/results; a failed or killed run
# records "-" and the peak so far (a failed one its last error line, for
# the PyTorch 2.15 table: a torch.compile that does not build, say). A side killed in an earlier round is not
# run again: it would only be killed again.
measure() {
	local key=$1 side=$2
	shift 2
	touch "$tmp/results"
	if grep -q "^$side $key - >" "$tmp/results"; then
		echo "#   $side $key: skipped (killed in an earlier round)" >&2
		return
	fi
	nice -n "$NICE" "$@" >"$tmp/log" 2>&1 &
	local pid=$! hwm=0 killed=0 kb avail
	while kill -0 "$pid" 2>/dev/null; do
		kb=$(awk '/^VmHWM/ {print $2}' "/proc/$pid/status" 2>/dev/null || true)
		hwm=$((${kb:-0} > hwm ? ${kb:-0} : hwm))
		avail=$(awk '/^MemAvailable/ {print $2}' /proc/meminfo)
		if ((hwm / 1024 > LIMIT_MIB || avail / 1024 < FLOOR_MIB)); then
			kill -9 "$pid" 2>/dev/null || true
			killed=1
		fi
		sleep 0.2
	done
	local rc=0
	wait "$pid" || rc=$?
	if ((killed)); then
		echo "#   $side $key: killed at $((hwm / 1024)) MiB" >&2
		echo "$side $key - >$((hwm / 1024))(killed) -" >>"$tmp/results"
		return
	fi
	if ((rc != 0)); then
		echo "#   $side $key: failed (exit $rc):" >&2
		tail -5 "$tmp/log" >&2
		local why
		why=$(grep -E '^[A-Za-z_.]*(Error|Exception)' "$tmp/log" | tail -1 | cut -c1-80 | tr ' ' '_')
		echo "$side $key - - failed:${why:-exit_$rc}" >>"$tmp/results"
		return
	fi
	local line
	if [ "$side" = credo ]; then
		# BenchmarkTrainShape/1M-821888params-B16-T256-2  3  3.5e8 ns/op ... 210.5 peak-MiB ...
		line=$(awk '/^BenchmarkTrainShape\// {
			ns = mib = mfu = ""
			for (i = 2; i < NF; i++) { if ($(i+1) == "ns/op") ns = $i; if ($(i+1) == "peak-MiB") mib = $i; if ($(i+1) == "MFU%") mfu = $i }
			if (ns != "" && mib != "") printf "%.4f %.1f %s", ns / 1e9, mib, mfu
		}' "$tmp/log")
	else
		local blas=mkl
		[ "$side" = torch ] && blas=openblas
		grep -q "blas=$blas" "$tmp/log" || { echo "scaling.sh: $side did not run on $blas" >&2; cat "$tmp/log" >&2; exit 1; }
		line=$(awk '/^torch / {
			s = mib = mfu = ""
			for (i = 3; i <= NF; i++) { split($i, kv, "="); if (kv[1] == "mean_s") s = kv[2]; if (kv[1] == "peak_mib") mib = kv[2]; if (kv[1] == "mfu") mfu = kv[2] }
			if (s != "" && mib != "") print s, mib, mfu
		}' "$tmp/log")
	fi
	[ -n "$line" ] || { echo "scaling.sh: no result in $side's output:" >&2; cat "$tmp/log" >&2; exit 1; }
	echo "#   $side $key: $line (s/step, peak MiB, MFU%)" >&2
	echo "$side $key $line" >>"$tmp/results"
}

go test -c -o "$tmp/optim.test" ./optim
load0=$(load)
start=$(date -u +%s)
echo "# ${#unique[@]} shapes x $ROUNDS rounds, $STEPS steps each, $THREADS threads, OPENBLAS_CORETYPE=$OPENBLAS_CORETYPE, peak $CREDO_PEAK_GFLOPS GFLOP/s, peers $PEERS (load $load0)" >&2
for round in $(seq 1 "$ROUNDS"); do
	for key in "${unique[@]}"; do
		IFS=, read -r size batch seq <<<"$key"
		echo "# round $round, size=$size batch=$batch seq=$seq (load $(load))" >&2
		(cd optim && CREDO_BENCH_SHAPE="size=$size,batch=$batch,seq=$seq" measure "$key" credo \
			"$tmp/optim.test" -test.run XXX -test.bench TrainShape -test.benchtime "${STEPS}x")
		args=(--size "$size" --batch "$batch" --seq "$seq" --steps "$STEPS" --threads "$THREADS" --peak "$CREDO_PEAK_GFLOPS")
		for peer in $PEERS; do
			case $peer in
			torch) OMP_NUM_THREADS=$THREADS LD_LIBRARY_PATH=$OBDIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} \
				measure "$key" torch "$PY" scripts/bench_torch.py "${args[@]}" --warmup 2 ;;
			t2.15) OMP_NUM_THREADS=$THREADS measure "$key" t2.15 "$PY2" scripts/bench_torch.py "${args[@]}" --warmup 2 ;;
			# Three untimed steps: compiling, then the update's recompile
			# once AdamW's state exists.
			t2.15c) OMP_NUM_THREADS=$THREADS measure "$key" t2.15c "$PY2" scripts/bench_torch.py "${args[@]}" --warmup 3 --compile ;;
			*) echo "scaling.sh: unknown peer $peer (have torch t2.15 t2.15c)" >&2; exit 1 ;;
			esac
		done
	done
done
load1=$(load)
minutes=$(awk -v s="$start" -v e="$(date -u +%s)" 'BEGIN {printf "%.1f", (e - s) / 60}')

# (c) Best s/step and largest peak per side and shape, joined to the sweeps.
best=$tmp/best
awk '{
	k = $1 " " $2
	if (!(k in s)) { s[k] = "-"; p[k] = $4; pv[k] = -1; m[k] = $5 }
	if ($3 != "-" && (s[k] == "-" || $3 + 0 < s[k] + 0)) { s[k] = $3; m[k] = $5 }
	v = $4; gsub(/[^0-9.]/, "", v)
	if (v != "" && v + 0 > pv[k]) { p[k] = $4; pv[k] = v + 0 }
} END { for (k in s) print k, s[k], p[k], m[k] }' "$tmp/results" >"$best"
tsv=$tmp/scaling.tsv
printf 'panel\txlabel\tseries\tx\ttick\tshape\tcredo_s\ttorch_s\tcredo_mib\ttorch_mib\n' >"$tsv"
for sh in "${shapes[@]}"; do
	IFS='|' read -r panel xlabel series x tick size batch seq <<<"$sh"
	key="$size,$batch,$seq"
	read -r cs cm < <(awk -v k="$key" '$1 == "credo" && $2 == k {print $3, $4}' "$best")
	read -r ts tm < <(awk -v k="$key" '$1 == "torch" && $2 == k {print $3, $4}' "$best")
	# "-" stays; ">1234(killed)" becomes "> 1234 (killed)" for the table.
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$panel" "$xlabel" "$series" "$x" "$tick" \
		"size=$size,batch=$batch,seq=$seq" "$cs" "$ts" "${cm/(killed)/ (killed)}" "${tm/(killed)/ (killed)}" |
		sed 's/>\([0-9]\)/> \1/g' >>"$tsv"
done

# (d) The report: how it was measured, then the tables; and the plot.
cpu=$(awk -F': ' '/^model name/ {print $2; exit}' /proc/cpuinfo)
flags=$(grep -qw avx512f /proc/cpuinfo && echo "AVX-512" || echo "AVX2")
mem=$(awk '/^MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo)
torchv=$("$PY" -c 'import torch; print(torch.__version__)' 2>/dev/null)
cmd="scripts/scaling.sh"
[ "$QUICK" = 1 ] && cmd="QUICK=1 $cmd"
for v in STEPS ROUNDS NICE; do cmd="$v=${!v} $cmd"; done
[ "$SWEEPS" = "size seq seq10M group" ] || cmd="SWEEPS=\"$SWEEPS\" $cmd"
svgrel=$(realpath --relative-to="$(dirname "$md")" "$svg")

# peer2_table: every shape once, credo against each PyTorch side, with MFU
# against the peak measured at the start (the same figure for every side).
peer2_table() {
	local torch2v=""
	[ -z "$PY2" ] || torch2v=$("$PY2" -c 'import torch; print(torch.__version__.split("+")[0])')
	echo
	echo "### PyTorch $torchv and $torch2v, with MFU"
	echo
	echo "Sides: credo; PyTorch $torchv + OpenBLAS (written-out attention); PyTorch $torch2v"
	echo "from PyPI (its MKL, \`F.scaled_dot_product_attention\`), eager and with"
	echo "\`torch.compile\` on the loss and the update (inductor). MFU against"
	echo "${CREDO_PEAK_GFLOPS} GFLOP/s, \`scripts/peak.sh\`'s best of three at the start. PyTorch ÷ credo"
	echo "above 1 means credo is faster."
	echo
	printf '%s\n' "${unique[@]}" | awk -v peers="credo $PEERS" -v v1="$torchv" -v v2="$torch2v" '
	NR == FNR { s[$1, $2] = $3; p[$1, $2] = $4; m[$1, $2] = $5; next }
	{ keys[++n] = $1 }
	END {
		ns = split(peers, side, " ")
		for (j = 1; j <= ns; j++) name[side[j]] = side[j] == "credo" ? "credo" : side[j] == "torch" ? v1 : side[j] == "t2.15" ? v2 " eager" : v2 " compiled"
		h = "| shape"; d = "| ---"
		for (j = 1; j <= ns; j++) { h = h " | " name[side[j]] " s/step"; d = d " | ---:" }
		for (j = 2; j <= ns; j++) { h = h " | " name[side[j]] " ÷ credo"; d = d " | ---:" }
		for (j = 1; j <= ns; j++) { h = h " | " name[side[j]] " MFU"; d = d " | ---:" }
		for (j = 1; j <= ns; j++) { h = h " | " name[side[j]] " peak MiB"; d = d " | ---:" }
		print h " |"; print d " |"
		for (i = 1; i <= n; i++) {
			k = keys[i]; split(k, f, ","); row = "| size=" f[1] ",batch=" f[2] ",seq=" f[3]
			cs = s["credo", k]
			for (j = 1; j <= ns; j++) {
				v = s[side[j], k]; mm = m[side[j], k]
				if (v == "" || v == "-") { gsub("_", " ", mm); sub(/^failed:/, "failed: ", mm); row = row " | " (mm ~ /^failed/ ? (side[j] == "t2.15c" ? "compile " mm : mm) : "-") }
				else row = row " | " sprintf("%.3f", v)
			}
			for (j = 2; j <= ns; j++) {
				v = s[side[j], k]
				row = row " | " ((v == "" || v == "-" || cs == "" || cs == "-") ? "-" : sprintf("**%.2f**", v / cs))
			}
			for (j = 1; j <= ns; j++) { v = m[side[j], k]; row = row " | " ((v == "" || v == "-" || v ~ /^failed/) ? "-" : v "%") }
			for (j = 1; j <= ns; j++) { v = p[side[j], k]; gsub(/\(killed\)/, " (killed)", v); row = row " | " (v == "" ? "-" : v) }
			print row " |"
		}
	}' "$best" -
}
{
	echo "# Scaling of one training step: credo against PyTorch"
	echo
	echo "One AdamW step (loss on every target, gradient clip 1.0) of credo"
	echo "(\`optim.BenchmarkTrainShape\`) and of the same model and step in PyTorch"
	echo "$torchv on the CPU (\`scripts/bench_torch.py --size\`, Debian's torch with"
	echo "OpenBLAS, OpenMP build, \`OPENBLAS_CORETYPE=$OPENBLAS_CORETYPE\`, ${THREADS} threads),"
	echo "at each shape; vocabulary 268. Each side ran one process per shape and"
	echo "round, alternating; s/step is the mean of $STEPS timed steps after two"
	echo "untimed ones, best of $ROUNDS rounds; peak is the process's peak RSS (VmHWM:"
	echo "parameters, AdamW state, activations, and for credo Go's heap with GOGC=100,"
	echo "so garbage not yet collected too), the largest of the rounds. Batches are"
	echo "whole (no micro-batches). PyTorch ÷ credo above 1 means credo is faster."
	echo
	echo "- command: \`$cmd\` ($minutes minutes)"
	dirty=""
	[ -z "$(git status --porcelain --untracked-files=no)" ] || dirty=" with uncommitted changes"
	echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git rev-parse --short HEAD)$dirty"
	echo "- machine: $cpu ($flags), $THREADS cores, $mem RAM"
	forced=""
	[ "${LOAD_FORCED:-0}" = 0 ] || forced=" (started with FORCE=1 at $LOAD_START, above MAX_LOAD=${MAX_LOAD:-0.5})"
	echo "- load average (1, 5, 15 min): $load0 at the start, $load1 at the end$forced"
	echo
	echo "![seconds per step and peak memory against shape]($svgrel)"
	echo
	go run ./scripts/scalingplot -in "$tsv" -svg "$svg" \
		-title "One AdamW step, credo against PyTorch $torchv + OpenBLAS ($THREADS threads)"
	[ -z "${PEERS// /}" ] || peer2_table
} >"$md.tmp"
mv "$md.tmp" "$md"
echo "# wrote $md and $svg ($minutes minutes)" >&2
cat "$md"
