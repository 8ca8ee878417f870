--
-- Upgrades: a 1.0, 1.1, 1.2, 1.3 or 1.4 install brought to the default
-- version (1.5) by ALTER EXTENSION gpu_reduce UPDATE (gpu_reduce--1.0--1.1.sql
-- to gpu_reduce--1.4--1.5.sql) must be the catalog a fresh install
-- (gpu_reduce--1.5.sql) makes, comments, schemas and argument names
-- included, and its aggregates must answer, through views made before the
-- update too.  An object added to one script and not the other shows up
-- below as a row of the difference.  Runs in a database of its own, so the
-- suite's database keeps its install whatever the order of the tests.
--
\set regress_db :DBNAME
SET client_min_messages = warning;
DROP DATABASE IF EXISTS gpu_reduce_upgrade;
RESET client_min_messages;
CREATE DATABASE gpu_reduce_upgrade;
\c gpu_reduce_upgrade

-- the extension's members, one line each: the object, and for functions and
-- aggregates every property a script sets (by name, not by OID, which differs
-- between two installs)
CREATE FUNCTION ext_fingerprint() RETURNS SETOF text LANGUAGE sql AS $$
SELECT pg_describe_object(d.classid, d.objid, d.objsubid)
       || coalesce(' | comment ' || obj_description(d.objid, d.classid::regclass::name), '')
       || coalesce((SELECT format(' | args (%s) returns %s kind %s volatile %s parallel %s strict %s secdef %s leakproof %s cost %s rows %s support %s lib %s symbol %s',
                                  pg_get_function_arguments(p.oid), pg_get_function_result(p.oid),
                                  p.prokind, p.provolatile, p.proparallel, p.proisstrict,
                                  p.prosecdef, p.proleakproof, p.procost, p.prorows, p.prosupport,
                                  regexp_replace(p.probin, '^.*/', ''), p.prosrc)
                    FROM pg_proc p WHERE d.classid = 'pg_proc'::regclass AND p.oid = d.objid), '')
       || coalesce((SELECT format(' | agg kind %s trans %s %s space %s final %s extra %s modify %s combine %s serial %s deserial %s init %s moving %s %s %s %s sortop %s',
                                  a.aggkind, a.aggtransfn::oid::regprocedure, a.aggtranstype::regtype,
                                  a.aggtransspace, a.aggfinalfn::oid::regprocedure, a.aggfinalextra,
                                  a.aggfinalmodify, a.aggcombinefn::oid::regprocedure,
                                  a.aggserialfn::oid::regprocedure, a.aggdeserialfn::oid::regprocedure,
                                  a.agginitval, a.aggmtransfn::oid::regprocedure,
                                  a.aggminvtransfn::oid::regprocedure, a.aggmfinalfn::oid::regprocedure,
                                  a.aggmtranstype::regtype, a.aggsortop::regoperator)
                    FROM pg_aggregate a WHERE d.classid = 'pg_proc'::regclass AND a.aggfnoid = d.objid), '')
FROM pg_depend d
JOIN pg_extension e ON d.refclassid = 'pg_extension'::regclass AND d.refobjid = e.oid
WHERE e.extname = 'gpu_reduce' AND d.deptype = 'e'
$$;

-- the path ALTER EXTENSION takes
SELECT source, target, path FROM pg_extension_update_paths('gpu_reduce')
WHERE source < target ORDER BY 1, 2;

-- 1.0, then UPDATE to the default version
CREATE EXTENSION gpu_reduce VERSION '1.0';
SELECT extversion FROM pg_extension WHERE extname = 'gpu_reduce';
ALTER EXTENSION gpu_reduce UPDATE;
SELECT extversion FROM pg_extension WHERE extname = 'gpu_reduce';
CREATE TABLE fp_updated AS SELECT ext_fingerprint() AS line;

-- the updated install answers as the native aggregates do
SELECT gpu_sum(x) = sum(x) AS sum_ok, gpu_min(x) = min(x) AS min_ok, gpu_max(x) = max(x) AS max_ok,
       gpu_avg(x)::text = avg(x)::text AS avg_ok, gpu_top2(x) AS top2, gpu_topk(x, 3) AS top3,
       gpu_sum(x / 8.0::float8) AS float_sum
FROM generate_series(1, 100000) AS x;
SELECT gpu_sum(x) AS sum_int8, gpu_avg(x::int2 % 100) AS avg_int2
FROM generate_series(-5::bigint, 1000) AS x;
-- 1.2's types: gpu_sum(numeric) is the exact numeric aggregate
SELECT pg_typeof(gpu_sum(x / 8.0)) AS sum_type, gpu_sum(x / 8.0) AS sum_numeric,
       gpu_avg(x / 8.0)::text = avg(x / 8.0)::text AS avg_ok,
       gpu_max(date '2000-01-01' + x::int) AS max_date,
       gpu_top2(timestamptz '2000-01-01 00:00+00' + x * interval '1 hour') = ARRAY[timestamptz '2000-01-01 00:00+00' + 1000 * interval '1 hour', timestamptz '2000-01-01 00:00+00' + 999 * interval '1 hour'] AS top2_ok
FROM generate_series(-5::bigint, 1000) AS x;

-- 1.1, then UPDATE to the default version
DROP EXTENSION gpu_reduce;
CREATE EXTENSION gpu_reduce VERSION '1.1';
ALTER EXTENSION gpu_reduce UPDATE;
SELECT extversion FROM pg_extension WHERE extname = 'gpu_reduce';
CREATE TABLE fp_updated11 AS SELECT ext_fingerprint() AS line;

-- 1.3's variance family answers after the update
SELECT gpu_variance(x)::text = var_samp(x)::text AS variance_ok,
       gpu_stddev_pop(x / 8.0)::text = stddev_pop(x / 8.0)::text AS stddev_pop_ok
FROM generate_series(1, 1000) AS x;

-- 1.2, then UPDATE to the default version
DROP EXTENSION gpu_reduce;
CREATE EXTENSION gpu_reduce VERSION '1.2';
ALTER EXTENSION gpu_reduce UPDATE;
SELECT extversion FROM pg_extension WHERE extname = 'gpu_reduce';
CREATE TABLE fp_updated12 AS SELECT ext_fingerprint() AS line;

-- 1.3 (no comments), then UPDATE to the default version (1.4 adds them, 1.5
-- writes them per signature)
DROP EXTENSION gpu_reduce;
CREATE EXTENSION gpu_reduce VERSION '1.3';
SELECT count(*) AS commented_aggregates FROM pg_aggregate a
WHERE a.aggfnoid::regproc::text LIKE 'gpu\_%' AND obj_description(a.aggfnoid, 'pg_proc') IS NOT NULL;
ALTER EXTENSION gpu_reduce UPDATE;
SELECT extversion FROM pg_extension WHERE extname = 'gpu_reduce';
CREATE TABLE fp_updated13 AS SELECT ext_fingerprint() AS line;

-- 1.4 (support functions beside the aggregates, gpu_topk's k unnamed), with
-- views and a function over its aggregates, then UPDATE to the default
-- version: the support functions move to gpu_reduce_internal and gpu_topk
-- gets its argument name in place, so what uses them keeps working
DROP EXTENSION gpu_reduce;
CREATE EXTENSION gpu_reduce VERSION '1.4';
CREATE TABLE up14 AS SELECT g AS x, g / 8.0::float8 AS f, g / 8.0 AS n FROM generate_series(1, 10000) g;
CREATE VIEW up14_v AS
SELECT gpu_sum(x) AS s, gpu_avg(n) AS a, gpu_topk(x, 3) AS t3, gpu_top2(f) AS t2,
       gpu_sum(f) AS fs, gpu_stddev(x) AS sd, gpu_min(n) AS mn
FROM up14;
CREATE FUNCTION up14_topk(int) RETURNS int[] LANGUAGE sql STABLE
    AS 'SELECT gpu_topk(x, $1) FROM up14';
SELECT pg_get_function_arguments('gpu_topk(integer, integer)'::regprocedure) AS topk_args_14,
       count(*) AS support_functions_beside_14
FROM pg_proc p WHERE p.proname ~ '^gpu_.*_(trans|final)$|^gpu_reduce_(combine|serialize|deserialize|planner_support)$'
  AND p.pronamespace = 'public'::regnamespace;
SELECT * FROM up14_v;
CREATE TABLE up14_aggs AS
SELECT p.oid, p.oid::regprocedure::text AS sig FROM pg_proc p
WHERE p.proname LIKE 'gpu\_%' AND p.prokind = 'a';
ALTER EXTENSION gpu_reduce UPDATE;
SELECT extversion FROM pg_extension WHERE extname = 'gpu_reduce';
CREATE TABLE fp_updated14 AS SELECT ext_fingerprint() AS line;
SELECT * FROM up14_v;
SELECT up14_topk(4) AS topk_through_function,
       pg_get_function_arguments('gpu_topk(integer, integer)'::regprocedure) AS topk_args;
-- the aggregates kept their OIDs, which the view still depends on
SELECT count(*) AS aggregates_kept,
       (SELECT count(DISTINCT d.refobjid) FROM pg_depend d JOIN pg_rewrite r ON d.objid = r.oid
        WHERE r.ev_class = 'up14_v'::regclass AND d.refclassid = 'pg_proc'::regclass
          AND d.refobjid IN (SELECT oid FROM up14_aggs)) AS view_depends_on
FROM up14_aggs o JOIN pg_proc p ON p.oid = o.oid AND p.oid::regprocedure::text = o.sig;
-- every aggregate answers after the update (serially, through the node or not)
SELECT gpu_sum(x) = sum(x) AS sum_ok, gpu_avg(n)::text = avg(n)::text AS avg_ok,
       gpu_variance(x)::text = var_samp(x)::text AS variance_ok,
       gpu_var_pop(n)::text = var_pop(n)::text AS var_pop_ok,
       gpu_stddev_pop(x)::text = stddev_pop(x)::text AS stddev_pop_ok,
       gpu_max(f) = max(f) AS max_ok, gpu_min(x) = min(x) AS min_ok,
       gpu_topk(n, 2) = ARRAY[1250, 1249.875] AS topk_ok
FROM up14;
-- and in a parallel plan, whose workers call the moved combine, serialize
-- and deserialize functions
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
SELECT * FROM up14_v;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
RESET max_parallel_workers_per_gather;
DROP FUNCTION up14_topk(int);
DROP VIEW up14_v;
DROP TABLE up14, up14_aggs;

-- a fresh install of the default version
DROP EXTENSION gpu_reduce;
CREATE EXTENSION gpu_reduce;
SELECT extversion FROM pg_extension WHERE extname = 'gpu_reduce';
CREATE TABLE fp_fresh AS SELECT ext_fingerprint() AS line;

-- every member function of the install has a comment: an aggregate says what
-- it computes, a support function that it is internal (none left out), and
-- the internal ones are in their own schema
SELECT p.pronamespace::regnamespace AS schema,
       CASE WHEN p.prokind = 'a' THEN 'aggregate'
            WHEN obj_description(p.oid, 'pg_proc') LIKE 'gpu_reduce internal:%' THEN 'internal function'
            ELSE 'function' END AS kind,
       count(*) AS members, count(obj_description(p.oid, 'pg_proc')) AS commented
FROM pg_depend d JOIN pg_extension e ON d.refobjid = e.oid AND e.extname = 'gpu_reduce'
JOIN pg_proc p ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
GROUP BY 1, 2 ORDER BY 1, 2;
-- what \da+ shows for one of them
SELECT obj_description('gpu_sum(double precision)'::regprocedure, 'pg_proc') AS gpu_sum_float8,
       obj_description('gpu_topk(bigint, integer)'::regprocedure, 'pg_proc') AS gpu_topk_int8;

-- what the install has (a changed count means the SQL surface changed: review it)
SELECT CASE WHEN line LIKE '% | agg %' THEN 'aggregate'
            ELSE split_part(line, ' ', 1) END AS kind, count(*)
FROM fp_fresh GROUP BY 1 ORDER BY 1;

-- the difference between the two: no rows
(SELECT 'only after 1.0 + UPDATE' AS install, line FROM fp_updated
 EXCEPT ALL SELECT 'only after 1.0 + UPDATE', line FROM fp_fresh)
UNION ALL
(SELECT 'only in a fresh install', line FROM fp_fresh
 EXCEPT ALL SELECT 'only in a fresh install', line FROM fp_updated)
ORDER BY 1, 2;
(SELECT 'only after 1.1 + UPDATE' AS install, line FROM fp_updated11
 EXCEPT ALL SELECT 'only after 1.1 + UPDATE', line FROM fp_fresh)
UNION ALL
(SELECT 'only in a fresh install', line FROM fp_fresh
 EXCEPT ALL SELECT 'only in a fresh install', line FROM fp_updated11)
ORDER BY 1, 2;
(SELECT 'only after 1.2 + UPDATE' AS install, line FROM fp_updated12
 EXCEPT ALL SELECT 'only after 1.2 + UPDATE', line FROM fp_fresh)
UNION ALL
(SELECT 'only in a fresh install', line FROM fp_fresh
 EXCEPT ALL SELECT 'only in a fresh install', line FROM fp_updated12)
ORDER BY 1, 2;
(SELECT 'only after 1.3 + UPDATE' AS install, line FROM fp_updated13
 EXCEPT ALL SELECT 'only after 1.3 + UPDATE', line FROM fp_fresh)
UNION ALL
(SELECT 'only in a fresh install', line FROM fp_fresh
 EXCEPT ALL SELECT 'only in a fresh install', line FROM fp_updated13)
ORDER BY 1, 2;
(SELECT 'only after 1.4 + UPDATE' AS install, line FROM fp_updated14
 EXCEPT ALL SELECT 'only after 1.4 + UPDATE', line FROM fp_fresh)
UNION ALL
(SELECT 'only in a fresh install', line FROM fp_fresh
 EXCEPT ALL SELECT 'only in a fresh install', line FROM fp_updated14)
ORDER BY 1, 2;

\c :regress_db
DROP DATABASE gpu_reduce_upgrade;
