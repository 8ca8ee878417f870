--
-- The catalog a user sees (1.5): the extension's own schema holds the
-- aggregates and the user-callable functions only, the support functions
-- live in gpu_reduce_internal; every aggregate signature has a comment of its
-- own that names its input and result types; gpu_topk's second argument is
-- named k.  sql/upgrade.sql checks that an updated install has this catalog
-- too.
--

-- the extension's functions by schema: the user's beside the internal ones
SELECT CASE WHEN n.oid = e.extnamespace THEN 'extension schema' ELSE n.nspname END AS schema,
       count(*) FILTER (WHERE p.prokind = 'a') AS aggregates,
       count(*) FILTER (WHERE p.prokind = 'f') AS functions
FROM pg_extension e
JOIN pg_depend d ON d.refclassid = 'pg_extension'::regclass AND d.refobjid = e.oid
                AND d.classid = 'pg_proc'::regclass AND d.deptype = 'e'
JOIN pg_proc p ON p.oid = d.objid
JOIN pg_namespace n ON n.oid = p.pronamespace
WHERE e.extname = 'gpu_reduce'
GROUP BY 1 ORDER BY 1;

-- what \df gpu_* lists (the functions visible on the search_path): the
-- aggregates and the diagnostics, no transition, final or other support
-- function
SELECT p.proname, p.prokind, count(*) AS signatures
FROM pg_proc p
WHERE p.proname LIKE 'gpu\_%' AND pg_function_is_visible(p.oid)
GROUP BY 1, 2 ORDER BY 2, 1;

-- the internal schema holds support functions only, each commented as
-- internal, and every aggregate's support functions are there
SELECT count(*) AS internal_functions,
       count(*) FILTER (WHERE obj_description(p.oid, 'pg_proc') LIKE 'gpu_reduce internal:%') AS commented_internal,
       count(*) FILTER (WHERE p.prokind <> 'f') AS not_plain_functions
FROM pg_proc p WHERE p.pronamespace = 'gpu_reduce_internal'::regnamespace;
SELECT count(*) AS aggregates,
       count(*) FILTER (WHERE (SELECT count(*) FROM pg_proc f
                               WHERE f.oid IN (a.aggtransfn, a.aggfinalfn, a.aggcombinefn,
                                               a.aggserialfn, a.aggdeserialfn)
                                 AND f.pronamespace = 'gpu_reduce_internal'::regnamespace) = 5)
         AS support_all_internal
FROM pg_aggregate a JOIN pg_proc p ON p.oid = a.aggfnoid
WHERE p.proname LIKE 'gpu\_%';

-- every aggregate signature has a comment that names its input type and its
-- result type ("... T values as R ...", timestamp for timestamp without time
-- zone), and no two share one
SELECT count(*) AS aggregates,
       count(obj_description(p.oid, 'pg_proc')) AS commented,
       count(*) FILTER (WHERE obj_description(p.oid, 'pg_proc') LIKE
                        '% ' || replace(format_type(p.proargtypes[0], NULL), ' without time zone', '')
                        || ' values as ' || replace(format_type(p.prorettype, NULL), ' without time zone', '')
                        || '%') AS names_its_types,
       count(DISTINCT obj_description(p.oid, 'pg_proc')) AS distinct_comments
FROM pg_proc p
WHERE p.proname LIKE 'gpu\_%' AND p.prokind = 'a';
-- signatures of one aggregate that differ in result type never share a comment
SELECT a.oid::regprocedure AS one, b.oid::regprocedure AS other
FROM pg_proc a JOIN pg_proc b ON a.proname = b.proname AND a.oid < b.oid
WHERE a.proname LIKE 'gpu\_%' AND a.prokind = 'a' AND b.prokind = 'a'
  AND a.prorettype <> b.prorettype
  AND obj_description(a.oid, 'pg_proc') = obj_description(b.oid, 'pg_proc');
-- what \da+ says, for a few signatures a reviewer can check against the README
SELECT p.oid::regprocedure AS aggregate, obj_description(p.oid, 'pg_proc') AS comment
FROM pg_proc p
WHERE p.oid IN ('gpu_sum(smallint)'::regprocedure, 'gpu_sum(bigint)'::regprocedure,
                'gpu_sum(real)'::regprocedure, 'gpu_sum(numeric)'::regprocedure,
                'gpu_avg(integer)'::regprocedure, 'gpu_avg(double precision)'::regprocedure,
                'gpu_min(real)'::regprocedure, 'gpu_max(numeric)'::regprocedure,
                'gpu_max(date)'::regprocedure, 'gpu_topk(bigint, integer)'::regprocedure,
                'gpu_variance(integer)'::regprocedure, 'gpu_stddev_pop(real)'::regprocedure)
ORDER BY p.oid::regprocedure::text;
-- the user-callable functions have comments too
SELECT p.oid::regprocedure AS function, obj_description(p.oid, 'pg_proc') IS NOT NULL AS commented
FROM pg_proc p
WHERE p.proname LIKE 'gpu\_reduce\_%' AND pg_function_is_visible(p.oid)
ORDER BY p.oid::regprocedure::text;

-- gpu_topk's argument k is named (README: gpu_topk(T, k integer)), in every signature
SELECT pg_get_function_arguments('gpu_topk(bigint, integer)'::regprocedure) AS topk_args,
       count(*) FILTER (WHERE pg_get_function_arguments(p.oid) LIKE '%, k integer') AS named_k,
       count(*) AS topk_signatures
FROM pg_proc p WHERE p.proname = 'gpu_topk';
-- the name serves a window call (PostgreSQL takes no named argument in a
-- plain aggregate call)
SELECT gpu_topk(x, k => 2) OVER () FROM generate_series(1, 3) AS x;

-- a user without any right on gpu_reduce_internal: the aggregates call their
-- support functions by OID, in serial and parallel plans alike
CREATE ROLE regress_gr_catalog;
CREATE TABLE cat_t AS SELECT g AS x, g / 4.0::float8 AS f FROM generate_series(1, 20000) g;
GRANT SELECT ON cat_t TO regress_gr_catalog;
SET ROLE regress_gr_catalog;
SELECT has_schema_privilege('gpu_reduce_internal', 'USAGE') AS usage_on_internal;
SELECT gpu_sum(x), gpu_avg(x), gpu_topk(x, 3), gpu_sum(f), gpu_variance(x) FROM cat_t;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
SET gpu_reduce.bulk_scan = off;
EXPLAIN (COSTS OFF) SELECT gpu_sum(x), gpu_avg(x), gpu_topk(x, 3), gpu_sum(f), gpu_variance(x) FROM cat_t;
SELECT gpu_sum(x), gpu_avg(x), gpu_topk(x, 3), gpu_sum(f), gpu_variance(x) FROM cat_t;
RESET ALL;
RESET ROLE;
DROP TABLE cat_t;
DROP ROLE regress_gr_catalog;

-- CREATE EXTENSION ... SCHEMA s puts the aggregates in s and the support
-- functions in gpu_reduce_internal; DROP EXTENSION takes both; the extension
-- is not relocatable (its objects are in two schemas)
\set regress_db :DBNAME
SET client_min_messages = warning;
DROP DATABASE IF EXISTS gpu_reduce_catalog;
RESET client_min_messages;
CREATE DATABASE gpu_reduce_catalog;
\c gpu_reduce_catalog
CREATE SCHEMA other;
CREATE EXTENSION gpu_reduce SCHEMA other;
SELECT n.nspname, count(*) AS functions
FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
WHERE p.proname LIKE 'gpu\_%'
GROUP BY 1 ORDER BY 1;
SELECT other.gpu_sum(x), other.gpu_topk(x, 2), other.gpu_avg(x / 2.0) FROM generate_series(1, 100) AS x;
ALTER EXTENSION gpu_reduce SET SCHEMA public;
DROP EXTENSION gpu_reduce;
SELECT count(*) AS gpu_functions_left,
       (SELECT count(*) FROM pg_namespace WHERE nspname = 'gpu_reduce_internal') AS internal_schema_left
FROM pg_proc WHERE proname LIKE 'gpu\_%';
\c :regress_db
DROP DATABASE gpu_reduce_catalog;
