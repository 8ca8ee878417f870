# bench/tpch/pins_ab.sh -- sourced by gpu_run.sh (TPCH_AFTER) with the server
# up and lineitem, lineitem_f loaded: what the page path's held pins
# (src/held_pins.c) save, against the same pins kept through PostgreSQL's
# buffer manager (gpu_reduce.debug_buffer_manager_pins), both in the same
# run, each run a fresh session, the two ways alternating.  CSV lines
#   probe,pins,run,value
# walk: bench/floor's gr_pin_walk over lineitem holding 8192 pins (variant 2,
# the buffer manager's pins; 4, held pins): ns a page of the backend's work
# alone; floor: the zero-copy floor (debug_page_read_only) of lineitem_f,
# serial, ms; q6f: Q6 over float8 with gpu_sum, serial, ms.  Then the
# medians, one line per probe and way.
ab_runs=${AB_RUNS:-9}
make -s -C "$root/bench/floor" PG_CONFIG="$(command -v pg_config)" with_llvm=no install >/dev/null
tpch_psql -X -q -c "CREATE EXTENSION IF NOT EXISTS gpu_reduce_floor" -c "CREATE EXTENSION IF NOT EXISTS pg_buffercache"
ab_dir=$(mktemp -d /tmp/pinsab.XXXX)
chmod 755 "$ab_dir"
echo "SELECT gpu_sum(l_orderkey) FROM lineitem_f;" > "$ab_dir/floor.sql"
cp "$TPCH_SQL/q6f_gpu.sql" "$ab_dir/q6f.sql"
chmod 644 "$ab_dir"/*.sql
ab_set() {	# buffer_manager|held
	echo "SET max_parallel_workers_per_gather = 0; SET gpu_reduce.debug_buffer_manager_pins = $([ "$1" = held ] && echo off || echo on)"
}
echo "probe,pins,run,value" | tee "$out/pins-ab.csv"
for ((r = 1; r <= ab_runs; r++)); do
	for way in buffer_manager held; do
		v=$([ $way = held ] && echo 4 || echo 2)
		ns=$(tpch_psql -X -At -c "SELECT gr_pin_walk('lineitem', $v, 8192)" | sed 's/.*, \([0-9]*\) ns a page/\1/')
		echo "walk,$way,$r,$ns" | tee -a "$out/pins-ab.csv"
	done
	for probe in floor q6f; do
		for way in buffer_manager held; do
			set_ro=""
			[ $probe = floor ] && set_ro="; SET gpu_reduce.debug_page_read_only = on"
			x=$(tpch_one "$(ab_set $way)$set_ro" "$ab_dir/$probe.sql")
			echo "$probe,$way,$r,${x%%|*}" | tee -a "$out/pins-ab.csv"
		done
	done
done
echo "probe,pins,median" | tee "$out/pins-ab-medians.csv"
for probe in walk floor q6f; do
	for way in buffer_manager held; do
		m=$(grep "^$probe,$way," "$out/pins-ab.csv" | cut -d, -f4 | tpch_median)
		echo "$probe,$way,$m" | tee -a "$out/pins-ab-medians.csv"
	done
done
tpch_psql -X -At -c "SELECT count(*) AS pinned_buffers_left FROM pg_buffercache WHERE pinning_backends > 0" 2>&1 |
	sed 's/^/# pinned buffers left: /' | tee -a "$out/pins-ab-medians.csv"
stamp "pins a/b"
