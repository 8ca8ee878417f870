# bench/pg/timing.sh -- timed runs of one case (source it; needs pgb_psql).
#
# A case is a native query and a gpu_* query.  Each is run once to warm up
# (its answer kept, to compare the two), then RUNS times, alternating native,
# gpu, native, gpu ..., so that drifts of the machine hit both alike.
#   warm:  all of it in one session (one psql connection);
#   fresh: every query in a new session, so per-process start-up costs
#          (catalog caches, parallel workers, the GPU client's first contact)
#          are part of the time.
# Times are psql's \timing of the query alone (not of the connection): the
# client round trip of a one-row answer over the Unix socket, plan and execution.
# Before each gpu query gpu_reduce_stats() is reset and after it read, so the
# batch counts are those of one query (of this session's process: parallel
# workers count in their own).
# The raw psql output goes to a log that pgb_parse_log reads (marker lines
# "@answer LABEL", "@run LABEL", "@stats|gpu_batches|cpu_batches|buffer_peak_bytes").

# The native side runs with gpu_reduce.native_aggregates = off: from 1.3 the
# node would otherwise take its sum(), min() ... too, and time itself.
# (PGB_NATIVE_OFF=0: a build from before the setting existed.)
pgb_native_off() {
	[ "$1" = native ] && [ "${PGB_NATIVE_OFF:-1}" = 1 ] &&
		printf 'SET gpu_reduce.native_aggregates = off;\n'
	return 0
}

# psql script lines: print the answer of query $2 under label $1.
pgb_step_answer() {
	pgb_native_off "$1"
	printf '\\echo @answer %s\n%s;\n' "$1" "$2"
}

# psql script lines: time query $2 under label $1, its output discarded.
pgb_step_time() {
	pgb_native_off "$1"
	printf '\\echo @run %s\n\\o /dev/null\n%s;\n\\o\n' "$1" "$2"
}

# psql script lines around a gpu query: reset the counters / print them.
pgb_step_stats_reset() { printf '\\o /dev/null\nSELECT gpu_reduce_stats_reset();\n\\o\n'; }
pgb_step_stats() { printf "SELECT '@stats', gpu_batches, cpu_batches, buffer_peak_bytes FROM gpu_reduce_stats();\n"; }

# Run a psql script (stdin) in one new session with WORKERS parallel workers per gather
# (and the settings of the case, PGB_CASE_OPTS, after those of every session).
pgb_session() {
	local workers=$1
	PGOPTIONS="-c max_parallel_workers_per_gather=$workers $PGB_SESSION_OPTS ${PGB_CASE_OPTS:-}" \
		pgb_psql -At -q -c '\timing on' -f -
}

# Warm session: warm-ups, then RUNS alternating timed pairs, all in one session; output to LOG.
pgb_run_warm() {
	local native=$1 gpu=$2 workers=$3 runs=$4 log=$5 r
	{
		pgb_step_answer native "$native"
		pgb_step_answer gpu "$gpu"
		for ((r = 1; r <= runs; r++)); do
			pgb_step_time native "$native"
			pgb_step_stats_reset
			pgb_step_time gpu "$gpu"
			pgb_step_stats
		done
	} | pgb_session "$workers" >"$log" 2>&1
}

# Fresh sessions: the same sequence with a new session for every query; output to LOG.
pgb_run_fresh() {
	local native=$1 gpu=$2 workers=$3 runs=$4 log=$5 r
	{
		pgb_step_answer native "$native" | pgb_session "$workers" &&
			pgb_step_answer gpu "$gpu" | pgb_session "$workers" || return 1
		for ((r = 1; r <= runs; r++)); do
			pgb_step_time native "$native" | pgb_session "$workers" &&
				{ pgb_step_time gpu "$gpu"; pgb_step_stats; } | pgb_session "$workers" || return 1
		done
	} >"$log" 2>&1
}

# Summarize a log: "native_median_ms gpu_median_ms answers gpu_batches cpu_batches gpu_buffer_peak_kb".
# answers is "same" or "differ"; the counts are those after the last gpu run.
pgb_parse_log() {
	awk '
	function median(s,   a, n, i, j, t) {
		n = split(s, a, " ")
		if (n == 0) return "NA"
		for (i = 2; i <= n; i++)	# insertion sort: plain awk has no asort
			for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
		return (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
	}
	/^@answer / { state = "answer"; label = $2; next }
	/^@run /    { state = "run"; label = $2; next }
	/^@stats\|/ { split($0, f, "|"); gb = f[2]; cb = f[3]; peak = int(f[4] / 1024); next }
	/^Time: / {
		if (state == "run") times[label] = times[label] " " $2
		state = ""
		next
	}
	state == "answer" { ans[label] = ans[label] $0 "\n" }
	END {
		printf "%s %s %s %s %s %s\n", median(times["native"]), median(times["gpu"]),
			(ans["native"] == ans["gpu"]) ? "same" : "differ",
			gb == "" ? "NA" : gb, cb == "" ? "NA" : cb, peak == "" ? "NA" : peak
	}' "$1"
}
