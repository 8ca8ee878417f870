--
-- gpu_reduce.buffer_memory bounds the memory of batch buffers held at once
-- by a backend: with many groups the buffers are flushed early instead of
-- growing.  A GROUP BY over 100000 groups under a 64kB bound completes,
-- with every group equal to the native answer, and the peak stays in bound.
--
LOAD 'gpu_reduce';
CREATE TABLE mem (i int, g int, b int4, c int8, d float8, r float4);
INSERT INTO mem
SELECT i, (i::bigint * 7919) % 100000,
       ((i::bigint * 2654435761) % 4294967296 - 2147483648)::int4,
       ((i::numeric * 11400714819323198485) % 18446744073709551616 - 9223372036854775808)::int8,
       ((i::bigint * 2654435761) % 100000000 - 50000000) / 64.0,
       ((i::bigint * 7919) % 100000 - 50000) / 64.0
FROM generate_series(1, 300000) i;
ANALYZE mem;
SET max_parallel_workers_per_gather = 0;   -- one backend holds every buffer
SET gpu_reduce.buffer_memory = '64kB';
SHOW gpu_reduce.buffer_memory;

-- hash aggregation: all groups alive at once
SELECT gpu_reduce_stats_reset();
SELECT count(*) AS groups,
       count(*) FILTER (WHERE sb = nb AND sc = nc AND sd = nd AND sr = nr) AS sum_equal,
       count(*) FILTER (WHERE ab::text = mb::text AND ad = md) AS avg_equal,
       count(*) FILTER (WHERE lo = nlo AND hi = nhi) AS minmax_equal,
       count(*) FILTER (WHERE t2 = rt2 AND t3 = rt3) AS topk_equal
FROM (SELECT g, gpu_sum(b) sb, sum(b) nb, gpu_sum(c) sc, sum(c) nc, gpu_sum(d) sd, sum(d) nd,
             gpu_sum(r) sr, sum(r::float8)::float4 nr,
             gpu_avg(b) ab, avg(b) mb, gpu_avg(d) ad, avg(d) md,
             gpu_min(c) lo, min(c) nlo, gpu_max(r) hi, max(r) nhi,
             gpu_top2(b) t2, (array_agg(b ORDER BY b DESC))[1:2] rt2,
             gpu_topk(d, 3) t3, (array_agg(d ORDER BY d DESC))[1:3] rt3
      FROM mem GROUP BY g) q;
SELECT buffer_peak_bytes <= 65536 AS within_64kB, gpu_rows + cpu_rows > 0 AS reduced FROM gpu_reduce_stats();

-- sorted group aggregation: one group at a time
SET enable_hashagg = off;
SELECT gpu_reduce_stats_reset();
SELECT count(*) AS groups, count(*) FILTER (WHERE sc = nc AND sd = nd AND t2 = rt2) AS equal
FROM (SELECT g, gpu_sum(c) sc, sum(c) nc, gpu_sum(d) sd, sum(d) nd,
             gpu_top2(r) t2, (array_agg(r ORDER BY r DESC))[1:2] rt2
      FROM mem GROUP BY g) q;
SELECT buffer_peak_bytes <= 65536 AS within_64kB FROM gpu_reduce_stats();
RESET enable_hashagg;

-- the smallest bound, and few large groups
SET gpu_reduce.buffer_memory = '8kB';
SELECT gpu_reduce_stats_reset();
SELECT count(*) AS groups, count(*) FILTER (WHERE sb = nb AND sd = nd AND t = rt) AS equal
FROM (SELECT g % 10 AS g, gpu_sum(b) sb, sum(b) nb, gpu_sum(d) sd, sum(d) nd,
             gpu_topk(c, 5) t, (array_agg(c ORDER BY c DESC))[1:5] rt
      FROM mem GROUP BY g % 10) q;
SELECT buffer_peak_bytes <= 8192 AS within_8kB FROM gpu_reduce_stats();
-- and whole-table aggregates
SELECT gpu_sum(d) = sum(d) AS sum_float8, gpu_sum(c) = sum(c) AS sum_int8, gpu_max(b) = max(b) AS max_int4 FROM mem;
SELECT buffer_peak_bytes <= 8192 AS within_8kB FROM gpu_reduce_stats();

-- buffers of queries that end early are given back: an error in the middle
-- of a many-group aggregate, a cursor closed half-way, a rolled back
-- transaction; afterwards the bound still holds for a fresh query
SET gpu_reduce.buffer_memory = '64kB';
SELECT g, gpu_topk(c, CASE WHEN i > 250000 THEN 2 ELSE 1 END) FROM mem GROUP BY g;
SELECT g, gpu_sum(CASE WHEN g = 5 THEN 1e308 ELSE d END) FROM mem GROUP BY g;
BEGIN;
DECLARE mem_cursor CURSOR FOR SELECT g, gpu_sum(b), gpu_sum(d), gpu_top2(r) FROM mem GROUP BY g;
MOVE 2 IN mem_cursor;
CLOSE mem_cursor;
COMMIT;
BEGIN;
SELECT count(*) FROM (SELECT g, gpu_sum(c) FROM mem GROUP BY g) q;
ROLLBACK;
SELECT gpu_reduce_stats_reset();
SELECT count(*) AS groups, count(*) FILTER (WHERE sb = nb AND sd = nd) AS equal
FROM (SELECT g, gpu_sum(b) sb, sum(b) nb, gpu_sum(d) sd, sum(d) nd FROM mem GROUP BY g) q;
SELECT buffer_peak_bytes <= 65536 AS within_64kB FROM gpu_reduce_stats();
-- hash aggregation that spills to disk (small work_mem)
SET work_mem = '256kB';
SELECT gpu_reduce_stats_reset();
SELECT count(*) AS groups, count(*) FILTER (WHERE sc = nc AND t = rt) AS equal
FROM (SELECT g, gpu_sum(c) sc, sum(c) nc, gpu_top2(d) t, (array_agg(d ORDER BY d DESC))[1:2] rt FROM mem GROUP BY g) q;
SELECT buffer_peak_bytes <= 65536 AS within_64kB FROM gpu_reduce_stats();
RESET work_mem;

-- the budget counts what batching takes beside the states, as palloc takes
-- it: a buffer with its chunk header, and the extension a state makes when
-- it first takes a buffer (its batch, slot numbers and release callback, 80
-- bytes).  One state filling CPU batches of 1024 float8 values peaks at
-- 8192 + 16 + 80 bytes (every value to the CPU, from the first; the CPU
-- decodes the pages)
RESET gpu_reduce.buffer_memory;
SET gpu_reduce.enabled = off;
SET gpu_reduce.page_path = off;
SET gpu_reduce.batch_rows = 65536;
SET gpu_reduce.min_gpu_rows = 1;
SELECT gpu_reduce_stats_reset();
SELECT gpu_sum(d) = sum(d) AS sum_equal FROM mem;
SELECT buffer_peak_bytes FROM gpu_reduce_stats();
-- many groups, each batching from its first value: past the budget, a
-- state makes no extension and folds its values one by one
SET gpu_reduce.buffer_memory = '64kB';
SELECT gpu_reduce_stats_reset();
SELECT count(*) AS groups, count(*) FILTER (WHERE sd = nd AND t = rt) AS equal
FROM (SELECT g, gpu_sum(d) sd, sum(d) nd, gpu_top2(c) t, (array_agg(c ORDER BY c DESC))[1:2] rt
      FROM mem GROUP BY g) q;
SELECT buffer_peak_bytes <= 65536 AS within_64kB FROM gpu_reduce_stats();
RESET gpu_reduce.enabled;
RESET gpu_reduce.page_path;
RESET gpu_reduce.batch_rows;
RESET gpu_reduce.min_gpu_rows;

RESET gpu_reduce.buffer_memory;
RESET max_parallel_workers_per_gather;
DROP TABLE mem;
