#!/usr/bin/env bash
# Paired runs of `ls --all` by two builds on the same trees, in turns, so
# that both see the same machine (a before/after of a change on a shared
# machine): cold (--no-cache) and warm (the cache filled by a first run),
# each build with its own cache directory. Median wall time and median CPU
# time (perf's elapsed time and task-clock when perf runs, else GNU time's,
# CPU to 10 ms) of RUNS (default 11) runs, and the load average before and
# after.
# Outputs are compared (exact): each build's last warm and cold stdout,
# and the two builds' cold ones.
#
#   tools/lspair.sh BEFORE AFTER TREE...   (binaries; a TREE holds projects/)
#
# e.g. git worktree add /tmp/main main && go -C /tmp/main build -o /tmp/before .
#      go build -o /tmp/after . && tools/lspair.sh /tmp/before /tmp/after TREE
set -euo pipefail
[ $# -ge 3 ] || { echo "usage: tools/lspair.sh BEFORE AFTER TREE..." >&2; exit 2; }
A=$(realpath "$1") B=$(realpath "$2")
shift 2
RUNS=${RUNS:-11}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/cctx-lspair.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
unset CCTX_NO_CACHE
# run CMD...: one run; prints its wall and CPU milliseconds (perf's own
# figures, without perf's start; GNU time's otherwise).
if perf stat -e task-clock -o "$WORK/p" true 2>/dev/null; then
	run() {
		perf stat -e task-clock -o "$WORK/p" "$@" >"$WORK/out" 2>/dev/null
		awk '/task-clock/ {c = $1} /seconds time elapsed/ {w = $1 * 1000} END {gsub(",", "", c); printf "%d %d\n", w, c}' "$WORK/p"
	}
else
	run() {
		/usr/bin/time -f '%e %U %S' -o "$WORK/p" "$@" >"$WORK/out" 2>/dev/null
		awk '{printf "%d %d\n", $1 * 1000, ($2 + $3) * 1000}' "$WORK/p"
	}
fi
load() { cut -d' ' -f1-3 /proc/loadavg; }
median() { tr ' ' '\n' | grep . | sort -n | sed -n "$(((RUNS + 1) / 2))p"; }
echo "== $(nproc) cores, RUNS=$RUNS, before $A, after $B"
for tree in "$@"; do
	[ -d "$tree/projects" ] || { echo "lspair.sh: $tree/projects is not a projects dir" >&2; exit 1; }
	find "$tree/projects" -type f -print0 | xargs -0 cat >/dev/null # page cache
	echo
	echo "== $tree: $(find "$tree/projects" -mindepth 2 -maxdepth 2 -name '*.jsonl' ! -name 'agent-*' | wc -l) sessions"
	printf '%-8s %-6s %8s %7s   %s\n' build run wall_ms cpu_ms load
	for mode in cold warm; do
		extra=()
		[ $mode = cold ] && extra=(--no-cache)
		declare -A W=() C=()
		for bin in A B; do
			export CCTX_CACHE_DIR=$WORK/cache-$bin-$(basename "$tree")
			rm -rf "$CCTX_CACHE_DIR"
			"${!bin}" ls --all --dir "$tree" "${extra[@]}" >/dev/null 2>&1 # fills the cache when warm
		done
		l0=$(load)
		for ((i = 0; i < RUNS; i++)); do
			for bin in A B; do
				export CCTX_CACHE_DIR=$WORK/cache-$bin-$(basename "$tree")
				read -r w c < <(run "${!bin}" ls --all --dir "$tree" "${extra[@]}")
				W[$bin]+=" $w" C[$bin]+=" $c"
				cp "$WORK/out" "$WORK/$bin.$mode"
			done
		done
		for bin in A B; do
			name=before
			[ $bin = B ] && name=after
			printf '%-8s %-6s %8s %7s   %s -> %s\n' $name $mode "$(echo "${W[$bin]}" | median)" "$(echo "${C[$bin]}" | median)" "$l0" "$(load)"
		done
		unset W C
	done
	for bin in A B; do
		cmp -s "$WORK/$bin.cold" "$WORK/$bin.warm" || echo "$bin: warm and cold outputs DIFFER"
	done
	if cmp -s "$WORK/A.cold" "$WORK/B.cold"; then echo "before vs after: exact"; else echo "before vs after: DIFFER"; fi
done
