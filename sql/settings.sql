--
-- Settings (GUCs), statistics and the device list.
-- The suite also runs with gpu_reduce.batch_rows set from outside, and on
-- hosts with or without a GPU: nothing here prints a current batch size,
-- a batch count or a device.
--
LOAD 'gpu_reduce';
-- defaults and limits
SELECT name, vartype, unit, boot_val, min_val, max_val, context
FROM pg_settings
WHERE name IN ('gpu_reduce.enabled', 'gpu_reduce.batch_rows', 'gpu_reduce.min_gpu_rows', 'gpu_reduce.buffer_memory',
               'gpu_reduce.page_path', 'gpu_reduce.page_pins', 'gpu_reduce.debug_page_read_only',
               'gpu_reduce.group_table_memory', 'gpu_reduce.buffer_hints', 'gpu_reduce.debug_buffer_hints')
ORDER BY name;
SELECT name, enumvals FROM pg_settings WHERE name = 'gpu_reduce.debug_buffer_hints';
SHOW gpu_reduce.enabled;
SHOW gpu_reduce.buffer_memory;

-- setting them
SET gpu_reduce.batch_rows = 1000;
SHOW gpu_reduce.batch_rows;
SET gpu_reduce.batch_rows = 1;
SHOW gpu_reduce.batch_rows;
SET gpu_reduce.batch_rows = 0;
SET gpu_reduce.batch_rows = -5;
SET gpu_reduce.min_gpu_rows = 1000;
SHOW gpu_reduce.min_gpu_rows;
SET gpu_reduce.buffer_memory = '1MB';
SHOW gpu_reduce.buffer_memory;
SET gpu_reduce.buffer_memory = 64;
SHOW gpu_reduce.buffer_memory;
SET gpu_reduce.buffer_memory = '8kB';
SHOW gpu_reduce.buffer_memory;
-- below the 8kB minimum: 22023 (only the SQLSTATE is shown: PostgreSQL 16 added
-- units to the range this message quotes)
\set VERBOSITY sqlstate
SET gpu_reduce.buffer_memory = '4kB';
\set VERBOSITY default
SET gpu_reduce.enabled = off;
SHOW gpu_reduce.enabled;
SET gpu_reduce.enabled = 'maybe';
SET gpu_reduce.debug_buffer_hints = 'sometimes';
RESET gpu_reduce.buffer_memory;
SHOW gpu_reduce.buffer_memory;

-- answers do not depend on the settings
CREATE TABLE settings_t AS
SELECT i, ((i * 7919) % 1000 - 500)::int4 AS b, ((i * 7919) % 1000 - 500) / 16.0::float8 AS d
FROM generate_series(1, 20000) i;
SET gpu_reduce.enabled = off;
SELECT gpu_sum(b) = sum(b) AS sum_int4, gpu_sum(d) = sum(d) AS sum_float8, gpu_avg(b)::text = avg(b)::text AS avg_int4,
       gpu_max(d) = max(d) AS max_float8, gpu_top2(b) AS top2
FROM settings_t;
SET gpu_reduce.enabled = on;
SET gpu_reduce.batch_rows = 3;
SET gpu_reduce.min_gpu_rows = 1;
SELECT gpu_sum(b) = sum(b) AS sum_int4, gpu_sum(d) = sum(d) AS sum_float8, gpu_avg(b)::text = avg(b)::text AS avg_int4,
       gpu_max(d) = max(d) AS max_float8, gpu_top2(b) AS top2
FROM settings_t WHERE i <= 1500;
SET gpu_reduce.batch_rows = 1000000;
SET gpu_reduce.min_gpu_rows = 1000000;
SELECT gpu_sum(b) = sum(b) AS sum_int4, gpu_sum(d) = sum(d) AS sum_float8, gpu_avg(b)::text = avg(b)::text AS avg_int4,
       gpu_max(d) = max(d) AS max_float8, gpu_top2(b) AS top2
FROM settings_t;
RESET gpu_reduce.batch_rows;
RESET gpu_reduce.min_gpu_rows;
RESET gpu_reduce.enabled;

-- statistics of this backend
SELECT pg_get_function_arguments('gpu_reduce_stats()'::regprocedure) AS columns;
SELECT gpu_reduce_stats_reset();
SELECT * FROM gpu_reduce_stats();
SET max_parallel_workers_per_gather = 0;
-- (values batched from the first: the row path folds fewer than
-- min_gpu_rows one by one, counted as rows, not batches)
SET gpu_reduce.min_gpu_rows = 1;
SELECT gpu_sum(d) FROM settings_t;
-- (batch buffers may live in the backend or, on a GPU host, in shared memory:
-- buffer_peak_bytes is not printed here)
SELECT gpu_rows + cpu_rows AS rows_reduced, gpu_batches + cpu_batches > 0 AS batches_ran,
       gpu_bytes >= 0 AS gpu_bytes, gpu_fallbacks >= 0 AS fallbacks
FROM gpu_reduce_stats();
RESET gpu_reduce.min_gpu_rows;
-- (the row path folds min, max and integer sums in place, uncounted, so
-- this count would differ between the bulk scan and the row path for them)
SELECT gpu_sum(d), gpu_avg(d) FROM settings_t WHERE i <= 1000;
SELECT gpu_rows + cpu_rows AS rows_reduced FROM gpu_reduce_stats();
SELECT gpu_reduce_stats_reset();
SELECT gpu_batches, gpu_rows, gpu_bytes, gpu_fallbacks, cpu_batches, cpu_rows, buffer_peak_bytes FROM gpu_reduce_stats();
-- the row path folds min, max and integer sums and averages in place, as
-- native aggregates do: no batch buffer is taken and no row is counted
SET gpu_reduce.bulk_scan = off;
SELECT gpu_min(b), gpu_max(d), gpu_min(d::float4), gpu_sum(b), gpu_avg(b::int8) FROM settings_t;
SELECT gpu_rows + cpu_rows AS rows_counted, buffer_peak_bytes FROM gpu_reduce_stats();
RESET gpu_reduce.bulk_scan;
RESET max_parallel_workers_per_gather;

-- devices: none on a host without a GPU (the NOTICE that says so is not shown here)
SELECT pg_get_function_arguments('gpu_reduce_devices()'::regprocedure) AS columns;
SET client_min_messages = warning;
SELECT count(*) >= 0 AS listed FROM gpu_reduce_devices();
SELECT bool_and(device >= 0 AND name <> '' AND sm_count > 0 AND memory_mb > 0 AND batches >= 0 AND rows >= batches AND page_path <> '') IS NOT FALSE AS sane FROM gpu_reduce_devices();
RESET client_min_messages;

DROP TABLE settings_t;
