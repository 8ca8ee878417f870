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
