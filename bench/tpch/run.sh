#!/bin/bash
# TPC-H queries through the GpuReduce node against PostgreSQL's own plan, on
# this host, in one run: a throwaway server (test/harness.sh), lineitem loaded
# from bench/tpch/gen.py's CSV and prewarmed, each query timed in fresh
# sessions, the two sides alternating, medians.
#
#   bash bench/tpch/run.sh CSV_DIR [RUNS] [WORKERS]
#
# Native: gpu_reduce.bulk_scan = off (PostgreSQL's plan, its sum() and avg()).
# Node: the same query text (native sum() and avg() taken under
# native_aggregates = on) and with gpu_sum/gpu_avg in place of sum/avg.
# Queries (TPCH_QUERIES, default "q6 q6_gpu q1 q1_gpu"): Q6, and Q1 (its four
# groups of l_returnflag, l_linestatus).  Prints one CSV line per query and
# workers: query,workers,native_ms,node_ms,ratio,answers_equal
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

tpch_psql() { gr_psql -d postgres "$@"; }
TPCH_SQL=$GR_TMP
source "$here/timing.sh"
queries=${TPCH_QUERIES:-q6 q6_gpu q1 q1_gpu}
tpch_time "$queries" "$workers" "$runs"
for q in $queries; do
	[ "${q%_gpu}" = "$q" ] || continue
	gr_psql -X -d postgres -c "SET max_parallel_workers_per_gather = 0" \
		-c "EXPLAIN (ANALYZE, VERBOSE, COSTS OFF, TIMING OFF) $(cat "$GR_TMP/$q.sql")"
done
