--
-- gpu_sum over real and double precision is exact: the mathematical sum of
-- the inputs, rounded once (to nearest, ties to even) to the result type.
-- It does not depend on the order of the rows.  NaN anywhere gives NaN,
-- +Infinity with -Infinity gives NaN, and only an exact sum of finite
-- inputs beyond the type's range is an error (22003).
--
-- Exact references: numeric values that are exactly representable in the
-- float type, summed as numeric and converted once (numeric -> float is
-- correctly rounded).  sf_pow2(e) is 2^e as an exact numeric.
CREATE FUNCTION sf_pow2(e int) RETURNS numeric LANGUAGE sql IMMUTABLE AS
$$ SELECT CASE WHEN e >= 0 THEN 2::numeric ^ e ELSE 5::numeric ^ (-e) * ('1e' || e)::numeric END $$;
-- runs a statement and tells its SQLSTATE and message, or 'no error'
CREATE FUNCTION sf_error(q text) RETURNS text LANGUAGE plpgsql AS
$$ BEGIN EXECUTE q; RETURN 'no error';
   EXCEPTION WHEN OTHERS THEN RETURN SQLSTATE || ': ' || SQLERRM; END $$;

-- double precision: values a reviewer can check by eye
-- 1 + 3 * 2^-53 lies halfway between 1 + 2^-52 and 1 + 2^-51: ties to even gives 1 + 2^-51
SELECT gpu_sum(x) AS gpu, sum(x) AS native
FROM (VALUES (1::float8), (2::float8 ^ (-53)), (2::float8 ^ (-53)), (2::float8 ^ (-53))) v(x);   -- 1.0000000000000004
SELECT gpu_sum(x) AS gpu, sum(x) AS native
FROM (VALUES (1e16::float8), (1), (-1e16)) v(x);                                        -- 1
SELECT gpu_sum(x) AS gpu FROM (VALUES (1e308::float8), (1e308), (-1e308)) v(x);          -- 1e+308
SELECT gpu_sum(x) AS gpu FROM (VALUES (1::float8), (5e-324), (-1)) v(x);                -- 5e-324
SELECT gpu_sum(x) AS gpu FROM (VALUES (5e-324::float8), (5e-324)) v(x);                  -- 1e-323
SELECT gpu_sum(x) AS gpu FROM (VALUES (2.2250738585072014e-308::float8), (-5e-324)) v(x); -- 2.225073858507201e-308
SELECT gpu_sum(x) AS gpu FROM (VALUES (5e-324::float8), (-5e-324)) v(x);                 -- 0
SELECT gpu_sum(x) AS gpu FROM (VALUES (0.1::float8), (0.2), (0.3), (-0.6)) v(x);         -- 2^-55 = 2.7755575615628914e-17
SELECT sf_pow2(-55)::float8 AS two_to_minus_55;
SELECT gpu_sum(x) AS gpu FROM (VALUES (1.7976931348623157e308::float8), (-1.7976931348623157e308), (1)) v(x); -- 1
-- max double plus a quarter of its last place rounds back to max
SELECT gpu_sum(x) AS gpu FROM (VALUES (1.7976931348623157e308::float8), (2::float8 ^ 969)) v(x); -- 1.7976931348623157e+308

-- zeros: -0 only when every input is -0
SELECT gpu_sum(x) AS gpu FROM (VALUES ('-0'::float8)) v(x);              -- -0
SELECT gpu_sum(x) AS gpu FROM (VALUES ('-0'::float8), ('-0')) v(x);      -- -0
SELECT gpu_sum(x) AS gpu FROM (VALUES ('-0'::float8), ('0')) v(x);       -- 0
SELECT gpu_sum(x) AS gpu FROM (VALUES ('0'::float8), ('-0')) v(x);       -- 0
SELECT gpu_sum(x) AS gpu FROM (VALUES (1::float8), (-1)) v(x);           -- 0

-- NaN and infinities
SELECT gpu_sum(x) AS gpu FROM (VALUES (1::float8), ('NaN'), (2)) v(x);                    -- NaN
SELECT gpu_sum(x) AS gpu FROM (VALUES ('NaN'::float8), ('Infinity')) v(x);                -- NaN
SELECT gpu_sum(x) AS gpu FROM (VALUES (1::float8), (-('NaN'::float8))) v(x);               -- NaN
SELECT gpu_sum(x) AS gpu FROM (VALUES ('Infinity'::float8), ('-Infinity')) v(x);          -- NaN
SELECT gpu_sum(x) AS gpu FROM (VALUES ('Infinity'::float8), (1), ('Infinity')) v(x);      -- Infinity
SELECT gpu_sum(x) AS gpu FROM (VALUES ('-Infinity'::float8), (-1e308)) v(x);              -- -Infinity
SELECT gpu_sum(x) AS gpu FROM (VALUES ('Infinity'::float8), (1e308), (1e308)) v(x);       -- Infinity

-- overflow: only when the exact sum of the finite inputs is out of range
SELECT gpu_sum(x) FROM (VALUES (1e308::float8), (1e308)) v(x);
SELECT sf_error('SELECT gpu_sum(x) FROM (VALUES (1e308::float8), (1e308)) v(x)');
SELECT sf_error('SELECT gpu_sum(x) FROM (VALUES (-1e308::float8), (-1e308)) v(x)');
SELECT sf_error('SELECT gpu_sum(x) FROM (VALUES (1.7976931348623157e308::float8), (2::float8 ^ 970)) v(x)');
SELECT sf_error('SELECT gpu_sum(1e305::float8) FROM generate_series(1, 10000)');

-- real: rounded once, directly from the exact sum
-- 1 + 3 * 2^-24 is halfway between 1 + 2^-23 and 1 + 2^-22: ties to even gives 1 + 2^-22
SELECT gpu_sum(x) AS gpu, sum(x) AS native
FROM (VALUES (1::float4), ((2::float8 ^ (-24))::float4), ((2::float8 ^ (-24))::float4), ((2::float8 ^ (-24))::float4)) v(x); -- 1.0000002
-- 1 + 2^-24 + 2^-60 is just above a tie: 1 + 2^-23 (rounding via double first would give 1)
SELECT gpu_sum(x) AS gpu FROM (VALUES (1::float4), ((2::float8 ^ (-24))::float4), ((2::float8 ^ (-60))::float4)) v(x);  -- 1.0000001
SELECT gpu_sum(x) AS gpu FROM (VALUES (3e38::float4), (3e38), (-3e38)) v(x);          -- 3e+38
SELECT gpu_sum(x) AS gpu FROM (VALUES (1.4e-45::float4), (1.4e-45)) v(x);             -- 3e-45 (= 2^-148)
SELECT (sf_pow2(-148))::float4 AS two_to_minus_148;
SELECT gpu_sum(x) AS gpu FROM (VALUES ('-0'::float4), ('-0')) v(x);                   -- -0
SELECT gpu_sum(x) AS gpu FROM (VALUES ('-0'::float4), ('0')) v(x);                    -- 0
SELECT gpu_sum(x) AS gpu FROM (VALUES (1::float4), ('NaN')) v(x);                     -- NaN
SELECT gpu_sum(x) AS gpu FROM (VALUES ('Infinity'::float4), ('-Infinity')) v(x);      -- NaN
SELECT gpu_sum(x) AS gpu FROM (VALUES ('-Infinity'::float4), (3e38)) v(x);            -- -Infinity
SELECT sf_error('SELECT gpu_sum(x) FROM (VALUES (3e38::float4), (3e38)) v(x)');
SELECT sf_error('SELECT gpu_sum(x) FROM (VALUES (-3e38::float4), (-3e38)) v(x)');
-- 100000 x 0.1::real: exact 10000.000149011612, nearest real 10000; the native float4 running sum drifts
SELECT gpu_sum(0.1::float4) AS gpu, sum(0.1::float4) AS native,
       gpu_sum(0.1::float4) = (100000 * 13421773::numeric * sf_pow2(-27))::float4 AS exact
FROM generate_series(1, 100000);

-- many values of wild magnitudes (mixed signs, subnormals included),
-- compared with the exact numeric reference, overall and per group
CREATE TABLE sum_float (i int, n8 numeric, d float8, n4 numeric, r float4);
INSERT INTO sum_float
SELECT i, n8, n8::float8, n4, n4::float4
FROM (SELECT i,
             CASE WHEN i % 17 = 0 THEN NULL ELSE
               (1 - 2 * (i % 3 = 0)::int) * ((i::bigint * 2654435761) % 9007199254740992)
               * sf_pow2(CASE WHEN i % 50 = 0 THEN -1074 ELSE (i * 7919) % 400 - 250 END) END AS n8,
             CASE WHEN i % 19 = 0 THEN NULL ELSE
               (1 - 2 * (i % 5 < 2)::int) * ((i::bigint * 40503) % 16777216)
               * sf_pow2(CASE WHEN i % 50 = 0 THEN -149 ELSE (i * 31) % 120 - 100 END) END AS n4
      FROM generate_series(1, 20000) i) s;
SELECT gpu_sum(d) = sum(n8)::float8 AS float8_exact, gpu_sum(r) = sum(n4)::float4 AS float4_exact,
       gpu_sum(d) AS gpu_float8, gpu_sum(r) AS gpu_float4
FROM sum_float;
-- the subnormal rows alone (they vanish next to the others)
SELECT gpu_sum(d) = sum(n8)::float8 AS float8_exact, gpu_sum(r) = sum(n4)::float4 AS float4_exact,
       gpu_sum(d) AS gpu_float8
FROM sum_float WHERE i % 50 = 0;
SELECT count(*) AS groups,
       count(*) FILTER (WHERE gpu_d = ref_d) AS float8_exact,
       count(*) FILTER (WHERE gpu_r = ref_r) AS float4_exact
FROM (SELECT i % 101 AS g, gpu_sum(d) gpu_d, sum(n8)::float8 ref_d, gpu_sum(r) gpu_r, sum(n4)::float4 ref_r
      FROM sum_float GROUP BY 1) q;
-- order of the rows does not matter
SELECT gpu_sum(d ORDER BY i DESC) = gpu_sum(d ORDER BY i) AS float8_order_free,
       gpu_sum(r ORDER BY n4) = gpu_sum(r ORDER BY i) AS float4_order_free
FROM sum_float;

-- The small accumulator's window (four 32-bit digits): group g's values
-- span g + 1 binary orders of magnitude, so the first groups stay in the
-- window, later ones move it, and the widest outgrow it part-way through
-- and go on in the full accumulator.  Every group must still be exact, both
-- folding one value at a time and in batches (min_gpu_rows = 1).
CREATE TABLE sf_window AS
SELECT g, i, n, n::float8 AS d
FROM (SELECT g, i,
             ((i::bigint * 2654435761) % 9007199254740992 - 4503599627370496)
             * sf_pow2((i * 7919) % (g + 1) - 30) AS n
      FROM generate_series(0, 120) g, generate_series(1, 300) i) s;
SELECT count(*) AS groups, count(*) FILTER (WHERE gd = rd) AS exact,
       count(*) FILTER (WHERE gd = rd AND ga = rd / 300) AS avg_exact
FROM (SELECT g, gpu_sum(d) gd, gpu_avg(d) ga, sum(n)::float8 rd FROM sf_window GROUP BY g) q;
SET gpu_reduce.min_gpu_rows = 1;
SELECT count(*) AS groups, count(*) FILTER (WHERE gd = rd) AS exact
FROM (SELECT g, gpu_sum(d) gd, sum(n)::float8 rd FROM sf_window GROUP BY g) q;
RESET gpu_reduce.min_gpu_rows;
DROP TABLE sf_window;

DROP TABLE sum_float;
DROP FUNCTION sf_pow2(int);
DROP FUNCTION sf_error(text);
