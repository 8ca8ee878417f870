--
-- The expression program: WHERE clauses and aggregate arguments that are
-- not plain columns and comparisons, compiled from the plan and evaluated
-- by the node (common/expr.h), with any row it cannot be certain of handed
-- back to PostgreSQL.  Every answer is compared, as text, with the same
-- query planned without the node (gpu_reduce.bulk_scan = off).
--
-- The planner hook is the library's (native aggregates are taken once it is
-- loaded); the rowpath pass turns the bulk scan off, and this test is about it.
LOAD 'gpu_reduce';
SET gpu_reduce.bulk_scan = on;
SET max_parallel_workers_per_gather = 0;
CREATE TABLE ex (id int, a int4, b int8, s int2, f float8, r float4,
                 p numeric(15,2), q numeric(15,2), w numeric(30,4), d date,
                 t timestamp, tz timestamptz, flag bool);
INSERT INTO ex
SELECT g, CASE WHEN g % 13 <> 0 THEN g % 1000 - 500 END, g::int8 * 1000003 - 7e10::int8,
       (g % 50)::int2, g / 7.0, CASE WHEN g % 17 <> 0 THEN (g % 97) / 3.0 END,
       (g % 10000) / 100.0 + 900, CASE WHEN g % 19 <> 0 THEN (g % 11) / 100.0 END,
       CASE WHEN g % 1000 = 7 THEN 12345678901234567890123456.1234 ELSE g / 8.0 END,
       date '1992-01-01' + g % 2500, timestamp '1994-01-01' + g * interval '1 minute',
       timestamptz '2001-02-03 04:05:06+00' + g * interval '37 seconds', g % 3 = 0
FROM generate_series(1, 30000) g;
ANALYZE ex;

-- exq(q): q's answer through the node and without it, as text, and whether
-- the node ran it
CREATE FUNCTION exq(q text, OUT node boolean, OUT same boolean, OUT answer text)
LANGUAGE plpgsql AS $$
DECLARE
    native text;
    line text;
    plan text := '';
BEGIN
    SET LOCAL gpu_reduce.bulk_scan = off;
    EXECUTE 'SELECT t::text FROM (' || q || ') t' INTO native;
    SET LOCAL gpu_reduce.bulk_scan = on;
    FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
        plan := plan || line;
    END LOOP;
    node := plan LIKE '%GpuReduce%';
    EXECUTE 'SELECT t::text FROM (' || q || ') t' INTO answer;
    same := answer IS NOT DISTINCT FROM native;
END $$;

-- arguments: integer, float and numeric arithmetic, casts, unary minus, abs
SELECT * FROM exq('SELECT sum(a * 2 + s), avg(a - s), sum(b * 3), min(-a), max(abs(a)), sum(a % 7), sum(b / 1000) FROM ex');
-- (float sums: gpu_sum's exact answer, the same through the row path)
SELECT * FROM exq('SELECT gpu_sum(f * 2 + 1), gpu_sum(r * r), max(f / 3), min(-r), gpu_sum(abs(f - 100)), gpu_sum(r + f) FROM ex');
SELECT * FROM exq('SELECT sum(p * (1 - q)), avg(p * q), sum(p - q), max(p + q), min(-p), sum(w + p), sum(w * q) FROM ex');
SELECT * FROM exq('SELECT gpu_sum(p * (1 - q)), gpu_avg(a * 3), gpu_max(f * 2), gpu_variance(a + s), gpu_stddev(p * 2) FROM ex');
SELECT * FROM exq('SELECT sum(a::int8 * b), gpu_sum(s::float8 * 0.5), sum(a::numeric * q), gpu_avg(r::float8), max(s::float4) FROM ex');
-- WHERE: IN, OR, NOT, BETWEEN, IS [NOT] NULL, booleans, column against column
SELECT * FROM exq('SELECT count(*), sum(a) FROM ex WHERE s IN (1, 3, 5)');
SELECT * FROM exq('SELECT count(*), sum(b) FROM ex WHERE s IN (1, 3, 5) OR a > 400');
-- an IN list over an expression that has constants of its own (s % 10's 10)
SELECT * FROM exq('SELECT count(*), sum(a) FROM ex WHERE s % 10 IN (1, 3) AND a % 7 <> ALL (ARRAY[2, 5])');
SELECT * FROM exq('SELECT count(*), gpu_sum(f) FROM ex WHERE NOT (s BETWEEN 10 AND 40) AND a IS NOT NULL');
SELECT * FROM exq('SELECT count(*), sum(p) FROM ex WHERE a > s AND q IS NULL');
SELECT * FROM exq('SELECT count(*), sum(a) FROM ex WHERE flag AND r > 10 OR q = 0.05');
SELECT * FROM exq('SELECT count(*), sum(a) FROM ex WHERE flag IS NOT TRUE AND (a < 0) IS NOT FALSE');
SELECT * FROM exq('SELECT count(*), sum(a) FROM ex WHERE s <> ALL (ARRAY[1, 2, 3]) AND q IN (0.01, 0.02, NULL)');
SELECT * FROM exq('SELECT count(*), sum(a) FROM ex WHERE f * 2 > r AND p - 950 < q * 100');
-- TPC-H Q6's shape: dates against a date plus an interval (a timestamp), numeric ranges
SELECT * FROM exq($q$SELECT sum(p * q) FROM ex WHERE d >= date '1994-01-01'
    AND d < date '1994-01-01' + interval '1' year AND q BETWEEN 0.06 - 0.01 AND 0.06 + 0.01 AND a < 24$q$);
-- stable expressions evaluated once at the scan's start
SELECT * FROM exq($q$SELECT count(*), sum(a) FROM ex WHERE tz >= now() - interval '30 years' AND t < CURRENT_DATE$q$);
-- NULLs: a NULL constant, NULL arguments
SELECT * FROM exq('SELECT count(*), sum(a + NULL::int), gpu_sum(r * 2) FROM ex WHERE a > NULL::int OR s = 1');
-- CASE (searched and simple), COALESCE, NULLIF, GREATEST, LEAST
SELECT * FROM exq('SELECT sum(CASE WHEN a > 0 THEN a ELSE -a END), sum(CASE s WHEN 1 THEN 10 WHEN 2 THEN 20 END), count(*) FROM ex WHERE CASE WHEN flag THEN a > 0 ELSE s < 10 END');
SELECT * FROM exq('SELECT sum(COALESCE(a, s, 0)), gpu_sum(COALESCE(r, 0)), sum(NULLIF(s, 3)), max(GREATEST(a, s, 7)), min(LEAST(a, b)), max(GREATEST(r, f)) FROM ex');
SELECT * FROM exq('SELECT sum(COALESCE(q, 0.00) * p), sum(CASE WHEN q IS NULL THEN 0.00 ELSE q END), count(NULLIF(q, 0.05)) FROM ex WHERE COALESCE(q, p) > 0.03');
-- EXTRACT, date_part and date_trunc of dates and timestamps
SELECT * FROM exq($q$SELECT count(*), sum(extract(year from d)), sum(extract(month from t)), max(extract(dow from d)), sum(extract(doy from d)), max(date_part('hour', t)), sum(extract(quarter from t)), sum(extract(minute from t)) FROM ex WHERE extract(year from d) BETWEEN 1993 AND 1995$q$);
SELECT * FROM exq($q$SELECT count(*), max(date_trunc('month', t)), min(date_trunc('year', t)), max(date_trunc('hour', t)), min(date_trunc('quarter', t)) FROM ex WHERE date_trunc('day', t) < timestamp '1994-01-20'$q$);
SELECT * FROM exq($q$SELECT count(*) FROM ex WHERE date_part('dow', d) = 0 AND extract(day from d) > 15$q$);
-- a branch that divides by zero where its condition guards it: those rows handed back
SELECT * FROM exq('SELECT sum(CASE WHEN s <> 1 THEN a / (s - 1) ELSE 0 END) FROM ex');
-- a choice among numerics of different scales returns each value's own
-- scale: held at the largest, each row's own beside it, which a sum or an
-- average shows as the largest (w's value past 64 bits at scale 4 included)
SELECT * FROM exq('SELECT sum(CASE WHEN flag THEN p ELSE w END), avg(CASE WHEN flag THEN p ELSE w END) FROM ex');
SELECT * FROM exq('SELECT sum(CASE WHEN flag THEN p ELSE w END), sum(COALESCE(q, 0)), avg(COALESCE(q, 0)) FROM ex WHERE s = 19');
SELECT * FROM exq('SELECT sum(CASE WHEN flag THEN p * q ELSE 0 END), sum(COALESCE(q, 0)), sum(CASE WHEN a > 0 THEN 1.5 END) FROM ex WHERE s IN (18, 19, 20) AND q IS NULL');
-- a row whose branch the program cannot compute (w * w past 128 bits) handed back
SELECT * FROM exq('SELECT sum(CASE WHEN flag THEN p ELSE w * w END), avg(CASE WHEN flag THEN 0 ELSE w * w END) FROM ex');
-- not as an operand, nor for min or max (the value they return has its own scale)
SELECT node FROM exq('SELECT sum(CASE WHEN flag THEN p ELSE w END * 2) FROM ex');
SELECT node FROM exq('SELECT max(COALESCE(q, 0)) FROM ex');
-- what the node does not compile keeps PostgreSQL's plan (a cast to text, a user's function)
SELECT node FROM exq($q$SELECT sum(a) FROM ex WHERE a::text = '7'$q$);
CREATE FUNCTION ex_double(int) RETURNS int LANGUAGE plpgsql IMMUTABLE AS 'BEGIN RETURN $1 * 2; END';
SELECT node FROM exq('SELECT sum(a) FROM ex WHERE a * 2 > 0 AND ex_double(a) > 0');

-- PostgreSQL's errors, from rows the program hands back
SELECT sum(a * 10000000) FROM ex;
SELECT count(*) FROM ex WHERE a / (s - 1) > 3;
SELECT sum(b * 100000000) FROM ex;
SELECT sum(f * 1e308) FROM ex;
SELECT sum(s * 1000::int2) FROM ex;
-- a row handed back only where it must be: a division by zero that the
-- WHERE clause keeps out, a numeric too wide for the program
SELECT * FROM exq('SELECT count(*), sum(a / (s - 1)) FROM ex WHERE s <> 1');
SELECT * FROM exq('SELECT sum(w * 100), count(*) FROM ex WHERE w > 1000');
CREATE FUNCTION ex_counted(q text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
    line text;
BEGIN
    FOR line IN EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF, BUFFERS OFF) ' || q LOOP
        IF line ~ 'Visible Tuples|Rows Aggregated|Rows Evaluated' THEN
            RETURN NEXT trim(line);
        END IF;
    END LOOP;
END $$;
SELECT ex_counted('SELECT sum(w * 100) FROM ex');
SELECT ex_counted('SELECT sum(CASE WHEN s <> 1 THEN a / (s - 1) ELSE 0 END) FROM ex');
-- computed numerics past 64 bits (p^4 at scale 8): the CPU decoder takes
-- them as they are, no row handed back
SELECT * FROM exq('SELECT sum(p * p * p * p), avg(p * p * p * p), max(p * p * p * p), count(p * p * p * p) FROM ex');
SELECT ex_counted('SELECT sum(p * p * p * p) FROM ex');

-- text, varchar and char(n): equality, IN lists and LIKE under any
-- deterministic collation (byte equality), ordering under "C"; char(n)
-- compares without its trailing blanks; compressed and TOAST-ed values are
-- handed back to PostgreSQL
CREATE TABLE tx (id int, s text, v varchar(12), c char(4), amount int);
INSERT INTO tx
SELECT g, CASE WHEN g % 17 = 0 THEN NULL WHEN g % 101 = 0 THEN repeat('ab', 2000)
               WHEN g % 103 = 0 THEN (SELECT string_agg(md5((g * 1000 + i)::text), '') FROM generate_series(1, 100) i)
               ELSE (ARRAY['ab', 'abc', 'b', 'ba', 'x', 'é', 'ab ', ''])[1 + g % 8] END,
       (ARRAY['alpha', 'beta', 'gamma', NULL])[1 + g % 4],
       (ARRAY['ab', 'ab  ', 'abc', 'b'])[1 + g % 4], g % 1000
FROM generate_series(1, 20000) g;
ANALYZE tx;
SELECT * FROM exq($q$SELECT count(*), sum(amount) FROM tx WHERE s = 'ab'$q$);
SELECT * FROM exq($q$SELECT count(*), sum(amount) FROM tx WHERE s <> 'ab' AND v IN ('beta', 'gamma')$q$);
SELECT * FROM exq($q$SELECT count(*), sum(amount) FROM tx WHERE c = 'ab' OR c IN ('b', 'zz')$q$);
SELECT * FROM exq($q$SELECT count(*), sum(amount) FROM tx WHERE s LIKE 'ab%' AND c NOT LIKE 'abc%'$q$);
SELECT * FROM exq($q$SELECT count(*), sum(amount) FROM tx WHERE s COLLATE "C" < 'b' AND v COLLATE "C" >= 'beta'$q$);
SELECT * FROM exq($q$SELECT count(*), sum(CASE WHEN s = 'x' THEN amount ELSE 0 END) FROM tx WHERE s IS NOT NULL$q$);
SELECT * FROM exq($q$SELECT count(*) FROM tx WHERE s LIKE 'abab%'$q$);
SELECT ex_counted($q$SELECT count(*) FROM tx WHERE s LIKE 'abab%'$q$);
-- LIKE with % anywhere, matched piece by piece: the pieces in order and
-- apart ('%ab%ba' rejects 'aba'), a last piece that must end the value, an
-- empty pattern and '%', a multibyte character, char(n)'s blanks seen as
-- bpcharlike sees them ('%b ' finds 'ab  ')
SELECT * FROM exq($q$SELECT count(*), sum(amount) FROM tx WHERE s LIKE '%b%' AND v NOT LIKE '%mm%'$q$);
SELECT * FROM exq($q$SELECT count(*), sum(amount) FROM tx WHERE s LIKE '%b' OR c LIKE '%b '$q$);
SELECT * FROM exq($q$SELECT count(*), sum(amount) FROM tx WHERE s LIKE 'a%b%' OR s LIKE '' OR v LIKE '%a%a'$q$);
SELECT * FROM exq($q$SELECT count(*), sum(CASE WHEN s LIKE '%a%b%' THEN amount END), sum(CASE WHEN s LIKE '%' THEN 1 ELSE 0 END) FROM tx WHERE s NOT LIKE '%ab%ba'$q$);
SELECT * FROM exq($q$SELECT count(*), sum(amount) FROM tx WHERE s LIKE '%é%' OR s LIKE 'ab%%' OR s LIKE '%ba%ab%' OR c LIKE 'a%c%'$q$);
SELECT ex_counted($q$SELECT count(*) FROM tx WHERE s LIKE '%b%'$q$);
CREATE TABLE tl (s text, n int);
INSERT INTO tl SELECT (ARRAY['aba', 'abba', 'abab', 'ba', 'xaby', 'ab', '', 'a%b', 'bab', 'aab'])[1 + g % 10], g
FROM generate_series(1, 20000) g;
ANALYZE tl;
SELECT * FROM exq($q$SELECT sum(CASE WHEN s LIKE '%ab%ba' THEN n END), sum(CASE WHEN s LIKE 'ab%ab' THEN n END),
  sum(CASE WHEN s LIKE 'a%a' THEN n END), sum(CASE WHEN s LIKE '%b%b%' THEN n END), sum(CASE WHEN s LIKE 'ab%b' THEN n END),
  sum(CASE WHEN s LIKE '%a%b' THEN n END), sum(CASE WHEN s LIKE 'aba%' THEN n END), sum(CASE WHEN s LIKE 'ab' THEN n END) FROM tl$q$);
DROP TABLE tl;
-- LIKE with _, and text functions, keep PostgreSQL's plan
SELECT node FROM exq($q$SELECT count(*) FROM tx WHERE s LIKE 'a_%'$q$);
SELECT node FROM exq($q$SELECT count(*) FROM tx WHERE s LIKE '%a\%'$q$);
SELECT node FROM exq($q$SELECT count(*) FROM tx WHERE lower(s) = 'ab'$q$);
DROP TABLE tx;

-- parameters of a prepared statement (custom and generic plans)
PREPARE pq(int, int2) AS SELECT sum(p * 2), count(*) FROM ex WHERE a > $1 AND s IN (2, 4) AND s <> $2;
EXECUTE pq(100, 2); EXECUTE pq(200, 4); EXECUTE pq(300, 0); EXECUTE pq(400, 0); EXECUTE pq(0, 0);
EXECUTE pq(-100, 0);
EXECUTE pq(NULL, 0);
SET gpu_reduce.bulk_scan = off;
EXECUTE pq(-100, 0);
SET gpu_reduce.bulk_scan = on;
EXPLAIN (COSTS OFF) EXECUTE pq(5, 1);
DEALLOCATE pq;

-- parallel plans
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
EXPLAIN (COSTS OFF) SELECT gpu_sum(p * (1 - q)) FROM ex WHERE s IN (1, 2) OR a > 100;
SELECT * FROM exq('SELECT gpu_sum(p * (1 - q)), gpu_max(a * 2), count(*) FROM ex WHERE s IN (1, 2) OR a > 100');
SELECT * FROM exq('SELECT sum(p * (1 - q)), avg(a * 2), count(*) FROM ex WHERE s IN (1, 2) OR a > 100');
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
SET max_parallel_workers_per_gather = 0;

-- row security: the policy's condition runs before the query's, and a
-- leaky function in the query keeps the query with PostgreSQL
CREATE ROLE ex_reader;
GRANT SELECT ON ex TO ex_reader;
ALTER TABLE ex ENABLE ROW LEVEL SECURITY;
CREATE POLICY ex_small ON ex FOR SELECT TO ex_reader USING (s < 10 AND a IS NOT NULL);
CREATE FUNCTION ex_leak(int) RETURNS bool LANGUAGE plpgsql COST 0.0001 AS
  $$BEGIN IF $1 > 480 THEN RAISE NOTICE 'saw %', $1; END IF; RETURN true; END$$;
SET ROLE ex_reader;
SELECT * FROM exq('SELECT count(*), sum(a * 2), sum(p * q) FROM ex WHERE s IN (1, 3, 5, 20) OR a > 400');
SELECT node FROM exq('SELECT count(*), sum(a) FROM ex WHERE ex_leak(a) AND s = 7');
SELECT count(*), sum(a) FROM ex WHERE ex_leak(a) AND s = 7;
RESET ROLE;
ALTER TABLE ex DISABLE ROW LEVEL SECURITY;
DROP POLICY ex_small ON ex;
REVOKE SELECT ON ex FROM ex_reader;
DROP ROLE ex_reader;

-- a date column against timestamp constants: the page loop compares the
-- first or last day on either side of the constant (every operator, both sides)
SELECT * FROM exq($q$SELECT count(*), sum(a) FROM ex WHERE d < date '1994-01-01' + interval '1' year AND d >= timestamp '1993-01-01'$q$);
SELECT * FROM exq($q$SELECT count(*) FROM ex WHERE d <= timestamp '1995-03-01 00:00' AND timestamp '1993-02-01' < d$q$);
SELECT * FROM exq($q$SELECT count(*) FROM ex WHERE d > timestamp '1997-01-01 12:00' AND d <> timestamp '1997-06-30'$q$);
SELECT * FROM exq($q$SELECT count(*) FROM ex WHERE d = timestamp '1994-06-30' OR d >= timestamp '1998-01-01 00:00:01'$q$);
SELECT * FROM exq($q$SELECT count(*) FROM ex WHERE d > timestamp '-infinity' AND d < timestamp 'infinity'$q$);

RESET gpu_reduce.bulk_scan;
RESET max_parallel_workers_per_gather;
DROP TABLE ex;
DROP FUNCTION exq(text), ex_counted(text), ex_double(int), ex_leak(int);
