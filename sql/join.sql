--
-- Joins in the node: one probe table read from its pages, joined by
-- equalities of integer or date columns to relations hashed from
-- PostgreSQL's own plans for them (stars and snowflakes), every answer
-- compared as text with PostgreSQL's own plan (gpu_reduce.bulk_scan = off).
--
LOAD 'gpu_reduce';
SET gpu_reduce.bulk_scan = on;
SET max_parallel_workers_per_gather = 0;

-- same(q): q's rows through the node and through PostgreSQL's own plan, as
-- sorted text, and whether the node ran it
CREATE FUNCTION same(q text, OUT node boolean, OUT same boolean, OUT answer text)
LANGUAGE plpgsql AS $$
DECLARE
    native text;
    line text;
BEGIN
    node := false;
    FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
        node := node OR line LIKE '%GpuReduce%';
    END LOOP;
    EXECUTE format('SELECT string_agg(r::text, '' '' ORDER BY r::text) FROM (%s) r', q) INTO answer;
    SET LOCAL gpu_reduce.bulk_scan = off;
    EXECUTE format('SELECT string_agg(r::text, '' '' ORDER BY r::text) FROM (%s) r', q) INTO native;
    SET LOCAL gpu_reduce.bulk_scan = on;
    same := answer IS NOT DISTINCT FROM native;
END $$;

-- a fact table, two dimensions and a dimension of a dimension
CREATE TABLE jregion (r_id int2 PRIMARY KEY, r_name text);
INSERT INTO jregion VALUES (0, 'north'), (1, 'south'), (2, 'east');
CREATE TABLE jstore (s_id int4 PRIMARY KEY, s_region int2, s_name char(8), s_rent numeric(8,2),
                     s_open date, s_score float8);
INSERT INTO jstore
SELECT i, (i % 4)::int2, 's' || i, i * 10.5, date '2020-01-01' + i, CASE WHEN i % 9 = 0 THEN NULL ELSE i / 4.0 END
FROM generate_series(1, 60) i;		-- region 3 has no row in jregion
CREATE TABLE jitem (it_id int8 PRIMARY KEY, it_kind text, it_price numeric(10,2));
INSERT INTO jitem SELECT i, 'k' || (i % 6), (i % 50) + 0.99 FROM generate_series(1, 500) i;
CREATE TABLE jsale (sa_id bigint, sa_store int4, sa_item int8, sa_qty int4, sa_amount numeric(12,2),
                    sa_day date, sa_item4 int4);
INSERT INTO jsale
SELECT i, CASE WHEN i % 101 = 0 THEN NULL ELSE i % 64 END,		-- stores 61-63 missing, NULLs
       CASE WHEN i % 103 = 0 THEN NULL ELSE i % 520 END,
       (i % 11) - 2, (i % 1000) / 8.0, date '2020-01-01' + (i % 90), (i % 520)::int4
FROM generate_series(1, 40000) i;
VACUUM ANALYZE jregion, jstore, jitem, jsale;

-- a star: keys and arguments from the probe table and from hashed relations
SELECT * FROM same($$SELECT s.s_region, sum(sa_qty), count(*), sum(sa_amount) FROM jsale JOIN jstore s ON s.s_id = sa_store GROUP BY 1$$);
SELECT * FROM same($$SELECT it_kind, s_name, count(*), sum(sa_qty), max(sa_amount), min(sa_day)
  FROM jsale JOIN jstore ON s_id = sa_store JOIN jitem ON it_id = sa_item GROUP BY 1, 2$$);
SELECT * FROM same($$SELECT count(*), sum(s_rent), avg(it_price), min(s_open), max(s_rent), count(s_score)
  FROM jsale JOIN jstore ON s_id = sa_store JOIN jitem ON it_id = sa_item$$);
-- WHERE clauses on the probe table and on hashed relations
SELECT * FROM same($$SELECT it_kind, sum(sa_amount * 2), count(*) FROM jsale JOIN jitem ON it_id = sa_item
  WHERE sa_qty > 3 AND it_price < 20 AND it_kind IN ('k1', 'k2') GROUP BY 1$$);
-- a snowflake: jregion joined through jstore
SELECT * FROM same($$SELECT r_name, count(*), sum(sa_qty) FROM jsale JOIN jstore ON s_id = sa_store
  JOIN jregion ON r_id = s_region GROUP BY 1$$);
EXPLAIN (COSTS OFF) SELECT r_name, count(*), sum(sa_qty) FROM jsale JOIN jstore ON s_id = sa_store
  JOIN jregion ON r_id = s_region GROUP BY 1;
-- columns functionally dependent on a primary key among the GROUP BY columns
-- (PostgreSQL drops them from the grouping): grouped by too, no more groups
SELECT * FROM same($$SELECT s_id, s_name, s_rent, r_name, count(*), sum(sa_qty) FROM jsale JOIN jstore ON s_id = sa_store
  JOIN jregion ON r_id = s_region WHERE s_id < 8 GROUP BY s_id, s_name, s_rent, r_id, r_name$$);
SELECT * FROM same($$SELECT it_id, it_kind, it_price, sum(sa_amount) FROM jsale JOIN jitem ON it_id = sa_item
  WHERE sa_qty = 7 AND it_id % 50 = 1 GROUP BY it_id, it_kind$$);
-- an expression over one hashed relation that cannot raise an error is computed by its plan
SELECT * FROM same($$SELECT sum(CASE WHEN it_kind = 'k3' THEN 1 ELSE 0 END), count(*) FROM jsale JOIN jitem ON it_id = sa_item$$);
-- the joined row's program: arguments, keys and join clauses over several
-- relations, and expressions over a hashed relation that may raise an error
SELECT * FROM same($$SELECT s_region, sum(sa_qty * s_region), sum(sa_amount * (1 - s_rent / 1000)), count(*)
  FROM jsale JOIN jstore ON s_id = sa_store GROUP BY 1$$);
SELECT * FROM same($$SELECT extract(year FROM s_open) AS y, sa_qty % 3 + s_region AS k, sum(s_rent / 2), count(*)
  FROM jsale JOIN jstore ON s_id = sa_store WHERE s_id < 6 GROUP BY 1, 2$$);
SELECT * FROM same($$SELECT sum(CASE WHEN it_kind LIKE 'k1%' THEN sa_amount ELSE 0.00 END), sum(sa_amount)
  FROM jsale JOIN jitem ON it_id = sa_item$$);
SELECT * FROM same($$SELECT count(*), sum(sa_qty) FROM jsale JOIN jstore ON s_id = sa_store AND s_region < sa_qty$$);
SELECT * FROM same($$SELECT r_name, count(*), sum(sa_amount) FROM jsale JOIN jstore ON s_id = sa_store
  JOIN jregion ON r_id = s_region WHERE (r_name = 'north' AND sa_qty > 5) OR (r_name = 'east' AND sa_qty < 0) GROUP BY 1$$);
EXPLAIN (COSTS OFF) SELECT count(*) FROM jsale JOIN jstore ON s_id = sa_store AND s_region < sa_qty;
-- rows the joined row's program hands back: PostgreSQL computes them, or raises its error
SELECT * FROM same($$SELECT sum(sa_amount * 100000000000000000 * s_rent), count(*) FROM jsale JOIN jstore ON s_id = sa_store$$);
SELECT sum(sa_id * 1000000000000000 * s_region) FROM jsale JOIN jstore ON s_id = sa_store;
SELECT sum(1000 / (sa_qty - s_region)) FROM jsale JOIN jstore ON s_id = sa_store;
SELECT * FROM same($$SELECT sum(1000 / (sa_qty - s_region)) FROM jsale JOIN jstore ON s_id = sa_store WHERE sa_qty > 4$$);
-- int4 = int8, and composite keys (one equality from the probe table, one from a hashed relation)
SELECT * FROM same($$SELECT count(*), sum(sa_qty) FROM jsale JOIN jitem ON it_id = sa_item4$$);
SELECT * FROM same($$SELECT count(*), sum(sa_qty) FROM jsale JOIN jstore ON s_id = sa_store AND s_region = sa_qty$$);
SELECT * FROM same($$SELECT count(*) FROM jsale JOIN jstore a ON a.s_id = sa_store JOIN jstore b ON b.s_region = a.s_region AND b.s_id = sa_qty$$);
-- date keys
SELECT * FROM same($$SELECT count(*), sum(sa_qty) FROM jsale JOIN jstore ON s_open = sa_day$$);
-- many to many: every match a row
SELECT * FROM same($$SELECT count(*), sum(sa_qty), sum(b.s_rent) FROM jsale JOIN jstore a ON a.s_id = sa_store
  JOIN jstore b ON b.s_region = a.s_region$$);
-- NULL keys on either side match nothing; NULL values are NULL
UPDATE jstore SET s_region = NULL WHERE s_id % 10 = 0;
ANALYZE jstore;
SELECT * FROM same($$SELECT s_region, count(*), count(s_score), sum(sa_qty) FROM jsale JOIN jstore ON s_id = sa_store GROUP BY 1$$);
SELECT * FROM same($$SELECT r_name, count(*) FROM jsale JOIN jstore ON s_id = sa_store JOIN jregion ON r_id = s_region GROUP BY 1$$);
-- an empty hashed relation, and one no row matches
SELECT * FROM same($$SELECT count(*), sum(sa_qty) FROM jsale JOIN jstore ON s_id = sa_store WHERE s_rent < 0$$);
SELECT * FROM same($$SELECT sa_qty, count(*) FROM jsale JOIN jitem ON it_id = sa_item WHERE it_id > 10000 GROUP BY 1$$);
-- a row PostgreSQL evaluates: an error only where the join keeps the row
SELECT * FROM same($$SELECT sum(1000 / sa_qty) FROM jsale JOIN jstore ON s_id = sa_store WHERE sa_qty <> 0 AND s_id > 50$$);
SELECT * FROM same($$SELECT sum(1000 / (sa_qty - 9)) FROM jsale JOIN jstore ON s_id = sa_store WHERE s_id = 61$$);
SELECT sum(1000 / sa_qty) FROM jsale JOIN jstore ON s_id = sa_store;
SELECT sum(sa_id * 4000000000000000) FROM jsale JOIN jstore ON s_id = sa_store;
SET gpu_reduce.bulk_scan = off;
SELECT sum(1000 / sa_qty) FROM jsale JOIN jstore ON s_id = sa_store;
SELECT sum(sa_id * 4000000000000000) FROM jsale JOIN jstore ON s_id = sa_store;
SET gpu_reduce.bulk_scan = on;
SELECT * FROM same($$SELECT sum(sa_id::numeric * 4000000000000000), count(*) FROM jsale JOIN jstore ON s_id = sa_store$$);
-- a hashed relation that is a subquery, and one that is partitioned
SELECT * FROM same($$SELECT k.n, count(*), sum(sa_qty) FROM jsale JOIN (SELECT s_region AS id, count(*) AS n FROM jstore GROUP BY 1) k ON k.id = sa_qty GROUP BY 1$$);
CREATE TABLE jpart (p_id int, p_tag text) PARTITION BY RANGE (p_id);
CREATE TABLE jpart_a PARTITION OF jpart FOR VALUES FROM (0) TO (200);
CREATE TABLE jpart_b PARTITION OF jpart FOR VALUES FROM (200) TO (1000);
INSERT INTO jpart SELECT i, 't' || (i % 3) FROM generate_series(0, 999) i;
ANALYZE jpart;
SELECT * FROM same($$SELECT p_tag, count(*), sum(sa_qty) FROM jsale JOIN jpart ON p_id = sa_item GROUP BY 1$$);
-- a correlated subquery: the hashed relation's plan is rescanned with the parameter
SELECT * FROM same($$SELECT g, (SELECT sum(sa_qty) FROM jsale JOIN jstore ON s_id = sa_store WHERE s_region = g) FROM generate_series(0, 3) g$$);
-- a parallel plan: the participants hash the relations into the query's
-- shared memory, each reading a share of a partial plan's rows (Parallel
-- Seq Scan), and all probe them there (PostgreSQL's own hash joins made
-- dear, so that the plan is the parallel node's)
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
SET enable_hashjoin = off;
SET enable_mergejoin = off;
EXPLAIN (COSTS OFF) SELECT it_kind, count(*), sum(sa_qty), sum(sa_amount) FROM jsale JOIN jitem ON it_id = sa_item GROUP BY 1;
SELECT * FROM same($$SELECT it_kind, count(*), sum(sa_qty), sum(sa_amount) FROM jsale JOIN jitem ON it_id = sa_item GROUP BY 1$$);
SELECT * FROM same($$SELECT count(*), sum(sa_qty), min(s_open), sum(s_rent) FROM jsale JOIN jstore ON s_id = sa_store JOIN jregion ON r_id = s_region$$);
-- varlena values (their copies' offsets in the shared image) and keys from them
SELECT * FROM same($$SELECT r_name, count(*), sum(n), max(s) FROM (SELECT r_name, s_name, count(*) n, sum(sa_amount) s FROM jsale JOIN jstore ON s_id = sa_store JOIN jregion ON r_id = s_region GROUP BY 1, 2) x GROUP BY 1$$);
-- hashed once for all participants, with the leader scanning and not
CREATE FUNCTION hashed_rows(q text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
    line text;
BEGIN
    FOR line IN EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ' || q LOOP
        CONTINUE WHEN line !~ 'Workers Planned|GpuReduce|Hashed Rows|Rows Matched';
        RETURN NEXT regexp_replace(line, ' \(actual.*', '');
    END LOOP;
END $$;
SELECT hashed_rows($$SELECT it_kind, count(*) FROM jsale JOIN jitem ON it_id = sa_item JOIN jstore ON s_id = sa_store WHERE s_region = 1 GROUP BY 1$$);
SELECT * FROM same($$SELECT it_kind, count(*) FROM jsale JOIN jitem ON it_id = sa_item WHERE NOT EXISTS (SELECT 1 FROM jstore WHERE s_region = sa_qty) GROUP BY 1$$);
SELECT * FROM same($$SELECT s_region, count(*), sum(sa_qty) FROM jsale LEFT JOIN jstore ON s_id = sa_store GROUP BY 1$$);
SET parallel_leader_participation = off;
SELECT * FROM same($$SELECT it_kind, count(*), sum(sa_qty), sum(sa_amount) FROM jsale JOIN jitem ON it_id = sa_item GROUP BY 1$$);
SELECT hashed_rows($$SELECT it_kind, count(*) FROM jsale JOIN jitem ON it_id = sa_item JOIN jstore ON s_id = sa_store WHERE s_region = 1 GROUP BY 1$$);
RESET parallel_leader_participation;
-- the Gather rescanned (the inner side of a nested loop): hashed anew each time
SET enable_material = off;
EXPLAIN (COSTS OFF) SELECT g, k, n FROM generate_series(1, 3) g, (SELECT it_kind k, sum(sa_qty) n FROM jsale JOIN jitem ON it_id = sa_item GROUP BY 1) x WHERE k < 'k' || g;
SELECT * FROM same($$SELECT g, k, n FROM generate_series(1, 3) g, (SELECT it_kind k, sum(sa_qty) n FROM jsale JOIN jitem ON it_id = sa_item GROUP BY 1) x WHERE k < 'k' || g$$);
RESET enable_material;
-- an error while hashing (in whichever participants read) leaves the session usable
SELECT it_kind, count(*) FROM jsale JOIN jitem ON it_id = sa_item WHERE 10 / (it_id - 7) > -100 GROUP BY 1;
SELECT * FROM same($$SELECT it_kind, count(*) FROM jsale JOIN jitem ON it_id = sa_item WHERE it_id > 7 GROUP BY 1$$);
RESET enable_hashjoin;
RESET enable_mergejoin;
-- hashed from partial plans, a relation of many pages: each participant's
-- copy of the Parallel Seq Scan reads a share of its rows into the shared
-- memory, and one lays the image out from all the shares (keys repeated
-- and NULL, text values copied; PostgreSQL's hash joins as they are)
CREATE TABLE jpdim (pd_key int4, pd_grp int4, pd_name text, pd_w numeric(8,2));
INSERT INTO jpdim
SELECT CASE WHEN i % 97 = 0 THEN NULL ELSE i % 15000 END, i % 40,
       'name ' || (i % 13) || repeat('x', i % 7), (i % 100) / 4.0
FROM generate_series(1, 30000) i;		-- keys 0-14999 twice, some NULL
CREATE TABLE jpgrp (pg_id int4, pg_label text);
INSERT INTO jpgrp SELECT i, 'g' || (i % 7) FROM generate_series(0, 35) i;	-- groups 36-39 missing
CREATE TABLE jpfact (pf_key int4, pf_n int4, pf_v numeric(10,2));
INSERT INTO jpfact
SELECT CASE WHEN i % 89 = 0 THEN NULL ELSE i % 16000 END, i % 13, (i % 500) / 3.0
FROM generate_series(1, 80000) i;		-- keys 15000-15999 in no row of jpdim
VACUUM ANALYZE jpdim, jpgrp, jpfact;
-- (answers of many rows as their digest: same says they equal PostgreSQL's)
-- a star
EXPLAIN (COSTS OFF) SELECT pd_grp, s_region, count(*), sum(pf_v), sum(pd_w) FROM jpfact
  JOIN jpdim ON pd_key = pf_key JOIN jstore ON s_id = pf_n GROUP BY 1, 2;
SELECT node, same, md5(answer) FROM same($$SELECT pd_grp, s_region, count(*), sum(pf_v), sum(pd_w) FROM jpfact
  JOIN jpdim ON pd_key = pf_key JOIN jstore ON s_id = pf_n GROUP BY 1, 2$$);
SELECT hashed_rows($$SELECT pd_grp, count(*) FROM jpfact JOIN jpdim ON pd_key = pf_key GROUP BY 1$$);
-- a snowflake: jpgrp joined through jpdim
EXPLAIN (COSTS OFF) SELECT pg_label, count(*), sum(pf_v) FROM jpfact JOIN jpdim ON pd_key = pf_key
  JOIN jpgrp ON pg_id = pd_grp GROUP BY 1;
SELECT node, same, md5(answer) FROM same($$SELECT pg_label, count(*), sum(pf_v) FROM jpfact JOIN jpdim ON pd_key = pf_key
  JOIN jpgrp ON pg_id = pd_grp GROUP BY 1$$);
-- text values (group keys)
SELECT node, same, md5(answer) FROM same($$SELECT pd_name, pg_label, count(*), sum(pf_v) FROM jpfact
  JOIN jpdim ON pd_key = pf_key JOIN jpgrp ON pg_id = pd_grp GROUP BY 1, 2$$);
-- a left join (a key missing, or NULL: the row goes on with NULLs), a semi
-- and an anti join
SELECT node, same, md5(answer) FROM same($$SELECT pd_grp, count(*), sum(pf_v), count(pd_name) FROM jpfact
  LEFT JOIN jpdim ON pd_key = pf_key GROUP BY 1$$);
SELECT node, same, md5(answer) FROM same($$SELECT pf_n, count(*), sum(pf_v) FROM jpfact
  WHERE EXISTS (SELECT 1 FROM jpdim WHERE pd_key = pf_key AND pd_grp < 10) GROUP BY 1$$);
SELECT node, same, md5(answer) FROM same($$SELECT pf_n, count(*), sum(pf_v) FROM jpfact
  WHERE NOT EXISTS (SELECT 1 FROM jpdim WHERE pd_key = pf_key AND pd_grp < 10) GROUP BY 1$$);
-- a marked join: the relation hashed from shares is the one the probes mark
-- (costed as without a GPU on both hosts: with a GPU's costs the planner
-- prefers PostgreSQL's hash semi join over these small tables)
SET gpu_reduce.page_path TO cpu;
SELECT node, same, md5(answer) FROM same($$SELECT pd_grp, count(*), sum(pd_w) FROM jpdim
  WHERE EXISTS (SELECT 1 FROM jpfact WHERE pf_key = pd_key AND pf_n < 5) GROUP BY 1$$);
SELECT node, same, md5(answer) FROM same($$SELECT pd_grp, count(*), sum(pd_w) FROM jpdim
  WHERE NOT EXISTS (SELECT 1 FROM jpfact WHERE pf_key = pd_key AND pf_n < 5) GROUP BY 1$$);
RESET gpu_reduce.page_path;
SET parallel_leader_participation = off;
SELECT node, same, md5(answer) FROM same($$SELECT pg_label, pd_name, count(*), sum(pf_v) FROM jpfact JOIN jpdim ON pd_key = pf_key
  JOIN jpgrp ON pg_id = pd_grp GROUP BY 1, 2$$);
SELECT hashed_rows($$SELECT pd_grp, count(*) FROM jpfact JOIN jpdim ON pd_key = pf_key GROUP BY 1$$);
RESET parallel_leader_participation;
-- the Gather rescanned (under a subquery's one-time filter on the outer
-- row): each participant reads its shares anew each time
-- (a subplan's name differs by major: SubPlan 1, from 19 on SubPlan expr_1)
CREATE FUNCTION plan_lines(q text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
    line text;
BEGIN
    FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
        RETURN NEXT regexp_replace(line, 'SubPlan \S+', 'SubPlan');
    END LOOP;
END $$;
SELECT line AS "QUERY PLAN" FROM plan_lines($$SELECT g, (SELECT n FROM (SELECT sum(pf_v) n, count(pd_name) FROM jpfact
  JOIN jpdim ON pd_key = pf_key) x WHERE g > 0) FROM generate_series(0, 3) g$$) line;
DROP FUNCTION plan_lines(text);
SELECT * FROM same($$SELECT g, (SELECT n FROM (SELECT sum(pf_v) n, count(pd_name) FROM jpfact
  JOIN jpdim ON pd_key = pf_key) x WHERE g > 0) FROM generate_series(0, 3) g$$);
SELECT * FROM same($$SELECT g, (SELECT n FROM (SELECT count(pd_name) n, count(*) FROM jpfact
  LEFT JOIN jpdim ON pd_key = pf_key) x WHERE g > 0) FROM generate_series(0, 3) g$$);
DROP TABLE jpdim, jpgrp, jpfact;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
SET max_parallel_workers_per_gather = 0;
-- the transaction's own rows in a hashed relation
BEGIN;
INSERT INTO jstore VALUES (61, 1, 's61', 1, date '2021-01-01', 2);
DELETE FROM jstore WHERE s_id = 5;
SELECT * FROM same($$SELECT s_region, count(*), sum(sa_qty) FROM jsale JOIN jstore ON s_id = sa_store GROUP BY 1$$);
ROLLBACK;
-- row security on a hashed relation, queried by a user it hides rows from
CREATE ROLE gr_join_reader;
GRANT SELECT ON jsale, jstore, jitem, jregion TO gr_join_reader;
ALTER TABLE jstore ENABLE ROW LEVEL SECURITY;
CREATE POLICY jstore_odd ON jstore FOR SELECT TO gr_join_reader USING (s_id % 2 = 1);
SET ROLE gr_join_reader;
SELECT * FROM same($$SELECT s_region, count(*), sum(sa_qty) FROM jsale JOIN jstore ON s_id = sa_store GROUP BY 1$$);
RESET ROLE;
DROP POLICY jstore_odd ON jstore;
ALTER TABLE jstore DISABLE ROW LEVEL SECURITY;
REVOKE ALL ON jsale, jstore, jitem, jregion FROM gr_join_reader;
DROP ROLE gr_join_reader;
-- EXPLAIN ANALYZE counts what was hashed and matched (but for the memory,
-- the batches, which vary with the pass's settings, and who decoded the
-- pages, the GPU or the CPU)
CREATE FUNCTION explain_analyze(q text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
    line text;
BEGIN
    FOR line IN EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF, BUFFERS OFF) ' || q LOOP
        CONTINUE WHEN line ~ 'Batches|Found by Hint|Decoded Pages|Groups Collected|Jobs Over';
        -- (list jobs run where a GPU is, or in cpu mode: shown there only)
        CONTINUE WHEN line ~ 'Pages Filtered by Jobs|Rows Kept by Jobs' AND
            current_setting('gpu_reduce.page_path') <> 'cpu';
        -- (from 18 on, actual rows have two decimals)
        -- (a Sort's memory differs by major)
        RETURN NEXT regexp_replace(regexp_replace(regexp_replace(line, 'Hash Memory: .*', 'Hash Memory: ...'),
                                                  'rows=([0-9]+)\.[0-9]+', 'rows=\1', 'g'),
                                   'Memory: [0-9]+kB', 'Memory: NkB');
    END LOOP;
END $$;
SELECT explain_analyze($$SELECT sum(sa_qty) FROM jsale JOIN jstore ON s_id = sa_store JOIN jitem ON it_id = sa_item WHERE s_region = 1$$);
-- a relation's rows no joined row keeps are left out of its image: a later
-- inner or semi join keyed by its values only (jregion by jstore's
-- s_region: region 3's 15 stores and the 6 of no region); not by a later
-- left or anti join, nor one keyed also by the probe table
SELECT explain_analyze($$SELECT r_name, count(*), sum(sa_qty) FROM jsale JOIN jstore ON s_id = sa_store
  JOIN jregion ON r_id = s_region GROUP BY 1$$);
SELECT * FROM same($$SELECT s_open, count(*), sum(sa_qty) FROM jsale JOIN jstore ON s_id = sa_store
  WHERE s_region IN (SELECT r_id FROM jregion WHERE r_name <> 'east') GROUP BY 1$$);
SELECT explain_analyze($$SELECT count(*), sum(sa_qty) FROM jsale JOIN jstore ON s_id = sa_store
  WHERE NOT EXISTS (SELECT 1 FROM jregion WHERE r_id = s_region)$$);
SELECT * FROM same($$SELECT count(*), sum(sa_qty) FROM jsale JOIN jstore ON s_id = sa_store
  WHERE NOT EXISTS (SELECT 1 FROM jregion WHERE r_id = s_region)$$);
SELECT * FROM same($$SELECT r_name, count(*), sum(sa_qty) FROM jsale JOIN jstore ON s_id = sa_store
  LEFT JOIN jregion ON r_id = s_region GROUP BY 1$$);
CREATE TABLE jrk (rk_region int4, rk_open date, rk_qty int4, rk_w int4);
INSERT INTO jrk SELECT i % 4, date '2020-01-01' + i, i % 9, i FROM generate_series(1, 40) i;
INSERT INTO jstore VALUES (61, NULL, 's61', 1, NULL, 1);
ANALYZE jrk, jstore;
SELECT explain_analyze($$SELECT rk_w % 3, count(*), sum(sa_qty) FROM jsale JOIN jstore ON s_id = sa_store
  JOIN jrk ON rk_region = s_region AND rk_open = s_open GROUP BY 1$$);
SELECT * FROM same($$SELECT rk_w % 3, count(*), sum(sa_qty) FROM jsale JOIN jstore ON s_id = sa_store
  JOIN jrk ON rk_region = s_region AND rk_open = s_open GROUP BY 1$$);
SELECT * FROM same($$SELECT count(*), sum(sa_amount) FROM jsale JOIN jstore ON s_id = sa_store
  JOIN jrk ON rk_region = s_region AND rk_qty = sa_qty$$);
DELETE FROM jstore WHERE s_id = 61;
DROP TABLE jrk;
ANALYZE jstore;
-- a reducing relation of one key is first a bitmap of its keys (a bit per
-- value from the least to the greatest, where they span at most 64 values
-- per row), then its hash: negative keys (the int2 s_region against int8
-- keys); keys at int8's ends, whose span is no bitmap's (their hash alone)
CREATE TABLE jrx (x_id int8, x_name text);
INSERT INTO jrx VALUES (-4, 'minus four'), (-1, 'minus one'), (1, 'one'), (3, 'three'), (3, 'three again');
UPDATE jstore SET s_region = -s_region WHERE s_id % 8 = 1;
ANALYZE jrx, jstore;
SELECT explain_analyze($$SELECT x_name, count(*), sum(sa_qty) FROM jsale JOIN jstore ON s_id = sa_store
  JOIN jrx ON x_id = s_region GROUP BY 1$$);
SELECT * FROM same($$SELECT x_name, count(*), sum(sa_qty) FROM jsale JOIN jstore ON s_id = sa_store
  JOIN jrx ON x_id = s_region GROUP BY 1$$);
INSERT INTO jrx VALUES (-9223372036854775808, 'least'), (9223372036854775807, 'greatest');
ANALYZE jrx;
SELECT * FROM same($$SELECT x_name, count(*), sum(sa_qty) FROM jsale JOIN jstore ON s_id = sa_store
  JOIN jrx ON x_id = s_region GROUP BY 1$$);
UPDATE jstore SET s_region = -s_region WHERE s_id % 8 = 1;
DROP TABLE jrx;
ANALYZE jstore;
-- where list jobs read a reduced relation (a GPU, or cpu mode), they
-- filter its rows by the reducing relations too, probed by its values
-- (semi joins): the rows left out are counted with those the host leaves
-- out, and only the others are kept by the jobs.  A WHERE and values
-- jobs (jstore's fixed-width values); a varlena value (s_name: list jobs,
-- whose listed rows the host decodes); no WHERE (values jobs for the
-- filter alone); a reducer of two keys
SET gpu_reduce.page_path TO cpu;
SELECT explain_analyze($$SELECT r_name, count(*), sum(sa_qty) FROM jsale JOIN jstore ON s_id = sa_store
  JOIN jregion ON r_id = s_region WHERE s_score > 2 GROUP BY 1$$);
SELECT * FROM same($$SELECT r_name, count(*), sum(sa_qty) FROM jsale JOIN jstore ON s_id = sa_store
  JOIN jregion ON r_id = s_region WHERE s_score > 2 GROUP BY 1$$);
SELECT explain_analyze($$SELECT r_name, s_name, count(*), sum(sa_qty) FROM jsale JOIN jstore ON s_id = sa_store
  JOIN jregion ON r_id = s_region WHERE s_score > 2 GROUP BY 1, 2$$);
SELECT * FROM same($$SELECT r_name, s_name, count(*), sum(sa_qty) FROM jsale JOIN jstore ON s_id = sa_store
  JOIN jregion ON r_id = s_region WHERE s_score > 2 GROUP BY 1, 2$$);
SELECT explain_analyze($$SELECT r_name, count(*), sum(sa_qty) FROM jsale JOIN jstore ON s_id = sa_store
  JOIN jregion ON r_id = s_region GROUP BY 1$$);
SELECT * FROM same($$SELECT r_name, count(*), sum(sa_qty) FROM jsale JOIN jstore ON s_id = sa_store
  JOIN jregion ON r_id = s_region GROUP BY 1$$);
CREATE TABLE jrk2 (rk_region int4, rk_open date, rk_w int4);
INSERT INTO jrk2 SELECT i % 4, date '2020-01-01' + i, i FROM generate_series(1, 40, 3) i;
ANALYZE jrk2;
SELECT explain_analyze($$SELECT rk_w % 3, count(*), sum(sa_qty) FROM jsale JOIN jstore ON s_id = sa_store
  JOIN jrk2 ON rk_region = s_region AND rk_open = s_open WHERE s_score > 1 GROUP BY 1$$);
SELECT * FROM same($$SELECT rk_w % 3, count(*), sum(sa_qty) FROM jsale JOIN jstore ON s_id = sa_store
  JOIN jrk2 ON rk_region = s_region AND rk_open = s_open WHERE s_score > 1 GROUP BY 1$$);
DROP TABLE jrk2;
RESET gpu_reduce.page_path;
-- a relation left out by a later one of few keys (at most a 64th of its
-- rows) is fetched by a btree index on the column they equal, a lookup per
-- distinct key (TPC-H Q18's orders, by its IN subquery's 57): duplicate and
-- NULL keys, a key of no row, the relation's WHERE, the transaction's own
-- update of a row (its index entry's HOT chain)
CREATE TABLE jfew (f_item int8);
INSERT INTO jfew VALUES (3), (3), (17), (NULL), (499), (9000000000);
ANALYZE jfew;
SELECT explain_analyze($$SELECT it_kind, count(*), sum(sa_qty) FROM jsale JOIN jitem ON it_id = sa_item
  WHERE it_id IN (SELECT f_item FROM jfew) GROUP BY 1$$);
SELECT * FROM same($$SELECT it_kind, count(*), sum(sa_qty) FROM jsale JOIN jitem ON it_id = sa_item
  WHERE it_id IN (SELECT f_item FROM jfew) GROUP BY 1$$);
SELECT * FROM same($$SELECT it_kind, it_price, count(*), sum(sa_qty) FROM jsale JOIN jitem ON it_id = sa_item
  WHERE it_id IN (SELECT f_item FROM jfew) AND it_price < 40 GROUP BY 1, 2$$);
BEGIN;
UPDATE jitem SET it_kind = 'k17 updated' WHERE it_id = 17;
SELECT * FROM same($$SELECT it_kind, count(*), sum(sa_qty) FROM jsale JOIN jitem ON it_id = sa_item
  WHERE it_id IN (SELECT f_item FROM jfew) GROUP BY 1$$);
ROLLBACK;
-- not where those keys are many of the column's distinct values, each of
-- many rows (TPC-H Q10's customer, by nation's 25 keys: every row, 1.6x as
-- long as its pages): its pages are read, the rows left out
CREATE TABLE jcust (c_id int4 PRIMARY KEY, c_nat int4, c_name text);
INSERT INTO jcust SELECT i, i % 4, 'c' || i FROM generate_series(0, 999) i;
CREATE INDEX ON jcust (c_nat);
CREATE TABLE jnat (n_id int4 PRIMARY KEY, n_name text);
INSERT INTO jnat VALUES (1, 'one'), (2, 'two');
ANALYZE jcust, jnat;
SELECT explain_analyze($$SELECT n_name, count(*), sum(sa_qty) FROM jsale JOIN jcust ON c_id = sa_item4
  JOIN jnat ON n_id = c_nat GROUP BY 1$$);
SELECT * FROM same($$SELECT n_name, count(*), sum(sa_qty) FROM jsale JOIN jcust ON c_id = sa_item4
  JOIN jnat ON n_id = c_nat GROUP BY 1$$);
DROP TABLE jcust, jnat;
-- and a relation keyed by a reduced one's values alone is built after it,
-- fetched for those values (Q18's customer, by its 57 orders' o_custkey):
-- values repeated, NULL, and of no row
CREATE TABLE jbig (b_id int4 PRIMARY KEY, b_grp int4, b_name text);
INSERT INTO jbig SELECT i, CASE WHEN i % 11 = 0 THEN NULL ELSE i % 13 END, 'b' || i FROM generate_series(0, 999) i;
CREATE TABLE jgrp (g_id int4 PRIMARY KEY, g_label text);
INSERT INTO jgrp SELECT i, 'g' || (i % 5) FROM generate_series(0, 11) i;
INSERT INTO jgrp SELECT i, 'far' FROM generate_series(100, 1099) i;
CREATE TABLE jpick (p_id int4);
INSERT INTO jpick VALUES (12), (25), (26), (33), (77), (77), (90), (NULL);
ANALYZE jbig, jgrp, jpick;
SELECT explain_analyze($$SELECT g_label, count(*), sum(sa_qty) FROM jsale JOIN jbig ON b_id = sa_item4
  JOIN jgrp ON g_id = b_grp WHERE b_id IN (SELECT p_id FROM jpick) GROUP BY 1$$);
SELECT * FROM same($$SELECT g_label, count(*), sum(sa_qty) FROM jsale JOIN jbig ON b_id = sa_item4
  JOIN jgrp ON g_id = b_grp WHERE b_id IN (SELECT p_id FROM jpick) GROUP BY 1$$);
SELECT * FROM same($$SELECT g_label, b_name, count(*) FROM jsale JOIN jbig ON b_id = sa_item4
  LEFT JOIN jgrp ON g_id = b_grp WHERE b_id IN (SELECT p_id FROM jpick) GROUP BY 1, 2$$);
-- built again on each rescan, for that scan's keys (a parameter in jpick's WHERE)
SELECT * FROM same($$SELECT x, (SELECT count(*) FROM jsale JOIN jbig ON b_id = sa_item4 JOIN jgrp ON g_id = b_grp
  WHERE b_id IN (SELECT p_id FROM jpick WHERE p_id > x)) FROM (VALUES (0), (30), (80), (100)) v(x)$$);
-- gpu_reduce.join_memory bounds the images as the planner estimates them:
-- serially, jbig's 1000 rows less those jpick's 8 keys leave out (73 kB in
-- all) fit 80 kB; a parallel build keeps every row, past 80 kB, so no
-- parallel node is planned until the setting holds them (where a GPU's
-- serial node costs less, that one)
SET gpu_reduce.join_memory = 80;
SELECT * FROM same($$SELECT g_label, count(*), sum(sa_qty) FROM jsale JOIN jbig ON b_id = sa_item4
  JOIN jgrp ON g_id = b_grp WHERE b_id IN (SELECT p_id FROM jpick) GROUP BY 1$$);
SET gpu_reduce.join_memory = 64;
SELECT * FROM same($$SELECT g_label, count(*), sum(sa_qty) FROM jsale JOIN jbig ON b_id = sa_item4
  JOIN jgrp ON g_id = b_grp WHERE b_id IN (SELECT p_id FROM jpick) GROUP BY 1$$);
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
CREATE FUNCTION parallel_node(q text) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
    line text;
BEGIN
    FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
        IF line LIKE '%Parallel Custom Scan (GpuReduce)%' THEN
            RETURN true;
        END IF;
    END LOOP;
    RETURN false;
END $$;
SET gpu_reduce.join_memory = 80;
SELECT parallel_node($$SELECT g_label, count(*), sum(sa_qty) FROM jsale JOIN jbig ON b_id = sa_item4
  JOIN jgrp ON g_id = b_grp WHERE b_id IN (SELECT p_id FROM jpick) GROUP BY 1$$);
SET gpu_reduce.join_memory = 1000;
SELECT parallel_node($$SELECT g_label, count(*), sum(sa_qty) FROM jsale JOIN jbig ON b_id = sa_item4
  JOIN jgrp ON g_id = b_grp WHERE b_id IN (SELECT p_id FROM jpick) GROUP BY 1$$)
  OR (SELECT count(*) > 0 FROM gpu_reduce_devices()) AS parallel_node_or_gpu;
DROP FUNCTION parallel_node(text);
SELECT * FROM same($$SELECT g_label, count(*), sum(sa_qty) FROM jsale JOIN jbig ON b_id = sa_item4
  JOIN jgrp ON g_id = b_grp WHERE b_id IN (SELECT p_id FROM jpick) GROUP BY 1$$);
RESET gpu_reduce.join_memory;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
SET max_parallel_workers_per_gather = 0;
-- the probe table itself is fetched by a btree index where a hashed
-- relation its rows must match (inner or semi, on one of its columns) has
-- few keys, at most a 64th of the column's distinct values (TPC-H Q18's
-- lineitem, by its 57 orders): repeated and NULL keys in the table, its
-- WHERE, the transaction's own updates, deletes and inserts; not for more
-- keys, nor with no index, nor with no statistics
CREATE FUNCTION fetched(q text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
    line text;
BEGIN
    FOR line IN EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF, BUFFERS OFF) ' || q LOOP
        CONTINUE WHEN line !~ 'Table Fetched|Visible Tuples|Rows Aggregated|GpuReduce';
        RETURN NEXT regexp_replace(line, 'rows=([0-9]+)\.[0-9]+', 'rows=\1', 'g');
    END LOOP;
END $$;
CREATE TABLE jsx AS SELECT * FROM jsale;
VACUUM jsx;
SELECT fetched($$SELECT it_kind, count(*), sum(sa_qty) FROM jsx JOIN jitem ON it_id = sa_item
  WHERE it_id IN (SELECT f_item FROM jfew) GROUP BY 1$$);
-- (PostgreSQL's own plan, an index nested loop, costs less: the node's is made to)
SET enable_nestloop = off;
SET enable_mergejoin = off;
SET enable_hashjoin = off;
CREATE INDEX jsx_item ON jsx (sa_item);
CREATE INDEX jsx_item4 ON jsx (sa_item4, sa_qty);
SELECT fetched($$SELECT it_kind, count(*), sum(sa_qty) FROM jsx JOIN jitem ON it_id = sa_item
  WHERE it_id IN (SELECT f_item FROM jfew) GROUP BY 1$$);
ANALYZE jsx;
SELECT fetched($$SELECT it_kind, count(*), sum(sa_qty) FROM jsx JOIN jitem ON it_id = sa_item
  WHERE it_id IN (SELECT f_item FROM jfew) GROUP BY 1$$);
SELECT * FROM same($$SELECT it_kind, count(*), sum(sa_qty) FROM jsx JOIN jitem ON it_id = sa_item
  WHERE it_id IN (SELECT f_item FROM jfew) GROUP BY 1$$);
SELECT * FROM same($$SELECT it_kind, sa_store, count(*), sum(sa_amount) FROM jsx JOIN jitem ON it_id = sa_item
  WHERE it_id IN (SELECT f_item FROM jfew) AND sa_qty > 3 GROUP BY 1, 2$$);
SELECT fetched($$SELECT g_label, count(*), sum(sa_qty) FROM jsx JOIN jbig ON b_id = sa_item4
  JOIN jgrp ON g_id = b_grp WHERE b_id IN (SELECT p_id FROM jpick) GROUP BY 1$$);
SELECT * FROM same($$SELECT g_label, count(*), sum(sa_qty) FROM jsx JOIN jbig ON b_id = sa_item4
  JOIN jgrp ON g_id = b_grp WHERE b_id IN (SELECT p_id FROM jpick) GROUP BY 1$$);
SELECT * FROM same($$SELECT x, (SELECT count(*) FROM jsx JOIN jbig ON b_id = sa_item4 JOIN jgrp ON g_id = b_grp
  WHERE b_id IN (SELECT p_id FROM jpick WHERE p_id > x)) FROM (VALUES (0), (30), (80), (100)) v(x)$$);
BEGIN;
UPDATE jsx SET sa_qty = sa_qty + 100 WHERE sa_item = 17 AND sa_id % 3 = 0;
DELETE FROM jsx WHERE sa_item = 3 AND sa_id % 3 = 0;
INSERT INTO jsx SELECT 50000 + i, 1, 499, i, i, date '2020-01-01', 499 FROM generate_series(1, 5) i;
SELECT * FROM same($$SELECT it_kind, count(*), sum(sa_qty) FROM jsx JOIN jitem ON it_id = sa_item
  WHERE it_id IN (SELECT f_item FROM jfew) GROUP BY 1$$);
SELECT fetched($$SELECT it_kind, count(*), sum(sa_qty) FROM jsx JOIN jitem ON it_id = sa_item
  WHERE it_id IN (SELECT f_item FROM jfew) GROUP BY 1$$);
ROLLBACK;
-- 99 keys: more than a 64th of sa_item's 520 values, the pages read
SELECT fetched($$SELECT it_kind, count(*), sum(sa_qty) FROM jsx JOIN jitem ON it_id = sa_item
  WHERE it_id IN (SELECT it_id FROM jitem WHERE it_id < 100) GROUP BY 1$$);
SELECT * FROM same($$SELECT it_kind, count(*), sum(sa_qty) FROM jsx JOIN jitem ON it_id = sa_item
  WHERE it_id IN (SELECT it_id FROM jitem WHERE it_id < 100) GROUP BY 1$$);
RESET enable_nestloop;
RESET enable_mergejoin;
RESET enable_hashjoin;
DROP TABLE jsx;
DROP FUNCTION fetched(text);
DROP TABLE jfew, jbig, jgrp, jpick;
-- semi and anti joins (EXISTS, IN, NOT EXISTS) to a relation with duplicate
-- and NULL keys: the row goes on once where a row matches, or where none does
CREATE TABLE jpromo (pr_store int4, pr_item int8, pr_day date);
INSERT INTO jpromo SELECT CASE WHEN i % 7 = 0 THEN NULL ELSE i % 23 END, i % 97, date '2020-01-01' + i % 50
FROM generate_series(1, 300) i;
ANALYZE jpromo;
SELECT * FROM same($$SELECT count(*), sum(sa_qty) FROM jsale WHERE EXISTS (SELECT 1 FROM jpromo WHERE pr_store = sa_store)$$);
SELECT * FROM same($$SELECT sa_store % 5, count(*), sum(sa_amount) FROM jsale WHERE sa_item IN (SELECT pr_item FROM jpromo WHERE pr_day > date '2020-01-20') GROUP BY 1$$);
-- an anti join keeps the rows whose key is NULL (no row equals it)
SELECT * FROM same($$SELECT count(*), sum(sa_qty), count(sa_store) FROM jsale WHERE NOT EXISTS (SELECT 1 FROM jpromo WHERE pr_store = sa_store)$$);
-- composite keys, int4 = int8
SELECT * FROM same($$SELECT count(*) FROM jsale WHERE NOT EXISTS (SELECT 1 FROM jpromo WHERE pr_store = sa_store AND pr_item = sa_item4)$$);
-- with a star, the semi join's key from a hashed relation (int2 = int4)
SELECT * FROM same($$SELECT it_kind, count(*), sum(sa_qty) FROM jsale JOIN jstore ON s_id = sa_store JOIN jitem ON it_id = sa_item
  WHERE EXISTS (SELECT 1 FROM jpromo WHERE pr_store = s_region) GROUP BY 1$$);
SELECT * FROM same($$SELECT s_region, count(*) FROM jsale JOIN jstore ON s_id = sa_store
  WHERE NOT EXISTS (SELECT 1 FROM jpromo WHERE pr_item = sa_item) AND EXISTS (SELECT 1 FROM jpromo WHERE pr_store = s_id) GROUP BY 1$$);
-- an empty inner side: no row goes on through the semi join, every row through the anti join
SELECT * FROM same($$SELECT count(*) FROM jsale WHERE EXISTS (SELECT 1 FROM jpromo WHERE pr_store = sa_store AND pr_day < date '1900-01-01')$$);
SELECT * FROM same($$SELECT count(*) FROM jsale WHERE NOT EXISTS (SELECT 1 FROM jpromo WHERE pr_store = sa_store AND pr_day < date '1900-01-01')$$);
SELECT explain_analyze($$SELECT count(*) FROM jsale JOIN jitem ON it_id = sa_item WHERE NOT EXISTS (SELECT 1 FROM jpromo WHERE pr_store = sa_store)$$);
-- marked joins: a semi or anti join whose inner side is the probe table (the
-- largest relation, inside EXISTS, IN or NOT EXISTS; TPC-H Q4, Q22).  The
-- outer side is hashed, each probe marks the rows it matches, and after the
-- scan the marked rows (semi) or the others (anti, a NULL key's too) are
-- grouped, each once: jpromo's keys repeat and are NULL, jsale's are NULL too
SELECT * FROM same($$SELECT pr_day, count(*), sum(pr_item), count(pr_store) FROM jpromo
  WHERE EXISTS (SELECT 1 FROM jsale WHERE sa_store = pr_store AND sa_qty > 7) GROUP BY 1$$);
SELECT * FROM same($$SELECT pr_store IS NULL, count(*), sum(pr_item), min(pr_day) FROM jpromo
  WHERE NOT EXISTS (SELECT 1 FROM jsale WHERE sa_store = pr_store AND sa_qty > 7) GROUP BY 1$$);
SELECT * FROM same($$SELECT count(*), sum(pr_item) FROM jpromo WHERE pr_item IN (SELECT sa_item FROM jsale WHERE sa_day < date '2020-01-03')$$);
-- composite keys (int8 = int8, int4 = int4), and a date key
SELECT * FROM same($$SELECT count(*), sum(pr_store) FROM jpromo
  WHERE EXISTS (SELECT 1 FROM jsale WHERE sa_store = pr_store AND sa_item = pr_item)$$);
SELECT * FROM same($$SELECT count(*), sum(pr_store) FROM jpromo
  WHERE NOT EXISTS (SELECT 1 FROM jsale WHERE sa_day = pr_day AND sa_qty = 8 AND sa_id < 2000)$$);
-- no probe row matches: no row for the semi join, every row for the anti join
SELECT * FROM same($$SELECT count(*), sum(pr_item) FROM jpromo WHERE EXISTS (SELECT 1 FROM jsale WHERE sa_store = pr_store AND sa_qty > 100)$$);
SELECT * FROM same($$SELECT count(*), sum(pr_item) FROM jpromo WHERE NOT EXISTS (SELECT 1 FROM jsale WHERE sa_store = pr_store AND sa_qty > 100)$$);
-- an empty hashed side
SELECT * FROM same($$SELECT count(*), sum(pr_item) FROM jpromo WHERE pr_day < date '1900-01-01' AND EXISTS (SELECT 1 FROM jsale WHERE sa_store = pr_store)$$);
SELECT * FROM same($$SELECT pr_day, count(*) FROM jpromo WHERE pr_day < date '1900-01-01' AND NOT EXISTS (SELECT 1 FROM jsale WHERE sa_store = pr_store) GROUP BY 1$$);
-- relations joined inner to the marked one, probed by its rows after the
-- scan; expressions over them that may raise an error are the joined row's
SELECT * FROM same($$SELECT it_kind, count(*), sum(it_price), max(pr_day) FROM jpromo JOIN jitem ON it_id = pr_item
  WHERE EXISTS (SELECT 1 FROM jsale WHERE sa_store = pr_store AND sa_qty > 7) GROUP BY 1$$);
SELECT * FROM same($$SELECT extract(day FROM pr_day), count(*), sum(it_price * pr_item) FROM jpromo JOIN jitem ON it_id = pr_item
  WHERE NOT EXISTS (SELECT 1 FROM jsale WHERE sa_store = pr_store AND sa_qty > 7) GROUP BY 1$$);
-- the Q22 shape: a key over a text column, an uncorrelated scalar subquery in the hashed side's WHERE
SELECT * FROM same($$SELECT substring(it_kind FROM 1 FOR 2), count(*), sum(it_price) FROM jitem
  WHERE it_price > (SELECT avg(it_price) FROM jitem WHERE it_price > 5) AND NOT EXISTS (SELECT 1 FROM jsale WHERE sa_item = it_id AND sa_id < 300) GROUP BY 1$$);
-- Q22's key: a substring of a char(n) column (its cast to text trims) by
-- constant positions cannot raise an error, so the hashed side's plan
-- computes it as one of its values; a negative length would raise one, and
-- a position from a column might: those are the joined row's, which does not
-- compile substring (and PostgreSQL's plan raises nothing where no row joins)
SELECT * FROM same($$SELECT substring(s_name FROM 1 FOR 2), count(*), sum(s_rent) FROM jstore
  WHERE NOT EXISTS (SELECT 1 FROM jsale WHERE sa_store = s_id AND sa_id < 40) GROUP BY 1$$);
SELECT * FROM same($$SELECT substr(s_name, 3), substr(s_name::text, 1, 0), count(*) FROM jstore
  WHERE EXISTS (SELECT 1 FROM jsale WHERE sa_store = s_id) GROUP BY 1, 2$$);
SELECT * FROM same($$SELECT substring(s_name FROM 1 FOR -1), count(*) FROM jstore
  WHERE EXISTS (SELECT 1 FROM jsale WHERE sa_store = s_id AND sa_qty > 1000) GROUP BY 1$$);
SELECT * FROM same($$SELECT substring(s_name FROM s_region FOR 2), count(*) FROM jstore
  WHERE s_id < 20 AND EXISTS (SELECT 1 FROM jsale WHERE sa_store = s_id) GROUP BY 1$$);
SELECT explain_analyze($$SELECT pr_day, count(*) FROM jpromo WHERE EXISTS (SELECT 1 FROM jsale WHERE sa_store = pr_store AND sa_qty > 7) GROUP BY 1$$);
SELECT explain_analyze($$SELECT count(*), sum(pr_item) FROM jpromo JOIN jitem ON it_id = pr_item WHERE NOT EXISTS (SELECT 1 FROM jsale WHERE sa_store = pr_store AND sa_qty > 7)$$);
-- rescanned with a parameter (a correlated subquery): marked anew each time
SELECT * FROM same($$SELECT g, (SELECT count(*) FROM jpromo WHERE pr_day < date '2020-01-01' + g
  AND EXISTS (SELECT 1 FROM jsale WHERE sa_store = pr_store AND sa_qty > 7)) FROM generate_series(10, 40, 10) g$$);
-- the snapshot's rows, the transaction's own among them, on both sides
CREATE TABLE jmark_big (mb_key int4, mb_n int4);
INSERT INTO jmark_big SELECT i % 40, i FROM generate_series(1, 4000) i;
CREATE TABLE jmark_small (ms_key int4, ms_v int4);
INSERT INTO jmark_small SELECT i, i * 3 FROM generate_series(1, 60) i;
ANALYZE jmark_big, jmark_small;
BEGIN;
INSERT INTO jmark_small VALUES (61, 1), (NULL, 2), (5, 100);
DELETE FROM jmark_big WHERE mb_key = 5;
INSERT INTO jmark_big VALUES (61, 0);
SELECT * FROM same($$SELECT count(*), sum(ms_v) FROM jmark_small WHERE EXISTS (SELECT 1 FROM jmark_big WHERE mb_key = ms_key)$$);
SELECT * FROM same($$SELECT count(*), sum(ms_v) FROM jmark_small WHERE NOT EXISTS (SELECT 1 FROM jmark_big WHERE mb_key = ms_key)$$);
ROLLBACK;
DROP TABLE jmark_big, jmark_small;
-- the page path's jobs mark too (cpu mode here; on a GPU they mark its copy,
-- which comes back once every job is done: test/gpu/join_page.sh)
SET gpu_reduce.page_path = cpu;
SELECT * FROM same($$SELECT pr_day, count(*), sum(pr_item) FROM jpromo
  WHERE EXISTS (SELECT 1 FROM jsale WHERE sa_store = pr_store AND sa_qty > 7) GROUP BY 1$$);
SELECT * FROM same($$SELECT count(*), sum(pr_item) FROM jpromo JOIN jitem ON it_id = pr_item
  WHERE NOT EXISTS (SELECT 1 FROM jsale WHERE sa_store = pr_store AND sa_qty > 7)$$);
SELECT explain_analyze($$SELECT pr_day, count(*) FROM jpromo WHERE EXISTS (SELECT 1 FROM jsale WHERE sa_store = pr_store AND sa_qty > 7) GROUP BY 1$$);
RESET gpu_reduce.page_path;
-- parallel: every participant marks in the shared memory, and the last to
-- finish probing walks the marks once (with the leader scanning and not)
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
ALTER TABLE jsale SET (parallel_workers = 2);
ALTER TABLE jpromo SET (parallel_workers = 2);
CREATE FUNCTION marked_rows(q text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
    line text;
BEGIN
    FOR line IN EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ' || q LOOP
        CONTINUE WHEN line !~ 'Workers Planned|GpuReduce|Hashed|Rows Matched|Rows Marked';
        RETURN NEXT regexp_replace(regexp_replace(line, ' \(actual.*', ''), 'Hash Memory: .*', 'Hash Memory: ...');
    END LOOP;
END $$;
SELECT marked_rows($$SELECT pr_day, count(*) FROM jpromo WHERE EXISTS (SELECT 1 FROM jsale WHERE sa_store = pr_store AND sa_qty > 7) GROUP BY 1$$);
SELECT * FROM same($$SELECT pr_day, count(*), sum(pr_item), count(pr_store) FROM jpromo
  WHERE EXISTS (SELECT 1 FROM jsale WHERE sa_store = pr_store AND sa_qty > 7) GROUP BY 1$$);
SELECT marked_rows($$SELECT pr_store IS NULL, count(*) FROM jpromo WHERE NOT EXISTS (SELECT 1 FROM jsale WHERE sa_store = pr_store AND sa_qty > 7) GROUP BY 1$$);
SELECT * FROM same($$SELECT pr_store IS NULL, count(*), sum(pr_item), min(pr_day) FROM jpromo
  WHERE NOT EXISTS (SELECT 1 FROM jsale WHERE sa_store = pr_store AND sa_qty > 7) GROUP BY 1$$);
SELECT * FROM same($$SELECT count(*), sum(it_price) FROM jpromo JOIN jitem ON it_id = pr_item
  WHERE EXISTS (SELECT 1 FROM jsale WHERE sa_store = pr_store AND sa_qty > 7)$$);
SET gpu_reduce.page_path = cpu;
SELECT * FROM same($$SELECT count(*), sum(pr_item) FROM jpromo WHERE NOT EXISTS (SELECT 1 FROM jsale WHERE sa_store = pr_store AND sa_qty > 7)$$);
RESET gpu_reduce.page_path;
SET parallel_leader_participation = off;
SELECT marked_rows($$SELECT pr_day, count(*) FROM jpromo WHERE EXISTS (SELECT 1 FROM jsale WHERE sa_store = pr_store AND sa_qty > 7) GROUP BY 1$$);
SELECT * FROM same($$SELECT pr_day, count(*), sum(pr_item) FROM jpromo
  WHERE EXISTS (SELECT 1 FROM jsale WHERE sa_store = pr_store AND sa_qty > 7) GROUP BY 1$$);
RESET parallel_leader_participation;
-- the Gather rescanned: the marks made anew each time
SET enable_material = off;
SET enable_hashjoin = off;
SET enable_mergejoin = off;
SELECT * FROM same($$SELECT g, d, n FROM generate_series(1, 3) g, (SELECT pr_day d, count(*) n FROM jpromo
  WHERE EXISTS (SELECT 1 FROM jsale WHERE sa_store = pr_store AND sa_qty > 7) GROUP BY 1) x WHERE d < date '2020-01-01' + g * 10$$);
RESET enable_material;
RESET enable_hashjoin;
RESET enable_mergejoin;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
SET max_parallel_workers_per_gather = 0;
ALTER TABLE jsale RESET (parallel_workers);
ALTER TABLE jpromo RESET (parallel_workers);
DROP FUNCTION marked_rows(text);
-- left joins to a relation other than the probe table: a row with no match
-- (a missing store, a NULL key) goes on once, the relation's values NULL
SELECT * FROM same($$SELECT count(*), count(s_name), sum(sa_qty), min(s_open) FROM jsale LEFT JOIN jstore ON s_id = sa_store$$);
SELECT * FROM same($$SELECT s_region, count(*), sum(sa_amount), count(s_score) FROM jsale LEFT JOIN jstore ON s_id = sa_store GROUP BY 1$$);
-- an expression over the nullable side is the joined row's (PostgreSQL computes it above the join)
SELECT * FROM same($$SELECT sum(coalesce(s_rent, 0.00)), sum(coalesce(s_region, -1) * sa_qty), count(*) FROM jsale LEFT JOIN jstore ON s_id = sa_store$$);
-- many matches, and a left join at the end of a snowflake (region 3 has no row)
SELECT * FROM same($$SELECT count(*), sum(sa_qty), count(s_id) FROM jsale LEFT JOIN jstore ON s_region = sa_qty$$);
SELECT * FROM same($$SELECT r_name, count(*), sum(sa_qty) FROM jsale JOIN jstore ON s_id = sa_store LEFT JOIN jregion ON r_id = s_region GROUP BY 1$$);
-- a WHERE over the nullable side's key only: PostgreSQL makes it an anti join
SELECT * FROM same($$SELECT count(*), sum(sa_qty) FROM jsale LEFT JOIN jstore ON s_id = sa_store WHERE s_id IS NULL$$);
SELECT explain_analyze($$SELECT count(s_name) FROM jsale LEFT JOIN jstore ON s_id = sa_store$$);
-- the page path's jobs (gpu_reduce.page_path = cpu runs them here as a GPU
-- would): each row probed against the images after the table's program,
-- then the joined row's program, then its group; a row the job cannot make
-- (a key with several matches, a program not sure of it) handed back
SET gpu_reduce.page_path = cpu;
SELECT * FROM same($$SELECT it_kind, s_region, count(*), sum(sa_qty), max(s_score), min(sa_day)
  FROM jsale JOIN jstore ON s_id = sa_store JOIN jitem ON it_id = sa_item GROUP BY 1, 2$$);
SELECT * FROM same($$SELECT r_name, s_open, count(*), sum(sa_qty) FROM jsale JOIN jstore ON s_id = sa_store
  JOIN jregion ON r_id = s_region WHERE sa_qty > 2 GROUP BY 1, 2$$);
-- a char(n) key: each job groups by itself, and the host joins a group's first row again for its keys
SELECT * FROM same($$SELECT r_name, s_name, count(*), sum(sa_amount), min(s_open) FROM jsale JOIN jstore ON s_id = sa_store
  JOIN jregion ON r_id = s_region GROUP BY 1, 2$$);
SELECT * FROM same($$SELECT s_name, it_kind, sum(sa_qty * s_region) FROM jsale JOIN jstore ON s_id = sa_store
  LEFT JOIN jitem ON it_id = sa_item WHERE sa_qty > 6 AND s_id < 9 GROUP BY 1, 2$$);
SELECT * FROM same($$SELECT s_region, sum(sa_qty * s_region), sum(sa_amount * (1 - s_rent / 1000)), count(*)
  FROM jsale JOIN jstore ON s_id = sa_store GROUP BY 1$$);
SELECT * FROM same($$SELECT a.s_region, count(*), sum(sa_qty), sum(b.s_id) FROM jsale JOIN jstore a ON a.s_id = sa_store
  JOIN jstore b ON b.s_region = a.s_region GROUP BY 1$$);
SELECT * FROM same($$SELECT it_kind, count(*), sum(sa_qty) FROM jsale JOIN jstore ON s_id = sa_store JOIN jitem ON it_id = sa_item
  WHERE EXISTS (SELECT 1 FROM jpromo WHERE pr_store = s_region) AND NOT EXISTS (SELECT 1 FROM jpromo WHERE pr_item = sa_item) GROUP BY 1$$);
SELECT * FROM same($$SELECT s_region, count(*), sum(sa_qty), count(s_score), min(s_open) FROM jsale LEFT JOIN jstore ON s_id = sa_store GROUP BY 1$$);
SELECT * FROM same($$SELECT sa_qty, sum(1000 / (sa_qty - s_region)) FROM jsale JOIN jstore ON s_id = sa_store WHERE sa_qty > 4 GROUP BY 1$$);
SELECT sa_qty, sum(1000 / (sa_qty - s_region)) FROM jsale JOIN jstore ON s_id = sa_store GROUP BY 1;
CREATE FUNCTION page_path_of(q text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
    line text;
BEGIN
    FOR line IN EXECUTE 'EXPLAIN (ANALYZE, VERBOSE, COSTS OFF, TIMING OFF, SUMMARY OFF) ' || q LOOP
        CONTINUE WHEN line !~ 'Page Path';
        RETURN NEXT ltrim(line);
    END LOOP;
END $$;
SELECT page_path_of($$SELECT s_region, count(*) FROM jsale JOIN jstore ON s_id = sa_store GROUP BY 1$$);
-- a hashed relation's numeric, or text longer than a word, as a key: the
-- jobs group it as the image row it lies in (one value in several rows:
-- several groups there), the host's table by value (one group again);
-- NULLs, NaN, values of one scale, short texts grouped as their bytes
CREATE TABLE jlabel (lb_id int4 PRIMARY KEY, lb_name text, lb_num numeric, lb_code char(12));
INSERT INTO jlabel
SELECT i, CASE WHEN i % 5 = 0 THEN 'short' || (i % 2) WHEN i % 7 = 0 THEN NULL ELSE 'a longer label ' || (i % 4) END,
       CASE WHEN i % 11 = 0 THEN NULL WHEN i % 13 = 0 THEN 'NaN' ELSE (i % 3) * 1.25 END,
       'code-' || (i % 3) || '-x'
FROM generate_series(1, 64) i;
ANALYZE jlabel;
SELECT node, same FROM same($$SELECT lb_name, lb_num, count(*), sum(sa_qty) FROM jsale JOIN jlabel ON lb_id = sa_store GROUP BY 1, 2$$);
SELECT lb_name, lb_num, count(*), sum(sa_qty) FROM jsale JOIN jlabel ON lb_id = sa_store GROUP BY 1, 2 ORDER BY 1, 2;
SELECT page_path_of($$SELECT lb_name, lb_code, lb_num, count(*) FROM jsale JOIN jlabel ON lb_id = sa_store GROUP BY 1, 2, 3$$);
-- with a char(n) key, each job's own table: the host joins a group's first row again
SELECT node, same FROM same($$SELECT lb_code, lb_num, count(*), sum(sa_amount) FROM jsale JOIN jlabel ON lb_id = sa_store GROUP BY 1, 2$$);
SELECT node, same FROM same($$SELECT lb_num, lb_name, count(*), max(sa_day) FROM jsale LEFT JOIN jlabel ON lb_id = sa_store
  JOIN jstore ON s_id = sa_store WHERE s_region < 3 GROUP BY 1, 2$$);
-- a marked join's jobs mark (on a GPU, its copy of the marks)
SELECT page_path_of($$SELECT pr_day, count(*) FROM jpromo WHERE EXISTS (SELECT 1 FROM jsale WHERE sa_store = pr_store AND sa_qty > 7) GROUP BY 1$$);
-- the jobs count the rows each relation matched as the CPU's probe does
SELECT explain_analyze($$SELECT s_region, count(*) FROM jsale JOIN jitem ON it_id = sa_item JOIN jstore ON s_id = sa_store
  WHERE NOT EXISTS (SELECT 1 FROM jpromo WHERE pr_item = sa_item) GROUP BY 1$$);
SET gpu_reduce.page_path = off;
SELECT explain_analyze($$SELECT s_region, count(*) FROM jsale JOIN jitem ON it_id = sa_item JOIN jstore ON s_id = sa_store
  WHERE NOT EXISTS (SELECT 1 FROM jpromo WHERE pr_item = sa_item) GROUP BY 1$$);
RESET gpu_reduce.page_path;
-- a CASE or COALESCE choosing numerics of several scales (TPC-H Q8's and
-- Q14's CASE WHEN ... THEN l_extendedprice * (1 - l_discount) ELSE 0 END):
-- each row keeps its branch's display scale, so a group's sum or average
-- shows the largest among its rows (0 where every row took ELSE 0, none
-- where every value is NULL), serial, parallel and under the page path
CREATE TABLE jscale (sc_id int4, sc_g int4, sc_v numeric(8,2), sc_w numeric(12,4), sc_k text);
INSERT INTO jscale
SELECT i, i % 6, CASE WHEN i % 6 = 0 OR i % 5 = 0 THEN NULL ELSE (i % 997) / 4.0 END,
       CASE WHEN i % 7 = 0 THEN NULL ELSE (i % 9973) / 16.0 END,
       CASE WHEN i % 6 IN (1, 2) OR i % 11 = 0 THEN 'PROMO ' || i % 3 ELSE 'STD' END
FROM generate_series(1, 20000) i;
ANALYZE jscale;
SELECT * FROM same($$SELECT sc_g, sum(coalesce(sc_v, 0)), avg(coalesce(sc_v, 0)), count(coalesce(sc_v, 0)), count(*)
  FROM jscale GROUP BY 1$$);
SELECT * FROM same($$SELECT sc_g, sum(CASE WHEN sc_k LIKE 'PROMO%' THEN sc_v * (1 - sc_w * 0.001) ELSE 0 END),
  sum(CASE WHEN sc_g = 3 THEN 1.5 WHEN sc_g = 4 THEN sc_w WHEN sc_g = 5 THEN 0 END) FROM jscale GROUP BY 1$$);
SELECT * FROM same($$SELECT sc_g, avg(CASE sc_g WHEN 1 THEN sc_v WHEN 2 THEN 7 ELSE sc_w END) FROM jscale GROUP BY 1$$);
SELECT * FROM same($$SELECT sum(CASE WHEN sc_k LIKE 'PROMO%' THEN sc_v * sc_w ELSE 0 END), sum(coalesce(sc_w, sc_v, 0.5))
  FROM jscale WHERE sc_g IN (0, 3)$$);
-- the Q14 and Q8 shapes: the CASE over the joined row, its condition a hashed relation's value
SELECT * FROM same($$SELECT 100.00 * sum(CASE WHEN it_kind LIKE 'k1%' THEN sa_amount * (1 - it_price * 0.01) ELSE 0 END)
  / sum(sa_amount * (1 - it_price * 0.01)) FROM jsale JOIN jitem ON it_id = sa_item WHERE sa_day < date '2020-02-01'$$);
SELECT * FROM same($$SELECT s_region, sum(CASE WHEN r_name = 'south' THEN sa_amount * sa_qty ELSE 0 END) / sum(sa_amount * sa_qty),
  sum(CASE WHEN r_name = 'east' THEN sa_amount END), avg(CASE WHEN r_name = 'north' THEN sa_amount * 2 ELSE 0 END)
  FROM jsale JOIN jstore ON s_id = sa_store JOIN jregion ON r_id = s_region GROUP BY 1$$);
SELECT * FROM same($$SELECT sa_qty, sum(coalesce(s_rent, 0)), avg(coalesce(s_rent * sa_qty, 0)) FROM jsale LEFT JOIN jstore ON s_id = sa_store GROUP BY 1$$);
-- anything but a sum, an average or a count of it, or a choice read as an
-- operand or a key, keeps PostgreSQL's plan (node f)
SELECT * FROM same($$SELECT max(coalesce(sc_v, 0)) FROM jscale$$);
SELECT * FROM same($$SELECT sum(coalesce(sc_v, 0) * 2) FROM jscale$$);
SELECT * FROM same($$SELECT coalesce(sc_v, 0), count(*) FROM jscale WHERE sc_id < 8 GROUP BY 1$$);
SELECT * FROM same($$SELECT count(*) FROM jscale WHERE coalesce(sc_v, 0) > 100$$);
-- parallel: the partial states carry each group's display scale
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
SET enable_hashjoin = off;
SET enable_mergejoin = off;
EXPLAIN (COSTS OFF) SELECT sc_g, sum(coalesce(sc_v, 0)) FROM jscale GROUP BY 1;
SELECT * FROM same($$SELECT sc_g, sum(coalesce(sc_v, 0)), avg(coalesce(sc_v, 0)), count(coalesce(sc_v, 0)), count(*)
  FROM jscale GROUP BY 1$$);
SELECT * FROM same($$SELECT sc_g, sum(CASE WHEN sc_k LIKE 'PROMO%' THEN sc_v * (1 - sc_w * 0.001) ELSE 0 END),
  sum(CASE WHEN sc_g = 3 THEN 1.5 WHEN sc_g = 4 THEN sc_w WHEN sc_g = 5 THEN 0 END) FROM jscale GROUP BY 1$$);
SELECT * FROM same($$SELECT sc_g, avg(CASE sc_g WHEN 1 THEN sc_v WHEN 2 THEN 7 ELSE sc_w END) FROM jscale GROUP BY 1$$);
SELECT * FROM same($$SELECT sum(coalesce(sc_v, 0)), avg(CASE WHEN sc_g = 2 THEN sc_v ELSE 0 END) FROM jscale$$);
SELECT * FROM same($$SELECT 100.00 * sum(CASE WHEN it_kind LIKE 'k1%' THEN sa_amount * (1 - it_price * 0.01) ELSE 0 END)
  / sum(sa_amount * (1 - it_price * 0.01)) FROM jsale JOIN jitem ON it_id = sa_item WHERE sa_day < date '2020-02-01'$$);
SELECT * FROM same($$SELECT s_region, sum(CASE WHEN r_name = 'south' THEN sa_amount * sa_qty ELSE 0 END) / sum(sa_amount * sa_qty),
  sum(CASE WHEN r_name = 'east' THEN sa_amount END), avg(CASE WHEN r_name = 'north' THEN sa_amount * 2 ELSE 0 END)
  FROM jsale JOIN jstore ON s_id = sa_store JOIN jregion ON r_id = s_region GROUP BY 1$$);
RESET enable_hashjoin;
RESET enable_mergejoin;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
SET max_parallel_workers_per_gather = 0;
-- the page path's jobs sum a choice of several scales at the largest and
-- take the largest of their rows' own: grouped, not grouped, joined; a
-- NULL's branch's scale is not counted (sc_w is NULL where sc_id % 7 = 0:
-- those groups' sums show 0, as their ELSE's)
SET gpu_reduce.page_path = cpu;
SELECT page_path_of($$SELECT sc_g, sum(coalesce(sc_v, 0)) FROM jscale GROUP BY 1$$);
SELECT * FROM same($$SELECT sc_g, sum(coalesce(sc_v, 0)), avg(CASE WHEN sc_k LIKE 'PROMO%' THEN sc_v * sc_w ELSE 0 END)
  FROM jscale GROUP BY 1$$);
SELECT * FROM same($$SELECT sc_g, sum(CASE WHEN sc_id % 4 = 0 THEN sc_w ELSE 0 END),
  avg(CASE WHEN sc_id % 3 = 0 THEN sc_w * 2 WHEN sc_id % 3 = 1 THEN 1 END), count(*) FROM jscale WHERE sc_id % 7 = 0 GROUP BY 1$$);
SELECT * FROM same($$SELECT sum(CASE WHEN sc_id % 2 = 0 THEN sc_w ELSE 0 END), sum(CASE WHEN sc_g = 1 THEN sc_v ELSE 0.5 END)
  FROM jscale WHERE sc_id % 7 = 0$$);
SELECT page_path_of($$SELECT 100.00 * sum(CASE WHEN it_kind LIKE 'k1%' THEN sa_amount * (1 - it_price * 0.01) ELSE 0 END)
  / sum(sa_amount * (1 - it_price * 0.01)) FROM jsale JOIN jitem ON it_id = sa_item WHERE sa_day < date '2020-02-01'$$);
SELECT * FROM same($$SELECT 100.00 * sum(CASE WHEN it_kind LIKE 'k1%' THEN sa_amount * (1 - it_price * 0.01) ELSE 0 END)
  / sum(sa_amount * (1 - it_price * 0.01)) FROM jsale JOIN jitem ON it_id = sa_item WHERE sa_day < date '2020-02-01'$$);
SELECT * FROM same($$SELECT s_region, sum(CASE WHEN r_name = 'south' THEN sa_amount * sa_qty ELSE 0 END) / sum(sa_amount * sa_qty),
  sum(CASE WHEN r_name = 'east' THEN sa_amount END), avg(CASE WHEN r_name = 'north' THEN sa_amount * 2 ELSE 0 END)
  FROM jsale JOIN jstore ON s_id = sa_store JOIN jregion ON r_id = s_region GROUP BY 1$$);
RESET gpu_reduce.page_path;
-- a hashed relation read from its pages whose WHERE the page path's list
-- jobs apply first (cpu mode runs them as a GPU does): only the rows they
-- list are decoded again, each passing the WHERE again; jobs of 2 pages
-- (gpu_reduce.page_pins), a text value, rows a later relation leaves out,
-- the transaction's own changes (pages not all visible), and a listed
-- row's WHERE raising PostgreSQL's error (the program hands the row back)
CREATE TABLE jdim (d_id int4 PRIMARY KEY, d_grp int2, d_price numeric(10,2), d_label text, d_day date);
INSERT INTO jdim SELECT i, i % 7, (i % 300) / 4.0, 'label ' || (i % 13), date '2020-01-01' + (i % 400)
FROM generate_series(0, 5999) i;
VACUUM ANALYZE jdim;
SET gpu_reduce.page_path = cpu;
SET gpu_reduce.page_pins = 8;
SET enable_hashjoin = off;
SET enable_mergejoin = off;
SET enable_nestloop = off;
SELECT explain_analyze($$SELECT d_label, count(*), sum(sa_qty) FROM jsale JOIN jdim ON d_id = sa_item4
  WHERE d_day < date '2020-03-01' AND d_price * 2 > 20 GROUP BY 1$$);
SELECT * FROM same($$SELECT d_label, count(*), sum(sa_qty) FROM jsale JOIN jdim ON d_id = sa_item4
  WHERE d_day < date '2020-03-01' AND d_price * 2 > 20 GROUP BY 1$$);
SELECT * FROM same($$SELECT r_name, d_label, count(*), sum(sa_qty) FROM jsale JOIN jdim ON d_id = sa_item4
  JOIN jregion ON r_id = d_grp WHERE d_price < 50 AND d_label > 'label 5' GROUP BY 1, 2$$);
-- past a quarter of the rows listed, the later pages are read without the
-- jobs (here after 9 of its 43 pages: the first job done, 4 more taken)
SELECT explain_analyze($$SELECT d_label, count(*), sum(sa_qty) FROM jsale JOIN jdim ON d_id = sa_item4
  WHERE d_price >= 1 GROUP BY 1$$);
SELECT * FROM same($$SELECT d_label, count(*), sum(sa_qty) FROM jsale JOIN jdim ON d_id = sa_item4
  WHERE d_price >= 1 GROUP BY 1$$);
BEGIN;
UPDATE jdim SET d_price = d_price + 100, d_label = d_label || ' (updated)' WHERE d_id % 50 = 0;
DELETE FROM jdim WHERE d_id % 97 = 0;
INSERT INTO jdim VALUES (7000, 1, 1.00, 'new', date '2020-01-05');
SELECT * FROM same($$SELECT d_label, count(*), sum(sa_qty) FROM jsale JOIN jdim ON d_id = sa_item4
  WHERE d_day < date '2020-03-01' AND d_price * 2 > 20 GROUP BY 1$$);
ROLLBACK;
EXPLAIN (COSTS OFF) SELECT count(*) FROM jsale JOIN jdim ON d_id = sa_item4 WHERE 100 / (d_id - 3000) > 0;
SELECT count(*) FROM jsale JOIN jdim ON d_id = sa_item4 WHERE 100 / (d_id - 3000) > 0;
SELECT count(*) FROM jsale JOIN jdim ON d_id = sa_item4 WHERE 100 / (d_id - 7000) > -1;
RESET enable_hashjoin;
RESET enable_mergejoin;
RESET enable_nestloop;
RESET gpu_reduce.page_pins;
RESET gpu_reduce.page_path;
DROP TABLE jdim;
-- what keeps PostgreSQL's plan, and why (the answers are PostgreSQL's)
CREATE FUNCTION why(q text) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
    line text;
    node boolean := false;
BEGIN
    SET LOCAL gpu_reduce.report_declines = on;
    FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
        node := node OR line LIKE '%GpuReduce%';
    END LOOP;
    RETURN node;
END $$;
SELECT why($$SELECT count(*) FROM jsale FULL JOIN jstore ON s_region = sa_qty$$);
SELECT why($$SELECT count(*), count(s_id) FROM jsale LEFT JOIN jstore ON s_id = sa_store AND sa_qty > 3$$);
SELECT why($$SELECT count(*) FROM jsale LEFT JOIN jstore ON s_id = sa_store WHERE s_rent IS NULL$$);
SELECT why($$SELECT count(*) FROM jstore LEFT JOIN jsale ON sa_store = s_id$$);
SELECT why($$SELECT sum(length(it_kind) * sa_qty) FROM jsale JOIN jitem ON it_id = sa_item$$);
SELECT why($$SELECT count(*) FROM jsale JOIN jstore ON s_id = sa_store AND s_name::text || 'x' = sa_id::text$$);
SELECT why($$SELECT count(*) FROM jsale JOIN jitem ON it_kind = sa_id::text$$);
SELECT why($$SELECT count(*) FROM jsale, jregion$$);
SELECT why($$SELECT count(*) FROM jsale WHERE EXISTS (SELECT 1 FROM jpromo WHERE pr_store = sa_store AND pr_day > sa_day)$$);
-- a marked join: a clause across its sides that is not a key (TPC-H Q21's
-- l2.l_suppkey <> l1.l_suppkey), an outer side of two relations
SELECT why($$SELECT count(*) FROM jpromo WHERE EXISTS (SELECT 1 FROM jsale WHERE sa_store = pr_store AND sa_item <> pr_item)$$);
SELECT why($$SELECT count(*) FROM jpromo JOIN jstore ON s_id = pr_store WHERE EXISTS (SELECT 1 FROM jsale WHERE sa_item = pr_item AND sa_qty = s_region)$$);
SET gpu_reduce.join_memory = 64;
SELECT why($$SELECT count(*) FROM jsale a JOIN jsale b ON b.sa_id = a.sa_qty$$);
RESET gpu_reduce.join_memory;
DROP TABLE jsale, jstore, jitem, jregion, jpart, jpromo, jscale, jlabel;
DROP FUNCTION same(text);
DROP FUNCTION why(text);
DROP FUNCTION explain_analyze(text);
DROP FUNCTION page_path_of(text);
