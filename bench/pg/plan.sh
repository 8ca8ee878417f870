# bench/pg/plan.sh -- what the planner and executor did with a query (source it; needs pgb_session).
#
# Runs the query under EXPLAIN (FORMAT JSON) in its own session, with ANALYZE
# when asked (the GROUP BY cases: it executes the query once more), and reads
# from the plan, summed over the leader and every parallel worker:
#   workers   parallel workers launched (ANALYZE) or planned: 0 means the
#             planner chose a serial plan even where workers were allowed
#   strategy  the grouping aggregate's strategy (Hashed, Sorted, Mixed; Plain if none)
#   peak_kb   HashAggregate "Peak Memory Usage" plus in-memory "Sort Space Used"
#   disk_kb   HashAggregate "Disk Usage" plus on-disk "Sort Space Used" (a spill)
#   node      GpuReduce when a Custom Scan (GpuReduce) is in the plan (the bulk
#             scan), else rows (PostgreSQL's per-row executor path)
#   gpu_b, cpu_b  that node's EXPLAIN ANALYZE "GPU Batches" / "CPU Batches",
#             summed over the participants (empty without ANALYZE or the node)
# The memory is what PostgreSQL accounts to the plan nodes, which includes the
# aggregates' transition states (gpu_reduce's batch buffers are palloc'd
# there); GPU slots live in shared memory and are not in it.  Without ANALYZE
# the memory fields are empty.

# The SQL that prints "@plan|workers|strategy|peak_kb|disk_kb|node|gpu_b|cpu_b" for QUERY; OPTIONS go into EXPLAIN (...).
pgb_plan_sql() {
	local query=$1 options=$2
	cat <<SQL
CREATE FUNCTION pg_temp.pgb_explain(q text) RETURNS jsonb LANGUAGE plpgsql AS \$f\$
DECLARE j json;
BEGIN
	EXECUTE 'EXPLAIN ($options FORMAT JSON) ' || q INTO j;
	RETURN j;
END \$f\$;
CREATE FUNCTION pg_temp.pgb_sum(j jsonb, path jsonpath) RETURNS bigint LANGUAGE sql AS
	\$f\$ SELECT sum((v #>> '{}')::numeric)::bigint FROM jsonb_path_query(j, path) v \$f\$;
SELECT '@plan',
	coalesce(pg_temp.pgb_sum(j, 'strict \$.**."Workers Launched"'), pg_temp.pgb_sum(j, 'strict \$.**."Workers Planned"'), 0),
	coalesce((SELECT string_agg(DISTINCT s #>> '{}', '+')
	          FROM jsonb_path_query(j, 'strict \$.**."Strategy"') s WHERE s #>> '{}' <> 'Plain'), 'Plain'),
	CASE WHEN j::text LIKE '%"Actual Rows"%' THEN
		coalesce(pg_temp.pgb_sum(j, 'strict \$.**."Peak Memory Usage"'), 0)
		+ coalesce(pg_temp.pgb_sum(j, 'strict \$.** ? (@."Sort Space Type" == "Memory")."Sort Space Used"'), 0) END,
	CASE WHEN j::text LIKE '%"Actual Rows"%' THEN
		coalesce(pg_temp.pgb_sum(j, 'strict \$.**."Disk Usage"'), 0)
		+ coalesce(pg_temp.pgb_sum(j, 'strict \$.** ? (@."Sort Space Type" == "Disk")."Sort Space Used"'), 0) END,
	coalesce((SELECT string_agg(DISTINCT s #>> '{}', '+')
	          FROM jsonb_path_query(j, 'strict \$.**."Custom Plan Provider"') s), 'rows'),
	pg_temp.pgb_sum(j, 'strict \$.**."GPU Batches"'),
	pg_temp.pgb_sum(j, 'strict \$.**."CPU Batches"')
FROM pg_temp.pgb_explain(\$pgbq\$$query\$pgbq\$) j;
SQL
}

# Print "workers strategy peak_kb disk_kb node gpu_b cpu_b" ("-" where unknown) for QUERY with WORKERS per gather; ANALYZE 1 runs it.
pgb_plan() {
	local query=$1 workers=$2 analyze=$3 options=
	[ "$analyze" = 1 ] && options="ANALYZE,"
	pgb_plan_sql "$query" "$options" | pgb_session "$workers" 2>&1 |
		awk -F'|' '/^@plan\|/ { for (i = 2; i <= 8; i++) if ($i == "") $i = "-"; print $2, $3, $4, $5, $6, $7, $8; found = 1 }
		           END { if (!found) print "- - - - - - -" }'
}
