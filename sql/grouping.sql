--
-- Every aggregate with GROUP BY (many groups), FILTER, DISTINCT and ORDER BY
-- inside the call, compared group by group with the native aggregates.
-- Float values are multiples of 1/64 of moderate size, so the native float
-- sums are exact too and can serve as the reference.
--
CREATE TABLE grp (i int, g int, a int2, b int4, c int8, r float4, d float8);
INSERT INTO grp
SELECT i, (i * 7919) % 2000,
       CASE WHEN i % 10 <> 0 THEN ((i::bigint * 40503) % 65536 - 32768)::int2 END,
       CASE WHEN i % 10 <> 1 THEN ((i::bigint * 2654435761) % 4294967296 - 2147483648)::int4 END,
       CASE WHEN i % 10 <> 2 THEN ((i::numeric * 11400714819323198485) % 18446744073709551616 - 9223372036854775808)::int8 END,
       CASE WHEN i % 10 <> 3 THEN ((i * 7919) % 100000 - 50000) / 64.0 END,
       CASE WHEN i % 10 <> 4 THEN ((i::bigint * 2654435761) % 100000000 - 50000000) / 64.0 END
FROM generate_series(1, 200000) i;
-- one group that is entirely NULL, one with a single row
INSERT INTO grp VALUES (-1, 5000, NULL, NULL, NULL, NULL, NULL), (-2, 5000, NULL, NULL, NULL, NULL, NULL),
                       (-3, 5001, 1, 2, 3, 4.5, 5.5);

-- reference: native aggregates; topk reference from array_agg ORDER BY DESC
CREATE FUNCTION grp_top(x anyarray, k int) RETURNS anyarray LANGUAGE sql IMMUTABLE AS
$$ SELECT CASE WHEN cardinality(x) > 0 THEN x[1:k] END $$;

-- sums and averages
SELECT count(*) AS groups,
       count(*) FILTER (WHERE sa IS NOT DISTINCT FROM na AND sb IS NOT DISTINCT FROM nb AND sc IS NOT DISTINCT FROM nc
                          AND sr IS NOT DISTINCT FROM nr AND sd IS NOT DISTINCT FROM nd) AS sum_equal,
       count(*) FILTER (WHERE aa::text IS NOT DISTINCT FROM ma::text AND ab::text IS NOT DISTINCT FROM mb::text
                          AND ac::text IS NOT DISTINCT FROM mc::text
                          AND ar IS NOT DISTINCT FROM mr AND ad IS NOT DISTINCT FROM md) AS avg_equal
FROM (SELECT g, gpu_sum(a) sa, sum(a) na, gpu_sum(b) sb, sum(b) nb, gpu_sum(c) sc, sum(c) nc,
             gpu_sum(r) sr, sum(r::float8)::float4 nr, gpu_sum(d) sd, sum(d) nd,
             gpu_avg(a) aa, avg(a) ma, gpu_avg(b) ab, avg(b) mb, gpu_avg(c) ac, avg(c) mc,
             gpu_avg(r) ar, avg(r) mr, gpu_avg(d) ad, avg(d) md
      FROM grp GROUP BY g) q;
-- minima, maxima, top2, top3
SELECT count(*) AS groups,
       count(*) FILTER (WHERE ok_min) AS min_equal, count(*) FILTER (WHERE ok_max) AS max_equal,
       count(*) FILTER (WHERE ok_top2) AS top2_equal, count(*) FILTER (WHERE ok_top3) AS top3_equal
FROM (SELECT g,
             gpu_min(a) IS NOT DISTINCT FROM min(a) AND gpu_min(b) IS NOT DISTINCT FROM min(b)
               AND gpu_min(c) IS NOT DISTINCT FROM min(c) AND gpu_min(r) IS NOT DISTINCT FROM min(r)
               AND gpu_min(d) IS NOT DISTINCT FROM min(d) AS ok_min,
             gpu_max(a) IS NOT DISTINCT FROM max(a) AND gpu_max(b) IS NOT DISTINCT FROM max(b)
               AND gpu_max(c) IS NOT DISTINCT FROM max(c) AND gpu_max(r) IS NOT DISTINCT FROM max(r)
               AND gpu_max(d) IS NOT DISTINCT FROM max(d) AS ok_max,
             gpu_top2(a) IS NOT DISTINCT FROM grp_top(array_agg(a ORDER BY a DESC) FILTER (WHERE a IS NOT NULL), 2)
               AND gpu_top2(b) IS NOT DISTINCT FROM grp_top(array_agg(b ORDER BY b DESC) FILTER (WHERE b IS NOT NULL), 2)
               AND gpu_top2(c) IS NOT DISTINCT FROM grp_top(array_agg(c ORDER BY c DESC) FILTER (WHERE c IS NOT NULL), 2)
               AND gpu_top2(r) IS NOT DISTINCT FROM grp_top(array_agg(r ORDER BY r DESC) FILTER (WHERE r IS NOT NULL), 2)
               AND gpu_top2(d) IS NOT DISTINCT FROM grp_top(array_agg(d ORDER BY d DESC) FILTER (WHERE d IS NOT NULL), 2) AS ok_top2,
             gpu_topk(a, 3) IS NOT DISTINCT FROM grp_top(array_agg(a ORDER BY a DESC) FILTER (WHERE a IS NOT NULL), 3)
               AND gpu_topk(b, 3) IS NOT DISTINCT FROM grp_top(array_agg(b ORDER BY b DESC) FILTER (WHERE b IS NOT NULL), 3)
               AND gpu_topk(c, 3) IS NOT DISTINCT FROM grp_top(array_agg(c ORDER BY c DESC) FILTER (WHERE c IS NOT NULL), 3)
               AND gpu_topk(r, 3) IS NOT DISTINCT FROM grp_top(array_agg(r ORDER BY r DESC) FILTER (WHERE r IS NOT NULL), 3)
               AND gpu_topk(d, 3) IS NOT DISTINCT FROM grp_top(array_agg(d ORDER BY d DESC) FILTER (WHERE d IS NOT NULL), 3) AS ok_top3
      FROM grp GROUP BY g) q;
-- the same through a sorted group aggregate instead of a hash table
SET enable_hashagg = off;
SELECT count(*) AS groups,
       count(*) FILTER (WHERE sb IS NOT DISTINCT FROM nb AND sd IS NOT DISTINCT FROM nd
                          AND mc IS NOT DISTINCT FROM nc AND tr IS NOT DISTINCT FROM rr) AS equal
FROM (SELECT g, gpu_sum(b) sb, sum(b) nb, gpu_sum(d) sd, sum(d) nd, gpu_max(c) mc, max(c) nc,
             gpu_top2(r) tr, grp_top(array_agg(r ORDER BY r DESC) FILTER (WHERE r IS NOT NULL), 2) rr
      FROM grp GROUP BY g) q;
RESET enable_hashagg;
-- the two special groups, printed
SELECT g, gpu_sum(a), gpu_sum(c), gpu_sum(r), gpu_avg(b), gpu_avg(d), gpu_min(c), gpu_max(r), gpu_top2(d), gpu_topk(a, 3)
FROM grp WHERE g >= 5000 GROUP BY g ORDER BY g;
-- a few ordinary groups, printed beside the native answers
SELECT g, gpu_sum(b), sum(b), gpu_sum(d), sum(d), gpu_max(r), max(r), gpu_top2(a)
FROM grp WHERE g IN (0, 1, 1999) GROUP BY g ORDER BY g;

-- FILTER
SELECT gpu_sum(b) FILTER (WHERE i % 3 = 0) = sum(b) FILTER (WHERE i % 3 = 0) AS sum_int4,
       gpu_sum(d) FILTER (WHERE d > 0) = sum(d) FILTER (WHERE d > 0) AS sum_float8,
       gpu_avg(c) FILTER (WHERE c < 0)::text = avg(c) FILTER (WHERE c < 0)::text AS avg_int8,
       gpu_min(r) FILTER (WHERE i > 100000) = min(r) FILTER (WHERE i > 100000) AS min_float4,
       gpu_max(a) FILTER (WHERE a < 0) = max(a) FILTER (WHERE a < 0) AS max_int2,
       gpu_top2(b) FILTER (WHERE b % 2 = 0) = (SELECT array_agg(b ORDER BY b DESC) FROM (SELECT b FROM grp WHERE b % 2 = 0 ORDER BY b DESC LIMIT 2) s) AS top2_int4,
       gpu_sum(a) FILTER (WHERE false) IS NULL AS empty_filter
FROM grp;
SELECT count(*) AS groups,
       count(*) FILTER (WHERE s1 IS NOT DISTINCT FROM n1 AND s2 IS NOT DISTINCT FROM n2 AND t1 IS NOT DISTINCT FROM r1) AS equal
FROM (SELECT g, gpu_sum(c) FILTER (WHERE i % 2 = 0) s1, sum(c) FILTER (WHERE i % 2 = 0) n1,
             gpu_sum(r) FILTER (WHERE r > 0) s2, sum(r::float8) FILTER (WHERE r > 0) n2,
             gpu_topk(d, 4) FILTER (WHERE i % 5 = 0) t1,
             grp_top(array_agg(d ORDER BY d DESC) FILTER (WHERE i % 5 = 0 AND d IS NOT NULL), 4) r1
      FROM grp GROUP BY g) q;

-- DISTINCT inside the call
SELECT gpu_sum(DISTINCT a) = sum(DISTINCT a) AS sum_int2, gpu_sum(DISTINCT b) = sum(DISTINCT b) AS sum_int4,
       gpu_sum(DISTINCT c) = sum(DISTINCT c) AS sum_int8, gpu_sum(DISTINCT r) = sum(DISTINCT r::float8)::float4 AS sum_float4,
       gpu_sum(DISTINCT d) = sum(DISTINCT d) AS sum_float8,
       gpu_avg(DISTINCT a)::text = avg(DISTINCT a)::text AS avg_int2, gpu_avg(DISTINCT d) = avg(DISTINCT d) AS avg_float8,
       gpu_top2(DISTINCT a) = (SELECT array_agg(x ORDER BY x DESC) FROM (SELECT DISTINCT a x FROM grp WHERE a IS NOT NULL ORDER BY a DESC LIMIT 2) s) AS top2_int2,
       gpu_min(DISTINCT c) = min(c) AS min_int8, gpu_max(DISTINCT r) = max(r) AS max_float4
FROM grp;
-- duplicates collapse: {5,5,3} -> sum 8, top2 {5,3}
SELECT gpu_sum(DISTINCT x), gpu_top2(DISTINCT x), gpu_topk(DISTINCT x, 3), gpu_avg(DISTINCT x)
FROM (VALUES (5), (5), (3), (NULL)) v(x);
SELECT count(*) AS groups,
       count(*) FILTER (WHERE s IS NOT DISTINCT FROM n AND t IS NOT DISTINCT FROM rt) AS equal
FROM (SELECT g % 50 AS g, gpu_sum(DISTINCT a) s, sum(DISTINCT a) n,
             gpu_topk(DISTINCT (a % 7), 3) t,
             grp_top(array_agg(DISTINCT (a % 7) ORDER BY (a % 7) DESC) FILTER (WHERE a IS NOT NULL), 3) rt
      FROM grp GROUP BY g % 50) q;

-- ORDER BY inside the call changes nothing
SELECT gpu_sum(d ORDER BY i DESC) = sum(d) AS sum_float8, gpu_sum(r ORDER BY r) = sum(r::float8)::float4 AS sum_float4,
       gpu_sum(c ORDER BY c DESC) = sum(c) AS sum_int8, gpu_avg(b ORDER BY i)::text = avg(b)::text AS avg_int4,
       gpu_min(d ORDER BY d DESC) = min(d) AS min_float8, gpu_max(a ORDER BY a) = max(a) AS max_int2,
       gpu_top2(c ORDER BY c) = gpu_top2(c) AS top2_int8, gpu_topk(r, 5 ORDER BY r) = gpu_topk(r, 5) AS topk_float4
FROM grp;

-- grouping sets: one scan feeding several groupings
SELECT count(*) AS groups,
       count(*) FILTER (WHERE s IS NOT DISTINCT FROM n AND v::text IS NOT DISTINCT FROM m::text
                          AND x IS NOT DISTINCT FROM nx AND t IS NOT DISTINCT FROM rt) AS equal
FROM (SELECT g % 10 AS g1, g % 7 AS g2, gpu_sum(d) s, sum(d) n, gpu_avg(c) v, avg(c) m, gpu_max(r) x, max(r) nx,
             gpu_top2(b) t, grp_top(array_agg(b ORDER BY b DESC) FILTER (WHERE b IS NOT NULL), 2) rt
      FROM grp GROUP BY ROLLUP (g % 10, g % 7)) q;
SELECT count(*) AS groups, count(*) FILTER (WHERE s IS NOT DISTINCT FROM n) AS equal
FROM (SELECT gpu_sum(c) s, sum(c) n FROM grp GROUP BY GROUPING SETS ((g % 3), (g % 5), (i % 2), ())) q;
-- HAVING, a CTE, and an aggregate rescanned in a correlated subquery
SELECT count(*) AS groups FROM (SELECT g FROM grp GROUP BY g HAVING gpu_sum(b) > 0) q;
SELECT count(*) AS groups FROM (SELECT g FROM grp GROUP BY g HAVING sum(b) > 0) q;
WITH per_group AS (SELECT g, gpu_sum(d) s, gpu_topk(a, 2) t FROM grp GROUP BY g)
SELECT gpu_sum(s) = (SELECT sum(d) FROM grp) AS sum_of_sums,
       gpu_max(t[1]) = (SELECT max(a) FROM grp) AS max_of_tops
FROM per_group;
SELECT bool_and((SELECT gpu_sum(b) FROM grp WHERE grp.g = o.g) IS NOT DISTINCT FROM (SELECT sum(b) FROM grp WHERE grp.g = o.g)
                AND (SELECT gpu_top2(d) FROM grp WHERE grp.g = o.g)
                    IS NOT DISTINCT FROM (SELECT grp_top(array_agg(d ORDER BY d DESC), 2) FROM grp WHERE grp.g = o.g AND d IS NOT NULL))
       AS rescans_equal
FROM generate_series(0, 30) o(g);

DROP TABLE grp;
DROP FUNCTION grp_top(anyarray, int);
