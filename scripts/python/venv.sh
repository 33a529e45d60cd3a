#!/usr/bin/env bash
# venv.sh NAME: make (or reuse) the Python environment NAME from
# scripts/python/requirements-NAME.txt, under ${XDG_CACHE_HOME:-~/.cache}/credo,
# and print its path. Packages come from pip's own configured index; a
# finished environment is reused while its requirements file is unchanged.
#
# Two optional header lines in the requirements file:
#   # python: python3.12   the interpreter to make the environment with
#                          (default python3)
#   # base: client         layer this environment over environment "client"
#                          (made first if needed): a .pth file appends the
#                          base's site-packages to sys.path, so the base's
#                          torch (5 GB with its CUDA libraries) is installed
#                          once; packages installed here shadow the base's.
set -euo pipefail
name=${1:?usage: venv.sh NAME}
here=$(cd "$(dirname "$0")" && pwd)
req="$here/requirements-$name.txt"
[ -f "$req" ] || { echo "venv.sh: no $req" >&2; exit 2; }
root="${XDG_CACHE_HOME:-$HOME/.cache}/credo"
dir="$root/venv-$name"
stamp="$dir/.requirements.sha256"
mkdir -p "$root"
exec 9>"$root/.venv-$name.lock"
flock 9   # one install of NAME at a time (make test and a bench may race)
python=$(sed -n 's/^# python: *//p' "$req" | head -1)
base=$(sed -n 's/^# base: *//p' "$req" | head -1)
basedir=""
want=$(sha256sum "$req" | cut -d' ' -f1)
if [ -n "$base" ]; then
  basedir=$("$0" "$base")
  want="$want $(cat "$basedir/.requirements.sha256")"
fi
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  echo "venv.sh: installing $req into $dir (the first time several minutes; pip lists each package, and a line every ${CREDO_VENV_HEARTBEAT:-30} s says it is still at work)" >&2
  rm -rf "$dir"
  py=${python:-python3}
  if ! "$py" -c pass 2>/dev/null; then  # e.g. a pyenv shim of a version that is not the global one
    py=$(ls -d "${PYENV_ROOT:-$HOME/.pyenv}"/versions/*/bin/"$py" 2>/dev/null | sort -V | tail -1)
    [ -n "$py" ] || { echo "venv.sh: no ${python:-python3} for $name" >&2; exit 2; }
  fi
  "$py" -m venv "$dir"
  if [ -n "$basedir" ]; then
    site=$("$dir/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
    basesite=$("$basedir/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
    [ "$(basename "$(dirname "$site")")" = "$(basename "$(dirname "$basesite")")" ] ||
      { echo "venv.sh: $name and its base $base use different Pythons" >&2; exit 2; }
    echo "$basesite" > "$site/_credo_base_$base.pth"
  fi
  # pip names each package it collects; the heartbeat covers its silent
  # stretches (unpacking and installing torch take minutes).
  started=$SECONDS
  ( while sleep "${CREDO_VENV_HEARTBEAT:-30}"; do
      echo "venv.sh: still installing $name ($((SECONDS - started)) s, $(du -sm "$dir" 2>/dev/null | cut -f1) MB so far)" >&2
    done ) >/dev/null 9>&- &  # neither stdout (the caller reads the path from it) nor the lock
  heartbeat=$!
  trap 'kill "$heartbeat" 2>/dev/null || true' EXIT
  "$dir/bin/pip" install --disable-pip-version-check -r "$req" >&2
  if [ -f "$here/requirements-$name-nodeps.txt" ]; then
    "$dir/bin/pip" install -q --disable-pip-version-check --no-deps -r "$here/requirements-$name-nodeps.txt" >&2
  fi
  kill "$heartbeat" 2>/dev/null || true
  echo "venv.sh: installed $name in $((SECONDS - started)) s" >&2
  echo "$want" > "$stamp"
fi
echo "$dir"
