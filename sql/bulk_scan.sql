-- The bulk scan (Custom Scan "GpuReduce"): which queries it takes, and that
-- every answer equals the per-row aggregate path's (gpu_reduce.bulk_scan =
-- off, proven against the native aggregates by the rest of the suite) and,
-- for integers, the native aggregates' own.
SET gpu_reduce.bulk_scan = on;

-- bulk_check(q): plans and runs q with the bulk scan on and off.  bulk: the
-- plan with it on has the node; row: the plan with it off has not; same:
-- both answers are equal as text; answer: the answer.
CREATE FUNCTION bulk_check(q text, OUT bulk boolean, OUT "row" boolean,
                           OUT same boolean, OUT answer text)
LANGUAGE plpgsql AS $$
DECLARE
    line text;
    a_off text;
BEGIN
    bulk := false;
    "row" := true;
    PERFORM set_config('gpu_reduce.bulk_scan', 'on', true);
    FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
        bulk := bulk OR line LIKE '%Custom Scan (GpuReduce)%';
    END LOOP;
    EXECUTE format('SELECT t::text FROM (%s) t', q) INTO answer;
    PERFORM set_config('gpu_reduce.bulk_scan', 'off', true);
    FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
        "row" := "row" AND line NOT LIKE '%GpuReduce%';
    END LOOP;
    EXECUTE format('SELECT t::text FROM (%s) t', q) INTO a_off;
    PERFORM set_config('gpu_reduce.bulk_scan', 'on', true);
    same := answer IS NOT DISTINCT FROM a_off;
END
$$;

-- EXPLAIN ANALYZE without what depends on the batch size or the run (batch
-- counts; pages decoded by the CPU or, through the page path, the GPU) (and
-- PostgreSQL 18's fractional row counts written as 15's)
CREATE FUNCTION bulk_explain(q text) RETURNS SETOF text
LANGUAGE plpgsql AS $$
DECLARE
    line text;
BEGIN
    FOR line IN EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF, BUFFERS OFF) ' || q LOOP
        IF line NOT LIKE '%Batches:%' AND line NOT LIKE '%Decoded Pages:%' AND line NOT LIKE '%Worker %' THEN
            RETURN NEXT regexp_replace(line, '(rows=[0-9]+)\.[0-9]+', '\1', 'g');
        END IF;
    END LOOP;
END
$$;

-- a text column (some values TOASTed out of line, some compressed inline:
-- pglz as before PostgreSQL 19, whose default lz4 compresses more of them),
-- NULLs in every column, every type
CREATE TABLE bs (id int8, s text COMPRESSION pglz, i2 int2, i4 int4, i8 int8, f4 float4, f8 float8, v varchar(10));
INSERT INTO bs
SELECT g,
       CASE WHEN g % 500 = 0 THEN (SELECT string_agg(md5(g::text || x::text), '') FROM generate_series(1, 200) x)
            WHEN g % 250 = 0 THEN repeat('y', 5000)
            WHEN g % 3 = 0 THEN NULL
            ELSE repeat('x', g % 40) END,
       CASE WHEN g % 7 = 0 THEN NULL ELSE (g % 30011 - 15000)::int2 END,
       CASE WHEN g % 11 = 0 THEN NULL ELSE (g * 7919) % 1000003 - 500000 END,
       CASE WHEN g % 13 = 0 THEN NULL ELSE g::int8 * 1000000007 * (1 - 2 * (g % 2)) END,
       CASE WHEN g % 17 = 0 THEN NULL ELSE (g % 1000) / 7.0 END,
       CASE WHEN g % 19 = 0 THEN NULL ELSE sin(g) * 1e6 END,
       CASE WHEN g % 5 = 0 THEN NULL ELSE (g % 100)::text END
FROM generate_series(1, 30000) g;
VACUUM ANALYZE bs;
SELECT count(*) FILTER (WHERE pg_column_size(s) < octet_length(s)) AS compressed_or_toasted
FROM bs;

-- every aggregate and type, integers also against native
SELECT * FROM bulk_check('SELECT gpu_sum(i2), gpu_sum(i4), gpu_sum(i8), gpu_min(i2), gpu_max(i8), count(*), count(s), count(i2) FROM bs');
SELECT (SELECT row(gpu_sum(i2), gpu_sum(i4), gpu_sum(i8), gpu_min(i2), gpu_max(i8), gpu_avg(i4), gpu_avg(i8)) FROM bs)::text =
       (SELECT row(sum(i2), sum(i4), sum(i8), min(i2), max(i8), avg(i4), avg(i8)) FROM bs)::text AS integers_native;
SELECT * FROM bulk_check('SELECT gpu_sum(f4), gpu_sum(f8), gpu_avg(f4), gpu_avg(f8), gpu_min(f4), gpu_max(f8) FROM bs');
SELECT * FROM bulk_check('SELECT gpu_avg(i2), gpu_avg(i4), gpu_avg(i8), gpu_min(i4), gpu_max(i4) FROM bs');
SELECT * FROM bulk_check('SELECT gpu_top2(i2), gpu_top2(i8), gpu_top2(f4), gpu_topk(f8, 5), gpu_topk(i4, 3) FROM bs');
SELECT * FROM bulk_check('SELECT gpu_min(f8), gpu_max(f4), gpu_min(i8), count(v) FROM bs');
-- expressions over aggregates, HAVING, a view
SELECT * FROM bulk_check('SELECT gpu_sum(i4) + 1, gpu_max(i2) - gpu_min(i2), count(*) * 2 FROM bs');
SELECT * FROM bulk_check('SELECT gpu_sum(i8) FROM bs HAVING gpu_max(i2) > 0');
SELECT * FROM bulk_check('SELECT gpu_sum(i8) FROM bs HAVING gpu_max(i2) > 30000');
CREATE VIEW bs_view AS SELECT i4, f8 FROM bs WHERE i2 > 0;
SELECT * FROM bulk_check('SELECT gpu_sum(i4), gpu_max(f8) FROM bs_view');

-- WHERE comparisons evaluated in the page loop
SELECT * FROM bulk_check('SELECT gpu_sum(i8), count(*) FROM bs WHERE i4 > 1000');
SELECT * FROM bulk_check('SELECT gpu_sum(i8), count(*) FROM bs WHERE i4 >= 1000 AND i2 < 0');
SELECT * FROM bulk_check('SELECT gpu_sum(i8), count(*) FROM bs WHERE i4 = 1000 OR false');
SELECT * FROM bulk_check('SELECT gpu_sum(i4), count(*) FROM bs WHERE i2 <> 5 AND i8 <= 0');
SELECT * FROM bulk_check('SELECT gpu_sum(i4), count(*) FROM bs WHERE 100 < i2');
SELECT * FROM bulk_check('SELECT gpu_sum(i4), count(*) FROM bs WHERE i2 BETWEEN -100 AND 100');
SELECT * FROM bulk_check('SELECT gpu_sum(i4), count(*) FROM bs WHERE i2 > 100000::int8');
SELECT * FROM bulk_check('SELECT gpu_sum(i4), count(*) FROM bs WHERE i8 = 3000000021::int8 OR i8 IS NULL AND false');
SELECT * FROM bulk_check('SELECT gpu_sum(i4), count(*) FROM bs WHERE i8 < 100::int2');
SELECT * FROM bulk_check('SELECT gpu_sum(f8), count(*) FROM bs WHERE f4 > 50.5::float8');
SELECT * FROM bulk_check('SELECT gpu_sum(f8), count(*) FROM bs WHERE f4 >= 50.5::float4 AND f8 < 0');
SELECT * FROM bulk_check('SELECT gpu_sum(i4), count(*) FROM bs WHERE s IS NULL');
SELECT * FROM bulk_check('SELECT gpu_sum(i4), count(*), count(f4) FROM bs WHERE f4 IS NOT NULL AND v IS NULL');
SELECT * FROM bulk_check('SELECT gpu_sum(i4), count(*) FROM bs WHERE i4 > NULL');
-- not comparisons of a column with a constant: the expression program
-- (expressions.sql), LIKE too
SELECT * FROM bulk_check('SELECT gpu_sum(i4), count(*) FROM bs WHERE i4 > 10 OR i2 > 10');
SELECT * FROM bulk_check('SELECT gpu_sum(i4), count(*) FROM bs WHERE i4 + 1 > 10');
SELECT * FROM bulk_check('SELECT gpu_sum(i4), count(*) FROM bs WHERE s LIKE ''x%''');
SELECT * FROM bulk_check('SELECT gpu_sum(i4), count(*) FROM bs WHERE i4 IN (1, 2, 3)');
SELECT * FROM bulk_check('SELECT gpu_sum(i4), count(*) FROM bs WHERE i4 > i2');

-- a native aggregate beside a gpu_* one: the node takes both (gpu_reduce.native_aggregates)
SELECT * FROM bulk_check('SELECT gpu_sum(i4), sum(i4) FROM bs');

-- an argument that is an expression: the expression program computes it
SELECT * FROM bulk_check('SELECT gpu_sum(i4 + 1) FROM bs');
-- queries the node does not take: PostgreSQL's plan, same answers
SELECT * FROM bulk_check('SELECT gpu_sum(i4) FILTER (WHERE i2 > 0) FROM bs');
SELECT * FROM bulk_check('SELECT gpu_sum(DISTINCT i2) FROM bs');
SELECT * FROM bulk_check('SELECT gpu_topk(i4, 2 ORDER BY i4) FROM bs');
SELECT * FROM bulk_check('SELECT sum(s) FROM (SELECT gpu_sum(i4) s FROM bs GROUP BY ROLLUP (i2 % 3)) q');
SELECT * FROM bulk_check('SELECT gpu_sum(i4), count(*) OVER () FROM bs');
SELECT * FROM bulk_check('SELECT gpu_topk(i4, i2) FROM bs WHERE i2 = 3');
SELECT * FROM bulk_check('SELECT gpu_sum(b.i4) FROM bs b JOIN bs c USING (id) WHERE c.id < 100');

-- dropped columns, and columns added later (with and without a default)
CREATE TABLE bs_alter AS SELECT id, s, i2, i4, i8, f8 FROM bs;
ALTER TABLE bs_alter DROP COLUMN i2;
ALTER TABLE bs_alter ADD COLUMN k int4;
ALTER TABLE bs_alter ADD COLUMN d int8 DEFAULT 42;
ALTER TABLE bs_alter ADD COLUMN e float8 DEFAULT -1.5;
INSERT INTO bs_alter (id, s, i4, i8, f8, k, d, e) SELECT g, 'z', g, g, g, g, NULL, g FROM generate_series(1, 1000) g;
SELECT * FROM bulk_check('SELECT gpu_sum(i4), gpu_sum(i8), gpu_sum(k), gpu_sum(d), count(d), gpu_sum(e), gpu_top2(d), count(k) FROM bs_alter');
SELECT * FROM bulk_check('SELECT gpu_sum(i4), count(*) FROM bs_alter WHERE d = 42');
SELECT * FROM bulk_check('SELECT gpu_sum(i4), count(*) FROM bs_alter WHERE k IS NULL AND e < 0');

-- a tuple without NULLs starts its walk past the fixed-length attributes
-- before the first column read (their offsets are cached), one with NULLs
-- walks from the first attribute: rows from before and after a fixed-length
-- attribute among them was dropped (stored NULL since), NULLs, varlenas with
-- 1-byte and (aligned, after padding) 4-byte headers before a column read,
-- and a column added with a default that the older rows lack
CREATE TABLE bs_walk (a int8, b int2, c int4, dropme int8, d int2, v text, n numeric, w int4, x int8);
INSERT INTO bs_walk
SELECT g, g % 7, g, -g, g % 5,
       CASE WHEN g % 3 = 0 THEN repeat('y', 200 + g % 50) ELSE 'q' END,
       g / 4.0, g * 3, CASE WHEN g % 11 = 0 THEN NULL ELSE g END
FROM generate_series(1, 3000) g;
ALTER TABLE bs_walk DROP COLUMN dropme;
ALTER TABLE bs_walk ADD COLUMN y int4 DEFAULT 7;
INSERT INTO bs_walk (a, b, c, d, v, n, w, x, y)
SELECT g, g % 3, g, NULLIF(g % 4, 0), repeat('z', g % 300), g, g, g, g FROM generate_series(1, 2000) g;
SELECT * FROM bulk_check('SELECT gpu_sum(c), gpu_sum(w), gpu_sum(x), count(x) FROM bs_walk');
SELECT * FROM bulk_check('SELECT gpu_sum(w), gpu_sum(n), count(*) FROM bs_walk WHERE d < 3');
SELECT * FROM bulk_check('SELECT gpu_sum(x), gpu_sum(y), count(*) FROM bs_walk WHERE w > 100');
SELECT * FROM bulk_check('SELECT gpu_sum(n), gpu_max(y) FROM bs_walk WHERE v < ''r'' AND b = 1');

-- empty tables, only invisible rows, rows this transaction changed
CREATE TABLE bs_empty (x int8);
SELECT * FROM bulk_check('SELECT gpu_sum(x), gpu_min(x), gpu_top2(x), count(*), count(x) FROM bs_empty');
INSERT INTO bs_empty SELECT g FROM generate_series(1, 5000) g;
DELETE FROM bs_empty;
SELECT * FROM bulk_check('SELECT gpu_sum(x), gpu_max(x), count(*) FROM bs_empty');
BEGIN;
INSERT INTO bs_empty SELECT g FROM generate_series(1, 3000) g;
UPDATE bs_empty SET x = -x WHERE x % 3 = 0;
DELETE FROM bs_empty WHERE x % 5 = 0;
SELECT * FROM bulk_check('SELECT gpu_sum(x), gpu_min(x), gpu_max(x), count(*) FROM bs_empty');
SELECT (SELECT gpu_sum(x) FROM bs_empty) = (SELECT sum(x) FROM bs_empty) AS same_as_native;
ROLLBACK;
SELECT * FROM bulk_check('SELECT gpu_sum(x), count(*) FROM bs_empty');

-- temporary and unlogged tables
CREATE TEMP TABLE bs_temp AS SELECT i4, i8, f8 FROM bs;
SELECT * FROM bulk_check('SELECT gpu_sum(i4), gpu_avg(i8), gpu_max(f8) FROM bs_temp');
-- all-visible after VACUUM: CPU decoding takes each page whole (in local buffers);
-- after a DELETE and VACUUM the pages have unused line pointers, which an
-- INSERT may reuse, so they go through heapgetpage until VACUUM again
VACUUM bs_temp;
SELECT * FROM bulk_check('SELECT gpu_sum(i4), gpu_avg(i8), gpu_max(f8) FROM bs_temp');
DELETE FROM bs_temp WHERE i4 % 3 = 0;
VACUUM bs_temp;
INSERT INTO bs_temp SELECT i4 + 1, i8, f8 FROM bs WHERE i4 % 5 = 0;
SELECT * FROM bulk_check('SELECT gpu_sum(i4), gpu_avg(i8), gpu_max(f8) FROM bs_temp');
VACUUM bs_temp;
SELECT * FROM bulk_check('SELECT gpu_sum(i4), gpu_avg(i8), gpu_max(f8) FROM bs_temp');
SELECT (SELECT gpu_sum(i4) FROM bs_temp) = (SELECT sum(i4) FROM bs_temp) AS same_as_native;
CREATE UNLOGGED TABLE bs_unlogged AS SELECT i4, i8, f8 FROM bs;
SELECT * FROM bulk_check('SELECT gpu_sum(i4), gpu_avg(i8), gpu_max(f8) FROM bs_unlogged WHERE i4 < 0');

-- partitioned and inheritance tables: one node reads every leaf left after
-- plan-time pruning, each through its own columns (a child's column can have
-- another attribute number); a leaf of another access method: not taken
CREATE TABLE bs_part (k int4, x int8, f float8) PARTITION BY RANGE (k);
CREATE TABLE bs_part_1 PARTITION OF bs_part FOR VALUES FROM (0) TO (500);
CREATE TABLE bs_part_2 (f float8, x int8, pad text, k int4);
ALTER TABLE bs_part_2 DROP COLUMN pad;
ALTER TABLE bs_part ATTACH PARTITION bs_part_2 FOR VALUES FROM (500) TO (800);
CREATE TABLE bs_part_3 PARTITION OF bs_part FOR VALUES FROM (800) TO (1000) PARTITION BY RANGE (k);
CREATE TABLE bs_part_3a PARTITION OF bs_part_3 FOR VALUES FROM (800) TO (900);
CREATE TABLE bs_part_3b PARTITION OF bs_part_3 FOR VALUES FROM (900) TO (1000);
INSERT INTO bs_part SELECT g % 1000, g, CASE WHEN g % 9 <> 0 THEN g / 8.0 END FROM generate_series(1, 20000) g;
ANALYZE bs_part;
EXPLAIN (COSTS OFF) SELECT gpu_sum(x), gpu_max(f), count(*) FROM bs_part WHERE x > 100;
SELECT * FROM bulk_check('SELECT gpu_sum(x), gpu_max(f), gpu_avg(f), count(*), count(f) FROM bs_part');
SELECT * FROM bulk_check('SELECT gpu_sum(x), gpu_top2(f), count(*) FROM bs_part WHERE x > 100 AND f < 2000');
SELECT * FROM bulk_check('SELECT gpu_sum(x), count(*) FROM bs_part WHERE k < 500');
SELECT * FROM bulk_check('SELECT gpu_sum(x), count(*) FROM bs_part WHERE k >= 850');
SELECT * FROM bulk_check('SELECT gpu_sum(x), count(*) FROM bs_part_2');
SELECT * FROM bulk_check('SELECT gpu_sum(x), count(*) FROM bs_part WHERE k > 5000');
SELECT (SELECT gpu_sum(x) FROM bs_part) = (SELECT sum(x) FROM bs_part) AS same_as_native;
CREATE TABLE bs_parent (x int8);
CREATE TABLE bs_child () INHERITS (bs_parent);
CREATE TABLE bs_kid2 (pad text, x int8);
ALTER TABLE bs_kid2 INHERIT bs_parent;
INSERT INTO bs_parent SELECT g FROM generate_series(1, 10000) g;
INSERT INTO bs_child SELECT g FROM generate_series(1, 10000) g;
INSERT INTO bs_kid2 SELECT 'p', -g FROM generate_series(1, 3000) g;
EXPLAIN (COSTS OFF) SELECT gpu_sum(x), count(*) FROM bs_parent;
SELECT * FROM bulk_check('SELECT gpu_sum(x), gpu_min(x), count(*) FROM bs_parent');
SELECT * FROM bulk_check('SELECT gpu_sum(x), count(*) FROM ONLY bs_parent');
CREATE ACCESS METHOD bs_heap2 TYPE TABLE HANDLER heap_tableam_handler;
CREATE TABLE bs_am (x int8) USING bs_heap2;
INSERT INTO bs_am SELECT g FROM generate_series(1, 10000) g;
SELECT * FROM bulk_check('SELECT gpu_sum(x), count(*) FROM bs_am');
ALTER TABLE bs_am INHERIT bs_parent;
SELECT * FROM bulk_check('SELECT gpu_sum(x), count(*) FROM bs_parent');
-- foreign tables, alone or as a partition: not taken
CREATE EXTENSION file_fdw;
CREATE SERVER bs_files FOREIGN DATA WRAPPER file_fdw;
CREATE FOREIGN TABLE bs_foreign (x int8) SERVER bs_files OPTIONS (program 'seq 1 1000');
SELECT * FROM bulk_check('SELECT gpu_sum(x), gpu_max(x), count(*) FROM bs_foreign');
CREATE TABLE bs_fpart (x int8) PARTITION BY RANGE (x);
CREATE TABLE bs_fpart_1 PARTITION OF bs_fpart FOR VALUES FROM (-1000000) TO (0);
INSERT INTO bs_fpart SELECT -g FROM generate_series(1, 5000) g;
ANALYZE bs_fpart;
SELECT * FROM bulk_check('SELECT gpu_sum(x), count(*) FROM bs_fpart');
CREATE FOREIGN TABLE bs_fpart_2 PARTITION OF bs_fpart FOR VALUES FROM (0) TO (1000000)
    SERVER bs_files OPTIONS (program 'seq 1 1000');
SELECT * FROM bulk_check('SELECT gpu_sum(x), count(*) FROM bs_fpart');
DROP TABLE bs_fpart;
DROP FOREIGN TABLE bs_foreign;
DROP SERVER bs_files;
DROP EXTENSION file_fdw;

-- cursors, correlated subqueries (rescans), prepared statements with parameters
BEGIN;
DECLARE c CURSOR FOR SELECT gpu_sum(i8), gpu_top2(i4) FROM bs WHERE i2 > 0;
FETCH c;
FETCH c;
CLOSE c;
COMMIT;
SELECT * FROM bulk_check('SELECT array_agg(x ORDER BY k) FROM (SELECT k, (SELECT gpu_sum(i8) FROM bs WHERE i4 > o.k) AS x FROM generate_series(-500000, 500000, 100000) o(k)) q');
SELECT * FROM bulk_check('SELECT array_agg(x ORDER BY k) FROM (SELECT k, (SELECT gpu_max(f8) FROM bs WHERE i2 < o.k) AS x FROM generate_series(-20000, 20000, 5000) o(k)) q');
-- a rescan whose parameter was NULL last time binds the comparison afresh
SELECT * FROM bulk_check('SELECT array_agg(x ORDER BY n) FROM (SELECT n, (SELECT gpu_sum(i8) FROM bs WHERE i4 < o.k AND i2 <> 0) AS x FROM (VALUES (1, NULL::int4), (2, 0), (3, NULL), (4, 5000)) o(n, k)) q');
SET plan_cache_mode = force_generic_plan;
PREPARE bs_p(int4, float8, int4) AS SELECT gpu_sum(i8), gpu_topk(f8, $3), count(*) FROM bs WHERE i4 > $1 AND f8 <= $2;
EXPLAIN (COSTS OFF) EXECUTE bs_p(0, 0, 2);
EXECUTE bs_p(0, 0, 2);
EXECUTE bs_p(-100000, 1e6, 3);
EXECUTE bs_p(NULL, 0, 2);
SELECT gpu_sum(i8), gpu_topk(f8, 2), count(*) FROM bs WHERE i4 > 0 AND f8 <= 0;
DEALLOCATE bs_p;
RESET plan_cache_mode;

-- errors: k checked as the transition function checks it, once a row arrives
SELECT gpu_topk(i4, 0) FROM bs;
SELECT gpu_topk(i4, NULL) FROM bs;
SELECT gpu_topk(x, 0) FROM bs_empty;
CREATE TABLE bs_big (f8 float8);
INSERT INTO bs_big SELECT 1e308 FROM generate_series(1, 3000);
SELECT gpu_sum(f8) FROM bs_big;
SELECT gpu_max(f8), count(*) FROM bs_big;

-- EXPLAIN and EXPLAIN ANALYZE
EXPLAIN (COSTS OFF) SELECT gpu_sum(i8), gpu_max(f8), count(*) FROM bs WHERE i4 > 10 AND f4 IS NOT NULL;
SELECT * FROM bulk_explain('SELECT gpu_sum(i8), gpu_max(f8), count(*) FROM bs WHERE i4 > 10 AND f4 IS NOT NULL');
-- a tiny table keeps the native plan
CREATE TABLE bs_tiny (x int8);
INSERT INTO bs_tiny VALUES (1), (2), (3);
ANALYZE bs_tiny;
EXPLAIN (COSTS OFF) SELECT gpu_sum(x) FROM bs_tiny;

-- parallel plans: partial states from every participant
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
EXPLAIN (COSTS OFF) SELECT gpu_sum(i8), gpu_avg(f8), count(*) FROM bs WHERE i2 > 0;
SELECT * FROM bulk_explain('SELECT gpu_sum(i8), gpu_avg(f8), count(*) FROM bs WHERE i2 > 0');
SELECT * FROM bulk_check('SELECT gpu_sum(i8), gpu_avg(f8), gpu_topk(f4, 4), gpu_min(i2), count(*), count(s) FROM bs WHERE i2 > 0');
SELECT * FROM bulk_check('SELECT gpu_sum(i2), gpu_sum(f8), gpu_max(i4) FROM bs HAVING count(*) > 10');
EXPLAIN (COSTS OFF) SELECT gpu_sum(x), gpu_avg(f), count(*) FROM bs_part WHERE k <> 3;
SELECT * FROM bulk_check('SELECT gpu_sum(x), gpu_avg(f), gpu_topk(x, 3), count(*) FROM bs_part WHERE k <> 3');
SELECT * FROM bulk_check('SELECT array_agg(x ORDER BY k) FROM (SELECT k, (SELECT gpu_sum(i8) FROM bs WHERE i4 > o.k) AS x FROM generate_series(-500000, 500000, 250000) o(k)) q');
-- NaN, infinities and -0.0 in different participants' states, the leader
-- not scanning: every value through a worker's serialized state
CREATE TABLE bs_special AS
SELECT g, CASE g % 4 WHEN 0 THEN 'NaN'::float8 WHEN 1 THEN '-0'::float8
                      WHEN 2 THEN 'Infinity' ELSE g END AS x,
          CASE WHEN g % 3 = 0 THEN '-0'::float4 ELSE '-Infinity' END AS y,
          '-0'::float8 AS z
FROM generate_series(1, 40000) g;
ALTER TABLE bs_special SET (parallel_workers = 2);
ANALYZE bs_special;
SET parallel_leader_participation = off;
SELECT * FROM bulk_check('SELECT gpu_sum(x), gpu_max(x), gpu_min(x), gpu_top2(x), gpu_sum(y), gpu_min(y), gpu_sum(z), gpu_max(z) FROM bs_special WHERE g > 100');
SELECT * FROM bulk_check('SELECT gpu_sum(x), gpu_avg(x), count(*) FROM bs_special WHERE x < ''Infinity'' AND x <> 0');
SELECT * FROM bulk_check('SELECT gpu_sum(z), count(*) FROM bs_special WHERE x = ''NaN''');
RESET parallel_leader_participation;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
RESET max_parallel_workers_per_gather;

-- buffer hints (buf_hints.c): a serial scan pins each page in the buffer after
-- the previous page's (a guess), or, once guesses keep failing, where one pass
-- over shared_buffers saw it, the buffer's tag checked as it is pinned.  By
-- itself only for tables of 1/16 to 2 times shared_buffers; here for every
-- table, the pass first (always) or guessing first (guess), or with every guess
-- and hint wrong (stale: the pass made after 64 failed guesses, each page found
-- through the buffer mapping table).  The answers never change.
CREATE FUNCTION hint_pages(q text, OUT pages_read bigint, OUT by_hint bigint)
LANGUAGE plpgsql AS $$
DECLARE
    line text;
BEGIN
    by_hint := 0;
    FOR line IN EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF, BUFFERS OFF) ' || q LOOP
        IF line LIKE '%Pages Read:%' THEN
            pages_read := substring(line FROM '[0-9]+$')::bigint;
        ELSIF line LIKE '%Pages Found by Hint:%' THEN
            by_hint := substring(line FROM '[0-9]+$')::bigint;
        END IF;
    END LOOP;
END
$$;
SET max_parallel_workers_per_gather = 0;
-- bs's size keeps the default from making hints
SELECT by_hint FROM hint_pages('SELECT gpu_sum(i8) FROM bs');
SET gpu_reduce.debug_buffer_hints = always;
SELECT pages_read > 0 AND by_hint = pages_read AS every_page_by_hint
FROM hint_pages('SELECT gpu_sum(i8), gpu_avg(f8) FROM bs');
SELECT * FROM bulk_check('SELECT gpu_sum(i8), gpu_avg(f8), gpu_topk(f4, 3), gpu_min(i2), count(*), count(s) FROM bs WHERE i4 > 0');
SET gpu_reduce.page_path = cpu;
SELECT pages_read > 0 AND by_hint = pages_read AS every_page_by_hint
FROM hint_pages('SELECT gpu_sum(i8), gpu_avg(f8) FROM bs');
SELECT * FROM bulk_check('SELECT gpu_sum(i8), gpu_avg(f8), gpu_max(i4), count(*) FROM bs WHERE i4 > 0');
-- pages with rows this transaction deleted and inserted: pinned by the hint,
-- then read as heapgetpage reads them
BEGIN;
DELETE FROM bs WHERE i4 % 5 = 0;
INSERT INTO bs (i2, i4, i8, f4, f8) SELECT i2, i4 + 1, i8, f4, f8 FROM bs WHERE i4 % 7 = 0;
SELECT pages_read > 0 AND by_hint = pages_read AS every_page_by_hint
FROM hint_pages('SELECT gpu_sum(i8), gpu_avg(f8) FROM bs');
SELECT * FROM bulk_check('SELECT gpu_sum(i8), gpu_avg(f8), gpu_max(i4), count(*) FROM bs');
ROLLBACK;
RESET gpu_reduce.page_path;
-- guessing: the first page is read by the mapping table; a guess that fails
-- costs nothing but the check
SET gpu_reduce.debug_buffer_hints = guess;
SELECT pages_read > 0 AND by_hint < pages_read AS first_page_not_guessed
FROM hint_pages('SELECT gpu_sum(i8), gpu_avg(f8) FROM bs');
SELECT * FROM bulk_check('SELECT gpu_sum(i8), gpu_avg(f8), gpu_topk(f4, 3), gpu_min(i2), count(*), count(s) FROM bs WHERE i4 > 0');
SET gpu_reduce.page_path = cpu;
SELECT * FROM bulk_check('SELECT gpu_sum(i8), gpu_avg(f8), gpu_max(i4), count(*) FROM bs WHERE i4 > 0');
RESET gpu_reduce.page_path;
SET gpu_reduce.debug_buffer_hints = stale;
SELECT pages_read > 0 AS read, by_hint FROM hint_pages('SELECT gpu_sum(i8), gpu_avg(f8) FROM bs');
SELECT * FROM bulk_check('SELECT gpu_sum(i8), gpu_avg(f8), gpu_topk(f4, 3), count(*) FROM bs WHERE i4 > 0');
-- a temporary table's pages are in local buffers: no hints
SET gpu_reduce.debug_buffer_hints = always;
SELECT by_hint FROM hint_pages('SELECT gpu_sum(i8) FROM bs_temp');
SET gpu_reduce.buffer_hints = off;
SELECT by_hint FROM hint_pages('SELECT gpu_sum(i8) FROM bs');
SELECT * FROM bulk_check('SELECT gpu_sum(i8), gpu_avg(f8), count(*) FROM bs WHERE i4 > 0');
RESET gpu_reduce.buffer_hints;
RESET gpu_reduce.debug_buffer_hints;
RESET max_parallel_workers_per_gather;

-- the setting
SET gpu_reduce.bulk_scan = off;
EXPLAIN (COSTS OFF) SELECT gpu_sum(i8) FROM bs;
SET gpu_reduce.bulk_scan = on;
EXPLAIN (COSTS OFF) SELECT gpu_sum(i8) FROM bs;

DROP TABLE bs, bs_alter, bs_walk, bs_empty, bs_temp, bs_unlogged, bs_part, bs_parent, bs_child,
    bs_kid2, bs_am, bs_big, bs_tiny, bs_special CASCADE;
DROP ACCESS METHOD bs_heap2;
DROP FUNCTION bulk_check(text), bulk_explain(text), hint_pages(text);
