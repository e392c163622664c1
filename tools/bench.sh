#!/usr/bin/env bash
# Whole-command benchmarks for cctx, next to `wc -l` on the same files,
# measured in the same run.
#
#   tools/bench.sh [SIZE...]        default sizes: 256M 1G 2G
#
# For each size it generates a tree with tools/gencorpus (seed 1, ~200
# sessions per GB) into a temporary directory, warms the page cache, and
# times, RUNS times each (median wall time, largest peak RSS):
#   wc -l over every .jsonl file      (the floor)
#   cctx tokens $TOKENS_ARGS --dir T  (skipped with a message if it fails)
#   cctx ls --dir T
#   cctx ls --long --all --json --dir T
# and, if CCUSAGE names a ccusage binary, `ccusage claude session --json
# --offline` with CLAUDE_CONFIG_DIR=T. With SESSION_SIZE (e.g. 500M) it
# also writes one session of that size (seed 2) and times `cctx tree` and
# `cctx show` on it: seconds to the first byte of output (median), the
# whole run and peak RSS. Then it runs the Go benchmarks.
#
# Environment: RUNS (default 5), TOKENS_ARGS (default "--json"), SEED
# (default 1), BENCH_DIR (where trees go; default a new dir under TMPDIR),
# KEEP=1 (keep the trees), GO_BENCH=0 (skip Go benchmarks), CCUSAGE,
# SESSION_SIZE.
set -euo pipefail

cd "$(dirname "$0")/.."
# The cold pass: the summary cache is measured by tools/cachebench.sh.
export CCTX_NO_CACHE=1
SIZES=("$@")
[ ${#SIZES[@]} -gt 0 ] || SIZES=(256M 1G 2G)
RUNS=${RUNS:-5}
SEED=${SEED:-1}
TOKENS_ARGS=${TOKENS_ARGS:---json}
WORK=${BENCH_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/cctx-bench.XXXXXX")}
mkdir -p "$WORK"
cleanup() { [ "${KEEP:-0}" = 1 ] || rm -rf "$WORK"; }
trap cleanup EXIT

TIME=/usr/bin/time
if ! "$TIME" -f %M true >/dev/null 2>&1; then
	echo "bench.sh: GNU time is needed for peak RSS (apt-get install time)" >&2
	exit 1
fi

echo "== machine"
echo "nproc: $(nproc)"
grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: /cpu: /' || true
free -h | sed -n 1,2p
go version
echo "kernel: $(uname -sr)"
echo "load: $(cut -d' ' -f1-3 /proc/loadavg) (other processes on the cores make wall times noisy; cpu_s is steadier)"
echo "git: $(git rev-parse --short HEAD 2>/dev/null || echo '?')$(git diff --quiet 2>/dev/null || echo ' (dirty)')"
echo

CGO_ENABLED=0 go build -o "$WORK/cctx" . # as make build does
go build -o "$WORK/gencorpus" ./tools/gencorpus

# measure NAME CMD...: measure_run CMD... (tools/measure.sh); NAME labels
# the call.
. tools/measure.sh # the scripts run from the repository root
measure() {
	shift
	measure_run "$@"
}

row() { printf '%-6s %-34s %8s %6s %7s %11s\n' "$@"; }

for size in "${SIZES[@]}"; do
	T="$WORK/tree-$size"
	rm -rf "$T"
	"$WORK/gencorpus" -size "$size" -dir "$T" -seed "$SEED"
	P="$T/projects"
	nfiles=$(find "$P" -type f | wc -l)
	njsonl=$(find "$P" -name '*.jsonl' | wc -l)
	mb=$(du -sm --apparent-size "$P" | cut -f1)
	nsess=$(find "$P" -mindepth 2 -maxdepth 2 -name '*.jsonl' ! -name 'agent-*' | wc -l)
	find "$P" -type f -print0 | xargs -0 cat >/dev/null # page cache
	echo "== $size: $nsess sessions, $nfiles files ($njsonl .jsonl), $mb MiB"
	row size command wall_s x_wc cpu_s peakRSS_MiB

	measure wc sh -c "find '$P' -name '*.jsonl' -print0 | xargs -0 wc -l"
	wc_s=$RESULT_S
	row "$size" "wc -l (find | xargs)" "$wc_s" "1.00" "$RESULT_CPU" "$RESULT_RSS"

	run() { # label cmd...
		local label=$1
		shift
		if measure "$label" "$@"; then
			row "$size" "$label" "$RESULT_S" "$(awk -v a="$RESULT_S" -v b="$wc_s" 'BEGIN{printf "%.2f", a/b}')" "$RESULT_CPU" "$RESULT_RSS"
		else
			echo "$size  $label: skipped: it failed: $(head -c 300 "$WORK/stderr" | head -n1)"
		fi
	}
	# shellcheck disable=SC2086 # TOKENS_ARGS is a word list on purpose
	run "cctx tokens $TOKENS_ARGS" "$WORK/cctx" tokens $TOKENS_ARGS --dir "$T"
	run "cctx ls" "$WORK/cctx" ls --dir "$T"
	run "cctx ls --long --all --json" "$WORK/cctx" ls --long --all --json --dir "$T"
	if [ -n "${CCUSAGE:-}" ]; then
		run "ccusage claude session --json" env CLAUDE_CONFIG_DIR="$T" "$CCUSAGE" claude session --json --offline
	fi

	# Check what cctx counts against the generator's totals.
	if command -v jq >/dev/null; then
		want=$(jq '.total.total_tokens' "$T/totals.json")
		got=$("$WORK/cctx" ls --long --all --json --dir "$T" 2>/dev/null | jq '[.sessions[].total_tokens] | add' 2>/dev/null || echo '?')
		echo "check: ls --long total_tokens $got, totals.json $want: $([ "$got" = "$want" ] && echo match || echo MISMATCH)"
		got=$("$WORK/cctx" tokens $TOKENS_ARGS --dir "$T" 2>/dev/null | jq '.total.total_tokens' 2>/dev/null || true)
		if [ -n "$got" ] && [ "$got" != null ]; then
			echo "check: tokens total_tokens $got, totals.json $want: $([ "$got" = "$want" ] && echo match || echo MISMATCH)"
		fi
	fi
	echo
	[ "${KEEP:-0}" = 1 ] || rm -rf "$T"
done

# first_byte CMD...: microseconds until the first byte of CMD's stdout.
first_byte() {
	local t0
	t0=$(date +%s%N)
	"$@" 2>/dev/null | {
		head -c1 >/dev/null
		echo $((($(date +%s%N) - t0) / 1000))
		cat >/dev/null
	}
}

if [ -n "${SESSION_SIZE:-}" ]; then
	T="$WORK/session-$SESSION_SIZE"
	rm -rf "$T"
	"$WORK/gencorpus" -size "$SESSION_SIZE" -sessions 1 -dir "$T" -seed 2
	P="$T/projects"
	S=$(find "$P" -mindepth 2 -maxdepth 2 -name '*.jsonl' ! -name 'agent-*')
	lines=$(find "$P" -name '*.jsonl' -print0 | xargs -0 cat | wc -l)
	find "$P" -type f -print0 | xargs -0 cat >/dev/null # page cache
	echo "== one session of $SESSION_SIZE: $(du -sm --apparent-size "$S" | cut -f1) MiB main file, $(find "$P" -name '*.jsonl' | wc -l) .jsonl files, $lines lines"
	printf '%-6s %-34s %8s %8s %6s %7s %11s\n' size command first_s wall_s x_wc cpu_s peakRSS_MiB
	measure wc sh -c "find '$P' -name '*.jsonl' -print0 | xargs -0 wc -l"
	wc_s=$RESULT_S
	printf '%-6s %-34s %8s %8s %6s %7s %11s\n' "$SESSION_SIZE" "wc -l (find | xargs)" "" "$wc_s" "1.00" "$RESULT_CPU" "$RESULT_RSS"
	for c in tree show; do
		firsts=()
		for ((i = 0; i < RUNS; i++)); do
			firsts+=("$(first_byte "$WORK/cctx" "$c" --dir "$T" "$S")")
		done
		first=$(printf '%s\n' "${firsts[@]}" | sort -n | sed -n "$(((RUNS + 1) / 2))p")
		measure "$c" "$WORK/cctx" "$c" --dir "$T" "$S"
		printf '%-6s %-34s %8s %8s %6s %7s %11s\n' "$SESSION_SIZE" "cctx $c" "$(awk -v u="$first" 'BEGIN{printf "%.3f", u/1e6}')" "$RESULT_S" \
			"$(awk -v a="$RESULT_S" -v b="$wc_s" 'BEGIN{printf "%.2f", a/b}')" "$RESULT_CPU" "$RESULT_RSS"
	done
	echo
	[ "${KEEP:-0}" = 1 ] || rm -rf "$T"
fi

if [ "${GO_BENCH:-1}" != 0 ]; then
	echo "== go test -bench"
	go test -run '^$' -bench . -benchmem ./internal/reader ./internal/tokens ./internal/session |
		grep -E '^(Benchmark|ok|FAIL)'
fi
