# cctx — build, demo and test. Needs only Go; everything else is fetched
# through the Go module proxy.

GO      ?= go
BIN     := bin/cctx
PKG     := github.com/cctx-dev/cctx
VERSION := $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -X $(PKG)/cmd.Version=$(VERSION)
SAMPLES := testdata/projects

# The race detector needs cgo and a C compiler; without one the tests still
# run, without -race, and say so.
RACE := $(shell [ "$$($(GO) env CGO_ENABLED)" = 1 ] && command -v "$$($(GO) env CC)" >/dev/null 2>&1 && echo -race)

.PHONY: all build demo test chromium fuzz corpus bench install lint clean

all: build

build:
	$(GO) build -ldflags "$(LDFLAGS)" -o $(BIN) .

# Runs cctx on the sample sessions bundled in testdata/projects.
demo: build
	@echo '$$ cctx ls --dir $(SAMPLES) --all'
	@./$(BIN) ls --dir $(SAMPLES) --all
	@echo
	@echo '$$ cctx ls --dir $(SAMPLES) --long --limit 3'
	@./$(BIN) ls --dir $(SAMPLES) --long --limit 3
	@echo
	@echo '$$ cctx tokens --dir $(SAMPLES) b3edadab'
	@./$(BIN) tokens --dir $(SAMPLES) b3edadab
	@echo
	@echo '$$ cctx tokens --dir $(SAMPLES) --by model'
	@./$(BIN) tokens --dir $(SAMPLES) --by model
	@echo
	@echo '$$ cctx show --dir $(SAMPLES) b3edadab --tail 2'
	@./$(BIN) show --dir $(SAMPLES) b3edadab --tail 2 --no-pager
	@echo
	@echo '$$ cctx tree --dir $(SAMPLES) b3edadab'
	@./$(BIN) tree --dir $(SAMPLES) b3edadab
	@echo
	@echo '$$ cctx agents --dir $(SAMPLES) ef958aa1'
	@./$(BIN) agents --dir $(SAMPLES) ef958aa1

test: chromium
	$(GO) vet ./...
	@[ -n "$(RACE)" ] || echo "note: no C compiler for cgo: running the tests without -race"
	$(GO) test $(RACE) -count=1 ./...
	$(GO) test -run='^$$' -fuzz='^FuzzReader$$' -fuzztime=10s ./internal/reader

# The browser tests of cctx export (e2e) open its pages in headless
# Chromium: installed here with apt-get when missing (as root), else said
# loudly. CCTX_CHROMIUM names another browser; CCTX_NO_BROWSER=1 skips them.
chromium:
	@if [ -n "$$CCTX_NO_BROWSER" ] || [ -n "$$CCTX_CHROMIUM" ] || command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
		echo "installing chromium for the browser tests: apt-get install -y chromium"; \
		{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; } || \
		echo "!!! apt-get could not install chromium: the browser tests of cctx export will FAIL (CCTX_NO_BROWSER=1 skips them)"; \
	else \
		echo "!!! ================================================================="; \
		echo "!!! Chromium is missing and cannot be installed here (needs root and apt-get)."; \
		echo "!!! The browser tests of cctx export (./e2e) will FAIL. Install chromium,"; \
		echo "!!! or set CCTX_CHROMIUM=/path/to/chrome, or CCTX_NO_BROWSER=1 to skip them."; \
		echo "!!! ================================================================="; \
	fi

# A longer fuzzing run of every fuzz target (their seed corpora run in
# plain go test already).
FUZZTIME ?= 60s
fuzz:
	$(GO) test -run='^$$' -fuzz='^FuzzReader$$' -fuzztime=$(FUZZTIME) ./internal/reader
	$(GO) test -run='^$$' -fuzz='^FuzzEnvelope$$' -fuzztime=$(FUZZTIME) ./internal/reader
	$(GO) test -run='^$$' -fuzz='^FuzzTree$$' -fuzztime=$(FUZZTIME) ./internal/tree
	$(GO) test -run='^$$' -fuzz='^FuzzTreeGraph$$' -fuzztime=$(FUZZTIME) ./internal/tree
	$(GO) test -run='^$$' -fuzz='^FuzzSafe$$' -fuzztime=$(FUZZTIME) ./internal/render

# A generated projects tree with its true totals: make corpus SIZE=1G DIR=/tmp/c
SIZE ?= 1G
DIR  ?= /tmp/cctx-corpus
SEED ?= 1
corpus:
	$(GO) run ./tools/gencorpus -size $(SIZE) -dir $(DIR) -seed $(SEED)

# Go benchmarks, then whole commands against wc -l on generated trees
# (SIZES="256M 1G 2G" by default; see BENCHMARKS.md).
bench:
	$(GO) test -run='^$$' -bench=. -benchmem ./internal/reader ./internal/tokens ./internal/session
	tools/bench.sh $(SIZES)

install:
	$(GO) install -ldflags "$(LDFLAGS)" .

lint:
	$(GO) vet ./...
	@test -z "$$(gofmt -l .)" || { gofmt -l .; echo "gofmt needed"; exit 1; }

clean:
	rm -rf bin
