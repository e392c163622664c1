#!/usr/bin/env bash
# Benchmarks of the summary cache (docs/cache.md): for each tree, in one
# run, the cold pass, the repeat, a repeat after appending to one session,
# ls cold and warm, and, with CCUSAGE, ccusage run in turns with the cold
# pass (paired).
#
#   tools/cachebench.sh TREE...     (a TREE is a dir holding projects/)
#
# Trees: `make corpus SIZE=1G DIR=…` (the generator's shape),
# `gencorpus -size 1G -sessions 5000` (another shape, 5,000 sessions),
# tools/realtree.sh (a real-shaped one). RUNS (default 5) runs each,
# median wall time, median CPU (user+sys: steadier than wall time on a
# shared machine), largest peak RSS. APPEND_KB (default 1024) bytes of
# whole lines of another session are appended to the largest session
# before each timed run after an append, then cut off again at the end.
# Every cached output is compared with the --no-cache one (exact). BIN=path
# measures that build instead of building this checkout.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -gt 0 ] || { echo "usage: tools/cachebench.sh TREE..." >&2; exit 2; }
RUNS=${RUNS:-5}
APPEND_KB=${APPEND_KB:-1024}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/cctx-cachebench.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
TIME=/usr/bin/time
"$TIME" -f %M true >/dev/null 2>&1 || { echo "cachebench.sh: GNU time is needed (apt-get install time)" >&2; exit 1; }
if [ -n "${BIN:-}" ]; then
	CCTX=$(realpath "$BIN") # another build, to measure it against this one
else
	CGO_ENABLED=0 go build -o "$WORK/cctx" . # as make build does
	CCTX=$WORK/cctx
fi
unset CCTX_NO_CACHE

load() { cut -d' ' -f1-3 /proc/loadavg; }
echo "== $(nproc) cores, $(go version | cut -d' ' -f3), ${BIN:+BIN=$BIN, not }git $(git rev-parse --short HEAD)$(git diff --quiet || echo ' (dirty)'), load $(load)"

# timeit CMD...: one run; sets T_S (wall), T_CPU, T_RSS (MiB).
timeit() {
	local t0 t1 m u s
	t0=$(date +%s%N)
	"$TIME" -f '%M %U %S' -o "$WORK/rss" "$@" >"$WORK/out" 2>"$WORK/err" || { echo "failed: $* : $(head -c 300 "$WORK/err")" >&2; return 1; }
	t1=$(date +%s%N)
	read -r m u s <"$WORK/rss"
	T_S=$(awk -v n=$((t1 - t0)) 'BEGIN{printf "%.3f", n/1e9}')
	T_CPU=$(awk -v u="$u" -v s="$s" 'BEGIN{printf "%.2f", u+s}')
	T_RSS=$(awk -v k="$m" 'BEGIN{printf "%.1f", k/1024}')
}
median() { sort -n | sed -n "$(((RUNS + 1) / 2))p"; }
# measure LABEL CMD...: RUNS runs, one row.
measure() {
	local label=$1 ws=() cs=() rss=0
	shift
	for ((i = 0; i < RUNS; i++)); do
		timeit "$@"
		ws+=("$T_S") cs+=("$T_CPU")
		rss=$(awk -v a="$rss" -v b="$T_RSS" 'BEGIN{print (b > a ? b : a)}')
	done
	M_S=$(printf '%s\n' "${ws[@]}" | median)
	M_CPU=$(printf '%s\n' "${cs[@]}" | median)
	row "$label" "$M_S" "$M_CPU" "$rss" "$(load)"
}
row() { printf '%-44s %8s %7s %8s   %s\n' "$@"; }
same() { # A B: exact?
	if cmp -s "$1" "$2"; then echo exact; else echo "DIFFERS"; fi
}

for tree in "$@"; do
	P=$tree/projects
	[ -d "$P" ] || { echo "cachebench.sh: $P is not a projects dir" >&2; exit 1; }
	nsess=$(find "$P" -mindepth 2 -maxdepth 2 -name '*.jsonl' ! -name 'agent-*' | wc -l)
	nfiles=$(find "$P" -name '*.jsonl' | wc -l)
	mb=$(du -sm --apparent-size "$P" | cut -f1)
	find "$P" -type f -print0 | xargs -0 cat >/dev/null # page cache
	echo
	echo "== $tree: $nsess sessions, $nfiles .jsonl files, $mb MiB"
	row command wall_s cpu_s rss_MiB load
	export CCTX_CACHE_DIR=$WORK/cache-$(basename "$tree")
	rm -rf "$CCTX_CACHE_DIR"

	measure "wc -l" sh -c "find '$P' -name '*.jsonl' -print0 | xargs -0 wc -l"
	measure "tokens --json --no-cache (cold)" "$CCTX" tokens --json --no-cache --dir "$tree"
	cp "$WORK/out" "$WORK/cold.json"
	timeit "$CCTX" tokens --json --dir "$tree"
	row "tokens --json, first run (fills the cache)" "$T_S" "$T_CPU" "$T_RSS" "$(load)"
	echo "cache: $(du -sk --apparent-size "$CCTX_CACHE_DIR" | cut -f1) KiB for $mb MiB of transcripts"
	measure "tokens --json, nothing changed (warm)" "$CCTX" tokens --json --dir "$tree"
	echo "warm vs cold: $(same "$WORK/out" "$WORK/cold.json")"
	for by in day model response; do
		"$CCTX" tokens --json --by $by --dir "$tree" >"$WORK/a" 2>/dev/null
		"$CCTX" tokens --json --by $by --no-cache --dir "$tree" >"$WORK/b" 2>/dev/null
		# --by day says how far into the current day it is, and projects
		# it: that part moves with the clock, not compared.
		if [ $by = day ]; then sed -i 's/,"current":.*$//' "$WORK/a" "$WORK/b"; fi
		echo "warm vs cold, --by $by: $(same "$WORK/a" "$WORK/b")"
	done

	# Appends: lines of another session, to the largest one.
	big=$(find "$P" -mindepth 2 -maxdepth 2 -name '*.jsonl' ! -name 'agent-*' -printf '%s %p\n' | sort -n | tail -1 | cut -d' ' -f2-)
	donor=$(find "$P" -mindepth 2 -maxdepth 2 -name '*.jsonl' ! -name 'agent-*' -printf '%s %p\n' | sort -n | tail -2 | head -1 | cut -d' ' -f2-)
	head -c $((APPEND_KB * 1024)) "$donor" | sed '$d' >"$WORK/chunk"
	orig=$(stat -c %s "$big")
	ws=() cs=() exact=exact
	for ((i = 0; i < RUNS; i++)); do
		# New responses (ids of their own), as a session that goes on
		# writes: not replays of the donor's, which would be counted in
		# two project folders and make the report count again with one
		# table (a rare case, as slow with or without the cache).
		sed "s/\"msg_/\"msg_a${i}x/g; s/\"req_/\"req_a${i}x/g" "$WORK/chunk" >>"$big"
		timeit "$CCTX" tokens --json --dir "$tree"
		ws+=("$T_S") cs+=("$T_CPU")
		cp "$WORK/out" "$WORK/warm.json"
		"$CCTX" tokens --json --no-cache --dir "$tree" >"$WORK/cold.json" 2>/dev/null
		[ "$(same "$WORK/warm.json" "$WORK/cold.json")" = exact ] || exact=DIFFERS
	done
	truncate -s "$orig" "$big"
	row "tokens --json after +$(($(stat -c %s "$WORK/chunk") / 1024)) KiB to one session" "$(printf '%s\n' "${ws[@]}" | median)" "$(printf '%s\n' "${cs[@]}" | median)" "$T_RSS" "$(load)"
	echo "after each append vs --no-cache: $exact"
	"$CCTX" tokens --json --dir "$tree" >/dev/null 2>&1 # back to the tree as it was

	measure "ls --no-cache (cold)" "$CCTX" ls --all --no-cache --dir "$tree"
	cp "$WORK/out" "$WORK/lscold"
	"$CCTX" ls --all --dir "$tree" >/dev/null 2>&1
	measure "ls (warm)" "$CCTX" ls --all --dir "$tree"
	echo "ls warm vs cold: $(same "$WORK/out" "$WORK/lscold")"

	if [ -n "${CCUSAGE:-}" ]; then
		# In turns, so that both see the same machine.
		cw=() uw=() cc=() uc=()
		for ((i = 0; i < RUNS; i++)); do
			timeit "$CCTX" tokens --json --no-cache --dir "$tree"
			cw+=("$T_S") cc+=("$T_CPU")
			timeit env CLAUDE_CONFIG_DIR="$tree" "$CCUSAGE" claude session --json --offline
			uw+=("$T_S") uc+=("$T_CPU") urss=$T_RSS
		done
		c=$(printf '%s\n' "${cw[@]}" | median) u=$(printf '%s\n' "${uw[@]}" | median)
		row "paired: tokens --json --no-cache" "$c" "$(printf '%s\n' "${cc[@]}" | median)" "" "$(load)"
		row "paired: ccusage claude session --json" "$u" "$(printf '%s\n' "${uc[@]}" | median)" "$urss" "$(load)"
		echo "ccusage / cctx cold wall time: $(awk -v a="$u" -v b="$c" 'BEGIN{printf "%.2f", a/b}')x"
	fi
done
