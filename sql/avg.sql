--
-- gpu_avg: numeric for smallint, integer and bigint, printed exactly like
-- avg() (same value, same scale); double precision for real and double
-- precision: the exact sum rounded to double, divided by the count.
--
CREATE FUNCTION avg_pow2(e int) RETURNS numeric LANGUAGE sql IMMUTABLE AS
$$ SELECT CASE WHEN e >= 0 THEN 2::numeric ^ e ELSE 5::numeric ^ (-e) * ('1e' || e)::numeric END $$;
CREATE FUNCTION avg_error(q text) RETURNS text LANGUAGE plpgsql AS
$$ BEGIN EXECUTE q; RETURN 'no error';
   EXCEPTION WHEN OTHERS THEN RETURN SQLSTATE || ': ' || SQLERRM; END $$;

CREATE TABLE avg_t (i int, a int2, b int4, c int8, n8 numeric, d float8, r float4);
INSERT INTO avg_t
SELECT i,
       CASE WHEN i % 7 <> 0 THEN ((i::bigint * 40503) % 65536 - 32768)::int2 END,
       CASE WHEN i % 7 <> 1 THEN ((i::bigint * 2654435761) % 4294967296 - 2147483648)::int4 END,
       CASE WHEN i % 7 <> 2 THEN ((i::numeric * 11400714819323198485) % 18446744073709551616 - 9223372036854775808)::int8 END,
       n8, n8::float8,
       CASE WHEN i % 7 <> 4 THEN (((i * 7919) % 100000 - 50000) / 64.0)::float4 END
FROM (SELECT i, CASE WHEN i % 7 <> 3 THEN
                  (1 - 2 * (i % 3 = 0)::int) * ((i::bigint * 2654435761) % 9007199254740992)
                  * avg_pow2((i * 7919) % 300 - 200) END AS n8
      FROM generate_series(1, 50000) i) s;

-- integer types: same text as avg()
SELECT gpu_avg(a)::text = avg(a)::text AS int2_same, gpu_avg(b)::text = avg(b)::text AS int4_same,
       gpu_avg(c)::text = avg(c)::text AS int8_same
FROM avg_t;
SELECT gpu_avg(a) AS gpu_int2, avg(a) AS native_int2, gpu_avg(b) AS gpu_int4, avg(b) AS native_int4 FROM avg_t;
SELECT gpu_avg(c) AS gpu_int8, avg(c) AS native_int8 FROM avg_t;
SELECT count(*) AS groups,
       count(*) FILTER (WHERE ga::text = na::text AND gb::text = nb::text AND gc::text = nc::text) AS same_text
FROM (SELECT i % 997 AS g, gpu_avg(a) ga, avg(a) na, gpu_avg(b) gb, avg(b) nb, gpu_avg(c) gc, avg(c) nc
      FROM avg_t GROUP BY 1) q;
-- small sets: scale and rounding of the numeric result
SELECT gpu_avg(x), avg(x) FROM (VALUES (1::int4), (2)) v(x);               -- 1.5000000000000000
SELECT gpu_avg(x), avg(x) FROM (VALUES (1::int2), (1), (2)) v(x);          -- 1.3333333333333333
SELECT gpu_avg(x), avg(x) FROM (VALUES (-1::int8), (-1), (-2)) v(x);       -- -1.3333333333333333
SELECT gpu_avg(x), avg(x) FROM (VALUES (2::int8), (2), (NULL)) v(x);       -- 2.0000000000000000
SELECT gpu_avg(x), avg(x) FROM (VALUES (7::int4)) v(x);                    -- 7.0000000000000000
SELECT gpu_avg(x), avg(x) FROM (VALUES (5::int8), (-5)) v(x);              -- 0.00000000000000000000
SELECT gpu_avg(x)::text = avg(x)::text AS same, gpu_avg(x)
FROM (VALUES (9223372036854775807::int8), (9223372036854775807), (9223372036854775806)) v(x);
SELECT gpu_avg(x)::text = avg(x)::text AS same, gpu_avg(x)
FROM (VALUES ((-9223372036854775808)::int8), ((-9223372036854775808)::int8)) v(x);
SELECT gpu_avg(9223372036854775807::int8)::text = avg(9223372036854775807::int8)::text AS same
FROM generate_series(1, 100000);
SELECT gpu_avg(x)::text = avg(x)::text AS same, gpu_avg(x)
FROM (VALUES (32767::int2), (32767), (-32768)) v(x);
SELECT gpu_avg(x)::text = avg(x)::text AS same, gpu_avg(x)
FROM (VALUES (2147483647::int4), (2147483647), (2147483646)) v(x);

-- floats: exact sum rounded to double, divided by the count
SELECT gpu_avg(d) = sum(n8)::float8 / count(n8) AS float8_exact,
       gpu_avg(r) = avg(r) AS float4_like_native   -- multiples of 1/64: the native sum is exact too
FROM avg_t;
SELECT count(*) AS groups, count(*) FILTER (WHERE gd = rd AND gr = rr) AS equal
FROM (SELECT i % 101 AS g, gpu_avg(d) gd, sum(n8)::float8 / count(n8) rd, gpu_avg(r) gr, avg(r) rr
      FROM avg_t GROUP BY 1) q;
SELECT gpu_avg(x) FROM (VALUES (1::float8), (2::float8 ^ (-53)), (2::float8 ^ (-53)), (2::float8 ^ (-53))) v(x);  -- 1.0000000000000004 / 4 = 0.2500000000000001
SELECT gpu_avg(x) FROM (VALUES (1e16::float8), (1), (-1e16), (2)) v(x);      -- 0.75
SELECT gpu_avg(x) FROM (VALUES (1e308::float8), (1e308), (-1e308)) v(x);      -- 3.333333333333333e+307
SELECT gpu_avg(x) FROM (VALUES (3e38::float4), (3e38)) v(x);                  -- 3e38::real as double: 3.0000000054977558e+38
SELECT gpu_avg(x) FROM (VALUES (0.5::float4), (0.25), (NULL)) v(x);           -- 0.375
SELECT gpu_avg(x) FROM (VALUES (1::float8), ('NaN')) v(x);                    -- NaN
SELECT gpu_avg(x) FROM (VALUES (1::float4), ('Infinity')) v(x);               -- Infinity
SELECT gpu_avg(x) FROM (VALUES ('-Infinity'::float8), ('Infinity')) v(x);     -- NaN
SELECT gpu_avg(x), avg(x) FROM (VALUES ('-0'::float8), ('-0')) v(x);          -- 0, as avg()
SELECT gpu_avg(x), avg(x) FROM (VALUES ('-0'::float4), ('-0')) v(x);          -- 0, as avg()
SELECT gpu_sum(x), sum(x) FROM (VALUES ('-0'::float8), ('-0')) v(x);          -- -0, as sum()
SELECT gpu_avg(x) FROM (VALUES (5e-324::float8), (5e-324)) v(x);              -- 5e-324
SELECT avg_error('SELECT gpu_avg(x) FROM (VALUES (1e308::float8), (1e308)) v(x)');

DROP TABLE avg_t;
DROP FUNCTION avg_pow2(int);
DROP FUNCTION avg_error(text);
