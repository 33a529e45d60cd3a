#!/usr/bin/env bash
# What README's two commands take on a fresh machine: a clone of HEAD
# beside this checkout (so ../shared/data is found, as the tests expect),
# with empty Go build, module and toolchain caches and an empty
# XDG_CACHE_HOME (pip's cache and scripts/python/venv.sh's environments),
# runs `make test`, then `make demo` (its build cached by then), each line
# of their output stamped with the time, and prints how long each took and
# where its phases began. It downloads the Go toolchain, the modules and
# the Python client's environment (about 6 GB in all) and takes about a
# quarter of an hour on 2 idle cores.
#
#   scripts/fresh-times.sh            # logs and caches under a temporary directory, removed at the end
#   KEEP=1 scripts/fresh-times.sh     # keep them (the path is printed)
#
# MAX_LOAD and FORCE: it refuses to start when the 1-minute load average is
# above MAX_LOAD (default 0.5) unless FORCE=1 (scripts/lib/load.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/load.sh # load_guard, load_note
load_guard fresh-times.sh
root=$(pwd)
work=$(mktemp -d "$(dirname "$root")/credo-fresh.XXXXXX")
[ "${KEEP:-0}" = 1 ] || trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT
git clone -q "$root" "$work/credo"
echo "# clone of $(git -C "$work/credo" log --oneline -1) in $work/credo"
export GOCACHE=$work/cache/go-build GOMODCACHE=$work/cache/mod GOPATH=$work/cache/gopath XDG_CACHE_HOME=$work/cache/xdg
# stamped NAME TARGET: make TARGET in the clone, each line prefixed with
# the seconds since it started; its status is make's.
stamped() {
	local name=$1 target=$2 start=$SECONDS
	(
		set -o pipefail
		cd "$work/credo" && make "$target" 2>&1 | while IFS= read -r l; do printf '%5d s  %s\n' $((SECONDS - start)) "$l"; done
	) >"$work/$name.log"
	local rc=$?
	echo "# $name: exit $rc after $((SECONDS - start)) s (log: $work/$name.log)"
	return "$rc"
}
rc=0
stamped make-test test || rc=$?
# Where the phases of make test began (the first line of each).
grep -m1 -E 'go: downloading go1' "$work/make-test.log" || true
grep -m1 -E 'go vet' "$work/make-test.log" || true
grep -m1 -E 'go test -timeout' "$work/make-test.log" || true
grep -m1 -E 'cd third_party/compute' "$work/make-test.log" || true
grep -m1 -E 'venv.sh: installing' "$work/make-test.log" | cut -c1-80 || true
grep -m1 -E 'venv.sh: installed' "$work/make-test.log" || true
stamped make-demo demo || rc=$?
load_note end
exit "$rc"
