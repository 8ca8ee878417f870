#!/usr/bin/env bash
# bench/pg/eager.sh -- grouped joins under PostgreSQL 19's eager aggregation
# (enable_eager_aggregate: a partial aggregate pushed below a join) against
# the node, and against PostgreSQL's plan without it (issue 42).
#
# The star schema of joins.sh (star_tables.sh) at ROWS fact rows (default
# 2 M) and TPC-H-like tables made here: tp_lineitem of ROWS rows, tp_orders
# of ROWS/4 (4 lines an order), tp_customer of ROWS/40, 5 000 suppliers,
# 100 000 parts, 25 nations; all keyed, frozen, analyzed and prewarmed.  For
# each query below and each max_parallel_workers_per_gather in WORKERS
# (default "0 8") it records
#   node     the node in the default plan (enable_eager_aggregate on where
#            the server has it)
#   node_off the node in the plan with enable_eager_aggregate off (a query
#            the node takes without eager aggregation keeps it with it)
#   eager    PostgreSQL's own plan (gpu_reduce.bulk_scan = off) puts a
#            Partial Aggregate below a join ('-': a server before 19)
# checks that the three answers (the default plan's, PostgreSQL's with and
# without eager aggregation) are equal, then times them, alternating, RUNS
# times each (default 3), every run in a fresh session, and prints their
# medians (ms) and the ratios PostgreSQL's eager plan / the default plan and
# PostgreSQL's plan without eager aggregation / the default plan (above 1
# the default plan is faster).  Before 19 the eager columns repeat
# PostgreSQL's one plan.
#
# usage: bash bench/pg/eager.sh [--server harness|gpuhost] [ROWS] [RUNS]
#   harness (default): test/harness.sh's throwaway server (PG_CONFIG picks the
#   major); gpuhost: bench/pg/server_gpuhost.sh.  EAGER_WORKERS overrides
#   WORKERS, EAGER_SHARED_BUFFERS shared_buffers (default 4GB).
# On PostgreSQL 19 in a Debian sid chroot (test/chroot_suite.sh; the CPU-only
# build), from a clean checkout:
#   GPU_REDUCE_CHROOT_RUN='EAGER_WORKERS="0 2" EAGER_SHARED_BUFFERS=1GB bash bench/pg/eager.sh 2000000 3' \
#       bash test/chroot_suite.sh sid
set -euo pipefail
PGB_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
PGB_DIR=$PGB_ROOT/bench/pg
PGB_NAME=eager
PGB_SERVER=harness
if [ "${1:-}" = --server ]; then
	PGB_SERVER=$2
	shift 2
fi
rows=${1:-2000000}
runs=${2:-3}
workers=${EAGER_WORKERS:-0 8}
PGB_OUT=${OUT:-$(mktemp -d /tmp/gpu_reduce_eager.XXXXXX)}
PGB_ARGS=()
mkdir -p "$PGB_OUT"
# shellcheck source=bench/pg/star_tables.sh
source "$PGB_DIR/star_tables.sh"

pgb_star_start "${EAGER_SHARED_BUFFERS:-4GB}" "$rows"
loaded=$(pgb_psql -Atc "SELECT count(*) FROM pg_class WHERE relname = 'tp_lineitem' AND reltuples = $rows" 2>/dev/null || echo 0)
if [ "$loaded" != 1 ]; then
	pgb_log "loading $rows lineitem rows"
	pgb_psql -q <<SQL
SET client_min_messages = warning;
DROP TABLE IF EXISTS tp_lineitem, tp_orders, tp_customer, tp_supplier, tp_nation, tp_part;
CREATE TABLE tp_nation (n_nationkey int PRIMARY KEY, n_name text, n_regionkey int);
INSERT INTO tp_nation SELECT i, 'NATION' || i, i % 5 FROM generate_series(0, 24) i;
CREATE TABLE tp_supplier (s_suppkey int PRIMARY KEY, s_nationkey int, s_acctbal numeric(12,2));
INSERT INTO tp_supplier SELECT i, i % 25, (i % 1000) * 1.5 FROM generate_series(1, 5000) i;
CREATE TABLE tp_customer (c_custkey int PRIMARY KEY, c_nationkey int, c_mktsegment int);
INSERT INTO tp_customer SELECT i, (i * 7) % 25, i % 5 FROM generate_series(1, greatest($rows / 40, 1)) i;
CREATE TABLE tp_part (p_partkey int PRIMARY KEY, p_brand int, p_size int);
INSERT INTO tp_part SELECT i, i % 25, 1 + i % 50 FROM generate_series(1, 100000) i;
CREATE TABLE tp_orders (o_orderkey int PRIMARY KEY, o_custkey int, o_orderdate date, o_orderpriority int);
INSERT INTO tp_orders SELECT i::int, (1 + (i * 7919) % greatest($rows / 40, 1))::int,
       date '1992-01-01' + (i % 2400)::int, (i % 5)::int
FROM generate_series(1::bigint, greatest($rows / 4, 1)) i;
CREATE TABLE tp_lineitem (l_orderkey int, l_partkey int, l_suppkey int, l_quantity int,
                          l_extendedprice numeric(12,2), l_discount numeric(4,2), l_shipdate date)
                          WITH (parallel_workers = 8);
INSERT INTO tp_lineitem SELECT (1 + i / 4)::int, (1 + (i * 104729) % 100000)::int, (1 + (i * 31) % 5000)::int,
       (1 + i % 50)::int, ((i * 37) % 100000) / 10.0, (i % 11) / 100.0,
       date '1992-01-02' + ((i / 4) % 2400)::int + (i % 30)::int
FROM generate_series(0::bigint, $rows - 1) i;
VACUUM (FREEZE, ANALYZE) tp_lineitem, tp_orders, tp_customer, tp_supplier, tp_nation, tp_part;
SQL
fi
pgb_psql -qAt -c "SELECT sum(pg_prewarm(c)) FROM unnest(ARRAY['jb_fact', 'jb_customer', 'jb_item', 'jb_store',
	'jb_region', 'tp_lineitem', 'tp_orders', 'tp_customer', 'tp_supplier', 'tp_nation', 'tp_part']::regclass[]) c" \
	>/dev/null 2>&1 || true
has_eager=$(pgb_psql -Atc "SELECT count(*) FROM pg_settings WHERE name = 'enable_eager_aggregate'")
major=$(pgb_psql -Atc "SELECT current_setting('server_version_num')::int / 10000")

# name | query: joins.sh's five, three more stars, five TPC-H-like grouped joins
queries=$(pgb_star_queries; cat <<'Q'
custseg | SELECT c_segment, sum(f_amount), count(*) FROM jb_fact JOIN jb_customer ON c_id = f_customer GROUP BY 1
itemcls | SELECT it_class, sum(f_qty), avg(f_amount) FROM jb_fact JOIN jb_item ON it_id = f_item GROUP BY 1
regname | SELECT r_name, sum(f_amount), max(f_day) FROM jb_fact JOIN jb_store ON s_id = f_store JOIN jb_region ON r_id = s_region GROUP BY 1
q5like  | SELECT n_name, sum(l_extendedprice * (1 - l_discount)) AS revenue FROM tp_lineitem JOIN tp_supplier ON s_suppkey = l_suppkey JOIN tp_nation ON n_nationkey = s_nationkey WHERE l_shipdate >= date '1994-01-01' AND l_shipdate < date '1995-01-01' GROUP BY n_name
brand   | SELECT p_brand, sum(l_quantity), count(*) FROM tp_lineitem JOIN tp_part ON p_partkey = l_partkey WHERE p_size < 10 GROUP BY p_brand
custnat | SELECT c_nationkey, sum(l_extendedprice), count(*) FROM tp_lineitem JOIN tp_orders ON o_orderkey = l_orderkey JOIN tp_customer ON c_custkey = o_custkey GROUP BY c_nationkey
prio    | SELECT o_orderpriority, sum(l_quantity), count(*) FROM tp_lineitem JOIN tp_orders ON o_orderkey = l_orderkey WHERE l_shipdate < date '1996-01-01' GROUP BY o_orderpriority
suppnat | SELECT s_nationkey, sum(l_quantity), avg(l_discount), count(*) FROM tp_lineitem JOIN tp_supplier ON s_suppkey = l_suppkey GROUP BY s_nationkey
Q
)

plan() { PGOPTIONS="$1" pgb_psql -X -At -c "EXPLAIN (COSTS OFF) $2"; }
# yes where the plan has a Partial Aggregate below a join (a join line before it)
below_join() { awk '/Join/ { j = 1 } /Partial .*Aggregate/ && j { e = 1 } END { print e ? "yes" : "no" }'; }

if [ "$has_eager" = 1 ]; then
	on="-c enable_eager_aggregate=on"
	off="-c enable_eager_aggregate=off"
else
	on=
	off=
	pgb_log "PostgreSQL $major has no eager aggregation: the eager columns repeat its one plan"
fi
printf '%-8s %-7s %-4s %-8s %-5s %12s %12s %12s %8s %8s\n' query workers node node_off eager \
	eager_ms noeager_ms node_ms r_eager r_noeager | tee "$PGB_OUT/eager.txt"
while IFS='|' read -r name query; do
	name=${name// /}
	[ -n "$name" ] || continue
	for w in $workers; do
		opts="-c max_parallel_workers_per_gather=$w"
		node=no
		node_off=no
		eager=-
		plan "$opts $on" "$query" | grep -q GpuReduce && node=yes
		plan "$opts $off" "$query" | grep -q GpuReduce && node_off=yes
		[ "$has_eager" != 1 ] || eager=$(plan "$opts $on -c gpu_reduce.bulk_scan=off" "$query" | below_join)
		a=$(pgb_answer "$opts $on" "$query")
		b=$(pgb_answer "$opts $on -c gpu_reduce.bulk_scan=off" "$query")
		c=$(pgb_answer "$opts $off -c gpu_reduce.bulk_scan=off" "$query")
		[ "$a" = "$b" ] && [ "$a" = "$c" ] || pgb_die "answers differ: $name with $w workers"
		: >"$PGB_OUT/e" && : >"$PGB_OUT/n" && : >"$PGB_OUT/d"
		for _ in $(seq 1 "$runs"); do
			pgb_run_ms "$opts $on -c gpu_reduce.bulk_scan=off" "$query" >>"$PGB_OUT/e"
			pgb_run_ms "$opts $off -c gpu_reduce.bulk_scan=off" "$query" >>"$PGB_OUT/n"
			pgb_run_ms "$opts $on" "$query" >>"$PGB_OUT/d"
		done
		e=$(pgb_median <"$PGB_OUT/e")
		n=$(pgb_median <"$PGB_OUT/n")
		d=$(pgb_median <"$PGB_OUT/d")
		printf '%-8s %-7s %-4s %-8s %-5s %12.1f %12.1f %12.1f %8.2f %8.2f\n' "$name" "$w" "$node" \
			"$node_off" "$eager" "$e" "$n" "$d" "$(awk -v x="$e" -v d="$d" 'BEGIN { print x / d }')" \
			"$(awk -v x="$n" -v d="$d" 'BEGIN { print x / d }')" | tee -a "$PGB_OUT/eager.txt"
	done
done <<<"$queries"
pgb_log "PostgreSQL $major, $rows rows, $runs runs; results in $PGB_OUT/eager.txt"
