#!/usr/bin/env bash
# Prints credo's patch to the Go backend: third_party/compute against the
# upstream module version go.mod replaces (github.com/gomlx/compute v0.1.14),
# as a unified diff with a/ and b/ paths, ready to send upstream. The copy
# is gofmt-clean (credo's `make test` checks every Go file) and upstream is
# not, so upstream is gofmt'ed before the diff: the patch holds only the
# changes that matter.
#
#   scripts/compute-diff.sh > compute.patch
set -euo pipefail
cd "$(dirname "$0")/.."
export GOTOOLCHAIN=go1.27.3 GOEXPERIMENT=simd
ver=v0.1.14
upstream=$(go env GOMODCACHE)/github.com/gomlx/compute@$ver
[ -d "$upstream" ] || go mod download "github.com/gomlx/compute@$ver"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -r "$upstream" "$tmp/a"
chmod -R u+w "$tmp/a"
"$(go env GOROOT)/bin/gofmt" -w "$tmp/a"
ln -s "$PWD/third_party/compute" "$tmp/b"
(cd "$tmp" && diff -ruN a/ b/ | sed -E 's#^(\+\+\+|---) ([^\t]*)\t.*#\1 \2#') || true
