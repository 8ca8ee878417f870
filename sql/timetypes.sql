--
-- gpu_min, gpu_max, gpu_top2 and gpu_topk over date, timestamp and
-- timestamptz: the same answers as min(), max() and ORDER BY ... DESC, with
-- -infinity and infinity where PostgreSQL orders them.  gpu_sum and gpu_avg
-- are not defined for them.
--
SET timezone = 'UTC';
CREATE TABLE tt (i int, d date, ts timestamp, tz timestamptz);
INSERT INTO tt
SELECT i,
       CASE WHEN i % 7 <> 0 THEN date '2000-01-01' + ((i::bigint * 7919) % 40000 - 20000)::int END,
       CASE WHEN i % 7 <> 1 THEN timestamp '2000-01-01' + ((i::bigint * 2654435761) % 4000000000 - 2000000000) * interval '1 second' + (i % 1000) * interval '1 microsecond' END,
       CASE WHEN i % 7 <> 2 THEN timestamptz '2000-01-01 00:00+00' + ((i::bigint * 40503) % 3000000000 - 1500000000) * interval '1 second' END
FROM generate_series(1, 100000) i;

-- the result types
SELECT pg_typeof(gpu_min(d)) AS min_d, pg_typeof(gpu_max(ts)) AS max_ts,
       pg_typeof(gpu_min(tz)) AS min_tz, pg_typeof(gpu_top2(d)) AS top2_d,
       pg_typeof(gpu_topk(tz, 3)) AS topk_tz
FROM tt;

-- every aggregate against the native one
SELECT gpu_min(d) = min(d) AS d_min, gpu_max(d) = max(d) AS d_max,
       gpu_min(ts) = min(ts) AS ts_min, gpu_max(ts) = max(ts) AS ts_max,
       gpu_min(tz) = min(tz) AS tz_min, gpu_max(tz) = max(tz) AS tz_max
FROM tt;
SELECT gpu_min(d), gpu_max(d), gpu_min(ts), gpu_max(ts), gpu_min(tz), gpu_max(tz) FROM tt;
SELECT gpu_top2(d) = (SELECT array_agg(d ORDER BY d DESC) FROM (SELECT d FROM tt WHERE d IS NOT NULL ORDER BY d DESC LIMIT 2) s) AS d_top2,
       gpu_topk(ts, 5) = (SELECT array_agg(ts ORDER BY ts DESC) FROM (SELECT ts FROM tt WHERE ts IS NOT NULL ORDER BY ts DESC LIMIT 5) s) AS ts_top5,
       gpu_topk(tz, 1000) = (SELECT array_agg(tz ORDER BY tz DESC) FROM (SELECT tz FROM tt WHERE tz IS NOT NULL ORDER BY tz DESC LIMIT 1000) s) AS tz_top1000
FROM tt;
SELECT gpu_top2(d), gpu_topk(ts, 3), gpu_topk(tz, 2) FROM tt;

-- GROUP BY with many groups, FILTER, DISTINCT
SELECT count(*) AS groups, bool_and(ok) AS all_equal
FROM (SELECT gpu_min(d) IS NOT DISTINCT FROM min(d) AND gpu_max(d) IS NOT DISTINCT FROM max(d)
             AND gpu_min(ts) IS NOT DISTINCT FROM min(ts) AND gpu_max(ts) IS NOT DISTINCT FROM max(ts)
             AND gpu_min(tz) IS NOT DISTINCT FROM min(tz) AND gpu_max(tz) IS NOT DISTINCT FROM max(tz)
             AND gpu_top2(d) IS NOT DISTINCT FROM (array_agg(d ORDER BY d DESC) FILTER (WHERE d IS NOT NULL))[1:2] AS ok
      FROM tt GROUP BY i % 5003) q;
SELECT gpu_max(d) FILTER (WHERE i % 2 = 0) = max(d) FILTER (WHERE i % 2 = 0) AS filter_ok,
       gpu_topk(DISTINCT d, 4) = (SELECT array_agg(d ORDER BY d DESC) FROM (SELECT DISTINCT d FROM tt WHERE d IS NOT NULL ORDER BY d DESC LIMIT 4) s) AS distinct_ok
FROM tt;

-- window frames, moving
SELECT bool_and(a IS NOT DISTINCT FROM b) AS window_min_ok, bool_and(c IS NOT DISTINCT FROM e) AS window_max_ok
FROM (SELECT gpu_min(ts) OVER w AS a, min(ts) OVER w AS b, gpu_max(tz) OVER w AS c, max(tz) OVER w AS e
      FROM tt WHERE i <= 3000 WINDOW w AS (ORDER BY i ROWS BETWEEN 5 PRECEDING AND 3 FOLLOWING)) q;

-- NULL, empty, all-NULL
SELECT gpu_min(d), gpu_max(ts), gpu_top2(tz), gpu_topk(d, 3) FROM tt WHERE false;
SELECT gpu_min(d), gpu_max(ts), gpu_top2(tz), gpu_topk(d, 3) FROM (SELECT NULL::date d, NULL::timestamp ts, NULL::timestamptz tz FROM generate_series(1, 10)) s;

-- -infinity and infinity at the ends of the order
INSERT INTO tt VALUES (-1, '-infinity', '-infinity', '-infinity'), (-2, 'infinity', 'infinity', 'infinity'),
                      (-3, 'infinity', 'infinity', 'infinity');
SELECT gpu_min(d), gpu_max(d), gpu_min(ts), gpu_max(ts), gpu_min(tz), gpu_max(tz) FROM tt;
SELECT gpu_min(d) = min(d) AND gpu_max(d) = max(d) AND gpu_min(ts) = min(ts) AND gpu_max(ts) = max(ts)
       AND gpu_min(tz) = min(tz) AND gpu_max(tz) = max(tz) AS infinities_ok FROM tt;
SELECT gpu_top2(d), gpu_topk(ts, 3), gpu_topk(tz, 4) FROM tt;
SELECT gpu_min(x), gpu_max(x), gpu_topk(x, 5)
FROM (VALUES (date '2024-02-29'), ('infinity'), ('-infinity'), ('1999-12-31'), (NULL)) v(x);

-- no sum or average of a time type
SELECT gpu_sum(d) FROM tt;
SELECT gpu_avg(ts) FROM tt;

-- forced parallel plans with Partial Aggregate (the row path)
SET gpu_reduce.bulk_scan = off;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
ALTER TABLE tt SET (parallel_workers = 2);
EXPLAIN (COSTS OFF) SELECT gpu_min(d), gpu_max(ts), gpu_topk(tz, 3) FROM tt;
SELECT gpu_min(d) = min(d) AND gpu_max(d) = max(d) AND gpu_min(ts) = min(ts) AND gpu_max(ts) = max(ts)
       AND gpu_min(tz) = min(tz) AND gpu_max(tz) = max(tz) AS parallel_ok,
       gpu_topk(tz, 3), gpu_top2(d)
FROM tt;

-- the bulk scan reads the time columns from the pages, serially and in
-- parallel, with WHERE comparisons of a column with a constant of its type.
-- It takes queries of gpu_* aggregates only: tt_gpu(w) has the node (see the
-- plans), tt_native(w) the native answers, compared as text.
SET gpu_reduce.bulk_scan = on;
CREATE FUNCTION tt_gpu(w text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE r text;
BEGIN
    EXECUTE 'SELECT row(gpu_min(d), gpu_max(d), gpu_min(ts), gpu_max(ts), gpu_min(tz), gpu_max(tz),
                        gpu_topk(tz, 3), gpu_top2(d))::text FROM tt WHERE ' || w INTO r;
    RETURN r;
END $$;
CREATE FUNCTION tt_native(w text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE r text;
BEGIN
    EXECUTE 'SELECT row(min(d), max(d), min(ts), max(ts), min(tz), max(tz),
                        (array_agg(tz ORDER BY tz DESC) FILTER (WHERE tz IS NOT NULL))[1:3],
                        (array_agg(d ORDER BY d DESC) FILTER (WHERE d IS NOT NULL))[1:2])::text FROM tt WHERE ' || w INTO r;
    RETURN r;
END $$;
EXPLAIN (COSTS OFF) SELECT gpu_min(d), gpu_max(d), gpu_min(ts), gpu_max(ts), gpu_min(tz), gpu_max(tz),
                           gpu_topk(tz, 3), gpu_top2(d) FROM tt WHERE d > date '2000-01-01';
SELECT w, tt_gpu(w) = tt_native(w) AS bulk_parallel_ok
FROM (VALUES ('true'), ($$d > date '2000-01-01'$$), ($$tz <= timestamptz '2010-01-01 00:00+00'$$),
             ($$ts BETWEEN timestamp '1990-01-01' AND timestamp '2000-01-01'$$), ($$d = 'infinity'$$)) v(w);
SELECT tt_gpu($$d > date '2000-01-01' AND tz <= timestamptz '2010-01-01 00:00+00'$$);
SET max_parallel_workers_per_gather = 0;
EXPLAIN (COSTS OFF) SELECT gpu_min(d), gpu_max(tz) FROM tt WHERE ts >= timestamp '1999-01-01';
SELECT w, tt_gpu(w) = tt_native(w) AS bulk_serial_ok
FROM (VALUES ('true'), ($$ts >= timestamp '1999-01-01'$$), ($$d <> date '2000-01-01' AND tz IS NOT NULL$$)) v(w);
-- a comparison across time types converts units: the expression program does it
EXPLAIN (COSTS OFF) SELECT gpu_max(ts) FROM tt WHERE d > timestamp '2000-01-01';
SELECT tt_gpu($$d > timestamp '2000-01-01'$$) = tt_native($$d > timestamp '2000-01-01'$$) AS ok;
RESET max_parallel_workers_per_gather;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
DROP TABLE tt;
