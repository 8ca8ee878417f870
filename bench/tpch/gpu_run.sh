#!/bin/bash
# TPC-H on the GPU host, in one device call: DuckDB's dbgen at scale factor SF
# (the cp312 wheels carried in .wheels/), DuckDB's own times for the queries,
# then the bundled PostgreSQL 15 (.gpuhost) with the carried build
# (.gpubuild/$TPCH_SO, default gpu_reduce.so) preloaded, shared_buffers 16 GB on
# huge pages, lineitem loaded in 8 streams, frozen, analyzed and prewarmed,
# and each query timed against PostgreSQL's plan (timing.sh).
#
#   bash bench/tpch/gpu_run.sh [SF] [RUNS]    (from the repository root; results under $OUT)
#
# TPCH_FLOOR (default 1): the zero-copy floor of lineitem's pages timed after
# the queries, node time over floor for each lineitem query (floor.csv).
# TPCH_AB_SETTINGS: the queries timed a second time with these settings
# before each of the node's runs (results-ab.csv).
# Queries: TPCH_QUERIES (default "q6 q6_gpu q1 q1_gpu"; q6f and q6f_gpu are Q6
# over lineitem_f, its numeric columns as double precision, made after the
# load by create_float.sql when asked for); DuckDB times the
# native ones (no _gpu suffix) on the same data, one line each in duckdb.txt;
# EXPLAIN ANALYZE of each native one, serial and with 8 workers, in
# explain-Q-W.txt.  PostgreSQL's own Q1 takes about 7.6 s serially at SF1 on
# the H100 host, about 38 s at SF5: there Q1 with 5 runs does not fit one
# 10-minute device call beside Q6; give it a call of its own, e.g.
#   TPCH_QUERIES="q1 q1_gpu" bash bench/tpch/gpu_run.sh 5 3
set -euo pipefail
root=$PWD
here=$root/bench/tpch
sf=${1:-5}
runs=${2:-5}
out=${OUT:-/tmp/tpch-out}
data=/tmp/tpch
dir=/tmp/pgt
mkdir -p "$out" "$data"
T0=$SECONDS
stamp() { echo "# $1 at $((SECONDS - T0)) s"; }

nvidia-smi --query-gpu=name --format=csv,noheader
python3 -m venv /tmp/dv >/dev/null && /tmp/dv/bin/pip install -q --no-index "$root"/.wheels/*.whl
queries=${TPCH_QUERIES:-q6 q6_gpu q1 q1_gpu}
# each query's native twin (q1 for q1_gpu), once: DuckDB times it, EXPLAIN shows its plan
native=$(for q in $queries; do echo "${q%_gpu}"; done | awk '!seen[$0]++')
# DuckDB times the queries over lineitem (not the float variant's lineitem_f)
/tmp/dv/bin/python "$here/gen.py" "$sf" "$data" $(for q in $native; do
	case $q in q6f) ;; *) echo --time "$here/$q.sql" ;; esac; done) \
	--runs "$runs" | tee "$out/duckdb.txt"
stamp "dbgen and DuckDB"

sysctl -qw vm.nr_hugepages=${TPCH_HUGEPAGES:-9000} || true
bash "$root/.gpuhost/start-pg.sh" "$dir" >/dev/null
source "$dir/pgroot/activate.sh"
install -m 755 "$root/.gpubuild/${TPCH_SO:-gpu_reduce.so}" "$(pg_config --pkglibdir)/gpu_reduce.so"
install -m 644 "$root/gpu_reduce.control" "$root"/gpu_reduce--*.sql "$(pg_config --sharedir)/extension/"
md5sum "$root/.gpubuild/${TPCH_SO:-gpu_reduce.so}"
opts="-k $dir/sock -c listen_addresses='' -c shared_preload_libraries=gpu_reduce -c shared_buffers=16GB"
opts="$opts -c huge_pages=try -c max_worker_processes=32 -c max_parallel_workers=16"
opts="$opts -c max_parallel_workers_per_gather=0 -c maintenance_work_mem=2GB -c max_wal_size=32GB"
opts="$opts -c wal_level=minimal -c max_wal_senders=0 -c synchronous_commit=off"
su pgrun -c "export LD_LIBRARY_PATH=$LD_LIBRARY_PATH; $(pg_config --bindir)/pg_ctl -D $dir/data -l $dir/log/server.log -o \"$opts\" restart -w" >/dev/null
tpch_psql() { psql -h "$dir/sock" -U postgres -d postgres "$@"; }
tpch_psql -X -q -c "CREATE EXTENSION gpu_reduce" -c "CREATE EXTENSION pg_prewarm"
tpch_psql -X -q -f "$here/create.sql"
split -n l/8 "$data/lineitem.csv" "$data/part."
for f in "$data"/part.*; do
	tpch_psql -X -q -c "\\copy lineitem FROM '$f' WITH (FORMAT csv, DELIMITER '|')" &
done
wait
rm -f "$data"/part.*
tpch_psql -X -q -c "VACUUM (FREEZE, ANALYZE) lineitem"
tpch_psql -X -At -c "SELECT count(*), pg_size_pretty(pg_relation_size('lineitem')) FROM lineitem" \
	-c "SELECT pg_prewarm('lineitem')" | tee "$out/table.txt"
stamp "loaded"
case " $queries " in
*" q6f"*)
	tpch_psql -X -q -f "$here/create_float.sql"
	tpch_psql -X -At -c "SELECT count(*), pg_size_pretty(pg_relation_size('lineitem_f')) FROM lineitem_f" \
		-c "SELECT pg_prewarm('lineitem_f')" | tee -a "$out/table.txt"
	stamp "lineitem_f made"
	;;
esac

TPCH_SQL=$here
source "$here/timing.sh"
tpch_time "$queries" "${TPCH_WORKERS:-0 8}" "$runs" | tee "$out/results.csv"
stamp "timed"
# the same again with the node under other settings (TPCH_AB_SETTINGS, e.g.
# "SET gpu_reduce.buffer_hints = off"), PostgreSQL's plan timed beside it again
if [ -n "${TPCH_AB_SETTINGS:-}" ]; then
	echo "# node with: $TPCH_AB_SETTINGS" | tee "$out/results-ab.csv"
	TPCH_NODE_SETTINGS=$TPCH_AB_SETTINGS tpch_time "$queries" "${TPCH_WORKERS:-0 8}" "$runs" |
		tee -a "$out/results-ab.csv"
	stamp "timed with $TPCH_AB_SETTINGS"
fi
# the zero-copy floor of lineitem's pages, beside each lineitem query's node time
if [ "${TPCH_FLOOR:-1}" = 1 ]; then
	tpch_floor "$(echo $queries | tr ' ' '\n' | grep -v '^q6f' | tr '\n' ' ')" "${TPCH_WORKERS:-0 8}" "$runs" \
		<"$out/results.csv" | tee "$out/floor.csv"
	stamp "floor"
fi
for q in $native; do
	for w in 0 8; do
		tpch_psql -X -c "SET max_parallel_workers_per_gather = $w" \
			-c "EXPLAIN (ANALYZE, VERBOSE, COSTS OFF) $(cat "$here/$q.sql")" > "$out/explain-$q-$w.txt" 2>&1
	done
done
grep "Page Path\|Decoded Pages\|Evaluated by\|Execution Time" "$out"/explain-*.txt
# more probes with the server up (e.g. TPCH_AFTER=bench/tpch/pins_ab.sh)
if [ -n "${TPCH_AFTER:-}" ]; then
	source "$root/$TPCH_AFTER"
fi
cp "$dir/log/server.log" "$out/server.log"
