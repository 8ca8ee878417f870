-- issue 41: 10^6 groups of a 10 M-row table with a HAVING that keeps 1 %, PostgreSQL's plan
-- against the node's final rows (group_memory 2GB) and its partial plan (the default 256MB),
-- in one psql session: psql -X -f bench/pg/group_having.sql (bench/pg/results/group-gpu)
\set q 'SELECT count(*), sum(si), round(sum(sd)::numeric, -3), sum(sp), sum(c) FROM (SELECT g1m, gpu_sum(i) si, gpu_sum(d) sd, gpu_sum(p) sp, count(*) c FROM pgb GROUP BY g1m HAVING min(g1m % 100) = 0) q'
\set qn 'SELECT count(*), sum(si), round(sum(sd)::numeric, -3), sum(sp), sum(c) FROM (SELECT g1m, sum(i) si, sum(d) sd, sum(p) sp, count(*) c FROM pgb GROUP BY g1m HAVING min(g1m % 100) = 0) q'
CREATE TABLE pgb AS SELECT floor(random() * 4294967296 - 2147483648)::integer i, (random() - 0.5) * 2e6 d, floor(random() * 1000000)::integer g1m, ((random() - 0.5) * 1.9e10)::numeric(12,2) p FROM generate_series(1, 10000000);
VACUUM ANALYZE pgb;
SET jit = off;
SET work_mem = '1GB';
SET gpu_reduce.group_memory = '2GB';
SET gpu_reduce.native_aggregates = exact;
\timing on
SET gpu_reduce.bulk_scan = off;
:qn;
:qn;
:qn;
RESET gpu_reduce.bulk_scan;
:q;
:q;
:q;
EXPLAIN (ANALYZE, VERBOSE) :q;
RESET gpu_reduce.group_memory;
:q;
:q;
EXPLAIN (ANALYZE, VERBOSE) :q;
