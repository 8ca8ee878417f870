-- Row-aligned GPU decoding with NULLs: every reduction op over columns with
-- NULLs, with and without a WHERE, outputs of different columns interleaved
-- (each one gathers its column afresh), through the page path on the GPU,
-- compared as text with the page path decoding on the CPU and with the
-- per-row aggregate path.
\set ON_ERROR_STOP 1
CREATE EXTENSION IF NOT EXISTS gpu_reduce;
SET gpu_reduce.min_gpu_rows = 1;
DROP TABLE IF EXISTS rn;
CREATE TABLE rn AS
SELECT g,
       CASE WHEN g % 7 = 0 THEN NULL ELSE (g % 30011 - 15000)::int2 END AS i2,
       CASE WHEN g % 11 = 0 THEN NULL ELSE ((g::int8 * 7919) % 1000003 - 500000)::int4 END AS i4,
       CASE WHEN g % 3 = 0 THEN NULL ELSE g::int8 * 1000000007 * (1 - 2 * (g % 2)) END AS i8,
       CASE WHEN g % 17 = 0 THEN NULL ELSE ((g % 1000) / 7.0)::float4 END AS f4,
       CASE WHEN g % 2 = 0 THEN NULL ELSE sin(g) * 1e6 END AS f8,
       CASE WHEN g % 5 <> 0 THEN NULL ELSE g::int8 END AS sparse,
       NULL::int8 AS none
FROM generate_series(1, 2000000) g;
VACUUM ANALYZE rn;
CREATE EXTENSION IF NOT EXISTS pg_prewarm;
SELECT pg_prewarm('rn') > 0 AS prewarmed;

CREATE OR REPLACE FUNCTION rn_check(q text, OUT gpu_pages boolean, OUT same boolean, OUT answer text)
LANGUAGE plpgsql AS $$
DECLARE
    line text;
    a_cpu text;
    a_row text;
BEGIN
    gpu_pages := false;
    PERFORM set_config('gpu_reduce.page_path', 'on', true);
    FOR line IN EXECUTE 'EXPLAIN (ANALYZE, VERBOSE, COSTS OFF) ' || q LOOP
        gpu_pages := gpu_pages OR line ~ 'GPU Decoded Pages: [1-9]';
    END LOOP;
    EXECUTE format('SELECT t::text FROM (%s) t', q) INTO answer;
    PERFORM set_config('gpu_reduce.page_path', 'cpu', true);
    EXECUTE format('SELECT t::text FROM (%s) t', q) INTO a_cpu;
    PERFORM set_config('gpu_reduce.page_path', 'on', true);
    PERFORM set_config('gpu_reduce.bulk_scan', 'off', true);
    EXECUTE format('SELECT t::text FROM (%s) t', q) INTO a_row;
    PERFORM set_config('gpu_reduce.bulk_scan', 'on', true);
    same := answer IS NOT DISTINCT FROM a_cpu AND answer IS NOT DISTINCT FROM a_row;
    IF NOT same THEN
        RAISE WARNING 'differ: % | gpu % | cpu % | row %', q, answer, a_cpu, a_row;
    END IF;
END
$$;

CREATE TEMP TABLE qs (q text);
INSERT INTO qs VALUES
('SELECT gpu_sum(i2), gpu_sum(i4), gpu_sum(i8), gpu_sum(f4), gpu_sum(f8), count(*), count(i8), count(f8) FROM rn'),
('SELECT gpu_min(i2), gpu_max(i2), gpu_min(i4), gpu_max(i4), gpu_min(i8), gpu_max(i8), gpu_min(f4), gpu_max(f8) FROM rn'),
('SELECT gpu_top2(i8), gpu_top2(f8), gpu_topk(i4, 5), gpu_topk(f4, 7), gpu_topk(i8, 100) FROM rn'),
('SELECT gpu_variance(i2), gpu_variance(i4), gpu_variance(i8), gpu_variance(f4), gpu_stddev(f8) FROM rn'),
('SELECT gpu_avg(i4), gpu_avg(i8), gpu_avg(f8), gpu_sum(sparse), gpu_max(none), count(none) FROM rn'),
('SELECT gpu_sum(i8), gpu_min(i4), gpu_max(i8), gpu_topk(i4, 3), gpu_sum(i2), gpu_top2(i8) FROM rn WHERE f4 > 50 OR f8 IS NULL'),
('SELECT gpu_sum(i4), gpu_max(f8), count(*) FROM rn WHERE i8 IS NULL'),
('SELECT gpu_sum(i4), gpu_min(i2), count(*) FROM rn WHERE i2 > 0 AND i8 IS NOT NULL'),
('SELECT gpu_sum(i8) FROM rn WHERE i4 < -1000000');

CREATE TEMP TABLE res (mode text, q text, gpu_pages boolean, same boolean, answer text);
SET max_parallel_workers_per_gather = 0;
INSERT INTO res SELECT 'serial', q, c.* FROM qs, LATERAL rn_check(q) c;
SET max_parallel_workers_per_gather = 4;
INSERT INTO res SELECT '4 workers', q, c.* FROM qs, LATERAL rn_check(q) c;
RESET max_parallel_workers_per_gather;
SELECT * FROM res;
SELECT bool_and(gpu_pages AND same) AS rowalign_nulls_ok, count(*) AS checks FROM res;
