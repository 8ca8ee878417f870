--
-- gpu_sum over smallint, integer and bigint: the same answer as sum().
-- smallint and integer sum to bigint, bigint to numeric (an exact 128-bit
-- accumulator that cannot overflow).
--
CREATE TABLE sum_int (i int, a int2, b int4, c int8);
-- values spread over each type's whole range; every 13th row NULL
INSERT INTO sum_int
SELECT i,
       CASE WHEN i % 13 <> 0 THEN ((i::bigint * 40503) % 65536 - 32768)::int2 END,
       CASE WHEN i % 13 <> 1 THEN ((i::bigint * 2654435761) % 4294967296 - 2147483648)::int4 END,
       CASE WHEN i % 13 <> 2 THEN ((i::numeric * 11400714819323198485) % 18446744073709551616 - 9223372036854775808)::int8 END
FROM generate_series(1, 100000) i;

-- in-query comparison with the native aggregate
SELECT gpu_sum(a) = sum(a) AS int2_equal, gpu_sum(b) = sum(b) AS int4_equal, gpu_sum(c) = sum(c) AS int8_equal
FROM sum_int;
SELECT gpu_sum(a) AS gpu_int2, sum(a) AS native_int2, gpu_sum(b) AS gpu_int4, sum(b) AS native_int4
FROM sum_int;
SELECT gpu_sum(c) AS gpu_int8, sum(c) AS native_int8 FROM sum_int;
-- positive and negative halves separately (no cancellation to hide errors)
SELECT gpu_sum(a) = sum(a) AND gpu_sum(b) = sum(b) AND gpu_sum(c) = sum(c) AS positive_equal
FROM sum_int WHERE a > 0 AND b > 0 AND c > 0;
SELECT gpu_sum(a) = sum(a) AND gpu_sum(b) = sum(b) AND gpu_sum(c) = sum(c) AS negative_equal
FROM sum_int WHERE a < 0 AND b < 0 AND c < 0;

-- small sets a reviewer can check by eye
SELECT gpu_sum(x) FROM (VALUES (1::int2), (2::int2), (NULL), (3::int2)) v(x);   -- 6
SELECT gpu_sum(x) FROM (VALUES (-5::int4), (5::int4), (NULL), (-1::int4)) v(x);  -- -1
SELECT gpu_sum(x) FROM (VALUES (NULL::int8)) v(x);                                  -- NULL
SELECT gpu_sum(x) FROM (VALUES (1::int8)) v(x) WHERE false;                         -- NULL

-- extremes: results beyond the input type (and beyond bigint for bigint input)
SELECT gpu_sum(32767::int2) AS gpu, sum(32767::int2) AS native FROM generate_series(1, 100000);
SELECT gpu_sum((-32768)::int2) AS gpu, sum((-32768)::int2) AS native FROM generate_series(1, 100000);
SELECT gpu_sum(2147483647::int4) AS gpu, sum(2147483647::int4) AS native FROM generate_series(1, 100000);
SELECT gpu_sum((-2147483648)::int4) AS gpu, sum((-2147483648)::int4) AS native FROM generate_series(1, 100000);
SELECT gpu_sum(x) AS gpu, sum(x) AS native
FROM (VALUES (9223372036854775807::int8), (9223372036854775807), (9223372036854775807)) v(x);   -- 27670116110564327421
SELECT gpu_sum(x) AS gpu, sum(x) AS native
FROM (VALUES ((-9223372036854775808)::int8), ((-9223372036854775808)::int8), ((-9223372036854775808)::int8)) v(x); -- -27670116110564327424
SELECT gpu_sum(x) AS gpu, sum(x) AS native
FROM (VALUES (9223372036854775807::int8), ((-9223372036854775808)::int8), (NULL)) v(x);                 -- -1
-- 200000 x max bigint = 1844674407370955161400000 (needs 81 bits)
SELECT gpu_sum(9223372036854775807::int8) AS gpu, 9223372036854775807::numeric * 200000 AS exact,
       gpu_sum(9223372036854775807::int8) = 9223372036854775807::numeric * 200000 AS equal
FROM generate_series(1, 200000);
SELECT gpu_sum((-9223372036854775808)::int8) = -9223372036854775808::numeric * 200000 AS equal
FROM generate_series(1, 200000);
-- back to a small number after huge intermediate sums
-- 50000 x max, 50000 x -max, and +1 for each of the 16667 odd multiples of 3
SELECT gpu_sum(x) AS gpu, sum(x) AS native
FROM (SELECT CASE WHEN g % 2 = 0 THEN 9223372036854775807::int8
                  ELSE -9223372036854775807::int8 + (g % 3 = 0)::int END
      FROM generate_series(1, 100000) g) v(x);   -- 16667

-- GROUP BY: every group equal
SELECT count(*) AS groups,
       count(*) FILTER (WHERE gpu_a = nat_a AND gpu_b = nat_b AND gpu_c = nat_c) AS equal
FROM (SELECT i % 997 AS g, gpu_sum(a) gpu_a, sum(a) nat_a, gpu_sum(b) gpu_b, sum(b) nat_b,
             gpu_sum(c) gpu_c, sum(c) nat_c
      FROM sum_int GROUP BY 1) q;

DROP TABLE sum_int;
