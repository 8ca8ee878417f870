--
-- The variance family: gpu_variance, gpu_var_pop, gpu_stddev, gpu_stddev_pop.
-- Over smallint, integer, bigint and numeric the answer is numeric and its
-- text is var_samp()'s, var_pop()'s, stddev_samp()'s and stddev_pop()'s for
-- every input (the sums are exact, the arithmetic PostgreSQL's).  Over real
-- and double precision the answer is double precision computed from exact
-- sums of the values and of their squares, rounded once: it does not depend
-- on the order of the rows, and equals the exact variance of the values
-- rounded to double (checked here against exact numeric arithmetic).
-- Empty input gives NULL; one value gives NULL for the sample forms and 0
-- for the population forms; NaN or an infinity gives NaN; finite values
-- whose squares overflow raise native's error.
--
-- vchk(q): q's gpu answers against the native ones as text, for one set of
-- values given as a query of one column x.
CREATE FUNCTION vchk(q text, OUT var_ok boolean, OUT var_pop_ok boolean, OUT stddev_ok boolean,
                     OUT stddev_pop_ok boolean, OUT gpu_variance text, OUT gpu_stddev text)
LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE format($f$
        SELECT gpu_variance(x)::text IS NOT DISTINCT FROM var_samp(x)::text,
               gpu_var_pop(x)::text IS NOT DISTINCT FROM var_pop(x)::text,
               gpu_stddev(x)::text IS NOT DISTINCT FROM stddev_samp(x)::text,
               gpu_stddev_pop(x)::text IS NOT DISTINCT FROM stddev_pop(x)::text,
               left(gpu_variance(x)::text, 60), left(gpu_stddev(x)::text, 60)
        FROM (%s) s(x)$f$, q)
    INTO var_ok, var_pop_ok, stddev_ok, stddev_pop_ok, gpu_variance, gpu_stddev;
END $$;

-- fchk(q): for floats, each answer against the exact variance of the same
-- values computed in numeric (the values must convert to numeric exactly:
-- fractions with a power-of-two denominator and few digits), rounded to
-- double; and the answer with the rows in the opposite order.
CREATE FUNCTION fchk(q text, OUT var_ok boolean, OUT var_pop_ok boolean, OUT stddev_ok boolean,
                     OUT stddev_pop_ok boolean, OUT order_ok boolean, OUT gpu_variance float8)
LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE format($f$
        WITH s AS (SELECT x FROM (%s) s(x)),
        e AS (SELECT count(x) AS n, sum(x::numeric) AS s1, sum(x::numeric * x::numeric) AS s2 FROM s),
        r AS (SELECT round(n * s2 - s1 * s1, 60) AS d, n FROM e)
        SELECT (SELECT gpu_variance(x) FROM s) = (d / (n * (n - 1)))::float8,
               (SELECT gpu_var_pop(x) FROM s) = (d / (n * n))::float8,
               (SELECT gpu_stddev(x) FROM s) = sqrt(d / (n * (n - 1)))::float8,
               (SELECT gpu_stddev_pop(x) FROM s) = sqrt(d / (n * n))::float8,
               (SELECT gpu_variance(x ORDER BY x) FROM s) = (SELECT gpu_variance(x ORDER BY x DESC) FROM s),
               (SELECT gpu_variance(x) FROM s)
        FROM r$f$, q)
    INTO var_ok, var_pop_ok, stddev_ok, stddev_pop_ok, order_ok, gpu_variance;
END $$;

-- result types follow the native aggregates'
SELECT pg_typeof(gpu_variance(1::int2)) AS i2, pg_typeof(gpu_stddev(1::int4)) AS i4,
       pg_typeof(gpu_var_pop(1::int8)) AS i8, pg_typeof(gpu_stddev_pop(1::numeric)) AS num,
       pg_typeof(gpu_variance(1::float4)) AS f4, pg_typeof(gpu_stddev(1::float8)) AS f8;

-- integers and numeric: the text of native's answer
SELECT * FROM vchk('SELECT x::int2 FROM generate_series(-300, 500) x');
SELECT * FROM vchk('SELECT (x * 7919 % 100003 - 50000)::int4 FROM generate_series(1, 30000) x');
SELECT * FROM vchk('SELECT x::int8 * 1234567890123 FROM generate_series(-2000, 3000) x');
SELECT * FROM vchk('SELECT (x % 997) / 8.0 - 30 FROM generate_series(1, 20000) x');
SELECT * FROM vchk('SELECT round(x / 7.0, x % 9) FROM generate_series(1, 5000) x');
-- near the limits: squares above 2^128 (bigint), sums above 2^64, large scales
SELECT * FROM vchk('SELECT v FROM (VALUES (9223372036854775807::int8), (-9223372036854775808), (9223372036854775806), (0)) t(v), generate_series(1, 500)');
SELECT * FROM vchk('SELECT v FROM (VALUES (32767::int2), ((-32768)::int2)) t(v), generate_series(1, 3000)');
SELECT * FROM vchk('SELECT v FROM (VALUES (2147483647), (-2147483648)) t(v), generate_series(1, 3000)');
SELECT * FROM vchk('SELECT 1e30::numeric + x / 1e20 FROM generate_series(1, 1000) x');
SELECT * FROM vchk('SELECT x / 1e40 FROM generate_series(1, 1000) x');
-- constant input: zero; NULLs are skipped
SELECT * FROM vchk('SELECT 42::int4 FROM generate_series(1, 100)');
SELECT * FROM vchk('SELECT CASE WHEN x % 3 = 0 THEN NULL ELSE x END FROM generate_series(1, 1000) x');
-- empty, one value, NULLs only
SELECT * FROM vchk('SELECT x::int4 FROM generate_series(1, 0) x');
SELECT * FROM vchk('SELECT 7::int8');
SELECT * FROM vchk('SELECT 7.25::numeric');
SELECT * FROM vchk('SELECT NULL::numeric FROM generate_series(1, 10)');
-- numeric NaN and infinities
SELECT * FROM vchk('SELECT v FROM (VALUES (1.5), (''NaN''), (2)) t(v)');
SELECT * FROM vchk('SELECT v FROM (VALUES (1.5), (''Infinity''), (2)) t(v)');
SELECT * FROM vchk('SELECT v FROM (VALUES (''-Infinity''::numeric)) t(v)');
SELECT * FROM vchk('SELECT v FROM (VALUES (''NaN''::numeric)) t(v)');

-- floats: the exact variance rounded once, the same in any order
SELECT * FROM fchk('SELECT (x % 501) / 4.0::float4 FROM generate_series(1, 20000) x');
SELECT * FROM fchk('SELECT (x % 1999) / 16.0::float8 + 1e6 FROM generate_series(1, 20000) x');
SELECT * FROM fchk('SELECT (x % 3) / 4.0::float8 + 1e12 FROM generate_series(1, 5000) x');
SELECT * FROM fchk('SELECT x::float8 * 1e15 FROM generate_series(-50, 80) x');
-- floats: empty, one value, NaN and infinities as native
SELECT gpu_variance(x) IS NULL AS empty_null, gpu_var_pop(x) IS NULL AS empty_pop_null
FROM (SELECT 1::float8 WHERE false) s(x);
SELECT gpu_variance(x) AS var, gpu_var_pop(x) AS var_pop, gpu_stddev(x) AS sd,
       gpu_stddev_pop(x) AS sd_pop, var_pop(x) AS native_var_pop
FROM (VALUES (3.5::float8)) s(x);
SELECT gpu_variance(x) AS var, var_samp(x) AS native, gpu_stddev_pop(x) AS sd_pop, stddev_pop(x) AS native_sd_pop
FROM (VALUES (1::float8), ('NaN'), (2)) s(x);
SELECT gpu_variance(x) AS var, var_samp(x) AS native, gpu_var_pop(x) AS var_pop, var_pop(x) AS native_pop
FROM (VALUES (1::float4), ('Infinity'), (2)) s(x);
SELECT gpu_var_pop(x) AS var_pop, var_pop(x) AS native FROM (VALUES ('-Infinity'::float8)) s(x);
-- squares beyond double's range: native's error
SELECT var_samp(x) FROM (VALUES (1e200::float8), (-1e200)) s(x);
SELECT gpu_variance(x) FROM (VALUES (1e200::float8), (-1e200)) s(x);
SELECT 'session usable' AS after_error;
-- a variance below the smallest double rounds to zero, as native's does
SELECT gpu_var_pop(x) AS var_pop, var_pop(x) AS native FROM (VALUES (1e-300::float8), (0)) s(x);

-- through the bulk scan, the row path, and a parallel plan: the same answers
CREATE TABLE var_t AS
SELECT g, (g % 200 - 100)::int2 AS i2, (g * 7919 % 100003 - 50000)::int4 AS i4,
       ((g % 1000) * 1234567890123)::int8 AS i8, ((g % 997) / 8.0 - 30)::numeric(10,3) AS n,
       ((g % 501) / 4.0)::float4 AS f4, ((g % 1999) / 16.0 + 1e6)::float8 AS f8
FROM generate_series(1, 50000) g;
ANALYZE var_t;
-- (the rowpath pass turns the bulk scan off; this test wants both)
SET gpu_reduce.bulk_scan = on;
EXPLAIN (COSTS OFF)
SELECT gpu_variance(i4), gpu_stddev_pop(n), gpu_var_pop(f8) FROM var_t;
CREATE TABLE var_answers AS
SELECT 'bulk' AS path, gpu_variance(i2)::text AS a, gpu_var_pop(i4)::text AS b, gpu_stddev(i8)::text AS c,
       gpu_stddev_pop(n)::text AS d, gpu_variance(f4)::text AS e, gpu_stddev(f8)::text AS f
FROM var_t;
SELECT var_samp(i2)::text = a AS i2_ok, var_pop(i4)::text = b AS i4_ok, stddev_samp(i8)::text = c AS i8_ok,
       stddev_pop(n)::text = d AS n_ok
FROM var_t, var_answers WHERE path = 'bulk' GROUP BY a, b, c, d;
SET gpu_reduce.bulk_scan = off;
INSERT INTO var_answers
SELECT 'row', gpu_variance(i2)::text, gpu_var_pop(i4)::text, gpu_stddev(i8)::text,
       gpu_stddev_pop(n)::text, gpu_variance(f4)::text, gpu_stddev(f8)::text
FROM var_t;
SET gpu_reduce.bulk_scan = on;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
EXPLAIN (COSTS OFF)
SELECT gpu_variance(i2), gpu_stddev(f8) FROM var_t;
INSERT INTO var_answers
SELECT 'parallel', gpu_variance(i2)::text, gpu_var_pop(i4)::text, gpu_stddev(i8)::text,
       gpu_stddev_pop(n)::text, gpu_variance(f4)::text, gpu_stddev(f8)::text
FROM var_t;
SET gpu_reduce.bulk_scan = off;
EXPLAIN (COSTS OFF)
SELECT gpu_variance(i2), gpu_stddev(f8) FROM var_t;
INSERT INTO var_answers
SELECT 'parallel row', gpu_variance(i2)::text, gpu_var_pop(i4)::text, gpu_stddev(i8)::text,
       gpu_stddev_pop(n)::text, gpu_variance(f4)::text, gpu_stddev(f8)::text
FROM var_t;
RESET gpu_reduce.bulk_scan;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
RESET max_parallel_workers_per_gather;
SELECT count(DISTINCT (a, b, c, d, e, f)) AS distinct_answers, count(*) AS paths FROM var_answers;
SELECT e AS variance_f4, f AS stddev_f8 FROM var_answers WHERE path = 'bulk';

-- per group (row path): each group's answer is native's
SELECT count(*) FILTER (WHERE gv IS DISTINCT FROM nv OR gs IS DISTINCT FROM ns) AS wrong_groups, count(*) AS groups
FROM (SELECT gpu_variance(i4)::text AS gv, var_samp(i4)::text AS nv,
             gpu_stddev_pop(n)::text AS gs, stddev_pop(n)::text AS ns
      FROM var_t GROUP BY g % 37) s;

-- the variance family does not take the time types
SELECT gpu_variance(now()::timestamptz);
DROP TABLE var_t, var_answers;
DROP FUNCTION vchk(text), fchk(text);
