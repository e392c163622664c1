# Sourced by the benchmark scripts (bench.sh, membench.sh): one way to time
# a command. Needs RUNS, WORK (a scratch directory) and TIME (GNU time).
#
# measure_run CMD...: runs CMD RUNS times with stdout discarded; sets
# RESULT_S (median wall time, s), RESULT_CPU (median user+sys CPU time, s:
# unlike wall time, it does not move when other processes share the cores)
# and RESULT_RSS (largest peak RSS, MiB). Fails, saying why on stderr, if
# the command fails.
measure_run() {
	local times=() cpus=() rss=0 i t0 t1 m u s
	for ((i = 0; i < RUNS; i++)); do
		t0=$(date +%s%N)
		if ! "$TIME" -f '%M %U %S' -o "$WORK/rss" "$@" >/dev/null 2>"$WORK/stderr"; then
			echo "failed: $* : $(head -c 300 "$WORK/stderr")" >&2
			return 1
		fi
		t1=$(date +%s%N)
		times+=($(((t1 - t0) / 1000)))
		read -r m u s <"$WORK/rss"
		((m > rss)) && rss=$m
		cpus+=("$(awk -v u="$u" -v s="$s" 'BEGIN{printf "%.2f", u+s}')")
	done
	local med
	med=$(printf '%s\n' "${times[@]}" | sort -n | sed -n "$(((RUNS + 1) / 2))p")
	RESULT_S=$(awk -v u="$med" 'BEGIN{printf "%.3f", u/1e6}')
	RESULT_CPU=$(printf '%s\n' "${cpus[@]}" | sort -n | sed -n "$(((RUNS + 1) / 2))p")
	RESULT_RSS=$(awk -v k="$rss" 'BEGIN{printf "%.1f", k/1024}')
}
