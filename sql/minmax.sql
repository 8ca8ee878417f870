--
-- gpu_min and gpu_max: the same answer as min() and max() for every type.
-- Floats use PostgreSQL's order: NaN is greater than everything, Infinity
-- included.  Among equal values -0 counts as smaller than +0, whatever the
-- row order (native min/max return whichever came last; '=' treats them as
-- equal, so the sign is checked by eye).
--
CREATE TABLE minmax (i int, a int2, b int4, c int8, r float4, d float8);
INSERT INTO minmax
SELECT i,
       CASE WHEN i % 11 <> 0 THEN ((i::bigint * 40503) % 65535 - 32767)::int2 END,
       CASE WHEN i % 11 <> 1 THEN ((i::bigint * 2654435761) % 4294967295 - 2147483647)::int4 END,
       CASE WHEN i % 11 <> 2 THEN ((i::numeric * 11400714819323198485) % 18446744073709551615 - 9223372036854775807)::int8 END,
       CASE WHEN i % 11 <> 3 THEN (((i * 7919) % 200001 - 100000) * 0.37)::float4 END,
       CASE WHEN i % 11 <> 4 THEN ((i::bigint * 2654435761) % 4294967295 - 2147483647) * 10 ^ ((i % 500 - 300)::float8) END
FROM generate_series(1, 100000) i;

SELECT gpu_min(a) = min(a) AS int2_min, gpu_max(a) = max(a) AS int2_max,
       gpu_min(b) = min(b) AS int4_min, gpu_max(b) = max(b) AS int4_max,
       gpu_min(c) = min(c) AS int8_min, gpu_max(c) = max(c) AS int8_max,
       gpu_min(r) = min(r) AS float4_min, gpu_max(r) = max(r) AS float4_max,
       gpu_min(d) = min(d) AS float8_min, gpu_max(d) = max(d) AS float8_max
FROM minmax;
SELECT gpu_min(a), min(a), gpu_max(a), max(a), gpu_min(b), min(b), gpu_max(b), max(b) FROM minmax;
SELECT gpu_min(c), min(c), gpu_max(c), max(c) FROM minmax;
SELECT gpu_min(r), min(r), gpu_max(r), max(r), gpu_min(d), min(d), gpu_max(d), max(d) FROM minmax;
SELECT count(*) AS groups,
       count(*) FILTER (WHERE mins AND maxs) AS equal
FROM (SELECT i % 1009 AS g,
             gpu_min(a) = min(a) AND gpu_min(b) = min(b) AND gpu_min(c) = min(c)
               AND gpu_min(r) = min(r) AND gpu_min(d) = min(d) AS mins,
             gpu_max(a) = max(a) AND gpu_max(b) = max(b) AND gpu_max(c) = max(c)
               AND gpu_max(r) = max(r) AND gpu_max(d) = max(d) AS maxs
      FROM minmax GROUP BY 1) q;

-- each type's extremes
INSERT INTO minmax VALUES
  (-1, -32768, -2147483648, -9223372036854775808, '-Infinity', '-Infinity'),
  (-2, 32767, 2147483647, 9223372036854775807, 'Infinity', 'Infinity');
SELECT gpu_min(a), gpu_max(a), gpu_min(b), gpu_max(b) FROM minmax;   -- -32768 32767 -2147483648 2147483647
SELECT gpu_min(c), gpu_max(c) FROM minmax;                          -- -9223372036854775808 9223372036854775807
SELECT gpu_min(r), gpu_max(r), gpu_min(d), gpu_max(d) FROM minmax;   -- -Infinity Infinity -Infinity Infinity
-- NaN is the greatest float
INSERT INTO minmax VALUES (-3, NULL, NULL, NULL, 'NaN', 'NaN');
SELECT gpu_min(r), gpu_max(r), gpu_min(d), gpu_max(d) FROM minmax;   -- -Infinity NaN -Infinity NaN
SELECT gpu_max(r) = max(r) AND gpu_max(d) = max(d) AS nan_like_native FROM minmax;
SELECT gpu_min(x), gpu_max(x) FROM (VALUES ('NaN'::float8), ('Infinity')) v(x);        -- Infinity NaN
SELECT gpu_min(x), gpu_max(x) FROM (VALUES ('NaN'::float4), ('NaN')) v(x);             -- NaN NaN
-- a NaN with its sign bit set is NaN all the same
SELECT gpu_min(x), gpu_max(x) FROM (VALUES (-('NaN'::float8)), (1), (2)) v(x);          -- 1 NaN
SELECT gpu_min(x), gpu_max(x) FROM (VALUES (-('NaN'::float4)), (1), (2)) v(x);          -- 1 NaN

-- the smallest subnormals
SELECT gpu_min(x), gpu_max(x) FROM (VALUES (5e-324::float8), (1e-323), (-5e-324), (0)) v(x);  -- -5e-324 1e-323
SELECT gpu_min(x), gpu_max(x) FROM (VALUES (1.4e-45::float4), (-1.4e-45), (0)) v(x);         -- -1e-45 1e-45

-- -0 below +0, in either row order
SELECT gpu_min(x), gpu_max(x) FROM (VALUES ('0'::float8), ('-0')) v(x);      -- -0 0
SELECT gpu_min(x), gpu_max(x) FROM (VALUES ('-0'::float8), ('0')) v(x);      -- -0 0
SELECT gpu_min(x), gpu_max(x) FROM (VALUES ('0'::float4), ('-0')) v(x);      -- -0 0
SELECT gpu_min(x), gpu_max(x) FROM (VALUES ('-0'::float4), ('0')) v(x);      -- -0 0
SELECT gpu_min(x), gpu_max(x) FROM (VALUES ('-0'::float8), ('-0')) v(x);     -- -0 -0
-- ... also across many rows and batches
SELECT gpu_min(CASE WHEN g % 2 = 0 THEN '0'::float8 ELSE '-0' END) AS gpu_min,
       gpu_max(CASE WHEN g % 2 = 0 THEN '-0'::float8 ELSE '0' END) AS gpu_max,
       gpu_min(CASE WHEN g % 2 = 0 THEN '0'::float4 ELSE '-0' END) AS gpu_min4,
       gpu_max(CASE WHEN g % 2 = 0 THEN '-0'::float4 ELSE '0' END) AS gpu_max4
FROM generate_series(1, 1000) g;                                              -- -0 0 -0 0

-- NULLs are skipped, a single value is both answers
SELECT gpu_min(x), gpu_max(x) FROM (VALUES (NULL::int4), (42), (NULL)) v(x);   -- 42 42
SELECT gpu_min(x) IS NULL AS null_min, gpu_max(x) IS NULL AS null_max FROM (VALUES (NULL::int8)) v(x);

DROP TABLE minmax;
