#!/bin/bash
# Issue 40's figures: where a join's hashed relations' build time goes, and
# whole-query times, for TPC-H queries on an already loaded database (for
# instance one tpch22.sh's steps made, kept).  Serial plans throughout
# (max_parallel_workers_per_gather = 0); each query:
#   - EXPLAIN ANALYZE forced onto the node (PostgreSQL's joins off): each
#     hashed relation's name (with "read from pages" where the node read it),
#     rows and build time, and the execution time;
#   - RUNS runs (default 3) each in a fresh session, the sides alternating, of
#     native (gpu_reduce.bulk_scan = off, joins on), the node unforced
#     (default settings) and the node forced; medians in ms.
#
#   bash bench/tpch/join_build.sh "psql -h SOCKDIR -p PORT -d DB" [QUERIES] [RUNS]
#
# QUERIES defaults to "05 03 10 12" (bench/tpch/queries/qNN.sql).  Prints
# the EXPLAIN lines, then one line a query: query,native_ms,node_ms,forced_ms.
set -euo pipefail
PSQL=$1
QUERIES=${2:-05 03 10 12}
RUNS=${3:-3}
here=$(cd "$(dirname "$0")" && pwd)
serial="SET max_parallel_workers_per_gather = 0;"
forced="$serial SET enable_hashjoin = off; SET enable_mergejoin = off; SET enable_nestloop = off;"
native="$serial SET gpu_reduce.bulk_scan = off;"

# one run of query file $2 in a fresh session after settings $1: its time in ms
run_ms() {
	{ echo "LOAD 'gpu_reduce'; $1"; echo '\timing on'; grep -v '^--' "$2"; } |
		$PSQL -X -q -o /dev/null 2>&1 | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p' | tail -1
}

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

for q in $QUERIES; do
	f=$here/queries/q$q.sql
	echo "== Q$q forced onto the node: EXPLAIN ANALYZE"
	{ echo "LOAD 'gpu_reduce'; $forced"; echo "EXPLAIN (ANALYZE, COSTS OFF)"; grep -v '^--' "$f"; } |
		$PSQL -X -q 2>&1 | grep -E 'GpuReduce|Hashed|Hash Build Time|Execution Time|Seq Scan|Index' || true
done
echo "query,native_ms,node_ms,forced_ms"
for q in $QUERIES; do
	f=$here/queries/q$q.sql
	n=(); d=(); o=()
	for _ in $(seq "$RUNS"); do
		n+=("$(run_ms "$native" "$f")")
		d+=("$(run_ms "$serial" "$f")")
		o+=("$(run_ms "$forced" "$f")")
	done
	echo "Q$q,$(printf '%s\n' "${n[@]}" | median),$(printf '%s\n' "${d[@]}" | median),$(printf '%s\n' "${o[@]}" | median)"
done
