--
-- What the differential generator (test/fuzz) found, one class a section:
-- each case's answer through the node against PostgreSQL's own plan
-- (gpu_reduce.bulk_scan = off) as text, and the plan where the class is
-- about the plan.
--   1. constants the planner folds into the program: numeric NaN and
--      infinities in IN lists (once XX000 "function ... returned NULL"),
--      out-of-range and cross-type literals;
--   2. native float sums under native_aggregates = exact: a rounded float
--      partial state must not leave the node for PostgreSQL's combine
--      (once 83 / 106 / 112 for an exact 200);
--   3. GROUP BY keys that WHERE fixes: no Sort without a key above the
--      node (once "invalid attnum: 0", and a crash);
--   4. fewer parallel workers than planned;
--   5. a literal brought to another scale where its value is also used as
--      it is: NULLIF(1.5, n) (once 15.0 for 1.5), a simple CASE over a
--      literal.
--
LOAD 'gpu_reduce';
SET gpu_reduce.bulk_scan = on;
SET max_parallel_workers_per_gather = 0;

-- same(q): q's rows through the node and through PostgreSQL's own plan, as
-- sorted text, and whether the node ran it
CREATE FUNCTION same(q text, OUT node boolean, OUT same boolean, OUT answer text)
LANGUAGE plpgsql AS $$
DECLARE
    native text;
    line text;
BEGIN
    node := false;
    FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
        node := node OR line LIKE '%GpuReduce%';
    END LOOP;
    EXECUTE format('SELECT string_agg(r::text, '' '' ORDER BY r::text) FROM (%s) r', q) INTO answer;
    SET LOCAL gpu_reduce.bulk_scan = off;
    EXECUTE format('SELECT string_agg(r::text, '' '' ORDER BY r::text) FROM (%s) r', q) INTO native;
    SET LOCAL gpu_reduce.bulk_scan = on;
    same := answer IS NOT DISTINCT FROM native;
END $$;

CREATE TABLE ff (n numeric(9,2), nu numeric, i2 int2, i4 int4, i8 int8,
                 f4 float4, f8 float8, a int, t text);
INSERT INTO ff
SELECT CASE WHEN g % 97 = 0 THEN 'NaN' WHEN g % 13 = 0 THEN NULL ELSE (g % 40) / 4.0 END,
       CASE WHEN g % 89 = 0 THEN 'Infinity' WHEN g % 83 = 0 THEN '-Infinity'
            WHEN g % 79 = 0 THEN 'NaN' ELSE (g % 9)::numeric END,
       (g % 300 - 150)::int2, g % 1000, g, (g % 8) / 2.0, (g % 8) / 4.0,
       g % 5, 'k' || g % 3
FROM generate_series(1, 20000) g;
ANALYZE ff;

-- 1. folded constants
SELECT * FROM same($$SELECT gpu_sum(i8) FROM ff WHERE n IN ('NaN', 3)$$);
SELECT * FROM same($$SELECT gpu_sum(i8) FROM ff WHERE n NOT IN ('NaN', 3)$$);
SELECT * FROM same($$SELECT gpu_sum(i8) FROM ff WHERE n = ANY ('{Infinity,3}')$$);
SELECT * FROM same($$SELECT gpu_sum(i8) FROM ff WHERE n = ANY ('{-Infinity,NaN,NULL}')$$);
SELECT * FROM same($$SELECT gpu_sum(i8) FROM ff WHERE i8 IN (1.5, 2, 'NaN')$$);
SELECT * FROM same($$SELECT gpu_sum(i8) FROM ff WHERE n * 2 IN ('NaN', 6)$$);
SELECT * FROM same($$SELECT gpu_sum(CASE WHEN nu IN ('Infinity', 4) THEN i8 END) FROM ff$$);
SELECT * FROM same($$SELECT count(*), sum(i4) FROM ff WHERE nu IN (1, 2.5)$$);
SELECT * FROM same($$SELECT count(*), sum(i4) FROM ff WHERE nu > 'NaN' OR nu < '-Infinity'$$);
SELECT * FROM same($$SELECT count(*), sum(i4) FROM ff WHERE n <= 'Infinity' AND n > '-Infinity'$$);
SELECT * FROM same($$SELECT count(*), sum(i4) FROM ff WHERE i2 < 100000 AND i4 <> 9999999999$$);
SELECT * FROM same($$SELECT count(*), sum(i4) FROM ff WHERE i2 IN (1, 70000, -149) OR i4 = 2147483648$$);
SELECT * FROM same($$SELECT count(*), sum(i8) FROM ff WHERE f4 IN (0.5::float8, 'NaN', 1e300) AND f8 < 'Infinity'$$);
SELECT * FROM same($$SELECT count(*), gpu_sum(f8) FROM ff WHERE f4 = 0.1 OR f4 = 1.5$$);

-- 2. native float sums under exact: whole in the node (serial, no GROUP
-- BY) they are exact; where a group's state would leave the node more
-- than once (grouped, parallel) PostgreSQL's own plan runs them
CREATE TABLE fx AS
SELECT g % 50 k, CASE g % 3 WHEN 0 THEN 1e16 WHEN 1 THEN 1 ELSE -1e16 END::float8 x,
       CASE g % 3 WHEN 0 THEN 1e8 WHEN 1 THEN 1 ELSE -1e8 END::float4 y
FROM generate_series(1, 30000) g;
ANALYZE fx;
SET gpu_reduce.native_aggregates = exact;
SET gpu_reduce.min_gpu_rows = 1;
-- the whole table in the node: the exact sums (10 000 each; PostgreSQL's
-- own plan rounds them away)
SELECT node, answer FROM same($$SELECT sum(x), sum(y), gpu_sum(x), gpu_sum(y) FROM fx$$);
SELECT sum(x) = gpu_sum(x) AS sum_exact, sum(y) = gpu_sum(y) AS sum4_exact FROM fx;
-- grouped, with a group table that flushes: not the node's
SET work_mem = '64kB';
SELECT * FROM same($$SELECT k, sum(x), gpu_sum(x) FROM fx GROUP BY k ORDER BY k LIMIT 3$$);
SELECT * FROM same($$SELECT k, sum(y) FROM fx GROUP BY k$$);
-- gpu_sum's own partial state is exact: still the node's, still 200
SELECT * FROM same($$SELECT k, gpu_sum(x) FROM fx GROUP BY k ORDER BY k LIMIT 3$$);
RESET work_mem;
-- parallel: not the node's either
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
SELECT node FROM same($$SELECT sum(x) FROM fx$$);
SELECT node FROM same($$SELECT k, sum(x) FROM fx GROUP BY k$$);
SELECT * FROM same($$SELECT gpu_sum(x) FROM fx$$);
RESET max_parallel_workers_per_gather;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
RESET gpu_reduce.min_gpu_rows;
RESET gpu_reduce.native_aggregates;

-- 3. GROUP BY keys that WHERE fixes: PostgreSQL empties the group
-- pathkeys; a sorted Finalize Aggregate needs no Sort then (enable_seqscan
-- = off keeps the node the cheaper plan on 15; from 16 on PostgreSQL drops
-- such keys from the grouping and the node declines the query, so plans
-- are not shown: the answers are the test)
SET enable_hashagg = off;
SET enable_seqscan = off;
SELECT same, answer FROM same($$SELECT a, gpu_sum(i8) FROM ff WHERE a = 2 GROUP BY a$$);
SELECT same, answer FROM same($$SELECT a, sum(i4), max(i8) FROM ff WHERE a IN (2) GROUP BY a$$);
SELECT same, answer FROM same($$SELECT t, a, count(*), sum(i8) FROM ff WHERE t = 'k1' AND a = 3 GROUP BY t, a$$);
-- one key fixed, one not: the Sort keeps the other
SELECT same, answer FROM same($$SELECT a, i2 % 3, sum(i8) FROM ff WHERE a = 4 GROUP BY a, i2 % 3$$);
SELECT same, answer FROM same($$SELECT o.x, s.* FROM (VALUES (1), (3)) o(x),
                     LATERAL (SELECT a, gpu_sum(i8), count(*) FROM ff WHERE a = o.x GROUP BY a) s$$);
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
SELECT same, answer FROM same($$SELECT a, sum(i4), gpu_max(i8) FROM ff WHERE a = 2 GROUP BY a$$);
SET work_mem = '64kB';
SET gpu_reduce.page_path = off;
SET gpu_reduce.batch_rows = 65536;
SELECT same, answer FROM same($$SELECT a, sum(i4), gpu_max(i8 * 2) FROM ff WHERE a = 2 GROUP BY a$$);
RESET gpu_reduce.batch_rows;
RESET gpu_reduce.page_path;
RESET work_mem;
RESET enable_seqscan;
RESET enable_hashagg;

-- 4. fewer workers than planned, and none: the leader's share is the rest
SET max_parallel_workers_per_gather = 4;
SET max_parallel_workers = 1;
SELECT * FROM same($$SELECT a, count(*), sum(i4), gpu_sum(f8) FROM ff GROUP BY a$$);
SELECT * FROM same($$SELECT count(*), sum(i8), gpu_min(f4) FROM ff WHERE i2 > 0$$);
SET max_parallel_workers = 0;
SELECT * FROM same($$SELECT a, count(*), sum(i4), gpu_sum(f8) FROM ff GROUP BY a$$);
SELECT * FROM same($$SELECT count(*), sum(i8), gpu_min(f4) FROM ff WHERE i2 > 0$$);
RESET max_parallel_workers;
RESET max_parallel_workers_per_gather;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;

-- 5. a literal at two scales
CREATE TABLE fn (n numeric(38,2), m numeric(30,10), i int);
INSERT INTO fn SELECT (g % 100) / 7.0, (g % 50) / 4.0, g % 3 FROM generate_series(1, 10000) g;
ANALYZE fn;
SELECT * FROM same($$SELECT sum(NULLIF(1.5, n)), gpu_max(NULLIF(1.5, n)), min(NULLIF(100, n)) FROM fn$$);
SELECT * FROM same($$SELECT count(*) FROM fn WHERE NULLIF(1.5, n) > 10$$);
SELECT * FROM same($$SELECT sum(NULLIF(1.5, n) + n), gpu_topk(NULLIF(1.5, m), 3)::text FROM fn$$);
SELECT * FROM same($$SELECT i, sum(CASE 2.5 WHEN m THEN 1 WHEN n THEN 2 ELSE 3 END),
                            sum(CASE 2.5 WHEN m THEN 2.5 ELSE 0 END) FROM fn GROUP BY i$$);

DROP TABLE ff, fx, fn;
DROP FUNCTION same(text);
