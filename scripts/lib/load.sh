# load.sh is sourced by the scripts that publish timings (scripts/bench.sh,
# bench-sample.sh, bench-sample-real.sh, bench-xla.sh, scaling.sh, fresh-times.sh,
# phases.sh, ab-step.sh): a figure measured beside another heavy job measures the
# sharing, so they refuse to start on a busy machine and state the load
# they ran at.
#
#   load_guard NAME  at a script's start: when the 1-minute load average is
#                    above MAX_LOAD (default 0.5, on a 2-core machine) it
#                    says so on stderr and exits 3, unless FORCE=1; then it
#                    prints "# start: load A B C (1, 5, 15 min), <date>,
#                    commit <id>", and sets LOAD_START (A B C) and
#                    LOAD_FORCED (1 when forced past MAX_LOAD, else 0)
#   load_note WHEN   prints "# WHEN: load A B C (1, 5, 15 min)" (WHEN: end)
#   load             prints the three averages, "A B C"
#
# A script started by another whose guard passed (bench-sample.sh runs
# bench-sample-real.sh after its own runs, which raise the load) does not
# refuse: the first guard exports CREDO_LOAD_GUARD ("NAME at A B C") and
# the second prints it beside its own start line.
#
# LOADAVG_FILE (default /proc/loadavg) is read in the kernel's place: the
# tests give the guard a fake load through it.

load() { cut -d' ' -f1-3 "${LOADAVG_FILE:-/proc/loadavg}"; }

load_note() { echo "# ${1:-end}: load $(load) (1, 5, 15 min)"; }

load_guard() {
	local name=${1:-${0##*/}} max=${MAX_LOAD:-0.5} now l1 commit
	now=$(load)
	l1=${now%% *}
	LOAD_START=$now
	LOAD_FORCED=0
	if ! [[ $max =~ ^[0-9]+([.][0-9]*)?$ ]]; then
		echo "$name: MAX_LOAD=$max is not a number (the 1-minute load average above which it refuses to start)" >&2
		exit 2
	fi
	if awk -v l="$l1" -v m="$max" 'BEGIN { exit !(l + 0 > m + 0) }'; then
		if [ -n "${CREDO_LOAD_GUARD:-}" ]; then
			: # run by a guarded script: its own work is the load
		elif [ "${FORCE:-0}" = 1 ]; then
			LOAD_FORCED=1
		else
			echo "$name: the 1-minute load average is $l1 ($now over 1, 5, 15 min), above MAX_LOAD=$max:" \
				"its timings would measure the other jobs' share of the machine. Stop them and wait for" \
				"the load to fall, or run with FORCE=1 to measure anyway (or MAX_LOAD=<higher>)." >&2
			exit 3
		fi
	fi
	commit=$(git rev-parse --short HEAD 2>/dev/null) && { git diff --quiet 2>/dev/null || commit+=+dirty; } || commit=unknown
	echo "# start: load $now (1, 5, 15 min), $(date -u +%FT%TZ), commit $commit"
	if [ -n "${CREDO_LOAD_GUARD:-}" ]; then
		echo "# run by $CREDO_LOAD_GUARD"
	else
		export CREDO_LOAD_GUARD="$name at load $now"
	fi
	if [ "$LOAD_FORCED" = 1 ]; then
		echo "# FORCE=1: started at a 1-minute load of $l1, above MAX_LOAD=$max: these timings include other jobs' share of the machine"
	fi
}
