--
-- Joins in the node at their edges: NOT IN over a column with NULLs, a
-- partitioned probe table, a hashed relation far larger at run time than
-- its statistics said, and errors raised by joined rows' expressions, each
-- answer (or error) compared with PostgreSQL's own plan
-- (gpu_reduce.bulk_scan = off).
--
LOAD 'gpu_reduce';
SET gpu_reduce.bulk_scan = on;
SET max_parallel_workers_per_gather = 0;

-- je_same(q): q's rows through the default plan and through PostgreSQL's
-- own, as sorted text, and whether the node ran it
CREATE FUNCTION je_same(q text, OUT node boolean, OUT same boolean, OUT answer text)
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

-- je_error(q): whether the node runs q, and the SQLSTATE and message q
-- raises, or 'none'
CREATE FUNCTION je_error(q text, OUT node boolean, OUT error text) LANGUAGE plpgsql AS $$
DECLARE
    line text;
BEGIN
    node := false;
    FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
        node := node OR line LIKE '%GpuReduce%';
    END LOOP;
    EXECUTE q;
    error := 'none';
EXCEPTION WHEN OTHERS THEN
    error := SQLSTATE || ': ' || SQLERRM;
END $$;

CREATE TABLE je_dim (d_id int4 PRIMARY KEY, d_grp int4, d_div int4);
INSERT INTO je_dim SELECT i, i % 5, i % 4 FROM generate_series(1, 40) i;
CREATE TABLE je_fact (f_id int8, f_dim int4, f_qty int4, f_big int4);
INSERT INTO je_fact
SELECT i, CASE WHEN i % 97 = 0 THEN NULL ELSE i % 45 END, i % 13,
       CASE WHEN i % 1000 = 0 THEN 2000000000 ELSE i % 100 END
FROM generate_series(1, 30000) i;
VACUUM ANALYZE je_dim, je_fact;

-- NOT IN: a NULL in the subquery's column makes every row's NOT IN unknown
-- (no row), a NULL on the outer side is never kept; PostgreSQL plans it as
-- a filter on a hashed subplan, which the node leaves to PostgreSQL
SELECT node, same, answer FROM je_same($$SELECT count(*), sum(f_qty) FROM je_fact WHERE f_dim NOT IN (SELECT d_id FROM je_dim WHERE d_grp = 1)$$);
INSERT INTO je_dim VALUES (41, NULL, 1);
SELECT node, same, answer FROM je_same($$SELECT count(*), sum(f_qty) FROM je_fact WHERE f_dim NOT IN (SELECT d_grp + 100 FROM je_dim)$$);
SELECT node, same, answer FROM je_same($$SELECT d_grp, count(*) FROM je_fact JOIN je_dim ON d_id = f_dim WHERE f_qty NOT IN (SELECT d_div FROM je_dim WHERE d_id < 10) GROUP BY 1$$);
DELETE FROM je_dim WHERE d_id = 41;

-- a partitioned probe table: the node reads a plain table only as the
-- probe side, so PostgreSQL's plan, with the same answer
CREATE TABLE je_pfact (f_id int8, f_dim int4, f_qty int4) PARTITION BY RANGE (f_id);
CREATE TABLE je_pfact_a PARTITION OF je_pfact FOR VALUES FROM (0) TO (15000);
CREATE TABLE je_pfact_b PARTITION OF je_pfact FOR VALUES FROM (15000) TO (100000);
INSERT INTO je_pfact SELECT f_id, f_dim, f_qty FROM je_fact;
VACUUM ANALYZE je_pfact;
SELECT node, same FROM je_same($$SELECT d_grp, count(*), sum(f_qty) FROM je_pfact JOIN je_dim ON d_id = f_dim GROUP BY 1$$);

-- a hashed relation its statistics call small and which is 25 times that
-- when the scan runs: hashed whole, the same answer
CREATE TABLE je_grow (g_id int4, g_grp int4) WITH (autovacuum_enabled = off);
INSERT INTO je_grow SELECT i, i % 3 FROM generate_series(1, 40) i;
ANALYZE je_grow;
INSERT INTO je_grow SELECT i, i % 7 FROM generate_series(41, 1000) i;
SELECT node, same, answer FROM je_same($$SELECT g_grp, count(*), sum(f_qty) FROM je_fact JOIN je_grow ON g_id = f_id GROUP BY 1$$);
DROP TABLE je_grow;

-- errors: a joined row's expression raises PostgreSQL's error (22012 where
-- d_div is 0 on a joined row, 22003 for an int4 product past its range)
-- with PostgreSQL's SQLSTATE, and none where the join drops the rows that
-- would raise it; the session goes on
SELECT * FROM je_error($$SELECT sum(f_qty / d_div) FROM je_fact JOIN je_dim ON d_id = f_dim$$);
SET gpu_reduce.bulk_scan = off;
SELECT * FROM je_error($$SELECT sum(f_qty / d_div) FROM je_fact JOIN je_dim ON d_id = f_dim$$);
SET gpu_reduce.bulk_scan = on;
SELECT node, same, answer FROM je_same($$SELECT sum(f_qty / d_div) FROM je_fact JOIN je_dim ON d_id = f_dim WHERE d_div <> 0$$);
SELECT * FROM je_error($$SELECT d_grp, sum(f_big * d_div) FROM je_fact JOIN je_dim ON d_id = f_dim GROUP BY 1$$);
SET gpu_reduce.bulk_scan = off;
SELECT * FROM je_error($$SELECT d_grp, sum(f_big * d_div) FROM je_fact JOIN je_dim ON d_id = f_dim GROUP BY 1$$);
SET gpu_reduce.bulk_scan = on;
SELECT node, same, answer FROM je_same($$SELECT d_grp, sum(f_big::int8 * d_div) FROM je_fact JOIN je_dim ON d_id = f_dim GROUP BY 1$$);
SELECT count(*) AS usable FROM je_fact JOIN je_dim ON d_id = f_dim;

DROP TABLE je_fact, je_dim, je_pfact;
DROP FUNCTION je_same(text);
DROP FUNCTION je_error(text);
