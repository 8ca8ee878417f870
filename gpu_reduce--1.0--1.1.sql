/*
 * gpu_reduce--1.0--1.1.sql: ALTER EXTENSION gpu_reduce UPDATE from 1.0 to 1.1.
 *
 * Every object added in 1.1 goes into this file AND into gpu_reduce--1.1.sql,
 * the install script of a fresh 1.1 (sql/upgrade.sql checks that the two
 * give the same catalog).  A changed 1.0 object is changed here with
 * CREATE OR REPLACE or ALTER, never by editing gpu_reduce--1.0.sql.
 *
 * 1.1 adds the planner support function of the transition functions (the
 * bulk scan's planner hook must be loaded before a session's first gpu_*
 * query is planned).
 */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION gpu_reduce UPDATE TO '1.1'" to load this file. \quit

-- 1.1: the planner support function of the transition functions.  The
-- planner calls it while costing a gpu_* aggregate, which loads the library
-- (and its planner hook, the bulk scan) in a session that has not yet run
-- one; it gives no other advice.
CREATE FUNCTION gpu_reduce_planner_support(internal) RETURNS internal
    AS 'MODULE_PATHNAME' LANGUAGE C STRICT;
DO $$
DECLARE
    f regprocedure;
BEGIN
    FOR f IN SELECT oid FROM pg_proc
             WHERE proname ~ '^gpu_(sum|min|max|avg|top2|topk)_trans$'
               AND pronamespace = (SELECT pronamespace FROM pg_proc
                                   WHERE oid = 'gpu_reduce_planner_support'::regproc)
    LOOP
        EXECUTE format('ALTER FUNCTION %s SUPPORT gpu_reduce_planner_support', f);
    END LOOP;
END
$$;
