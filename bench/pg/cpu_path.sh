#!/bin/bash
# The CPU path against PostgreSQL's own plan in one run (issue 44): whole-table
# aggregates over a narrow table, and TPC-H Q6 and Q1 over lineitem, on a
# throwaway server (test/harness.sh) where the library is session-loaded
# (session_preload_libraries, not shared_preload_libraries: no GPU service,
# so every page is decoded by the backend, GPU or not).  Each query runs in
# fresh sessions, PostgreSQL's plan (gpu_reduce.bulk_scan = off) and the
# node alternating, medians (bench/tpch/timing.sh).
#
#   bash bench/pg/cpu_path.sh [RUNS]          (RUNS default 5)
#
# The narrow table (CPU_PATH_ROWS rows, default 5 M) is issue 44's shape: a
# text column before the int8 and float8 columns, NULLs in each, a dropped
# column and one added later with a default; VACUUM ANALYZE, prewarmed.
# lineitem is TPC-H's at CPU_PATH_SF (default 1; 0: no TPC-H), from
# bench/tpch/gen.py's CSV (made when missing, by a python that imports duckdb
# with its tpch extension: python3, else TPCH_VENV's, as tpch22.sh makes it).
#
# Prints one CSV line per query: query,workers,native_ms,node_ms,ratio,answers_equal
# (ratio = native / node; a name ending in _gpu is the gpu_* query timed
# against its native twin, a name without it the same native text through
# the node under gpu_reduce.native_aggregates), then each side's spread
# (min-max over the runs).  Every run's time goes to stderr.
#
# Environment:
#   PG_CONFIG              the PostgreSQL to build for and run (as test/harness.sh)
#   GPU_REDUCE_MAKEFLAGS   extra make arguments (e.g. 'WITH_CUDA=no')
#   CPU_PATH_NO_BUILD=1    use the installed extension
#   CPU_PATH_ROWS          the narrow table's rows (default 5000000)
#   CPU_PATH_SF            TPC-H scale factor (default 1; 0 skips Q1 and Q6)
#   CPU_PATH_CPU           the core the server's backends run on (default 1 on a
#                          host of two cores or more, none: unpinned)
#   CPU_PATH_QUERIES       which queries (default: every one below)
#   CPU_PATH_SHARED_BUFFERS  default 3GB (the narrow table and SF1's lineitem)
#   TPCH_DATA              the CSV folder (default /tmp/gpu_reduce_tpch_sfSF)
#   TPCH_VENV              as for bench/tpch/tpch22.sh (default /tmp/gpu_reduce_tpch_venv)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
runs=${1:-5}
rows=${CPU_PATH_ROWS:-5000000}
sf=${CPU_PATH_SF:-1}
data=${TPCH_DATA:-/tmp/gpu_reduce_tpch_sf$sf}
venv=${TPCH_VENV:-/tmp/gpu_reduce_tpch_venv}
cpu=${CPU_PATH_CPU-$([ "$(nproc)" -ge 2 ] && echo 1)}
narrow_queries="narrow_sum_i8 narrow_sum_i8_gpu narrow_avg_i8_gpu narrow_max_f8_gpu"
tpch_queries="q6 q6_gpu q1 q1_gpu"
[ "$sf" = 0 ] && tpch_queries=
queries=${CPU_PATH_QUERIES:-$narrow_queries $tpch_queries}
# shellcheck source=../../test/harness.sh
source "$here/../../test/harness.sh"
# shellcheck source=../tpch/timing.sh
source "$here/../tpch/timing.sh"

# A python that runs gen.py: python3 or TPCH_VENV's, either importing duckdb.
cpu_path_python() {
	local py
	for py in python3 "$venv/bin/python"; do
		if command -v "$py" >/dev/null 2>&1 && "$py" -c 'import duckdb' 2>/dev/null; then
			echo "$py"
			return 0
		fi
	done
	gr_die "no python imports duckdb: run bench/tpch/tpch22.sh once (it makes $venv), or pip install duckdb==1.4.4 duckdb-ext-tpch==1.4.4.20260205"
}

if [ -n "$tpch_queries" ] && [ ! -f "$data/lineitem.csv" ]; then
	mkdir -p "$data"
	"$(cpu_path_python)" "$here/../tpch/gen.py" "$sf" "$data" >&2
fi

gr_ensure_packages
[ "${CPU_PATH_NO_BUILD:-0}" = 1 ] || gr_build >/dev/null
gr_start -c shared_buffers=${CPU_PATH_SHARED_BUFFERS:-3GB} -c max_parallel_workers_per_gather=0 \
	-c session_preload_libraries=gpu_reduce -c jit=off >/dev/null
# backends forked from here on inherit the postmaster's core
if [ -n "$cpu" ]; then
	taskset -a -pc "$cpu" "$(head -n 1 "$GR_DATA/postmaster.pid")" >/dev/null
fi
gr_psql -q -d postgres -c "CREATE EXTENSION gpu_reduce" -c "CREATE EXTENSION pg_prewarm"

# the narrow table: a text column before the columns read, NULLs, a dropped
# column and one added later with a default (those rows lack it)
gr_psql -q -d postgres >/dev/null <<EOF
CREATE TABLE narrow (id int4, note text, gone int4, i8 int8, f8 float8);
INSERT INTO narrow
SELECT i, 'n' || (i % 1000), i,
       CASE WHEN i % 10 = 0 THEN NULL ELSE (i::int8 * 7919) % 1000003 - 500000 END,
       CASE WHEN i % 13 = 0 THEN NULL ELSE ((i::int8 * 7919) % 1000003) / 7.0 END
FROM generate_series(1, $rows) i;
ALTER TABLE narrow DROP COLUMN gone;
ALTER TABLE narrow ADD COLUMN late int8 DEFAULT 7;
VACUUM ANALYZE narrow;
SELECT pg_prewarm('narrow');
EOF

sql=$GR_TMP/cpu_path_sql
mkdir -p "$sql"
echo "SELECT sum(i8) FROM narrow" >"$sql/narrow_sum_i8.sql"
echo "SELECT gpu_sum(i8) FROM narrow" >"$sql/narrow_sum_i8_gpu.sql"
echo "SELECT avg(i8) FROM narrow" >"$sql/narrow_avg_i8.sql"
echo "SELECT gpu_avg(i8) FROM narrow" >"$sql/narrow_avg_i8_gpu.sql"
echo "SELECT max(f8) FROM narrow" >"$sql/narrow_max_f8.sql"
echo "SELECT gpu_max(f8) FROM narrow" >"$sql/narrow_max_f8_gpu.sql"
if [ -n "$tpch_queries" ]; then
	chmod 755 "$data"
	chmod 644 "$data/lineitem.csv"
	cp "$here"/../tpch/{create,load,q1,q1_gpu,q6,q6_gpu}.sql "$sql"/
	gr_psql -q -d postgres -v csv="$data/lineitem.csv" -f "$sql/load.sql" >/dev/null
	gr_psql -At -d postgres -c "SELECT pg_prewarm('lineitem')" >/dev/null
fi
chmod -R a+rX "$sql"

echo "# $(git -C "$here" log -1 --format='%h %cd' --date=short 2>/dev/null) $(nproc) cores, server on core ${cpu:-any}, $rows narrow rows, TPC-H SF$sf, $runs runs"
tpch_psql() { gr_psql -d postgres "$@"; }
TPCH_SQL=$sql
log=$GR_TMP/runs.log
tpch_time "$queries" 0 "$runs" 2> >(tee "$log" >&2)
sleep 0.2
# each side's spread, from the runs' lines: "# q workers 0 run r: native N ms, node M ms"
awk '/^# .* run [0-9]+: native/ {q = $2; n = $8; g = $11
	if (!(q in nmin) || n < nmin[q]) nmin[q] = n; if (n > nmax[q]) nmax[q] = n
	if (!(q in gmin) || g < gmin[q]) gmin[q] = g; if (g > gmax[q]) gmax[q] = g
	if (!(q in seen)) {seen[q] = 1; order[++k] = q}}
	END {for (i = 1; i <= k; i++) {q = order[i]
		printf "# spread %s: native %s-%s ms, node %s-%s ms\n", q, nmin[q], nmax[q], gmin[q], gmax[q]}}' "$log"
