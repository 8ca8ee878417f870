#!/usr/bin/env bash
# bench/pg/joins.sh -- aggregate queries over a star of joins: the node's
# join (the fact table read from its pages, the dimensions hashed from
# PostgreSQL's plans for them) against PostgreSQL's own plan, side by side.
#
# A fact table of ROWS rows (default 10 M) with three dimensions (100 000
# customers, 10 000 items, 100 stores) and a region table under the stores,
# all keyed, VACUUM ANALYZEd and prewarmed.  For each query below and each
# max_parallel_workers_per_gather in WORKERS (default "0 8") it checks the
# default plan's answer against PostgreSQL's (gpu_reduce.bulk_scan = off),
# then times both, alternating, RUNS times each (default 3), every run in a
# fresh session, and prints one line per query and setting: whether the
# node was in the plan, both medians (ms) and their ratio (PostgreSQL's
# over the default's: above 1 the node is faster), and the node's page path
# (EXPLAIN ANALYZE VERBOSE: gpu where the GPU read the pages and probed the
# joins, else why not).
#
# usage: bash bench/pg/joins.sh [--server harness|gpuhost] [ROWS] [RUNS]
#   harness (default): test/harness.sh's throwaway server on a Debian host
#   (root or sudo); gpuhost: the relocatable PostgreSQL of .gpuhost/ with a
#   carried build in .gpubuild/ (bench/pg/server_gpuhost.sh), results under
#   $OUT when set.  JOINS_WORKERS overrides WORKERS.
set -euo pipefail
PGB_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
PGB_DIR=$PGB_ROOT/bench/pg
PGB_NAME=joins
PGB_SERVER=harness
if [ "${1:-}" = --server ]; then
	PGB_SERVER=$2
	shift 2
fi
rows=${1:-10000000}
runs=${2:-3}
workers=${JOINS_WORKERS:-0 8}
PGB_OUT=${OUT:-$(mktemp -d /tmp/gpu_reduce_joins.XXXXXX)}
PGB_ARGS=()
mkdir -p "$PGB_OUT"
# shellcheck source=bench/pg/star_tables.sh
source "$PGB_DIR/star_tables.sh"

pgb_star_start "${JOINS_SHARED_BUFFERS:-4GB}" "$rows"
pgb_psql -qAt -c "SELECT sum(pg_prewarm(c)) FROM unnest(ARRAY['jb_fact', 'jb_customer', 'jb_item', 'jb_store', 'jb_region']::regclass[]) c" >/dev/null 2>&1 || true

queries=$(pgb_star_queries)

printf '%-7s %-7s %-5s %12s %12s %8s  %s\n' query workers node native_ms node_ms ratio page_path |
	tee "$PGB_OUT/joins.txt"
while IFS='|' read -r name query; do
	name=${name// /}
	[ -n "$name" ] || continue
	for w in $workers; do
		opts="-c max_parallel_workers_per_gather=$w"
		node=no
		PGOPTIONS="$opts" pgb_psql -X -At -c "EXPLAIN $query" | grep -q GpuReduce && node=yes
		a=$(pgb_answer "$opts" "$query")
		b=$(pgb_answer "$opts -c gpu_reduce.bulk_scan=off" "$query")
		[ "$a" = "$b" ] || pgb_die "answers differ: $name with $w workers"
		: >"$PGB_OUT/n" && : >"$PGB_OUT/d"
		for _ in $(seq 1 "$runs"); do
			pgb_run_ms "$opts -c gpu_reduce.bulk_scan=off" "$query" >>"$PGB_OUT/n"
			pgb_run_ms "$opts" "$query" >>"$PGB_OUT/d"
		done
		n=$(pgb_median <"$PGB_OUT/n")
		d=$(pgb_median <"$PGB_OUT/d")
		# how the node's table was decoded and probed: gpu, cpu, or why not the page path
		path=$(PGOPTIONS="$opts" pgb_psql -X -At -c "EXPLAIN (ANALYZE, VERBOSE, COSTS OFF, TIMING OFF) $query" |
			sed -n 's/^ *Page Path: //p' | head -1)
		printf '%-7s %-7s %-5s %12.1f %12.1f %8.2f  %s\n' "$name" "$w" "$node" "$n" "$d" \
			"$(awk -v n="$n" -v d="$d" 'BEGIN { print n / d }')" "${path:--}" | tee -a "$PGB_OUT/joins.txt"
	done
done <<<"$queries"
pgb_log "results in $PGB_OUT/joins.txt"
