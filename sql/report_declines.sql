--
-- gpu_reduce.report_declines: when a query is planned, a NOTICE says why
-- the GpuReduce node was not: the first reason the planner met, naming the
-- clause, aggregate, key, table or setting, with the fix where there is
-- one.  (Where the node was offered, the NOTICE gives its cost beside
-- PostgreSQL's cheapest plan instead; costs differ by host, so no query
-- here is one the node takes.)  Off, nothing is said.
--
LOAD 'gpu_reduce';
SET gpu_reduce.bulk_scan = on;
SET max_parallel_workers_per_gather = 0;
CREATE TABLE rd (k int, b int8, f float8, n numeric(10,2), t text, p text);
INSERT INTO rd SELECT g % 7, g, g / 3.0, g / 100.0, 'x' || g % 5, 'green' || g
FROM generate_series(1, 20000) g;
ANALYZE rd;
CREATE TABLE rd_small (b int8);
INSERT INTO rd_small VALUES (1), (2);
ANALYZE rd_small;

-- off (the default): nothing said
EXPLAIN (COSTS OFF) SELECT gpu_sum(b) FROM rd WHERE p LIKE '%gr_en%';
SET gpu_reduce.report_declines = on;
-- an expression the program does not compile, in WHERE, an argument, a key
EXPLAIN (COSTS OFF) SELECT gpu_sum(b) FROM rd WHERE p LIKE '%gr_en%';
EXPLAIN (COSTS OFF) SELECT sum(length(t)) FROM rd;
EXPLAIN (COSTS OFF) SELECT md5(t), sum(b) FROM rd GROUP BY md5(t);
-- aggregates: DISTINCT, a float sum under the default native_aggregates, off
SELECT count(DISTINCT b) FROM rd;
EXPLAIN (COSTS OFF) SELECT sum(f) FROM rd;
SET gpu_reduce.native_aggregates = off;
EXPLAIN (COSTS OFF) SELECT max(b) FROM rd;
RESET gpu_reduce.native_aggregates;
-- a float sum under exact is the node's only whole and serial
SET gpu_reduce.native_aggregates = exact;
EXPLAIN (COSTS OFF) SELECT k, sum(f) FROM rd GROUP BY k;
RESET gpu_reduce.native_aggregates;
-- the query's shape: a join not by equalities, a subquery, no row, a tiny table
SELECT sum(a.b) FROM rd a JOIN rd_small c ON a.b < c.b;
EXPLAIN (COSTS OFF) SELECT sum(b) FROM (SELECT b FROM rd LIMIT 100) s;
SELECT sum(b) FROM rd WHERE false;
EXPLAIN (COSTS OFF) SELECT sum(b) FROM rd_small;
EXPLAIN (COSTS OFF) SELECT sum(b) FROM rd TABLESAMPLE SYSTEM (50);
-- a setting
SET gpu_reduce.bulk_scan = off;
EXPLAIN (COSTS OFF) SELECT sum(b) FROM rd;
SET gpu_reduce.bulk_scan = on;
-- the answers are PostgreSQL's whatever is said
SELECT sum(length(t)), count(DISTINCT b) FROM rd;
RESET gpu_reduce.report_declines;
DROP TABLE rd, rd_small;
