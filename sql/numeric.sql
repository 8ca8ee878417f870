--
-- The aggregates over numeric.  gpu_sum and gpu_avg are exact and their text
-- is sum()'s and avg()'s for every input, scale included (sum keeps the
-- largest input scale; avg follows numeric division's display scale).  NaN
-- in, NaN out; Infinity + -Infinity is NaN, as PostgreSQL 14+ sums them.
-- gpu_min, gpu_max, gpu_top2 and gpu_topk use numeric order (NaN greatest)
-- and return the input values unchanged (1.50 stays 1.50); among equal
-- values of different scales the one of smaller scale counts as smaller.
--
-- nchk(q): q's gpu answers against the native ones as text, for one set of
-- values given as a query of one numeric column x (the answers printed cut
-- to 60 characters).
CREATE FUNCTION nchk(q text, OUT sum_ok boolean, OUT avg_ok boolean, OUT min_ok boolean,
                     OUT max_ok boolean, OUT top_ok boolean, OUT gpu_sum text, OUT gpu_avg text)
LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE format($f$
        SELECT gpu_sum(x)::text IS NOT DISTINCT FROM sum(x)::text,
               gpu_avg(x)::text IS NOT DISTINCT FROM avg(x)::text,
               gpu_min(x) IS NOT DISTINCT FROM min(x), gpu_max(x) IS NOT DISTINCT FROM max(x),
               gpu_topk(x, 3) IS NOT DISTINCT FROM (array_agg(x ORDER BY x DESC) FILTER (WHERE x IS NOT NULL))[1:3],
               left(gpu_sum(x)::text, 60), left(gpu_avg(x)::text, 60)
        FROM (%s) s(x)$f$, q)
    INTO sum_ok, avg_ok, min_ok, max_ok, top_ok, gpu_sum, gpu_avg;
END $$;

-- gpu_sum(numeric_col) is the numeric aggregate (before 1.2 it cast to double precision)
CREATE TABLE orders (i int, price numeric(12,2), qty numeric, tiny numeric(5,-3));
INSERT INTO orders
SELECT i, CASE WHEN i % 13 <> 0 THEN ((i::bigint * 2654435761) % 100000000000 - 30000000000) / 100.0 END,
       CASE WHEN i % 17 <> 0 THEN ((i % 1000 + 1)::text || 'e' || (i % 41 - 20))::numeric END,
       CASE WHEN i % 5 <> 0 THEN (i * 7919) % 99999 END
FROM generate_series(1, 100000) i;
SELECT pg_typeof(gpu_sum(price)) AS sum_type, pg_typeof(gpu_avg(price)) AS avg_type,
       pg_typeof(gpu_min(price)) AS min_type, pg_typeof(gpu_topk(price, 2)) AS topk_type
FROM orders;
SELECT gpu_sum(price), sum(price), gpu_avg(price), avg(price) FROM orders;
SELECT gpu_min(price), min(price), gpu_max(price), max(price), gpu_top2(price), gpu_topk(price, 4) FROM orders;
SELECT gpu_sum(qty)::text = sum(qty)::text AS qty_sum, gpu_avg(qty)::text = avg(qty)::text AS qty_avg,
       gpu_min(qty) = min(qty) AS qty_min, gpu_max(qty) = max(qty) AS qty_max,
       gpu_sum(tiny)::text = sum(tiny)::text AS tiny_sum, gpu_avg(tiny)::text = avg(tiny)::text AS tiny_avg
FROM orders;
SELECT gpu_sum(qty), gpu_avg(qty), gpu_sum(tiny), gpu_avg(tiny), gpu_max(tiny) FROM orders;

-- sets of values: mixed scales, the 128-bit boundary and far past it,
-- negative scales of numeric(p,-s), NaN and the infinities, NULL and empty
SELECT name, (nchk(q)).* FROM (VALUES
  ('mixed scales', $$VALUES (1::numeric), (1.5), (0.001), (123456789012345678901234567890.123)$$),
  ('one value', $$VALUES (1.50::numeric)$$),
  ('zero scales', $$VALUES (0.000::numeric), (0), (0.0)$$),
  ('negative', $$VALUES (-1.25::numeric), (-3), (2.125)$$),
  ('int64 edge', $$VALUES (9223372036854775807::numeric), (9223372036854775807), (1)$$),
  ('2^127 - 1', $$VALUES (170141183460469231731687303715884105727::numeric), (1), (-1)$$),
  ('past 2^127', $$VALUES (170141183460469231731687303715884105727::numeric), (170141183460469231731687303715884105727), (1)$$),
  ('10^38 at scale 2', $$VALUES (99999999999999999999999999999999999999::numeric), (0.01), (99999999999999999999999999999999999999)$$),
  ('scale 38', $$VALUES (0.00000000000000000000000000000000000001::numeric), (1.5), (-2)$$),
  ('scale 39', $$VALUES (0.000000000000000000000000000000000000001::numeric), (1.5), (-2)$$),
  ('scale 60', $$VALUES (1e-60::numeric), (3), (2.5e-59)$$),
  ('1e100', $$VALUES (1e100::numeric), (1), (-1e100), (0.5)$$),
  ('1e-100', $$VALUES (1e-100::numeric), (1), (1e-100)$$),
  ('1000 digits', $$SELECT (repeat('9', 1000) || '.' || repeat('1', 3))::numeric UNION ALL SELECT 1.5 UNION ALL SELECT -(repeat('9', 999))::numeric$$),
  ('overflowing sum', $$SELECT 99999999999999999999999999999999999.99::numeric FROM generate_series(1, 2000)$$),
  ('overflow then cancel', $$SELECT (CASE WHEN g % 2 = 0 THEN 1 ELSE -1 END) * 99999999999999999999999999999999999.99::numeric FROM generate_series(1, 2001) g$$),
  ('rising scales', $$SELECT round(g * 1.37::numeric, g % 45) FROM generate_series(1, 500) g$$),
  ('numeric(5,-3)', $$SELECT x::numeric(5,-3) FROM (VALUES (1234.5::numeric), (99999499), (-5678)) v(x)$$),
  ('NaN', $$VALUES (1::numeric), ('NaN'), (2)$$),
  ('Infinity', $$VALUES (1::numeric), ('Infinity'), (2)$$),
  ('-Infinity', $$VALUES (1::numeric), ('-Infinity'), ('-Infinity')$$),
  ('+-Infinity', $$VALUES (1::numeric), ('Infinity'), ('-Infinity')$$),
  ('only NaN', $$VALUES ('NaN'::numeric)$$),
  ('NaN and Infinity', $$VALUES ('NaN'::numeric), ('Infinity'), ('-Infinity'), (5)$$),
  ('with NULLs', $$VALUES (NULL::numeric), (2.5), (NULL)$$),
  ('all NULL', $$VALUES (NULL::numeric), (NULL)$$),
  ('empty', $$SELECT 1::numeric WHERE false$$)
) v(name, q);

-- min, max and top-k keep the values as they came: scale, NaN, infinities
SELECT gpu_min(x), gpu_max(x), gpu_top2(x), gpu_topk(x, 10)
FROM (VALUES (1.50::numeric), (2), ('NaN'), ('-Infinity'), ('Infinity'), (1e-100), (-0.000), (1.5), (NULL)) v(x);
SELECT gpu_min(x), gpu_max(x), gpu_topk(x, 3)
FROM (VALUES (1.50::numeric), (1.5), (1.500), (1.5)) v(x);   -- 1.5 1.500 {1.500,1.50,1.5}
SELECT gpu_max(x) FROM (VALUES (1.500::numeric), (1.5)) v(x);   -- 1.500 whatever the order
SELECT gpu_max(x) FROM (VALUES (1.5::numeric), (1.500)) v(x);
SELECT gpu_sum(x), gpu_avg(x), gpu_min(x), gpu_top2(x) FROM (VALUES (NULL::numeric)) v(x);

-- GROUP BY with many groups, FILTER, DISTINCT, ORDER BY in the call
SELECT count(*) AS groups, bool_and(ok) AS all_equal
FROM (SELECT gpu_sum(price)::text IS NOT DISTINCT FROM sum(price)::text
             AND gpu_avg(price)::text IS NOT DISTINCT FROM avg(price)::text
             AND gpu_sum(qty)::text IS NOT DISTINCT FROM sum(qty)::text
             AND gpu_avg(qty)::text IS NOT DISTINCT FROM avg(qty)::text
             AND gpu_min(qty) IS NOT DISTINCT FROM min(qty) AND gpu_max(price) IS NOT DISTINCT FROM max(price)
             AND gpu_top2(price) IS NOT DISTINCT FROM (array_agg(price ORDER BY price DESC) FILTER (WHERE price IS NOT NULL))[1:2] AS ok
      FROM orders GROUP BY i % 4999) q;
SELECT gpu_sum(price) FILTER (WHERE i % 3 = 0)::text = sum(price) FILTER (WHERE i % 3 = 0)::text AS filter_sum,
       gpu_avg(DISTINCT tiny)::text = avg(DISTINCT tiny)::text AS distinct_avg,
       gpu_sum(DISTINCT qty)::text = sum(DISTINCT qty)::text AS distinct_sum,
       gpu_topk(DISTINCT tiny, 3) = (SELECT array_agg(t ORDER BY t DESC) FROM (SELECT DISTINCT tiny t FROM orders WHERE tiny IS NOT NULL ORDER BY 1 DESC LIMIT 3) s) AS distinct_topk
FROM orders;

-- window frames (moving: the aggregate restarts per frame)
SELECT bool_and(a IS NOT DISTINCT FROM b) AS window_sum, bool_and(c IS NOT DISTINCT FROM d) AS window_avg,
       bool_and(e IS NOT DISTINCT FROM f) AS window_max
FROM (SELECT gpu_sum(qty) OVER w::text AS a, sum(qty) OVER w::text AS b,
             gpu_avg(price) OVER w::text AS c, avg(price) OVER w::text AS d,
             gpu_max(qty) OVER w AS e, max(qty) OVER w AS f
      FROM orders WHERE i <= 3000 WINDOW w AS (ORDER BY i ROWS BETWEEN 4 PRECEDING AND 2 FOLLOWING)) q;
SELECT bool_and(a IS NOT DISTINCT FROM b) AS running_sum
FROM (SELECT gpu_sum(qty) OVER (ORDER BY i)::text AS a, sum(qty) OVER (ORDER BY i)::text AS b
      FROM orders WHERE i <= 2000) q;

-- the digit-by-digit order of min, max and top-k: values sharing leading
-- digits at every weight, both signs, zeros, equal values of other scales;
-- per group (the row path; the whole table through the bulk scan below)
CREATE TABLE digits AS
SELECT g, CASE WHEN g % 31 = 0 THEN round(0, g % 4)
               ELSE (CASE WHEN g % 3 = 0 THEN -1 ELSE 1 END)
                    * round((1 + (g % 17) * 0.0001 + (g % 5) * 1e-12) * 10000::numeric ^ ((g % 9) - 4), 16 + g % 7)
          END AS x
FROM generate_series(1, 20000) g;
SELECT count(*) AS groups, bool_and(ok) AS all_equal
FROM (SELECT gpu_min(x) = min(x) AND gpu_max(x) = max(x)
             AND gpu_topk(x, 5) = (array_agg(x ORDER BY x DESC))[1:5]
             AND gpu_topk(-x, 5) = (array_agg(-x ORDER BY -x DESC))[1:5] AS ok
      FROM digits GROUP BY g % 97) q;

-- a whole order: top-k with k = every row against ORDER BY, both ways, over
-- values of every weight from 1e-30 to 1e30, scales 0 to 29, NaN, the
-- infinities and zeros of several scales (row path; bulk scan below)
CREATE TABLE order_all AS
SELECT g, CASE WHEN g % 97 = 0 THEN 'NaN'::numeric WHEN g % 89 = 0 THEN 'Infinity'
               WHEN g % 83 = 0 THEN '-Infinity' WHEN g % 79 = 0 THEN round(0, g % 5)
               ELSE round((hashint4(g) % 1000000)::numeric * 10::numeric ^ (hashint4(3 * g) % 25),
                          abs(hashint4(5 * g)) % 30)
          END AS x
FROM generate_series(1, 1500) g;
SELECT gpu_topk(x, 1500) = array_agg(x ORDER BY x DESC) AS full_desc,
       gpu_topk(-x, 1500) = array_agg(-x ORDER BY -x DESC) AS full_asc,
       gpu_min(x) = min(x) AS min_ok, gpu_max(x) = max(x) AS max_ok
FROM order_all GROUP BY g % 1;

-- forced parallel plans with Partial Aggregate: the serialized states
SET gpu_reduce.bulk_scan = off;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
ALTER TABLE orders SET (parallel_workers = 2);
INSERT INTO orders VALUES (-1, NULL, 'NaN', NULL), (-2, NULL, 1e-50, NULL), (-3, 9999999999.99, 1e60, NULL);
EXPLAIN (COSTS OFF) SELECT gpu_sum(price), gpu_avg(qty), gpu_min(price), gpu_topk(qty, 3) FROM orders;
SELECT gpu_sum(price)::text = sum(price)::text AS par_sum, gpu_avg(price)::text = avg(price)::text AS par_avg,
       gpu_sum(qty)::text, gpu_avg(qty)::text,
       gpu_sum(tiny)::text = sum(tiny)::text AS par_sum_tiny,
       gpu_min(price) = min(price) AS par_min, gpu_max(qty), gpu_topk(qty, 3), gpu_top2(price)
FROM orders;
UPDATE orders SET qty = 1e-50 WHERE i = -1;
SELECT gpu_sum(qty)::text = sum(qty)::text AS par_sum_qty, gpu_avg(qty)::text = avg(qty)::text AS par_avg_qty FROM orders;
SELECT count(*) AS groups, bool_and(ok) AS all_equal
FROM (SELECT gpu_sum(qty)::text IS NOT DISTINCT FROM sum(qty)::text
             AND gpu_avg(price)::text IS NOT DISTINCT FROM avg(price)::text
             AND gpu_topk(qty, 2) IS NOT DISTINCT FROM (array_agg(qty ORDER BY qty DESC) FILTER (WHERE qty IS NOT NULL))[1:2] AS ok
      FROM orders GROUP BY i % 7) q;
RESET max_parallel_workers_per_gather;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
RESET gpu_reduce.bulk_scan;

-- the bulk scan reads numeric columns from the pages (the value where it
-- lies: short and long headers, compressed and TOAST-ed values, a column
-- added later with a default), serially and in parallel; a WHERE comparison
-- of a numeric column is not evaluated there (PostgreSQL's plan).  n_gpu(w)
-- has only gpu_* aggregates, so it gets the node; n_native(w) the native
-- answers; compared as text.
SET gpu_reduce.bulk_scan = on;
ALTER TABLE orders ADD COLUMN later numeric DEFAULT 12.345;
ALTER TABLE orders ALTER COLUMN qty SET STORAGE EXTERNAL;
INSERT INTO orders (i, price, qty, later)
SELECT -10 - g, g / 3.0, (repeat('98', 2500) || '.' || lpad(g::text, 2, '0'))::numeric,
       CASE WHEN g % 2 = 0 THEN -g * 1.5 END
FROM generate_series(1, 20) g;
-- the 5000-digit values are out of line (TOAST)
SELECT pg_column_size(qty) > 2000 AS big, count(*) FROM orders WHERE i < -10 GROUP BY 1;
SELECT pg_relation_size(reltoastrelid) > 0 AS toasted FROM pg_class WHERE relname = 'orders';
CREATE FUNCTION n_gpu(w text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE r text;
BEGIN
    EXECUTE 'SELECT row(gpu_sum(price), gpu_avg(price), gpu_min(price), gpu_max(price), gpu_top2(price),
                        md5(gpu_sum(qty)::text), md5(gpu_avg(qty)::text), gpu_min(qty), md5(gpu_max(qty)::text),
                        gpu_sum(tiny), gpu_avg(tiny), gpu_topk(tiny, 3), gpu_sum(later), gpu_avg(later), gpu_min(later))::text
             FROM orders WHERE ' || w INTO r;
    RETURN r;
END $$;
CREATE FUNCTION n_native(w text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE r text;
BEGIN
    EXECUTE 'SELECT row(sum(price), avg(price), min(price), max(price),
                        (array_agg(price ORDER BY price DESC) FILTER (WHERE price IS NOT NULL))[1:2],
                        md5(sum(qty)::text), md5(avg(qty)::text), min(qty), md5(max(qty)::text),
                        sum(tiny), avg(tiny), (array_agg(tiny ORDER BY tiny DESC) FILTER (WHERE tiny IS NOT NULL))[1:3],
                        sum(later), avg(later), min(later))::text
             FROM orders WHERE ' || w INTO r;
    RETURN r;
END $$;
SET max_parallel_workers_per_gather = 0;
EXPLAIN (COSTS OFF) SELECT gpu_sum(price), gpu_max(qty), gpu_topk(tiny, 3) FROM orders WHERE i > 0;
SELECT w, n_gpu(w) = n_native(w) AS bulk_serial_ok
FROM (VALUES ('true'), ('i > 0'), ('i < -10'), ('i % 2 = 0'), ('tiny IS NULL')) v(w);
SELECT n_gpu('i % 1000 = 7');
-- the whole order of order_all through the bulk scan
WITH gpu AS (SELECT gpu_topk(x, 1500) AS t, gpu_min(x) AS mn FROM order_all),
     native AS (SELECT array_agg(x ORDER BY x DESC) AS t, min(x) AS mn FROM order_all)
SELECT gpu.t = native.t AS bulk_full_desc, gpu.mn = native.mn AS bulk_min FROM gpu, native;
-- min, max and top-k over the digits table of above
EXPLAIN (COSTS OFF) SELECT gpu_min(x), gpu_max(x), gpu_topk(x, 20) FROM digits;
WITH gpu AS (SELECT gpu_min(x) AS mn, gpu_max(x) AS mx, gpu_topk(x, 20) AS top FROM digits),
     native AS (SELECT min(x) AS mn, max(x) AS mx, (array_agg(x ORDER BY x DESC))[1:20] AS top FROM digits)
SELECT gpu.mn = native.mn AS min_ok, gpu.mx = native.mx AS max_ok, gpu.top = native.top AS top_ok,
       gpu.mn, gpu.mx
FROM gpu, native;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
EXPLAIN (COSTS OFF) SELECT gpu_sum(price), gpu_max(qty), gpu_topk(tiny, 3) FROM orders;
SELECT w, n_gpu(w) = n_native(w) AS bulk_parallel_ok
FROM (VALUES ('true'), ('i > 0'), ('i < -10')) v(w);
RESET max_parallel_workers_per_gather;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
SET max_parallel_workers_per_gather = 0;
EXPLAIN (COSTS OFF) SELECT gpu_sum(i) FROM orders WHERE price > 0;
RESET max_parallel_workers_per_gather;
RESET gpu_reduce.bulk_scan;

-- serialized numeric states: valid ones described, malformed ones rejected (22P03)
CREATE FUNCTION nst_check(s bytea) RETURNS text LANGUAGE plpgsql AS
$$ BEGIN RETURN 'valid: ' || gpu_reduce_state_info(s);
   EXCEPTION WHEN OTHERS THEN
     RETURN SQLSTATE || CASE WHEN SQLERRM LIKE 'invalid gpu_reduce state%' THEN ' invalid gpu_reduce state'
                             ELSE ' unexpected message: ' || SQLERRM END; END $$;
SELECT name, nst_check(s) FROM (VALUES
  ('sum',              '\x010109'::bytea || int8send(2) || int8send(0) || int8send(150) || int4send(2) || int8send(0) || int8send(0) || int8send(0) || int4send(-1)),
  ('sum slow not out', '\x010409'::bytea || int8send(3) || int8send(0) || int8send(150) || int4send(2) || int8send(1) || int8send(0) || int8send(0) || int4send(5) || convert_to('1e100', 'UTF8')),
  ('sum slow text',    '\x010109'::bytea || int8send(3) || int8send(0) || int8send(150) || int4send(2) || int8send(0) || int8send(0) || int8send(0) || int4send(4) || convert_to('12.5', 'UTF8')),
  ('sum slow NaN',     '\x010109'::bytea || int8send(3) || int8send(0) || int8send(150) || int4send(2) || int8send(0) || int8send(0) || int8send(0) || int4send(3) || convert_to('NaN', 'UTF8')),
  ('sum scale 39',     '\x010109'::bytea || int8send(2) || int8send(0) || int8send(150) || int4send(39) || int8send(0) || int8send(0) || int8send(0) || int4send(-1)),
  ('sum nan > count',  '\x010109'::bytea || int8send(2) || int8send(0) || int8send(150) || int4send(2) || int8send(3) || int8send(0) || int8send(0) || int4send(-1)),
  ('sum short',        '\x010109'::bytea || int8send(2) || int8send(0) || int8send(150) || int4send(2)),
  ('sum length',       '\x010109'::bytea || int8send(2) || int8send(0) || int8send(150) || int4send(2) || int8send(0) || int8send(0) || int8send(0) || int4send(50) || convert_to('1', 'UTF8')),
  ('max',              '\x010309'::bytea || int8send(4) || int4send(4) || convert_to('1.50', 'UTF8')),
  ('max Infinity',     '\x010309'::bytea || int8send(4) || int4send(8) || convert_to('Infinity', 'UTF8')),
  ('max 1e5',          '\x010309'::bytea || int8send(4) || int4send(3) || convert_to('1e5', 'UTF8')),
  ('max garbage',      '\x010309'::bytea || int8send(4) || int4send(3) || convert_to('1-2', 'UTF8')),
  ('max none',         '\x010309'::bytea || int8send(4) || int4send(-1)),
  ('max trailing',     '\x010309'::bytea || int8send(4) || int4send(1) || convert_to('12', 'UTF8')),
  ('topk',             '\x010509'::bytea || int8send(5) || int4send(2) || int4send(2) || int4send(3) || convert_to('NaN', 'UTF8') || int4send(1) || convert_to('7', 'UTF8')),
  ('topk ascending',   '\x010509'::bytea || int8send(5) || int4send(2) || int4send(2) || int4send(1) || convert_to('7', 'UTF8') || int4send(3) || convert_to('NaN', 'UTF8')),
  ('topk count',       '\x010509'::bytea || int8send(5) || int4send(3) || int4send(2) || int4send(3) || convert_to('NaN', 'UTF8') || int4send(1) || convert_to('7', 'UTF8'))
) v(name, s);
DROP TABLE orders, digits, order_all;
