#!/usr/bin/env bash
# cctx grep next to ripgrep (`rg -c`) on the same tree, in the same run.
#
#   tools/bench-grep.sh [DIR]     DIR: a tree made by `make corpus` (default
#                                 /tmp/cctx-corpus, generated when missing:
#                                 SIZE, default 1G, seed 1)
#
# Each case times the two commands RUNS times each, alternately (so that
# the load of other processes falls on both alike), and prints the median
# wall time, the median CPU time (user+sys: steadier than wall time when
# other processes share the cores), the largest peak RSS, and the ratio of
# the wall times. The page cache is warmed first.
#
# Cases, for the generated corpus (override with RARE, EVERY, WORD):
#   rare      a literal on 0.3% of the lines ("Investigate the failing")
#   rare -i   the same, case-insensitive (cctx's smart case; rg -i)
#   absent    a literal on no line ("xylophone"): the prefilter at its best
#   every     a literal on every line, in no text ("sessionId"): every
#             line is decoded and searched
#   word      a word on most lines and in many texts ("the", -i)
# then the output modes of the rare case (tab-separated, --json, a
# terminal-less -l) against rg's matching lines.
#
# Environment: RUNS (default 5), SIZE (default 1G), RG (default rg).
set -euo pipefail

cd "$(dirname "$0")/.."
DIR=${1:-/tmp/cctx-corpus}
RUNS=${RUNS:-5}
RG=${RG:-rg}
RARE=${RARE:-Investigate the failing}
ABSENT=${ABSENT:-xylophone}
EVERY=${EVERY:-sessionId}
WORD=${WORD:-the}

command -v "$RG" >/dev/null || { echo "bench-grep.sh: ripgrep ($RG) is needed: apt-get install -y ripgrep" >&2; exit 1; }
TIME=/usr/bin/time
"$TIME" -f %M true >/dev/null 2>&1 || { echo "bench-grep.sh: GNU time is needed (apt-get install time)" >&2; exit 1; }
if [ ! -d "$DIR/projects" ]; then
	make corpus SIZE="${SIZE:-1G}" DIR="$DIR"
fi
WORK=$(mktemp -d "${TMPDIR:-/tmp}/cctx-bench-grep.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
CGO_ENABLED=0 go build -o "$WORK/cctx" . # as make build does
P="$DIR/projects"

echo "== machine"
echo "nproc: $(nproc)"
grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: /cpu: /' || true
go version
"$RG" --version | sed -n 1p
echo "load: $(cut -d' ' -f1-3 /proc/loadavg) (other processes on the cores make wall times noisy; cpu_s is steadier)"
echo "git: $(git rev-parse --short HEAD 2>/dev/null || echo '?')$(git diff --quiet 2>/dev/null || echo ' (dirty)')"
echo "tree: $P: $(find "$P" -name '*.jsonl' | wc -l) .jsonl files, $(du -sm --apparent-size "$P" | cut -f1) MiB, $(find "$P" -name '*.jsonl' -print0 | xargs -0 cat | wc -l) lines"
find "$P" -type f -print0 | xargs -0 cat >/dev/null # page cache
echo

# once CMD...: one timed run (exit 0 or 1, as grep: match or none); appends
# the wall time (µs), CPU time (s) and peak RSS (KiB) to the arrays named
# by $1 (wall), $2 (cpu) and $3 (rss).
once() {
	local -n w=$1 c=$2 r=$3
	shift 3
	local t0 t1 m u s code=0
	t0=$(date +%s%N)
	"$TIME" -f '%M %U %S' -o "$WORK/t" "$@" >/dev/null 2>"$WORK/err" || code=$?
	t1=$(date +%s%N)
	if [ "$code" -gt 1 ]; then
		echo "failed ($code): $* : $(head -c 300 "$WORK/err")" >&2
		exit 1
	fi
	read -r m u s < <(tail -n1 "$WORK/t") # GNU time first says a command exited 1
	w+=($(((t1 - t0) / 1000)))
	c+=("$(awk -v u="$u" -v s="$s" 'BEGIN{printf "%.2f", u+s}')")
	r+=("$m")
}

median() { printf '%s\n' "$@" | sort -n | sed -n "$((($# + 1) / 2))p"; }
maxof() { printf '%s\n' "$@" | sort -n | tail -1; }

row() { printf '%-44s %8s %7s %8s %8s\n' "$@"; }
row case wall_s cpu_s rss_MiB x_rg

# compare LABEL "RG ARGS" "CCTX ARGS": RUNS alternate runs of each.
compare() {
	local label=$1
	local -a rga ccx
	eval "rga=($2)"
	eval "ccx=($3)"
	local rw=() rc=() rr=() cw=() cc=() cr=()
	for ((i = 0; i < RUNS; i++)); do
		once rw rc rr "$RG" "${rga[@]}" "$P"
		once cw cc cr "$WORK/cctx" grep --dir "$DIR" "${ccx[@]}"
	done
	local rs cs
	rs=$(median "${rw[@]}")
	cs=$(median "${cw[@]}")
	row "rg ${2}" "$(awk -v u="$rs" 'BEGIN{printf "%.3f", u/1e6}')" "$(median "${rc[@]}")" "$(awk -v k="$(maxof "${rr[@]}")" 'BEGIN{printf "%.1f", k/1024}')" ""
	row "cctx grep ${3}" "$(awk -v u="$cs" 'BEGIN{printf "%.3f", u/1e6}')" "$(median "${cc[@]}")" "$(awk -v k="$(maxof "${cr[@]}")" 'BEGIN{printf "%.1f", k/1024}')" \
		"$(awk -v a="$cs" -v b="$rs" 'BEGIN{printf "%.2f", a/b}')"
	echo "  ($label)"
}

compare "rare literal, counts" "-c -F '$RARE'" "-s -c -F '$RARE'"
compare "rare literal, case-insensitive counts" "-c -i -F '$RARE'" "-c -F '$(tr '[:upper:]' '[:lower:]' <<<"$RARE")'"
compare "absent literal, counts" "-c -F '$ABSENT'" "-s -c -F '$ABSENT'"
compare "a literal on every line, in no text, counts" "-c -F '$EVERY'" "-s -c -F '$EVERY'"
compare "a word in most texts, case-insensitive counts" "-c -i -w '$WORD'" "-c -w '$WORD'"
compare "rare literal: hits in a pipe (TSV)" "-F '$RARE'" "-s -F '$RARE'"
compare "rare literal: --json (conversations read for branches)" "-F '$RARE'" "-s --json -F '$RARE'"
compare "rare literal: sessions only" "-l -F '$RARE'" "-s -l -F '$RARE'"

echo
echo "== Go benchmarks"
go test -run='^$' -bench=BenchmarkSearch -benchmem ./internal/search
