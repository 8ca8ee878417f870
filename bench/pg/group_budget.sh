#!/usr/bin/env bash
# bench/pg/group_budget.sh -- a GROUP BY whose groups are near the node's
# memory budget, against PostgreSQL's own plan (issue 41's "never slower").
#
# The table of issue 41: ROWS rows (default 5 M), 30 000 groups in key order
# (k = i % 30000), an int and a numeric(10,2) summed:
#   SELECT k, sum(q), sum(p) FROM r GROUP BY k
# For each work_mem (default 4MB 64MB) and parallel workers (0 and 2) it
# times the default plan (the node where the planner takes it) and
# PostgreSQL's plan (gpu_reduce.bulk_scan = off) alternately, RUNS times
# each, every query in a fresh session, and prints per setting the medians,
# their ratio (PostgreSQL / default: above 1 the default is faster) and
# whether the node was in the plan, with its group-table flushes.  Both
# answers are checked equal.
#
# usage: bash bench/pg/group_budget.sh [ROWS] [RUNS] ["WORK_MEMS"]
#   (the server: test/harness.sh's throwaway cluster; run as root or with sudo)
set -euo pipefail
# shellcheck source=test/harness.sh
source "$(dirname "$0")/../../test/harness.sh"
rows=${1:-5000000}
runs=${2:-3}
mems=${3:-4MB 64MB}

gr_ensure_packages
gr_build >/dev/null
gr_init_cluster
gr_start -c shared_preload_libraries=gpu_reduce -c max_worker_processes=16
gr_psql -d postgres -qc "CREATE DATABASE gpu_reduce_bench"
# psql in the benchmark's database
bpsql() { gr_psql -d gpu_reduce_bench "$@"; }
bpsql -qc "CREATE EXTENSION gpu_reduce"
bpsql -qc "CREATE TABLE r AS SELECT (i % 30000)::int k, (i % 50)::int q,
	((i * 31337) % 100000 / 100.0)::numeric(10,2) p FROM generate_series(1::bigint, $rows) i"
bpsql -qc "VACUUM ANALYZE r"
query="SELECT k, sum(q), sum(p) FROM r GROUP BY k"

# milliseconds of one run of the query in a fresh session; $1 = postgres options
run_ms() {
	PGOPTIONS="$1" bpsql -X -q -c '\timing on' -c "\\o /dev/null" -c "$query" |
		sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p'
}
# the median of the numbers on stdin
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

printf '%-8s %-7s %-6s %-8s %12s %12s %8s\n' work_mem workers node flushes default_ms native_ms ratio
for mem in $mems; do
	for w in 0 2; do
		opts="-c work_mem=$mem -c max_parallel_workers_per_gather=$w"
		plan=$(PGOPTIONS="$opts" bpsql -X -At -c "EXPLAIN (ANALYZE, TIMING OFF, COSTS OFF) $query")
		node=no
		flushes=-
		if grep -q GpuReduce <<<"$plan"; then
			node=yes
			flushes=$(sed -n 's/.*Group Table Flushes: \([0-9]*\).*/\1/p' <<<"$plan" | awk '{ s += $1 } END { print s }')
		fi
		a=$(PGOPTIONS="$opts" bpsql -X -At -c "SELECT md5(string_agg(t::text, ',' ORDER BY t::text)) FROM ($query) t")
		b=$(PGOPTIONS="$opts -c gpu_reduce.bulk_scan=off" bpsql -X -At \
			-c "SELECT md5(string_agg(t::text, ',' ORDER BY t::text)) FROM ($query) t")
		[ "$a" = "$b" ] || gr_die "answers differ at work_mem $mem, $w workers"
		: >"$GR_TMP/d" && : >"$GR_TMP/n"
		for _ in $(seq 1 "$runs"); do
			run_ms "$opts" >>"$GR_TMP/d"
			run_ms "$opts -c gpu_reduce.bulk_scan=off" >>"$GR_TMP/n"
		done
		d=$(median <"$GR_TMP/d")
		n=$(median <"$GR_TMP/n")
		printf '%-8s %-7s %-6s %-8s %12.1f %12.1f %8.2f\n' "$mem" "$w" "$node" "$flushes" "$d" "$n" \
			"$(awk -v n="$n" -v d="$d" 'BEGIN { print n / d }')"
	done
done
