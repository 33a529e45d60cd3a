# Every target sets its own toolchain: GoMLX v0.28.16 needs Go 1.27, which the
# go command fetches through the module proxy; simd lets the pure-Go
# backend's matmuls use AVX2/AVX-512 (about 15x faster).
export GOTOOLCHAIN := go1.27.3
export GOEXPERIMENT := simd
# test's recipe reads PIPESTATUS.
SHELL := bash

.PHONY: demo test bench scaling build install test-python test-engines bench-python test-xla

# A first build (toolchain download, GoMLX) compiles for minutes and prints
# nothing of its own: the compile steps of demo and test run under
# scripts/heartbeat.sh, which says every 30 s (CREDO_HEARTBEAT) that it is
# still at work.
HEARTBEAT = scripts/heartbeat.sh

# credo's main job on its built-in defaults: see README.md.
demo:
	@echo "make demo: compiling credo into bin/credo (a first build takes about 3 minutes on 2 idle cores and says every 30 s that it is still at work; later ones seconds) ..."
	$(HEARTBEAT) "make demo: still compiling" go build -buildvcs=auto -o bin/credo ./cmd/credo
	@echo "make demo: running bin/credo demo (warm-up, calibration, then 4 methods × 1 seed) ..."
	bin/credo demo

# gofmt, go mod tidy (must change nothing), vet and the whole test suite
# (what .ci/run runs; a crash's first lines are repeated at the end, since
# its goroutine dump pushes them out of a log's tail), then the tests of
# the packages credo patches in third_party/compute (third_party/README.md),
# and its matmul tests again with the AVX-512 kernels off, so an AVX-512
# machine also tests the AVX2 ones: -count=1, because the kernels are picked
# from that variable at package init, which the test cache does not record
# (a cached result would be the AVX-512 run's).
test:
	@unformatted=$$("$$(go env GOROOT)/bin/gofmt" -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	  if [ -n "$$unformatted" ]; then echo "gofmt would change: $$unformatted"; exit 1; fi
	go mod tidy -diff
	$(HEARTBEAT) "make test: still compiling" go vet ./...
	@echo "go test -timeout 30m ./..."; log=$$(mktemp); go test -timeout 30m ./... 2>&1 | tee "$$log"; rc=$${PIPESTATUS[0]}; \
	  if [ "$$rc" -ne 0 ] && grep -qE '^(panic: |fatal error: )' "$$log"; then \
	    echo "--- the start of each crash above (a log cut to its tail still shows it):"; \
	    grep -E -A12 '^(panic: |fatal error: |unexpected fault address)' "$$log" | head -40; \
	  fi; rm -f "$$log"; exit $$rc
	cd third_party/compute && go test ./internal/gobackend/ ./internal/gobackend/workerspool/ ./internal/gobackend/ops/ ./internal/gobackend/dot/... ./internal/gobackend/passes/ \
	  ./internal/gobackend/activations/... ./internal/gobackend/fusedops/... ./internal/simdpart/...
	cd third_party/compute && GOMLX_GO_SIMD_AVX512=false go test -count=1 ./internal/gobackend/dot/...
	$(MAKE) --no-print-directory test-python

# The XLA backend (issue 50): the default build must need no cgo; then,
# built with -tags xla (cgo) on XLA's CPU PJRT plugin (the pinned wheel,
# scripts/xla-plugin.sh, cached under ~/.cache/credo), the model's reference
# tests (log-probs, every weight gradient and AdamW steps against the
# PyTorch and transformers fixtures), the sampler's (KV cache equals a
# re-run), the graph count and compile time, and a short sft + train whose
# losses must equal the Go backend's (scripts/xla-compare.sh, tolerances
# there). Needs gcc; first run: a 62 MB download and a few minutes.
XLA_TESTS = Backend|XLA|Reference|Transformers|DecodeMatchesFullForward|GreedyMatchesNoCache|LogProbsMatchForward
test-xla:
	CGO_ENABLED=0 go build ./...
	so=$$(scripts/xla-plugin.sh) && \
	  CGO_ENABLED=1 CREDO_BACKEND=xla:$$so GOMLX_NO_AUTO_INSTALL=1 go test -tags xla -count=1 -timeout 40m -v -run '$(XLA_TESTS)' ./model/ ./optim/ ./sample/ && \
	  CGO_ENABLED=1 go build -tags xla -buildvcs=auto -o bin/credo-xla ./cmd/credo && \
	  bin/credo-xla --version && \
	  scripts/xla-compare.sh bin/credo-xla "$$so" 8

# The Python client's tests (clients/python) against the real `credo serve`,
# built here into bin/credo (CREDO_BIN=path uses that binary instead), in
# the pinned environment scripts/python/venv.sh client makes (torch's CPU
# use of the PyPI wheel: about 5 GB and 2.5 minutes the first time on an idle machine,
# with pip's lines and venv.sh's heartbeat every 30 s).
CREDO_BIN ?=
SERVE_BIN = $(or $(CREDO_BIN),$(CURDIR)/bin/credo)
test-python:
	$(if $(CREDO_BIN),,$(HEARTBEAT) "make test-python: still compiling" go build -buildvcs=auto -o bin/credo ./cmd/credo)
	cd clients/python && CREDO_BIN=$(SERVE_BIN) "$$(../../scripts/python/venv.sh client)/bin/python" -m pytest -q -p no:cacheprovider --ignore=tests/engines tests

# The engines themselves, each in its own pinned environment layered over
# the client's (scripts/python/requirements-ENGINE.txt): TRL's GRPOTrainer,
# verl's estimator registry and reward-manager path, OpenRLHF's HTTP reward
# client and SkyRL's estimator registry, on a CPU. First run: downloads of
# about 1.5 GB and 10-15 minutes (clients/python/README.md), then cached.
ENGINES ?= trl verl openrlhf skyrl
test-engines:
	$(if $(CREDO_BIN),,go build -buildvcs=auto -o bin/credo ./cmd/credo)
	@for e in $(ENGINES); do \
	  echo "== engine $$e"; py="$$(scripts/python/venv.sh $$e)/bin/python" || exit 1; \
	  "$$py" -m pip install -q --disable-pip-version-check --no-deps --force-reinstall ./clients/python || exit 1; \
	  (cd clients/python && CREDO_BIN=$(SERVE_BIN) "$$py" -m pytest -q -p no:cacheprovider tests/engines/test_$$e.py) || exit 1; \
	done

# The Python client's speed against the server (clients/python/README.md).
bench-python:
	$(if $(CREDO_BIN),,go build -buildvcs=auto -o bin/credo ./cmd/credo)
	"$$(scripts/python/venv.sh client)/bin/python" clients/python/bench/bench_client.py --serve $(SERVE_BIN)

# The fixtures from Hugging Face's own libraries, in the pinned client
# environment: transformers' Llama, Qwen2 and Qwen3 logits and gradients
# (model/testdata/transformers) and tokenizers' Qwen3 ids of the shared
# benchmark text (tokenizer/testdata/tokenizers_qwen3.json; needs
# ../shared/data). Tests read the committed output and never need PyPI, so
# test does not depend on this. (scripts/reference.py, credo's own PyTorch
# decoder, runs with Debian's python3-torch instead: see its docstring.)
.PHONY: fixtures
fixtures:
	py="$$(scripts/python/venv.sh client)/bin/python" && \
	  "$$py" scripts/transformers_reference.py model/testdata/transformers && \
	  "$$py" scripts/tokenizers_reference.py ../shared/data tokenizer/testdata/tokenizers_qwen3.json

# Speed: credo's training step beside PyTorch's, and sampling.
bench:
	scripts/bench.sh
	go test ./sample -run XXX -bench Generate -benchtime 1x

# Speed and peak memory against model size, sequence length and group
# size, beside PyTorch: docs/results/scaling.md and docs/scaling.svg.
scaling:
	scripts/scaling.sh

build:
	go build -buildvcs=auto -o bin/credo ./cmd/credo

# credo on PATH: go install puts the binary in GOBIN, else GOPATH's bin
# (go env says which); the target prints where, and how to reach it when
# that folder is not on PATH (README's commands say credo, not bin/credo).
install:
	@dir="$$(go env GOBIN)"; [ -n "$$dir" ] || dir="$$(go env GOPATH)/bin"; \
	  echo "make install: compiling credo into $$dir/credo (a first build takes about 3 minutes, later ones seconds) ..."; \
	  GOBIN="$$dir" go install -buildvcs=auto ./cmd/credo || exit 1; \
	  echo "make install: installed $$dir/credo"; \
	  case ":$$PATH:" in *":$$dir:"*) ;; \
	    *) echo "make install: $$dir is not on PATH: add it (export PATH=\"$$dir:\$$PATH\") or run $$dir/credo";; esac
