#!/usr/bin/env bash
# A real-shaped projects tree for benchmarks: COPIES copies of the Claude
# Code folders of the shared corpus (../shared/corpus/real; codex/ is not
# Claude Code's), each copy PER_COPY sessions (a window that moves along
# the corpus from copy to copy, so that every session is used) with their
# subagents, every uuid, message id and request id remapped per copy (so
# that no copy deduplicates against another: as many distinct sessions as
# a long history), each copy in project folders of its own.
#
#   tools/realtree.sh DIR            (DIR/projects is written; DIR must not exist)
#
# Environment: CORPUS (default ../shared/corpus/real beside the
# repository, or beside its parent), COPIES (default 68), PER_COPY (default 21): 1,428 sessions,
# about 1.5 GB. Never commit the tree.
set -euo pipefail
cd "$(dirname "$0")/.."
DIR=${1:?usage: tools/realtree.sh DIR}
if [ -z "${CORPUS:-}" ]; then
	for c in ../shared/corpus/real ../../shared/corpus/real; do [ -d "$c" ] && CORPUS=$c && break; done
fi
CORPUS=${CORPUS:?realtree.sh: set CORPUS to the shared corpus (corpus/real)}
COPIES=${COPIES:-68}
PER_COPY=${PER_COPY:-21}
[ ! -e "$DIR" ] || { echo "realtree.sh: $DIR exists" >&2; exit 1; }
command -v perl >/dev/null || { echo "realtree.sh: needs perl" >&2; exit 1; }
CORPUS=$(cd "$CORPUS" && pwd)
mkdir -p "$DIR/projects"

# The main sessions: <source>/<project>/<uuid>.jsonl, sorted.
mapfile -t MAINS < <(cd "$CORPUS" && find . -mindepth 3 -maxdepth 3 -name '*.jsonl' -not -path './codex/*' | sort)
N=${#MAINS[@]}
echo "realtree.sh: $N sessions in $CORPUS, $COPIES copies of $PER_COPY" >&2

# The remapping of copy $1: every uuid, msg_ and req_ id made new (with a
# provider's tag too: msg_bdrk_…, msg_vrtx_…; left alone, Bedrock's ids
# were the same in every copy, and every report was made again with one
# table), the same way for the same id within a copy (a resumed session
# still replays its original); stdin to stdout.
REMAP='
	BEGIN { use Digest::MD5 qw(md5_hex); $c = shift @ARGV; }
	sub uuid { my $h = md5_hex("$c/$_[0]"); substr($h,0,8)."-".substr($h,8,4)."-4".substr($h,13,3)."-8".substr($h,17,3)."-".substr($h,20,12) }
	s{([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})}{ $u{$1} //= uuid($1) }ge;
	s{\b(msg_|req_)((?:[a-z]{4}_)?)([0-9A-Za-z]{8,})}{ $1 . $2 . substr($3, 0, length($3) - 6) . substr(md5_hex("$c/$3"), 0, 6) }ge;
'
remap() { perl -pe "$REMAP" "$1"; }

for ((k = 0; k < COPIES; k++)); do
	for ((j = 0; j < PER_COPY && j < N; j++)); do
		m=${MAINS[$(((k * 7 + j) % N))]}
		src=$(dirname "$m"); src=${src#./}
		id=$(basename "$m" .jsonl)
		new=$(printf '%s\n' "$id" | remap "$k")
		out="$DIR/projects/$(basename "$src")-c$k"
		mkdir -p "$out"
		remap "$k" < "$CORPUS/$m" > "$out/$new.jsonl"
		if [ -d "$CORPUS/$src/$id" ]; then
			(cd "$CORPUS/$src/$id" && find . -name '*.jsonl') | while read -r a; do
				mkdir -p "$out/$new/$(dirname "$a")"
				remap "$k" < "$CORPUS/$src/$id/$a" > "$out/$new/$a"
			done
		fi
	done
done
echo "realtree.sh: $(find "$DIR/projects" -mindepth 2 -maxdepth 2 -name '*.jsonl' -not -name 'agent-*' | wc -l) sessions, $(du -sh "$DIR/projects" | cut -f1) in $DIR/projects" >&2
