--
-- Parallel aggregation: every aggregate is parallel safe with combine,
-- serialize and deserialize functions, so a forced parallel plan is
-- Finalize Aggregate -> Gather -> Partial Aggregate, and its answers are
-- exactly the serial ones (bit for bit, float sums included: they are exact,
-- so the split of rows between workers cannot change them).
-- This file tests the aggregates' own parallel path (Partial Aggregate over
-- the executor's rows); the bulk scan's parallel plans are in bulk_scan.sql.
--
SET gpu_reduce.bulk_scan = off;
CREATE FUNCTION par_pow2(e int) RETURNS numeric LANGUAGE sql IMMUTABLE AS
$$ SELECT CASE WHEN e >= 0 THEN 2::numeric ^ e ELSE 5::numeric ^ (-e) * ('1e' || e)::numeric END $$;
-- does the plan of q (run, with analyze) have a line matching pattern?
CREATE FUNCTION par_plan_has(q text, pattern text, run_it boolean DEFAULT false) RETURNS boolean LANGUAGE plpgsql AS
$$ DECLARE l text;
   BEGIN FOR l IN EXECUTE 'EXPLAIN (COSTS OFF, ANALYZE ' || run_it || ', TIMING OFF, SUMMARY OFF) ' || q LOOP
           IF l ~ pattern THEN RETURN true; END IF;
         END LOOP;
         RETURN false; END $$;

CREATE TABLE par (i int, g int, a int2, b int4, c int8, r float4, d float8, n8 numeric);
INSERT INTO par
SELECT i, i % 1000,
       CASE WHEN i % 10 <> 0 THEN ((i::bigint * 40503) % 65536 - 32768)::int2 END,
       CASE WHEN i % 10 <> 1 THEN ((i::bigint * 2654435761) % 4294967296 - 2147483648)::int4 END,
       CASE WHEN i % 10 <> 2 THEN ((i::numeric * 11400714819323198485) % 18446744073709551616 - 9223372036854775808)::int8 END,
       CASE WHEN i % 10 <> 3 THEN ((i::bigint * 7919) % 100000 - 50000) * 1.03125 END,
       n8::float8, n8
FROM (SELECT i, CASE WHEN i % 10 <> 4 THEN
                  (1 - 2 * (i % 3 = 0)::int) * ((i::bigint * 2654435761) % 9007199254740992)
                  * pw.p END AS n8
      FROM generate_series(1, 300000) i
      JOIN (SELECT e, par_pow2(e) p FROM generate_series(-150, 49) e) pw ON pw.e = (i::bigint * 7919) % 200 - 150) s;
ALTER TABLE par SET (parallel_workers = 2);
ANALYZE par;

-- serial answers first
SET max_parallel_workers_per_gather = 0;
EXPLAIN (COSTS OFF)
SELECT gpu_sum(a), gpu_sum(b), gpu_sum(c), gpu_sum(r), gpu_sum(d) FROM par;
CREATE TABLE par_serial AS
SELECT gpu_sum(a) sa, gpu_sum(b) sb, gpu_sum(c) sc, gpu_sum(r) sr, gpu_sum(d) sd,
       gpu_avg(a) aa, gpu_avg(b) ab, gpu_avg(c) ac, gpu_avg(r) ar, gpu_avg(d) ad,
       gpu_min(a) na, gpu_min(b) nb, gpu_min(c) nc, gpu_min(r) nr, gpu_min(d) nd,
       gpu_max(a) xa, gpu_max(b) xb, gpu_max(c) xc, gpu_max(r) xr, gpu_max(d) xd,
       gpu_top2(a) ta, gpu_top2(b) tb, gpu_top2(c) tc, gpu_top2(r) tr, gpu_top2(d) td,
       gpu_topk(a, 7) ka, gpu_topk(b, 7) kb, gpu_topk(c, 7) kc, gpu_topk(r, 7) kr, gpu_topk(d, 7) kd,
       gpu_sum(d) FILTER (WHERE i % 4 = 0) fd
FROM par;
CREATE TABLE par_serial_g AS
SELECT g, gpu_sum(b) sb, gpu_sum(c) sc, gpu_sum(r) sr, gpu_sum(d) sd, gpu_avg(a) aa, gpu_avg(d) ad,
       gpu_min(c) nc, gpu_max(r) xr, gpu_top2(d) td, gpu_topk(a, 3) ka
FROM par GROUP BY g;

-- then forced parallel plans
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
EXPLAIN (COSTS OFF)
SELECT gpu_sum(a), gpu_sum(b), gpu_sum(c), gpu_sum(r), gpu_sum(d) FROM par;
EXPLAIN (COSTS OFF)
SELECT gpu_avg(a), gpu_min(b), gpu_max(c), gpu_top2(r), gpu_topk(d, 7) FROM par;
SELECT par_plan_has('SELECT gpu_avg(b), gpu_avg(c), gpu_avg(r), gpu_avg(d) FROM par', 'Partial Aggregate') AS avg_partial,
       par_plan_has('SELECT gpu_min(a), gpu_min(c), gpu_min(r), gpu_min(d) FROM par', 'Partial Aggregate') AS min_partial,
       par_plan_has('SELECT gpu_max(a), gpu_max(b), gpu_max(r), gpu_max(d) FROM par', 'Partial Aggregate') AS max_partial,
       par_plan_has('SELECT gpu_top2(a), gpu_top2(b), gpu_top2(c), gpu_top2(d) FROM par', 'Partial Aggregate') AS top2_partial,
       par_plan_has('SELECT gpu_topk(a, 7), gpu_topk(b, 7), gpu_topk(c, 7), gpu_topk(r, 7) FROM par', 'Partial Aggregate') AS topk_partial,
       par_plan_has('SELECT g, gpu_sum(b), gpu_avg(a), gpu_min(c), gpu_max(r), gpu_top2(d), gpu_topk(a, 3) FROM par GROUP BY g',
                    'Partial (Hash|Group)Aggregate') AS grouped_partial;

-- the parallel answers are the serial ones
SELECT q::text = s::text AS same_as_serial
FROM (SELECT gpu_sum(a) sa, gpu_sum(b) sb, gpu_sum(c) sc, gpu_sum(r) sr, gpu_sum(d) sd,
             gpu_avg(a) aa, gpu_avg(b) ab, gpu_avg(c) ac, gpu_avg(r) ar, gpu_avg(d) ad,
             gpu_min(a) na, gpu_min(b) nb, gpu_min(c) nc, gpu_min(r) nr, gpu_min(d) nd,
             gpu_max(a) xa, gpu_max(b) xb, gpu_max(c) xc, gpu_max(r) xr, gpu_max(d) xd,
             gpu_top2(a) ta, gpu_top2(b) tb, gpu_top2(c) tc, gpu_top2(r) tr, gpu_top2(d) td,
             gpu_topk(a, 7) ka, gpu_topk(b, 7) kb, gpu_topk(c, 7) kc, gpu_topk(r, 7) kr, gpu_topk(d, 7) kd,
             gpu_sum(d) FILTER (WHERE i % 4 = 0) fd
      FROM par) q, par_serial s;
SELECT count(*) AS groups, count(*) FILTER (WHERE q::text = s::text) AS same_as_serial
FROM (SELECT g, gpu_sum(b) sb, gpu_sum(c) sc, gpu_sum(r) sr, gpu_sum(d) sd, gpu_avg(a) aa, gpu_avg(d) ad,
             gpu_min(c) nc, gpu_max(r) xr, gpu_top2(d) td, gpu_topk(a, 3) ka
      FROM par GROUP BY g) q JOIN par_serial_g s USING (g);
-- workers really ran; and with the leader not scanning, every row goes through
-- a worker's serialized state
SELECT par_plan_has('SELECT gpu_sum(d), gpu_topk(b, 7) FROM par', 'Workers Launched: [12]', true) AS workers_launched;
SET parallel_leader_participation = off;
SELECT q::text = s::text AS workers_only_same_as_serial
FROM (SELECT gpu_sum(a) sa, gpu_sum(b) sb, gpu_sum(c) sc, gpu_sum(r) sr, gpu_sum(d) sd,
             gpu_avg(a) aa, gpu_avg(b) ab, gpu_avg(c) ac, gpu_avg(r) ar, gpu_avg(d) ad,
             gpu_min(a) na, gpu_min(b) nb, gpu_min(c) nc, gpu_min(r) nr, gpu_min(d) nd,
             gpu_max(a) xa, gpu_max(b) xb, gpu_max(c) xc, gpu_max(r) xr, gpu_max(d) xd,
             gpu_top2(a) ta, gpu_top2(b) tb, gpu_top2(c) tc, gpu_top2(r) tr, gpu_top2(d) td,
             gpu_topk(a, 7) ka, gpu_topk(b, 7) kb, gpu_topk(c, 7) kc, gpu_topk(r, 7) kr, gpu_topk(d, 7) kd,
             gpu_sum(d) FILTER (WHERE i % 4 = 0) fd
      FROM par) q, par_serial s;
RESET parallel_leader_participation;
-- ... and the right ones: native aggregates (parallel too) and the exact float reference
SELECT gpu_sum(a) = sum(a) AS sum_int2, gpu_sum(b) = sum(b) AS sum_int4, gpu_sum(c) = sum(c) AS sum_int8,
       gpu_sum(r) = sum(r::float8)::float4 AS sum_float4, gpu_sum(d) = sum(n8)::float8 AS sum_float8_exact,
       gpu_avg(c)::text = avg(c)::text AS avg_int8, gpu_avg(d) = sum(n8)::float8 / count(n8) AS avg_float8_exact,
       gpu_min(c) = min(c) AS min_int8, gpu_max(d) = max(d) AS max_float8,
       gpu_topk(b, 7) = (SELECT array_agg(x ORDER BY x DESC) FROM (SELECT b x FROM par WHERE b IS NOT NULL ORDER BY b DESC LIMIT 7) s) AS topk_int4
FROM par;
SELECT gpu_sum(a), gpu_sum(c), gpu_sum(r), gpu_sum(d), gpu_avg(b), gpu_top2(a), gpu_min(r), gpu_max(r) FROM par;

-- large states through the workers: the top 100000 of each worker
SET max_parallel_workers_per_gather = 0;
CREATE TABLE par_serial_k AS SELECT gpu_topk(b, 100000) kb, gpu_topk(d, 100000) kd FROM par;
SET max_parallel_workers_per_gather = 2;
SELECT par_plan_has('SELECT gpu_topk(b, 100000) FROM par', 'Partial Aggregate') AS partial,
       q.kb = s.kb AS int4_same, q.kd::text = s.kd::text AS float8_same, cardinality(q.kb) AS n
FROM (SELECT gpu_topk(b, 100000) kb, gpu_topk(d, 100000) kd FROM par) q, par_serial_k s;
DROP TABLE par_serial_k;

-- special float values in different workers: counts of NaN, infinities and -0
-- travel in the serialized states
CREATE TABLE par_special (i int, negz float8, mixz float4, infs float8, nan float4, big float8);
INSERT INTO par_special
SELECT i, '-0', CASE WHEN i = 15000 THEN '0'::float4 ELSE '-0' END,
       CASE WHEN i = 1 THEN 'Infinity'::float8 WHEN i = 30000 THEN '-Infinity' ELSE 1 END,
       CASE WHEN i = 20000 THEN 'NaN'::float4 ELSE i END,
       CASE WHEN i IN (1, 30000) THEN 1e308 WHEN i = 15000 THEN -1e308 ELSE 0 END
FROM generate_series(1, 30000) i;
ALTER TABLE par_special SET (parallel_workers = 2);
ANALYZE par_special;
SET parallel_leader_participation = off;
SELECT par_plan_has('SELECT gpu_sum(negz) FROM par_special', 'Partial Aggregate') AS partial;
SELECT gpu_sum(negz) AS sum_negz, gpu_max(negz) AS max_negz, gpu_sum(mixz) AS sum_mixz,
       gpu_min(mixz) AS min_mixz, gpu_max(mixz) AS max_mixz, gpu_top2(mixz) AS top2_mixz
FROM par_special;                                       -- -0 -0 0 -0 0 {0,-0}
SELECT gpu_sum(infs) AS sum_infs, gpu_sum(infs) FILTER (WHERE i < 30000) AS sum_pinf,
       gpu_max(infs) AS max_infs, gpu_min(infs) AS min_infs, gpu_avg(infs) AS avg_infs
FROM par_special;                                       -- NaN Infinity Infinity -Infinity NaN
SELECT gpu_sum(nan) AS sum_nan, gpu_max(nan) AS max_nan, gpu_top2(nan) AS top2_nan,
       gpu_sum(nan) FILTER (WHERE i <> 20000) AS sum_without
FROM par_special;                                       -- NaN NaN {NaN,30000} 449995000 rounded to real: 449995008
SELECT gpu_sum(big) AS sum_big FROM par_special;        -- 1e+308 (no overflow: the exact sum is 1e308)
RESET parallel_leader_participation;
DROP TABLE par_special;

-- a parallel plan over a table with no non-NULL value
CREATE TABLE par_nulls (x int8, y float8);
INSERT INTO par_nulls SELECT NULL, NULL FROM generate_series(1, 10000);
ALTER TABLE par_nulls SET (parallel_workers = 2);
ANALYZE par_nulls;
SELECT par_plan_has('SELECT gpu_sum(x) FROM par_nulls', 'Partial Aggregate') AS partial;
SELECT gpu_sum(x), gpu_sum(y), gpu_avg(x), gpu_min(y), gpu_max(x), gpu_top2(y), gpu_topk(x, 3) FROM par_nulls;

RESET max_parallel_workers_per_gather;
RESET min_parallel_table_scan_size;
RESET parallel_tuple_cost;
RESET parallel_setup_cost;
DROP TABLE par, par_serial, par_serial_g, par_nulls;
DROP FUNCTION par_pow2(int);
DROP FUNCTION par_plan_has(text, text, boolean);
RESET gpu_reduce.bulk_scan;
