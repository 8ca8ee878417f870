-- GPU-only checks (test/gpu_host.sh runs this with shared_preload_libraries =
-- gpu_reduce and gpu_reduce.min_gpu_rows = 1 on a host with a GPU).  Every
-- check raises an exception on failure; the last line is printed only if all
-- of them passed.
\set ON_ERROR_STOP 1
CREATE EXTENSION IF NOT EXISTS gpu_reduce;
-- parallel workers count their batches in their own backends
SET max_parallel_workers_per_gather = 0;

-- the service found a GPU
DO $$
BEGIN
	IF (SELECT count(*) FROM gpu_reduce_devices()) = 0 THEN
		RAISE EXCEPTION 'gpu_only: no GPU listed by gpu_reduce_devices()';
	END IF;
END $$;

-- raises unless every batch since the last gpu_reduce_stats_reset() went to
-- the GPU (none to the CPU, no fallback) and they held at least min_rows rows
CREATE FUNCTION pg_temp.check_all_on_gpu(what text, min_rows bigint) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
	st record;
BEGIN
	SELECT * INTO st FROM gpu_reduce_stats();
	RAISE NOTICE 'gpu_only: % stats %', what, st;
	IF st.gpu_batches = 0 OR st.gpu_rows < min_rows OR st.cpu_batches <> 0
		OR st.gpu_fallbacks <> 0 THEN
		RAISE EXCEPTION 'gpu_only: % batches did not all go to the GPU: %', what, st;
	END IF;
END $$;

DROP TABLE IF EXISTS gpu_t;
CREATE TABLE gpu_t AS
	SELECT (i::int8 * 7919 % 1000003 - 500000)::int8 AS x,
		   (i::int8 * 7919 % 1000003 - 500000)::float8 * 0.375 AS f,
		   (i % 30000)::int2 AS s,
		   (i::int8 * 31 % 100003)::int4 AS n,
		   (i % 977 - 488)::float4 * 0.25::float4 AS r
	FROM generate_series(1, 2000000) i;

-- every aggregate and type, each batch on the GPU, answers equal to native
SELECT gpu_reduce_stats_reset();
DO $$
DECLARE
	ok boolean;
BEGIN
	SELECT gpu_sum(x) = sum(x) AND gpu_sum(f) = sum(f) AND gpu_sum(s) = sum(s)
		AND gpu_sum(n) = sum(n) AND gpu_sum(r) = sum(r::float8)::real
	INTO ok FROM gpu_t;
	IF NOT ok THEN
		RAISE EXCEPTION 'gpu_only: sums differ from native';
	END IF;
	SELECT gpu_min(x) = min(x) AND gpu_max(x) = max(x) AND gpu_min(f) = min(f)
		AND gpu_max(f) = max(f) AND gpu_min(s) = min(s) AND gpu_max(r) = max(r)
	INTO ok FROM gpu_t;
	IF NOT ok THEN
		RAISE EXCEPTION 'gpu_only: min/max differ from native';
	END IF;
	SELECT gpu_avg(x)::text = avg(x)::text AND gpu_avg(n)::text = avg(n)::text
		AND gpu_avg(f) = sum(f) / count(f)
	INTO ok FROM gpu_t;
	IF NOT ok THEN
		RAISE EXCEPTION 'gpu_only: avg differs from native';
	END IF;
	SELECT gpu_top2(x) = (SELECT array_agg(x ORDER BY x DESC) FROM (SELECT x FROM gpu_t ORDER BY x DESC LIMIT 2) a)
		AND gpu_topk(f, 1000) = (SELECT array_agg(f ORDER BY f DESC) FROM (SELECT f FROM gpu_t ORDER BY f DESC LIMIT 1000) a)
		AND gpu_topk(s, 5) = (SELECT array_agg(s ORDER BY s DESC) FROM (SELECT s FROM gpu_t ORDER BY s DESC LIMIT 5) a)
		AND gpu_top2(r) = (SELECT array_agg(r ORDER BY r DESC) FROM (SELECT r FROM gpu_t ORDER BY r DESC LIMIT 2) a)
	INTO ok FROM gpu_t;
	IF NOT ok THEN
		RAISE EXCEPTION 'gpu_only: top-k differs from ORDER BY ... LIMIT';
	END IF;
	-- the 7 float sums and top-k fill batches; min, max and the integer
	-- sums and averages fold in place (agg.c, row_folds)
	PERFORM pg_temp.check_all_on_gpu('row path', 7 * 2000000);
END $$;

-- the time types (1.2): int4/int8 batches on the GPU's integer kernels,
-- answers equal to native, every batch on the GPU
DROP TABLE IF EXISTS gpu_tt;
CREATE TABLE gpu_tt AS
	SELECT date '2000-01-01' + (i::int8 * 7919 % 100003 - 50000)::int AS d,
		   timestamp '2000-01-01' + (i::int8 * 2654435761 % 4000000007) * interval '1 second' AS ts,
		   timestamptz '2000-01-01 00:00+00' + (i::int8 * 40503 % 3000000017) * interval '1 millisecond' AS tz
	FROM generate_series(1, 2000000) i;
SELECT gpu_reduce_stats_reset();
DO $$
DECLARE
	ok boolean;
BEGIN
	SELECT gpu_min(d) = min(d) AND gpu_max(d) = max(d) AND gpu_min(ts) = min(ts)
		AND gpu_max(ts) = max(ts) AND gpu_min(tz) = min(tz) AND gpu_max(tz) = max(tz)
	INTO ok FROM gpu_tt;
	IF NOT ok THEN
		RAISE EXCEPTION 'gpu_only: time type min/max differ from native';
	END IF;
	SELECT gpu_top2(d) = (SELECT array_agg(d ORDER BY d DESC) FROM (SELECT d FROM gpu_tt ORDER BY d DESC LIMIT 2) a)
		AND gpu_topk(tz, 1000) = (SELECT array_agg(tz ORDER BY tz DESC) FROM (SELECT tz FROM gpu_tt ORDER BY tz DESC LIMIT 1000) a)
	INTO ok FROM gpu_tt;
	IF NOT ok THEN
		RAISE EXCEPTION 'gpu_only: time type top-k differs from ORDER BY ... LIMIT';
	END IF;
	-- the two top-k fill batches; the 6 min/max fold in place (agg.c)
	PERFORM pg_temp.check_all_on_gpu('time types', 2 * 2000000);
END $$;

-- min, max and integer sum and avg batches of every type on the GPU: the
-- row path folds them in place, so they come from the bulk scan's CPU
-- decoding, each query alone on its table (the bulk scan's own plan),
-- compared with native's answers
SET gpu_reduce.page_path = off;
CREATE TEMP TABLE native_mm AS
	SELECT (SELECT min(x) FROM gpu_t) AS x_lo, (SELECT max(x) FROM gpu_t) AS x_hi,
		   (SELECT min(f) FROM gpu_t) AS f_lo, (SELECT max(f) FROM gpu_t) AS f_hi,
		   (SELECT min(s) FROM gpu_t) AS s_lo, (SELECT max(n) FROM gpu_t) AS n_hi,
		   (SELECT max(r) FROM gpu_t) AS r_hi, (SELECT min(d) FROM gpu_tt) AS d_lo,
		   (SELECT max(ts) FROM gpu_tt) AS ts_hi, (SELECT min(tz) FROM gpu_tt) AS tz_lo,
		   (SELECT max(tz) FROM gpu_tt) AS tz_hi, (SELECT sum(x) FROM gpu_t) AS x_sum,
		   (SELECT sum(s) FROM gpu_t) AS s_sum, (SELECT sum(n) FROM gpu_t) AS n_sum,
		   (SELECT avg(x)::text FROM gpu_t) AS x_avg, (SELECT avg(n)::text FROM gpu_t) AS n_avg;
SELECT gpu_reduce_stats_reset();
DO $$
DECLARE
	ok boolean;
BEGIN
	SELECT g.x_lo = n.x_lo AND g.x_hi = n.x_hi AND g.f_lo = n.f_lo AND g.f_hi = n.f_hi
		AND g.s_lo = n.s_lo AND g.n_hi = n.n_hi AND g.r_hi = n.r_hi
		AND t.d_lo = n.d_lo AND t.ts_hi = n.ts_hi AND t.tz_lo = n.tz_lo AND t.tz_hi = n.tz_hi
		AND g.x_sum = n.x_sum AND g.s_sum = n.s_sum AND g.n_sum = n.n_sum
		AND g.x_avg = n.x_avg AND g.n_avg = n.n_avg
	INTO ok
	FROM (SELECT gpu_min(x) AS x_lo, gpu_max(x) AS x_hi, gpu_min(f) AS f_lo, gpu_max(f) AS f_hi,
				 gpu_min(s) AS s_lo, gpu_max(n) AS n_hi, gpu_max(r) AS r_hi,
				 gpu_sum(x) AS x_sum, gpu_sum(s) AS s_sum, gpu_sum(n) AS n_sum,
				 gpu_avg(x)::text AS x_avg, gpu_avg(n)::text AS n_avg FROM gpu_t) g,
		 (SELECT gpu_min(d) AS d_lo, gpu_max(ts) AS ts_hi, gpu_min(tz) AS tz_lo,
				 gpu_max(tz) AS tz_hi FROM gpu_tt) t,
		 native_mm n;
	IF NOT ok THEN
		RAISE EXCEPTION 'gpu_only: bulk scan min/max/sum/avg differ from native';
	END IF;
	PERFORM pg_temp.check_all_on_gpu('bulk min/max/sum/avg', 16 * 2000000);
END $$;
RESET gpu_reduce.page_path;
DROP TABLE gpu_tt;

-- an exact float sum whose GPU batches must give the CPU's bits
SELECT gpu_reduce_stats_reset();
SET gpu_reduce.enabled = off;
CREATE TEMP TABLE cpu_answer AS
	SELECT gpu_sum(v) AS s8, gpu_sum(v::float4) AS s4
	FROM (SELECT (i % 2000 - 1000) * 10 ^ (i % 37 - 18) AS v FROM generate_series(1, 1000000) i) q;
RESET gpu_reduce.enabled;
DO $$
DECLARE
	ok boolean;
BEGIN
	SELECT g.s8 = c.s8 AND float8send(g.s8) = float8send(c.s8) AND float4send(g.s4) = float4send(c.s4)
	INTO ok
	FROM (SELECT gpu_sum(v) AS s8, gpu_sum(v::float4) AS s4
		  FROM (SELECT (i % 2000 - 1000) * 10 ^ (i % 37 - 18) AS v FROM generate_series(1, 1000000) i) q) g,
		 cpu_answer c;
	IF NOT ok THEN
		RAISE EXCEPTION 'gpu_only: exact float sum on the GPU differs from the CPU';
	END IF;
	IF (SELECT gpu_batches FROM gpu_reduce_stats()) = 0 THEN
		RAISE EXCEPTION 'gpu_only: the float sums did not run on the GPU';
	END IF;
END $$;

-- cancel: statement_timeout interrupts a GPU query, and its slots come back
SET statement_timeout = '200ms';
\timing on
DO $$
BEGIN
	PERFORM gpu_sum(x), gpu_sum(f) FROM gpu_t, generate_series(1, 50);
	RAISE EXCEPTION 'gpu_only: statement_timeout did not fire';
EXCEPTION WHEN query_canceled THEN
	RAISE NOTICE 'gpu_only: canceled by statement_timeout as expected';
END $$;
\timing off
RESET statement_timeout;
SELECT pg_sleep(0.2);
DO $$
BEGIN
	IF EXISTS (SELECT 1 FROM gpu_reduce_slots() WHERE state <> 'free' AND slots > 0) THEN
		RAISE EXCEPTION 'gpu_only: slots not returned after cancel: %',
			(SELECT string_agg(state || '=' || slots, ', ') FROM gpu_reduce_slots() WHERE slots > 0);
	END IF;
END $$;

-- 1000 queries leave every slot free (a float sum: batched on either path)
CREATE TEMP TABLE small AS SELECT i::float8 AS x FROM generate_series(1, 200000) i;
DO $$
DECLARE
	total numeric;
BEGIN
	FOR q IN 1..1000 LOOP
		SELECT gpu_sum(x) INTO total FROM small;
		IF total <> 20000100000 THEN
			RAISE EXCEPTION 'gpu_only: wrong sum % in query %', total, q;
		END IF;
	END LOOP;
END $$;
DO $$
BEGIN
	IF EXISTS (SELECT 1 FROM gpu_reduce_slots() WHERE state <> 'free' AND slots > 0) THEN
		RAISE EXCEPTION 'gpu_only: slots leaked over 1000 queries';
	END IF;
END $$;
SELECT * FROM gpu_reduce_slots() WHERE slots > 0;

-- a failed GPU batch: reduced on the CPU with one WARNING and counted, or an
-- ERROR with gpu_reduce.fallback = off; the session stays usable (float sums
-- and top-k: the row path batches them; it folds min, max and integer sums)
SELECT gpu_reduce_stats_reset();
SET gpu_reduce.debug_fail_gpu = on;
DO $$
DECLARE
	ok boolean;
	st record;
BEGIN
	SELECT gpu_sum(f) = sum(f) AND gpu_top2(x) = (SELECT array_agg(x ORDER BY x DESC) FROM (SELECT x FROM gpu_t ORDER BY x DESC LIMIT 2) a)
	INTO ok FROM gpu_t;
	SELECT * INTO st FROM gpu_reduce_stats();
	RAISE NOTICE 'gpu_only: injected failures: %', st;
	IF NOT ok OR st.gpu_fallbacks = 0 OR st.gpu_batches <> 0 THEN
		RAISE EXCEPTION 'gpu_only: fallback after a GPU failure did not work: %', st;
	END IF;
END $$;
SET gpu_reduce.fallback = off;
DO $$
BEGIN
	PERFORM gpu_sum(f) FROM gpu_t;
	RAISE EXCEPTION 'gpu_only: no ERROR with gpu_reduce.fallback = off';
EXCEPTION WHEN system_error THEN
	RAISE NOTICE 'gpu_only: fallback = off gave the expected ERROR (%)', SQLERRM;
END $$;
RESET gpu_reduce.fallback;
RESET gpu_reduce.debug_fail_gpu;
SELECT gpu_sum(x) = sum(x) AS usable_after_error FROM gpu_t;
DO $$
BEGIN
	IF EXISTS (SELECT 1 FROM gpu_reduce_slots() WHERE state <> 'free' AND slots > 0) THEN
		RAISE EXCEPTION 'gpu_only: slots leaked after injected failures';
	END IF;
END $$;

\echo gpu_only: all checks passed
