--
-- Grouped gpu_topk under hash aggregation.  The planner takes a state's
-- memory from k and the rows per group (a heap of min(k, rows) keys, a copy
-- of each numeric value kept; agg_space.c), not from the aggregate's fixed
-- SSPACE, so HashAggregate keeps the groups that fit work_mem and spills the
-- rest, as it does for array_agg, instead of taking every group and letting
-- their heaps grow past it.  Answers as native's: the first k of ORDER BY x
-- DESC.
--
CREATE FUNCTION hash_agg(q text, OUT planned_partitions int, OUT batches int, OUT peak_kb int)
LANGUAGE plpgsql AS $$
DECLARE
    line text;
    m text[];
BEGIN
    planned_partitions := 0;
    FOR line IN EXECUTE 'EXPLAIN ' || q LOOP
        m := regexp_match(line, 'Planned Partitions: (\d+)');
        IF m IS NOT NULL THEN planned_partitions := m[1]; END IF;
    END LOOP;
    FOR line IN EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF, BUFFERS OFF) ' || q LOOP
        m := regexp_match(line, 'Batches: (\d+)  Memory Usage: (\d+)kB');
        IF m IS NOT NULL THEN batches := m[1]; peak_kb := m[2]; END IF;
    END LOOP;
END $$;

SET max_parallel_workers_per_gather = 0;
SET gpu_reduce.bulk_scan = off;         -- PostgreSQL's HashAggregate over its scan
SET work_mem = '4MB';
SET hash_mem_multiplier = 1;
SET enable_sort = off;                  -- hashed, whatever the planner thinks of it

-- 50 groups of 9 000 values: heaps of 16 384 keys, 6.4 MB in all
CREATE TABLE tks (g int, x int4);
INSERT INTO tks SELECT i % 50, (i::bigint * 7919 % 1000003)::int4 FROM generate_series(1, 450000) i;
ANALYZE tks;
CREATE TEMP TABLE tks_ref AS SELECT g, array_agg(x ORDER BY x DESC) AS rt FROM tks GROUP BY g;
-- k = 100000: planned to spill, spilled, and held about work_mem (before
-- the estimate came from k: one batch of 7.4 MB)
SELECT planned_partitions > 0 AS planned_to_spill, batches > 1 AS spilled,
       peak_kb < 1.5 * 4096 AS within_one_and_a_half_work_mem
FROM hash_agg('SELECT g, gpu_topk(x, 100000) FROM tks GROUP BY g');
-- k = 10: small heaps, one batch
SELECT planned_partitions, batches FROM hash_agg('SELECT g, gpu_topk(x, 10) FROM tks GROUP BY g');
SELECT count(*) AS groups, count(*) FILTER (WHERE t = rt) AS equal,
       count(*) FILTER (WHERE t10 = rt[1:10]) AS equal_k10, min(cardinality(t)) AS least_kept
FROM (SELECT g, gpu_topk(x, 100000) t, gpu_topk(x, 10) t10 FROM tks GROUP BY g) a JOIN tks_ref USING (g);

-- k = 100000 over 4 000 groups of 5 values: a state holds 5 keys, not k
CREATE TABLE tkm (h int, x int4);
INSERT INTO tkm SELECT i % 4000, i FROM generate_series(1, 20000) i;
ANALYZE tkm;
SELECT planned_partitions, batches FROM hash_agg('SELECT h, gpu_topk(x, 100000) FROM tkm GROUP BY h');
SELECT count(*) AS groups, count(*) FILTER (WHERE t = rt) AS equal
FROM (SELECT h, gpu_topk(x, 100000) t FROM tkm GROUP BY h) a
JOIN (SELECT h, array_agg(x ORDER BY x DESC) rt FROM tkm GROUP BY h) b USING (h);

-- numeric: a copy of each value kept, of the column's average width; 10
-- groups of 15 000 values take 6 MB (before: one batch of 6.0 MB)
CREATE TABLE tkn (g int, n numeric(12,2));
INSERT INTO tkn SELECT i % 10, (i::bigint * 7919 % 1000003) / 100.0 FROM generate_series(1, 150000) i;
ANALYZE tkn;
SELECT planned_partitions > 0 AS planned_to_spill, batches > 1 AS spilled,
       peak_kb < 1.5 * 4096 AS within_one_and_a_half_work_mem
FROM hash_agg('SELECT g, gpu_topk(n, 100000) FROM tkn GROUP BY g');
SELECT count(*) AS groups, count(*) FILTER (WHERE t = rt) AS equal
FROM (SELECT g, gpu_topk(n, 100000) t FROM tkn GROUP BY g) a
JOIN (SELECT g, array_agg(n ORDER BY n DESC) rt FROM tkn GROUP BY g) b USING (g);

-- the node's partial states, merged by PostgreSQL's Finalize HashAggregate:
-- likewise planned and spilled (gpu_reduce.group_memory as work_mem: the
-- node's final rows would hold the 6.4 MB of heaps themselves)
SET gpu_reduce.bulk_scan = on;
SET gpu_reduce.group_memory = '4MB';
SELECT planned_partitions > 0 AS planned_to_spill, batches > 1 AS spilled,
       peak_kb < 1.5 * 4096 AS within_one_and_a_half_work_mem
FROM hash_agg('SELECT g, gpu_topk(x, 100000) FROM tks GROUP BY g');
SELECT count(*) AS groups, count(*) FILTER (WHERE t = rt) AS equal
FROM (SELECT g, gpu_topk(x, 100000) t FROM tks GROUP BY g) a JOIN tks_ref USING (g);

RESET gpu_reduce.group_memory;
RESET enable_sort;
RESET hash_mem_multiplier;
RESET work_mem;
RESET gpu_reduce.bulk_scan;
RESET max_parallel_workers_per_gather;
DROP TABLE tks, tkm, tkn, tks_ref;
DROP FUNCTION hash_agg(text);
