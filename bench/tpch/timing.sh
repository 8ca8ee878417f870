# bench/tpch/timing.sh -- sourced by run.sh (CPU host) and gpu_run.sh (GPU host).
# The caller defines tpch_psql (psql against the server, database postgres)
# and TPCH_SQL (a folder the server's user can read holding the query files).
#
# tpch_time QUERIES WORKERS RUNS: each query (file name without .sql; a name
# ending in _gpu is timed against its native twin without the suffix) in
# fresh sessions, PostgreSQL's plan (gpu_reduce.bulk_scan = off) and the
# node alternating, medians; one CSV line per query and workers count, with
# answers_equal 1 when every run's answers were the same text, all rows.
# TPCH_NODE_SETTINGS (e.g. "SET gpu_reduce.buffer_hints = off") is run
# before each of the node's runs, not PostgreSQL's.

# one timed run in a fresh session: "ms|answer", the answer's rows (Q1 has
# four) joined by ";" so that every row is compared, not only the last
tpch_one() {	# settings query-file
	tpch_psql -X -At -c "$1" -c '\timing on' -f "$2" 2>&1 |
		awk '/^Time:/ {t = $2; next} /^SET/ || /^Timing is on/ {next}
			{a = (n++ ? a ";" : "") $0} END {print t "|" a}'
}

tpch_median() {
	sort -n | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2}'
}

tpch_time() {	# queries workers runs
	local q w r a b n g same
	echo "query,workers,native_ms,node_ms,ratio,answers_equal"
	for q in $1; do
		for w in $2; do
			local nat=() node=()
			same=1
			for ((r = 0; r < $3; r++)); do
				a=$(tpch_one "SET max_parallel_workers_per_gather = $w; SET gpu_reduce.bulk_scan = off" \
					"$TPCH_SQL/${q%_gpu}.sql")
				b=$(tpch_one "SET max_parallel_workers_per_gather = $w${TPCH_NODE_SETTINGS:+; $TPCH_NODE_SETTINGS}" \
					"$TPCH_SQL/$q.sql")
				nat+=("${a%%|*}")
				node+=("${b%%|*}")
				echo "# $q workers $w run $((r + 1)): native ${a%%|*} ms, node ${b%%|*} ms" >&2
				[ "${a#*|}" = "${b#*|}" ] || { same=0; echo "# $q: ${a#*|} / ${b#*|}" >&2; }
			done
			n=$(printf '%s\n' "${nat[@]}" | tpch_median)
			g=$(printf '%s\n' "${node[@]}" | tpch_median)
			echo "$q,$w,$n,$g,$(awk -v n="$n" -v g="$g" 'BEGIN {printf "%.2f", n / g}'),$same"
		done
	done
}

# tpch_floor QUERIES WORKERS RUNS: the zero-copy floor of the node's scan of
# lineitem in the same server (gpu_reduce.debug_page_read_only: the kernel
# reads every pinned page and decodes nothing, so the time is pinning plus
# the GPU's reading), in fresh sessions, median of RUNS, beside each query's
# node time from results.csv on stdin: "query,workers,node_ms,floor_ms,node_over_floor".
tpch_floor() {	# queries workers runs < results.csv
	local w r f
	declare -A fl
	for w in $2; do
		local t=()
		for ((r = 0; r < $3; r++)); do
			f=$(tpch_one "SET max_parallel_workers_per_gather = $w; SET gpu_reduce.debug_page_read_only = on" \
				"$TPCH_SQL/floor.sql")
			t+=("${f%%|*}")
		done
		fl[$w]=$(printf '%s\n' "${t[@]}" | tpch_median)
	done
	echo "query,workers,node_ms,floor_ms,node_over_floor"
	while IFS=, read -r q w n g rest; do
		case " $1 " in *" $q "*) ;; *) continue ;; esac
		[ -n "${fl[$w]:-}" ] || continue
		echo "$q,$w,$g,${fl[$w]},$(awk -v g="$g" -v f="${fl[$w]}" 'BEGIN {printf "%.2f", g / f}')"
	done
}
