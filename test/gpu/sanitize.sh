#!/usr/bin/env bash
# The page path's kernels under NVIDIA's compute-sanitizer, on a GPU host: the
# bundled PostgreSQL 15 of .gpuhost/ (in /tmp/pgs, apart from test/gpu_host.sh's)
# runs under `compute-sanitizer --target-processes all --tool TOOL`, so the GPU
# service (a background worker forked by the postmaster) launches every kernel
# under the tool; then sql/group_pages.sql runs with page_path = on (grouping
# jobs on the GPU: shared-memory copies, the job's hash table, atomics) and a
# few whole-table page-path queries, then 4 concurrent sessions of
# whole-table and grouped gpu_* queries (80 statements against native answers:
# several scans' jobs and GROUP BY tables in the service at once), then a join
# (a table hashed from its pages, probed by the jobs; again with its WHERE run by list jobs,
# values jobs that bring the kept rows' columns back) and a GROUP BY whose
# HAVING the GPU's scan table decides, against native.
# SANITIZE_PARALLEL=1 adds the same with parallel workers (the bulk scan's
# Parallel Custom Scan under Gather): under the tool PostgreSQL 15's
# postmaster dies of a double free once it starts parallel workers, with or
# without gpu_reduce (test/gpu/sanitize_control.sh), so that is off by
# default.  TOOLS (default
# "memcheck racecheck synccheck"): each tool gets a server of its own, RUNS
# times (default 1) in a row; GROUP_SQL: another file than sql/group_pages.sql.  The tool's report is in $OUT/TOOL.RUN.log; a
# tool that reports any error, a query that fails, or a server that does not
# stop cleanly fails the run.
# (%p in the tool's log name is the tool's own process; its logs are joined into one.)
# Ends with "sanitize: PASSED" or "sanitize: FAILED".
# usage: bash test/gpu/sanitize.sh      (logs under $OUT or /tmp/sanitize)
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${OUT:-/tmp/sanitize}
dir=/tmp/pgs
tools=${TOOLS:-memcheck racecheck synccheck}
runs=${RUNS:-1}
mkdir -p "$out"
cs=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
[ -x "$cs" ] || { echo "no compute-sanitizer"; echo "sanitize: FAILED"; exit 1; }

# a server (and its tool) left by an earlier, interrupted run goes first
pkill -f "compute-sanitizer.*$dir/data" 2>/dev/null && sleep 2
pkill -9 -f "postgres -D $dir/data" 2>/dev/null
rm -f "$dir/data/postmaster.pid"
bash "$root/test/gpu/start-pg.sh" "$dir" >/dev/null || exit 1
source "$dir/pgroot/activate.sh"
bin=$(pg_config --bindir)
run() { su pgrun -c "export LD_LIBRARY_PATH=$LD_LIBRARY_PATH; $*"; }
run "$bin/pg_ctl -D $dir/data stop -m fast -w" >/dev/null
install -m 755 "${GPU_REDUCE_SO:-$root/.gpubuild/gpu_reduce.so}" "$(pg_config --pkglibdir)/gpu_reduce.so"
install -m 644 "$root/gpu_reduce.control" "$root"/gpu_reduce--*.sql "$(pg_config --sharedir)/extension/"
# the tool runs as pgrun, which may not write under $OUT (root's): its logs go here first
logs=$dir/cslog
mkdir -p "$logs" && chown pgrun "$logs"
source "$root/test/gpu/server.sh"		# psql_, gpu_server_wait
fail=0
for run in $(seq 1 "$runs"); do
for tool in $tools; do
	echo "== $tool, run $run of $runs"
	# the postmaster in the foreground of a background shell, under the tool
	# memcheck also lists the device memory left allocated at exit (the service frees none when
	# it is stopped): proof that the tool followed the service, which launches every kernel
	extra=""
	[ "$tool" = memcheck ] && extra="--leak-check full"
	su pgrun -c "export LD_LIBRARY_PATH=$LD_LIBRARY_PATH; exec $cs --tool $tool $extra --target-processes all \
		--log-file $logs/$tool.%p.log --print-limit 50 $bin/postgres -D $dir/data -k $dir/sock \
		-c listen_addresses='' -c shared_preload_libraries=gpu_reduce -c shared_buffers=1GB \
		-c gpu_reduce.min_gpu_rows=1 -c max_worker_processes=16" >"$out/$tool.server.log" 2>&1 &
	spid=$!
	for t in $(seq 1 240); do
		psql_ -At -c "SELECT 1" >/dev/null 2>&1 && break
		sleep 0.5
	done
	gpu_server_wait
	sed -e "s/^SET gpu_reduce.page_path = cpu;/SET gpu_reduce.page_path = on;/" \
		-e "s/^SET gpu_reduce.page_pins = 64;/SET gpu_reduce.page_pins = 256;/" \
		"${GROUP_SQL:-$root/sql/group_pages.sql}" >"$out/group_pages-on.sql"
	# a file without group_pages.sql's last lines (GROUP_SQL) leaves its objects: drop them
	psql_ -q -c "SET client_min_messages = warning" -c "DROP TABLE IF EXISTS gpk" \
		-c "DROP FUNCTION IF EXISTS gpq(text), gptext(text, boolean), gpnode(text)"
	psql_ -a -f "$out/group_pages-on.sql" >"$out/$tool.group_pages.out" 2>&1
	grep -q ERROR "$out/$tool.group_pages.out" && { echo "$tool: a query failed"; grep ERROR "$out/$tool.group_pages.out" | head; fail=1; }
	grep -nE "^ [a-z]+ +\| f " "$out/$tool.group_pages.out" && { echo "$tool: an answer differs"; fail=1; }
	ngpu=$(grep -cE "^ gpu +\|" "$out/$tool.group_pages.out")
	echo "$tool: $ngpu grouped queries on the GPU"
	[ "$ngpu" -gt 0 ] || fail=1
	psql_ -At -c "CREATE TABLE IF NOT EXISTS san_t AS SELECT i::int8 AS x, (i % 1000)::float8 / 8 AS f,
			(i % 100)::numeric(10,2) AS p FROM generate_series(1, 200000) i" \
		-c "SET max_parallel_workers_per_gather = 0" \
		-c "SELECT gpu_sum(x) = sum(x), gpu_sum(f) = sum(f), gpu_max(x) = max(x), gpu_sum(p * 2) = sum(p * 2)
			FROM san_t WHERE x % 3 <> 0" >"$out/$tool.plain.out" 2>&1
	grep -qx 't|t|t|t' "$out/$tool.plain.out" || { echo "$tool: whole-table answers:"; cat "$out/$tool.plain.out"; fail=1; }
	# concurrent sessions: several scans' jobs in the service at once, each backend with its own
	# GROUP BY table; 4 sessions, 10 whole-table and 10 grouped statements each, against native
	# answers made first under PostgreSQL's plan
	psql_ -qAt -c "SET client_min_messages = warning" -c "CREATE TABLE IF NOT EXISTS san_p AS
			SELECT i::int8 AS x, (i % 977)::float8 / 8 AS f, (i % 1000)::int4 AS k
			FROM generate_series(1, 400000) i" -c "SET gpu_reduce.bulk_scan = off" \
		-c "DROP TABLE IF EXISTS san_ref, san_gref" \
		-c "CREATE TABLE san_ref AS SELECT sum(x) sx, avg(f) af, sum(f) sf FROM san_p" \
		-c "CREATE TABLE san_gref AS SELECT k, sum(x) s, sum(f) sf, count(*) c FROM san_p GROUP BY k"
	cq=()
	for i in $(seq 1 10); do
		cq+=(-c "SELECT (SELECT gpu_sum(x) FROM san_p) = sx AND (SELECT gpu_avg(f) FROM san_p) = af
			AND (SELECT gpu_sum(f) FROM san_p) = sf AND (SELECT gpu_top2(k) FROM san_p) = ARRAY[999, 999]
			FROM san_ref")
		cq+=(-c "SELECT count(*) FROM (SELECT k, gpu_sum(x) s, gpu_sum(f) sf, count(*) c FROM san_p GROUP BY k) q
			JOIN san_gref n USING (k) WHERE q.s = n.s AND q.sf = n.sf AND q.c = n.c")
	done
	# (wait for these four alone: the server under the tool is a child of this shell too)
	cpids=()
	for c in 1 2 3 4; do
		psql_ -qAt -c "SET max_parallel_workers_per_gather = 0" "${cq[@]}" >"$out/$tool.concurrent.$c.out" 2>&1 &
		cpids+=($!)
	done
	wait "${cpids[@]}"
	psql_ -qAt -c "SET max_parallel_workers_per_gather = 0" \
		-c "EXPLAIN (COSTS OFF) SELECT k, gpu_sum(x) FROM san_p GROUP BY k" \
		-c "EXPLAIN (COSTS OFF) SELECT gpu_sum(x) FROM san_p" >"$out/$tool.concurrent.plan" 2>&1
	nc=$(cat "$out/$tool".concurrent.[1-4].out | grep -cxE 't|1000')
	echo "$tool: $nc of 80 concurrent statements gave native's answers"
	[ "$(grep -c "Custom Scan (GpuReduce)" "$out/$tool.concurrent.plan")" = 2 ] && [ "$nc" = 80 ] ||
		{ echo "$tool: concurrent answers or plans:"; cat "$out/$tool".concurrent.*; fail=1; }
	# a join (a table hashed from its pages, probed by the page jobs' kernels), the same with
	# the hashed table's WHERE run by a list job, and a GROUP BY
	# whose HAVING the GPU's scan table decides (the checks' kernel, select and gather), each
	# against native's plan (FILTER keeps it) in one statement
	psql_ -qAt -c "SET client_min_messages = warning" \
		-c "CREATE TABLE IF NOT EXISTS san_d AS SELECT i AS d, i % 7 AS g FROM generate_series(0, 999) i" \
		-c "ANALYZE san_d" -c "ANALYZE san_p" -c "SET max_parallel_workers_per_gather = 0" \
		-c "SELECT (SELECT string_agg(g || ':' || s || ':' || c, ',' ORDER BY g) FROM (SELECT g, sum(x) s, count(*) c
				FROM san_p JOIN san_d ON d = k WHERE x % 5 <> 0 GROUP BY g) q)
			= (SELECT string_agg(g || ':' || s || ':' || c, ',' ORDER BY g) FROM (SELECT g, sum(x) FILTER (WHERE true) s,
				count(*) FILTER (WHERE true) c FROM san_p JOIN san_d ON d = k WHERE x % 5 <> 0 GROUP BY g) n)" \
		-c "SELECT (SELECT string_agg(g || ':' || s || ':' || c, ',' ORDER BY g) FROM (SELECT g, sum(x) s, count(*) c
				FROM san_p JOIN san_d ON d = k WHERE d % 10 = 3 AND g < 5 GROUP BY g) q)
			= (SELECT string_agg(g || ':' || s || ':' || c, ',' ORDER BY g) FROM (SELECT g, sum(x) FILTER (WHERE true) s,
				count(*) FILTER (WHERE true) c FROM san_p JOIN san_d ON d = k WHERE d % 10 = 3 AND g < 5 GROUP BY g) n)" \
		-c "EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) SELECT g, sum(x) s, count(*) c FROM san_p JOIN san_d ON d = k
				WHERE d % 10 = 3 AND g < 5 GROUP BY g" \
		-c "SELECT (SELECT string_agg(k || ':' || s, ',' ORDER BY k) FROM (SELECT k, sum(x) s FROM san_p
				GROUP BY k HAVING sum(x) > 80100000) q)
			= (SELECT string_agg(k || ':' || s, ',' ORDER BY k) FROM (SELECT k, sum(x) FILTER (WHERE true) s
				FROM san_p GROUP BY k HAVING sum(x) FILTER (WHERE true) > 80100000) n)" \
		-c "EXPLAIN (COSTS OFF) SELECT g, sum(x) s, count(*) c FROM san_p JOIN san_d ON d = k WHERE x % 5 <> 0 GROUP BY g" \
		-c "EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) SELECT k, sum(x) s FROM san_p GROUP BY k HAVING sum(x) > 80100000" \
		>"$out/$tool.joins.out" 2>&1
	[ "$(grep -cx t "$out/$tool.joins.out")" = 3 ] && grep -q "Hashed: san_d" "$out/$tool.joins.out" &&
		grep -Eq "Pages Filtered by Jobs: [1-9]" "$out/$tool.joins.out" &&
		grep -Eq "Rows Kept by Jobs: [1-9]" "$out/$tool.joins.out" &&
		grep -Eq "Groups Collected and Rejected by HAVING: [1-9]" "$out/$tool.joins.out" &&
		echo "$tool: the joins (one through list jobs) and the HAVING decided on the GPU's table gave native's answers" ||
		{ echo "$tool: join or HAVING answers or plans:"; cat "$out/$tool.joins.out"; fail=1; }
	# parallel workers (SANITIZE_PARALLEL=1): each its own jobs (and grouped, its own GROUP BY
	# table), Gather over them; each statement 10 times.  Under the tool PostgreSQL 15's
	# postmaster dies of a double free once it starts parallel workers, with or without
	# gpu_reduce (test/gpu/sanitize_control.sh, bench/pg/results/sanitize-control/), so these
	# are not run by default
	if [ "${SANITIZE_PARALLEL:-0}" = 1 ]; then
	pq=()
	for i in $(seq 1 10); do
		pq+=(-c "SELECT gpu_sum(x) = sum(x) AND gpu_avg(f) = avg(f) AND gpu_sum(f) = sum(f)
			AND gpu_top2(k) = ARRAY[999, 999] FROM san_p")
		pq+=(-c "SELECT count(*) FROM (SELECT k, gpu_sum(x) s, gpu_sum(f) sf, count(*) c FROM san_p GROUP BY k) q
			JOIN (SELECT k, sum(x) s, sum(f) sf, count(*) c FROM san_p GROUP BY k) n
			USING (k) WHERE q.s = n.s AND q.sf = n.sf AND q.c = n.c")
	done
	psql_ -qAt -c "SET client_min_messages = warning" -c "CREATE TABLE IF NOT EXISTS san_p AS
			SELECT i::int8 AS x, (i % 977)::float8 / 8 AS f, (i % 1000)::int4 AS k
			FROM generate_series(1, 400000) i" \
		-c "SET parallel_setup_cost = 0" -c "SET parallel_tuple_cost = 0" \
		-c "SET min_parallel_table_scan_size = 0" -c "SET max_parallel_workers_per_gather = 4" \
		"${pq[@]}" -c "EXPLAIN (COSTS OFF) SELECT gpu_sum(x), gpu_avg(f), gpu_top2(k) FROM san_p" \
		>"$out/$tool.parallel.out" 2>&1
	np=$(grep -cxE 't|1000' "$out/$tool.parallel.out")
	echo "$tool: $np of 20 parallel statements gave native's answers"
	grep -q "Parallel Custom Scan (GpuReduce)" "$out/$tool.parallel.out" && [ "$np" = 20 ] ||
		{ echo "$tool: parallel answers or plan:"; head -40 "$out/$tool.parallel.out"; fail=1; }
	fi
	run "$bin/pg_ctl -D $dir/data stop -m fast -w" >/dev/null || { echo "$tool: the server did not stop"; fail=1; }
	wait $spid
	grep -E "PANIC|terminated by signal|double free|was terminated" "$out/$tool.server.log" &&
		{ echo "$tool: a process crashed"; fail=1; }
	cat "$logs/$tool".[0-9]*.log >"$out/$tool.log" 2>/dev/null
	cp "$out/$tool.log" "$out/$tool.$run.log"
	rm -f "$logs/$tool".[0-9]*.log
	# the tool's summary: "ERROR SUMMARY: 0 errors" (racecheck: "RACECHECK SUMMARY: 0 hazards")
	grep -hE "SUMMARY" "$out/$tool.log" | sort | uniq -c
	if [ "$tool" = memcheck ]; then
		leaks=$(grep -c "Leaked" "$out/$tool.log")
		echo "memcheck: $leaks device allocations left at the service's exit (the tool followed it)"
		[ "$leaks" -gt 0 ] || fail=1
	fi
	# leaks are the stopped service's, not errors of a kernel
	if grep -hE "SUMMARY: [1-9]" "$out/$tool.log" >/dev/null &&
		grep -vE "Leaked|Saved host backtrace|Host Frame|^=+ *$|COMPUTE-SANITIZER|SUMMARY|LEAK" "$out/$tool.log" | grep -q .; then
		echo "$tool reported errors:"
		grep -vE "^=+ *$" "$out/$tool.log" | head -60
		fail=1
	fi
	grep -q "SUMMARY" "$out/$tool.log" || { echo "$tool: no summary (did the tool see the service?)"; fail=1; }
done
done
echo "sanitize: $([ $fail = 0 ] && echo PASSED || echo FAILED)"
