# bench/tpch/q6f_diag.sh -- sourced by gpu_run.sh (TPCH_AFTER) with the
# server up and lineitem, lineitem_f loaded: where Q6 over float8 spends the
# time Q6 over numeric does not.  Each probe in fresh sessions, median of
# DIAG_RUNS, the node only (gpu_reduce.bulk_scan on), one CSV line each:
#   probe,table,ms
# floor: the zero-copy floor (debug_page_read_only: pages pinned and read,
# nothing decoded); count: Q6's WHERE with count(*) (decode and filter,
# nothing summed); int: gpu_sum(l_orderkey) under Q6's WHERE; q6: Q6 itself
# (gpu_sum of the product).  Then EXPLAIN ANALYZE of each probe, and the
# server's huge pages.
diag_runs=${DIAG_RUNS:-5}
diag_where="where l_shipdate >= date '1994-01-01'
  and l_shipdate < date '1994-01-01' + interval '1' year
  and l_discount between 0.06 - 0.01 and 0.06 + 0.01 and l_quantity < 24"
diag_dir=$(mktemp -d /tmp/q6diag.XXXX)
chmod 755 "$diag_dir"
for t in lineitem lineitem_f; do
	echo "SELECT gpu_sum(l_orderkey) FROM $t;" > "$diag_dir/floor_$t.sql"
	echo "SELECT count(*) FROM $t $diag_where;" > "$diag_dir/count_$t.sql"
	echo "SELECT gpu_sum(l_orderkey) FROM $t $diag_where;" > "$diag_dir/int_$t.sql"
	echo "SELECT gpu_sum(l_extendedprice * l_discount) FROM $t $diag_where;" > "$diag_dir/q6_$t.sql"
done
chmod 644 "$diag_dir"/*.sql
# the floor probe reads the pages and decodes nothing
diag_setting() { [ "$1" = floor ] && echo "SET gpu_reduce.debug_page_read_only = on" || true; }
echo "probe,table,ms" | tee "$out/diag.csv"
for probe in floor count int q6; do
	for t in lineitem lineitem_f; do
		set_ro=$(diag_setting "$probe")
		ts=()
		for ((r = 0; r < diag_runs; r++)); do
			x=$(tpch_one "SET max_parallel_workers_per_gather = 0${set_ro:+; $set_ro}" "$diag_dir/${probe}_$t.sql")
			ts+=("${x%%|*}")
		done
		echo "$probe,$t,$(printf '%s\n' "${ts[@]}" | tpch_median)" | tee -a "$out/diag.csv"
	done
done
for probe in floor count int q6; do
	for t in lineitem lineitem_f; do
		set_ro=$(diag_setting "$probe")
		tpch_psql -X -c "SET max_parallel_workers_per_gather = 0" ${set_ro:+-c "$set_ro"} \
			-c "EXPLAIN (ANALYZE, VERBOSE, COSTS OFF) $(cat "$diag_dir/${probe}_$t.sql")"
	done
done > "$out/diag-explain.txt" 2>&1
grep -i huge /proc/meminfo > "$out/diag-hugepages.txt"
grep "Execution Time\|GPU Wait\|Pages Read\|Found by Hint\|GPU Batches" "$out/diag-explain.txt"
stamp "diagnosed"
