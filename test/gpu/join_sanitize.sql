--
-- Joins on the page path for test/gpu/sanitize.sh (GROUP_SQL): the join's
-- jobs under compute-sanitizer, serial and parallel, each answer against
-- PostgreSQL's own plan.  The script turns the page path on (the line
-- below); each query prints the page path its node took ('gpu': the
-- kernel probed the images) and whether the answer is PostgreSQL's; the
-- script fails the run on any error a query raises.  60 000 rows (some
-- 400 pages, dozens of jobs) so that a racecheck run fits the GPU host's
-- 10 minutes a command.
--
LOAD 'gpu_reduce';
SET gpu_reduce.page_path = cpu;
SET gpu_reduce.bulk_scan = on;
SET max_parallel_workers_per_gather = 0;
SET client_min_messages = warning;
DROP TABLE IF EXISTS sj_sale, sj_store, sj_item, sj_region;
CREATE TABLE sj_region (r_id int2 PRIMARY KEY, r_name text);
INSERT INTO sj_region VALUES (0, 'north'), (1, 'south'), (2, 'east');
CREATE TABLE sj_store (s_id int4 PRIMARY KEY, s_region int2, s_name char(8), s_open date, s_score float8);
INSERT INTO sj_store SELECT i, (i % 4)::int2, 's' || i, date '2020-01-01' + i,
    CASE WHEN i % 9 = 0 THEN NULL ELSE i / 4.0 END FROM generate_series(1, 60) i;
CREATE TABLE sj_item (it_id int8 PRIMARY KEY, it_kind text);
INSERT INTO sj_item SELECT i, 'k' || (i % 6) FROM generate_series(1, 500) i;
CREATE TABLE sj_sale (sa_store int4, sa_item int8, sa_qty int4, sa_amount numeric(12,2));
INSERT INTO sj_sale SELECT CASE WHEN i % 101 = 0 THEN NULL ELSE i % 64 END, i % 520, (i % 11) - 2,
    (i % 1000) / 8.0 FROM generate_series(1, 60000) i;
VACUUM ANALYZE sj_sale, sj_store, sj_item, sj_region;
RESET client_min_messages;
CREATE FUNCTION sjq(q text, OUT path text, OUT same boolean) LANGUAGE plpgsql AS $$
DECLARE
    line text;
    native text;
    answer text;
BEGIN
    path := 'none';
    FOR line IN EXECUTE 'EXPLAIN (ANALYZE, VERBOSE, COSTS OFF, TIMING OFF, SUMMARY OFF) ' || q LOOP
        IF line ~ 'Page Path: ' THEN
            path := split_part(regexp_replace(line, '.*Page Path: ', ''), ' ', 1);
        END IF;
    END LOOP;
    EXECUTE format('SELECT string_agg(r::text, '' '' ORDER BY r::text) FROM (%s) r', q) INTO answer;
    SET LOCAL gpu_reduce.bulk_scan = off;
    EXECUTE format('SELECT string_agg(r::text, '' '' ORDER BY r::text) FROM (%s) r', q) INTO native;
    SET LOCAL gpu_reduce.bulk_scan = on;
    same := answer IS NOT DISTINCT FROM native;
END $$;
-- a star, a snowflake with a text key, a char(n) key (each job's own table), the joined row's program
SELECT * FROM sjq($$SELECT it_kind, s_region, count(*), sum(sa_qty), max(s_score) FROM sj_sale JOIN sj_store ON s_id = sa_store JOIN sj_item ON it_id = sa_item GROUP BY 1, 2$$);
SELECT * FROM sjq($$SELECT r_name, count(*), sum(sa_amount) FROM sj_sale JOIN sj_store ON s_id = sa_store JOIN sj_region ON r_id = s_region GROUP BY 1$$);
SELECT * FROM sjq($$SELECT r_name, s_name, count(*), sum(sa_amount) FROM sj_sale JOIN sj_store ON s_id = sa_store JOIN sj_region ON r_id = s_region GROUP BY 1, 2$$);
SELECT * FROM sjq($$SELECT s_region, sum(sa_qty * s_region), count(*) FROM sj_sale JOIN sj_store ON s_id = sa_store GROUP BY 1$$);
-- semi, anti and left joins; several matches (handed back to the CPU)
SELECT * FROM sjq($$SELECT s_region, count(*) FROM sj_sale JOIN sj_store ON s_id = sa_store WHERE EXISTS (SELECT 1 FROM sj_item WHERE it_id = sa_item AND it_kind = 'k1') GROUP BY 1$$);
SELECT * FROM sjq($$SELECT sa_qty, count(*) FROM sj_sale WHERE NOT EXISTS (SELECT 1 FROM sj_store WHERE s_id = sa_store) GROUP BY 1$$);
SELECT * FROM sjq($$SELECT s_region, count(*), sum(sa_qty), min(s_open) FROM sj_sale LEFT JOIN sj_store ON s_id = sa_store GROUP BY 1$$);
SELECT * FROM sjq($$SELECT a.s_region, count(*), sum(b.s_id) FROM sj_sale JOIN sj_store a ON a.s_id = sa_store JOIN sj_store b ON b.s_region = a.s_region GROUP BY 1$$);
-- without GROUP BY: the job keeps the joined rows' columns and reduces them
SELECT * FROM sjq($$SELECT count(*), sum(sa_qty), max(s_open) FROM sj_sale JOIN sj_store ON s_id = sa_store$$);
-- marked joins (the table inside EXISTS or NOT EXISTS): the kernel's probes
-- mark the store's rows in the GPU's copy of the marks, a key of many rows too
SELECT * FROM sjq($$SELECT s_region, count(*), sum(s_id) FROM sj_store WHERE EXISTS (SELECT 1 FROM sj_sale WHERE sa_store = s_id AND sa_qty > 6) GROUP BY 1$$);
SELECT * FROM sjq($$SELECT count(*), min(s_open) FROM sj_store WHERE NOT EXISTS (SELECT 1 FROM sj_sale WHERE sa_store = s_id AND sa_qty > 7)$$);
SELECT * FROM sjq($$SELECT s_name, count(*) FROM sj_store WHERE EXISTS (SELECT 1 FROM sj_sale WHERE sa_qty = s_region) GROUP BY 1$$);
-- parallel: the first participant hashes and uploads, the others probe the same images
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
SET enable_hashjoin = off;
SET enable_mergejoin = off;
SELECT * FROM sjq($$SELECT it_kind, s_region, count(*), sum(sa_qty) FROM sj_sale JOIN sj_store ON s_id = sa_store JOIN sj_item ON it_id = sa_item GROUP BY 1, 2$$);
SELECT * FROM sjq($$SELECT r_name, s_name, count(*), sum(sa_amount) FROM sj_sale JOIN sj_store ON s_id = sa_store JOIN sj_region ON r_id = s_region GROUP BY 1, 2$$);
-- every participant's jobs mark the one copy on each GPU; the last to finish fetches it
SELECT * FROM sjq($$SELECT s_region, count(*), sum(s_id) FROM sj_store WHERE EXISTS (SELECT 1 FROM sj_sale WHERE sa_store = s_id AND sa_qty > 6) GROUP BY 1$$);
SELECT * FROM sjq($$SELECT count(*), min(s_open) FROM sj_store WHERE NOT EXISTS (SELECT 1 FROM sj_sale WHERE sa_store = s_id AND sa_qty > 7)$$);
RESET ALL;
DROP FUNCTION sjq(text);
DROP TABLE sj_sale, sj_store, sj_item, sj_region;
