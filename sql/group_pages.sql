--
-- GROUP BY through the page path (gpu_reduce.page_path = cpu): each job of
-- pinned pages is grouped as the GPU's kernel groups it (common/page_group.h:
-- a row's keys as words, a table of groups, running words folded by the
-- same code the kernel runs).  Where every key's word is its value (integer,
-- date and time, bool, computed numeric and text keys), the jobs fold into
-- one table for the whole scan, which the scan collects at its end and
-- turns back into keys; otherwise (float and char(n) keys) each job has a
-- table of its own, and the scan folds each job's groups into its group
-- table from each group's first row.  Every answer is
-- compared, as text independent of row order, with the same query planned
-- without the node; keys are printed as they are (a group's key is its
-- first row's value, as PostgreSQL's serial hash aggregation shows it).
-- Jobs are small (gpu_reduce.page_pins) so that groups span many jobs.
--
LOAD 'gpu_reduce';
SET gpu_reduce.bulk_scan = on;
SET gpu_reduce.page_path = cpu;
SET gpu_reduce.page_pins = 64;
SET max_parallel_workers_per_gather = 0;

-- gpnode(q): how q's node decoded its pages (EXPLAIN's Page Path), or
-- 'no node'; and its Rows Evaluated by PostgreSQL, CPU Decoded Pages, Jobs
-- Over Group Room and Groups Collected from the scan's table (0 when not
-- shown); whether the node is a parallel one
CREATE FUNCTION gpnode(q text, OUT page_path text, OUT handed_back bigint, OUT pages bigint,
                       OUT overflowed bigint, OUT collected bigint, OUT parallel boolean)
LANGUAGE plpgsql AS $$
DECLARE
    line text;
BEGIN
    page_path := 'no node';
    overflowed := 0;
    collected := 0;
    parallel := false;
    FOR line IN EXECUTE 'EXPLAIN (ANALYZE, VERBOSE, COSTS OFF, TIMING OFF, SUMMARY OFF) ' || q LOOP
        IF line LIKE '%Parallel Custom Scan (GpuReduce)%' THEN
            parallel := true;
        ELSIF line LIKE '%Page Path:%' THEN
            page_path := substring(line FROM 'Page Path: (.*)$');
        ELSIF line LIKE '%Rows Evaluated by PostgreSQL:%' THEN
            handed_back := substring(line FROM ': (\d+)$')::bigint;
        ELSIF line LIKE '%CPU Decoded Pages:%' THEN
            pages := substring(line FROM ': (\d+)$')::bigint;
        ELSIF line LIKE '%Jobs Over Group Room:%' THEN
            overflowed := substring(line FROM ': (\d+)$')::bigint;
        ELSIF line LIKE '%Groups Collected:%' THEN
            collected := substring(line FROM ': (\d+)$')::bigint;
        END IF;
    END LOOP;
END $$;
-- gptext(q, native): q's rows as one text, a line each in byte order
CREATE FUNCTION gptext(q text, native boolean) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    answer text;
BEGIN
    PERFORM set_config('gpu_reduce.bulk_scan', CASE WHEN native THEN 'off' ELSE 'on' END, true);
    EXECUTE 'SELECT string_agg(gp_row::text, E''\n'' ORDER BY gp_row::text COLLATE "C") FROM ('
            || q || ') gp_row' INTO answer;
    PERFORM set_config('gpu_reduce.bulk_scan', 'on', true);
    RETURN answer;
END $$;
-- gpq(q): how the node decoded q's pages, whether its answer is native's,
-- and the number of groups
CREATE FUNCTION gpq(q text, OUT page_path text, OUT same boolean, OUT groups bigint)
LANGUAGE plpgsql AS $$
DECLARE
    mine text;
BEGIN
    SELECT g.page_path INTO page_path FROM gpnode(q) g;
    mine := gptext(q, false);
    same := mine IS NOT DISTINCT FROM gptext(q, true);
    EXECUTE 'SELECT count(*) FROM (' || q || ') s' INTO groups;
END $$;

-- keys of every kind a job compares as words, NULLs in each; zeros of both
-- signs and NaNs of two bit patterns among the float keys; char(4) padded,
-- text up to 7 bytes and longer (those rows go back to the scan), a text
-- compressed in place
CREATE TABLE gpk (id int, i2 int2, i4 int4, i8 int8, d date, ts timestamp, f4 float4, f8 float8,
                  c char(4), t text, cb bpchar, n numeric(12,2), x int8, f float8, r float4,
                  k100 int, k1000 int, tl text);
ALTER TABLE gpk ALTER COLUMN t SET STORAGE main;
INSERT INTO gpk
SELECT g, CASE WHEN g % 11 <> 0 THEN (g % 7 - 3) * 1000 END,
       (ARRAY[-2147483648, -1, 0, 1, 2147483647, NULL])[1 + g % 6],
       (ARRAY[-9223372036854775808, 0, 4294967296, 9223372036854775807, NULL])[1 + g % 5],
       (ARRAY['2000-02-29', '1999-12-31', 'infinity', '-infinity', NULL]::date[])[1 + g % 5],
       (ARRAY['2000-01-01', '2000-01-01 00:00:00.000001', 'infinity', NULL]::timestamp[])[1 + g % 4],
       CASE WHEN g % 10 = 9 THEN 'Infinity'::float4 - 'Infinity'::float4
            ELSE (ARRAY['0', '-0', 'NaN', 'Infinity', '-1.5', '1e-45', NULL, '2', '3']::float4[])[1 + g % 9] END,
       CASE WHEN g % 10 = 9 THEN 'Infinity'::float8 - 'Infinity'::float8
            ELSE (ARRAY['-0', '0', 'NaN', '-Infinity', '1.5', '5e-324', NULL, '2', '3']::float8[])[1 + g % 9] END,
       (ARRAY['ab', 'ab  ', 'abcd', '', NULL])[1 + g % 5],
       CASE WHEN g % 997 = 0 THEN repeat('long', 1000)
            ELSE (ARRAY['', 'a', 'ab', 'ab ', 'abcdefg', 'abcdefgh', 'é', NULL, 'abcdefg1'])[1 + g % 9] END,
       (ARRAY['ab', 'ab   ', 'abc', '', '     ', NULL])[1 + g % 6],
       CASE WHEN g % 13 = 0 THEN NULL ELSE (g % 1000) / 4.0 - 100 END,
       CASE WHEN g % 17 = 0 THEN NULL ELSE g * 1000003::int8 % 9223372036854775 * (1 - 2 * (g % 2)) END,
       CASE WHEN g % 19 = 0 THEN NULL ELSE (g % 1000) * 1e15 * (1 - 2 * (g % 3 % 2)) + g / 7.0 END,
       (g % 100) / 8.0, g % 100, g % 1000, 'longer key ' || g % 10
FROM generate_series(1, 40000) g;
VACUUM ANALYZE gpk;

-- one key of each kind
SELECT * FROM gpq('SELECT i2, count(*), count(x), gpu_sum(x), gpu_sum(f), gpu_avg(n), gpu_min(d), gpu_max(f8) FROM gpk GROUP BY i2');
SELECT * FROM gpq('SELECT i4, count(*), gpu_sum(i2), gpu_sum(r), gpu_max(ts), gpu_min(r) FROM gpk GROUP BY i4');
SELECT * FROM gpq('SELECT i8, count(*), gpu_sum(x), gpu_avg(i4), gpu_min(f), gpu_max(i2) FROM gpk GROUP BY i8');
SELECT * FROM gpq('SELECT d, count(*), gpu_sum(n), gpu_avg(x) FROM gpk GROUP BY d');
SELECT * FROM gpq('SELECT ts, count(*), gpu_sum(f), gpu_min(x) FROM gpk GROUP BY ts');
SELECT * FROM gpq('SELECT f4, count(*), gpu_sum(x), gpu_sum(f) FROM gpk GROUP BY f4');
SELECT * FROM gpq('SELECT f8, count(*), gpu_sum(n), gpu_max(x) FROM gpk GROUP BY f8');
SELECT * FROM gpq('SELECT c, count(*), gpu_sum(x) FROM gpk GROUP BY c');
SELECT * FROM gpq('SELECT cb, count(*), gpu_sum(f) FROM gpk GROUP BY cb');
-- text keys longer than 7 bytes (and one in 997 TOAST-sized) go back to the scan row by row
SELECT * FROM gpq('SELECT t, count(*), gpu_sum(x), gpu_avg(n) FROM gpk GROUP BY t');
-- several keys, native aggregates (sum and avg of a numeric column go
-- through the expression program, as int64s at the column's scale; max of
-- a float column without zeros: which zero native max returns depends on
-- the order it meets -0 and 0 in)
SET gpu_reduce.native_aggregates = on;
SELECT * FROM gpq('SELECT i2, f4, c, count(*), sum(n), avg(n), sum(x), max(f), min(i4) FROM gpk GROUP BY i2, f4, c');
SELECT * FROM gpq('SELECT i4 % 3, d, t, count(t), sum(n), avg(x) FROM gpk WHERE id % 5 <> 0 GROUP BY 1, d, t');
RESET gpu_reduce.native_aggregates;
-- computed keys: integer, float and numeric expressions, date_trunc
SELECT * FROM gpq('SELECT k100 % 7 + 1, n * 2, count(*), gpu_sum(x) FROM gpk GROUP BY 1, 2');
SELECT * FROM gpq('SELECT date_trunc(''month'', ts), f8 * 2, count(*), gpu_sum(n * 3) FROM gpk GROUP BY 1, 2');
-- 1 000 groups across the jobs; a WHERE the program evaluates
SELECT * FROM gpq('SELECT k1000, count(*), gpu_sum(x), gpu_sum(f), gpu_min(x), gpu_avg(n) FROM gpk WHERE i4 IN (0, 1) OR f8 > 1 GROUP BY 1');

-- which table: the scan's, collected at its end (every group once), or
-- each job's own (a float or char(n) key, whose first row gives the output)
SELECT collected AS scan_table_groups, overflowed FROM gpnode('SELECT k1000, count(*), gpu_sum(x) FROM gpk GROUP BY 1');
SELECT collected AS scan_table_groups FROM gpnode('SELECT t, i2, count(*) FROM gpk GROUP BY 1, 2');
SELECT collected AS scan_table_groups FROM gpnode('SELECT f8, count(*), gpu_sum(x) FROM gpk GROUP BY 1');

-- a job with more groups than it holds is decoded by the scan as a whole:
-- still exact, whether every job overflows or some do (float keys: jobs'
-- own tables)
SET gpu_reduce.debug_job_groups = 1;
SELECT * FROM gpq('SELECT k100::float8, count(*), gpu_sum(x), gpu_sum(f) FROM gpk GROUP BY 1');
-- EXPLAIN counts the jobs that overflowed; after two, the scan's later
-- pages skip the jobs (each would overflow too)
SELECT overflowed >= 2 AS counted, overflowed < 10 AS few FROM gpnode('SELECT k100::float8, count(*), gpu_sum(x) FROM gpk GROUP BY 1');
SELECT * FROM gpq('SELECT f4, count(*), gpu_sum(x), gpu_sum(f) FROM gpk GROUP BY 1');
SET gpu_reduce.debug_job_groups = 6;
SELECT * FROM gpq('SELECT i2, f4, count(*), gpu_sum(x), gpu_sum(f) FROM gpk GROUP BY 1, 2');
-- the scan's table full (6 groups of 100): each row of a group it has no
-- room for is handed back to the scan, which groups it; the table's groups
-- come at the end, and no row is lost or counted twice.  After the first
-- job that met a full table, the later pages go to the CPU
SELECT * FROM gpq('SELECT k100, count(*), count(x), gpu_sum(x), gpu_sum(f), gpu_min(i4), gpu_max(f8) FROM gpk GROUP BY 1');
SELECT collected AS scan_table_groups, overflowed BETWEEN 1 AND 5 AS jobs_met_it_full
FROM gpnode('SELECT k100, count(*), gpu_sum(x) FROM gpk GROUP BY 1');
SELECT * FROM gpq('SELECT t, i2 % 2, count(*), gpu_sum(f) FROM gpk GROUP BY 1, 2');
RESET gpu_reduce.debug_job_groups;
-- a scan's table made for fewer groups than come grows as they come (a
-- GPU's before a job that could find it full, the rows it had counted
-- and their slots moved), as far as gpu_reduce.group_table_memory holds:
-- no row goes to the CPU, every group is collected once
SET gpu_reduce.debug_scan_groups = 64;
SELECT * FROM gpq('SELECT k1000, count(*), count(x), gpu_sum(x), gpu_sum(f), gpu_min(i4) FROM gpk GROUP BY 1');
SELECT collected AS scan_table_groups, overflowed FROM gpnode('SELECT k1000, count(*), gpu_sum(x) FROM gpk GROUP BY 1');
SELECT * FROM gpq('SELECT k100, i2, count(*), gpu_sum(x) FROM gpk WHERE x % 3 <> 0 GROUP BY 1, 2');
RESET gpu_reduce.debug_scan_groups;
-- the group table past its memory while the scan's table is collected:
-- emitted and started afresh, PostgreSQL's Finalize Aggregate merges
SET work_mem = '64kB';
SET enable_seqscan = off;
SELECT * FROM gpq('SELECT k1000, id % 7, count(*), gpu_sum(x), gpu_avg(n) FROM gpk GROUP BY 1, 2');
SELECT collected AS scan_table_groups FROM gpnode('SELECT k1000, id % 7, count(*), gpu_sum(x), gpu_avg(n) FROM gpk GROUP BY 1, 2');
RESET enable_seqscan;
RESET work_mem;
-- parallel workers: a table of each process's own, each collected
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
SELECT * FROM gpq('SELECT k1000, count(*), gpu_sum(x), gpu_sum(f), min(i4) FROM gpk GROUP BY 1');
-- (planned as without a GPU, where it is parallel, and the plan kept: the
-- GPU's costs choose the serial plan in test/gpu/group_page.sh's GPU run)
SET gpu_reduce.page_path TO cpu;
PREPARE gppar AS SELECT k1000, count(*), gpu_sum(x), gpu_sum(f), min(i4) FROM gpk GROUP BY 1;
EXPLAIN (COSTS OFF) EXECUTE gppar;
SET gpu_reduce.page_path = cpu;
SELECT parallel, collected >= 1000 AS collected FROM gpnode('EXECUTE gppar');
DEALLOCATE gppar;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
SET max_parallel_workers_per_gather = 0;
-- every key longer than 7 bytes, jobs of 2 048 pages: into the scan's
-- table, a job lists every row it hands back, and the scan groups them;
-- a job with a table of its own (a float key too) hands back more rows
-- than it lists, and the scan decodes the job
RESET gpu_reduce.page_pins;
SELECT * FROM gpq('SELECT tl, count(*), gpu_sum(x) FROM gpk GROUP BY 1');
SELECT * FROM gpq('SELECT tl, r, count(*), gpu_sum(x) FROM gpk GROUP BY 1, 2');
SELECT pages > 0 AS decoded_by_the_scan FROM gpnode('SELECT tl, r, count(*), gpu_sum(x) FROM gpk GROUP BY 1, 2');

-- what a job does not fold per group leaves the page path, saying why
SELECT * FROM gpq('SELECT i2, gpu_top2(x) FROM gpk GROUP BY i2');
SELECT * FROM gpq('SELECT i2, gpu_variance(x) FROM gpk GROUP BY i2');
SELECT * FROM gpq('SELECT n, count(*), gpu_sum(x) FROM gpk GROUP BY n');
SELECT * FROM gpq('SELECT i2, gpu_max(n) FROM gpk GROUP BY i2');

-- final rows in passes (issue 41): a plan made for the groups the default
-- gpu_reduce.group_memory holds, run within 256 kB, reads the table again
-- in passes; each pass's jobs group every row again, and their groups (the
-- scan's table's, an integer key; each job's own, a float key) enter the
-- scan's group table only where their key's hash is the pass's
CREATE FUNCTION gpfinal(stmt text, q text, OUT page_path text, OUT passes bigint, OUT same boolean)
LANGUAGE plpgsql AS $$
DECLARE
    plan text;
BEGIN
    SELECT g.page_path INTO page_path FROM gpnode('EXECUTE ' || stmt) g;
    EXECUTE 'EXPLAIN (ANALYZE, FORMAT JSON, TIMING OFF, COSTS OFF) EXECUTE ' || stmt INTO plan;
    passes := (regexp_match(plan, '"Group Passes": (\d+)'))[1]::bigint;
    EXECUTE 'CREATE TEMP TABLE gp_exec AS EXECUTE ' || stmt;
    same := gptext('SELECT * FROM gp_exec', false) = gptext(q, true);
    DROP TABLE gp_exec;
END $$;
-- (the session's temporary schema made first: making it changes the search
-- path, which would plan the prepared statements again)
CREATE TEMP TABLE gp_first ();
DROP TABLE gp_first;
PREPARE gpf1 AS SELECT id % 5000, count(*), gpu_sum(x), sum(i4) FROM gpk GROUP BY 1 HAVING count(*) > 1;
PREPARE gpf2 AS SELECT f8, id % 3000, count(*), gpu_sum(f) FROM gpk GROUP BY 1, 2;
-- (planned, and the plan kept, at their first run; costed as without a GPU
-- in both of test/gpu/group_page.sh's runs, which then differ only in where
-- the jobs run: the GPU's costs choose other plans for these)
SET gpu_reduce.page_path TO cpu;
EXPLAIN (COSTS OFF) EXECUTE gpf1;
EXPLAIN (COSTS OFF) EXECUTE gpf2;
SET gpu_reduce.page_path = cpu;
SET gpu_reduce.group_memory = '256kB';
SELECT page_path, passes > 1 AS passes, same FROM gpfinal('gpf1',
    'SELECT id % 5000, count(*), gpu_sum(x), sum(i4) FROM gpk GROUP BY 1 HAVING count(*) > 1');
SELECT page_path, passes > 1 AS passes, same FROM gpfinal('gpf2',
    'SELECT f8, id % 3000, count(*), gpu_sum(f) FROM gpk GROUP BY 1, 2');
RESET gpu_reduce.group_memory;
DEALLOCATE gpf1;
DEALLOCATE gpf2;
DROP FUNCTION gpfinal(text, text);
-- final rows with a HAVING that keeps 1 % of 100 000 groups: the scan's
-- table is sized from the groups the planner expects, not from the rows
-- HAVING keeps (which left it at 65 536 groups, and the jobs that met more
-- to the CPU: Jobs Over Group Room)
CREATE TABLE gph AS SELECT g % 100000 AS k, g % 7 AS v FROM generate_series(1, 200000) g;
ANALYZE gph;
SET enable_hashagg = off;
SET enable_sort = off;
EXPLAIN (COSTS OFF) SELECT k, sum(v), count(*) FROM gph GROUP BY k HAVING min(k % 100) = 0;
SELECT * FROM gpq('SELECT k, sum(v), count(*) FROM gph GROUP BY k HAVING min(k % 100) = 0');
SELECT page_path, overflowed, collected FROM gpnode('SELECT k, sum(v), count(*) FROM gph GROUP BY k HAVING min(k % 100) = 0');
RESET enable_hashagg;
RESET enable_sort;
DROP TABLE gph;

-- dead and updated rows: the jobs see the snapshot's rows only
SET gpu_reduce.page_pins = 64;
BEGIN;
UPDATE gpk SET i2 = 5 WHERE id % 3 = 0;
DELETE FROM gpk WHERE id % 7 = 0;
SELECT * FROM gpq('SELECT i2, count(*), gpu_sum(x), gpu_sum(f) FROM gpk GROUP BY i2');
ROLLBACK;

RESET gpu_reduce.page_pins;
RESET gpu_reduce.page_path;
RESET gpu_reduce.bulk_scan;
RESET max_parallel_workers_per_gather;
DROP TABLE gpk;
DROP FUNCTION gpq(text), gptext(text, boolean), gpnode(text);
