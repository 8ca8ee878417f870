#!/usr/bin/env bash
# Whose is the postmaster's "double free" under compute-sanitizer (issue 27)?
# On a GPU host: the bundled PostgreSQL 15 of .gpuhost/ (in /tmp/pgc, apart
# from the other scripts' servers) runs under
#   compute-sanitizer --tool memcheck --target-processes all postgres ...
# as test/gpu/sanitize.sh runs it, and a session runs STATEMENTS (default
# 120) parallel aggregates, Gather over 4 workers, on a 400 000-row table,
# in one of three setups:
#   none     no gpu_reduce anywhere: shared_preload_libraries empty, native
#            sum/avg/max only (no code of ours in any process)
#   unused   gpu_reduce preloaded, the same native queries with
#            gpu_reduce.enabled = off (our library loaded in every process,
#            its GPU service running, none of our code in the queries)
#   ours     gpu_reduce preloaded, gpu_sum/gpu_avg/gpu_top2 through the
#            node's Parallel Custom Scan (what sanitize.sh runs)
# each RUNS times (default 3).  Prints, per setup and run, how many statements
# answered and whether a process died (the server log's "double free",
# "terminated by signal", "exited during a parallel transaction"), then one
# line per setup: "SETUP: N of RUNS runs crashed".  SETUPS picks setups.
# usage: bash test/gpu/sanitize_control.sh      (logs under $OUT or /tmp/sanitize_control)
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${OUT:-/tmp/sanitize_control}
dir=/tmp/pgc
setups=${SETUPS:-none unused ours}
runs=${RUNS:-3}
nstat=${STATEMENTS:-120}
mkdir -p "$out"
cs=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
[ -x "$cs" ] || { echo "no compute-sanitizer"; exit 1; }

pkill -f "compute-sanitizer.*$dir/data" 2>/dev/null && sleep 2
pkill -9 -f "postgres -D $dir/data" 2>/dev/null
rm -f "$dir/data/postmaster.pid"
bash "$root/test/gpu/start-pg.sh" "$dir" >/dev/null || exit 1
source "$dir/pgroot/activate.sh"
bin=$(pg_config --bindir)
su pgrun -c "export LD_LIBRARY_PATH=$LD_LIBRARY_PATH; $bin/pg_ctl -D $dir/data stop -m fast -w" >/dev/null
install -m 755 "${GPU_REDUCE_SO:-$root/.gpubuild/gpu_reduce.so}" "$(pg_config --pkglibdir)/gpu_reduce.so"
install -m 644 "$root/gpu_reduce.control" "$root"/gpu_reduce--*.sql "$(pg_config --sharedir)/extension/"
logs=$dir/cslog
mkdir -p "$logs" && chown pgrun "$logs"
psql_() { psql -h "$dir/sock" -U postgres -X "$@"; }

# the statements of a setup, one -c each
statements() {
	local i
	for i in $(seq 1 "$nstat"); do
		case $1 in
		ours) echo "SELECT gpu_sum(x) = 80000200000 AND gpu_avg(f) > 0 AND gpu_top2(k) = ARRAY[999, 999] FROM san_p" ;;
		*) echo "SELECT sum(x) = 80000200000 AND avg(f) > 0 AND max(k) = 999 FROM san_p" ;;
		esac
	done
}

for setup in $setups; do
	crashed=0
	for run in $(seq 1 "$runs"); do
		preload=gpu_reduce
		[ "$setup" = none ] && preload=""
		rm -f "$logs"/*.log
		su pgrun -c "export LD_LIBRARY_PATH=$LD_LIBRARY_PATH; exec $cs --tool memcheck --target-processes all \
			--log-file $logs/memcheck.%p.log --print-limit 50 $bin/postgres -D $dir/data -k $dir/sock \
			-c listen_addresses='' -c shared_preload_libraries='$preload' -c shared_buffers=1GB \
			-c max_worker_processes=16" >"$out/$setup.$run.server.log" 2>&1 &
		spid=$!
		for t in $(seq 1 240); do
			psql_ -At -c "SELECT 1" >/dev/null 2>&1 && break
			sleep 0.5
		done
		opts=(-c "SET client_min_messages = warning")
		[ "$setup" = ours ] && psql_ -q -c "CREATE EXTENSION IF NOT EXISTS gpu_reduce"
		[ "$setup" = unused ] && opts+=(-c "SET gpu_reduce.enabled = off")
		psql_ -q -c "CREATE TABLE IF NOT EXISTS san_p AS SELECT i::int8 AS x, (i % 977)::float8 / 8 AS f,
			(i % 1000)::int4 AS k FROM generate_series(1, 400000) i"
		args=()
		while IFS= read -r s; do args+=(-c "$s"); done < <(statements "$setup")
		psql_ -At "${opts[@]}" -c "SET parallel_setup_cost = 0" -c "SET parallel_tuple_cost = 0" \
			-c "SET min_parallel_table_scan_size = 0" -c "SET max_parallel_workers_per_gather = 4" \
			-c "EXPLAIN (COSTS OFF) $(statements "$setup" | head -1)" "${args[@]}" \
			>"$out/$setup.$run.out" 2>&1
		nt=$(grep -cx 't' "$out/$setup.$run.out")
		plan=$(grep -oE "Parallel (Seq|Custom) Scan[^ ]*( \(GpuReduce\))?" "$out/$setup.$run.out" | head -1)
		su pgrun -c "export LD_LIBRARY_PATH=$LD_LIBRARY_PATH; $bin/pg_ctl -D $dir/data stop -m fast -w" >/dev/null 2>&1
		wait $spid
		died=no
		grep -qE "double free|terminated by signal|exited during a parallel transaction|PANIC" \
			"$out/$setup.$run.server.log" && died=yes
		[ $died = yes ] && crashed=$((crashed + 1))
		cat "$logs"/memcheck.*.log >"$out/$setup.$run.memcheck.log" 2>/dev/null
		echo "$setup run $run: $nt of $nstat statements answered true ($plan); process died: $died;" \
			"memcheck: $(grep -h 'ERROR SUMMARY' "$out/$setup.$run.memcheck.log" | sort | uniq -c | tr -s ' ' | tr '\n' ';')"
		grep -hE "double free|terminated by signal|exited during" "$out/$setup.$run.server.log" | head -3
	done
	echo "$setup: $crashed of $runs runs crashed"
done
