#!/bin/bash
# Does the row path's exact gpu_sum(float8) depend on how its batches are
# reduced?  On the GPU host: a table of 1.2 M products of two-decimal prices
# and discounts as double precision (TPC-H Q6's values), their gpu_sum through
# the row path (bulk_scan off) serial and with workers, with batches on the
# GPU and on the CPU, through the node, against the exact reference
# sum(x::numeric)::float8 (one rounding of the exact sum).
#   bash bench/pg/results-float-repro/repro.sh     (from the repository root)
set -uo pipefail
root=$PWD
dir=/tmp/pgf
bash "$root/.gpuhost/start-pg.sh" "$dir" >/dev/null
source "$dir/pgroot/activate.sh"
install -m 755 "$root/.gpubuild/gpu_reduce.so" "$(pg_config --pkglibdir)/gpu_reduce.so"
install -m 644 "$root/gpu_reduce.control" "$root"/gpu_reduce--*.sql "$(pg_config --sharedir)/extension/"
opts="-k $dir/sock -c listen_addresses='' -c shared_preload_libraries=gpu_reduce -c shared_buffers=4GB -c max_worker_processes=32 -c max_parallel_workers=16"
su pgrun -c "export LD_LIBRARY_PATH=$LD_LIBRARY_PATH; $(pg_config --bindir)/pg_ctl -D $dir/data -l $dir/log/server.log -o \"$opts\" restart -w" >/dev/null
p() { psql -h "$dir/sock" -U postgres -X "$@"; }
p -q -c "DROP TABLE IF EXISTS fx, fq" -c "CREATE EXTENSION IF NOT EXISTS gpu_reduce"
p -q <<'SQL'
CREATE TABLE fx AS
SELECT ((g::int8 * 7919) % 10000000 / 100.0 + 900)::numeric(15,2)::float8
       * ((g % 11) / 100.0)::numeric(15,2)::float8 AS x
FROM generate_series(1, 1200000) g;
VACUUM ANALYZE fx;
-- Q6's shape: the product computed by the query, rows filtered
CREATE TABLE fq AS
SELECT ((g::int8 * 7919) % 10000000 / 100.0 + 900)::numeric(15,2)::float8 AS price,
       ((g % 11) / 100.0)::numeric(15,2)::float8 AS disc,
       (1 + g * 37 % 50)::float8 AS qty
FROM generate_series(1, 6000000) g;
VACUUM ANALYZE fq;
SQL
p <<'SQL'
SET extra_float_digits = 3;
SELECT sum(x::numeric)::float8 AS exact_reference, sum(x::numeric) AS exact_numeric FROM fx;
SET gpu_reduce.bulk_scan = off;
SET max_parallel_workers_per_gather = 0;
SELECT 'row path serial' AS how, gpu_sum(x) FROM fx;
SET gpu_reduce.min_gpu_rows = 1;
SELECT 'row path serial, min_gpu_rows 1' AS how, gpu_sum(x) FROM fx;
SET gpu_reduce.enabled = off;
SELECT 'row path serial, GPU off' AS how, gpu_sum(x) FROM fx;
RESET gpu_reduce.enabled;
SET gpu_reduce.batch_rows = 65536;
SELECT 'row path serial, batch_rows 65536' AS how, gpu_sum(x) FROM fx;
RESET gpu_reduce.batch_rows;
RESET gpu_reduce.min_gpu_rows;
SET max_parallel_workers_per_gather = 8; SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0; SET min_parallel_table_scan_size = 0;
SELECT 'row path 8 workers' AS how, gpu_sum(x) FROM fx;
RESET gpu_reduce.bulk_scan;
SET max_parallel_workers_per_gather = 0;
SELECT 'node serial' AS how, gpu_sum(x) FROM fx;
SELECT gr.* FROM gpu_reduce_stats() gr;
SET max_parallel_workers_per_gather = 0;
SELECT 'fq exact' AS how, sum((price * disc)::numeric)::float8 FROM fq WHERE disc BETWEEN 0.06 - 0.01 AND 0.06 + 0.01 AND qty < 24;
SELECT 'fq node serial' AS how, gpu_sum(price * disc) FROM fq WHERE disc BETWEEN 0.06 - 0.01 AND 0.06 + 0.01 AND qty < 24;
SET gpu_reduce.bulk_scan = off;
SELECT 'fq row path serial' AS how, gpu_sum(price * disc) FROM fq WHERE disc BETWEEN 0.06 - 0.01 AND 0.06 + 0.01 AND qty < 24;
EXPLAIN (VERBOSE, COSTS OFF) SELECT gpu_sum(price * disc) FROM fq WHERE disc BETWEEN 0.06 - 0.01 AND 0.06 + 0.01 AND qty < 24;
SET max_parallel_workers_per_gather = 8;
SELECT 'fq row path 8 workers' AS how, gpu_sum(price * disc) FROM fq WHERE disc BETWEEN 0.06 - 0.01 AND 0.06 + 0.01 AND qty < 24;
SELECT 'fq row path 8 workers' AS how, gpu_sum(price * disc) FROM fq WHERE disc BETWEEN 0.06 - 0.01 AND 0.06 + 0.01 AND qty < 24;
EXPLAIN (VERBOSE, COSTS OFF) SELECT gpu_sum(price * disc) FROM fq WHERE disc BETWEEN 0.06 - 0.01 AND 0.06 + 0.01 AND qty < 24;
SQL
grep -E "WARNING|ERROR" "$dir/log/server.log" | tail -5
