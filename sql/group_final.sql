--
-- GROUP BY's final rows from the node (issue 41): in a serial plan, where
-- the groups the planner expects fit gpu_reduce.group_memory, Custom Scan
-- (GpuReduce) returns one row per group with its final aggregate values and
-- evaluates HAVING itself: no Finalize Aggregate above.  Where more groups
-- come than fit, it reads the table again in passes, each keeping the groups
-- whose key hash lies in its share.  Every answer is compared, as text
-- independent of row order, with the query planned without the node
-- (gpu_reduce.bulk_scan = off).
--
LOAD 'gpu_reduce';
SET gpu_reduce.bulk_scan = on;
SET max_parallel_workers_per_gather = 0;

-- the session's temporary schema made first (gfsame makes temporary
-- tables): making it changes the search path, which would plan the
-- prepared statements below again, within the small group_memory
CREATE TEMP TABLE gf_first ();
DROP TABLE gf_first;

-- gfplan(q): 'final' where q's plan has the node and no Finalize Aggregate,
-- 'partial' where it has both, 'native' without the node (q is not run)
CREATE FUNCTION gfplan(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    line text;
    node boolean := false;
    fin boolean := false;
BEGIN
    FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
        node := node OR line LIKE '%GpuReduce%';
        fin := fin OR line LIKE '%Finalize%';
    END LOOP;
    RETURN CASE WHEN NOT node THEN 'native' WHEN fin THEN 'partial' ELSE 'final' END;
END $$;
-- gftext(q, native): q's rows as one text, a line each in byte order, and their count
CREATE FUNCTION gftext(q text, native boolean, OUT answer text, OUT groups bigint)
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM set_config('gpu_reduce.bulk_scan', CASE WHEN native THEN 'off' ELSE 'on' END, true);
    EXECUTE 'SELECT string_agg(gf_row::text, E''\n'' ORDER BY gf_row::text COLLATE "C"), count(*) FROM ('
            || q || ') gf_row' INTO answer, groups;
    PERFORM set_config('gpu_reduce.bulk_scan', 'on', true);
END $$;
-- gfq(q): q's plan (gfplan), whether its answer is native's, the number of
-- rows, and the answer where there are 10 rows or fewer
CREATE FUNCTION gfq(q text, OUT plan text, OUT same boolean, OUT rows bigint, OUT answer text)
LANGUAGE plpgsql AS $$
DECLARE
    native text;
BEGIN
    SELECT g.answer INTO native FROM gftext(q, true) g;
    plan := gfplan(q);
    SELECT g.answer, g.groups INTO answer, rows FROM gftext(q, false) g;
    same := answer IS NOT DISTINCT FROM native;
    IF rows > 10 THEN
        answer := NULL;
    END IF;
END $$;
-- gfexplain(q): q's EXPLAIN (COSTS OFF), a line a row
CREATE FUNCTION gfexplain(q text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
    line text;
BEGIN
    FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
        RETURN NEXT line;
    END LOOP;
END $$;
-- gfsame(stmt, q): whether prepared statement stmt, run with the node,
-- answers as q does without it, and its number of rows
CREATE FUNCTION gfsame(stmt text, q text, OUT same boolean, OUT rows bigint) LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE 'CREATE TEMP TABLE gf_exec AS EXECUTE ' || stmt;
    SELECT a.answer = n.answer, a.groups INTO same, rows
    FROM gftext('SELECT * FROM gf_exec', false) a, gftext(q, true) n;
    DROP TABLE gf_exec;
END $$;
-- gfpasses(q): the node's Group Passes and Group Passes Discarded in q's EXPLAIN ANALYZE
CREATE FUNCTION gfpasses(q text, OUT passes bigint, OUT discarded bigint) LANGUAGE plpgsql AS $$
DECLARE
    plan text;
BEGIN
    EXECUTE 'EXPLAIN (ANALYZE, FORMAT JSON, TIMING OFF, COSTS OFF) ' || q INTO plan;
    passes := (regexp_match(plan, '"Group Passes": (\d+)'))[1]::bigint;
    discarded := coalesce((regexp_match(plan, '"Group Passes Discarded": (\d+)'))[1]::bigint, 0);
END $$;

-- 100 000 groups of 3 rows, of every kind of key and aggregate; NULLs in
-- keys and arguments; -0 and 0 and NaN in a float key; 1.0 and 1.00 in a
-- numeric key
CREATE TABLE gfa (id int4, k int4, k8 int8, kn numeric, kf float8, kt text, kd date,
                  x int8, i int4, f float8, p numeric(12,2));
INSERT INTO gfa
SELECT g, CASE WHEN g % 1001 = 0 THEN NULL ELSE g % 100000 END, g % 7 - 3,
       CASE g % 4 WHEN 0 THEN 1.0 WHEN 1 THEN 1.00 WHEN 2 THEN NULL ELSE (g % 13) / 4.0 END,
       CASE g % 6 WHEN 0 THEN '-0'::float8 WHEN 1 THEN 0 WHEN 2 THEN 'NaN' WHEN 3 THEN NULL
            ELSE (g % 9) / 8.0 END,
       CASE WHEN g % 17 = 0 THEN NULL ELSE 'key ' || g % 50 END, date '2024-01-01' + g % 5,
       g * 1000003::int8 - 100000000000, CASE WHEN g % 23 <> 0 THEN g % 20000 - 10000 END,
       CASE WHEN g % 29 <> 0 THEN ((g::int8 * 7919) % 200000 - 100000) / 64.0 END, (g % 100000) / 100.0
FROM generate_series(1, 300000) g;
ANALYZE gfa;

-- the plan: the node alone, HAVING its Filter
EXPLAIN (COSTS OFF) SELECT k, count(*), sum(x) FROM gfa GROUP BY k HAVING sum(i) > 0;
-- HAVING keeping none, a few and all of the groups
SELECT * FROM gfq('SELECT k, count(*), sum(x), avg(i) FROM gfa GROUP BY k HAVING sum(i) > 100000');
SELECT * FROM gfq('SELECT k, count(*), sum(x), avg(i) FROM gfa GROUP BY k HAVING min(i) > 9990');
SELECT * FROM gfq('SELECT k, count(*), sum(x), avg(i) FROM gfa GROUP BY k HAVING count(*) > 0');
-- HAVING over a key and an aggregate not in the output, expressions over both
SELECT * FROM gfq('SELECT k + 1, sum(p) * 2 FROM gfa GROUP BY k HAVING gpu_max(f) > 1500 AND k % 3 = 0');
-- native aggregates: sum, avg, count, min, max, variance
SELECT * FROM gfq('SELECT k, count(*), count(i), sum(i), sum(x), sum(p), avg(i), avg(x), avg(p),
    min(f), max(p), min(kd), variance(i), stddev(x), var_pop(p) FROM gfa GROUP BY k');
-- gpu_* aggregates; those with exact accumulators (a float sum's, a
-- variance's: some 2 kB a state, as the planner counts them) at 35 groups
SELECT * FROM gfq('SELECT k, gpu_sum(i), gpu_sum(p), gpu_avg(x), gpu_min(p), gpu_max(f), gpu_top2(x),
    gpu_topk(i, 3) FROM gfa GROUP BY k');
SELECT * FROM gfq('SELECT k8, kd, gpu_sum(f), gpu_avg(f), gpu_variance(p), gpu_stddev(f) FROM gfa GROUP BY k8, kd');
-- keys: NULL, -0/0/NaN, 1.0/1.00, text, several (printed normalized: which
-- of the equal values a group shows is not part of the answer)
SELECT * FROM gfq($q$SELECT kf + '0', count(*), sum(x), gpu_sum(f) FROM gfa GROUP BY kf$q$);
SELECT * FROM gfq('SELECT trim_scale(kn), count(*), sum(x), avg(p) FROM gfa GROUP BY kn');
SELECT * FROM gfq('SELECT kt, kd, k % 40, count(*), sum(i), max(p) FROM gfa GROUP BY kt, kd, k % 40 HAVING count(*) > 28');
SELECT * FROM gfq($q$SELECT k8, kf + '0', trim_scale(kn), count(*), gpu_sum(x) FROM gfa GROUP BY k8, kf, kn$q$);
-- an expression over a key reads it from the key, not from the columns
-- under it (k8 / 2's three groups, not k8's seven)
-- (costed as without a GPU: on the GPU host the partial plan costs about as much)
SET gpu_reduce.page_path = cpu;
SELECT * FROM gfq('SELECT k8 / 2 + 1, count(*), sum(x), min(k8) FROM gfa GROUP BY k8 / 2');
RESET gpu_reduce.page_path;
-- every key distinct: a group a row
SELECT * FROM gfq('SELECT id, sum(x), max(p) FROM gfa GROUP BY id HAVING sum(x) % 7 = 0');
-- ORDER BY ... LIMIT above the node
EXPLAIN (COSTS OFF) SELECT k, sum(x) FROM gfa GROUP BY k HAVING count(*) > 2 ORDER BY 2 DESC LIMIT 3;
SELECT * FROM gfq('SELECT k, sum(x) FROM gfa GROUP BY k HAVING count(*) > 2 ORDER BY 2 DESC LIMIT 3');

-- HAVING 'sum(numeric) op constant': the groups whose sum is NULL or does
-- not compare so are skipped before their rows are made, counted as
-- PostgreSQL's filter counts them; a sum past the fast path (NaN, here) and
-- a constant with digits past the sum's scale left to the filter
CREATE TABLE gfh (k int4, v numeric);
INSERT INTO gfh
SELECT g % 500, CASE WHEN g % 500 = 7 THEN NULL WHEN g % 500 = 9 AND g % 3 = 0 THEN 'NaN'
                     WHEN g % 500 = 11 THEN -g ELSE (g % 500) / 4.0 END
FROM generate_series(1, 200000) g;
ANALYZE gfh;
-- gflines(q, pattern): the lines of q's EXPLAIN ANALYZE that match pattern, without actuals
CREATE FUNCTION gflines(q text, pattern text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
    line text;
BEGIN
    FOR line IN EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ' || q LOOP
        CONTINUE WHEN line !~ pattern;
        RETURN NEXT regexp_replace(line, '\(actual.*', '');
    END LOOP;
END $$;
SELECT * FROM gfq('SELECT k, sum(v), count(*) FROM gfh GROUP BY k HAVING sum(v) > 49000');
SELECT * FROM gfq('SELECT k, sum(v) FROM gfh GROUP BY k HAVING sum(v) < 0');
SELECT * FROM gfq('SELECT k, count(*) FROM gfh GROUP BY k HAVING 24950.5 <= sum(v) AND count(*) > 0');
SELECT * FROM gfq('SELECT k, count(*) FROM gfh GROUP BY k HAVING sum(v) = 2500.0 OR sum(v) IS NULL');
SELECT * FROM gfq('SELECT k, count(*) FROM gfh GROUP BY k HAVING sum(v) = 2500.0');
SELECT * FROM gfq('SELECT k, count(*) FROM gfh GROUP BY k HAVING sum(v) >= 49500.000000000000000000001');
SELECT * FROM gfq('SELECT k % 7, count(*) FROM gfh GROUP BY k % 7 HAVING sum(v) <= 1770000');
SELECT gflines('SELECT k, sum(v) FROM gfh GROUP BY k HAVING sum(v) > 24950', 'GpuReduce|HashAggregate|Filter');
SET gpu_reduce.bulk_scan = off;
SELECT gflines('SELECT k, sum(v) FROM gfh GROUP BY k HAVING sum(v) > 24950', 'GpuReduce|HashAggregate|Filter');
SET gpu_reduce.bulk_scan = on;
DROP TABLE gfh;

-- the page path's jobs fold into one table for the scan (the GPU's, here
-- the host's): where every row reached that table, it holds each group
-- whole, and a HAVING check on a sum of numerics of one scale or of
-- integers, or on a count, rejects a group on the table's words, before it
-- is made (counted as PostgreSQL's filter counts it, and apart); sums past
-- 2^32 of the scale, negative ones, NULL ones, 'constant op sum', a
-- constant with digits past the scale (left to the group's made value)
CREATE TABLE gfw (k int4, q numeric(14,2), j int4, t text);
INSERT INTO gfw
SELECT g % 3000, CASE WHEN g % 3000 = 5 THEN NULL WHEN g % 3000 < 40 THEN (g % 3000) * 1000000.25
                      ELSE (g % 97 - 45) / 4.0 END, (g / 3000) % 3,
       CASE WHEN g % 3000 % 500 = 0 THEN 'a longer key ' || (g % 3000) ELSE 'k' || (g % 3000) END
FROM generate_series(1, 150000) g;
ANALYZE gfw;
SET gpu_reduce.page_path = cpu;
SELECT * FROM gfq('SELECT k, sum(q), count(*) FROM gfw GROUP BY k HAVING sum(q) > 27');
SELECT * FROM gfq('SELECT k, sum(q) FROM gfw GROUP BY k HAVING 1950000487.50 <= sum(q)');
SELECT * FROM gfq('SELECT k, sum(q) FROM gfw GROUP BY k HAVING sum(q) < -15');
SELECT * FROM gfq('SELECT k, sum(q) FROM gfw GROUP BY k HAVING sum(q) = -5.25');
SELECT * FROM gfq('SELECT k, sum(q) FROM gfw GROUP BY k HAVING sum(q) >= 24.251');
SELECT * FROM gfq('SELECT k, count(*) FROM gfw GROUP BY k HAVING sum(q) > 1800000000 OR sum(q) IS NULL');
SELECT * FROM gfq('SELECT k % 1000, sum(q), avg(q) FROM gfw GROUP BY k % 1000 HAVING sum(q) > 1900000000');
SELECT gflines('SELECT k, sum(q) FROM gfw GROUP BY k HAVING sum(q) > 27', 'Removed by Filter|Groups');
-- 'count op integer' (of every type): the table's count of rows, or of a
-- column's non-NULL values
SELECT * FROM gfq('SELECT k, count(q) FROM gfw GROUP BY k HAVING count(q) < 50');
SELECT * FROM gfq('SELECT (k * k) % 1009, count(*), sum(q) FROM gfw GROUP BY 1 HAVING 250 < count(*)');
SELECT * FROM gfq('SELECT (k * k) % 1009, count(*) FROM gfw GROUP BY 1 HAVING count(*) = 150::int2 AND sum(q) > 0');
SELECT * FROM gfq('SELECT (k * k) % 1009, count(*) FROM gfw GROUP BY 1 HAVING count(*) >= 5000000000');
SELECT gflines('SELECT (k * k) % 1009, count(*), sum(q) FROM gfw GROUP BY 1 HAVING 250 < count(*)', 'Removed by Filter|Groups');
-- every group rejected: none collected, each counted
SELECT gflines('SELECT (k * k) % 1009, count(*) FROM gfw GROUP BY 1 HAVING count(*) >= 5000000000', 'Removed by Filter|Groups');
-- a sum of smallints or integers against an integer, of bigints against a
-- numeric: the table's integer sum (past 2^32, negative, NULL)
CREATE TABLE gfi (k int4, i int4, b int8, s int2);
INSERT INTO gfi
SELECT g % 2000, CASE WHEN g % 2000 = 3 THEN NULL ELSE (g % 37) - 18 END,
       (g % 2000) * 100000000::int8 * CASE WHEN g % 2000 < 7 THEN -1 ELSE 1 END, g % 100
FROM generate_series(1, 100000) g;
ANALYZE gfi;
SELECT * FROM gfq('SELECT k, sum(i) FROM gfi GROUP BY k HAVING sum(i) > 20');
SELECT * FROM gfq('SELECT k, sum(i), count(i) FROM gfi GROUP BY k HAVING 0 >= sum(i)');
SELECT * FROM gfq('SELECT k, sum(b) FROM gfi GROUP BY k HAVING sum(b) >= 9990000000000');
SELECT * FROM gfq('SELECT k, sum(b) FROM gfi GROUP BY k HAVING sum(b) < -10000000000');
SELECT * FROM gfq('SELECT k, sum(s) FROM gfi GROUP BY k HAVING sum(s) = 2450::int2');
SELECT gflines('SELECT k, sum(i) FROM gfi GROUP BY k HAVING sum(i) > 20', 'Removed by Filter|Groups');
-- a min or max of smallints, integers or bigints (a column's, or computed)
-- against an integer: its word is its value (NULL where the group has none)
SELECT * FROM gfq('SELECT k, min(i + k % 5) FROM gfi GROUP BY k HAVING min(i + k % 5) = -18');
SELECT * FROM gfq('SELECT k, max(i), count(*) FROM gfi GROUP BY k HAVING max(i) < 18 OR max(i) IS NULL');
SELECT * FROM gfq('SELECT k, max(s) FROM gfi GROUP BY k HAVING 98::int2 > max(s)');
SELECT * FROM gfq('SELECT k, min(s) FROM gfi GROUP BY k HAVING min(s) >= 1');
SELECT * FROM gfq('SELECT k, min(b), max(b) FROM gfi GROUP BY k HAVING min(b) <= -300000000 AND max(b) <> 0');
SELECT * FROM gfq('SELECT k / 10, min(k % 13) FROM gfi GROUP BY 1 HAVING min(k % 13) = 3');
SELECT gflines('SELECT k, min(i + k % 5) FROM gfi GROUP BY k HAVING min(i + k % 5) = -18', 'Removed by Filter|Groups');
SELECT gflines('SELECT k / 10, min(k % 13) FROM gfi GROUP BY 1 HAVING min(k % 13) = 3', 'Removed by Filter|Groups');
DROP TABLE gfi;
-- not where a group may have rows elsewhere: rows the host folded (a text
-- key longer than a word is handed back), a tree's tables (each group in
-- both), a hashed relation's value in several image rows (two groups in
-- the table, each of whose sums may be 31 or less where theirs is more)
SELECT * FROM gfq('SELECT t, sum(q), count(*) FROM gfw GROUP BY t HAVING sum(q) > 27');
SELECT gflines('SELECT t, sum(q) FROM gfw GROUP BY t HAVING sum(q) > 27', 'Removed by Filter|Groups');
CREATE TABLE gfwp (k int4, q numeric(14,2), j int4, t text) PARTITION BY LIST (j);
CREATE TABLE gfwp0 PARTITION OF gfwp FOR VALUES IN (0);
CREATE TABLE gfwp1 PARTITION OF gfwp FOR VALUES IN (1, 2);
INSERT INTO gfwp SELECT * FROM gfw;
ANALYZE gfwp;
SELECT * FROM gfq('SELECT k, sum(q), count(*) FROM gfwp GROUP BY k HAVING sum(q) > 27');
SELECT gflines('SELECT k, sum(q) FROM gfwp GROUP BY k HAVING sum(q) > 27', 'Removed by Filter|Groups');
CREATE TABLE gfwl (l_id int4 PRIMARY KEY, l_num numeric);
INSERT INTO gfwl SELECT i, CASE WHEN i % 7 = 0 THEN NULL ELSE (i % 1500) * 1.25 END FROM generate_series(0, 2999) i;
ANALYZE gfwl;
SELECT * FROM gfq('SELECT l_num, sum(q), count(*) FROM gfw JOIN gfwl ON l_id = k WHERE k >= 40 GROUP BY l_num HAVING sum(q) > 31');
SELECT gflines('SELECT l_num, sum(q), count(*) FROM gfw JOIN gfwl ON l_id = k WHERE k >= 40 GROUP BY l_num HAVING sum(q) > 31', 'Removed by Filter|Groups');
RESET gpu_reduce.page_path;
-- by default too: the GPU's table for the scan, or without a GPU the host's
-- (as cpu mode), where HAVING's checks may decide on the table's words
SELECT gflines('SELECT k, sum(q) FROM gfw GROUP BY k HAVING sum(q) > 27', 'Removed by Filter|Groups');
-- but without a GPU not with a float sum, whose running words cost more
-- than the groups the checks spare: the scan's table only where a GPU's is
SET client_min_messages = warning;
SELECT (count(*) FILTER (WHERE g LIKE '%Groups Collected%') > 0) =
       (SELECT count(*) > 0 FROM gpu_reduce_devices() WHERE page_path = 'buffer pool registered') AS table_where_gpu
FROM gflines('SELECT k, sum(q), gpu_sum(q::float8) FROM gfw GROUP BY k HAVING sum(q) > 27', 'Groups') g;
RESET client_min_messages;
SELECT * FROM gfq('SELECT k, sum(q), gpu_sum(q::float8) FROM gfw GROUP BY k HAVING sum(q) > 27');
DROP FUNCTION gflines(text, text);
DROP TABLE gfw, gfwp, gfwl;

-- more groups than gpu_reduce.group_memory holds: the planner's plan kept
-- (PREPARE), run within 256 kB, reads the table in passes; the answer stays
-- native's.  gfs: 12 000 groups of 5 rows.  (No autovacuum on the prepared
-- statements' tables: its VACUUM or ANALYZE updates pg_class, which has
-- them planned again, within 256 kB, where the planner keeps partial
-- states.)
CREATE TABLE gfs (k int4, kf float8, kt text, x int8, i int4, p numeric(12,2)) WITH (autovacuum_enabled = off);
INSERT INTO gfs
SELECT CASE WHEN g % 997 = 0 THEN NULL ELSE g % 12000 END, (g % 12000) / 8.0, 'k' || g % 3,
       g * 1000003::int8, g % 20000 - 10000, (g % 4000) / 100.0
FROM generate_series(1, 60000) g;
ANALYZE gfs;
PREPARE gfp1 AS SELECT k, count(*), sum(x), avg(p), gpu_sum(i), max(p) FROM gfs GROUP BY k HAVING sum(i) % 3 <> 1;
EXPLAIN (COSTS OFF) EXECUTE gfp1;
SET gpu_reduce.group_memory = '256kB';
SELECT passes > 3 AS passes, discarded >= 1 AS discarded FROM gfpasses('EXECUTE gfp1');
SELECT * FROM gfsame('gfp1', 'SELECT k, count(*), sum(x), avg(p), gpu_sum(i), max(p) FROM gfs GROUP BY k HAVING sum(i) % 3 <> 1');
-- a float key, whose groups the page path's jobs keep in their own tables
RESET gpu_reduce.group_memory;
PREPARE gfp2 AS SELECT kf, kt, count(*), sum(p) FROM gfs GROUP BY kf, kt;
EXPLAIN (COSTS OFF) EXECUTE gfp2;
SET gpu_reduce.group_memory = '256kB';
SELECT passes > 3 AS passes FROM gfpasses('EXECUTE gfp2');
SELECT * FROM gfsame('gfp2', 'SELECT kf, kt, count(*), sum(p) FROM gfs GROUP BY kf, kt');
RESET gpu_reduce.group_memory;

-- the planner offers final rows only where the groups it expects fit
SET gpu_reduce.group_memory = '64kB';
SELECT gfplan('SELECT k, count(*), sum(x) FROM gfa GROUP BY k');
SELECT gfplan('SELECT k8, count(*), sum(x) FROM gfa GROUP BY k8');
RESET gpu_reduce.group_memory;
-- a parallel plan keeps partial states (final rows are serial only)
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
EXPLAIN (COSTS OFF) SELECT k8, count(*), sum(x) FROM gfa GROUP BY k8;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
SET max_parallel_workers_per_gather = 0;

-- joins: the hashed relations built once for every pass; a marked (semi)
-- join's rows emitted once a pass, through the same share
CREATE TABLE gfd (dk int4, dname text, dw int4) WITH (autovacuum_enabled = off);
INSERT INTO gfd SELECT i, 'd' || i % 3000, i % 11 FROM generate_series(0, 11999, 2) i;
ANALYZE gfd;
PREPARE gfp3 AS SELECT dname, count(*), sum(x), max(p) FROM gfs JOIN gfd ON dk = k GROUP BY dname HAVING count(*) > 2;
PREPARE gfp4 AS SELECT dk, dname, count(*), sum(dw) FROM gfd WHERE EXISTS (SELECT 1 FROM gfs WHERE k = dk AND i > 0) GROUP BY dk, dname;
SELECT gfplan('EXECUTE gfp3'), gfplan('EXECUTE gfp4');
SET gpu_reduce.group_memory = '256kB';
SELECT passes > 1 AS passes FROM gfpasses('EXECUTE gfp3');
SELECT passes > 1 AS passes FROM gfpasses('EXECUTE gfp4');
SELECT * FROM gfsame('gfp3', 'SELECT dname, count(*), sum(x), max(p) FROM gfs JOIN gfd ON dk = k GROUP BY dname HAVING count(*) > 2');
SELECT * FROM gfsame('gfp4', 'SELECT dk, dname, count(*), sum(dw) FROM gfd WHERE EXISTS (SELECT 1 FROM gfs WHERE k = dk AND i > 0) GROUP BY dk, dname');
RESET gpu_reduce.group_memory;

-- TPC-H Q18's shape: IN (a grouped subquery with HAVING) under a join
CREATE TABLE gfo (o_orderkey int8, o_custkey int4, o_totalprice numeric(12,2), o_orderdate date);
CREATE TABLE gfl (l_orderkey int8, l_quantity numeric(12,2));
CREATE TABLE gfc (c_custkey int4, c_name text);
INSERT INTO gfo SELECT i, i % 997, (i * 7919 % 100000) / 100.0, date '1995-01-01' + i % 1000 FROM generate_series(1, 30000) i;
INSERT INTO gfl SELECT i % 30000 + 1, (i * 31) % 50 + 1 FROM generate_series(1, 120000) i;
INSERT INTO gfc SELECT i, 'Customer#' || i FROM generate_series(0, 996) i;
ANALYZE gfo, gfl, gfc;
SELECT gfplan('SELECT l_orderkey FROM gfl GROUP BY l_orderkey HAVING sum(l_quantity) > 150');
SELECT * FROM gfq('SELECT c_name, c_custkey, o_orderkey, o_orderdate, o_totalprice, sum(l_quantity)
FROM gfc, gfo, gfl
WHERE o_orderkey IN (SELECT l_orderkey FROM gfl GROUP BY l_orderkey HAVING sum(l_quantity) > 150)
  AND c_custkey = o_custkey AND o_orderkey = l_orderkey
GROUP BY c_name, c_custkey, o_orderkey, o_orderdate, o_totalprice
ORDER BY o_totalprice DESC, o_orderdate LIMIT 100');

-- a rescan: the node under a correlated subquery, run again with each
-- parameter, within 256 kB too (several passes each time)
SELECT * FROM gfq('SELECT g, (SELECT count(*) FROM (SELECT k, sum(x) FROM gfa WHERE i < g GROUP BY k HAVING count(*) > 1) s)
FROM generate_series(-9000, 9000, 6000) g');
PREPARE gfp5 AS SELECT g, (SELECT sum(s) FROM (SELECT k, sum(x) s FROM gfs WHERE i < g GROUP BY k HAVING count(*) > 1) s)
FROM generate_series(-9000, 9000, 6000) g;
-- (a subplan's name differs by major: SubPlan 1, from 19 on SubPlan expr_1)
SELECT regexp_replace(line, 'SubPlan \S+', 'SubPlan') AS "QUERY PLAN" FROM gfexplain('EXECUTE gfp5') line;
SET gpu_reduce.group_memory = '256kB';
SELECT * FROM gfsame('gfp5', 'SELECT g, (SELECT sum(s) FROM (SELECT k, sum(x) s FROM gfs WHERE i < g GROUP BY k HAVING count(*) > 1) s)
FROM generate_series(-9000, 9000, 6000) g');
RESET gpu_reduce.group_memory;

-- an error HAVING raises: PostgreSQL's SQLSTATE, the session usable after
CREATE FUNCTION gferror(q text, native boolean) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    PERFORM set_config('gpu_reduce.bulk_scan', CASE WHEN native THEN 'off' ELSE 'on' END, true);
    EXECUTE q;
    RETURN 'no error';
EXCEPTION WHEN OTHERS THEN
    RETURN SQLSTATE || ' ' || SQLERRM;
END $$;
SELECT gfplan('SELECT k, sum(x) FROM gfa GROUP BY k HAVING sum(i) / (count(*) - 3) > 0');
SELECT gferror('SELECT k, sum(x) FROM gfa GROUP BY k HAVING sum(i) / (count(*) - 3) > 0', false) AS node,
       gferror('SELECT k, sum(x) FROM gfa GROUP BY k HAVING sum(i) / (count(*) - 3) > 0', true) AS native;
SELECT gferror('SELECT k, sum(x) FROM gfa GROUP BY k HAVING sum(i)::int2 > 0', false) AS node,
       gferror('SELECT k, sum(x) FROM gfa GROUP BY k HAVING sum(i)::int2 > 0', true) AS native;
SELECT count(*) FROM (SELECT k, sum(x) FROM gfa GROUP BY k HAVING count(*) > 2) s;

-- gpu_reduce.group_memory = -1, the default: PostgreSQL's hash memory
-- (work_mem times hash_mem_multiplier), at least 256MB.  800 000 distinct
-- keys' gpu_sum and gpu_avg states are estimated above 256MB: with the
-- default work_mem the node does not return their final rows; with
-- work_mem 512MB it does; group_memory set to 256MB holds to it whatever
-- work_mem says.  (Final rows' answers are checked above; 800 000 rows as
-- text would cost CI seconds a pass.)
SHOW gpu_reduce.group_memory;
CREATE TABLE gfm AS SELECT g AS k, (g % 1000)::float8 AS x FROM generate_series(1, 800000) g;
ANALYZE gfm;
SELECT gfplan('SELECT k, gpu_sum(x), gpu_avg(x) FROM gfm GROUP BY k') IN ('native', 'partial') AS not_final;
SET work_mem = '512MB';
SELECT gfplan('SELECT k, gpu_sum(x), gpu_avg(x) FROM gfm GROUP BY k');
SET gpu_reduce.group_memory = '256MB';
SELECT gfplan('SELECT k, gpu_sum(x), gpu_avg(x) FROM gfm GROUP BY k') IN ('native', 'partial') AS not_final;
RESET gpu_reduce.group_memory;
RESET work_mem;
DROP TABLE gfm;

DROP TABLE gfa, gfs, gfd, gfo, gfl, gfc;
DROP FUNCTION gfplan(text), gftext(text, boolean), gfq(text), gfsame(text, text), gfpasses(text),
    gferror(text, boolean), gfexplain(text);
