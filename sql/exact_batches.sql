--
-- Float sums stay exact across many batches: 200000 values of magnitudes
-- from 2^-300 to 2^300 in shuffled order.  Half of the large ones cancel the
-- other half exactly, so the true sum is made of small values that any
-- rounding of intermediate sums would wipe out.  Reference: the same values
-- as exact numerics, summed and converted once.
--
CREATE FUNCTION eb_pow2(e int) RETURNS numeric LANGUAGE sql IMMUTABLE AS
$$ SELECT CASE WHEN e >= 0 THEN 2::numeric ^ e ELSE 5::numeric ^ (-e) * ('1e' || e)::numeric END $$;
CREATE TABLE eb_pow (e int PRIMARY KEY, p numeric);
INSERT INTO eb_pow SELECT e, eb_pow2(e) FROM generate_series(-400, 300) e;

-- kind 'big': +-m * 2^e for e in [-300, 300]; kind 'neg': the same values negated;
-- kind 'small': m * 2^e for e in [-120, -60]; kind 'tie': 1 and three times 2^-53
CREATE TABLE eb (i int, kind text, n numeric, d float8, n4 numeric, r float4);
INSERT INTO eb
SELECT i, kind, n, n::float8, n4, n4::float4
FROM (SELECT j AS i, 'big' AS kind,
             (1 - 2 * (j % 3 = 0)::int) * ((j::bigint * 2654435761) % 9007199254740992) * p8.p AS n,
             (1 - 2 * (j % 3 = 0)::int) * ((j::bigint * 40503) % 16777216) * p4.p AS n4
      FROM generate_series(1, 60000) j
      JOIN eb_pow p8 ON p8.e = (j * 7919) % 601 - 300
      JOIN eb_pow p4 ON p4.e = (j * 7919) % 201 - 100
      UNION ALL
      SELECT 60000 + j, 'neg',
             -((1 - 2 * (j % 3 = 0)::int) * ((j::bigint * 2654435761) % 9007199254740992) * p8.p),
             -((1 - 2 * (j % 3 = 0)::int) * ((j::bigint * 40503) % 16777216) * p4.p)
      FROM generate_series(1, 60000) j
      JOIN eb_pow p8 ON p8.e = (j * 7919) % 601 - 300
      JOIN eb_pow p4 ON p4.e = (j * 7919) % 201 - 100
      UNION ALL
      SELECT 120000 + j, 'small',
             (1 - 2 * (j % 7 = 0)::int) * ((j::bigint * 2654435761) % 9007199254740992) * p8.p,
             (1 - 2 * (j % 7 = 0)::int) * ((j::bigint * 40503) % 16777216) * p4.p
      FROM generate_series(1, 79996) j
      JOIN eb_pow p8 ON p8.e = (j * 31) % 61 - 120
      JOIN eb_pow p4 ON p4.e = (j * 31) % 41 - 80
      UNION ALL
      SELECT 199996 + j, 'tie', CASE WHEN j = 1 THEN 1 ELSE eb_pow2(-53) END,
             CASE WHEN j = 1 THEN 1 ELSE eb_pow2(-24) END
      FROM generate_series(1, 4) j) s
ORDER BY (i::bigint * 40503) % 200003;   -- shuffle: the kinds are mixed in every batch
SELECT kind, count(*) FROM eb GROUP BY kind ORDER BY kind;

-- everything: equal to the exact reference
SELECT gpu_sum(d) = sum(n)::float8 AS float8_exact, gpu_sum(r) = sum(n4)::float4 AS float4_exact,
       gpu_avg(d) = sum(n)::float8 / count(*) AS avg_exact
FROM eb;
-- the cancelling pairs alone sum to exactly 0 ...
SELECT gpu_sum(d) AS float8, gpu_sum(r) AS float4 FROM eb WHERE kind IN ('big', 'neg');
-- ... so with the tie rows the answer is 1 + 3 * 2^-53 rounded to even (and 1 + 3 * 2^-24 for real)
SELECT gpu_sum(d) AS float8, gpu_sum(r) AS float4 FROM eb WHERE kind <> 'small';   -- 1.0000000000000004 1.0000002
-- the small values alone, and with everything around them
SELECT gpu_sum(d) = sum(n)::float8 AS float8_exact, gpu_sum(r) = sum(n4)::float4 AS float4_exact
FROM eb WHERE kind = 'small';
SELECT (SELECT gpu_sum(d) FROM eb WHERE kind = 'small') = (SELECT sum(n)::float8 FROM eb WHERE kind IN ('small', 'big', 'neg')) AS float8_cancelled;
-- per group, and in every ordering
SELECT count(*) AS groups, count(*) FILTER (WHERE gd = rd AND gr = rr) AS exact
FROM (SELECT i % 37 AS g, gpu_sum(d) gd, sum(n)::float8 rd, gpu_sum(r) gr, sum(n4)::float4 rr FROM eb GROUP BY 1) q;
SELECT gpu_sum(d ORDER BY d) = gpu_sum(d ORDER BY i) AND gpu_sum(d ORDER BY d DESC) = gpu_sum(d ORDER BY i) AS order_free
FROM eb;
-- the native float sum, which rounds after every row, loses the small values
SELECT sum(d) = sum(n)::float8 AS native_float8_exact FROM eb WHERE kind <> 'tie';

DROP TABLE eb, eb_pow;
DROP FUNCTION eb_pow2(int);
