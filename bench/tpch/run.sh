#!/bin/bash
# TPC-H queries through the GpuReduce node against PostgreSQL's own plan, on
# this host, in one run: a throwaway server (test/harness.sh), lineitem loaded
# from bench/tpch/gen.py's CSV and prewarmed, each query timed in fresh
# sessions, the two sides alternating, medians.
#
#   bash bench/tpch/run.sh CSV_DIR [RUNS] [WORKERS]
#
# Native: gpu_reduce.bulk_scan = off (PostgreSQL's plan, its sum()).  Node:
# the same query text (native sum() taken under native_aggregates = on) and
# with gpu_sum in place of sum.  Prints one CSV line per query and workers:
# query,workers,native_ms,node_ms,ratio,answers_equal
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
csv_dir=$1
runs=${2:-5}
workers=${3:-0 2}
source "$here/../../test/harness.sh"
gr_ensure_packages
gr_build >/dev/null
gr_start -c shared_buffers=${TPCH_SHARED_BUFFERS:-3GB} -c max_parallel_workers_per_gather=0 \
	-c shared_preload_libraries=gpu_reduce ${TPCH_SERVER_OPTS:-} >/dev/null
chmod 755 "$csv_dir"; chmod 644 "$csv_dir"/lineitem.csv
gr_psql -X -q -d postgres -c "CREATE EXTENSION IF NOT EXISTS gpu_reduce" -c "CREATE EXTENSION IF NOT EXISTS pg_prewarm"
cp "$here"/*.sql "$GR_TMP"/; chmod 644 "$GR_TMP"/*.sql
t0=$SECONDS
gr_psql -X -q -d postgres -v csv="$csv_dir/lineitem.csv" -f "$GR_TMP/load.sql" >/dev/null
echo "# loaded in $((SECONDS - t0)) s: $(gr_psql -X -At -d postgres -c "SELECT pg_size_pretty(pg_relation_size('lineitem'))")"
gr_psql -X -At -d postgres -c "SELECT pg_prewarm('lineitem')" >/dev/null

# one timed run in a fresh session: prints ms and the answer
one() {	# settings query-file
	gr_psql -X -At -d postgres -c "$1" -c '\timing on' -f "$2" 2>&1 |
		awk '/^Time:/ {t=$2} !/^Time:/ && !/^SET/ {a=$0} END {print t "|" a}'
}
median() { sort -n | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2}'; }
echo "query,workers,native_ms,node_ms,ratio,answers_equal"
for q in ${TPCH_QUERIES:-q6 q6_gpu}; do
	for w in $workers; do
		nat=() node=() same=1
		for ((r = 0; r < runs; r++)); do
			a=$(one "SET max_parallel_workers_per_gather = $w; SET gpu_reduce.bulk_scan = off" "$GR_TMP/${q%_gpu}.sql")
			b=$(one "SET max_parallel_workers_per_gather = $w" "$GR_TMP/$q.sql")
			nat+=("${a%%|*}") node+=("${b%%|*}")
			[ "${a#*|}" = "${b#*|}" ] || { same=0; echo "# differ: ${a#*|} / ${b#*|}" >&2; }
		done
		n=$(printf '%s\n' "${nat[@]}" | median) g=$(printf '%s\n' "${node[@]}" | median)
		echo "$q,$w,$n,$g,$(awk -v n="$n" -v g="$g" 'BEGIN {printf "%.2f", n / g}'),$same"
	done
done
gr_psql -X -d postgres -c "SET max_parallel_workers_per_gather = 0" \
	-c "EXPLAIN (ANALYZE, VERBOSE, COSTS OFF, TIMING OFF) $(cat "$GR_TMP/q6.sql")"
