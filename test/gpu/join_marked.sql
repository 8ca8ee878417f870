--
-- Marked joins on the GPU's page path, for test/gpu/join_marked.sh: a semi and
-- an anti join whose inner side is the largest relation (3 M rows, 13 275 pages, several
-- jobs), serial and with 2 workers, with the page path on (the kernel marks the
-- GPU's copy of the marks), cpu (the backend's run of the same jobs) and off;
-- the marked relation has repeated and NULL keys.  Every answer must be
-- PostgreSQL's, Rows Marked the same in every mode, and each run with the page
-- path on must say "Page Path: gpu" with pages the GPU decoded.  Ends with
-- "join_marked: PASSED" or "join_marked: FAILED".
--
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS gpu_reduce;
DROP TABLE IF EXISTS wm_big, wm_small;
CREATE TABLE wm_big (b_key int4, b_qty int4);
INSERT INTO wm_big SELECT CASE WHEN i % 97 = 0 THEN NULL ELSE i % 300000 END, i % 11
FROM generate_series(1, 3000000) i;
CREATE TABLE wm_small (s_key int4, s_grp int4, s_v int8);
INSERT INTO wm_small SELECT CASE WHEN i % 50 = 0 THEN NULL ELSE i END, i % 7, i
FROM generate_series(1, 400000) i;
INSERT INTO wm_small SELECT i, 9, i FROM generate_series(1, 1000) i;	-- keys of two rows
VACUUM ANALYZE wm_big, wm_small;
CREATE TEMP TABLE lines (mode text, w int, kind text, line text);
CREATE TEMP TABLE ans (mode text, w int, kind text, r text);
DO $$
DECLARE
    m text;
    w int;
    k text;
    q text;
    line text;
    r text;
BEGIN
    SET LOCAL parallel_setup_cost = 0;
    SET LOCAL parallel_tuple_cost = 0;
    FOREACH m IN ARRAY ARRAY['on', 'cpu', 'off', 'native'] LOOP
        -- the node, whatever PostgreSQL's plans would cost; PostgreSQL's own join for native
        PERFORM set_config('enable_hashjoin', CASE m WHEN 'native' THEN 'on' ELSE 'off' END, true);
        PERFORM set_config('enable_nestloop', CASE m WHEN 'native' THEN 'on' ELSE 'off' END, true);
        PERFORM set_config('enable_mergejoin', CASE m WHEN 'native' THEN 'on' ELSE 'off' END, true);
        FOREACH w IN ARRAY ARRAY[0, 2] LOOP
            FOREACH k IN ARRAY ARRAY['EXISTS', 'NOT EXISTS'] LOOP
                PERFORM set_config('gpu_reduce.page_path', CASE m WHEN 'native' THEN 'off' ELSE m END, true);
                PERFORM set_config('gpu_reduce.bulk_scan', CASE m WHEN 'native' THEN 'off' ELSE 'on' END, true);
                PERFORM set_config('max_parallel_workers_per_gather', w::text, true);
                q := format('SELECT s_grp, count(*), sum(s_v), count(s_key) FROM wm_small WHERE %s '
                            '(SELECT 1 FROM wm_big WHERE b_key = s_key AND b_qty > 8) GROUP BY 1', k);
                FOR line IN EXECUTE 'EXPLAIN (ANALYZE, VERBOSE, COSTS OFF, TIMING OFF, SUMMARY OFF) ' || q LOOP
                    IF line ~ 'Page Path|Rows Marked|GPU Decoded Pages|Workers Launched' THEN
                        INSERT INTO lines VALUES (m, w, k, btrim(line));
                    END IF;
                END LOOP;
                EXECUTE format('SELECT string_agg(x::text, '' '' ORDER BY x::text) FROM (%s) x', q) INTO r;
                INSERT INTO ans VALUES (m, w, k, r);
            END LOOP;
        END LOOP;
    END LOOP;
END $$;
RESET client_min_messages;
SELECT mode, w, kind, string_agg(line, '; ' ORDER BY line) FROM lines GROUP BY 1, 2, 3 ORDER BY 1, 2, 3;
SELECT kind, count(DISTINCT r) AS answers, min(length(r)) AS chars FROM ans GROUP BY 1 ORDER BY 1;
SELECT CASE WHEN
    (SELECT count(DISTINCT r) FROM ans GROUP BY kind ORDER BY 1 DESC LIMIT 1) = 1 AND
    (SELECT count(DISTINCT line) FROM lines WHERE line LIKE 'Rows Marked%' GROUP BY kind ORDER BY 1 DESC LIMIT 1) = 1 AND
    (SELECT count(*) FROM lines WHERE line LIKE 'Rows Marked%') = 12 AND
    (SELECT bool_and(line = 'Page Path: gpu') AND count(*) >= 4 FROM lines WHERE mode = 'on' AND line LIKE 'Page Path%') AND
    (SELECT bool_and(substring(line FROM '[0-9]+')::bigint > 0) AND count(*) >= 4 FROM lines
     WHERE mode = 'on' AND line LIKE 'GPU Decoded Pages%')
    THEN 'join_marked: PASSED' ELSE 'join_marked: FAILED' END AS result;
DROP TABLE wm_big, wm_small;
