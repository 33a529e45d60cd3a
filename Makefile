# Every target sets its own toolchain: GoMLX v0.28.16 needs Go 1.27, which the
# go command fetches through the module proxy; simd lets the pure-Go
# backend's matmuls use AVX2/AVX-512 (about 15x faster).
export GOTOOLCHAIN := go1.27.3
export GOEXPERIMENT := simd

.PHONY: demo test bench scaling build

# credo's main job on its built-in defaults: see README.md.
demo:
	go run ./cmd/credo demo

# gofmt, go mod tidy (must change nothing), vet and the whole test suite
# (what .ci/run runs), then the tests of the packages credo patches in
# third_party/compute (third_party/README.md), and its matmul tests again
# with the AVX-512 kernels off, so an AVX-512 machine also tests the AVX2
# ones (the go test cache keys on that variable).
test:
	@unformatted=$$("$$(go env GOROOT)/bin/gofmt" -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	  if [ -n "$$unformatted" ]; then echo "gofmt would change: $$unformatted"; exit 1; fi
	go mod tidy -diff
	go vet ./...
	go test -timeout 30m ./...
	cd third_party/compute && go test ./internal/gobackend/ ./internal/gobackend/workerspool/ ./internal/gobackend/ops/ ./internal/gobackend/dot/... ./internal/gobackend/passes/
	cd third_party/compute && GOMLX_GO_SIMD_AVX512=false go test ./internal/gobackend/dot/...

# Speed: credo's training step beside PyTorch's, and sampling.
bench:
	scripts/bench.sh
	go test ./sample -run XXX -bench Generate -benchtime 1x

# Speed and peak memory against model size, sequence length and group
# size, beside PyTorch: docs/results/scaling.md and docs/scaling.svg.
scaling:
	scripts/scaling.sh

build:
	go build -o bin/credo ./cmd/credo
