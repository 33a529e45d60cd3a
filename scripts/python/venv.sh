#!/usr/bin/env bash
# venv.sh NAME: make (or reuse) the Python environment NAME from
# scripts/python/requirements-NAME.txt, under ${XDG_CACHE_HOME:-~/.cache}/credo,
# and print its path. Packages come from pip's own configured index; a
# finished environment is reused while its requirements file is unchanged.
set -euo pipefail
name=${1:?usage: venv.sh NAME}
here=$(cd "$(dirname "$0")" && pwd)
req="$here/requirements-$name.txt"
[ -f "$req" ] || { echo "venv.sh: no $req" >&2; exit 2; }
dir="${XDG_CACHE_HOME:-$HOME/.cache}/credo/venv-$name"
stamp="$dir/.requirements.sha256"
want=$(sha256sum "$req" | cut -d' ' -f1)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  echo "venv.sh: installing $req into $dir (first time: a few minutes)" >&2
  rm -rf "$dir"
  python3 -m venv "$dir"
  "$dir/bin/pip" install -q --disable-pip-version-check -r "$req" >&2
  if [ -f "$here/requirements-$name-nodeps.txt" ]; then
    "$dir/bin/pip" install -q --disable-pip-version-check --no-deps -r "$here/requirements-$name-nodeps.txt" >&2
  fi
  echo "$want" > "$stamp"
fi
echo "$dir"
