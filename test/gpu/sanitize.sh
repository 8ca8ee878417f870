#!/usr/bin/env bash
# The page path's kernels under NVIDIA's compute-sanitizer, on a GPU host: the
# bundled PostgreSQL 15 of .gpuhost/ (in /tmp/pgs, apart from test/gpu_host.sh's)
# runs under `compute-sanitizer --target-processes all --tool TOOL`, so the GPU
# service (a background worker forked by the postmaster) launches every kernel
# under the tool; then sql/group_pages.sql runs with page_path = on (grouping
# jobs on the GPU: shared-memory copies, the job's hash table, atomics) and a
# few whole-table page-path queries.  TOOLS (default "memcheck racecheck"):
# each tool gets a server of its own.  The tool's report is in $OUT/TOOL.log;
# a tool that reports any error, or a query that fails, fails the run.
# (%p in the tool's log name is the tool's own process; its logs are joined into one.)
# Ends with "sanitize: PASSED" or "sanitize: FAILED".
# usage: bash test/gpu/sanitize.sh      (logs under $OUT or /tmp/sanitize)
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${OUT:-/tmp/sanitize}
dir=/tmp/pgs
tools=${TOOLS:-memcheck racecheck}
mkdir -p "$out"
cs=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
[ -x "$cs" ] || { echo "no compute-sanitizer"; echo "sanitize: FAILED"; exit 1; }

bash "$root/.gpuhost/start-pg.sh" "$dir" >/dev/null || exit 1
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
for tool in $tools; do
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
		"$root/sql/group_pages.sql" >"$out/group_pages-on.sql"
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
	run "$bin/pg_ctl -D $dir/data stop -m fast -w" >/dev/null
	wait $spid
	cat "$logs/$tool".[0-9]*.log >"$out/$tool.log" 2>/dev/null
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
echo "sanitize: $([ $fail = 0 ] && echo PASSED || echo FAILED)"
