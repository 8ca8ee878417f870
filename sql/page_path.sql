-- The bulk scan's page path: pages are pinned and their visible line
-- pointers recorded, then decoded a job at a time.  gpu_reduce.page_path =
-- cpu runs that very path with the backend decoding each job itself, so
-- these answers hold without a GPU; on the GPU host the default (on) sends
-- the jobs to the GPU and the rest of the suite checks them there.  Every
-- answer is compared with the per-row aggregate path's.
SET gpu_reduce.bulk_scan = on;
SET max_parallel_workers_per_gather = 0;

-- page_check(q): q with the page path (mode cpu) and with the bulk scan off.
-- pages: the page path decoded at least one page; same: equal answers.
CREATE FUNCTION page_check(q text, OUT pages boolean, OUT same boolean, OUT answer text)
LANGUAGE plpgsql AS $$
DECLARE
    line text;
    a_off text;
BEGIN
    pages := false;
    PERFORM set_config('gpu_reduce.page_path', 'cpu', true);
    FOR line IN EXECUTE 'EXPLAIN (ANALYZE, VERBOSE, COSTS OFF, TIMING OFF, SUMMARY OFF) ' || q LOOP
        pages := pages OR line LIKE '%Page Path: cpu%';
    END LOOP;
    EXECUTE format('SELECT t::text FROM (%s) t', q) INTO answer;
    PERFORM set_config('gpu_reduce.bulk_scan', 'off', true);
    EXECUTE format('SELECT t::text FROM (%s) t', q) INTO a_off;
    PERFORM set_config('gpu_reduce.bulk_scan', 'on', true);
    same := answer IS NOT DISTINCT FROM a_off;
END
$$;

-- EXPLAIN ANALYZE VERBOSE without the batch counts (they follow batch_rows)
CREATE FUNCTION page_explain(q text) RETURNS SETOF text
LANGUAGE plpgsql AS $$
DECLARE
    line text;
BEGIN
    FOR line IN EXECUTE 'EXPLAIN (ANALYZE, VERBOSE, COSTS OFF, TIMING OFF, SUMMARY OFF, BUFFERS OFF) ' || q LOOP
        IF line NOT LIKE '%Batches:%' THEN
            RETURN NEXT regexp_replace(line, '(rows=[0-9]+)\.[0-9]+', '\1', 'g');
        END IF;
    END LOOP;
END
$$;

-- NULLs, variable-length and TOASTed columns before the aggregated ones
-- (pglz as before PostgreSQL 19, whose default lz4 packs the pages otherwise),
-- a dropped column, columns added later with and without a default
CREATE TABLE pp (id int8, s text COMPRESSION pglz, gone int4, i2 int2, i4 int4, i8 int8, f4 float4, f8 float8);
INSERT INTO pp
SELECT g,
       CASE WHEN g % 400 = 0 THEN repeat(md5(g::text), 300)
            WHEN g % 3 = 0 THEN NULL ELSE repeat('x', g % 40) END,
       g,
       CASE WHEN g % 7 = 0 THEN NULL ELSE (g % 30011 - 15000)::int2 END,
       CASE WHEN g % 11 = 0 THEN NULL ELSE (g * 7919) % 1000003 - 500000 END,
       CASE WHEN g % 13 = 0 THEN NULL ELSE g::int8 * 1000000007 * (1 - 2 * (g % 2)) END,
       CASE WHEN g % 17 = 0 THEN NULL ELSE (g % 1000) / 7.0 END,
       CASE WHEN g % 19 = 0 THEN NULL WHEN g % 1000 = 1 THEN 'NaN' ELSE sin(g) * 1e6 END
FROM generate_series(1, 20000) g;
ALTER TABLE pp DROP COLUMN gone;
ALTER TABLE pp ADD COLUMN late int8;
ALTER TABLE pp ADD COLUMN late_d int8 DEFAULT 42;
INSERT INTO pp (id, i8, late, late_d) SELECT g, g, g, NULL FROM generate_series(20001, 21000) g;
VACUUM ANALYZE pp;

-- a few jobs of few pages each, so that several are in flight at once
SET gpu_reduce.page_pins = 16;
SELECT * FROM page_check('SELECT gpu_sum(i8), gpu_min(i2), gpu_max(i4), gpu_avg(f8), count(*), count(f4) FROM pp');
SELECT * FROM page_check('SELECT gpu_sum(f8), gpu_sum(f4), gpu_avg(i2), gpu_min(f8), gpu_max(f8) FROM pp');
SELECT * FROM page_check('SELECT gpu_top2(i8), gpu_topk(f8, 5), gpu_topk(i4, 3) FROM pp');
SELECT * FROM page_check('SELECT gpu_sum(late), gpu_max(late_d), count(late_d), count(*) FROM pp');
SELECT * FROM page_check('SELECT gpu_sum(i8), count(*) FROM pp WHERE i4 > 0 AND f8 IS NOT NULL AND i2 BETWEEN -100 AND 9000');
SELECT * FROM page_check('SELECT gpu_max(f8), count(*) FROM pp WHERE f8 >= ''NaN''');
SELECT * FROM page_check('SELECT gpu_sum(i8), count(*) FROM pp WHERE i4 IS NULL');
SELECT * FROM page_check('SELECT gpu_sum(i8) FROM pp WHERE i4 < -1000000');
-- one job for the whole table
RESET gpu_reduce.page_pins;
SELECT * FROM page_check('SELECT gpu_sum(i8), gpu_min(i2), gpu_max(i4), gpu_avg(f8), count(*), count(f4) FROM pp');

-- rows this transaction inserted, updated and deleted
BEGIN;
UPDATE pp SET i8 = i8 + 1 WHERE id % 10 = 0;
DELETE FROM pp WHERE id % 10 = 1;
INSERT INTO pp (id, i8) SELECT g, -g FROM generate_series(1, 500) g;
SELECT * FROM page_check('SELECT gpu_sum(i8), gpu_min(i8), count(*) FROM pp');
ROLLBACK;
SELECT * FROM page_check('SELECT gpu_sum(i8), gpu_min(i8), count(*) FROM pp');

-- prepared statements, a cursor, a correlated subquery (rescans)
SET gpu_reduce.page_path = cpu;
SET gpu_reduce.page_pins = 16;
PREPARE pq(int4) AS SELECT gpu_sum(i8), count(*) FROM pp WHERE i4 > $1;
EXECUTE pq(0);
EXECUTE pq(400000);
SET gpu_reduce.bulk_scan = off;
EXECUTE pq(0);
EXECUTE pq(400000);
SET gpu_reduce.bulk_scan = on;
BEGIN;
DECLARE c CURSOR FOR SELECT gpu_sum(i8), gpu_max(f8) FROM pp;
FETCH ALL FROM c;
CLOSE c;
COMMIT;
SELECT k, (SELECT gpu_sum(i8) FROM pp WHERE i2 > k) AS s FROM (VALUES (0), (NULL), (100)) v(k);
SET gpu_reduce.bulk_scan = off;
SELECT k, (SELECT gpu_sum(i8) FROM pp WHERE i2 > k) AS s FROM (VALUES (0), (NULL), (100)) v(k);
SET gpu_reduce.bulk_scan = on;

-- a parallel plan: every worker pins and decodes its own pages
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SELECT * FROM page_check('SELECT gpu_sum(i8), gpu_min(i2), gpu_max(f8), gpu_avg(i4), count(*) FROM pp');
SET max_parallel_workers_per_gather = 0;

-- EXPLAIN ANALYZE VERBOSE says how the pages were decoded, and why not
SELECT * FROM page_explain('SELECT gpu_sum(i8), count(*) FROM pp WHERE i4 > 0');
SET gpu_reduce.page_path = off;
SELECT * FROM page_explain('SELECT gpu_sum(i8), count(*) FROM pp WHERE i4 > 0');
SET gpu_reduce.page_path = cpu;
CREATE TEMP TABLE pp_temp AS SELECT * FROM pp;
ANALYZE pp_temp;
-- (only the reason: a temporary copy's page count differs between majors)
SELECT line FROM page_explain('SELECT gpu_sum(i8) FROM pp_temp') AS line WHERE line LIKE '%Page Path%';
SELECT (SELECT gpu_sum(i8) FROM pp_temp) = (SELECT sum(i8) FROM pp_temp) AS same;

-- all-visible pages with unused line pointers (VACUUM after a DELETE): an
-- insert may reuse those while the page is pinned, so they are handed over
-- tuple by tuple rather than as "every normal line pointer"
DELETE FROM pp WHERE id % 10 = 5;
VACUUM pp;
SELECT * FROM page_check('SELECT gpu_sum(i8), gpu_max(i4), count(*) FROM pp');

-- the time types reach the kernels as the integers they are; a numeric
-- aggregate keeps the CPU decoder (its varlenas are not decoded on the GPU)
CREATE TABLE pp_time AS
SELECT g AS id, DATE '2000-01-01' + (g % 5000) AS d,
       TIMESTAMPTZ '2020-01-01 00:00+00' + g * INTERVAL '1 minute' AS ts,
       (g % 1000) / 100.0 AS n
FROM generate_series(1, 20000) g;
UPDATE pp_time SET d = 'infinity', ts = '-infinity' WHERE id = 77;
VACUUM ANALYZE pp_time;
SELECT * FROM page_check('SELECT gpu_min(d), gpu_max(d), gpu_min(ts), gpu_topk(ts, 3), gpu_top2(d), count(*) FROM pp_time');
SELECT * FROM page_check('SELECT gpu_max(ts), count(*) FROM pp_time WHERE ts > ''2020-01-05 00:00+00''');
-- (the all-visible count is masked: a concurrent autoanalyze's snapshot may
-- keep VACUUM from marking the pages, which this query does not depend on)
SELECT regexp_replace(line, 'All-Visible Pages: [0-9]+', 'All-Visible Pages: N') AS page_explain
FROM page_explain('SELECT gpu_sum(n), gpu_max(d) FROM pp_time') AS line;
DROP TABLE pp_time;

-- the page path's pins (held in the buffers' headers alone, held_pins.c) are
-- all dropped however a scan ends: an ERROR with jobs in flight, at top
-- level, in a subtransaction, caught by PL/pgSQL, in a parallel worker;
-- then VACUUM FREEZE, which waits for a cleanup lock on every page, ends
SET gpu_reduce.page_path = cpu;
SET gpu_reduce.page_pins = 16;
CREATE EXTENSION pg_buffercache;
ALTER TABLE pp SET (autovacuum_enabled = off);
CREATE FUNCTION pp_pinned() RETURNS bigint LANGUAGE sql AS $$
  SELECT count(*) FROM pg_buffercache
  WHERE relfilenode = pg_relation_filenode('pp') AND pinning_backends > 0 $$;
SELECT pg_relation_size('pp') / current_setting('block_size')::int > 40 AS enough_pages;
SET gpu_reduce.debug_error_page = 30;
SELECT gpu_sum(i8), count(*) FROM pp;
SELECT pp_pinned() AS pinned_after_error;
BEGIN;
SAVEPOINT s;
SELECT gpu_sum(i8), count(*) FROM pp WHERE i4 > 0;
ROLLBACK TO s;
SELECT pp_pinned() AS pinned_in_transaction;
COMMIT;
DO $$ BEGIN PERFORM gpu_sum(i8) FROM pp;
EXCEPTION WHEN OTHERS THEN RAISE NOTICE 'caught: %', SQLERRM; END $$;
SELECT pp_pinned() AS pinned_after_plpgsql;
-- on the GPU host the jobs in flight are the GPU's (the default mode)
RESET gpu_reduce.page_path;
SELECT gpu_sum(i8), count(*) FROM pp;
SELECT pp_pinned() AS pinned_after_gpu_error;
SET gpu_reduce.page_path = cpu;
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
\set VERBOSITY terse
SELECT gpu_sum(i8), count(*) FROM pp;
\set VERBOSITY default
SET max_parallel_workers_per_gather = 0;
SELECT pp_pinned() AS pinned_after_parallel_error;
RESET gpu_reduce.debug_error_page;
SELECT * FROM page_check('SELECT gpu_sum(i8), count(*) FROM pp');
SELECT pp_pinned() AS pinned_after_scan;
VACUUM (FREEZE) pp;
DROP FUNCTION pp_pinned;
DROP EXTENSION pg_buffercache;

-- bad settings (the SQLSTATE only: PostgreSQL 16 words the messages anew)
DO $$ BEGIN SET gpu_reduce.page_path = gpu;
EXCEPTION WHEN OTHERS THEN RAISE NOTICE 'page_path = gpu: %', SQLSTATE; END $$;
DO $$ BEGIN SET gpu_reduce.page_pins = 0;
EXCEPTION WHEN OTHERS THEN RAISE NOTICE 'page_pins = 0: %', SQLSTATE; END $$;
SHOW gpu_reduce.page_path;
SHOW gpu_reduce.page_pins;
RESET gpu_reduce.page_path;
RESET gpu_reduce.page_pins;
DROP TABLE pp, pp_temp;
DROP FUNCTION page_check, page_explain;
