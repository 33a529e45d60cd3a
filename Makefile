# Every target sets its own toolchain: GoMLX v0.28.16 needs Go 1.27, which the
# go command fetches through the module proxy; simd makes the pure-Go
# backend's matmuls about 15x faster.
export GOTOOLCHAIN := go1.27.3
export GOEXPERIMENT := simd

.PHONY: demo test bench build

demo:
	go run ./cmd/credo demo

test:
	gofmt -l . | tee /dev/stderr | (! read)
	go vet ./...
	go test -timeout 40m ./...

build:
	go build -o bin/credo ./cmd/credo
