--
-- Casts, comparisons across the time types and parameters in the expression
-- program, compared with PostgreSQL's own answers and errors.  Each query
-- runs without the node (gpu_reduce.bulk_scan = off), through the node, and
-- through the node's page path (gpu_reduce.page_path = cpu, the kernel's
-- code run by the backend); an error is compared by its SQLSTATE and
-- message.  A row the program cannot be certain of is handed back to
-- PostgreSQL, which raises its error or gives its answer.
--
LOAD 'gpu_reduce';
SET gpu_reduce.bulk_scan = on;
SET max_parallel_workers_per_gather = 0;

-- a query's answer, or its error, as text
CREATE FUNCTION cx_run(q text, bulk text, page text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    r text;
BEGIN
    PERFORM set_config('gpu_reduce.bulk_scan', bulk, true);
    PERFORM set_config('gpu_reduce.page_path', page, true);
    EXECUTE 'SELECT t::text FROM (' || q || ') t' INTO r;
    RETURN r;
EXCEPTION WHEN OTHERS THEN
    RETURN 'ERROR ' || SQLSTATE || ' ' || SQLERRM;
END $$;

-- cxq(q): whether the node takes q, whether its answers (page_path on: the
-- GPU's page path on a GPU host, else the CPU decoder; and the page path run
-- by the backend) are native's, and native's answer
CREATE FUNCTION cxq(q text, OUT node boolean, OUT same boolean, OUT answer text)
LANGUAGE plpgsql AS $$
DECLARE
    line text;
BEGIN
    node := false;
    FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
        node := node OR line LIKE '%GpuReduce%';
    END LOOP;
    answer := cx_run(q, 'off', 'on');
    same := cx_run(q, 'on', 'on') IS NOT DISTINCT FROM answer AND
            cx_run(q, 'on', 'cpu') IS NOT DISTINCT FROM answer;
END $$;

-- cx_each(expr, n): expr of each edge row k = 1 .. n alone (max over the
-- row and the NULL filler), native's answers in k's order, and whether the
-- node took every query and agreed on every answer
CREATE FUNCTION cx_each(expr text, n int, OUT node boolean, OUT same boolean, OUT answers text)
LANGUAGE plpgsql AS $$
DECLARE
    r record;
BEGIN
    node := true;
    same := true;
    answers := '';
    FOR k IN 1 .. n LOOP
        r := cxq(format('SELECT max(%s) FROM cx WHERE k IN (0, %s)', expr, k));
        node := node AND r.node;
        same := same AND r.same;
        answers := answers || k || ': ' || coalesce(r.answer, 'NULL') || E'\n';
    END LOOP;
END $$;

-- the plan's node lines
CREATE FUNCTION cx_plan(q text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
    line text;
BEGIN
    FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
        IF line ~ 'Gather|GpuReduce|Aggregate' THEN
            RETURN NEXT trim(line);
        END IF;
    END LOOP;
END $$;

-- A prepared statement's generic plan, made once, keeps the node whatever
-- gpu_reduce.bulk_scan says later: native's answer comes from the same
-- query with the values written in.  px_prepare(name, types, q) prepares q,
-- whose parameters are written %1$s and %2$s; px_run(name, q, a, b) runs it
-- with a and b (SQL literals) through the node as cxq does, and gives
-- whether both runs answered as native does, and native's answer
CREATE FUNCTION px_prepare(name text, types text, q text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE format('PREPARE %s(%s) AS ', name, types) || format(q, '$1', '$2');
END $$;
CREATE FUNCTION px_run(name text, q text, a text, b text, OUT same boolean, OUT answer text)
LANGUAGE plpgsql AS $$
DECLARE
    r record;
    node text;
    page text;
BEGIN
    answer := cx_run(format(q, a, b), 'off', 'on');
    PERFORM set_config('gpu_reduce.bulk_scan', 'on', true);
    PERFORM set_config('gpu_reduce.page_path', 'on', true);
    EXECUTE format('EXECUTE %s(%s, %s)', name, a, b) INTO r;
    node := r::text;
    PERFORM set_config('gpu_reduce.page_path', 'cpu', true);
    EXECUTE format('EXECUTE %s(%s, %s)', name, a, b) INTO r;
    page := r::text;
    same := node = answer AND page = answer;
END $$;

-- edge values, one row per k, and filler rows (k = 0, all NULL) that make
-- the table worth the node's scan
CREATE TABLE cx (k int, f8 float8, f4 float4, n2 numeric(20,2), n7 numeric(30,7),
                 n0 numeric(38,0), i4 int4, t timestamp);
INSERT INTO cx (k) SELECT 0 FROM generate_series(1, 5000);
INSERT INTO cx (k, f8, f4, n2, n7, n0, i4, t) VALUES
 (1, 0.5, 0.5, 0.50, 0.0050000, 9223372036854775807, 9999, '2000-01-01 00:00'),
 (2, 1.5, 1.5, 1.49, -0.0050000, 9223372036854775808, 10000, '1999-12-31 23:59:59.999999'),
 (3, 2.5, 2.5, 1.50, 0.0049999, -9223372036854775808, -10000, 'infinity'),
 (4, -0.5, -0.5, 2.50, 0.1000000, -9223372036854775809, -9999, '-infinity'),
 (5, -2.5, -2.5, -0.50, 0.3333333, 9007199254740993, 0, '4713-01-01 00:00 BC'),
 (6, '-0', '-0', -2.49, 12345678.9012345, 9007199254740992, 2147483647, '1969-12-31 12:00'),
 (7, 'NaN', 'NaN', -2.50, 900719925.4740993, 10000000000000000000000, -2147483648, '294276-12-31 23:59:59.999999'),
 (8, 'Infinity', 'Infinity', 0.00, 1677721.7000000, 16777217, NULL, NULL),
 (9, '-Infinity', '-Infinity', 'NaN', 99999999.9940000, 16777216, NULL, NULL),
 (10, 32766.5, 32766.5, 32767.49, 99999999.9950000, 1, NULL, NULL),
 (11, 32767.5, 32767.5, 32767.50, -99999999.9950000, -1, NULL, NULL),
 (12, -32768.5, -32768.5, -32768.49, 9223372036854775807.4999999, 0, NULL, NULL),
 (13, -32769.5, -32769.5, -32768.50, 9223372036854775807.5000000, NULL, NULL, NULL),
 (14, 2147483647.4, 2147483520, 2147483647.49, -9223372036854775808.4999999, NULL, NULL, NULL),
 (15, 2147483647.5, 2147483648, 2147483647.50, -9223372036854775808.5000000, NULL, NULL, NULL),
 (16, -2147483648.5, -2147483648, -2147483648.49, 'NaN', NULL, NULL, NULL),
 (17, -2147483649, -2147483904, -2147483648.50, NULL, NULL, NULL, NULL),
 (18, 9223372036854775807, 9223372036854775807, 999999999999999999.99, NULL, NULL, NULL, NULL),
 (19, -9223372036854775808, -9223372036854775808, -999999999999999999.99, NULL, NULL, NULL, NULL),
 (20, 9223372036854774784, 9223371487098961920, 123456.78, NULL, NULL, NULL, NULL),
 (21, 1e-300, 1e-30, 0.01, NULL, NULL, NULL, NULL),
 (22, 4503599627370497, 8388609, NULL, NULL, NULL, NULL, NULL),
 (23, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
ANALYZE cx;

-- float to integer: rint (half to even, -0 to 0); NaN, the infinities and
-- values out of range raise 22003
SELECT * FROM cx_each('f8::int2', 23);
SELECT * FROM cx_each('f8::int4', 23);
SELECT * FROM cx_each('f8::int8', 23);
SELECT * FROM cx_each('f4::int2', 23);
SELECT * FROM cx_each('f4::int4', 23);
SELECT * FROM cx_each('f4::int8', 23);
-- numeric to integer: half away from zero; NaN and values out of range raise
SELECT * FROM cx_each('n2::int2', 22);
SELECT * FROM cx_each('n2::int4', 22);
SELECT * FROM cx_each('n2::int8', 22);
SELECT * FROM cx_each('n7::int8', 17);
SELECT * FROM cx_each('n0::int8', 13);
-- numeric to float: where a value is an integer exact in the float over a
-- power of ten exact in it, one division, else handed back (float8in's
-- rounding either way)
SELECT * FROM cx_each('n7::float8', 17);
SELECT * FROM cx_each('n0::float8', 13);
SELECT * FROM cx_each('n7::float4', 17);
SELECT * FROM cx_each('n0::float4', 13);
-- numeric to a declared precision and scale: rounded half away from zero,
-- 22003 where it has too many digits; integers too
SELECT * FROM cx_each('n7::numeric(10,2)', 17);
SELECT * FROM cx_each('n2::numeric(6,3)', 22);
SELECT * FROM cx_each('n7::numeric(3,5)', 17);
SELECT * FROM cx_each('i4::numeric(6,2)', 8);
SELECT * FROM cx_each('i4::numeric(20,10)', 8);
-- timestamp to date: the day it falls in, the infinities kept
SELECT * FROM cx_each('t::date', 8);

-- many values: sums and conditions over casts
CREATE TABLE cy (a int4, f8 float8, f4 float4, p numeric(15,2), q numeric(12,4), t timestamp);
INSERT INTO cy
SELECT CASE WHEN g % 13 <> 0 THEN g % 1000 - 500 END, g / 8.0 - 1000, (g % 997) / 4.0 - 100,
       (g % 10000) / 100.0 - 40, CASE WHEN g % 19 <> 0 THEN (g % 20001) / 1000.0 - 10 END,
       timestamp '1994-01-01' + g * interval '17 minutes 3 seconds'
FROM generate_series(1, 30000) g;
ANALYZE cy;
SELECT * FROM cxq('SELECT sum(f8::int4), sum(f4::int2), sum(f8::int8), sum(p::int4), sum(q::int8), sum(p::int2) FROM cy');
SELECT * FROM cxq('SELECT gpu_sum(p::float8), gpu_sum(q::float8), gpu_sum(p::float4), max(q::float4), sum(p::numeric(14,1)), sum(q::numeric(12,2)) FROM cy');
SELECT * FROM cxq('SELECT sum(a::numeric(8,2) * q), avg((p * q)::numeric(20,3)), sum((p * 2)::int8), min(t::date) FROM cy');
SELECT * FROM cxq('SELECT count(*), sum(a) FROM cy WHERE f8::int4 % 3 = 0 AND p::int4 > q::int4 AND t::date < date ''1994-04-01''');
SELECT * FROM cxq('SELECT count(*), sum(a) FROM cy WHERE f4 > p AND q::float8 < f8');
-- rows handed back only where the program is not certain: none of cy's
-- (through the page path), and of cx's n0 as float8 the two past 2^53
-- that are not a smaller integer times a power of ten
CREATE FUNCTION cx_counted(q text, page text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
    line text;
BEGIN
    PERFORM set_config('gpu_reduce.page_path', page, true);
    FOR line IN EXECUTE 'EXPLAIN (ANALYZE, VERBOSE, COSTS OFF, TIMING OFF, SUMMARY OFF, BUFFERS OFF) ' || q LOOP
        IF line ~ 'Page Path:|Rows Aggregated|Rows Evaluated' THEN
            RETURN NEXT trim(line);
        END IF;
    END LOOP;
END $$;
SELECT cx_counted('SELECT sum(f8::int4), sum(p::int4), count(*) FROM cy WHERE f4::int8 <> 3', 'cpu');
SELECT cx_counted('SELECT max(n0::float8) FROM cx WHERE k IN (0, 5, 6, 7, 10)', 'off');

DROP TABLE cy;

-- comparisons across date, timestamp and timestamptz with a constant side:
-- the constant is bound at the scan's start, in the session's time zone, as
-- the range of the column's values that compare equal to it (a row within a
-- range the node is not sure of goes to PostgreSQL).  Rows every 7 minutes
-- (and days) around DST transitions and a skipped day, in zones given by
-- POSIX rules (no zone file needed): US rules, a transition at midnight, the
-- southern hemisphere, a day skipped and one repeated (-10 to +14 hours on
-- the last Friday of December, as Pacific/Apia skipped 30 December 2011),
-- offsets of 100 and 60 hours; each constant against each column, all six
-- operators
CREATE TABLE ct (d date, t timestamp, z timestamptz);
INSERT INTO ct
SELECT a::date + k / 20, a + k * interval '7 minutes', (a + k * interval '7 minutes') AT TIME ZONE 'UTC'
FROM unnest(ARRAY[timestamp '2000-01-01 00:00', '2011-12-30 00:00', '2020-02-16 00:00',
                  '2020-03-08 02:00', '2020-04-05 03:00', '2020-10-04 02:00', '2020-10-18 00:00',
                  '2020-11-01 01:00']) a,
     generate_series(-220, 220) k;
INSERT INTO ct VALUES ('-infinity', '-infinity', '-infinity'), ('infinity', 'infinity', 'infinity'),
    ('4714-11-24 BC', '4714-11-24 00:00 BC', '4714-11-24 00:00+00 BC'),
    ('5874897-12-31', '294276-12-31 23:59:59.999999', '294276-12-31 23:59:59.999999+00'),
    (NULL, NULL, NULL);
ANALYZE ct;
CREATE TABLE ct_const (typ text, v text);
INSERT INTO ct_const
SELECT 'date', unnest(ARRAY['2011-12-30', '2011-12-31', '2020-02-16', '2020-03-08', '2020-10-18',
                            '2020-11-01', 'infinity', '-infinity', '4714-11-24 BC', '5874897-12-31'])
UNION ALL
SELECT 'timestamp', unnest(ARRAY['2020-03-08 02:30', '2020-03-08 03:00', '2020-11-01 01:30',
                                 '2020-10-18 00:00', '2020-02-15 23:30', '2011-12-30 12:00',
                                 'infinity', '-infinity', '294276-12-31 23:59:59.999999',
                                 '4714-11-24 00:00 BC'])
UNION ALL
SELECT 'timestamptz', unnest(ARRAY['2020-03-08 07:30+00', '2020-03-08 07:00+00', '2020-11-01 05:30+00',
                                   '2020-11-01 06:30+00', '2020-10-18 03:00+00', '2020-02-16 02:30+00',
                                   '2020-10-03 16:30+00', '2011-12-30 10:00+00', 'infinity',
                                   '-infinity', '294276-12-31 23:59:59.999999+00',
                                   '4714-11-24 00:00+00 BC']);
CREATE TABLE ct_result (zone text, q text, node boolean, same boolean, answer text);
DO $$
DECLARE
    c record;
    col text;
    k text;
    q text;
    zone text;
    r record;
BEGIN
    FOREACH col IN ARRAY ARRAY['d', 't', 'z'] LOOP
        FOR c IN SELECT * FROM ct_const ORDER BY typ, v LOOP
            CONTINUE WHEN (col = 'd' AND c.typ = 'date') OR (col = 't' AND c.typ = 'timestamp') OR
                          (col = 'z' AND c.typ = 'timestamptz');
            k := format('%L::%s', c.v, c.typ);
            -- the six operators in the program, and the page loop's WHERE
            -- (constant on the left)
            FOREACH q IN ARRAY ARRAY[
                format('SELECT count(CASE WHEN %1$s = %2$s THEN 1 END), count(CASE WHEN %1$s <> %2$s THEN 1 END), '
                       'count(CASE WHEN %1$s < %2$s THEN 1 END), count(CASE WHEN %1$s <= %2$s THEN 1 END), '
                       'count(CASE WHEN %1$s > %2$s THEN 1 END), count(CASE WHEN %1$s >= %2$s THEN 1 END) FROM ct', col, k),
                format('SELECT count(*) FROM ct WHERE %2$s >= %1$s', col, k),
                format('SELECT count(*) FROM ct WHERE %2$s < %1$s AND %1$s <> %2$s', col, k)] LOOP
                FOREACH zone IN ARRAY ARRAY['UTC', 'EST5EDT,M3.2.0,M11.1.0', '<-03>3<-02>,M10.3.0/0,M2.3.0/0',
                                            'AEST-10AEDT,M10.1.0,M4.1.0/3', '<-10>10<+14>-14,M12.5.5/0,M4.1.0/0',
                                            'AAA+100BBB-60,M3.2.0,M11.1.0'] LOOP
                    PERFORM set_config('TimeZone', zone, false);
                    r := cxq(q);
                    INSERT INTO ct_result VALUES (zone, q, r.node, r.same, r.answer);
                END LOOP;
            END LOOP;
        END LOOP;
    END LOOP;
END $$;
RESET TimeZone;
SELECT zone, count(*) AS queries, count(*) FILTER (WHERE node) AS through_node,
       count(*) FILTER (WHERE same) AS same, count(DISTINCT answer) > 50 AS varied
FROM ct_result GROUP BY zone ORDER BY zone;
SELECT zone, q, answer FROM ct_result WHERE NOT same OR NOT node ORDER BY zone, q LIMIT 5;
-- a few answers to read: dates up to 10:00 UTC on 30 December 2011 (where
-- the clock goes from the 29th to the 31st, both days begin then), local
-- times up to 07:30 UTC on 8 March 2020 (in EST5EDT, 02:30 and 03:30 both
-- convert to it), instants up to midnight of that day in each zone
SELECT zone, answer FROM ct_result
WHERE q IN ('SELECT count(*) FROM ct WHERE ''2011-12-30 10:00+00''::timestamptz >= d',
            'SELECT count(*) FROM ct WHERE ''2020-03-08''::date >= z',
            'SELECT count(*) FROM ct WHERE ''2020-03-08 07:30+00''::timestamptz >= t')
ORDER BY q, zone;
-- rows handed back: those within the hour two local times reach (EST5EDT's
-- 02:30 and 03:30 both convert to 07:30 UTC), a week's around the constant
-- in the zone whose offsets change by 160 hours, none otherwise
SET TimeZone = 'EST5EDT,M3.2.0,M11.1.0';
SELECT cx_counted($q$SELECT count(*) FROM ct WHERE t < '2020-03-08 07:30+00'::timestamptz$q$, 'cpu');
SELECT cx_counted($q$SELECT count(*) FROM ct WHERE t < '2020-03-08 06:30+00'::timestamptz AND d <= '2020-03-08 06:30+00'::timestamptz$q$, 'cpu');
SET TimeZone = 'AAA+100BBB-60,M3.2.0,M11.1.0';
SELECT cx_counted($q$SELECT count(*) FROM ct WHERE t < '2020-03-10 07:30+00'::timestamptz$q$, 'off');
-- the zone is the one when the scan starts: a prepared statement's
-- generic plan, a parameter, and stable expressions
SET plan_cache_mode = force_generic_plan;
\set ctq 'SELECT count(*), count(CASE WHEN t > %1$s THEN 1 END), count(CASE WHEN z >= %2$s THEN 1 END) FROM ct WHERE d <= %1$s'
SELECT px_prepare('ctp', 'timestamptz, date', :'ctq');
EXPLAIN (COSTS OFF) EXECUTE ctp('2020-03-08 07:30+00', '2020-03-08');
SET TimeZone = 'UTC';
SELECT * FROM px_run('ctp', :'ctq', '''2020-03-08 07:30+00''::timestamptz', '''2020-03-08''::date');
SET TimeZone = 'EST5EDT,M3.2.0,M11.1.0';
SELECT * FROM px_run('ctp', :'ctq', '''2020-03-08 07:30+00''::timestamptz', '''2020-03-08''::date');
SELECT * FROM px_run('ctp', :'ctq', 'NULL::timestamptz', '''2020-03-08''::date');
DEALLOCATE ctp;
RESET plan_cache_mode;
SELECT node, same FROM cxq($q$SELECT count(*), count(CASE WHEN t <= now() THEN 1 END) FROM ct WHERE d < now() + interval '1 day' AND z > CURRENT_DATE - 7000$q$);
-- parallel workers bind the constants in the session's zone too
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
SELECT node, same, answer, (SELECT string_agg(l, ' ') FROM cx_plan(q) l) AS plan
FROM (SELECT $q$SELECT count(*), count(CASE WHEN t >= '2020-03-08 07:30+00'::timestamptz THEN 1 END) FROM ct WHERE d < '2020-03-08 07:30+00'::timestamptz OR z >= '2020-11-01'::date$q$ AS q) x,
     cxq(q);
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
SET max_parallel_workers_per_gather = 0;
-- a timestamptz against another time type column by column keeps PostgreSQL's plan
SELECT node FROM cxq('SELECT count(*) FROM ct WHERE z < d');
SELECT node FROM cxq('SELECT count(*) FROM ct WHERE t >= z');
SELECT node, same FROM cxq('SELECT count(*) FROM ct WHERE t >= d');
RESET TimeZone;
DROP TABLE ct, ct_const, ct_result;

-- numeric parameters, whose scale is known only when the scan starts: in a
-- generic plan a comparison with one binds it as its place among the other
-- side's values (a column's scale, an integer's, a product's), for any
-- scale, NULL, NaN, the infinities and values past 128 bits
CREATE TABLE cn (a int, p numeric(12,2), q numeric(10,4));
INSERT INTO cn
SELECT g % 100 - 50, (g % 2000) / 100.0 - 5, CASE WHEN g % 7 <> 0 THEN (g % 3000) / 1000.0 - 1 END
FROM generate_series(1, 20000) g;
ANALYZE cn;
SET plan_cache_mode = force_generic_plan;
\set cnq 'SELECT count(*), sum(q), count(CASE WHEN p > %1$s THEN 1 END), count(CASE WHEN %1$s >= q THEN 1 END), count(CASE WHEN p = %1$s THEN 1 END), count(CASE WHEN p * q >= %2$s THEN 1 END), count(CASE WHEN a < %2$s THEN 1 END), count(CASE WHEN %2$s = q THEN 1 END) FROM cn WHERE p <> %2$s + 1'
SELECT px_prepare('cnp', 'numeric, numeric', :'cnq');
EXPLAIN (COSTS OFF) EXECUTE cnp(1.5, 0);
SELECT v1, v2, (px_run('cnp', :'cnq', quote_nullable(v1) || '::numeric', quote_nullable(v2) || '::numeric')).*
FROM (VALUES (1.5, 0), (1.505, 1.5), (1.5049999999, -2.25), (-3.333333333333, 2),
             (0, 0.00), (NULL, 1), (1, NULL), ('NaN', 'NaN'), ('Infinity', '-Infinity'),
             ('-Infinity', 'Infinity'), (1e30, -1e40),
             (-123456789012345678901234567890.123456, 1e-20), (2.995, 0.0000000001),
             (15, -0.8), (-0.005, 0.995), (1.7e38, -1.7e38), (-1.7e38, 1.7e38)) v(v1, v2);
-- through the page path, no row handed back
\set cnq2 'SELECT count(*), sum(q) FROM cn WHERE p > %1$s AND q <= %1$s + %2$s'
SELECT px_prepare('cnq', 'numeric, numeric', :'cnq2');
SELECT v, (px_run('cnq', :'cnq2', quote_literal(v) || '::numeric', '0.001')).*
FROM unnest(ARRAY[1.505, -0.5, 'NaN']::numeric[]) v;
SELECT cx_counted('EXECUTE cnq(1.505, 0.001)', 'cpu');
DEALLOCATE cnp;
DEALLOCATE cnq;
RESET plan_cache_mode;
DROP TABLE cn;

-- numeric division: the quotient at the scale numeric.c's select_div_scale
-- gives it (16 significant digits from the quotient's base-10000 weight, or
-- an operand's larger scale), rounded half away from zero.  The node
-- computes the quotients of the scale most rows get (planned from the
-- operands' statistics; none if fewer than 3 in 4 pairs share one) and
-- hands every other row back, so a sum's or a minimum's display scale is
-- PostgreSQL's; a compared quotient is held at scale 20, needing no display
-- scale (but a quotient's operand's scale is its own: the last query counts
-- the quotients of at most 17 digits after the point).  Edge rows of cx
-- one at a time (division by zero: 22012) at scale 16 (the planner would
-- leave such spread quotients to PostgreSQL), then mixed magnitudes as
-- planned from the statistics.
SET gpu_reduce.debug_quotient_scale = 16;
SELECT * FROM cx_each('n2 / n7', 23);
SELECT * FROM cx_each('n7 / n2', 23);
SELECT * FROM cx_each('n2 / 3', 23);
SELECT * FROM cx_each('i4 / n2', 23);
SET gpu_reduce.debug_quotient_scale = 20;
SELECT * FROM cx_each('n7 / n2', 23);
RESET gpu_reduce.debug_quotient_scale;
SELECT * FROM cx_each('CASE WHEN n2 / n7 > 0.5 THEN 1 ELSE 0 END', 23);
SET gpu_reduce.debug_quotient_scale = 31;
CREATE TABLE cd (k int, a numeric(12,2), b numeric(10,3), c int, z numeric(30,20));
INSERT INTO cd
SELECT g, ((g::int8 * 7919) % 100000 - 30000) / 100.0, ((g::int8 * 104729) % 5000 - 100) / 10.0, g % 50,
       CASE WHEN g % 3 = 0 THEN 1e-15 * g ELSE g * 1000.123 END
FROM generate_series(1, 20000) g;
ANALYZE cd;
SELECT (cxq(q)).* FROM (VALUES
 ('SELECT sum(a / b), min(a / b), max(a / b), avg(a / b), count(*) FROM cd WHERE b <> 0'),
 ('SELECT sum(a / b) FROM cd'),
 ('SELECT sum(a / (b + 1000)), sum(b / 7), max(c / b) FROM cd WHERE b <> 0'),
 ('SELECT count(*), sum(a) FROM cd WHERE b <> 0 AND a / b > 2.5'),
 ('SELECT count(*), sum(a) FROM cd WHERE b <> 0 AND a / b BETWEEN -0.001 AND 0.0125'),
 ('SELECT sum(z / a), min(a / z) FROM cd WHERE a <> 0'),
 ('SELECT sum(a / b) FROM cd WHERE b > 0 AND a / b < 100'),
 ('SELECT sum(CASE WHEN b <> 0 THEN a / b END) FROM cd'),
 ('SELECT count(*), sum(k) FROM cd WHERE b <> 0 AND (a / b) / 3 > 0.0123'),
 ('SELECT count(*), sum(k) FROM cd WHERE b <> 0 AND a <> 0 AND (a / b + 1) / (b / a) > 1.5'),
 ('SELECT count(*) FROM cd WHERE b > 0 AND a > b AND a < 90 * b AND (a / b) / 3 = ((a / b) / 3)::numeric(37,17)')) v(q);
-- rows handed back: those whose quotient numeric.c gives another scale
SELECT cx_counted('SELECT sum(a / b) FROM cd WHERE b <> 0', 'cpu');
SELECT cx_counted('SELECT count(*) FROM cd WHERE b <> 0 AND a / b > 2.5', 'cpu');
-- a quotient is no group key of the node (each group shows its first row's scale)
SELECT * FROM cx_plan('SELECT a / 4, count(*) FROM cd GROUP BY 1');
SELECT * FROM cx_plan('SELECT c, sum(a / 4) FROM cd GROUP BY 1');
DROP TABLE cd;
RESET gpu_reduce.bulk_scan;
RESET max_parallel_workers_per_gather;
DROP TABLE cx;
DROP FUNCTION cx_run(text, text, text), cxq(text), cx_each(text, int), cx_counted(text, text),
    px_prepare(text, text, text), px_run(text, text, text, text), cx_plan(text);
