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

.PHONY: all build demo test testdeps chromium fuzz corpus bench bench-cache install lint clean

all: build

# Built without cgo: only net's resolver would use it (pflag imports net),
# and linked dynamically cctx starts 1.1 ms slower (ld.so, libc, threads
# made by pthread), on every run: a sixtieth of a warm tokens.
STATIC := CGO_ENABLED=0

build:
	$(STATIC) $(GO) build -ldflags "$(LDFLAGS)" -o $(BIN) .

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
	@echo '$$ cctx show --dir $(SAMPLES) b3edadab --tail 2 --no-pager'
	@./$(BIN) show --dir $(SAMPLES) b3edadab --tail 2 --no-pager
	@echo
	@echo '$$ cctx tree --dir $(SAMPLES) b3edadab'
	@./$(BIN) tree --dir $(SAMPLES) b3edadab
	@echo
	@echo '$$ cctx agents --dir $(SAMPLES) ef958aa1'
	@./$(BIN) agents --dir $(SAMPLES) ef958aa1

# Each fuzz target runs for a number of executions (about 10 s here), not
# a duration: with -fuzztime=10s Go's fuzzing coordinator can fail a run
# that found nothing, with a bare "context deadline exceeded", when the
# deadline fires while a worker is busy (a race in the coordinator, seen in
# CI under load). A count has no deadline to race; a slower machine only
# takes longer.
test: lint testdeps chromium
	@[ -n "$(RACE)" ] || echo "note: no C compiler for cgo: running the tests without -race"
	$(GO) test $(RACE) -count=1 ./...
	$(GO) test -run='^$$' -fuzz='^FuzzReader$$' -fuzztime=60000x -fuzzminimizetime=6000x ./internal/reader
	$(GO) test -run='^$$' -fuzz='^FuzzUsage$$' -fuzztime=70000x -fuzzminimizetime=7000x ./internal/reader
	$(GO) test -run='^$$' -fuzz='^FuzzRedact$$' -fuzztime=100000x -fuzzminimizetime=10000x ./internal/redact
	$(GO) test -run='^$$' -fuzz='^FuzzGuard$$' -fuzztime=100000x -fuzzminimizetime=10000x ./internal/render
	$(GO) test -run='^$$' -fuzz='^FuzzCommands$$' -fuzztime=200x -fuzzminimizetime=20x ./cmd
	$(GO) test -run='^$$' -fuzz='^FuzzCache$$' -fuzztime=1000x -fuzzminimizetime=100x ./internal/tokens
	$(GO) test -run='^$$' -fuzz='^FuzzCacheIndex$$' -fuzztime=1000x -fuzzminimizetime=100x ./internal/tokens

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

# A longer fuzzing run of every fuzz target in the tree, found in the
# sources (their seed corpora run in plain go test already). A new input is
# minimised for at most FUZZMINTIME: with go's default (60 s) most of a run
# went to minimising, not fuzzing. A duration here can end in the
# coordinator's "context deadline exceeded" race (see test): a failure
# that wrote no "Failing input" under testdata/fuzz found nothing.
FUZZTIME    ?= 60s
FUZZMINTIME ?= 5s
fuzz:
	@set -e; for f in $$(grep -rl --include='*_test.go' '^func Fuzz' . | sort); do \
		dir=$$(dirname $$f); \
		for t in $$(sed -n 's/^func \(Fuzz[A-Za-z0-9_]*\)(.*/\1/p' $$f); do \
			echo "$(GO) test -run='^$$' -fuzz='^$$t\$$' -fuzztime=$(FUZZTIME) -fuzzminimizetime=$(FUZZMINTIME) $$dir"; \
			$(GO) test -run='^$$' -fuzz="^$$t\$$" -fuzztime=$(FUZZTIME) -fuzzminimizetime=$(FUZZMINTIME) $$dir; \
		done; \
	done

# A generated projects tree with its true totals: make corpus SIZE=1G DIR=/tmp/c
SIZE ?= 1G
DIR  ?= /tmp/cctx-corpus
SEED ?= 1
corpus:
	$(GO) run ./tools/gencorpus -size $(SIZE) -dir $(DIR) -seed $(SEED)

# Go benchmarks, then whole commands against wc -l on generated trees
# (SIZES="256M 1G 2G" by default; see BENCHMARKS.md), then the memory of
# the commands on a 1M-entry chain and a 300 MiB line (issue 23.3).
bench:
	$(GO) test -run='^$$' -bench=. -benchmem ./internal/reader ./internal/tokens ./internal/session ./internal/cache ./internal/render ./internal/termsafe
	tools/bench.sh $(SIZES)
	tools/membench.sh
	$(MAKE) bench-cache

# The summary cache (docs/cache.md) on three trees kept in CACHE_TREES: the
# generator's shape (1 GB), another one (1 GB in 5,000 sessions), and a
# real-shaped one (tools/realtree.sh) when the shared corpus is beside the
# repository. CCUSAGE=path adds ccusage, paired with the cold pass.
CACHE_TREES ?= /tmp/cctx-cache-trees
bench-cache:
	mkdir -p $(CACHE_TREES)
	[ -d $(CACHE_TREES)/gen ] || $(GO) run ./tools/gencorpus -size 1G -dir $(CACHE_TREES)/gen -seed 1
	[ -d $(CACHE_TREES)/gen5k ] || $(GO) run ./tools/gencorpus -size 1G -sessions 5000 -dir $(CACHE_TREES)/gen5k -seed 3
	[ -d $(CACHE_TREES)/real ] || tools/realtree.sh $(CACHE_TREES)/real || echo "no real-shaped tree: the shared corpus is not beside the repository (CORPUS=…)"
	tools/cachebench.sh $(CACHE_TREES)/gen $(CACHE_TREES)/gen5k $$([ -d $(CACHE_TREES)/real/projects ] && echo $(CACHE_TREES)/real)

install:
	$(STATIC) $(GO) install -ldflags "$(LDFLAGS)" .

# What the tests need beyond Go: ripgrep, which a cctx grep test compares
# with, and bash-completion, which the bash completion test sources.
# Installed with apt-get when missing and run as root; said loudly when
# they cannot be (the tests then fail, they do not skip).
testdeps:
	@command -v rg >/dev/null || { [ "$$(id -u)" = 0 ] && { apt-get install -y ripgrep >/dev/null 2>&1 || { apt-get update >/dev/null 2>&1 && apt-get install -y ripgrep >/dev/null 2>&1; }; }; } || echo "!!! ripgrep (rg) is missing and could not be installed (run apt-get install -y ripgrep as root): the cctx grep tests that compare with rg will FAIL !!!"
	@[ -f /usr/share/bash-completion/bash_completion ] || { [ "$$(id -u)" = 0 ] && { apt-get install -y bash-completion >/dev/null 2>&1 || { apt-get update >/dev/null 2>&1 && apt-get install -y bash-completion >/dev/null 2>&1; }; }; } || echo "!!! bash-completion is missing and could not be installed (run apt-get install -y bash-completion as root): the bash completion test of cctx will FAIL !!!"

# gofmt, vet, the layer rules (docs/architecture.md) and the builds for
# Windows, macOS and Linux.
lint:
	tools/lint.sh

clean:
	rm -rf bin
