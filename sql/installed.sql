--
-- The library acts only in databases where the extension is installed: a
-- library preloaded for the whole server (shared_preload_libraries) leaves
-- every other database's plans to PostgreSQL, and so does DROP EXTENSION,
-- in this session and in others.  gpu_reduce.bulk_scan = off turns the node
-- off where it is installed.
--
\set origdb :DBNAME
SET client_min_messages = warning;
DROP DATABASE IF EXISTS gr_installed;
RESET client_min_messages;
CREATE DATABASE gr_installed;
\c gr_installed
LOAD 'gpu_reduce';
SET gpu_reduce.bulk_scan = on;
SET max_parallel_workers_per_gather = 0;
CREATE TABLE inst (k int, b int8);
INSERT INTO inst SELECT g % 7, g FROM generate_series(1, 50000) g;
ANALYZE inst;
-- not installed here: PostgreSQL's plans, its answers
EXPLAIN (COSTS OFF) SELECT sum(b), max(b) FROM inst;
EXPLAIN (COSTS OFF) SELECT k, sum(b) FROM inst GROUP BY k;
SELECT sum(b), max(b) FROM inst;
-- installed: the node
CREATE EXTENSION gpu_reduce;
EXPLAIN (COSTS OFF) SELECT sum(b), max(b) FROM inst;
SELECT sum(b), max(b), gpu_sum(b) FROM inst;
-- off for the session
SET gpu_reduce.bulk_scan = off;
EXPLAIN (COSTS OFF) SELECT sum(b), max(b) FROM inst;
SET gpu_reduce.bulk_scan = on;
-- a rolled-back DROP keeps it, a committed one ends it
BEGIN;
DROP EXTENSION gpu_reduce;
EXPLAIN (COSTS OFF) SELECT sum(b) FROM inst;
ROLLBACK;
EXPLAIN (COSTS OFF) SELECT sum(b) FROM inst;
DROP EXTENSION gpu_reduce;
EXPLAIN (COSTS OFF) SELECT sum(b), max(b) FROM inst;
SELECT sum(b), max(b) FROM inst;
\c :origdb
DROP DATABASE gr_installed;
