#!/usr/bin/env bash
# Measures the float32 peak that MFU figures are stated against.
set -euo pipefail
cd "$(dirname "$0")"
out=$(mktemp -d)
gcc -O3 -march=native -fopenmp peak.c -o "$out/peak"
OMP_NUM_THREADS=${OMP_NUM_THREADS:-$(nproc)} "$out/peak"
rm -rf "$out"
