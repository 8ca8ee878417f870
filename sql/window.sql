--
-- Every aggregate as a window function: whole partitions, running totals
-- (the result is read, then more rows are added to the same state) and
-- moving frames (the state is rebuilt for every row), compared row by row
-- with the native window aggregates.
--
CREATE TABLE win (i int, p int, a int2, b int4, c int8, r float4, d float8);
INSERT INTO win
SELECT i, i % 7,
       CASE WHEN i % 10 <> 0 THEN ((i * 7919) % 2000 - 1000)::int2 END,
       CASE WHEN i % 10 <> 1 THEN ((i::bigint * 2654435761) % 4294967296 - 2147483648)::int4 END,
       CASE WHEN i % 10 <> 2 THEN ((i::numeric * 11400714819323198485) % 18446744073709551616 - 9223372036854775808)::int8 END,
       CASE WHEN i % 10 <> 3 THEN ((i * 7919) % 100000 - 50000) / 64.0 END,
       CASE WHEN i % 10 <> 4 THEN ((i::bigint * 2654435761) % 100000000 - 50000000) / 64.0 END
FROM generate_series(1, 3000) i;
-- for the reference subqueries
CREATE INDEX win_p_i ON win (p, i);
CREATE INDEX win_i ON win (i);
ANALYZE win;

-- whole partition
SELECT count(*) AS rows,
       count(*) FILTER (WHERE s_b IS NOT DISTINCT FROM n_b AND s_c IS NOT DISTINCT FROM n_c AND s_d IS NOT DISTINCT FROM n_d
                          AND v_a::text IS NOT DISTINCT FROM m_a::text AND v_r IS NOT DISTINCT FROM m_r
                          AND lo IS NOT DISTINCT FROM nlo AND hi IS NOT DISTINCT FROM nhi) AS equal
FROM (SELECT gpu_sum(b) OVER w s_b, sum(b) OVER w n_b, gpu_sum(c) OVER w s_c, sum(c) OVER w n_c,
             gpu_sum(d) OVER w s_d, sum(d) OVER w n_d, gpu_avg(a) OVER w v_a, avg(a) OVER w m_a,
             gpu_avg(r) OVER w v_r, avg(r) OVER w m_r,
             gpu_min(c) OVER w lo, min(c) OVER w nlo, gpu_max(r) OVER w hi, max(r) OVER w nhi
      FROM win WINDOW w AS (PARTITION BY p)) q;
SELECT p, gpu_sum(a) OVER w, gpu_max(d) OVER w, gpu_top2(a) OVER w
FROM win WHERE i <= 7 WINDOW w AS (PARTITION BY p) ORDER BY p;

-- running: ORDER BY within the partition, frame from the start to the current row
SELECT count(*) AS rows,
       count(*) FILTER (WHERE s_a IS NOT DISTINCT FROM n_a AND s_b IS NOT DISTINCT FROM n_b
                          AND s_c IS NOT DISTINCT FROM n_c AND s_r IS NOT DISTINCT FROM n_r AND s_d IS NOT DISTINCT FROM n_d) AS sum_equal,
       count(*) FILTER (WHERE v_b::text IS NOT DISTINCT FROM m_b::text AND v_c::text IS NOT DISTINCT FROM m_c::text
                          AND v_d IS NOT DISTINCT FROM m_d) AS avg_equal,
       count(*) FILTER (WHERE lo_a IS NOT DISTINCT FROM nlo_a AND hi_b IS NOT DISTINCT FROM nhi_b
                          AND lo_r IS NOT DISTINCT FROM nlo_r AND hi_d IS NOT DISTINCT FROM nhi_d) AS minmax_equal,
       count(*) FILTER (WHERE t2 IS NOT DISTINCT FROM rt2 AND t4 IS NOT DISTINCT FROM rt4) AS topk_equal
FROM (SELECT gpu_sum(a) OVER w s_a, sum(a) OVER w n_a, gpu_sum(b) OVER w s_b, sum(b) OVER w n_b,
             gpu_sum(c) OVER w s_c, sum(c) OVER w n_c, gpu_sum(r) OVER w s_r, (sum(r::float8) OVER w)::float4 n_r,
             gpu_sum(d) OVER w s_d, sum(d) OVER w n_d,
             gpu_avg(b) OVER w v_b, avg(b) OVER w m_b, gpu_avg(c) OVER w v_c, avg(c) OVER w m_c,
             gpu_avg(d) OVER w v_d, avg(d) OVER w m_d,
             gpu_min(a) OVER w lo_a, min(a) OVER w nlo_a, gpu_max(b) OVER w hi_b, max(b) OVER w nhi_b,
             gpu_min(r) OVER w lo_r, min(r) OVER w nlo_r, gpu_max(d) OVER w hi_d, max(d) OVER w nhi_d,
             gpu_top2(a) OVER w t2,
             (SELECT array_agg(x ORDER BY x DESC) FROM (SELECT a x FROM win w2 WHERE w2.p = win.p AND w2.i <= win.i AND a IS NOT NULL ORDER BY a DESC LIMIT 2) s) rt2,
             gpu_topk(d, 4) OVER w t4,
             (SELECT array_agg(x ORDER BY x DESC) FROM (SELECT d x FROM win w2 WHERE w2.p = win.p AND w2.i <= win.i AND d IS NOT NULL ORDER BY d DESC LIMIT 4) s) rt4
      FROM win WINDOW w AS (PARTITION BY p ORDER BY i)) q;
-- running answers a reviewer can follow: 3, 3+1, 3+1+4, ...
SELECT i, x, gpu_sum(x) OVER w AS sum, gpu_min(x) OVER w AS min, gpu_max(x) OVER w AS max,
       gpu_avg(x) OVER w AS avg, gpu_top2(x) OVER w AS top2, gpu_topk(x, 3) OVER w AS top3
FROM (VALUES (1, 3), (2, 1), (3, 4), (4, NULL), (5, 1), (6, 5), (7, 9), (8, 2)) v(i, x)
WINDOW w AS (ORDER BY i) ORDER BY i;

-- moving frames: the current row and the two before it
SELECT count(*) AS rows,
       count(*) FILTER (WHERE s_a IS NOT DISTINCT FROM n_a AND s_c IS NOT DISTINCT FROM n_c
                          AND s_r IS NOT DISTINCT FROM n_r AND s_d IS NOT DISTINCT FROM n_d) AS sum_equal,
       count(*) FILTER (WHERE v_a::text IS NOT DISTINCT FROM m_a::text AND v_r IS NOT DISTINCT FROM m_r) AS avg_equal,
       count(*) FILTER (WHERE lo IS NOT DISTINCT FROM nlo AND hi IS NOT DISTINCT FROM nhi) AS minmax_equal,
       count(*) FILTER (WHERE t2 IS NOT DISTINCT FROM rt2 AND t3 IS NOT DISTINCT FROM rt3) AS topk_equal
FROM (SELECT gpu_sum(a) OVER w s_a, sum(a) OVER w n_a, gpu_sum(c) OVER w s_c, sum(c) OVER w n_c,
             gpu_sum(r) OVER w s_r, (sum(r::float8) OVER w)::float4 n_r, gpu_sum(d) OVER w s_d, sum(d) OVER w n_d,
             gpu_avg(a) OVER w v_a, avg(a) OVER w m_a, gpu_avg(r) OVER w v_r, avg(r) OVER w m_r,
             gpu_min(d) OVER w lo, min(d) OVER w nlo, gpu_max(b) OVER w hi, max(b) OVER w nhi,
             gpu_top2(b) OVER w t2,
             (SELECT array_agg(x ORDER BY x DESC) FROM (SELECT b x FROM win w2 WHERE w2.p = win.p AND w2.i BETWEEN win.i - 14 AND win.i AND b IS NOT NULL ORDER BY b DESC LIMIT 2) s) rt2,
             gpu_topk(c, 3) OVER w t3,
             (SELECT array_agg(x ORDER BY x DESC) FROM (SELECT c x FROM win w2 WHERE w2.p = win.p AND w2.i BETWEEN win.i - 14 AND win.i AND c IS NOT NULL ORDER BY c DESC LIMIT 3) s) rt3
      FROM win WINDOW w AS (PARTITION BY p ORDER BY i ROWS BETWEEN 2 PRECEDING AND CURRENT ROW)) q;
SELECT i, x, gpu_sum(x) OVER w AS sum, gpu_min(x) OVER w AS min, gpu_max(x) OVER w AS max,
       gpu_avg(x) OVER w AS avg, gpu_top2(x) OVER w AS top2
FROM (VALUES (1, 3.5::float8), (2, 1), (3, 4), (4, NULL), (5, '-0'), (6, 'NaN'), (7, 9), (8, 2), (9, 'Infinity')) v(i, x)
WINDOW w AS (ORDER BY i ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) ORDER BY i;
-- peers: ORDER BY a key with ties (RANGE frame), the answer is read once per peer group
SELECT count(*) AS rows,
       count(*) FILTER (WHERE s IS NOT DISTINCT FROM n AND v::text IS NOT DISTINCT FROM m::text
                          AND x IS NOT DISTINCT FROM nx AND t IS NOT DISTINCT FROM rt) AS equal
FROM (SELECT gpu_sum(d) OVER w s, sum(d) OVER w n, gpu_avg(b) OVER w v, avg(b) OVER w m,
             gpu_min(r) OVER w x, min(r) OVER w nx, gpu_top2(a) OVER w t,
             (SELECT array_agg(x ORDER BY x DESC) FROM (SELECT a x FROM win w2 WHERE w2.i < (win.i / 10 + 1) * 10 AND a IS NOT NULL ORDER BY a DESC LIMIT 2) s) rt
      FROM win WINDOW w AS (ORDER BY i / 10)) q;
-- a frame that slides ahead of the current row
SELECT count(*) AS rows,
       count(*) FILTER (WHERE s IS NOT DISTINCT FROM n AND t IS NOT DISTINCT FROM rt) AS equal
FROM (SELECT gpu_sum(b) OVER w s, sum(b) OVER w n, gpu_top2(r) OVER w t,
             (SELECT array_agg(x ORDER BY x DESC) FROM (SELECT r x FROM win w2 WHERE w2.i BETWEEN win.i + 1 AND win.i + 5 AND r IS NOT NULL ORDER BY r DESC LIMIT 2) s) rt
      FROM win WINDOW w AS (ORDER BY i ROWS BETWEEN 1 FOLLOWING AND 5 FOLLOWING)) q;

DROP TABLE win;
