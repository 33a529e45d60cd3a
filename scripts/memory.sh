#!/usr/bin/env bash
# memory.sh measures the peak resident memory (VmHWM, as /usr/bin/time -v's
# "Maximum resident set size") of `credo sft` and of one `credo train` step,
# for the small (~1M, byte vocabulary) preset and for qwen-small (Qwen3's
# 151,936-token vocabulary), and prints a Markdown table.
#
#   scripts/memory.sh [CREDO_BINARY]
#
# Settings: MODELS ("small qwen": the rows to measure), TASK (toolcall), SFT_ARGS ("--steps 2 --batch 16"), TRAIN_ARGS
# ("--prompts 8 --group 4 --max-tokens 64"), LIMIT_MIB (12288).
# CREDO_BINARY defaults to a build of this checkout; pass another build (of
# main, say) to compare. Every run starts from --init folders made once by
# this checkout's build, so any version that loads checkpoints can be
# measured. A run whose memory passes LIMIT_MIB (default 12288), or that
# leaves the machine less than FLOOR_MIB (default 1024) available, is
# killed and reported as "> its peak so far (killed)", so a version
# without micro-batches cannot take a shared machine down. Needs ../shared/data/tokenizers/qwen3 (or
# QWEN_TOKENIZER) for the Qwen rows.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
export GOTOOLCHAIN=${GOTOOLCHAIN:-go1.27.3} GOEXPERIMENT=${GOEXPERIMENT:-simd}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$root" && go build -o "$work/credo-here" ./cmd/credo)
bin=${1:-$work/credo-here}
limit=${LIMIT_MIB:-12288}
floor=${FLOOR_MIB:-1024}
tok=${QWEN_TOKENIZER:-$root/../shared/data/tokenizers/qwen3}
task=${TASK:-toolcall}
sft_args=${SFT_ARGS:---steps 2 --batch 16}
train_args=${TRAIN_ARGS:---prompts 8 --group 4 --max-tokens 64}

# peak CMD…: runs CMD, killing it past $limit MiB; prints its peak RSS in MiB.
peak() {
	"$@" >"$work/log" 2>&1 &
	local pid=$! hwm=0 killed=0
	while kill -0 "$pid" 2>/dev/null; do
		local kb
		kb=$(awk '/^VmHWM/ {print $2}' "/proc/$pid/status" 2>/dev/null || echo 0)
		hwm=$((kb > hwm ? kb : hwm))
		local avail
		avail=$(awk '/^MemAvailable/ {print $2}' /proc/meminfo)
		if ((hwm / 1024 > limit || avail / 1024 < floor)); then
			kill -9 "$pid"
			killed=1
		fi
		sleep 0.2
	done
	if ! wait "$pid" && ((killed == 0)); then
		echo "failed: $*" >&2
		tail -5 "$work/log" >&2
		echo "failed"
		return
	fi
	if ((killed)); then
		echo "> $((hwm / 1024)) (killed)"
	else
		echo "$((hwm / 1024))"
	fi
}

# Start folders: a fresh small policy and a fresh qwen-small one (one step
# of warm-up each, so both are ordinary checkpoints).
here=$work/credo-here
models=${MODELS:-small qwen}
rows=()
if [[ $models == *small* ]]; then
	"$here" sft --task "$task" --size small --steps 1 --batch 1 --eval-prompts 0 --out "$work/init-small" >/dev/null 2>&1
	rows+=("small (~1M, 260 vocab)|$work/init-small")
fi
if [[ $models != *qwen* ]]; then
	:
elif [[ -f $tok/tokenizer.json ]]; then
	"$here" sft --task "$task" --size qwen-small --tokenizer "$tok" --steps 1 --batch 1 --eval-prompts 0 --micro-batch 1 --out "$work/init-qwen" >/dev/null 2>&1
	rows+=("qwen-small (~20M, 151,936 vocab)|$work/init-qwen")
else
	echo "no Qwen3 tokenizer at $tok: Qwen rows skipped" >&2
fi

echo "| model | credo sft $sft_args (and held-out accuracy on 64 demos), MiB | credo train --steps 1 $train_args, MiB |"
echo "| --- | ---: | ---: |"
for row in "${rows[@]}"; do
	name=${row%%|*} init=${row#*|}
	sft=$(peak "$bin" sft --task "$task" --init "$init" $sft_args --eval-prompts 0 --out "$work/sft")
	rm -rf "$work/sft" "$work/run"
	train=$(peak "$bin" train --task "$task" --init "$init" --out "$work/run" --steps 1 $train_args --eval-prompts 0)
	rm -rf "$work/run"
	echo "| $name | $sft | $train |"
done
