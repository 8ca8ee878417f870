/*
 * gpu_reduce--1.1.sql: the SQL surface of gpu_reduce 1.1, the install script
 * of CREATE EXTENSION gpu_reduce.
 *
 * Every object added in 1.1 goes into this file AND into
 * gpu_reduce--1.0--1.1.sql, which brings a 1.0 install to the same catalog
 * (sql/upgrade.sql checks that they agree).
 */

-- complain if script is sourced in psql, rather than via CREATE EXTENSION
\echo Use "CREATE EXTENSION gpu_reduce" to load this file. \quit

-- Shared support functions: one C function per role serves every input type;
-- the final functions take the input type as an extra argument
-- (FINALFUNC_EXTRA) so that each aggregate gets its own return type.

CREATE FUNCTION gpu_reduce_combine(internal, internal) RETURNS internal
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION gpu_reduce_serialize(internal) RETURNS bytea
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION gpu_reduce_deserialize(bytea, internal) RETURNS internal
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- smallint

CREATE FUNCTION gpu_sum_trans(internal, smallint) RETURNS internal
    AS 'MODULE_PATHNAME', 'gpu_reduce_sum_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION gpu_sum_final(internal, smallint) RETURNS bigint
    AS 'MODULE_PATHNAME', 'gpu_reduce_final' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE gpu_sum(smallint) (
    SFUNC = gpu_sum_trans, STYPE = internal, SSPACE = 256,
    FINALFUNC = gpu_sum_final, FINALFUNC_EXTRA,
    COMBINEFUNC = gpu_reduce_combine,
    SERIALFUNC = gpu_reduce_serialize, DESERIALFUNC = gpu_reduce_deserialize,
    PARALLEL = SAFE
);

CREATE FUNCTION gpu_min_trans(internal, smallint) RETURNS internal
    AS 'MODULE_PATHNAME', 'gpu_reduce_min_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION gpu_min_final(internal, smallint) RETURNS smallint
    AS 'MODULE_PATHNAME', 'gpu_reduce_final' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE gpu_min(smallint) (
    SFUNC = gpu_min_trans, STYPE = internal, SSPACE = 256,
    FINALFUNC = gpu_min_final, FINALFUNC_EXTRA,
    COMBINEFUNC = gpu_reduce_combine,
    SERIALFUNC = gpu_reduce_serialize, DESERIALFUNC = gpu_reduce_deserialize,
    PARALLEL = SAFE
);

CREATE FUNCTION gpu_max_trans(internal, smallint) RETURNS internal
    AS 'MODULE_PATHNAME', 'gpu_reduce_max_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION gpu_max_final(internal, smallint) RETURNS smallint
    AS 'MODULE_PATHNAME', 'gpu_reduce_final' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE gpu_max(smallint) (
    SFUNC = gpu_max_trans, STYPE = internal, SSPACE = 256,
    FINALFUNC = gpu_max_final, FINALFUNC_EXTRA,
    COMBINEFUNC = gpu_reduce_combine,
    SERIALFUNC = gpu_reduce_serialize, DESERIALFUNC = gpu_reduce_deserialize,
    PARALLEL = SAFE
);

CREATE FUNCTION gpu_avg_trans(internal, smallint) RETURNS internal
    AS 'MODULE_PATHNAME', 'gpu_reduce_avg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION gpu_avg_final(internal, smallint) RETURNS numeric
    AS 'MODULE_PATHNAME', 'gpu_reduce_final' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE gpu_avg(smallint) (
    SFUNC = gpu_avg_trans, STYPE = internal, SSPACE = 256,
    FINALFUNC = gpu_avg_final, FINALFUNC_EXTRA,
    COMBINEFUNC = gpu_reduce_combine,
    SERIALFUNC = gpu_reduce_serialize, DESERIALFUNC = gpu_reduce_deserialize,
    PARALLEL = SAFE
);

CREATE FUNCTION gpu_top2_trans(internal, smallint) RETURNS internal
    AS 'MODULE_PATHNAME', 'gpu_reduce_top2_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION gpu_top2_final(internal, smallint) RETURNS smallint[]
    AS 'MODULE_PATHNAME', 'gpu_reduce_final' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE gpu_top2(smallint) (
    SFUNC = gpu_top2_trans, STYPE = internal, SSPACE = 256,
    FINALFUNC = gpu_top2_final, FINALFUNC_EXTRA,
    COMBINEFUNC = gpu_reduce_combine,
    SERIALFUNC = gpu_reduce_serialize, DESERIALFUNC = gpu_reduce_deserialize,
    PARALLEL = SAFE
);

CREATE FUNCTION gpu_topk_trans(internal, smallint, integer) RETURNS internal
    AS 'MODULE_PATHNAME', 'gpu_reduce_topk_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION gpu_topk_final(internal, smallint, integer) RETURNS smallint[]
    AS 'MODULE_PATHNAME', 'gpu_reduce_final' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE gpu_topk(smallint, integer) (
    SFUNC = gpu_topk_trans, STYPE = internal, SSPACE = 1024,
    FINALFUNC = gpu_topk_final, FINALFUNC_EXTRA,
    COMBINEFUNC = gpu_reduce_combine,
    SERIALFUNC = gpu_reduce_serialize, DESERIALFUNC = gpu_reduce_deserialize,
    PARALLEL = SAFE
);

-- integer

CREATE FUNCTION gpu_sum_trans(internal, integer) RETURNS internal
    AS 'MODULE_PATHNAME', 'gpu_reduce_sum_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION gpu_sum_final(internal, integer) RETURNS bigint
    AS 'MODULE_PATHNAME', 'gpu_reduce_final' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE gpu_sum(integer) (
    SFUNC = gpu_sum_trans, STYPE = internal, SSPACE = 256,
    FINALFUNC = gpu_sum_final, FINALFUNC_EXTRA,
    COMBINEFUNC = gpu_reduce_combine,
    SERIALFUNC = gpu_reduce_serialize, DESERIALFUNC = gpu_reduce_deserialize,
    PARALLEL = SAFE
);

CREATE FUNCTION gpu_min_trans(internal, integer) RETURNS internal
    AS 'MODULE_PATHNAME', 'gpu_reduce_min_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION gpu_min_final(internal, integer) RETURNS integer
    AS 'MODULE_PATHNAME', 'gpu_reduce_final' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE gpu_min(integer) (
    SFUNC = gpu_min_trans, STYPE = internal, SSPACE = 256,
    FINALFUNC = gpu_min_final, FINALFUNC_EXTRA,
    COMBINEFUNC = gpu_reduce_combine,
    SERIALFUNC = gpu_reduce_serialize, DESERIALFUNC = gpu_reduce_deserialize,
    PARALLEL = SAFE
);

CREATE FUNCTION gpu_max_trans(internal, integer) RETURNS internal
    AS 'MODULE_PATHNAME', 'gpu_reduce_max_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION gpu_max_final(internal, integer) RETURNS integer
    AS 'MODULE_PATHNAME', 'gpu_reduce_final' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE gpu_max(integer) (
    SFUNC = gpu_max_trans, STYPE = internal, SSPACE = 256,
    FINALFUNC = gpu_max_final, FINALFUNC_EXTRA,
    COMBINEFUNC = gpu_reduce_combine,
    SERIALFUNC = gpu_reduce_serialize, DESERIALFUNC = gpu_reduce_deserialize,
    PARALLEL = SAFE
);

CREATE FUNCTION gpu_avg_trans(internal, integer) RETURNS internal
    AS 'MODULE_PATHNAME', 'gpu_reduce_avg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION gpu_avg_final(internal, integer) RETURNS numeric
    AS 'MODULE_PATHNAME', 'gpu_reduce_final' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE gpu_avg(integer) (
    SFUNC = gpu_avg_trans, STYPE = internal, SSPACE = 256,
    FINALFUNC = gpu_avg_final, FINALFUNC_EXTRA,
    COMBINEFUNC = gpu_reduce_combine,
    SERIALFUNC = gpu_reduce_serialize, DESERIALFUNC = gpu_reduce_deserialize,
    PARALLEL = SAFE
);

CREATE FUNCTION gpu_top2_trans(internal, integer) RETURNS internal
    AS 'MODULE_PATHNAME', 'gpu_reduce_top2_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION gpu_top2_final(internal, integer) RETURNS integer[]
    AS 'MODULE_PATHNAME', 'gpu_reduce_final' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE gpu_top2(integer) (
    SFUNC = gpu_top2_trans, STYPE = internal, SSPACE = 256,
    FINALFUNC = gpu_top2_final, FINALFUNC_EXTRA,
    COMBINEFUNC = gpu_reduce_combine,
    SERIALFUNC = gpu_reduce_serialize, DESERIALFUNC = gpu_reduce_deserialize,
    PARALLEL = SAFE
);

CREATE FUNCTION gpu_topk_trans(internal, integer, integer) RETURNS internal
    AS 'MODULE_PATHNAME', 'gpu_reduce_topk_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION gpu_topk_final(internal, integer, integer) RETURNS integer[]
    AS 'MODULE_PATHNAME', 'gpu_reduce_final' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE gpu_topk(integer, integer) (
    SFUNC = gpu_topk_trans, STYPE = internal, SSPACE = 1024,
    FINALFUNC = gpu_topk_final, FINALFUNC_EXTRA,
    COMBINEFUNC = gpu_reduce_combine,
    SERIALFUNC = gpu_reduce_serialize, DESERIALFUNC = gpu_reduce_deserialize,
    PARALLEL = SAFE
);

-- bigint

CREATE FUNCTION gpu_sum_trans(internal, bigint) RETURNS internal
    AS 'MODULE_PATHNAME', 'gpu_reduce_sum_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION gpu_sum_final(internal, bigint) RETURNS numeric
    AS 'MODULE_PATHNAME', 'gpu_reduce_final' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE gpu_sum(bigint) (
    SFUNC = gpu_sum_trans, STYPE = internal, SSPACE = 256,
    FINALFUNC = gpu_sum_final, FINALFUNC_EXTRA,
    COMBINEFUNC = gpu_reduce_combine,
    SERIALFUNC = gpu_reduce_serialize, DESERIALFUNC = gpu_reduce_deserialize,
    PARALLEL = SAFE
);

CREATE FUNCTION gpu_min_trans(internal, bigint) RETURNS internal
    AS 'MODULE_PATHNAME', 'gpu_reduce_min_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION gpu_min_final(internal, bigint) RETURNS bigint
    AS 'MODULE_PATHNAME', 'gpu_reduce_final' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE gpu_min(bigint) (
    SFUNC = gpu_min_trans, STYPE = internal, SSPACE = 256,
    FINALFUNC = gpu_min_final, FINALFUNC_EXTRA,
    COMBINEFUNC = gpu_reduce_combine,
    SERIALFUNC = gpu_reduce_serialize, DESERIALFUNC = gpu_reduce_deserialize,
    PARALLEL = SAFE
);

CREATE FUNCTION gpu_max_trans(internal, bigint) RETURNS internal
    AS 'MODULE_PATHNAME', 'gpu_reduce_max_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION gpu_max_final(internal, bigint) RETURNS bigint
    AS 'MODULE_PATHNAME', 'gpu_reduce_final' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE gpu_max(bigint) (
    SFUNC = gpu_max_trans, STYPE = internal, SSPACE = 256,
    FINALFUNC = gpu_max_final, FINALFUNC_EXTRA,
    COMBINEFUNC = gpu_reduce_combine,
    SERIALFUNC = gpu_reduce_serialize, DESERIALFUNC = gpu_reduce_deserialize,
    PARALLEL = SAFE
);

CREATE FUNCTION gpu_avg_trans(internal, bigint) RETURNS internal
    AS 'MODULE_PATHNAME', 'gpu_reduce_avg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION gpu_avg_final(internal, bigint) RETURNS numeric
    AS 'MODULE_PATHNAME', 'gpu_reduce_final' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE gpu_avg(bigint) (
    SFUNC = gpu_avg_trans, STYPE = internal, SSPACE = 256,
    FINALFUNC = gpu_avg_final, FINALFUNC_EXTRA,
    COMBINEFUNC = gpu_reduce_combine,
    SERIALFUNC = gpu_reduce_serialize, DESERIALFUNC = gpu_reduce_deserialize,
    PARALLEL = SAFE
);

CREATE FUNCTION gpu_top2_trans(internal, bigint) RETURNS internal
    AS 'MODULE_PATHNAME', 'gpu_reduce_top2_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION gpu_top2_final(internal, bigint) RETURNS bigint[]
    AS 'MODULE_PATHNAME', 'gpu_reduce_final' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE gpu_top2(bigint) (
    SFUNC = gpu_top2_trans, STYPE = internal, SSPACE = 256,
    FINALFUNC = gpu_top2_final, FINALFUNC_EXTRA,
    COMBINEFUNC = gpu_reduce_combine,
    SERIALFUNC = gpu_reduce_serialize, DESERIALFUNC = gpu_reduce_deserialize,
    PARALLEL = SAFE
);

CREATE FUNCTION gpu_topk_trans(internal, bigint, integer) RETURNS internal
    AS 'MODULE_PATHNAME', 'gpu_reduce_topk_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION gpu_topk_final(internal, bigint, integer) RETURNS bigint[]
    AS 'MODULE_PATHNAME', 'gpu_reduce_final' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE gpu_topk(bigint, integer) (
    SFUNC = gpu_topk_trans, STYPE = internal, SSPACE = 1024,
    FINALFUNC = gpu_topk_final, FINALFUNC_EXTRA,
    COMBINEFUNC = gpu_reduce_combine,
    SERIALFUNC = gpu_reduce_serialize, DESERIALFUNC = gpu_reduce_deserialize,
    PARALLEL = SAFE
);

-- real

CREATE FUNCTION gpu_sum_trans(internal, real) RETURNS internal
    AS 'MODULE_PATHNAME', 'gpu_reduce_sum_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION gpu_sum_final(internal, real) RETURNS real
    AS 'MODULE_PATHNAME', 'gpu_reduce_final' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE gpu_sum(real) (
    SFUNC = gpu_sum_trans, STYPE = internal, SSPACE = 700,
    FINALFUNC = gpu_sum_final, FINALFUNC_EXTRA,
    COMBINEFUNC = gpu_reduce_combine,
    SERIALFUNC = gpu_reduce_serialize, DESERIALFUNC = gpu_reduce_deserialize,
    PARALLEL = SAFE
);

CREATE FUNCTION gpu_min_trans(internal, real) RETURNS internal
    AS 'MODULE_PATHNAME', 'gpu_reduce_min_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION gpu_min_final(internal, real) RETURNS real
    AS 'MODULE_PATHNAME', 'gpu_reduce_final' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE gpu_min(real) (
    SFUNC = gpu_min_trans, STYPE = internal, SSPACE = 256,
    FINALFUNC = gpu_min_final, FINALFUNC_EXTRA,
    COMBINEFUNC = gpu_reduce_combine,
    SERIALFUNC = gpu_reduce_serialize, DESERIALFUNC = gpu_reduce_deserialize,
    PARALLEL = SAFE
);

CREATE FUNCTION gpu_max_trans(internal, real) RETURNS internal
    AS 'MODULE_PATHNAME', 'gpu_reduce_max_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION gpu_max_final(internal, real) RETURNS real
    AS 'MODULE_PATHNAME', 'gpu_reduce_final' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE gpu_max(real) (
    SFUNC = gpu_max_trans, STYPE = internal, SSPACE = 256,
    FINALFUNC = gpu_max_final, FINALFUNC_EXTRA,
    COMBINEFUNC = gpu_reduce_combine,
    SERIALFUNC = gpu_reduce_serialize, DESERIALFUNC = gpu_reduce_deserialize,
    PARALLEL = SAFE
);

CREATE FUNCTION gpu_avg_trans(internal, real) RETURNS internal
    AS 'MODULE_PATHNAME', 'gpu_reduce_avg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION gpu_avg_final(internal, real) RETURNS double precision
    AS 'MODULE_PATHNAME', 'gpu_reduce_final' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE gpu_avg(real) (
    SFUNC = gpu_avg_trans, STYPE = internal, SSPACE = 700,
    FINALFUNC = gpu_avg_final, FINALFUNC_EXTRA,
    COMBINEFUNC = gpu_reduce_combine,
    SERIALFUNC = gpu_reduce_serialize, DESERIALFUNC = gpu_reduce_deserialize,
    PARALLEL = SAFE
);

CREATE FUNCTION gpu_top2_trans(internal, real) RETURNS internal
    AS 'MODULE_PATHNAME', 'gpu_reduce_top2_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION gpu_top2_final(internal, real) RETURNS real[]
    AS 'MODULE_PATHNAME', 'gpu_reduce_final' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE gpu_top2(real) (
    SFUNC = gpu_top2_trans, STYPE = internal, SSPACE = 256,
    FINALFUNC = gpu_top2_final, FINALFUNC_EXTRA,
    COMBINEFUNC = gpu_reduce_combine,
    SERIALFUNC = gpu_reduce_serialize, DESERIALFUNC = gpu_reduce_deserialize,
    PARALLEL = SAFE
);

CREATE FUNCTION gpu_topk_trans(internal, real, integer) RETURNS internal
    AS 'MODULE_PATHNAME', 'gpu_reduce_topk_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION gpu_topk_final(internal, real, integer) RETURNS real[]
    AS 'MODULE_PATHNAME', 'gpu_reduce_final' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE gpu_topk(real, integer) (
    SFUNC = gpu_topk_trans, STYPE = internal, SSPACE = 1024,
    FINALFUNC = gpu_topk_final, FINALFUNC_EXTRA,
    COMBINEFUNC = gpu_reduce_combine,
    SERIALFUNC = gpu_reduce_serialize, DESERIALFUNC = gpu_reduce_deserialize,
    PARALLEL = SAFE
);

-- double precision

CREATE FUNCTION gpu_sum_trans(internal, double precision) RETURNS internal
    AS 'MODULE_PATHNAME', 'gpu_reduce_sum_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION gpu_sum_final(internal, double precision) RETURNS double precision
    AS 'MODULE_PATHNAME', 'gpu_reduce_final' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE gpu_sum(double precision) (
    SFUNC = gpu_sum_trans, STYPE = internal, SSPACE = 700,
    FINALFUNC = gpu_sum_final, FINALFUNC_EXTRA,
    COMBINEFUNC = gpu_reduce_combine,
    SERIALFUNC = gpu_reduce_serialize, DESERIALFUNC = gpu_reduce_deserialize,
    PARALLEL = SAFE
);

CREATE FUNCTION gpu_min_trans(internal, double precision) RETURNS internal
    AS 'MODULE_PATHNAME', 'gpu_reduce_min_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION gpu_min_final(internal, double precision) RETURNS double precision
    AS 'MODULE_PATHNAME', 'gpu_reduce_final' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE gpu_min(double precision) (
    SFUNC = gpu_min_trans, STYPE = internal, SSPACE = 256,
    FINALFUNC = gpu_min_final, FINALFUNC_EXTRA,
    COMBINEFUNC = gpu_reduce_combine,
    SERIALFUNC = gpu_reduce_serialize, DESERIALFUNC = gpu_reduce_deserialize,
    PARALLEL = SAFE
);

CREATE FUNCTION gpu_max_trans(internal, double precision) RETURNS internal
    AS 'MODULE_PATHNAME', 'gpu_reduce_max_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION gpu_max_final(internal, double precision) RETURNS double precision
    AS 'MODULE_PATHNAME', 'gpu_reduce_final' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE gpu_max(double precision) (
    SFUNC = gpu_max_trans, STYPE = internal, SSPACE = 256,
    FINALFUNC = gpu_max_final, FINALFUNC_EXTRA,
    COMBINEFUNC = gpu_reduce_combine,
    SERIALFUNC = gpu_reduce_serialize, DESERIALFUNC = gpu_reduce_deserialize,
    PARALLEL = SAFE
);

CREATE FUNCTION gpu_avg_trans(internal, double precision) RETURNS internal
    AS 'MODULE_PATHNAME', 'gpu_reduce_avg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION gpu_avg_final(internal, double precision) RETURNS double precision
    AS 'MODULE_PATHNAME', 'gpu_reduce_final' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE gpu_avg(double precision) (
    SFUNC = gpu_avg_trans, STYPE = internal, SSPACE = 700,
    FINALFUNC = gpu_avg_final, FINALFUNC_EXTRA,
    COMBINEFUNC = gpu_reduce_combine,
    SERIALFUNC = gpu_reduce_serialize, DESERIALFUNC = gpu_reduce_deserialize,
    PARALLEL = SAFE
);

CREATE FUNCTION gpu_top2_trans(internal, double precision) RETURNS internal
    AS 'MODULE_PATHNAME', 'gpu_reduce_top2_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION gpu_top2_final(internal, double precision) RETURNS double precision[]
    AS 'MODULE_PATHNAME', 'gpu_reduce_final' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE gpu_top2(double precision) (
    SFUNC = gpu_top2_trans, STYPE = internal, SSPACE = 256,
    FINALFUNC = gpu_top2_final, FINALFUNC_EXTRA,
    COMBINEFUNC = gpu_reduce_combine,
    SERIALFUNC = gpu_reduce_serialize, DESERIALFUNC = gpu_reduce_deserialize,
    PARALLEL = SAFE
);

CREATE FUNCTION gpu_topk_trans(internal, double precision, integer) RETURNS internal
    AS 'MODULE_PATHNAME', 'gpu_reduce_topk_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION gpu_topk_final(internal, double precision, integer) RETURNS double precision[]
    AS 'MODULE_PATHNAME', 'gpu_reduce_final' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE gpu_topk(double precision, integer) (
    SFUNC = gpu_topk_trans, STYPE = internal, SSPACE = 1024,
    FINALFUNC = gpu_topk_final, FINALFUNC_EXTRA,
    COMBINEFUNC = gpu_reduce_combine,
    SERIALFUNC = gpu_reduce_serialize, DESERIALFUNC = gpu_reduce_deserialize,
    PARALLEL = SAFE
);

-- Diagnostics

CREATE FUNCTION gpu_reduce_stats(
    OUT gpu_batches bigint, OUT gpu_rows bigint, OUT gpu_bytes bigint,
    OUT gpu_fallbacks bigint, OUT cpu_batches bigint, OUT cpu_rows bigint,
    OUT buffer_peak_bytes bigint)
    AS 'MODULE_PATHNAME' LANGUAGE C VOLATILE PARALLEL RESTRICTED;
COMMENT ON FUNCTION gpu_reduce_stats() IS
    'counters of this backend: batches and rows reduced on the GPU and the CPU, bytes sent to the GPU, GPU fallbacks, peak batch-buffer bytes';

CREATE FUNCTION gpu_reduce_stats_reset() RETURNS void
    AS 'MODULE_PATHNAME' LANGUAGE C VOLATILE PARALLEL RESTRICTED;

CREATE FUNCTION gpu_reduce_devices(
    OUT device integer, OUT name text, OUT sm_count integer, OUT memory_mb bigint,
    OUT batches bigint, OUT rows bigint)
    RETURNS SETOF record
    AS 'MODULE_PATHNAME' LANGUAGE C VOLATILE PARALLEL RESTRICTED;
COMMENT ON FUNCTION gpu_reduce_devices() IS
    'GPUs the gpu_reduce service reduces on, with the batches and rows each reduced since it started';

CREATE FUNCTION gpu_reduce_slots(OUT state text, OUT slots integer)
    RETURNS SETOF record
    AS 'MODULE_PATHNAME' LANGUAGE C VOLATILE PARALLEL RESTRICTED;
COMMENT ON FUNCTION gpu_reduce_slots() IS
    'batch slots of the GPU service by state, server-wide (no rows without the service)';

CREATE FUNCTION gpu_reduce_state_info(bytea) RETURNS text
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION gpu_reduce_state_info(bytea) IS
    'validates and describes a serialized gpu_reduce partial state';

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
