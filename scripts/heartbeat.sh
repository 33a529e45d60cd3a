#!/usr/bin/env bash
# heartbeat.sh LABEL COMMAND [ARG...]: run COMMAND and, while it runs,
# print "LABEL (N s) ..." on stderr every ${CREDO_HEARTBEAT:-30} seconds,
# so that a step which prints nothing for minutes (a first build compiles
# GoMLX for about three) says it is still at work. COMMAND keeps stdin,
# stdout, stderr and the terminal (Ctrl-C stops it); the exit status is
# COMMAND's. The ticker ends when COMMAND does, leaving nothing behind that
# holds stderr open (a caller piping it, make test | tee, is not kept
# waiting), and at its next tick should this script be killed outright.
#
#   scripts/heartbeat.sh "make demo: still compiling" go build ./cmd/credo
set -euo pipefail
usage="usage: heartbeat.sh LABEL COMMAND [ARG...]"
[ $# -ge 2 ] || { echo "$usage" >&2; exit 2; }
label=$1
shift
every=${CREDO_HEARTBEAT:-30}
start=$SECONDS
(
  nap=
  trap '[ -z "$nap" ] || kill "$nap" 2>/dev/null; exit 0' TERM
  while :; do
    sleep "$every" </dev/null >/dev/null 2>&1 &
    nap=$!
    wait "$nap" || true
    kill -0 "$$" 2>/dev/null || exit 0 # this script is gone
    echo "$label ($((SECONDS - start)) s) ..." >&2
  done
) </dev/null >/dev/null &
ticker=$!
stop() {
  kill "$ticker" 2>/dev/null || true
  wait "$ticker" 2>/dev/null || true
}
trap stop EXIT
for sig in INT TERM HUP; do # stop the ticker, then die of the signal as the caller expects
  trap "stop; trap - $sig; kill -$sig \$\$" "$sig"
done
rc=0
"$@" || rc=$?
exit "$rc"
