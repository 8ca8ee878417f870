-- The expression program on the GPU's page path (test/gpu/expr_page.sh runs
-- this on a GPU host, the buffer pool registered): TPC-H Q6's shape and
-- computed sums over :rows rows with numeric(15,2) columns, each answer
-- compared as text with PostgreSQL's own plan (gpu_reduce.bulk_scan = off),
-- with EXPLAIN ANALYZE's page path and counters; rows the program hands
-- back to PostgreSQL a few per job (w: too wide for the program) and too
-- many for a job's list (w2: the job is decoded on the CPU), and
-- PostgreSQL's error raised from a row handed back (e); numeric quotients
-- (those of another scale than planned handed back).  Every check raises
-- an exception on failure; the last line is printed only if all passed.
\set ON_ERROR_STOP 1
CREATE EXTENSION IF NOT EXISTS gpu_reduce;
CREATE EXTENSION IF NOT EXISTS pg_prewarm;
SET gpu_reduce.min_gpu_rows = 1;
-- native aggregates taken (test/gpu_host.sh turns them off in the database it shares)
SET gpu_reduce.native_aggregates = on;
SET max_parallel_workers_per_gather = 0;

DROP TABLE IF EXISTS xp;
CREATE TABLE xp (l_quantity numeric(15,2), l_extendedprice numeric(15,2),
                 l_discount numeric(15,2), l_shipdate date, k int4, a int4, e int4,
                 w numeric(30,4), w2 numeric(30,4));
INSERT INTO xp
SELECT 1 + g * 37 % 50, (g::int8 * 7919 % 10000000) / 100.0 + 900,
       CASE WHEN g % 23 <> 0 THEN g % 11 / 100.0 END,
       date '1992-01-01' + g * 13 % 2526, g % 7, g % 1000 - 500,
       CASE WHEN g % 500000 = 11 THEN 2000000000 ELSE g % 1000 END,
       CASE WHEN g % 100000 = 7 THEN 12345678901234567890123456.1234 ELSE g / 8.0 END,
       CASE WHEN g % 10 = 3 THEN 12345678901234567890123456.1234 ELSE g / 16.0 END
FROM generate_series(1, :rows) g;
VACUUM ANALYZE xp;
SELECT pg_prewarm('xp') AS prewarmed_pages;

-- q through the node (EXPLAIN ANALYZE's page path and counters, the answer,
-- the median of 3 times) and through PostgreSQL's plan (answer, median time)
CREATE FUNCTION pg_temp.xp_run(q text, workers int,
	OUT page_path text, OUT gpu_pages bigint, OUT cpu_pages bigint, OUT pg_rows bigint,
	OUT same boolean, OUT node_ms numeric, OUT native_ms numeric, OUT answer text)
LANGUAGE plpgsql AS $$
DECLARE
	line text;
	native text;
	t0 timestamptz;
	tn numeric[] := '{}';
	tp numeric[] := '{}';
BEGIN
	PERFORM set_config('max_parallel_workers_per_gather', workers::text, true);
	FOR line IN EXECUTE 'EXPLAIN (ANALYZE, VERBOSE, COSTS OFF, TIMING OFF) ' || q LOOP
		IF line ~ 'Page Path:' THEN
			page_path := substring(line FROM 'Page Path: (.*)$');
		ELSIF line ~ 'GPU Decoded Pages:' THEN
			gpu_pages := substring(line FROM ': (\d+)')::bigint;
		ELSIF line ~ 'CPU Decoded Pages:' THEN
			cpu_pages := substring(line FROM ': (\d+)')::bigint;
		ELSIF line ~ 'Rows Evaluated by PostgreSQL:' THEN
			pg_rows := substring(line FROM ': (\d+)')::bigint;
		END IF;
	END LOOP;
	FOR i IN 1..3 LOOP
		PERFORM set_config('gpu_reduce.bulk_scan', 'on', true);
		t0 := clock_timestamp();
		EXECUTE 'SELECT t::text FROM (' || q || ') t' INTO answer;
		tn := tn || round(extract(epoch FROM clock_timestamp() - t0)::numeric * 1000, 1);
		PERFORM set_config('gpu_reduce.bulk_scan', 'off', true);
		t0 := clock_timestamp();
		EXECUTE 'SELECT t::text FROM (' || q || ') t' INTO native;
		tp := tp || round(extract(epoch FROM clock_timestamp() - t0)::numeric * 1000, 1);
	END LOOP;
	PERFORM set_config('gpu_reduce.bulk_scan', 'on', true);
	same := answer IS NOT DISTINCT FROM native;
	node_ms := (SELECT x FROM unnest(tn) x ORDER BY x OFFSET 1 LIMIT 1);
	native_ms := (SELECT x FROM unnest(tp) x ORDER BY x OFFSET 1 LIMIT 1);
END $$;

CREATE TEMP TABLE xp_cases (name text, q text, workers int, want text);
INSERT INTO xp_cases VALUES
('q6', $q$SELECT sum(l_extendedprice * l_discount) AS revenue FROM xp
   WHERE l_shipdate >= date '1994-01-01' AND l_shipdate < date '1994-01-01' + interval '1' year
   AND l_discount BETWEEN 0.06 - 0.01 AND 0.06 + 0.01 AND l_quantity < 24$q$, 0, 'gpu'),
('q6_gpu_sum', $q$SELECT gpu_sum(l_extendedprice * l_discount) AS revenue FROM xp
   WHERE l_shipdate >= date '1994-01-01' AND l_shipdate < date '1994-01-01' + interval '1' year
   AND l_discount BETWEEN 0.06 - 0.01 AND 0.06 + 0.01 AND l_quantity < 24$q$, 0, 'gpu'),
('q6_4_workers', $q$SELECT sum(l_extendedprice * l_discount) AS revenue FROM xp
   WHERE l_shipdate >= date '1994-01-01' AND l_shipdate < date '1994-01-01' + interval '1' year
   AND l_discount BETWEEN 0.06 - 0.01 AND 0.06 + 0.01 AND l_quantity < 24$q$, 4, 'gpu'),
('price_1_minus_disc', 'SELECT sum(l_extendedprice * (1 - l_discount)), avg(l_extendedprice * (1 - l_discount)), count(*), count(l_discount) FROM xp', 0, 'gpu'),
('in_list', 'SELECT count(*), sum(a * 3 + k), min(a - k), max(a::float8 * 1.5), gpu_avg(k * 2) FROM xp WHERE k IN (1, 3, 5)', 0, 'gpu'),
('col_vs_col', 'SELECT count(*), sum(l_quantity * 2), gpu_sum(a) FROM xp WHERE a > k AND l_quantity > l_discount * 100', 0, 'gpu'),
('few_handed_back', 'SELECT sum(w * 100), count(*), sum(a) FROM xp', 0, 'gpu'),
('job_list_overflow', 'SELECT sum(w2 * 100), count(*), sum(k) FROM xp', 0, 'overflow'),
('quotient_sum', 'SELECT sum(l_extendedprice / 1000), gpu_avg(l_extendedprice / 1000), count(*) FROM xp', 0, 'gpu'),
('quotient_qual', 'SELECT count(*), sum(l_quantity) FROM xp WHERE l_extendedprice / l_quantity > 2000', 0, 'gpu'),
('max_computed_numeric', 'SELECT max(l_extendedprice * l_discount) FROM xp WHERE k = 2', 0, 'off');

CREATE TEMP TABLE xp_results AS
SELECT c.name, c.workers, c.want, r.* FROM xp_cases c, LATERAL pg_temp.xp_run(c.q, c.workers) r;
SELECT name, workers, page_path, gpu_pages, cpu_pages, pg_rows, same, node_ms, native_ms,
       round(native_ms / nullif(node_ms, 0), 2) AS speedup, answer
FROM xp_results ORDER BY name;

-- the plans as EXPLAIN ANALYZE shows them
EXPLAIN (ANALYZE, VERBOSE, COSTS OFF)
SELECT sum(l_extendedprice * l_discount) AS revenue FROM xp
WHERE l_shipdate >= date '1994-01-01' AND l_shipdate < date '1994-01-01' + interval '1' year
  AND l_discount BETWEEN 0.06 - 0.01 AND 0.06 + 0.01 AND l_quantity < 24;
EXPLAIN (ANALYZE, VERBOSE, COSTS OFF)
SELECT sum(l_extendedprice * (1 - l_discount)), count(*) FROM xp;
EXPLAIN (ANALYZE, VERBOSE, COSTS OFF) SELECT sum(w * 100), count(*), sum(a) FROM xp;
EXPLAIN (ANALYZE, VERBOSE, COSTS OFF) SELECT sum(w2 * 100), count(*), sum(k) FROM xp;

-- the rows the program hands back: each one evaluated by PostgreSQL once
SELECT count(*) AS wide_w FROM xp WHERE w > 1e20;
SELECT count(*) AS wide_w2 FROM xp WHERE w2 > 1e20;

-- PostgreSQL's error from a row handed back (e * 2 out of int4's range)
DO $$
DECLARE
	node_err text;
	native_err text;
BEGIN
	BEGIN
		PERFORM sum(e * 2) FROM xp;
	EXCEPTION WHEN OTHERS THEN
		node_err := SQLSTATE || ' ' || SQLERRM;
	END;
	SET LOCAL gpu_reduce.bulk_scan = off;
	BEGIN
		PERFORM sum(e * 2) FROM xp;
	EXCEPTION WHEN OTHERS THEN
		native_err := SQLSTATE || ' ' || SQLERRM;
	END;
	RAISE NOTICE 'xp_error: node "%", native "%"', node_err, native_err;
	IF node_err IS NULL OR node_err IS DISTINCT FROM native_err THEN
		RAISE EXCEPTION 'expr_page: the errors differ';
	END IF;
END $$;

DO $$
DECLARE
	r record;
BEGIN
	FOR r IN SELECT * FROM xp_results LOOP
		IF NOT r.same THEN
			RAISE EXCEPTION 'expr_page: % answers differ: %', r.name, r.answer;
		END IF;
		IF r.want = 'gpu' AND (r.page_path IS DISTINCT FROM 'gpu' OR r.gpu_pages = 0) THEN
			RAISE EXCEPTION 'expr_page: % did not run on the GPU page path: %', r.name, r.page_path;
		END IF;
		IF r.want = 'overflow' AND (r.page_path IS DISTINCT FROM 'gpu' OR r.cpu_pages = 0) THEN
			RAISE EXCEPTION 'expr_page: % did not hand its jobs to the CPU: %', r.name, r.page_path;
		END IF;
		IF r.want = 'off' AND r.page_path NOT LIKE 'off%' THEN
			RAISE EXCEPTION 'expr_page: % ran on the page path: %', r.name, r.page_path;
		END IF;
	END LOOP;
	SELECT * INTO r FROM xp_results WHERE name = 'few_handed_back';
	IF r.cpu_pages <> 0 OR r.pg_rows <> (SELECT count(*) FROM xp WHERE w > 1e20) THEN
		RAISE EXCEPTION 'expr_page: rows handed back not evaluated once each: %', r;
	END IF;
	SELECT * INTO r FROM xp_results WHERE name = 'job_list_overflow';
	IF r.cpu_pages = 0 OR r.pg_rows <> (SELECT count(*) FROM xp WHERE w2 > 1e20) THEN
		RAISE EXCEPTION 'expr_page: an overflowing job was not decoded on the CPU: %', r;
	END IF;
END $$;

DROP TABLE xp;
SELECT 'expr_page: all checks passed' AS result;
