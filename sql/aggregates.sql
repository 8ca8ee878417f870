--
-- The SQL surface: every aggregate with its argument and result types, and
-- whether it can run in parallel plans (parallel safe, with combine,
-- serialize and deserialize functions).
--
SELECT p.oid::regprocedure AS aggregate,
       p.prorettype::regtype AS returns,
       p.proparallel = 's' AS parallel_safe,
       a.aggcombinefn <> 0 AS combine,
       a.aggserialfn <> 0 AS serialize,
       a.aggdeserialfn <> 0 AS deserialize
FROM pg_proc p JOIN pg_aggregate a ON a.aggfnoid = p.oid
WHERE p.proname LIKE 'gpu\_%'
ORDER BY p.proname, p.oid::regprocedure::text;

-- the functions beside the aggregates
SELECT p.oid::regprocedure AS function,
       pg_get_function_result(p.oid) AS returns
FROM pg_proc p
WHERE p.proname LIKE 'gpu\_reduce\_%' AND p.prokind = 'f'
ORDER BY p.oid::regprocedure::text;

-- result types, as seen from a query
SELECT pg_typeof(gpu_sum(1::int2)) AS sum_int2, pg_typeof(gpu_sum(1::int4)) AS sum_int4,
       pg_typeof(gpu_sum(1::int8)) AS sum_int8, pg_typeof(gpu_sum(1::float4)) AS sum_float4,
       pg_typeof(gpu_sum(1::float8)) AS sum_float8;
SELECT pg_typeof(gpu_avg(1::int2)) AS avg_int2, pg_typeof(gpu_avg(1::int4)) AS avg_int4,
       pg_typeof(gpu_avg(1::int8)) AS avg_int8, pg_typeof(gpu_avg(1::float4)) AS avg_float4,
       pg_typeof(gpu_avg(1::float8)) AS avg_float8;
SELECT pg_typeof(gpu_min(1::int2)) AS min_int2, pg_typeof(gpu_max(1::int4)) AS max_int4,
       pg_typeof(gpu_min(1::int8)) AS min_int8, pg_typeof(gpu_max(1::float4)) AS max_float4,
       pg_typeof(gpu_min(1::float8)) AS min_float8;
SELECT pg_typeof(gpu_top2(1::int2)) AS top2_int2, pg_typeof(gpu_top2(1::int4)) AS top2_int4,
       pg_typeof(gpu_top2(1::int8)) AS top2_int8, pg_typeof(gpu_topk(1::float4, 3)) AS topk_float4,
       pg_typeof(gpu_topk(1::float8, 3)) AS topk_float8;

-- NULL, empty and all-NULL input give NULL for every aggregate and type
CREATE TABLE agg_nulls (a int2, b int4, c int8, r float4, d float8);
INSERT INTO agg_nulls SELECT NULL, NULL, NULL, NULL, NULL FROM generate_series(1, 1000);
SELECT gpu_sum(a) IS NULL AND gpu_sum(b) IS NULL AND gpu_sum(c) IS NULL AND gpu_sum(r) IS NULL AND gpu_sum(d) IS NULL AS sum_null,
       gpu_min(a) IS NULL AND gpu_min(b) IS NULL AND gpu_min(c) IS NULL AND gpu_min(r) IS NULL AND gpu_min(d) IS NULL AS min_null,
       gpu_max(a) IS NULL AND gpu_max(b) IS NULL AND gpu_max(c) IS NULL AND gpu_max(r) IS NULL AND gpu_max(d) IS NULL AS max_null,
       gpu_avg(a) IS NULL AND gpu_avg(b) IS NULL AND gpu_avg(c) IS NULL AND gpu_avg(r) IS NULL AND gpu_avg(d) IS NULL AS avg_null,
       gpu_top2(a) IS NULL AND gpu_top2(b) IS NULL AND gpu_top2(c) IS NULL AND gpu_top2(r) IS NULL AND gpu_top2(d) IS NULL AS top2_null,
       gpu_topk(a, 5) IS NULL AND gpu_topk(b, 5) IS NULL AND gpu_topk(c, 5) IS NULL AND gpu_topk(r, 5) IS NULL AND gpu_topk(d, 5) IS NULL AS topk_null
FROM agg_nulls;
-- empty input
SELECT gpu_sum(a) IS NULL AND gpu_sum(b) IS NULL AND gpu_sum(c) IS NULL AND gpu_sum(r) IS NULL AND gpu_sum(d) IS NULL AS sum_null,
       gpu_min(a) IS NULL AND gpu_min(b) IS NULL AND gpu_min(c) IS NULL AND gpu_min(r) IS NULL AND gpu_min(d) IS NULL AS min_null,
       gpu_max(a) IS NULL AND gpu_max(b) IS NULL AND gpu_max(c) IS NULL AND gpu_max(r) IS NULL AND gpu_max(d) IS NULL AS max_null,
       gpu_avg(a) IS NULL AND gpu_avg(b) IS NULL AND gpu_avg(c) IS NULL AND gpu_avg(r) IS NULL AND gpu_avg(d) IS NULL AS avg_null,
       gpu_top2(a) IS NULL AND gpu_top2(b) IS NULL AND gpu_top2(c) IS NULL AND gpu_top2(r) IS NULL AND gpu_top2(d) IS NULL AS top2_null,
       gpu_topk(a, 5) IS NULL AND gpu_topk(b, 5) IS NULL AND gpu_topk(c, 5) IS NULL AND gpu_topk(r, 5) IS NULL AND gpu_topk(d, 5) IS NULL AS topk_null
FROM agg_nulls WHERE false;
-- one non-NULL value among many NULLs is the whole answer
INSERT INTO agg_nulls VALUES (-7, -7, -7, -7.5, -7.5);
SELECT gpu_sum(a) AS sum_a, gpu_sum(b) AS sum_b, gpu_sum(c) AS sum_c, gpu_sum(r) AS sum_r, gpu_sum(d) AS sum_d,
       gpu_avg(a) AS avg_a, gpu_avg(d) AS avg_d, gpu_min(c) AS min_c, gpu_max(r) AS max_r,
       gpu_top2(b) AS top2_b, gpu_topk(d, 3) AS topk_d
FROM agg_nulls;
DROP TABLE agg_nulls;
