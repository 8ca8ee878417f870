--
-- Eager aggregation (PostgreSQL 19's enable_eager_aggregate, on by default
-- there): PostgreSQL's own plan for a grouped star join pushes a Partial
-- Aggregate below the join, and the node still takes the join, as before
-- 19.  Every answer compared as text with PostgreSQL's own plan, with eager
-- aggregation (where the server has it) and without.
--
LOAD 'gpu_reduce';
SET gpu_reduce.bulk_scan = on;
SET max_parallel_workers_per_gather = 0;

-- on where the server has it (19 on); a SET would fail before 19
CREATE FUNCTION set_eager(on_ boolean) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    IF current_setting('server_version_num')::int >= 190000 THEN
        PERFORM set_config('enable_eager_aggregate', on_::text, false);
    END IF;
END $$;
SELECT set_eager(true);

-- same(q): whether the node ran q, whether PostgreSQL's own plan puts a
-- Partial Aggregate below a join (or the server is before 19), and whether
-- q's rows through the node equal those of PostgreSQL's plan with eager
-- aggregation and without, as sorted text
CREATE FUNCTION same(q text, OUT node boolean, OUT eager_or_before_19 boolean, OUT same boolean,
                     OUT answer text)
LANGUAGE plpgsql AS $$
DECLARE
    eager text;
    plain text;
    line text;
    joined boolean := false;
BEGIN
    node := false;
    FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
        node := node OR line LIKE '%GpuReduce%';
    END LOOP;
    EXECUTE format('SELECT string_agg(r::text, '' '' ORDER BY r::text) FROM (%s) r', q) INTO answer;
    SET LOCAL gpu_reduce.bulk_scan = off;
    eager_or_before_19 := current_setting('server_version_num')::int < 190000;
    FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
        joined := joined OR line LIKE '%Join%';
        eager_or_before_19 := eager_or_before_19 OR (joined AND line LIKE '%Partial%Aggregate%');
    END LOOP;
    EXECUTE format('SELECT string_agg(r::text, '' '' ORDER BY r::text) FROM (%s) r', q) INTO eager;
    PERFORM set_eager(false);
    EXECUTE format('SELECT string_agg(r::text, '' '' ORDER BY r::text) FROM (%s) r', q) INTO plain;
    PERFORM set_eager(true);
    SET LOCAL gpu_reduce.bulk_scan = on;
    same := answer IS NOT DISTINCT FROM eager AND answer IS NOT DISTINCT FROM plain;
END $$;

-- a fact table of 40 000 rows (NULL keys, a store key with no store), 50
-- stores (about 800 rows each: PostgreSQL aggregates them before the join),
-- and a region table under the stores
CREATE TABLE eregion (r_id int2 PRIMARY KEY, r_name text);
INSERT INTO eregion SELECT i, (ARRAY['north', 'south', 'east', 'west'])[i + 1] FROM generate_series(0, 3) i;
CREATE TABLE estore (s_id int4 PRIMARY KEY, s_region int2, s_size int4);
INSERT INTO estore SELECT i, i % 4, i % 7 FROM generate_series(1, 50) i;
CREATE TABLE esale (sa_id bigint, sa_store int4, sa_qty int4, sa_amount numeric(12,2), sa_day date);
INSERT INTO esale
SELECT i, CASE WHEN i % 97 = 0 THEN NULL ELSE 1 + i % 53 END, (i % 11) - 2, (i % 1000) / 8.0,
       date '2020-01-01' + (i % 90)
FROM generate_series(1, 40000) i;
VACUUM ANALYZE eregion, estore, esale;

-- a star: GROUP BY a dimension's column, aggregates over the fact table
SELECT * FROM same($$SELECT s_region, sum(sa_qty), count(*), sum(sa_amount) FROM esale JOIN estore ON s_id = sa_store GROUP BY 1$$);
EXPLAIN (COSTS OFF) SELECT s_region, sum(sa_qty), count(*), sum(sa_amount) FROM esale JOIN estore ON s_id = sa_store GROUP BY 1;
-- a snowflake: the region's name through the store
SELECT * FROM same($$SELECT r_name, count(*), max(sa_day), avg(sa_qty) FROM esale JOIN estore ON s_id = sa_store
  JOIN eregion ON r_id = s_region GROUP BY 1$$);
EXPLAIN (COSTS OFF) SELECT r_name, count(*), max(sa_day), avg(sa_qty) FROM esale JOIN estore ON s_id = sa_store
  JOIN eregion ON r_id = s_region GROUP BY 1;
-- a WHERE on each side
SELECT * FROM same($$SELECT s_size, sum(sa_amount), min(sa_qty), count(*) FROM esale JOIN estore ON s_id = sa_store
  WHERE s_region < 3 AND sa_day < date '2020-03-01' GROUP BY 1$$);

-- parallel: Finalize Aggregate over Gather over the parallel node
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
SELECT * FROM same($$SELECT s_region, sum(sa_qty), count(*), sum(sa_amount) FROM esale JOIN estore ON s_id = sa_store GROUP BY 1$$);
EXPLAIN (COSTS OFF) SELECT s_region, sum(sa_qty), count(*), sum(sa_amount) FROM esale JOIN estore ON s_id = sa_store GROUP BY 1;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
SET max_parallel_workers_per_gather = 0;

DROP TABLE esale, estore, eregion;
DROP FUNCTION same(text);
DROP FUNCTION set_eager(boolean);
