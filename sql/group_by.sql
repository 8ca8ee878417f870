--
-- GROUP BY through the bulk scan: Custom Scan (GpuReduce) emits each group's
-- partial states and PostgreSQL's own Finalize (Hash|Group)Aggregate combines
-- them.  Every answer is compared, as text independent of row order, with the
-- same query planned without the node (gpu_reduce.bulk_scan = off).  Keys
-- whose equal values differ in text (-0 and 0, 1.0 and 1.00, 'ab' and 'ab '
-- as bpchar) are printed normalized: which of them a group shows is not
-- part of the answer.
--
LOAD 'gpu_reduce';
SET gpu_reduce.bulk_scan = on;
SET max_parallel_workers_per_gather = 0;

-- gbnode(q): whether q's plan has the node (q is not run)
CREATE FUNCTION gbnode(q text) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
    line text;
BEGIN
    FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
        IF line LIKE '%GpuReduce%' THEN
            RETURN true;
        END IF;
    END LOOP;
    RETURN false;
END $$;
-- gbtext(q, native): q's rows as one text, a line each in byte order, and
-- their count; native: planned without the node
CREATE FUNCTION gbtext(q text, native boolean, OUT answer text, OUT groups bigint)
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM set_config('gpu_reduce.bulk_scan', CASE WHEN native THEN 'off' ELSE 'on' END, true);
    EXECUTE 'SELECT string_agg(gb_row::text, E''\n'' ORDER BY gb_row::text COLLATE "C"), count(*) FROM ('
            || q || ') gb_row' INTO answer, groups;
    PERFORM set_config('gpu_reduce.bulk_scan', 'on', true);
END $$;
-- gbq(q): whether the node runs q, whether its answer is native's, the
-- number of groups, and the answer where there are 20 groups or fewer
CREATE FUNCTION gbq(q text, OUT node boolean, OUT same boolean, OUT groups bigint, OUT answer text)
LANGUAGE plpgsql AS $$
DECLARE
    native text;
BEGIN
    SELECT g.answer INTO native FROM gbtext(q, true) g;
    node := gbnode(q);
    SELECT g.answer, g.groups INTO answer, groups FROM gbtext(q, false) g;
    same := answer IS NOT DISTINCT FROM native;
    IF groups > 20 THEN
        answer := NULL;
    END IF;
END $$;

-- every key type, with NULLs and the values whose equality is not their
-- bytes': -0 and 0, NaNs of two bit patterns ('NaN' and Infinity - Infinity,
-- negative on x86), numeric 1.0/1.00/1.000 and NaN/Infinity, char(5) padded,
-- bpchar (no length) with and without trailing blanks, text with equal
-- prefixes, '' and long, compressed and TOAST-ed values
CREATE TABLE gbk (id int, i2 int2, i4 int4, i8 int8, b bool, d date, ts timestamp, tz timestamptz,
                  f4 float4, f8 float8, n numeric, t text, v varchar(6), c char(5), cb bpchar,
                  x int8, f float8);
INSERT INTO gbk
SELECT g, CASE WHEN g % 11 <> 0 THEN (g % 7 - 3) * 1000 END,
       (ARRAY[-2147483648, -1, 0, 1, 2147483647, NULL])[1 + g % 6],
       (ARRAY[-9223372036854775808, 0, 4294967296, 9223372036854775807, NULL])[1 + g % 5],
       (ARRAY[true, false, NULL])[1 + g % 3],
       (ARRAY['2000-02-29', '1999-12-31', 'infinity', '-infinity', '4713-01-01 BC', NULL]::date[])[1 + g % 6],
       (ARRAY['2000-01-01', '2000-01-01 00:00:00.000001', 'infinity', '-infinity', NULL]::timestamp[])[1 + g % 5],
       (ARRAY['2000-01-01 00:00+00', '2000-01-01 01:00+01', '2000-01-01 00:00:00.5+00', 'infinity', NULL]::timestamptz[])[1 + g % 5],
       CASE WHEN g % 10 = 9 THEN 'Infinity'::float4 - 'Infinity'::float4
            ELSE (ARRAY['-0', '0', 'NaN', 'Infinity', '-Infinity', '1.5', '-1.5', '1e-45', NULL]::float4[])[1 + g % 10] END,
       CASE WHEN g % 10 = 9 THEN 'Infinity'::float8 - 'Infinity'::float8
            ELSE (ARRAY['-0', '0', 'NaN', 'Infinity', '-Infinity', '1.5', '-1.5', '5e-324', NULL]::float8[])[1 + g % 10] END,
       (ARRAY['1.0', '1.00', '1.000', '1', 'NaN', 'Infinity', '-Infinity', '0', '0.000', '-5.5',
              '123456789012345678901234567890.5', NULL]::numeric[])[1 + g % 12],
       CASE WHEN g % 1000 = 1 THEN repeat('xy', 2000) WHEN g % 1000 = 2 THEN repeat('xy', 2000) || 'z'
            WHEN g % 1000 = 3 THEN (SELECT string_agg(md5(i::text), '') FROM generate_series(1, 100) i)
            WHEN g % 1000 = 4 THEN (SELECT string_agg(md5(i::text), '') FROM generate_series(1, 100) i) || 'z'
            ELSE (ARRAY['', 'a', 'ab', 'ab ', 'abc', 'abd', 'b', 'é', NULL, repeat('x', 200),
                        repeat('x', 200) || 'y'])[1 + g % 11] END,
       (ARRAY['ab', 'ab ', 'AB', '', 'abcdef', NULL])[1 + g % 6],
       (ARRAY['ab', 'ab   ', 'abc', '', '     ', 'é', NULL])[1 + g % 7],
       (ARRAY['ab', 'ab ', 'ab   ', '', ' ', 'abc', NULL]::bpchar[])[1 + g % 7],
       g, (g % 1000 - 300) / 64.0
FROM generate_series(1, 20000) g;
ANALYZE gbk;
SELECT * FROM gbq('SELECT i2, count(*), sum(x), gpu_sum(f) FROM gbk GROUP BY i2');
SELECT * FROM gbq('SELECT i4, count(*), sum(x), gpu_min(f) FROM gbk GROUP BY i4');
SELECT * FROM gbq('SELECT i8, count(*), gpu_sum(x), max(f) FROM gbk GROUP BY i8');
SELECT * FROM gbq('SELECT b, count(*), count(i2), gpu_avg(x) FROM gbk GROUP BY b');
SELECT * FROM gbq('SELECT d, count(*), sum(x), gpu_sum(f) FROM gbk GROUP BY d');
SELECT * FROM gbq('SELECT ts, count(*), sum(x), gpu_sum(f) FROM gbk GROUP BY ts');
SELECT * FROM gbq('SELECT tz, count(*), sum(x), gpu_sum(f) FROM gbk GROUP BY tz');
SELECT * FROM gbq($q$SELECT f4 + '0', count(*), sum(x), gpu_sum(f) FROM gbk GROUP BY f4$q$);
SELECT * FROM gbq($q$SELECT f8 + '0', count(*), sum(x), gpu_sum(f) FROM gbk GROUP BY f8$q$);
SELECT * FROM gbq('SELECT trim_scale(n), count(*), sum(x), gpu_sum(f) FROM gbk GROUP BY n');
SELECT * FROM gbq('SELECT left(t, 6), length(t), count(*), sum(x) FROM gbk GROUP BY t');
SELECT * FROM gbq('SELECT v, count(*), sum(x), gpu_max(f) FROM gbk GROUP BY v');
SELECT * FROM gbq('SELECT c, count(*), sum(x), gpu_max(f) FROM gbk GROUP BY c');
SELECT * FROM gbq('SELECT cb::text, count(*), sum(x), gpu_max(f) FROM gbk GROUP BY cb');
-- several keys (NULLs in each), keys not in the output
SELECT * FROM gbq('SELECT i2, b, count(*), sum(x), gpu_sum(f) FROM gbk GROUP BY i2, b');
SELECT * FROM gbq($q$SELECT f8 + '0', t, count(*), gpu_top2(x) FROM gbk GROUP BY f8, t$q$);
SELECT * FROM gbq('SELECT b, d, c, trim_scale(n), count(*), sum(x), gpu_avg(f) FROM gbk GROUP BY b, d, c, n');
SELECT * FROM gbq('SELECT count(*), gpu_sum(x) FROM gbk GROUP BY i4, tz, v');

-- 1, 16, 1 000, 100 000 and 200 000 (all distinct) groups
CREATE TABLE gbn (id int4, k1 int4, k16 int2, k1000 int4, k100k int8, kd date, ks text, kt text, kb bool,
                  x int8, i int4, s int2, f float8, r float4, p numeric(12,2), q numeric(4,2),
                  d date, ts timestamp, tz timestamptz);
INSERT INTO gbn
SELECT g, 1, g % 16, (g * 7919) % 1000, g % 100000, date '2024-01-01' + g % 7, 's' || g % 5,
       'key ' || g % 50000, g % 3 = 0,
       g * 1000003::int8 - 100000000000, CASE WHEN g % 23 <> 0 THEN g % 20000 - 10000 END, g % 200 - 100,
       CASE WHEN g % 29 <> 0 THEN ((g * 7919) % 200000 - 100000) / 64.0 END, ((g * 31) % 4096 - 2048) / 64.0,
       (g % 100000) / 100.0, (g % 11) / 100.0, date '1990-01-01' + (g * 13) % 20000,
       timestamp '2000-01-01' + (g * 37) % 1000000 * interval '1 second',
       timestamptz '2000-01-01 00:00+00' + g * interval '17 minutes'
FROM generate_series(1, 200000) g;
ANALYZE gbn;
SELECT * FROM gbq('SELECT k1, count(*), sum(x), gpu_sum(f), gpu_avg(i), gpu_max(ts) FROM gbn GROUP BY k1');
SELECT * FROM gbq('SELECT k16, count(*), count(i), sum(i), avg(s), min(p), max(d), gpu_sum(f), gpu_sum(r) FROM gbn GROUP BY k16');
-- every aggregate, gpu_* and native, at 1 000 groups
SELECT * FROM gbq('SELECT k1000, gpu_sum(s), gpu_sum(i), gpu_sum(x), gpu_sum(r), gpu_sum(f), gpu_sum(p),
    gpu_avg(s), gpu_avg(i), gpu_avg(x), gpu_avg(r), gpu_avg(f), gpu_avg(p) FROM gbn GROUP BY k1000');
SELECT * FROM gbq('SELECT k1000, gpu_min(i), gpu_max(x), gpu_min(f), gpu_max(r), gpu_min(p), gpu_max(d), gpu_min(ts),
    gpu_max(tz), gpu_top2(x), gpu_top2(f), gpu_topk(i, 3), gpu_topk(ts, 2), gpu_topk(p, 4) FROM gbn GROUP BY k1000');
SELECT * FROM gbq('SELECT k1000, gpu_variance(i), gpu_var_pop(x), gpu_stddev(f), gpu_stddev_pop(p), gpu_variance(r),
    gpu_var_pop(s) FROM gbn GROUP BY k1000');
SELECT * FROM gbq('SELECT k1000, count(*), count(i), count(f), sum(s), sum(i), sum(x), sum(p), avg(s), avg(i), avg(x),
    avg(p), min(i), max(x), min(f), max(r), min(p), max(d), min(ts), max(tz), var_samp(i), var_pop(x),
    stddev_samp(p), stddev_pop(s), variance(i), stddev(x) FROM gbn GROUP BY k1000');
-- arguments that are expressions (the node's expression program)
SELECT * FROM gbq('SELECT k1000, sum(p * (1 - q)), gpu_sum(x * 2 + i), avg(i - s), gpu_sum(f * 2 + 1), count(i + s),
    max(CASE WHEN kb THEN i ELSE -i END) FROM gbn GROUP BY k1000');
SELECT * FROM gbq('SELECT k1000, count(*) FROM gbn GROUP BY k1000');
SELECT * FROM gbq('SELECT k100k, count(*), sum(x), gpu_sum(f), gpu_max(i) FROM gbn GROUP BY k100k');
SELECT * FROM gbq('SELECT id, count(*), sum(x), gpu_sum(f) FROM gbn GROUP BY id');
-- 4 keys of 4 types; a key that is also aggregated and filtered
SELECT * FROM gbq('SELECT k16, kd, ks, kb, count(*), sum(i), gpu_sum(r), max(tz) FROM gbn GROUP BY k16, kd, ks, kb');
SELECT * FROM gbq('SELECT k16, gpu_sum(k16), max(k16), count(*) FROM gbn WHERE k16 > 12 GROUP BY k16');
-- a group table past its budget: still exact.  The planner, told that
-- nearly every row is emitted then (bulk_plan.c's emitted_rows), prefers
-- PostgreSQL's plan; enable_seqscan = off leaves the node the cheaper one.
-- (Partial states: gpu_reduce.group_memory too small for final rows, whose
-- own passes group_final tests)
SET gpu_reduce.group_memory = '64kB';
SET work_mem = '64kB';
SET hash_mem_multiplier = 1;
SET enable_seqscan = off;
SELECT * FROM gbq('SELECT k100k, count(*), sum(x), gpu_sum(f), gpu_topk(i, 2) FROM gbn GROUP BY k100k');
SELECT * FROM gbq('SELECT kt, kb, count(*), sum(i), gpu_sum(f) FROM gbn GROUP BY kt, kb');
-- gbflushes(q): how many times q's group table was emitted early
CREATE FUNCTION gbflushes(q text) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
    plan text;
BEGIN
    EXECUTE 'EXPLAIN (ANALYZE, FORMAT JSON, TIMING OFF, COSTS OFF) ' || q INTO plan;
    RETURN (regexp_match(plan, '"Group Table Flushes": (\d+)'))[1]::bigint;
END $$;
SELECT gbflushes('SELECT k100k, count(*), sum(x), gpu_sum(f) FROM gbn GROUP BY k100k') > 1 AS flushed;
SET work_mem = '256MB';
SELECT gbflushes('SELECT k100k, count(*), sum(x), gpu_sum(f) FROM gbn GROUP BY k100k') AS flushes;
RESET work_mem;
RESET hash_mem_multiplier;
RESET enable_seqscan;
RESET gpu_reduce.group_memory;

-- Never slower (issue 41): where partial states would outgrow the node's
-- budget, or are of a few rows each, PostgreSQL's plan; final rows from the
-- node (gpu_reduce.group_memory, not work_mem, bounds them) where the
-- groups fit.  gbc's keys come in turn (k = i % 6000), the order in which a
-- table emitted at its budget emits every row as a group of its own.
CREATE TABLE gbc AS
SELECT i AS id, (i % 6000)::int4 AS k, (i % 20000)::int4 AS k3, (i % 50)::int4 AS q,
       ((i * 31337) % 100000 / 100.0)::numeric(10,2) AS p
FROM generate_series(1, 60000) i;
ANALYZE gbc;
SET hash_mem_multiplier = 1;
-- 6 000 groups of 10 rows within 4 MB: the node, final rows
SET work_mem = '4MB';
EXPLAIN (COSTS OFF) SELECT k, sum(q), sum(p) FROM gbc GROUP BY k;
SELECT node, same, groups FROM gbq('SELECT k, sum(q), sum(p) FROM gbc GROUP BY k');
-- within 64 kB: final rows, in gpu_reduce.group_memory (the node 33 ms,
-- PostgreSQL's plan 81 ms, medians of 7 on the 2-core host)
SET work_mem = '64kB';
EXPLAIN (COSTS OFF) SELECT k, sum(q), sum(p) FROM gbc GROUP BY k;
-- partial states would be emitted each time the table fills (as the node
-- forced by enable_seqscan = off shows): PostgreSQL's plan
SET gpu_reduce.group_memory = '64kB';
EXPLAIN (COSTS OFF) SELECT k, sum(q), sum(p) FROM gbc GROUP BY k;
SET enable_seqscan = off;
SELECT gbflushes('SELECT k, sum(q), sum(p) FROM gbc GROUP BY k') > 1 AS flushed;
SELECT node, same, groups FROM gbq('SELECT k, sum(q), sum(p) FROM gbc GROUP BY k');
RESET enable_seqscan;
-- 20 000 groups of 3 rows fit in 64 MB, but as partial states cost the node
-- more than it saves on their rows (bulk_plan.c's GR_BULK_GROUP_COST):
-- PostgreSQL's plan; as final rows, the node (53 ms, PostgreSQL's plan
-- 101 ms, medians of 7)
SET work_mem = '64MB';
EXPLAIN (COSTS OFF) SELECT k3, sum(q), sum(p) FROM gbc GROUP BY k3;
SELECT node, same, groups FROM gbq('SELECT k3, sum(q), sum(p) FROM gbc GROUP BY k3');
RESET gpu_reduce.group_memory;
EXPLAIN (COSTS OFF) SELECT k3, sum(q), sum(p) FROM gbc GROUP BY k3;
SELECT node, same, groups FROM gbq('SELECT k3, sum(q), sum(p) FROM gbc GROUP BY k3');
RESET work_mem;
RESET hash_mem_multiplier;

-- HAVING, ORDER BY and LIMIT run above the node (HAVING on an aggregate
-- that is not in the output)
SELECT * FROM gbq('SELECT k1000, count(*), gpu_sum(f) FROM gbn GROUP BY k1000 HAVING gpu_max(i) > 9990 AND count(i) > 190');
SELECT * FROM gbq('SELECT k1000, gpu_sum(x) AS s, count(*) FROM gbn GROUP BY k1000 ORDER BY s DESC, k1000 LIMIT 5');
SELECT k100k, gpu_sum(f), count(*) FROM gbn GROUP BY k100k ORDER BY gpu_sum(f), k100k LIMIT 3;
-- HAVING that keeps no group, a few, and every one
SELECT node, same, groups FROM gbq('SELECT k1000, count(*), gpu_sum(f) FROM gbn GROUP BY k1000 HAVING count(*) > 200');
SELECT node, same, groups FROM gbq('SELECT k1000, count(*), sum(x) FROM gbn GROUP BY k1000 HAVING gpu_max(f) > 1562');
SELECT node, same, groups FROM gbq('SELECT k1000, count(*), sum(x) FROM gbn GROUP BY k1000 HAVING count(*) > 0');
-- grouped subqueries under a join, and under IN (TPC-H Q18's shape: the
-- orders whose lines sum past a quantity)
SELECT * FROM gbq('SELECT a.k16, a.c, b.s FROM (SELECT k16, count(*) c FROM gbn GROUP BY k16) a
    JOIN (SELECT k16, sum(x) s FROM gbn WHERE kb GROUP BY k16) b USING (k16)');
CREATE TABLE gbo AS SELECT g AS o_orderkey, g % 500 AS o_custkey, ((g * 37) % 100000 / 100.0)::numeric(12,2) AS o_totalprice
FROM generate_series(1, 20000) g;
CREATE TABLE gbl AS SELECT 1 + (g * 7919) % 20000 AS l_orderkey,
    (CASE WHEN (1 + (g * 7919) % 20000) % 89 = 0 THEN 60 ELSE g % 50 END)::numeric(12,2) AS l_quantity
FROM generate_series(1, 120000) g;
ANALYZE gbo, gbl;
-- (where the node goes differs by host: with a GPU its join cost lets it take
-- the join as well, the grouped subquery hashed)
SELECT node, same, groups FROM gbq('SELECT o_custkey, o_orderkey, o_totalprice, sum(l_quantity) FROM gbo JOIN gbl ON o_orderkey = l_orderkey
WHERE o_orderkey IN (SELECT l_orderkey FROM gbl GROUP BY l_orderkey HAVING sum(l_quantity) > 300)
GROUP BY o_custkey, o_orderkey, o_totalprice ORDER BY o_totalprice DESC, o_orderkey LIMIT 100');
DROP TABLE gbo, gbl;
-- an empty table, every row filtered out, WHERE expressions (IN, column
-- against column, OR)
CREATE TABLE gbe (k int4, t text, x int8, f float8);
-- (never analyzed, gbe is guessed at a group a few rows: the node forced)
SET enable_seqscan = off;
SELECT * FROM gbq('SELECT k, t, count(*), sum(x), gpu_sum(f) FROM gbe GROUP BY k, t');
RESET enable_seqscan;
SELECT * FROM gbq('SELECT k16, count(*), gpu_sum(f) FROM gbn WHERE x < -100000000000 GROUP BY k16');
SELECT * FROM gbq('SELECT k16, count(*), gpu_sum(f) FROM gbn WHERE ks IN (''s7'', ''s9'') GROUP BY k16');
SELECT * FROM gbq('SELECT k16, kb, count(*), sum(x), gpu_sum(f) FROM gbn WHERE k16 IN (1, 3, 5) AND i > s GROUP BY k16, kb');
SELECT * FROM gbq($q$SELECT ks, count(*), gpu_avg(p) FROM gbn WHERE (ks <> 's1' AND x % 3 = 0) OR f IS NULL GROUP BY ks$q$);
-- expression keys: the program computes them (date_trunc, EXTRACT's
-- numeric, integer and float arithmetic, numerics past 64 bits, CASE with
-- NULLs), as keys only or beside the same expression aggregated
SELECT * FROM gbq($q$SELECT date_trunc('month', kd::timestamp), extract(dow FROM kd), count(*), gpu_sum(f) FROM gbn GROUP BY 1, 2$q$);
SELECT * FROM gbq($q$SELECT extract(year FROM kd), k16 % 3, count(*), sum(p) FROM gbn GROUP BY 1, 2$q$);
SELECT * FROM gbq($q$SELECT k16 * 2 - 7 AS k, s::float8 / 64, count(*), sum(k16 * 2 - 7) FROM gbn GROUP BY 1, 2$q$);
SELECT * FROM gbq($q$SELECT q * 3, count(*), max(p), sum(q * 3) FROM gbn GROUP BY 1$q$);
SELECT * FROM gbq($q$SELECT q * 1000000000000000000, count(*), sum(q * 1000000000000000000) FROM gbn GROUP BY 1$q$);
-- rows the program hands back (NaN, a product past 128 bits): PostgreSQL
-- computes their key and arguments, and they join their groups
CREATE TABLE gbw AS SELECT g AS id, g % 3 AS k,
    CASE g % 100 WHEN 0 THEN 'NaN' WHEN 1 THEN 999999999999999999999999999999999999.99
         ELSE (g % 7) / 4.0 END::numeric(38,2) AS n
FROM generate_series(1, 50000) g;
ANALYZE gbw;
SELECT * FROM gbq($q$SELECT n * 2, count(*), sum(k), sum(n), gpu_sum(k) FROM gbw GROUP BY 1$q$);
SELECT * FROM gbq($q$SELECT k, n * 2, count(*), max(n * 2) FROM gbw GROUP BY 1, 2$q$);
DROP TABLE gbw;
-- a boolean key (not computed as an output yet): PostgreSQL's plan
SELECT node, same, groups FROM gbq($q$SELECT k16 < 4, count(*) FROM gbn GROUP BY 1$q$);
SELECT * FROM gbq($q$SELECT CASE WHEN k16 < 4 THEN q END, count(*), gpu_sum(r) FROM gbn GROUP BY 1$q$);
-- a key PostgreSQL estimates at every row's value (date_trunc of a column
-- of 200 000 values): the node bounds its groups by the days (hours) the
-- column's statistics span, and takes it
SELECT node, same, groups FROM gbq($q$SELECT date_trunc('day', ts), count(*), gpu_sum(f) FROM gbn GROUP BY 1$q$);
SELECT node, same, groups FROM gbq($q$SELECT date_trunc('hour', ts), count(*), sum(x) FROM gbn GROUP BY 1$q$);

-- date_trunc of a timestamptz, in the session's time zone as the scan
-- runs (the zone's transitions over the column's statistics' years): the
-- local time truncated, then placed back as DetermineTimeZoneOffset places
-- it; to an hour at the instant's own offset.  gbz's instants pass every
-- transition of 2014-2020, and each 10 minutes around 2016's in New York
-- and Lord Howe (a 30-minute shift); Kolkata is +05:30.  A date's
-- date_trunc is a timestamptz's too.  evaluated: rows handed back
CREATE TABLE gbz AS
SELECT g AS id, CASE WHEN g % 97 <> 0 THEN timestamptz '2014-01-01 00:00+00' + (g % 12007) * interval '4 hours 23 minutes 13.25 seconds' END AS t,
       date '2014-01-01' + g % 2500 AS d, g % 100 AS x
FROM generate_series(1, 120000) g
UNION ALL
SELECT 0, c + m * interval '10 minutes', NULL, m % 100
FROM unnest(ARRAY['2016-03-13 07:00+00', '2016-11-06 06:00+00', '2016-04-02 15:00+00', '2016-10-01 15:30+00']::timestamptz[]) c,
     generate_series(-144, 144) m;
ANALYZE gbz;
-- gbzq(zone, q): gbq's node, same and groups in that zone, and the rows the node handed back
CREATE FUNCTION gbzq(zone text, q text, OUT node boolean, OUT same boolean, OUT groups bigint, OUT evaluated bigint)
LANGUAGE plpgsql AS $$
DECLARE
    plan text;
BEGIN
    PERFORM set_config('TimeZone', zone, true);
    SELECT g.node, g.same, g.groups INTO node, same, groups FROM gbq(q) g;
    EXECUTE 'EXPLAIN (ANALYZE, FORMAT JSON, TIMING OFF, COSTS OFF) ' || q INTO plan;
    evaluated := (regexp_match(plan, '"Rows Evaluated by PostgreSQL": (\d+)'))[1]::bigint;
END $$;
SELECT z, f, q.* FROM unnest(ARRAY['America/New_York', 'Australia/Lord_Howe', 'Asia/Kolkata']) z,
    unnest(ARRAY['day', 'week', 'month', 'hour']) f,
    gbzq(z, format($q$SELECT date_trunc(%L, t), count(*), sum(x), max(id) FROM gbz GROUP BY 1$q$, f)) q;
SELECT q.* FROM gbzq('America/New_York', $q$SELECT date_trunc('month', d), count(*), sum(x) FROM gbz GROUP BY 1$q$) q;
SELECT q.* FROM gbzq('Australia/Lord_Howe', $q$SELECT date_trunc('quarter', d::timestamptz), t::date, count(*) FROM gbz GROUP BY 1, 2$q$) q;
-- a generic plan made in one zone and run in another: the zone it runs in
SET plan_cache_mode = force_generic_plan;
SET TimeZone = 'America/New_York';
PREPARE gbzp AS SELECT date_trunc('day', t), count(*), sum(x) FROM gbz GROUP BY 1;
EXPLAIN (COSTS OFF) EXECUTE gbzp;
CREATE TEMP TABLE gbzp_ny AS EXECUTE gbzp;
SELECT a.groups, a.answer = n.answer AS same FROM gbtext('SELECT * FROM gbzp_ny', false) a,
    gbtext('SELECT date_trunc(''day'', t), count(*), sum(x) FROM gbz GROUP BY 1', true) n;
SET TimeZone = 'Australia/Lord_Howe';
CREATE TEMP TABLE gbzp_lh AS EXECUTE gbzp;
SELECT a.groups, a.answer = n.answer AS same FROM gbtext('SELECT * FROM gbzp_lh', false) a,
    gbtext('SELECT date_trunc(''day'', t), count(*), sum(x) FROM gbz GROUP BY 1', true) n;
SELECT count(*) AS days_moved FROM (SELECT * FROM gbzp_ny EXCEPT SELECT * FROM gbzp_lh) e;
DEALLOCATE gbzp;
RESET plan_cache_mode;
RESET TimeZone;

-- a key under a non-deterministic collation (ICU's case-insensitive
-- 'und-u-ks-level2') is not byte equality: the node must leave it to
-- PostgreSQL.  Silent unless the node takes it or an answer differs; where
-- the server has no ICU there is nothing to check.
DO $$
DECLARE
    r record;
BEGIN
    BEGIN
        CREATE COLLATION gb_ci (provider = icu, locale = 'und-u-ks-level2', deterministic = false);
    EXCEPTION WHEN OTHERS THEN
        RETURN;
    END;
    CREATE TABLE gbci (t text COLLATE gb_ci, x int8);
    INSERT INTO gbci SELECT (ARRAY['ab', 'AB', 'Ab', 'b', 'B', NULL])[1 + g % 6], g FROM generate_series(1, 6000) g;
    ANALYZE gbci;
    FOR r IN SELECT * FROM gbq('SELECT lower(t), count(*), gpu_sum(x) FROM gbci GROUP BY t')
             UNION ALL SELECT * FROM gbq('SELECT count(*), gpu_sum(x) FROM gbk GROUP BY v COLLATE gb_ci')
    LOOP
        IF r.node OR NOT r.same THEN
            RAISE EXCEPTION 'non-deterministic collation key: node %, same %', r.node, r.same;
        END IF;
    END LOOP;
    DROP TABLE gbci;
    DROP COLLATION gb_ci;
END $$;

-- float sums per group are exact: each group holds as many 1e16 as -1e16,
-- which a running double sum would swallow its small values into; the
-- reference is the exact numeric sum rounded once
CREATE TABLE gbf AS SELECT g % 50 AS k, CASE g % 3 WHEN 0 THEN 1e16 WHEN 1 THEN -1e16 ELSE (g % 64) / 64.0 END::float8 AS f
FROM generate_series(1, 30000) g;
ANALYZE gbf;
SELECT * FROM gbq('SELECT k, gpu_sum(f), gpu_avg(f), gpu_variance(f) FROM gbf GROUP BY k');
SELECT count(*) AS groups, count(*) FILTER (WHERE s = n) AS exact
FROM (SELECT k, gpu_sum(f) s FROM gbf GROUP BY k) a JOIN (SELECT k, sum(f::numeric)::float8 n FROM gbf GROUP BY k) b USING (k);
SELECT k, gpu_sum(f) FROM gbf WHERE k < 3 GROUP BY k ORDER BY k;

-- partitioned table: one node over the leaves left after pruning, a leaf
-- with its columns in another order
CREATE TABLE gbp (id int4, k int4, t text, x int8) PARTITION BY RANGE (id);
CREATE TABLE gbp_1 PARTITION OF gbp FOR VALUES FROM (MINVALUE) TO (5000);
CREATE TABLE gbp_2 (x int8, pad text, t text, k int4, id int4);
ALTER TABLE gbp_2 DROP COLUMN pad;
ALTER TABLE gbp ATTACH PARTITION gbp_2 FOR VALUES FROM (5000) TO (10000);
CREATE TABLE gbp_3 PARTITION OF gbp FOR VALUES FROM (10000) TO (MAXVALUE);
INSERT INTO gbp SELECT g, g % 37, 'p' || g % 3, g FROM generate_series(1, 15000) g;
ANALYZE gbp;
SELECT * FROM gbq('SELECT k, t, count(*), gpu_sum(x), sum(id) FROM gbp GROUP BY k, t');
EXPLAIN (COSTS OFF) SELECT t, count(*), gpu_sum(x) FROM gbp WHERE id >= 7000 GROUP BY t;
SELECT * FROM gbq('SELECT t, count(*), gpu_sum(x), sum(id) FROM gbp WHERE id >= 7000 GROUP BY t');
SELECT * FROM gbq('SELECT t, count(*), gpu_sum(x) FROM gbp WHERE id < 5000 GROUP BY t');

-- sorted group aggregation above the node (partial states)
SET gpu_reduce.group_memory = '64kB';
SET enable_hashagg = off;
EXPLAIN (COSTS OFF) SELECT k1000, count(*), gpu_sum(f) FROM gbn GROUP BY k1000;
SELECT * FROM gbq('SELECT k1000, count(*), sum(x), gpu_sum(f), gpu_top2(ts) FROM gbn GROUP BY k1000');
SELECT * FROM gbq($q$SELECT f8 + '0', trim_scale(n), c, count(*), sum(x) FROM gbk GROUP BY f8, n, c$q$);
RESET enable_hashagg;
RESET gpu_reduce.group_memory;

-- dead and updated rows: keys moved to other groups, a group deleted, and a
-- transaction's own uncommitted changes
CREATE TABLE gbd AS SELECT id, k16, ks, x, f FROM gbn WHERE id <= 40000;
UPDATE gbd SET k16 = k16 + 100 WHERE id % 10 = 0 AND k16 < 4;
UPDATE gbd SET x = -x, ks = ks || 'u' WHERE id % 7 = 0;
DELETE FROM gbd WHERE id % 13 = 0 OR k16 = 15;
SELECT * FROM gbq('SELECT k16, count(*), sum(x), gpu_sum(f) FROM gbd GROUP BY k16');
SELECT * FROM gbq('SELECT ks, k16, count(*), gpu_max(x) FROM gbd GROUP BY ks, k16');
BEGIN;
DELETE FROM gbd WHERE k16 = 3;
UPDATE gbd SET k16 = 200 WHERE k16 = 2;
SELECT * FROM gbq('SELECT k16, count(*), sum(x), gpu_sum(f) FROM gbd GROUP BY k16');
ROLLBACK;
VACUUM gbd;
SELECT * FROM gbq('SELECT k16, count(*), sum(x), gpu_sum(f) FROM gbd GROUP BY k16');

-- a prepared statement's generic plan, a parameter in WHERE, executed with
-- two values
SET plan_cache_mode = force_generic_plan;
PREPARE gbpq(int4, int2) AS SELECT k16, kb, count(*), sum(x), gpu_sum(f) FROM gbn WHERE i > $1 AND s < $2 GROUP BY k16, kb ORDER BY 1, 2;
EXPLAIN (COSTS OFF) EXECUTE gbpq(9000, 0);
CREATE TEMP TABLE gbpq_1 AS EXECUTE gbpq(9000, 0);
CREATE TEMP TABLE gbpq_2 AS EXECUTE gbpq(-5000, 50);
SELECT a.groups, a.answer = n.answer AS same FROM gbtext('SELECT * FROM gbpq_1', false) a,
    gbtext('SELECT k16, kb, count(*), sum(x), gpu_sum(f) FROM gbn WHERE i > 9000 AND s < 0 GROUP BY k16, kb', true) n;
SELECT a.groups, a.answer = n.answer AS same FROM gbtext('SELECT * FROM gbpq_2', false) a,
    gbtext('SELECT k16, kb, count(*), sum(x), gpu_sum(f) FROM gbn WHERE i > -5000 AND s < 50 GROUP BY k16, kb', true) n;
EXECUTE gbpq(9990, 95);
DEALLOCATE gbpq;
RESET plan_cache_mode;

-- row security: the node sees only the policy's rows, and a leaky function
-- in the query sees no row the policy hides (its NOTICEs: visible ids only)
CREATE TABLE gbr AS SELECT id, k16 AS k, ks, x FROM gbn WHERE id <= 2000;
CREATE ROLE gb_reader;
GRANT SELECT ON gbr TO gb_reader;
ALTER TABLE gbr ENABLE ROW LEVEL SECURITY;
CREATE POLICY gbr_some ON gbr FOR SELECT TO gb_reader USING (id % 3 <> 0 AND ks <> 's4');
CREATE FUNCTION gb_leak(int) RETURNS bool LANGUAGE plpgsql COST 0.0001 AS
  $$BEGIN IF $1 > 1985 THEN RAISE NOTICE 'saw %', $1; END IF; RETURN true; END$$;
SET ROLE gb_reader;
SELECT * FROM gbq('SELECT k, ks, count(*), gpu_sum(x), sum(id) FROM gbr GROUP BY k, ks');
SELECT * FROM gbq('SELECT ks, count(*), gpu_sum(x), max(id) FROM gbr WHERE x > -99000000000 GROUP BY ks');
SELECT gbnode('SELECT ks, count(*), gpu_sum(x) FROM gbr WHERE gb_leak(id) GROUP BY ks') AS node;
SELECT ks, count(*), gpu_sum(x) FROM gbr WHERE gb_leak(id) GROUP BY ks ORDER BY ks;
RESET ROLE;
DROP TABLE gbr;
DROP FUNCTION gb_leak(int);
DROP ROLE gb_reader;

-- parallel plans: Finalize Aggregate -> Gather -> Parallel Custom Scan
-- (partial states: gpu_reduce.group_memory too small for serial final rows)
SET gpu_reduce.group_memory = '64kB';
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
EXPLAIN (COSTS OFF) SELECT k1000, count(*), sum(x), gpu_sum(f), gpu_topk(i, 3) FROM gbn GROUP BY k1000;
SELECT * FROM gbq('SELECT k1000, count(*), sum(x), avg(i), gpu_sum(f), gpu_topk(i, 3), gpu_variance(p) FROM gbn GROUP BY k1000');
SELECT * FROM gbq('SELECT k100k, count(*), sum(i), gpu_sum(f) FROM gbn GROUP BY k100k');
SELECT * FROM gbq('SELECT k16, kd, ks, kb, count(*), gpu_sum(r), max(tz) FROM gbn WHERE i > s GROUP BY k16, kd, ks, kb');
SELECT * FROM gbq('SELECT left(t, 6), length(t), trim_scale(n), count(*), sum(x) FROM gbk GROUP BY t, n');
SELECT * FROM gbq('SELECT k, t, count(*), gpu_sum(x) FROM gbp GROUP BY k, t');
EXPLAIN (COSTS OFF) SELECT date_trunc('day', t), count(*), sum(x) FROM gbz GROUP BY 1;
SELECT q.* FROM gbzq('Australia/Lord_Howe', $q$SELECT date_trunc('day', t), count(*), sum(x) FROM gbz GROUP BY 1$q$) q;
-- each participant's groups outgrowing its budget: PostgreSQL's plan
SET work_mem = '64kB';
SET hash_mem_multiplier = 1;
EXPLAIN (COSTS OFF) SELECT k, sum(q), sum(p) FROM gbc GROUP BY k;
SELECT node, same, groups FROM gbq('SELECT k, sum(q), sum(p) FROM gbc GROUP BY k');
RESET work_mem;
RESET hash_mem_multiplier;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
SET max_parallel_workers_per_gather = 0;
RESET gpu_reduce.group_memory;
-- at the default parallel costs, a node decoding on the CPU where PostgreSQL
-- can scan in parallel counts its pages at one participant's share: its
-- parallel plan, not its serial one (a key longer than a GPU job's key word,
-- so on the CPU on either host; serially the node's own plan)
CREATE TABLE gbw AS SELECT i, 'customer-segment-' || (i % 5) AS seg, (i % 1000)::int4 AS v
FROM generate_series(1, 300000) i;
ALTER TABLE gbw SET (parallel_workers = 2);
ANALYZE gbw;
SET max_parallel_workers_per_gather = 2;
EXPLAIN (COSTS OFF) SELECT seg, count(*), sum(v) FROM gbw WHERE v < 900 GROUP BY seg;
SELECT * FROM gbq('SELECT seg, count(*), sum(v) FROM gbw WHERE v < 900 GROUP BY seg');
SET max_parallel_workers_per_gather = 0;
EXPLAIN (COSTS OFF) SELECT seg, count(*), sum(v) FROM gbw WHERE v < 900 GROUP BY seg;

-- every GROUP BY key fixed by an equality in WHERE (from 16 on PostgreSQL
-- leaves them out of its processed GROUP BY): still a GROUP BY, no group
-- where no row passes (statistics older than a DELETE, so that the node is
-- chosen), the fixed keys the node's own; serially and in parallel
CREATE TABLE gbx (k int4, v int4, w int4) WITH (autovacuum_enabled = off);
INSERT INTO gbx SELECT i % 10, i, i % 3 FROM generate_series(1, 300000) i;
VACUUM ANALYZE gbx;
DELETE FROM gbx WHERE k = 3;
SELECT * FROM gbq('SELECT count(*), sum(v) FROM gbx WHERE k = 3 GROUP BY k');
SELECT * FROM gbq('SELECT k, count(*), sum(v) FROM gbx WHERE k = 3 GROUP BY k');
SELECT * FROM gbq('SELECT k, count(*), sum(v) FROM gbx WHERE k = 4 GROUP BY k');
SELECT * FROM gbq('SELECT k, w, count(*), sum(v) FROM gbx WHERE k = 4 AND w = 1 GROUP BY k, w');
SELECT * FROM gbq('SELECT w, k, count(*), sum(v) FROM gbx WHERE k = 4 GROUP BY k, w');
SET max_parallel_workers_per_gather = 2;
SELECT * FROM gbq('SELECT k, count(*), sum(v) FROM gbx WHERE k = 3 GROUP BY k');
SELECT * FROM gbq('SELECT k, count(*), sum(v) FROM gbx WHERE k = 4 GROUP BY k');
SET max_parallel_workers_per_gather = 0;

RESET gpu_reduce.bulk_scan;
RESET max_parallel_workers_per_gather;
DROP TABLE gbk, gbn, gbe, gbf, gbp, gbd, gbc, gbz, gbw, gbx;
DROP FUNCTION gbzq(text, text), gbq(text), gbtext(text, boolean), gbnode(text);
