--
-- gpu_reduce.native_aggregates: the GpuReduce node takes PostgreSQL's own
-- sum, avg, min, max, count and variance aggregates.
--   off    only gpu_* aggregates (and count beside them), as before 1.3;
--   on     (the default) also native ones wherever the node's answer is
--          native's: integer and numeric sums, averages and variances,
--          min and max of every supported type;
--   exact  float sums, averages and variances too, whose exact answers may
--          differ from native's in the last bits.
-- Each query's answer is compared with the same query under off (native
-- plan), as text.  A parallel plan is offered where the node can make the
-- native partial states (all but float averages and variances); MIN/MAX
-- that an index answers stay with the index.
--
-- The planner hook is the library's: a session that has not loaded it (by
-- shared_preload_libraries, session_preload_libraries, LOAD, or a gpu_*
-- aggregate) plans native aggregates natively.  This test loads it, as the
-- preload pass of the suite does for every test.
LOAD 'gpu_reduce';
-- (the rowpath pass turns the bulk scan off; this test is about it)
SET gpu_reduce.bulk_scan = on;
CREATE TABLE na (id int PRIMARY KEY, i2 int2, i4 int4, i8 int8, n numeric(12,2),
                 f4 float4, f8 float8, d date, ts timestamptz);
INSERT INTO na
SELECT g, (g % 300 - 150)::int2, (g * 7919 % 100003 - 50000), g::int8 * 1234567891 - 5e13::int8,
       CASE WHEN g % 11 <> 0 THEN ((g * 2654435761::int8) % 10000000 - 3000000) / 100.0 END,
       (g % 501) / 4.0, (g % 1999) / 16.0 + 1e6 + g / 3.0,
       date '2000-01-01' + g % 5000, timestamptz '2001-02-03 04:05:06+00' + g * interval '37 seconds'
FROM generate_series(1, 60000) g;
ANALYZE na;

-- natq(q): q's answer under on and exact against off, as text, and whether
-- the node ran it under each
CREATE FUNCTION natq(q text, OUT on_node boolean, OUT exact_node boolean,
                     OUT on_same boolean, OUT exact_same boolean, OUT answer text)
LANGUAGE plpgsql AS $$
DECLARE
    native text;
    line text;
    plan text;
BEGIN
    SET LOCAL gpu_reduce.native_aggregates = off;
    EXECUTE 'SELECT t::text FROM (' || q || ') t' INTO native;
    SET LOCAL gpu_reduce.native_aggregates = on;
    plan := '';
    FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
        plan := plan || line;
    END LOOP;
    on_node := plan LIKE '%GpuReduce%';
    EXECUTE 'SELECT t::text FROM (' || q || ') t' INTO answer;
    on_same := answer IS NOT DISTINCT FROM native;
    SET LOCAL gpu_reduce.native_aggregates = exact;
    plan := '';
    FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
        plan := plan || line;
    END LOOP;
    exact_node := plan LIKE '%GpuReduce%';
    EXECUTE 'SELECT t::text FROM (' || q || ') t' INTO answer;
    exact_same := answer IS NOT DISTINCT FROM native;
    RESET gpu_reduce.native_aggregates;
END $$;

-- exact answers: taken under on, the same text as native
SELECT * FROM natq('SELECT sum(i2), sum(i4), sum(i8), sum(n) FROM na');
SELECT * FROM natq('SELECT avg(i2), avg(i4), avg(i8), avg(n) FROM na');
SELECT * FROM natq('SELECT min(i4), max(i8), min(n), max(n), min(f8), max(f4) FROM na');
SELECT * FROM natq('SELECT min(d), max(d), min(ts), max(ts) FROM na');
SELECT * FROM natq('SELECT var_samp(i4), stddev_pop(i8), variance(n), stddev(i2), var_pop(n), stddev_samp(i4) FROM na');
SELECT * FROM natq('SELECT count(*), count(n), sum(i4) FROM na WHERE i2 > 0');
-- mixing native and gpu_* aggregates stays in the node
SELECT * FROM natq('SELECT sum(i8), gpu_sum(i8), max(ts), gpu_max(ts), gpu_variance(i4) FROM na');
-- float sums, averages and variances: exact only (the answers may differ from native's)
SELECT * FROM natq('SELECT sum(f8) FROM na');
SELECT on_node, exact_node FROM natq('SELECT avg(f4), var_samp(f8) FROM na');
SELECT (SELECT sum(f8) FROM na) AS native_sum,
       (SELECT gpu_sum(f8) FROM na) AS exact_sum;
SET gpu_reduce.native_aggregates = exact;
SELECT sum(f8) = (SELECT gpu_sum(f8) FROM na) AS exact_is_gpu_sum,
       avg(f4) = (SELECT gpu_avg(f4) FROM na) AS exact_is_gpu_avg,
       stddev(f8) = (SELECT gpu_stddev(f8) FROM na) AS exact_is_gpu_stddev
FROM na;
RESET gpu_reduce.native_aggregates;
-- aggregates the node does not take keep PostgreSQL's plan
SELECT * FROM natq('SELECT sum(i4), string_agg(id::text, '','' ORDER BY id) IS NOT NULL FROM na');
SELECT * FROM natq('SELECT sum(DISTINCT i2) FROM na');
SELECT * FROM natq('SELECT sum(i4) FILTER (WHERE i2 > 0) FROM na');

-- the plans
EXPLAIN (COSTS OFF) SELECT sum(i8), avg(n), max(ts) FROM na;
SET gpu_reduce.native_aggregates = off;
EXPLAIN (COSTS OFF) SELECT sum(i8), avg(n), max(ts) FROM na;
RESET gpu_reduce.native_aggregates;

-- an index answers MIN/MAX: the planner's shortcut stays, and gpu_min and
-- gpu_max of the integer and time types take it too (their sort operators)
-- (the plans' shape, not their text: InitPlan lines differ between majors)
CREATE FUNCTION plan_of(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    line text;
    plan text := '';
BEGIN
    FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
        plan := plan || line || E'\n';
    END LOOP;
    RETURN plan;
END $$;
SELECT q, plan_of(q) LIKE '%Index Only Scan%' AS index_scan, plan_of(q) LIKE '%GpuReduce%' AS node
FROM (VALUES ('SELECT max(id) FROM na'), ('SELECT gpu_max(id) FROM na'),
             ('SELECT gpu_min(id), max(id) FROM na'), ('SELECT gpu_max(id + 0) FROM na'),
             ('SELECT gpu_max(id), gpu_sum(i4) FROM na')) v(q);
SELECT max(id), min(id) FROM na;
SELECT gpu_max(id), gpu_min(id), gpu_max(id + 0) AS no_index FROM na;
SELECT p.proname, pg_get_function_arguments(p.oid) AS args, a.aggsortop::regoperator
FROM pg_aggregate a JOIN pg_proc p ON p.oid = a.aggfnoid
WHERE a.aggsortop <> 0 AND p.proname LIKE 'gpu\_%'
ORDER BY 1, 2;

-- parallel: the node's participants emit native partial states under a
-- Finalize Aggregate: the transition value itself (min, max, sum of
-- int2/int4), avg's int8[] {count, sum}, and PostgreSQL's serialized
-- internal states (sum and avg of int8 and numeric, integer and numeric
-- variances).  A native aggregate whose partial state the node cannot make
-- (float averages and variances, under exact) leaves a query that
-- PostgreSQL runs in parallel to PostgreSQL (the serial node would be
-- slower), and takes it serially only where there are no workers
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
EXPLAIN (COSTS OFF) SELECT sum(i4), avg(i2), min(f8), max(n), count(*) FROM na;
SELECT * FROM natq('SELECT sum(i4), avg(i2), min(f8), max(n), count(*), min(ts) FROM na');
SELECT * FROM natq('SELECT avg(i4), sum(i2), max(i4) FROM na WHERE i2 > 1000');
EXPLAIN (COSTS OFF) SELECT sum(i8), var_samp(i4) FROM na;
SELECT * FROM natq('SELECT sum(i8), var_samp(i4) FROM na');
SELECT * FROM natq('SELECT sum(i8), avg(i8), sum(n), avg(n) FROM na');
SELECT * FROM natq('SELECT var_samp(i2), stddev_pop(i4), variance(i8), stddev(i8), var_pop(n), stddev_samp(n) FROM na');
-- no rows, one row, a filter that leaves some participants none
SELECT * FROM natq('SELECT sum(i8), avg(n), variance(i4), stddev(n) FROM na WHERE i4 > 60000');
SELECT * FROM natq('SELECT sum(i8), avg(n), variance(i4), stddev_pop(n), var_samp(i8) FROM na WHERE i4 = -32336');
SELECT * FROM natq('SELECT sum(i8), avg(n), var_pop(i2), stddev(n) FROM na WHERE i2 = 7');
-- sums past int64 and int128, mixed scales, NaN and infinities
CREATE TABLE nx (id int, i8 int8, n numeric);
INSERT INTO nx
SELECT g, CASE WHEN g % 3 = 0 THEN 9223372036854775807 - g ELSE -g END,
       CASE WHEN g % 4 = 0 THEN (g * 1e30)::numeric + 0.125
            WHEN g % 4 = 1 THEN g / 7.0
            ELSE -g END
FROM generate_series(1, 40000) g;
ANALYZE nx;
EXPLAIN (COSTS OFF) SELECT sum(n), avg(i8) FROM nx;
SELECT * FROM natq('SELECT sum(i8), avg(i8), sum(n), avg(n), var_pop(i8), stddev(n) FROM nx');
INSERT INTO nx VALUES (40001, 0, 'Infinity'), (40002, 0, 'Infinity');
SELECT * FROM natq('SELECT sum(n), avg(n), variance(n), sum(i8) FROM nx');
INSERT INTO nx VALUES (40003, 0, '-Infinity');
SELECT * FROM natq('SELECT sum(n), avg(n), stddev_pop(n) FROM nx');
DELETE FROM nx WHERE id > 40000;
INSERT INTO nx VALUES (40004, 0, 'NaN');
SELECT * FROM natq('SELECT sum(n), avg(n), var_samp(n), avg(i8) FROM nx');
DROP TABLE nx;
-- under exact, float averages and variances (float8[] states) stay serial
SET gpu_reduce.native_aggregates = exact;
EXPLAIN (COSTS OFF) SELECT avg(f8), var_samp(f4) FROM na;
RESET gpu_reduce.native_aggregates;
SET max_parallel_workers_per_gather = 0;
EXPLAIN (COSTS OFF) SELECT sum(i8), var_samp(i4) FROM na;
SELECT * FROM natq('SELECT sum(i8), var_samp(i4) FROM na');
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
RESET max_parallel_workers_per_gather;

-- a bad value is refused
SET gpu_reduce.native_aggregates = sometimes;
SHOW gpu_reduce.native_aggregates;
RESET gpu_reduce.bulk_scan;
DROP TABLE na;
DROP FUNCTION natq(text), plan_of(text);
