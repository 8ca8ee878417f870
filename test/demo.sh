#!/usr/bin/env bash
# test/demo.sh -- build, install, start a throwaway server, load a sample table
# and run every gpu_* aggregate beside its native counterpart, printing both
# answers, both times and the ratio.
#
# Environment: GPU_REDUCE_DEMO_ROWS (default 5000000), GPU_REDUCE_DEMO_REPEAT
# (runs per query, the best time counts; default 1), plus those of
# test/harness.sh (PG_CONFIG, GPU_REDUCE_MAKEFLAGS, ...).
# Extra arguments are passed to the server, e.g. -c shared_preload_libraries=gpu_reduce.
set -euo pipefail

# shellcheck source=test/harness.sh
source "$(dirname "$0")/harness.sh"

ROWS=${GPU_REDUCE_DEMO_ROWS:-5000000}
REPEAT=${GPU_REDUCE_DEMO_REPEAT:-1}
case $ROWS in '' | *[!0-9]*) gr_die "GPU_REDUCE_DEMO_ROWS must be a number" ;; esac
case $REPEAT in '' | *[!0-9]* | 0) gr_die "GPU_REDUCE_DEMO_REPEAT must be a positive number" ;; esac

gr_ensure_packages
gr_build
gr_start -c shared_buffers=512MB -c work_mem=256MB "$@"
gr_psql -d postgres -qc "CREATE DATABASE gpu_reduce_demo"

gr_log "creating table demo with $ROWS rows"
gr_psql -d gpu_reduce_demo -q <<SQL
CREATE EXTENSION gpu_reduce;
CREATE TABLE demo (g int, a smallint, b integer, c bigint, r real, d double precision);
INSERT INTO demo
SELECT i % 100,
       ((i::bigint * 40503) % 65536 - 32768)::smallint,
       ((i::bigint * 2654435761) % 4294967296 - 2147483648)::integer,
       ((i::bigint * 2654435761) % 2000000011 - 1000000005) * 4000000000,
       ((i::bigint * 7919) % 2000001 - 1000000) / 7.0,
       sin(i) * 10 ^ ((i % 61) - 30)
FROM generate_series(1, $ROWS) i;
VACUUM ANALYZE demo;

-- runs two queries returning one value each; answers, best times and ratio,
-- and the path that ran the gpu_* query (its plan: the GpuReduce node and how
-- it decoded the pages, or PostgreSQL's Agg calling the aggregate per row)
CREATE FUNCTION demo_compare(label text, gpu_q text, native_q text, repeat int,
                             OUT aggregate text, OUT gpu_answer text, OUT native_answer text,
                             OUT gpu_ms numeric, OUT native_ms numeric, OUT native_over_gpu numeric,
                             OUT gpu_path text)
LANGUAGE plpgsql AS \$\$
DECLARE t0 timestamptz; ms numeric; n int; line text;
BEGIN
  aggregate := label;
  -- native means PostgreSQL's own plan: from 1.3 the GpuReduce node would take sum(), max() ... too
  PERFORM set_config('gpu_reduce.native_aggregates', 'off', true);
  FOR n IN 1 .. repeat LOOP
    t0 := clock_timestamp();
    EXECUTE gpu_q INTO gpu_answer;
    ms := extract(epoch FROM clock_timestamp() - t0) * 1000;
    gpu_ms := least(coalesce(gpu_ms, ms), ms);
    t0 := clock_timestamp();
    EXECUTE native_q INTO native_answer;
    ms := extract(epoch FROM clock_timestamp() - t0) * 1000;
    native_ms := least(coalesce(native_ms, ms), ms);
  END LOOP;
  native_over_gpu := round(native_ms / greatest(gpu_ms, 0.001), 2);
  gpu_path := 'row path (Agg)';
  FOR line IN EXECUTE 'EXPLAIN (ANALYZE, VERBOSE, COSTS OFF, TIMING OFF) ' || gpu_q LOOP
    IF line ~ 'Custom Scan \(GpuReduce\)' THEN
      gpu_path := 'GpuReduce node';
    ELSIF line ~ 'Page Path: ' THEN
      gpu_path := gpu_path || ', pages: ' || substring(line FROM 'Page Path: (.*)\$');
    END IF;
  END LOOP;
  gpu_ms := round(gpu_ms, 1);
  native_ms := round(native_ms, 1);
END \$\$;
SQL

gr_log "running the aggregates ($REPEAT run(s) each, best time shown)"
gr_psql -d gpu_reduce_demo <<SQL
\pset pager off
-- the GPUs the service uses; without one, a NOTICE says why
SELECT * FROM gpu_reduce_devices();
SELECT count(*) AS rows FROM demo;
SELECT gpu_reduce_stats_reset();
SELECT c.* FROM (VALUES
  ('sum(smallint)',  'SELECT gpu_sum(a)::text FROM demo', 'SELECT sum(a)::text FROM demo'),
  ('sum(integer)',   'SELECT gpu_sum(b)::text FROM demo', 'SELECT sum(b)::text FROM demo'),
  ('sum(bigint)',    'SELECT gpu_sum(c)::text FROM demo', 'SELECT sum(c)::text FROM demo'),
  ('sum(real)',      'SELECT gpu_sum(r)::text FROM demo', 'SELECT sum(r)::text FROM demo'),
  ('sum(double)',    'SELECT gpu_sum(d)::text FROM demo', 'SELECT sum(d)::text FROM demo'),
  ('min(smallint)',  'SELECT gpu_min(a)::text FROM demo', 'SELECT min(a)::text FROM demo'),
  ('min(integer)',   'SELECT gpu_min(b)::text FROM demo', 'SELECT min(b)::text FROM demo'),
  ('min(bigint)',    'SELECT gpu_min(c)::text FROM demo', 'SELECT min(c)::text FROM demo'),
  ('min(real)',      'SELECT gpu_min(r)::text FROM demo', 'SELECT min(r)::text FROM demo'),
  ('min(double)',    'SELECT gpu_min(d)::text FROM demo', 'SELECT min(d)::text FROM demo'),
  ('max(smallint)',  'SELECT gpu_max(a)::text FROM demo', 'SELECT max(a)::text FROM demo'),
  ('max(integer)',   'SELECT gpu_max(b)::text FROM demo', 'SELECT max(b)::text FROM demo'),
  ('max(bigint)',    'SELECT gpu_max(c)::text FROM demo', 'SELECT max(c)::text FROM demo'),
  ('max(real)',      'SELECT gpu_max(r)::text FROM demo', 'SELECT max(r)::text FROM demo'),
  ('max(double)',    'SELECT gpu_max(d)::text FROM demo', 'SELECT max(d)::text FROM demo'),
  ('avg(smallint)',  'SELECT gpu_avg(a)::text FROM demo', 'SELECT avg(a)::text FROM demo'),
  ('avg(integer)',   'SELECT gpu_avg(b)::text FROM demo', 'SELECT avg(b)::text FROM demo'),
  ('avg(bigint)',    'SELECT gpu_avg(c)::text FROM demo', 'SELECT avg(c)::text FROM demo'),
  ('avg(real)',      'SELECT gpu_avg(r)::text FROM demo', 'SELECT avg(r)::text FROM demo'),
  ('avg(double)',    'SELECT gpu_avg(d)::text FROM demo', 'SELECT avg(d)::text FROM demo'),
  ('top2(integer)',  'SELECT gpu_top2(b)::text FROM demo',
                     'SELECT array_agg(b ORDER BY b DESC)::text FROM (SELECT b FROM demo WHERE b IS NOT NULL ORDER BY b DESC LIMIT 2) s'),
  ('top2(double)',   'SELECT gpu_top2(d)::text FROM demo',
                     'SELECT array_agg(d ORDER BY d DESC)::text FROM (SELECT d FROM demo WHERE d IS NOT NULL ORDER BY d DESC LIMIT 2) s'),
  ('topk(bigint,5)', 'SELECT gpu_topk(c, 5)::text FROM demo',
                     'SELECT array_agg(c ORDER BY c DESC)::text FROM (SELECT c FROM demo WHERE c IS NOT NULL ORDER BY c DESC LIMIT 5) s'),
  ('topk(real,5)',   'SELECT gpu_topk(r, 5)::text FROM demo',
                     'SELECT array_agg(r ORDER BY r DESC)::text FROM (SELECT r FROM demo WHERE r IS NOT NULL ORDER BY r DESC LIMIT 5) s'),
  ('sum(double) by g', 'SELECT md5(string_agg(s::text, '','' ORDER BY g)) FROM (SELECT g, gpu_sum(d) s FROM demo GROUP BY g) q',
                       'SELECT md5(string_agg(s::text, '','' ORDER BY g)) FROM (SELECT g, sum(d) s FROM demo GROUP BY g) q'),
  ('avg(bigint) by g', 'SELECT md5(string_agg(s::text, '','' ORDER BY g)) FROM (SELECT g, gpu_avg(c) s FROM demo GROUP BY g) q',
                       'SELECT md5(string_agg(s::text, '','' ORDER BY g)) FROM (SELECT g, avg(c) s FROM demo GROUP BY g) q')
) v(label, gpu_q, native_q),
LATERAL demo_compare(label, gpu_q, native_q, $REPEAT) c;
SELECT * FROM gpu_reduce_stats();
SQL
echo "note: real and double precision sums differ where the native sum rounds after every row; gpu_sum is exact."
echo "note: grouped rows are compared by the md5 of all group answers."
echo "note: gpu_path is the plan of the gpu_* query: the GpuReduce node and how its pages were decoded"
echo "      (gpu: by the GPU; cpu: handed to the CPU; off: decoded on the CPU as read, with the reason),"
echo "      or PostgreSQL's Agg calling the aggregate per row; gpu_reduce_devices() above says whether there is a GPU."
