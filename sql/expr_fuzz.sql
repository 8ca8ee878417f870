--
-- Differential fuzz test of the expression program: random WHERE clauses and
-- aggregate arguments over random columns (NULLs, zeros, values near the
-- types' limits), each query run through the node and through PostgreSQL's
-- own plan (gpu_reduce.bulk_scan = off), answers compared as text and errors
-- by SQLSTATE.  The seed is fixed: a failure names its query.
--
LOAD 'gpu_reduce';
SET gpu_reduce.bulk_scan = on;
SET max_parallel_workers_per_gather = 0;
-- a numeric quotient in an aggregate's argument at scale 16 whatever the
-- statistics say (the rows of other scales handed back)
SET gpu_reduce.debug_quotient_scale = 16;
SELECT setseed(0.25);
CREATE TABLE fz (i2 int2, i4 int4, i8 int8, f4 float4, f8 float8,
                 n2 numeric(12,2), n4 numeric(10,4), d date, t timestamp, b bool);
INSERT INTO fz
SELECT CASE WHEN g % 11 = 1 THEN NULL ELSE (g % 200 - 100) END,
       CASE WHEN g % 13 = 2 THEN NULL WHEN g % 97 = 0 THEN 2147483000 ELSE g * 37 % 20001 - 10000 END,
       CASE WHEN g % 17 = 3 THEN NULL WHEN g % 89 = 0 THEN 9223372036854775000 ELSE g::int8 * 104729 - 5000000 END,
       CASE WHEN g % 19 = 4 THEN NULL WHEN g % 83 = 0 THEN 'NaN' ELSE (g % 1000) / 8.0 - 60 END,
       CASE WHEN g % 23 = 5 THEN NULL WHEN g % 79 = 0 THEN '-Infinity' ELSE g / 7.0 - 140 END,
       CASE WHEN g % 29 = 6 THEN NULL ELSE (g * 7919 % 100000) / 100.0 - 400 END,
       CASE WHEN g % 31 = 7 THEN NULL ELSE (g % 5000) / 1000.0 END,
       CASE WHEN g % 37 = 8 THEN NULL WHEN g % 211 = 0 THEN 'infinity' ELSE date '1990-01-01' + g % 9000 END,
       CASE WHEN g % 41 = 9 THEN NULL ELSE timestamp '1990-01-01' + g * interval '97 minutes' END,
       CASE WHEN g % 43 = 10 THEN NULL ELSE g % 3 = 0 END
FROM generate_series(1, 1500) g;
ANALYZE fz;

-- a random expression of a class: i (integer), f (float), n (numeric), b (boolean)
CREATE FUNCTION fz_expr(cls text, depth int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    r float8 := random();
    ops text[];
BEGIN
    IF cls = 'b' THEN
        IF depth <= 0 OR r < 0.3 THEN
            r := random();
            IF r < 0.15 THEN RETURN (ARRAY['b', 'b IS NULL', 'b IS NOT TRUE', 'i4 IS NOT NULL', 'n2 IS NULL'])[1 + floor(random() * 5)::int]; END IF;
            IF r < 0.25 THEN RETURN 'i2 IN (' || (floor(random() * 200) - 100)::int || ', ' || (floor(random() * 200) - 100)::int || ', 7)'; END IF;
            IF r < 0.35 THEN RETURN format('d %s date %L', (ARRAY['<', '>=', '='])[1 + floor(random() * 3)::int], date '1990-01-01' + floor(random() * 9000)::int); END IF;
            IF r < 0.42 THEN RETURN format('d < date %L + interval ''1'' year', date '1990-01-01' + floor(random() * 9000)::int); END IF;
            IF r < 0.48 THEN RETURN format('t >= timestamp %L', timestamp '1990-01-01' + floor(random() * 100000) * interval '1 minute'); END IF;
            -- across the time types, in the session's zone (pg_regress's PST8PDT)
            IF r < 0.54 THEN RETURN format('%s %s timestamptz %L', (ARRAY['d', 't'])[1 + floor(random() * 2)::int],
                                           (ARRAY['=', '<>', '<', '<=', '>', '>='])[1 + floor(random() * 6)::int],
                                           timestamptz '1990-01-01 00:00+00' + floor(random() * 9000 * 96) * interval '15 minutes'); END IF;
            IF r < 0.57 THEN RETURN format('t %s date %L', (ARRAY['<', '>=', '='])[1 + floor(random() * 3)::int], date '1990-01-01' + floor(random() * 9000)::int); END IF;
            ops := ARRAY['=', '<>', '<', '<=', '>', '>='];
            cls := (ARRAY['i', 'f', 'n'])[1 + floor(random() * 3)::int];
            RETURN '(' || fz_expr(cls, depth - 1) || ' ' || ops[1 + floor(random() * 6)::int] || ' ' || fz_expr(cls, depth - 1) || ')';
        END IF;
        IF r < 0.55 THEN RETURN '(' || fz_expr('b', depth - 1) || ' AND ' || fz_expr('b', depth - 1) || ')'; END IF;
        IF r < 0.8 THEN RETURN '(' || fz_expr('b', depth - 1) || ' OR ' || fz_expr('b', depth - 1) || ')'; END IF;
        RETURN 'NOT ' || fz_expr('b', depth - 1);
    END IF;
    IF depth <= 0 OR r < 0.35 THEN
        r := random();
        IF cls = 'i' THEN
            IF r < 0.6 THEN RETURN (ARRAY['i2', 'i4', 'i8', 'i4', 'i2'])[1 + floor(random() * 5)::int]; END IF;
            RETURN (ARRAY['0', '1', '-3', '1000', '100000', '32767', 'NULL::int'])[1 + floor(random() * 7)::int];
        ELSIF cls = 'f' THEN
            IF r < 0.6 THEN RETURN (ARRAY['f4', 'f8', 'f8'])[1 + floor(random() * 3)::int]; END IF;
            RETURN (ARRAY['0.5::float8', '2::float4', '1e300::float8', '0::float8', '-1.5::float8'])[1 + floor(random() * 5)::int];
        ELSE
            IF r < 0.6 THEN RETURN (ARRAY['n2', 'n4'])[1 + floor(random() * 2)::int]; END IF;
            RETURN (ARRAY['1.5', '0.01', '100', '-2.125', '0', 'extract(year from d)', 'extract(dow from t)'])[1 + floor(random() * 7)::int];
        END IF;
    END IF;
    IF cls = 'i' THEN
        ops := ARRAY['+', '-', '*', '/', '%'];
    ELSIF cls = 'f' THEN
        ops := ARRAY['+', '-', '*', '/'];
    ELSE
        ops := ARRAY['+', '-', '*', '/'];
    END IF;
    IF random() < 0.12 THEN
        RETURN (ARRAY['-', 'abs'])[1 + floor(random() * 2)::int] || '(' || fz_expr(cls, depth - 1) || ')';
    END IF;
    IF random() < 0.1 THEN
        -- casts across the classes: rint, half away from zero, a declared
        -- precision and scale (errors where out of range)
        IF cls = 'i' THEN
            RETURN '(' || fz_expr((ARRAY['f', 'n'])[1 + floor(random() * 2)::int], depth - 1) || ')::' ||
                   (ARRAY['int2', 'int4', 'int8'])[1 + floor(random() * 3)::int];
        ELSIF cls = 'f' THEN
            RETURN '(' || fz_expr('n', depth - 1) || ')::' || (ARRAY['float4', 'float8'])[1 + floor(random() * 2)::int];
        END IF;
        RETURN '(' || fz_expr((ARRAY['n', 'i'])[1 + floor(random() * 2)::int], depth - 1) || ')::' ||
               (ARRAY['numeric(12,1)', 'numeric(8,3)', 'numeric(7,0)'])[1 + floor(random() * 3)::int];
    END IF;
    IF cls <> 'n' AND random() < 0.15 THEN
        r := random();
        IF r < 0.4 THEN
            RETURN 'CASE WHEN ' || fz_expr('b', depth - 1) || ' THEN ' || fz_expr(cls, depth - 1) ||
                   ' ELSE ' || fz_expr(cls, depth - 1) || ' END';
        END IF;
        RETURN (ARRAY['COALESCE', 'GREATEST', 'LEAST'])[1 + floor(random() * 3)::int] || '(' ||
               fz_expr(cls, depth - 1) || ', ' || fz_expr(cls, depth - 1) || ')';
    END IF;
    RETURN '(' || fz_expr(cls, depth - 1) || ' ' || ops[1 + floor(random() * array_length(ops, 1))::int] || ' ' || fz_expr(cls, depth - 1) || ')';
END $$;

-- a query's answer (or its error's SQLSTATE) with the node allowed or not
CREATE FUNCTION fz_run(q text, node bool) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    r text;
BEGIN
    PERFORM set_config('gpu_reduce.bulk_scan', CASE WHEN node THEN 'on' ELSE 'off' END, true);
    EXECUTE 'SELECT t::text FROM (' || q || ') t' INTO r;
    RETURN r;
EXCEPTION WHEN OTHERS THEN
    RETURN 'ERROR ' || SQLSTATE;
END $$;

-- (planning itself may raise an error, folding constants: then no plan)
CREATE FUNCTION fz_uses_node(q text) RETURNS bool LANGUAGE plpgsql AS $$
DECLARE
    line text;
BEGIN
    FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
        IF line LIKE '%GpuReduce%' THEN RETURN true; END IF;
    END LOOP;
    RETURN false;
EXCEPTION WHEN OTHERS THEN
    RETURN NULL;
END $$;

CREATE TABLE fz_result (k int, q text, native text, node text, on_node bool);
DO $$
DECLARE
    q text;
BEGIN
    FOR k IN 1 .. 3000 LOOP
        q := 'SELECT count(*), sum(' || fz_expr('i', 2) || '), gpu_sum(' || fz_expr('f', 2) ||
             '), sum(' || fz_expr('n', 2) || '), max(' || fz_expr('i', 1) || ') FROM fz WHERE ' ||
             fz_expr('b', 3);
        INSERT INTO fz_result VALUES (k, q, fz_run(q, false), fz_run(q, true), fz_uses_node(q));
    END LOOP;
END $$;

-- every answer and every error the same; most queries through the node; some
-- errors among them (overflow, division by zero), raised as PostgreSQL raises them
SELECT count(*) AS queries,
       count(*) FILTER (WHERE native IS DISTINCT FROM node) AS differ,
       count(*) FILTER (WHERE on_node) > 1800 AS mostly_node,
       count(*) FILTER (WHERE native LIKE 'ERROR%' AND on_node) > 60 AS errors_through_node,
       count(*) FILTER (WHERE native NOT LIKE 'ERROR%' AND on_node) > 1200 AS answers_through_node
FROM fz_result;
SELECT k, q, native, node FROM fz_result WHERE native IS DISTINCT FROM node ORDER BY k LIMIT 5;

DROP TABLE fz, fz_result;
DROP FUNCTION fz_expr(text, int), fz_run(text, bool), fz_uses_node(text);
RESET gpu_reduce.bulk_scan;
RESET gpu_reduce.debug_quotient_scale;
RESET max_parallel_workers_per_gather;
