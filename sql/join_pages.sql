--
-- Hashed relations read by the node from their pages: a plain heap table
-- whose WHERE the node compiles (comparisons and the expression program, as
-- the probe table's) is read as the table is, with the query's snapshot,
-- instead of by its child plan.  Every answer compared as text with
-- PostgreSQL's own plan (gpu_reduce.bulk_scan = off).
--
LOAD 'gpu_reduce';
SET gpu_reduce.bulk_scan = on;
SET max_parallel_workers_per_gather = 0;

-- same(q): q's rows through the node and through PostgreSQL's own plan, as
-- sorted text, and whether the node ran it
CREATE FUNCTION same(q text, OUT node boolean, OUT same boolean, OUT answer text)
LANGUAGE plpgsql AS $$
DECLARE
    native text;
    line text;
BEGIN
    node := false;
    FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
        node := node OR line LIKE '%GpuReduce%';
    END LOOP;
    EXECUTE format('SELECT string_agg(r::text, '' '' ORDER BY r::text) FROM (%s) r', q) INTO answer;
    SET LOCAL gpu_reduce.bulk_scan = off;
    EXECUTE format('SELECT string_agg(r::text, '' '' ORDER BY r::text) FROM (%s) r', q) INTO native;
    SET LOCAL gpu_reduce.bulk_scan = on;
    same := answer IS NOT DISTINCT FROM native;
END $$;

-- hashed(q): the plan's lines that say where each hashed relation's rows come from
CREATE FUNCTION hashed(q text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
    line text;
BEGIN
    FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
        CONTINUE WHEN line !~ 'GpuReduce|Hashed:|Seq Scan|Index|Filter';
        RETURN NEXT line;
    END LOOP;
END $$;

-- a fact table and a dimension with a date, integers, text (some toasted),
-- NULL keys and repeated keys
CREATE TABLE pdim (d_key int4, d_day date, d_n int4, d_tag text, d_long text, d_big int8);
ALTER TABLE pdim ALTER COLUMN d_long SET STORAGE EXTERNAL;
INSERT INTO pdim
SELECT CASE WHEN i % 71 = 0 THEN NULL ELSE i % 2500 END, date '2020-01-01' + (i % 400), i % 37,
       't' || (i % 5), CASE WHEN i % 250 = 0 THEN repeat(md5(i::text), 200) ELSE 'short ' || (i % 3) END,
       i::int8 * 1000003
FROM generate_series(1, 3000) i;		-- keys 1-500 twice, some NULL
CREATE TABLE pfact (f_key int4, f_n int4, f_v numeric(10,2), f_day date);
INSERT INTO pfact
SELECT CASE WHEN i % 89 = 0 THEN NULL ELSE i % 2700 END, i % 13, (i % 500) / 3.0, date '2020-01-01' + (i % 300)
FROM generate_series(1, 40000) i;		-- keys 2500-2699 in no row of pdim
-- (an index on the key, which PostgreSQL's parallel nested loop probes: a
-- parallel join path over which the parallel node is offered)
CREATE INDEX ON pdim (d_key);
VACUUM ANALYZE pdim, pfact;
SELECT count(*) AS toasted FROM pdim WHERE length(d_long) > 2000;

-- a hashed relation's WHERE read from its pages: a date range, an integer
-- comparison, text equality, an IN list
SELECT * FROM same($$SELECT d_tag, count(*), sum(f_v) FROM pfact JOIN pdim ON d_key = f_key
  WHERE d_day >= date '2020-03-01' AND d_day < date '2020-06-01' GROUP BY 1$$);
SELECT hashed($$SELECT d_tag, count(*), sum(f_v) FROM pfact JOIN pdim ON d_key = f_key
  WHERE d_day >= date '2020-03-01' AND d_day < date '2020-06-01' GROUP BY 1$$);
SELECT * FROM same($$SELECT d_n, count(*), sum(f_v) FROM pfact JOIN pdim ON d_key = f_key WHERE d_n > 30 GROUP BY 1$$);
SELECT hashed($$SELECT d_n, count(*), sum(f_v) FROM pfact JOIN pdim ON d_key = f_key WHERE d_n > 30 GROUP BY 1$$);
SELECT * FROM same($$SELECT d_n, count(*), sum(f_v) FROM pfact JOIN pdim ON d_key = f_key WHERE d_tag = 't3' GROUP BY 1$$);
SELECT hashed($$SELECT d_n, count(*), sum(f_v) FROM pfact JOIN pdim ON d_key = f_key WHERE d_tag = 't3' GROUP BY 1$$);
SELECT * FROM same($$SELECT d_tag, count(*), min(d_day) FROM pfact JOIN pdim ON d_key = f_key WHERE d_n IN (1, 5, 7, 36) GROUP BY 1$$);
SELECT hashed($$SELECT d_tag, count(*), min(d_day) FROM pfact JOIN pdim ON d_key = f_key WHERE d_n IN (1, 5, 7, 36) GROUP BY 1$$);
-- a parameter of the WHERE (a correlated subquery: bound again at each rescan)
SELECT * FROM same($$SELECT g, (SELECT count(*) FROM pfact JOIN pdim ON d_key = f_key WHERE d_n = g) FROM generate_series(0, 3) g$$);
-- with ANALYZE the build's figures are the page read's
CREATE FUNCTION build(q text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
    line text;
BEGIN
    FOR line IN EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ' || q LOOP
        -- (where jobs filter a relation's pages: cpu mode's, as a GPU's vary)
        CONTINUE WHEN line !~ 'Workers|Hashed|Rows Matched|Seq Scan|Fetched by Index|Filtered by Keys' AND
            NOT (line ~ 'Pages Filtered by Jobs|Rows Kept by Jobs' AND
                 current_setting('gpu_reduce.page_path') = 'cpu');
        RETURN NEXT regexp_replace(line, '\d+ kB', 'N kB', 'g');
    END LOOP;
END $$;
SELECT build($$SELECT count(*) FROM pfact JOIN pdim ON d_key = f_key WHERE d_n > 30$$);
SELECT count(*) FROM pdim WHERE d_n > 30 AND d_key IS NOT NULL;

-- a WHERE the node does not compile keeps the relation's child plan
SELECT * FROM same($$SELECT d_n, count(*) FROM pfact JOIN pdim ON d_key = f_key WHERE md5(d_tag) > '5' GROUP BY 1$$);
SELECT hashed($$SELECT d_n, count(*) FROM pfact JOIN pdim ON d_key = f_key WHERE md5(d_tag) > '5' GROUP BY 1$$);
-- one clause not compiled: the whole WHERE stays the child plan's
SELECT hashed($$SELECT d_n, count(*) FROM pfact JOIN pdim ON d_key = f_key WHERE d_n > 3 AND md5(d_tag) > 'a' GROUP BY 1$$);
-- relations read from pages beside ones read by their child plans, in
-- either order
CREATE TABLE pgrp (g_id int4 PRIMARY KEY, g_label text);
INSERT INTO pgrp SELECT i, 'g' || (i % 4) FROM generate_series(0, 11) i;
ANALYZE pgrp;
SELECT * FROM same($$SELECT g_label, d_tag, count(*), sum(f_v) FROM pfact JOIN pdim ON d_key = f_key JOIN pgrp ON g_id = f_n
  WHERE d_n > 20 AND md5(g_label) > '5' GROUP BY 1, 2$$);
SELECT hashed($$SELECT g_label, d_tag, count(*), sum(f_v) FROM pfact JOIN pdim ON d_key = f_key JOIN pgrp ON g_id = f_n
  WHERE d_n > 20 AND md5(g_label) > '5' GROUP BY 1, 2$$);
SELECT * FROM same($$SELECT g_label, d_tag, count(*), sum(f_v) FROM pfact JOIN pdim ON d_key = f_key JOIN pgrp ON g_id = f_n
  WHERE md5(d_tag) > '5' AND g_id < 9 GROUP BY 1, 2$$);
SELECT hashed($$SELECT g_label, d_tag, count(*), sum(f_v) FROM pfact JOIN pdim ON d_key = f_key JOIN pgrp ON g_id = f_n
  WHERE md5(d_tag) > '5' AND g_id < 9 GROUP BY 1, 2$$);

-- row security: a table with it enabled keeps its child plan, which applies
-- the policy as PostgreSQL's plan does, for a user the policy binds (and
-- for the owner, whom it does not)
CREATE TABLE psec (s_key int4, s_owner text, s_w int4);
INSERT INTO psec SELECT i, CASE WHEN i % 3 = 0 THEN 'regress_pages_user' ELSE 'other' END, i % 7
FROM generate_series(0, 2699) i;
ANALYZE psec;
ALTER TABLE psec ENABLE ROW LEVEL SECURITY;
CREATE POLICY psec_own ON psec USING (s_owner = current_user);
CREATE ROLE regress_pages_user;
GRANT SELECT ON pfact, psec TO regress_pages_user;
SET ROLE regress_pages_user;
SELECT * FROM same($$SELECT s_w, count(*), sum(f_v) FROM pfact JOIN psec ON s_key = f_key GROUP BY 1$$);
SELECT hashed($$SELECT s_w, count(*), sum(f_v) FROM pfact JOIN psec ON s_key = f_key GROUP BY 1$$);
RESET ROLE;
SELECT hashed($$SELECT s_w, count(*), sum(f_v) FROM pfact JOIN psec ON s_key = f_key GROUP BY 1$$);
SELECT * FROM same($$SELECT s_w, count(*), sum(f_v) FROM pfact JOIN psec ON s_key = f_key GROUP BY 1$$);
DROP TABLE psec;
DROP OWNED BY regress_pages_user;
DROP ROLE regress_pages_user;

-- the transaction's own rows: inserted, deleted and updated in the hashed
-- relation, each seen as PostgreSQL's plan sees them
BEGIN;
INSERT INTO pdim VALUES (2600, date '2020-04-01', 33, 't9', 'new', 1), (2601, NULL, 34, 't9', NULL, 2);
SELECT * FROM same($$SELECT d_tag, count(*), sum(f_v) FROM pfact JOIN pdim ON d_key = f_key WHERE d_n > 30 GROUP BY 1$$);
DELETE FROM pdim WHERE d_key % 10 = 3;
SELECT * FROM same($$SELECT d_tag, count(*), sum(f_v) FROM pfact JOIN pdim ON d_key = f_key WHERE d_n > 30 GROUP BY 1$$);
UPDATE pdim SET d_n = 35, d_tag = 'upd' WHERE d_key % 10 = 4;
SELECT * FROM same($$SELECT d_tag, count(*), sum(f_v) FROM pfact JOIN pdim ON d_key = f_key WHERE d_n > 30 GROUP BY 1$$);
SELECT hashed($$SELECT d_tag, count(*), sum(f_v) FROM pfact JOIN pdim ON d_key = f_key WHERE d_n > 30 GROUP BY 1$$);
ROLLBACK;
-- rows another transaction deleted and committed are gone, the rest seen
-- (dead tuples not yet vacuumed on the pages), and rolled-back ones stay
DELETE FROM pdim WHERE d_key % 10 = 5;
BEGIN;
DELETE FROM pdim WHERE d_key % 10 = 6;
ROLLBACK;
SELECT * FROM same($$SELECT d_tag, count(*), sum(f_v) FROM pfact JOIN pdim ON d_key = f_key GROUP BY 1$$);
SELECT * FROM same($$SELECT count(*) FROM pfact JOIN pdim ON d_key = f_key WHERE d_key % 10 IN (5, 6)$$);

-- toasted text values (external, detoasted and copied into the image) as group keys
SELECT node, same, md5(answer) FROM same($$SELECT d_long, count(*), sum(f_v) FROM pfact JOIN pdim ON d_key = f_key
  WHERE d_n < 20 GROUP BY 1$$);
SELECT hashed($$SELECT d_long, count(*), sum(f_v) FROM pfact JOIN pdim ON d_key = f_key WHERE d_n < 20 GROUP BY 1$$);

-- text values stored compressed in the row (detoasted into the image),
-- short ones (copied as they are) and NULLs
CREATE TABLE pzip (z_key int4, z_text text);
INSERT INTO pzip SELECT i, CASE WHEN i % 7 = 0 THEN NULL WHEN i % 3 = 0 THEN repeat('ab' || (i % 4), 1500)
                                ELSE 'z' || (i % 5) END FROM generate_series(1, 400) i;
ANALYZE pzip;
SELECT count(*) AS compressed FROM pzip WHERE pg_column_size(z_text) < length(z_text);
SELECT node, same, md5(answer) FROM same($$SELECT z_text, count(*), sum(f_v) FROM pfact JOIN pzip ON z_key = f_key
  GROUP BY 1$$);
SELECT hashed($$SELECT z_text, count(*), sum(f_v) FROM pfact JOIN pzip ON z_key = f_key GROUP BY 1$$);
DROP TABLE pzip;

-- NULL keys: never matched in inner joins; a left join's row goes on with NULLs
SELECT * FROM same($$SELECT count(*), sum(f_v), count(d_tag) FROM pfact JOIN pdim ON d_key = f_key WHERE d_n < 5$$);
SELECT * FROM same($$SELECT d_tag, count(*), sum(f_v) FROM pfact LEFT JOIN pdim ON d_key = f_key AND d_n < 5 GROUP BY 1$$);
SELECT hashed($$SELECT d_tag, count(*), sum(f_v) FROM pfact LEFT JOIN pdim ON d_key = f_key AND d_n < 5 GROUP BY 1$$);
-- semi and anti joins
SELECT * FROM same($$SELECT f_n, count(*), sum(f_v) FROM pfact WHERE EXISTS (SELECT 1 FROM pdim WHERE d_key = f_key AND d_day < date '2020-02-01') GROUP BY 1$$);
SELECT hashed($$SELECT f_n, count(*), sum(f_v) FROM pfact WHERE EXISTS (SELECT 1 FROM pdim WHERE d_key = f_key AND d_day < date '2020-02-01') GROUP BY 1$$);
SELECT * FROM same($$SELECT f_n, count(*), sum(f_v) FROM pfact WHERE NOT EXISTS (SELECT 1 FROM pdim WHERE d_key = f_key AND d_tag IN ('t1', 't2')) GROUP BY 1$$);
SELECT hashed($$SELECT f_n, count(*), sum(f_v) FROM pfact WHERE NOT EXISTS (SELECT 1 FROM pdim WHERE d_key = f_key AND d_tag IN ('t1', 't2')) GROUP BY 1$$);
-- marked joins (the probe table inside EXISTS / NOT EXISTS): the hashed
-- relation, read from its pages, is the one the probes mark; an anti
-- join's NULL-key rows are emitted
SET gpu_reduce.page_path TO cpu;
SELECT * FROM same($$SELECT d_tag, count(*), sum(d_n) FROM pdim WHERE d_n > 10 AND EXISTS (SELECT 1 FROM pfact WHERE f_key = d_key AND f_n < 5) GROUP BY 1$$);
SELECT hashed($$SELECT d_tag, count(*), sum(d_n) FROM pdim WHERE d_n > 10 AND EXISTS (SELECT 1 FROM pfact WHERE f_key = d_key AND f_n < 5) GROUP BY 1$$);
SELECT * FROM same($$SELECT d_tag, count(*), sum(d_n) FROM pdim WHERE d_n > 10 AND NOT EXISTS (SELECT 1 FROM pfact WHERE f_key = d_key AND f_n < 5) GROUP BY 1$$);
SELECT hashed($$SELECT d_tag, count(*), sum(d_n) FROM pdim WHERE d_n > 10 AND NOT EXISTS (SELECT 1 FROM pfact WHERE f_key = d_key AND f_n < 5) GROUP BY 1$$);
RESET gpu_reduce.page_path;

-- a WHERE that raises: the row the program hands back is evaluated by
-- PostgreSQL, whose error (and SQLSTATE) it is; errors(q): q's SQLSTATE and
-- message through the node and through PostgreSQL's own plan
CREATE FUNCTION errors(q text) RETURNS SETOF text LANGUAGE plpgsql AS $$
BEGIN
    FOR i IN 1..2 LOOP
        PERFORM set_config('gpu_reduce.bulk_scan', CASE WHEN i = 1 THEN 'on' ELSE 'off' END, true);
        BEGIN
            EXECUTE q;
            RETURN NEXT CASE WHEN i = 1 THEN 'node' ELSE 'native' END || ': no error';
        EXCEPTION WHEN OTHERS THEN
            RETURN NEXT CASE WHEN i = 1 THEN 'node' ELSE 'native' END || ': ' || SQLSTATE || ' ' || SQLERRM;
        END;
    END LOOP;
    PERFORM set_config('gpu_reduce.bulk_scan', 'on', true);
END $$;
SELECT hashed($$SELECT count(*) FROM pfact JOIN pdim ON d_key = f_key WHERE 100 / (d_n - 36) > 0$$);
SELECT errors($$SELECT count(*) FROM pfact JOIN pdim ON d_key = f_key WHERE 100 / (d_n - 36) > 0$$);
SELECT count(*) FROM pfact JOIN pdim ON d_key = f_key WHERE 100 / (d_n - 36) > 0;
SELECT hashed($$SELECT count(*) FROM pfact JOIN pdim ON d_key = f_key WHERE d_big * 10000000000000 > 0$$);
SELECT errors($$SELECT count(*) FROM pfact JOIN pdim ON d_key = f_key WHERE d_big * 10000000000000 > 0$$);
-- a row a cheaper conjunct rejects first raises nothing, as in PostgreSQL's plan
SELECT * FROM same($$SELECT count(*), sum(f_v) FROM pfact JOIN pdim ON d_key = f_key WHERE d_n < 36 AND 100 / (d_n - 36) < 0$$);

-- values computed from a hashed relation's columns (TPC-H Q12's CASE over
-- o_orderpriority: an expression that cannot raise, which PostgreSQL's plan
-- would compute) computed by the relation's program as its pages are read:
-- integers (negative ones, int2), floats (float8, float4), a date, NULLs,
-- repeated keys; with a WHERE (cpu mode: through list jobs); with rows the
-- program hands back (toasted text), whose values PostgreSQL computes; a
-- numeric value (the program holds it scaled, not as its Datum) keeps the
-- child plan
SELECT * FROM same($$SELECT f_n, sum(CASE WHEN d_tag IN ('t1', 't2') THEN 1 ELSE 0 END) hi,
  sum(CASE WHEN d_tag <> 't3' THEN -1 ELSE 0 END) lo, gpu_sum(CASE WHEN d_tag = 't4' THEN 0.5::float8 ELSE -1.25 END) f,
  min(CASE WHEN d_tag <> 't0' THEN d_day END) d, count(CASE WHEN d_tag = 't1' THEN NULL ELSE d_n END) c
  FROM pfact JOIN pdim ON d_key = f_key GROUP BY 1$$);
SELECT hashed($$SELECT f_n, sum(CASE WHEN d_tag IN ('t1', 't2') THEN 1 ELSE 0 END) FROM pfact JOIN pdim ON d_key = f_key GROUP BY 1$$);
SELECT * FROM same($$SELECT f_n, gpu_sum(CASE WHEN d_tag = 't4' THEN 0.5::float4 ELSE -1.25::float4 END) f4,
  max(CASE WHEN d_tag = 't4' THEN 0.5::float4 ELSE -1.25::float4 END) m4, min(CASE WHEN d_tag = 't1' THEN d_n::int2 END) i2
  FROM pfact JOIN pdim ON d_key = f_key GROUP BY 1$$);
SET gpu_reduce.page_path TO cpu;
SELECT * FROM same($$SELECT d_n, max(CASE WHEN d_tag = 't2' THEN d_big ELSE -1 END), count(*) FROM pfact JOIN pdim ON d_key = f_key
  WHERE d_n > 30 GROUP BY 1$$);
SELECT build($$SELECT d_n, max(CASE WHEN d_tag = 't2' THEN d_big ELSE -1 END), count(*) FROM pfact JOIN pdim ON d_key = f_key
  WHERE d_n > 30 GROUP BY 1$$);
RESET gpu_reduce.page_path;
SELECT * FROM same($$SELECT f_n, sum(CASE WHEN d_tag = 't3' THEN 2 ELSE -3 END), count(*) FROM pfact JOIN pdim ON d_key = f_key
  WHERE d_long <> 'short 1' GROUP BY 1$$);
SELECT * FROM same($$SELECT f_n, min(CASE WHEN d_tag = 't2' THEN 1.5 END), count(*) FROM pfact JOIN pdim ON d_key = f_key GROUP BY 1$$);
SELECT hashed($$SELECT f_n, min(CASE WHEN d_tag = 't2' THEN 1.5 END), count(*) FROM pfact JOIN pdim ON d_key = f_key GROUP BY 1$$);

-- values jobs: where a relation's keys and values are no varlenas, the rows
-- its list jobs keep come back as those columns, decoded (and computed)
-- where the job ran, and are not decoded again (cpu mode: the host runs
-- the jobs as a GPU would; Rows Kept by Jobs).  Integers, floats, a date,
-- with NULLs, through a WHERE; a computed value with no WHERE (TPC-H Q12's
-- orders); rows the program hands back (toasted text) beside kept ones; a
-- text value, which keeps plain list jobs
CREATE TABLE pval (v_key int4, v_i2 int2, v_f4 float4, v_f8 float8, v_day date, v_i8 int8, v_t text);
INSERT INTO pval
SELECT CASE WHEN i % 53 = 0 THEN NULL ELSE i % 2600 END,
       CASE WHEN i % 7 = 0 THEN NULL ELSE (i % 300 - 150)::int2 END,
       CASE WHEN i % 11 = 0 THEN NULL ELSE (i % 97) / 8.0 - 6 END,
       CASE WHEN i % 13 = 0 THEN NULL ELSE i / 3.0 - 900 END,
       CASE WHEN i % 17 = 0 THEN NULL ELSE date '2019-12-25' + i % 500 END,
       CASE WHEN i % 19 = 0 THEN NULL ELSE (i - 1500)::int8 * 1000000007 END,
       't' || i % 4
FROM generate_series(1, 3000) i;		-- keys 1-399 twice, some NULL
ANALYZE pval;
SET gpu_reduce.page_path TO cpu;
SELECT node, same FROM same($$SELECT f_n, count(*), sum(v_i2), count(v_i2), max(v_f4), gpu_sum(v_f8), min(v_day), max(v_day),
  sum(v_i8), count(v_i8) FROM pfact JOIN pval ON v_key = f_key WHERE v_key % 5 <> 2 GROUP BY 1$$);
SELECT hashed($$SELECT f_n, count(*), sum(v_i2) FROM pfact JOIN pval ON v_key = f_key WHERE v_key % 5 <> 2 GROUP BY 1$$);
SELECT build($$SELECT f_n, count(*), sum(v_i2) FROM pfact JOIN pval ON v_key = f_key WHERE v_key % 5 <> 2 GROUP BY 1$$);
SELECT count(*) FROM pval WHERE v_key % 5 <> 2;
SELECT * FROM same($$SELECT v_i2 % 3, count(*), gpu_sum(v_f4), min(v_i8) FROM pfact JOIN pval ON v_key = f_key
  WHERE v_day < date '2020-06-01' GROUP BY 1$$);
SELECT * FROM same($$SELECT f_n, sum(CASE WHEN v_t IN ('t1', 't2') THEN 1 ELSE 0 END) hi,
  sum(CASE WHEN v_t <> 't1' AND v_t <> 't2' THEN 1 ELSE 0 END) lo FROM pfact JOIN pval ON v_key = f_key GROUP BY 1$$);
SELECT build($$SELECT f_n, sum(CASE WHEN v_t IN ('t1', 't2') THEN 1 ELSE 0 END) hi FROM pfact JOIN pval ON v_key = f_key GROUP BY 1$$);
SELECT * FROM same($$SELECT f_n, sum(CASE WHEN d_tag = 't3' THEN 2 ELSE -3 END), count(*) FROM pfact JOIN pdim ON d_key = f_key
  WHERE d_long <> 'short 1' GROUP BY 1$$);
SELECT build($$SELECT f_n, sum(CASE WHEN d_tag = 't3' THEN 2 ELSE -3 END), count(*) FROM pfact JOIN pdim ON d_key = f_key
  WHERE d_long <> 'short 1' GROUP BY 1$$);
SELECT count(*) FILTER (WHERE length(d_long) > 2000) AS handed_back, count(*) AS hashed
FROM pdim WHERE d_long <> 'short 1' AND d_key IS NOT NULL;
-- built again at each rescan with the WHERE's parameter bound anew
SELECT * FROM same($$SELECT g, (SELECT count(*) || ':' || sum(v_i8) FROM pfact JOIN pval ON v_key = f_key WHERE v_i2 = g)
  FROM generate_series(-2, 1) g$$);
SELECT * FROM same($$SELECT v_t, count(*), sum(f_v) FROM pfact JOIN pval ON v_key = f_key WHERE v_i2 > 0 GROUP BY 1$$);
SELECT build($$SELECT v_t, count(*), sum(f_v) FROM pfact JOIN pval ON v_key = f_key WHERE v_i2 > 0 GROUP BY 1$$);
-- in a parallel plan, each participant's jobs take the pages it reads of
-- the relation, and EXPLAIN ANALYZE sums what all of them did: the same
-- pages and rows as serially (an index on the key: a parallel join path of
-- PostgreSQL's over which the parallel node is offered)
CREATE INDEX ON pval (v_key);
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
SET enable_hashjoin = off;
SET enable_mergejoin = off;
SELECT node, same FROM same($$SELECT f_n, count(*), sum(v_i2), count(v_i2), max(v_f4), gpu_sum(v_f8), min(v_day), max(v_day),
  sum(v_i8), count(v_i8) FROM pfact JOIN pval ON v_key = f_key WHERE v_key % 5 <> 2 GROUP BY 1$$);
SELECT build($$SELECT f_n, count(*), sum(v_i2) FROM pfact JOIN pval ON v_key = f_key WHERE v_key % 5 <> 2 GROUP BY 1$$);
SELECT * FROM same($$SELECT f_n, sum(CASE WHEN v_t IN ('t1', 't2') THEN 1 ELSE 0 END) hi,
  sum(CASE WHEN v_t <> 't1' AND v_t <> 't2' THEN 1 ELSE 0 END) lo FROM pfact JOIN pval ON v_key = f_key GROUP BY 1$$);
SELECT build($$SELECT f_n, sum(CASE WHEN v_t IN ('t1', 't2') THEN 1 ELSE 0 END) hi FROM pfact JOIN pval ON v_key = f_key GROUP BY 1$$);
SELECT * FROM same($$SELECT v_t, count(*), sum(f_v) FROM pfact JOIN pval ON v_key = f_key WHERE v_i2 > 0 GROUP BY 1$$);
SELECT build($$SELECT v_t, count(*), sum(f_v) FROM pfact JOIN pval ON v_key = f_key WHERE v_i2 > 0 GROUP BY 1$$);
SET parallel_leader_participation = off;
SELECT * FROM same($$SELECT v_i2 % 3, count(*), gpu_sum(v_f4), min(v_i8) FROM pfact JOIN pval ON v_key = f_key
  WHERE v_day < date '2020-06-01' GROUP BY 1$$);
SELECT build($$SELECT f_n, count(*), sum(v_i2) FROM pfact JOIN pval ON v_key = f_key WHERE v_key % 5 <> 2 GROUP BY 1$$);
RESET parallel_leader_participation;
RESET enable_hashjoin;
RESET enable_mergejoin;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
SET max_parallel_workers_per_gather = 0;
-- a relation fetched by the keys of the table's rows that the table's WHERE
-- keeps (a serial plan on a GPU, or cpu mode; GrScanJoin.probe_keys): where
-- it has 16 rows or more for each such row, the table's pages are read
-- first by the jobs, which bring those keys back (NULLs left out), then the
-- relation's rows are looked up in an index on its key and its own WHERE
-- applied; an int8 key equal to an int4 column
CREATE TABLE pbig (b_key int8 PRIMARY KEY, b_n int4, b_day date, b_t text);
INSERT INTO pbig SELECT i, i % 7, date '2020-01-01' + i % 90, 't' || i % 3 FROM generate_series(1, 40000) i;
ANALYZE pbig;
SELECT count(*), count(DISTINCT f_key) FROM pfact WHERE f_n = 3 AND f_v < 10;
SELECT * FROM same($$SELECT b_n, count(*), sum(f_v), min(b_day), max(b_key) FROM pfact JOIN pbig ON b_key = f_key
  WHERE f_n = 3 AND f_v < 10 GROUP BY 1$$);
SELECT build($$SELECT b_n, count(*), sum(f_v), min(b_day), max(b_key) FROM pfact JOIN pbig ON b_key = f_key
  WHERE f_n = 3 AND f_v < 10 GROUP BY 1$$);
SELECT build($$SELECT b_t, count(*), sum(f_v) FROM pfact JOIN pbig ON b_key = f_key
  WHERE f_n = 3 AND f_v < 10 AND b_day < date '2020-02-01' GROUP BY 1$$);
SELECT * FROM same($$SELECT b_t, count(*), sum(f_v) FROM pfact JOIN pbig ON b_key = f_key
  WHERE f_n = 3 AND f_v < 10 AND b_day < date '2020-02-01' GROUP BY 1$$);
-- (a left and an anti join, PostgreSQL's own joins made dear, as the
-- parallel cases make them, so that the plan is the node's on every major)
SET enable_nestloop = off;
SET enable_hashjoin = off;
SET enable_mergejoin = off;
SELECT * FROM same($$SELECT count(*), count(b_n), sum(b_n) FROM pfact LEFT JOIN pbig ON b_key = f_key AND b_n > 2
  WHERE f_n = 3 AND f_v < 10$$);
SELECT build($$SELECT count(*), count(b_n), sum(b_n) FROM pfact LEFT JOIN pbig ON b_key = f_key AND b_n > 2
  WHERE f_n = 3 AND f_v < 10$$);
SELECT * FROM same($$SELECT count(*), sum(f_v) FROM pfact
  WHERE f_n = 3 AND f_v < 10 AND NOT EXISTS (SELECT 1 FROM pbig WHERE b_key = f_key AND b_n <> 4)$$);
RESET enable_nestloop;
RESET enable_hashjoin;
RESET enable_mergejoin;
-- at each rescan the keys listed anew, the relation's WHERE bound anew
SELECT * FROM same($$SELECT g, (SELECT count(*) || ':' || sum(b_n) FROM pfact JOIN pbig ON b_key = f_key
  WHERE f_n = 3 AND f_v < 10 AND b_n <> g) FROM generate_series(2, 5) g$$);
SELECT build($$SELECT g, (SELECT count(*) || ':' || sum(b_n) FROM pfact JOIN pbig ON b_key = f_key
  WHERE f_n = 3 AND f_v < 10 AND b_n <> g) FROM generate_series(2, 5) g$$);
-- many keys for the relation's pages (in cpu mode three a page or more,
-- on a GPU a quarter): its pages are read by jobs that keep only the rows
-- of those keys (a semi join on an image of the keys), not looked up; its
-- values as values jobs' (b_n, b_day), as plain list jobs' (b_t, a text:
-- the rows listed are decoded here), with its own WHERE, a left join, an
-- anti join
SELECT count(DISTINCT f_key) >= 3 * (SELECT relpages FROM pg_class WHERE relname = 'pbig') AS many_keys
FROM pfact WHERE f_n = 3 AND f_v < 50;
SELECT * FROM same($$SELECT b_n, count(*), sum(f_v), min(b_day), max(b_key) FROM pfact JOIN pbig ON b_key = f_key
  WHERE f_n = 3 AND f_v < 50 GROUP BY 1$$);
SELECT build($$SELECT b_n, count(*), sum(f_v), min(b_day), max(b_key) FROM pfact JOIN pbig ON b_key = f_key
  WHERE f_n = 3 AND f_v < 50 GROUP BY 1$$);
SELECT * FROM same($$SELECT b_t, count(*), sum(f_v) FROM pfact JOIN pbig ON b_key = f_key
  WHERE f_n = 3 AND f_v < 50 AND b_day < date '2020-02-01' GROUP BY 1$$);
SELECT build($$SELECT b_t, count(*), sum(f_v) FROM pfact JOIN pbig ON b_key = f_key
  WHERE f_n = 3 AND f_v < 50 AND b_day < date '2020-02-01' GROUP BY 1$$);
SET enable_nestloop = off;
SET enable_hashjoin = off;
SET enable_mergejoin = off;
SELECT * FROM same($$SELECT count(*), count(b_n), sum(b_n) FROM pfact LEFT JOIN pbig ON b_key = f_key AND b_n > 2
  WHERE f_n = 3 AND f_v < 50$$);
SELECT * FROM same($$SELECT count(*), sum(f_v) FROM pfact
  WHERE f_n = 3 AND f_v < 50 AND NOT EXISTS (SELECT 1 FROM pbig WHERE b_key = f_key AND b_n <> 4)$$);
RESET enable_nestloop;
RESET enable_hashjoin;
RESET enable_mergejoin;
-- a key list longer than the planner expected (statistics older than the
-- rows): many keys for the pages, so the jobs keep the rows of the keys;
-- where they are fewer than that but more than a 16th of the relation's
-- rows (pwide's wide rows), the relation is read from its pages whole, as
-- without the list
CREATE TABLE pstale (s_key int4, s_n int4, s_v int4) WITH (autovacuum_enabled = off);
INSERT INTO pstale SELECT i % 30000 + 1, i % 1000, i % 7 FROM generate_series(1, 60000) i;
ANALYZE pstale;
UPDATE pstale SET s_n = 0 WHERE s_v = 3;
SELECT * FROM same($$SELECT b_n, count(*), sum(s_v) FROM pstale JOIN pbig ON b_key = s_key WHERE s_n = 0 GROUP BY 1$$);
SELECT build($$SELECT b_n, count(*), sum(s_v) FROM pstale JOIN pbig ON b_key = s_key WHERE s_n = 0 GROUP BY 1$$);
CREATE TABLE pwide (w_key int8 PRIMARY KEY, w_n int4, w_pad text);
INSERT INTO pwide SELECT i, i % 5, repeat('w', 300) FROM generate_series(1, 2000) i;
ANALYZE pwide;
SELECT count(DISTINCT s_key) AS keys, (SELECT relpages FROM pg_class WHERE relname = 'pwide') AS pages
FROM pstale WHERE s_n = 0 AND s_key <= 2000 AND s_key % 3 = 1;
SELECT * FROM same($$SELECT w_n, count(*), sum(s_v) FROM pstale JOIN pwide ON w_key = s_key
  WHERE s_n = 0 AND s_key <= 2000 AND s_key % 3 = 1 GROUP BY 1$$);
SELECT build($$SELECT w_n, count(*), sum(s_v) FROM pstale JOIN pwide ON w_key = s_key
  WHERE s_n = 0 AND s_key <= 2000 AND s_key % 3 = 1 GROUP BY 1$$);
DROP TABLE pwide;
-- with workers, the relation is read from its pages by the parallel plan
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
SET enable_hashjoin = off;
SET enable_mergejoin = off;
SELECT * FROM same($$SELECT b_n, count(*), sum(f_v) FROM pfact JOIN pbig ON b_key = f_key WHERE f_n = 3 AND f_v < 10 GROUP BY 1$$);
RESET enable_hashjoin;
RESET enable_mergejoin;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
SET max_parallel_workers_per_gather = 0;
DROP TABLE pbig, pstale;
RESET gpu_reduce.page_path;
DROP TABLE pval;

-- an empty hashed relation, one whose pages hold only deleted rows, and
-- one whose WHERE keeps no row
CREATE TABLE pempty (e_key int4, e_w int4);
ANALYZE pempty;
SELECT * FROM same($$SELECT count(*), sum(f_v) FROM pfact JOIN pempty ON e_key = f_key$$);
SELECT * FROM same($$SELECT count(*), sum(f_v), count(e_w) FROM pfact LEFT JOIN pempty ON e_key = f_key$$);
SELECT * FROM same($$SELECT count(*) FROM pfact WHERE NOT EXISTS (SELECT 1 FROM pempty WHERE e_key = f_key)$$);
SELECT hashed($$SELECT count(*), sum(f_v) FROM pfact JOIN pempty ON e_key = f_key$$);
INSERT INTO pempty SELECT i, i FROM generate_series(1, 1000) i;
DELETE FROM pempty;
SELECT * FROM same($$SELECT count(*), sum(f_v), count(e_w) FROM pfact LEFT JOIN pempty ON e_key = f_key$$);
SELECT build($$SELECT count(*), sum(f_v) FROM pfact JOIN pempty ON e_key = f_key$$);
SELECT * FROM same($$SELECT count(*), sum(f_v) FROM pfact JOIN pdim ON d_key = f_key WHERE d_n > 100$$);
DROP TABLE pempty;

-- parallel plans (PostgreSQL's own joins made dear, so that the plan is the
-- parallel node's), the leader scanning and not, and a rescanned Gather
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
SET enable_hashjoin = off;
SET enable_mergejoin = off;
EXPLAIN (COSTS OFF) SELECT d_tag, count(*), sum(f_v) FROM pfact JOIN pdim ON d_key = f_key WHERE d_n > 30 GROUP BY 1;
SELECT * FROM same($$SELECT d_tag, count(*), sum(f_v) FROM pfact JOIN pdim ON d_key = f_key WHERE d_n > 30 GROUP BY 1$$);
-- hashed once for all participants, each reading the pages it takes
SELECT build($$SELECT d_tag, count(*), sum(f_v) FROM pfact JOIN pdim ON d_key = f_key WHERE d_n > 30 GROUP BY 1$$);
SELECT node, same, md5(answer) FROM same($$SELECT d_long, count(*), sum(f_v) FROM pfact LEFT JOIN pdim ON d_key = f_key AND d_n < 20 GROUP BY 1$$);
SELECT * FROM same($$SELECT f_n, count(*) FROM pfact WHERE NOT EXISTS (SELECT 1 FROM pdim WHERE d_key = f_key AND d_tag = 't1') GROUP BY 1$$);
-- beside a relation read by its (partial) child plan
EXPLAIN (COSTS OFF) SELECT g_label, d_tag, count(*), sum(f_v) FROM pfact JOIN pdim ON d_key = f_key JOIN pgrp ON g_id = f_n
  WHERE d_n > 20 AND md5(g_label) > '5' GROUP BY 1, 2;
SELECT * FROM same($$SELECT g_label, d_tag, count(*), sum(f_v) FROM pfact JOIN pdim ON d_key = f_key JOIN pgrp ON g_id = f_n
  WHERE d_n > 20 AND md5(g_label) > '5' GROUP BY 1, 2$$);
-- a computed value, each participant computing its rows'
SELECT * FROM same($$SELECT f_n, sum(CASE WHEN d_tag IN ('t1', 't2') THEN 1 ELSE 0 END), count(*) FROM pfact JOIN pdim ON d_key = f_key
  WHERE d_n > 5 GROUP BY 1$$);
SELECT build($$SELECT f_n, sum(CASE WHEN d_tag IN ('t1', 't2') THEN 1 ELSE 0 END), count(*) FROM pfact JOIN pdim ON d_key = f_key
  WHERE d_n > 5 GROUP BY 1$$);
SET parallel_leader_participation = off;
SELECT * FROM same($$SELECT d_tag, count(*), sum(f_v) FROM pfact JOIN pdim ON d_key = f_key WHERE d_day < date '2020-05-01' GROUP BY 1$$);
SELECT * FROM same($$SELECT g_label, d_tag, count(*), sum(f_v) FROM pfact JOIN pdim ON d_key = f_key JOIN pgrp ON g_id = f_n
  WHERE md5(d_tag) > '5' AND g_id < 9 GROUP BY 1, 2$$);
SELECT build($$SELECT d_tag, count(*), sum(f_v) FROM pfact JOIN pdim ON d_key = f_key WHERE d_day < date '2020-05-01' GROUP BY 1$$);
RESET parallel_leader_participation;
SELECT errors($$SELECT count(*) FROM pfact JOIN pdim ON d_key = f_key WHERE 100 / (d_n - 36) > 0$$);
-- the Gather rescanned (the inner side of a nested loop): read anew each time
SET enable_material = off;
EXPLAIN (COSTS OFF) SELECT g, k, n FROM generate_series(1, 3) g, (SELECT d_tag k, sum(f_v) n FROM pfact JOIN pdim ON d_key = f_key
  WHERE d_n > 20 GROUP BY 1) x WHERE k < 't' || g;
SELECT * FROM same($$SELECT g, k, n FROM generate_series(1, 3) g, (SELECT d_tag k, sum(f_v) n FROM pfact JOIN pdim ON d_key = f_key
  WHERE d_n > 20 GROUP BY 1) x WHERE k < 't' || g$$);
RESET enable_material;
RESET enable_hashjoin;
RESET enable_mergejoin;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
SET max_parallel_workers_per_gather = 0;

DROP TABLE pdim, pfact, pgrp;
DROP FUNCTION same(text);
DROP FUNCTION hashed(text);
DROP FUNCTION build(text);
DROP FUNCTION errors(text);
