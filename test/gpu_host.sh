#!/usr/bin/env bash
# The GPU-host proof of gpu_reduce's GPU back end.  For a machine with an
# NVIDIA GPU and no PostgreSQL: it starts the relocatable PostgreSQL 15 of
# shared/gpuhost (copied into the checkout as .gpuhost/; GPU_HOST_PG: another
# major, below), installs the
# extension (a carried build, .gpubuild/gpu_reduce.so or $GPU_REDUCE_SO, if
# present, else it builds one) and, with
# shared_preload_libraries = gpu_reduce and gpu_reduce.min_gpu_rows = 1:
#   1. runs the whole pg_regress suite unchanged (every batch on the GPU),
#      and the isolation specs of test/isolation;
#   2. runs test/gpu/gpu_only.sql, which checks with gpu_reduce_stats() that
#      the GPU reduced the batches, that cancel and statement_timeout
#      interrupt a GPU query, and that no slot leaks over 1000 queries;
#   3. runs 32 sessions at once, each checking its answers;
#   4. times gpu_sum(x) beside sum(x) over ROWS (default 50 M) rows held in
#      shared_buffers (pg_prewarm), serial and with 8 parallel workers, each
#      query in a fresh session, through the bulk scan's page path (the GPU
#      reads the pages), its CPU decoding and the per-row path; checks the
#      page path's answers, its fallback to the CPU when the GPU fails, and
#      answers (plain, GROUP BY, a join whose hashed table the writers change,
#      HAVING decided on the GPU's table) while writers change the pinned
#      pages (GPU_HOST_STRESS_S seconds, default 60); restarts with the buffer pool unregistered;
#      shows the bulk scan's
#      EXPLAIN ANALYZE counters (GPU and CPU batches); shows the
#      per-worker times; sweeps batch_rows (sweep.txt; GPU_HOST_SWEEP=0 skips
#      it, GPU_HOST_SWEEP=2 also sweeps min_gpu_rows for 1024 groups);
#      GPU_HOST_GROUPS=0 skips the 1 M-group GROUP BY.  As root, the server
#      gets huge pages (GPU_HOST_HUGEPAGES=0: not);
#   5. runs test/gpu/sanitize.sh: a server of its own under compute-sanitizer
#      (memcheck, racecheck, synccheck), the page path's kernels grouping,
#      whole-table and in 4 concurrent sessions (parallel workers only with
#      SANITIZE_PARALLEL=1: under the tool PostgreSQL 15's postmaster dies
#      when it starts them, gpu_reduce or not); every tool at 0 errors, no
#      process crashed (GPU_HOST_SANITIZE=0 skips it;
#      GPU_HOST_SANITIZE_RUNS=N runs the tools N times in a row).
# Another PostgreSQL major: GPU_HOST_PG=TARBALL, a tarball of
# test/gpuhost_pack.sh (17, 18, 19) carried into the checkout, e.g.
#   GPU_HOST_PG=.gpuhost/pg18.tar.xz GPU_REDUCE_SO=.gpubuild/pg18/gpu_reduce.so bash test/gpu_host.sh
#   GPU_HOST_PG=.gpuhost19/pg19.tar.xz GPU_REDUCE_SO=.gpubuild19/gpu_reduce.so bash test/gpu_host.sh
# (test/gpu/start-pg.sh unpacks it into /tmp/pg in place of another major's
# tree; the carried library must be built against the same major; without
# one the checkout is built here with the tarball's PGXS and this host's nvcc).
# A tarball packed from Debian's binaries (19) runs on the glibc it brings,
# through the link /tmp/.gr19 that its activate.sh makes (run as root).
# usage: bash test/gpu_host.sh [ROWS]     (logs under $OUT or /tmp/gpu_host)
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
rows=${1:-50000000}
out=${OUT:-/tmp/gpu_host}
dir=/tmp/pg
scratch=$(mktemp -d)	# per-session files that need not come back
# test/gpu/*.sh, run from here, start the same PostgreSQL
[ -z "${GPU_HOST_PG:-}" ] || export GPU_HOST_PG=$(realpath "$GPU_HOST_PG")
mkdir -p "$out"
fail=0

# a server left by an earlier run on this machine goes first
if [ -f "$dir/data/postmaster.pid" ]; then
	(source "$dir/pgroot/activate.sh" &&
		su pgrun -c "export LD_LIBRARY_PATH=$LD_LIBRARY_PATH; $(pg_config --bindir)/pg_ctl -D $dir/data stop -m fast" >/dev/null)
fi
bash "$root/test/gpu/start-pg.sh" "$dir" >/dev/null || exit 1
source "$dir/pgroot/activate.sh"
so=${GPU_REDUCE_SO:-$root/.gpubuild/gpu_reduce.so}
if [ -f "$so" ]; then
	install -m 755 "$so" "$(pg_config --pkglibdir)/gpu_reduce.so"
	install -m 644 "$root/gpu_reduce.control" "$root"/gpu_reduce--*.sql \
		"$(pg_config --sharedir)/extension/"
else
	make -C "$root" PG_CONFIG="$PG_CONFIG" >"$out/build.log" 2>&1 &&
		make -C "$root" PG_CONFIG="$PG_CONFIG" install >>"$out/build.log" 2>&1 ||
		{ tail -30 "$out/build.log"; exit 1; }
fi
opts="-k $dir/sock -c listen_addresses='' -c shared_preload_libraries=gpu_reduce"
opts="$opts -c gpu_reduce.min_gpu_rows=1 -c gpu_reduce.slots=128 -c shared_buffers=8GB -c max_connections=100"
opts="$opts -c max_worker_processes=32 -c max_parallel_workers=16"
# huge pages for shared_buffers where the host gives them (as root): a fresh
# backend then maps the buffer pool with a few faults, not one per 4 kB page
# it touches, which is most of the page path's serial time
if [ "$(id -u)" = 0 ] && [ "${GPU_HOST_HUGEPAGES:-1}" = 1 ]; then
	sysctl -qw vm.nr_hugepages=4200 2>/dev/null || true
	opts="$opts -c huge_pages=try"
fi
su pgrun -c "export LD_LIBRARY_PATH=$LD_LIBRARY_PATH; $(pg_config --bindir)/pg_ctl -D $dir/data -l $dir/log/server.log -o \"$opts\" restart -w" >/dev/null ||
	{ tail -30 "$dir/log/server.log"; exit 1; }
nvidia-smi --query-gpu=name,memory.used --format=csv
grep -E "HugePages_(Total|Free)" /proc/meminfo
psql_() { psql -h "$dir/sock" -U postgres -X -q "$@"; }
# the milliseconds of each '\timing on' line on stdin
ms_of() { sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p'; }

echo "== devices (waiting for the GPU service to open them)"
psql_ -c "CREATE EXTENSION IF NOT EXISTS gpu_reduce" >/dev/null
for t in $(seq 1 60); do
	psql_ -At -c "SELECT count(*) FROM gpu_reduce_slots()" >/dev/null 2>&1 &&
		psql_ -At -c "SET client_min_messages = warning; SELECT count(*) FROM gpu_reduce_devices()" 2>/dev/null |
		grep -qv '^0$' && break
	sleep 0.5
done
psql_ -c "CREATE EXTENSION IF NOT EXISTS gpu_reduce" -c "SELECT * FROM gpu_reduce_devices()" | tee "$out/devices.txt"
grep -q "buffer pool registered" "$out/devices.txt" || { echo "the buffer pool is not registered"; fail=1; }

echo "== 1. pg_regress suite, every batch on the GPU"
tests=$(cd "$root/sql" && ls *.sql | sed 's/\.sql$//' | sort)
"$(dirname "$(pg_config --pgxs)")/../test/regress/pg_regress" \
	--bindir="$(pg_config --bindir)" --inputdir="$root" --outputdir="$scratch/regress" \
	--host="$dir/sock" --user=postgres --load-extension=gpu_reduce $tests ||
	{ fail=1; cp "$scratch/regress/regression.diffs" "$out/" 2>/dev/null; head -100 "$out/regression.diffs"; }

echo "== 1b. isolation specs (the bulk scan against concurrent writers)"
"$(dirname "$(pg_config --pgxs)")/../test/isolation/pg_isolation_regress" \
	--bindir="$(pg_config --bindir)" --inputdir="$root/test/isolation" --outputdir="$scratch/isolation" \
	--host="$dir/sock" --user=postgres --load-extension=gpu_reduce --dbname=isolation_regression \
	$(cd "$root/test/isolation/specs" && ls *.spec | sed 's/\.spec$//' | sort) ||
	{ fail=1; cat "$scratch/isolation/regression.diffs" 2>/dev/null | head -100; }

# From here on (new sessions of the database postgres) "native" means
# PostgreSQL's own plan: the node would otherwise
# take sum(), max() ... too (gpu_reduce.native_aggregates, 1.3), and the
# comparisons and timings below would set it against itself.
psql_ -c "ALTER DATABASE postgres SET gpu_reduce.native_aggregates = off"
echo "== 2. GPU-only checks"
psql_ -v ON_ERROR_STOP=1 -f "$root/test/gpu/gpu_only.sql" 2>&1 | tee "$out/gpu_only.log" || fail=1
grep -q "gpu_only: all checks passed" "$out/gpu_only.log" || fail=1
# the injected failures: many fallbacks, one WARNING for the session
warned=$(grep -c "WARNING:  GPU reduction failed, reducing on the CPU" "$out/gpu_only.log")
echo "fallback WARNINGs in the session: $warned (want 1)"
[ "$warned" = 1 ] || fail=1

echo "== 3. 32 concurrent sessions"
psql_ -c "DROP TABLE IF EXISTS conc_t" -c "CREATE TABLE conc_t AS
	SELECT (i::int8 * 7919 % 1000003 - 500000)::int8 AS x, (i % 1000 - 500)::float8 * 0.125 AS f
	FROM generate_series(1, 3000000) i"
psql_ -c "CREATE EXTENSION IF NOT EXISTS gpu_reduce" 2>/dev/null
for i in $(seq 1 32); do
	psql_ -At -c "SELECT gpu_sum(x) = sum(x) AND gpu_max(f) = max(f) AND gpu_avg(x)::text = avg(x)::text
	              AND gpu_top2(x) = (SELECT array_agg(x ORDER BY x DESC) FROM (SELECT x FROM conc_t ORDER BY x DESC LIMIT 2) s)
	              FROM conc_t" >"$scratch/concurrent.$i" 2>&1 &
done
wait
ok=$(cat "$scratch"/concurrent.* | grep -c '^t$')
echo "sessions with correct answers: $ok of 32; errors:"; grep -h ERROR "$scratch"/concurrent.* || true
[ "$ok" = 32 ] || fail=1
psql_ -c "SELECT * FROM gpu_reduce_slots() WHERE slots > 0"

echo "== service death: the GPU service is terminated during a query"
PGOPTIONS="-c max_parallel_workers_per_gather=0" psql_ -At \
	-c "SELECT gpu_sum(x) = sum(x) AND gpu_sum(f) = sum(f) AS correct FROM conc_t, generate_series(1, 20)" \
	-c "SELECT 'gpu_batches=' || gpu_batches || ' cpu_batches=' || cpu_batches || ' gpu_fallbacks=' || gpu_fallbacks FROM gpu_reduce_stats()" \
	>"$out/kill.out" 2>&1 &
qpid=$!
sleep 1
psql_ -At -c "SELECT 'terminated service: ' || pg_terminate_backend(pid) FROM pg_stat_activity WHERE backend_type = 'gpu_reduce service'"
wait $qpid
cat "$out/kill.out"
grep -q '^t$' "$out/kill.out" || fail=1
sleep 3
psql_ -At -c "SELECT 'service back with ' || count(*) || ' GPU(s)' FROM gpu_reduce_devices()"

# (the sums are selected: the planner drops an aggregate whose result is unused)
# (a float sum: the row path folds integer sums in place, with no GPU trip)
echo "== latency: one GPU round trip per group (1000 groups of 3 values, sorted aggregation)"
psql_ -c "SET enable_hashagg = off" -c "SET max_parallel_workers_per_gather = 0" -c '\timing on' \
	-c "SELECT count(*), sum(s) FROM (SELECT i / 3, gpu_sum(i::float8) s FROM generate_series(0, 2999) i GROUP BY 1) q" \
	-c "SELECT count(*), sum(s) FROM (SELECT i / 3, sum(i) s FROM generate_series(0, 2999) i GROUP BY 1) q"
echo "== fresh-session cost of loading the library"
for q in "SELECT 1" "SELECT gpu_reduce_stats_reset()" "SELECT 1" "SELECT gpu_reduce_stats_reset()"; do
	psql_ -At -c '\timing on' -c "$q" | grep Time | sed "s/^/$q: /"
done

echo "== 4. end to end: $rows rows"
psql_ -c "DROP TABLE IF EXISTS big; CREATE TABLE big (x bigint)" \
	-c "INSERT INTO big SELECT (random() * 2e9)::bigint - 1000000000 FROM generate_series(1, $rows)" \
	-c "ALTER TABLE big SET (parallel_workers = 8)" -c "VACUUM ANALYZE big" \
	-c "SELECT count(*) FROM big"
# one query in a fresh session; prints milliseconds
timed() {
	PGOPTIONS="-c max_parallel_workers_per_gather=$1 -c gpu_reduce.min_gpu_rows=65536" \
		psql_ -At -c '\timing on' -c "$2" | ms_of
}
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
# the page path reads the table out of shared_buffers: load it there
psql_ -c "CREATE EXTENSION IF NOT EXISTS pg_prewarm" -c "SELECT pg_prewarm('big') AS prewarmed_pages"
ratio() { awk -v a="$1" -v b="$2" 'BEGIN{printf "%.2f", a/b}'; }
# gpu_sum through the bulk scan's page path (the default), its CPU decoding
# (page_path off) and the per-row aggregate path (bulk_scan off), beside sum
for workers in 0 8; do
	for q in "SELECT sum(x) FROM big" "SELECT gpu_sum(x) FROM big"; do timed $workers "$q" >/dev/null; done
	: >"$scratch/native.$workers"; : >"$scratch/gpu.$workers"; : >"$scratch/cpu.$workers"; : >"$scratch/row.$workers"
	for run in 1 2 3 4 5; do
		timed $workers "SELECT sum(x) FROM big" >>"$scratch/native.$workers"
		timed $workers "SELECT gpu_sum(x) FROM big" >>"$scratch/gpu.$workers"
		timed $workers "SET gpu_reduce.page_path = off; SELECT gpu_sum(x) FROM big" >>"$scratch/cpu.$workers"
		timed $workers "SET gpu_reduce.bulk_scan = off; SELECT gpu_sum(x) FROM big" >>"$scratch/row.$workers"
	done
	n=$(median <"$scratch/native.$workers"); g=$(median <"$scratch/gpu.$workers")
	c=$(median <"$scratch/cpu.$workers"); r=$(median <"$scratch/row.$workers")
	echo "workers=$workers  sum(x) ${n} ms  gpu_sum(x): page path ${g} ms (native/gpu $(ratio $n $g))  CPU decoding ${c} ms (native/cpu $(ratio $n $c))  row path ${r} ms (native/row $(ratio $n $r))" | tee -a "$out/e2e.txt"
	echo "  runs: native $(tr '\n' ' ' <"$scratch/native.$workers")| page path $(tr '\n' ' ' <"$scratch/gpu.$workers")| CPU decoding $(tr '\n' ' ' <"$scratch/cpu.$workers")" | tee -a "$out/e2e.txt"
done
echo "== the bulk scan's plan and counters (serial, then 8 workers): the page path decodes on the GPU"
for workers in 0 8; do
	PGOPTIONS="-c max_parallel_workers_per_gather=$workers -c gpu_reduce.min_gpu_rows=65536" \
		psql_ -c "EXPLAIN (ANALYZE, VERBOSE, COSTS OFF) SELECT gpu_sum(x), gpu_max(x), count(*) FROM big WHERE x > 0" | tee "$scratch/plan" | tee -a "$out/e2e.txt"
	grep -q "Page Path: gpu" "$scratch/plan" && grep -Eq "GPU Decoded Pages: [1-9]" "$scratch/plan" || { echo "page path not used"; fail=1; }
	grep -Eq "GPU Wait Time: [0-9.]+ ms" "$scratch/plan" || { echo "no GPU Wait Time in EXPLAIN ANALYZE"; fail=1; }
done
echo "== the page path's answers: every aggregate and a WHERE, serial and 8 workers, against native"
for workers in 0 8; do
	PGOPTIONS="-c max_parallel_workers_per_gather=$workers" psql_ -At -c "SELECT
		(SELECT gpu_sum(x) FROM big WHERE x > 0) = (SELECT sum(x) FROM big WHERE x > 0)
		AND (SELECT gpu_min(x) FROM big) = (SELECT min(x) FROM big)
		AND (SELECT gpu_avg(x)::text FROM big) = (SELECT avg(x)::text FROM big)
		AND (SELECT gpu_top2(x) FROM big) = (SELECT array_agg(x ORDER BY x DESC) FROM (SELECT x FROM big ORDER BY x DESC LIMIT 2) s)
		AND (SELECT gpu_topk(x, 100) FROM big WHERE x < 0) = (SELECT array_agg(x ORDER BY x DESC) FROM (SELECT x FROM big WHERE x < 0 ORDER BY x DESC LIMIT 100) s)
		AS page_path_answers_$workers" | tee "$scratch/pa"
	grep -q '^t$' "$scratch/pa" || fail=1
done
echo "== a failing GPU: each job's pinned pages are decoded on the CPU instead"
psql_ -At -c "SET gpu_reduce.debug_fail_gpu = on" -c "SET max_parallel_workers_per_gather = 0" \
	-c "SELECT (SELECT gpu_sum(x) FROM big) = (SELECT sum(x) FROM big) AS same_after_fallback" 2>&1 | tee "$scratch/ff"
grep -q '^t$' "$scratch/ff" && grep -q "WARNING:  GPU page decoding failed" "$scratch/ff" || fail=1
echo "== writers change pinned pages while the scans repeat (${GPU_HOST_STRESS_S:-60} s): each answer, plain, grouped, joined to a hashed table the writers change, and a GROUP BY of 100 000 groups whose HAVING the GPU's table (made for 4096, grown) decides, equals native in the same snapshot"
psql_ -c "DROP TABLE IF EXISTS churn, churn_dim" \
	-c "CREATE TABLE churn AS SELECT g AS k, g::int8 AS x, g % 16 AS grp, g % 100000 AS b FROM generate_series(1, 2000000) g" \
	-c "CREATE TABLE churn_dim (id int PRIMARY KEY, g int)" \
	-c "INSERT INTO churn_dim SELECT i, i % 5 FROM generate_series(0, 15) i" \
	-c "VACUUM ANALYZE churn" -c "VACUUM ANALYZE churn_dim" -c "SELECT pg_prewarm('churn')" >/dev/null
# (native's side: FILTER keeps PostgreSQL's plan; the node's: its join of churn_dim read from
# its pages and probed by the GPU's jobs, and its final rows, HAVING checked on the scan's table)
joined="SELECT d.g, %s s, count(*) %s c FROM churn JOIN churn_dim d ON d.id = grp WHERE k %% 7 <> 0 GROUP BY d.g"
having="SELECT b, %s s FROM churn GROUP BY b HAVING %s > 20980000"
end=$((SECONDS + ${GPU_HOST_STRESS_S:-60}))
for w in 1 2 3 4; do
	(while [ $SECONDS -lt $end ]; do
		psql_ -q -c "BEGIN" -c "UPDATE churn SET x = x + 1 WHERE k % 1000 = (random() * 999)::int" \
			-c "DELETE FROM churn WHERE k % 5000 = (random() * 4999)::int" \
			-c "INSERT INTO churn SELECT g, g, g % 16, g % 100000 FROM generate_series(1, 500) g" \
			-c "UPDATE churn_dim SET g = (random() * 4)::int WHERE id = (random() * 15)::int" \
			-c "$([ $w = 1 ] && echo ROLLBACK || echo COMMIT)" >/dev/null 2>&1
		[ $w = 2 ] && psql_ -q -c "VACUUM churn" -c "VACUUM churn_dim" >/dev/null 2>&1
	done) &
done
scans=0 bad=0
while [ $SECONDS -lt $end ]; do
	for workers in 0 4; do
		# (the scans' tables made for 4096 groups: HAVING's 100 000 grow them as they come)
		r=$(PGOPTIONS="-c max_parallel_workers_per_gather=$workers -c gpu_reduce.debug_scan_groups=4096" psql_ -At -c "SELECT
			(SELECT gpu_sum(x) FROM churn) = (SELECT sum(x) FROM churn)
			AND (SELECT gpu_max(x) FROM churn WHERE k > 1000) = (SELECT max(x) FROM churn WHERE k > 1000)
			AND (SELECT string_agg(grp || ':' || s || ':' || c, ',' ORDER BY grp)
			     FROM (SELECT grp, gpu_sum(x) s, count(*) c FROM churn WHERE k % 7 <> 0 GROUP BY grp) g)
			  = (SELECT string_agg(grp || ':' || s || ':' || c, ',' ORDER BY grp)
			     FROM (SELECT grp, sum(x) FILTER (WHERE true) s, count(*) FILTER (WHERE true) c
			           FROM churn WHERE k % 7 <> 0 GROUP BY grp) n)
			AND (SELECT string_agg(g || ':' || s || ':' || c, ',' ORDER BY g)
			     FROM ($(printf "$joined" "gpu_sum(x)" "")) q)
			  = (SELECT string_agg(g || ':' || s || ':' || c, ',' ORDER BY g)
			     FROM ($(printf "$joined" "sum(x) FILTER (WHERE true)" "FILTER (WHERE true)")) n)
			AND (SELECT string_agg(b || ':' || s, ',' ORDER BY b) FROM ($(printf "$having" "gpu_sum(x)" "gpu_sum(x)")) q)
			  = (SELECT string_agg(b || ':' || s, ',' ORDER BY b)
			     FROM ($(printf "$having" "sum(x) FILTER (WHERE true)" "sum(x) FILTER (WHERE true)")) n)" 2>&1)
		scans=$((scans + 1)); [ "$r" = t ] || { bad=$((bad + 1)); echo "stress: $r"; }
	done
done
wait
echo "stress: $scans statements, $bad wrong"
[ "$bad" = 0 ] && [ "$scans" -gt 0 ] || fail=1
PGOPTIONS="-c max_parallel_workers_per_gather=0" psql_ -c "EXPLAIN (ANALYZE, VERBOSE, COSTS OFF) SELECT gpu_sum(x) FROM churn" | grep -E "Page Path|Decoded|Wait Time"
# the grouped, joined and HAVING queries of the loop ran through the node, serial and parallel
for workers in 0 4; do
	PGOPTIONS="-c max_parallel_workers_per_gather=$workers" psql_ -At -c "EXPLAIN (COSTS OFF)
		SELECT grp, gpu_sum(x) s, count(*) c FROM churn WHERE k % 7 <> 0 GROUP BY grp" | tee "$scratch/gplan"
	grep -q "GpuReduce" "$scratch/gplan" || { echo "stress: the grouped query did not use the node ($workers workers)"; fail=1; }
	PGOPTIONS="-c max_parallel_workers_per_gather=$workers" psql_ -At -c "EXPLAIN (COSTS OFF)
		$(printf "$joined" "gpu_sum(x)" "")" | tee "$scratch/gplan"
	grep -q "Hashed: d " "$scratch/gplan" || { echo "stress: the joined query did not join in the node ($workers workers)"; fail=1; }
done
PGOPTIONS="-c max_parallel_workers_per_gather=0 -c gpu_reduce.debug_scan_groups=4096" psql_ -At -c "EXPLAIN (ANALYZE, VERBOSE, COSTS OFF, TIMING OFF)
	$(printf "$having" "gpu_sum(x)" "gpu_sum(x)")" | tee "$scratch/gplan" | grep -E "GpuReduce|Page Path|Groups|Rows Removed|Room"
grep -q "Page Path: gpu" "$scratch/gplan" && grep -Eq "Groups Collected and Rejected by HAVING: [1-9]" "$scratch/gplan" &&
	! grep -Eq "Jobs Over Group Room: [1-9]" "$scratch/gplan" ||
	{ echo "stress: HAVING was not decided on the GPU's table, grown from 4096 groups to 100 000"; fail=1; }
psql_ -c "SELECT sum(x) = gpu_sum(x) AS same_answer FROM big"
echo "== GROUP BY with 1 M groups of about $((rows / 1048576)) rows: serial, EXPLAIN ANALYZE (time and peak memory)"
[ "${GPU_HOST_GROUPS:-1}" = 1 ] || echo "(skipped: GPU_HOST_GROUPS=0)"
[ "${GPU_HOST_GROUPS:-1}" = 1 ] && for q in "sum(x)" "gpu_sum(x)"; do
	PGOPTIONS="-c max_parallel_workers_per_gather=0 -c work_mem=1GB" psql_ -At \
		-c "EXPLAIN (ANALYZE, TIMING OFF, COSTS OFF) SELECT x & 1048575, $q FROM big GROUP BY 1" |
		grep -E "Memory Usage|Execution Time" | tr '\n' ' ' | sed "s/^/$q: /; s/\$/\n/" | tee -a "$out/groups.txt"
done
echo "== where the time goes with 8 workers: per-worker times, and gpu_sum with the GPU off"
for q in "sum(x)" "gpu_sum(x)"; do
	PGOPTIONS="-c max_parallel_workers_per_gather=8" psql_ -c "EXPLAIN (ANALYZE, VERBOSE, COSTS OFF) SELECT $q FROM big" |
		grep -E "Execution|Planning|Worker [0-9]+:  actual|Partial Aggregate \(actual|Finalize Aggregate \(actual|Gather \(actual"
done
for enabled in on off; do
	: >"$scratch/sw"
	for run in 1 2 3; do
		PGOPTIONS="-c max_parallel_workers_per_gather=8 -c gpu_reduce.enabled=$enabled" \
			psql_ -At -c '\timing on' -c "SELECT gpu_sum(x) FROM big" | ms_of >>"$scratch/sw"
	done
	echo "8 workers, fresh sessions, gpu_reduce.enabled=$enabled: gpu_sum(x) median $(median <"$scratch/sw") ms"
done

if [ "${GPU_HOST_SWEEP:-1}" != 0 ]; then
	echo "== defaults: gpu_sum(x) over $rows rows by gpu_reduce.batch_rows (warm session, median of 3)"
	for workers in 0 8; do
		for br in 16384 65536 262144 1048576; do
			ms=$(PGOPTIONS="-c max_parallel_workers_per_gather=$workers -c gpu_reduce.batch_rows=$br -c gpu_reduce.min_gpu_rows=16384" \
				psql_ -At -c "SELECT gpu_sum(x) FROM big" -c '\timing on' \
				-c "SELECT gpu_sum(x) FROM big" -c "SELECT gpu_sum(x) FROM big" -c "SELECT gpu_sum(x) FROM big" |
				ms_of | median)
			echo "workers=$workers batch_rows=$br: $ms ms" | tee -a "$out/sweep.txt"
		done
	done
fi
if [ "${GPU_HOST_SWEEP:-1}" = 2 ]; then
	echo "== defaults: 1024 groups of $((rows / 1024)) rows by gpu_reduce.min_gpu_rows (serial, warm, median of 3)"
	for mg in 4096 16384 65536; do
		ms=$(PGOPTIONS="-c max_parallel_workers_per_gather=0 -c gpu_reduce.min_gpu_rows=$mg" psql_ -At \
			-c '\timing on' -c "SELECT count(*), sum(s) FROM (SELECT x & 1023 g, gpu_sum(x) s FROM big GROUP BY 1) q" \
			-c "SELECT count(*), sum(s) FROM (SELECT x & 1023 g, gpu_sum(x) s FROM big GROUP BY 1) q" \
			-c "SELECT count(*), sum(s) FROM (SELECT x & 1023 g, gpu_sum(x) s FROM big GROUP BY 1) q" |
			ms_of | median)
		echo "1024 groups, min_gpu_rows=$mg: $ms ms" | tee -a "$out/sweep.txt"
	done
fi
psql_ -c "SELECT * FROM gpu_reduce_slots() WHERE slots > 0"
echo "== multi-GPU: every GPU the service opened has reduced batches"
psql_ -c "SELECT * FROM gpu_reduce_devices()" | tee -a "$out/devices.txt"
idle=$(psql_ -At -c "SELECT count(*) FROM gpu_reduce_devices() WHERE batches = 0")
echo "GPUs that reduced no batch: $idle"
[ "$idle" = 0 ] || fail=1
echo "== the buffer pool not registered (gpu_reduce.register_buffers = off): the bulk scan decodes on the CPU"
su pgrun -c "export LD_LIBRARY_PATH=$LD_LIBRARY_PATH; $(pg_config --bindir)/pg_ctl -D $dir/data -l $dir/log/server.log -o \"$opts -c gpu_reduce.register_buffers=off\" restart -w" >/dev/null
for t in $(seq 1 60); do
	psql_ -At -c "SET client_min_messages = warning; SELECT count(*) FROM gpu_reduce_devices()" 2>/dev/null | grep -qv '^0$' && break
	sleep 0.5
done
PGOPTIONS="-c max_parallel_workers_per_gather=0" psql_ -c "EXPLAIN (ANALYZE, VERBOSE, COSTS OFF) SELECT gpu_sum(x) FROM big" |
	tee "$scratch/unreg" | grep -E "Page Path|Decoded"
grep -q "Page Path: off (the buffer pool is not registered with the GPU)" "$scratch/unreg" || fail=1
psql_ -At -c "SELECT (SELECT gpu_sum(x) FROM big) = (SELECT sum(x) FROM big) AS same_unregistered" | tee "$scratch/ur"
grep -q '^t$' "$scratch/ur" || fail=1
grep -q "did not register the buffer pool" "$dir/log/server.log" || { echo "no log line about the buffer pool"; fail=1; }
psql_ -At -c "SELECT DISTINCT page_path FROM gpu_reduce_devices()" | tee "$scratch/pp"
grep -qx "off: gpu_reduce.register_buffers is off" "$scratch/pp" || { echo "gpu_reduce_devices() does not say why"; fail=1; }
grep -E "gpu_reduce|WARNING|ERROR|FATAL|PANIC|terminated" "$dir/log/server.log" | grep -v "canceling statement" | tail -20
cp "$dir/log/server.log" "$out/server.log"
if [ "${GPU_HOST_SANITIZE:-1}" != 0 ]; then
	echo "== compute-sanitizer (test/gpu/sanitize.sh): memcheck, racecheck, synccheck; concurrent sessions"
	OUT=$out/sanitize RUNS=${GPU_HOST_SANITIZE_RUNS:-1} bash "$root/test/gpu/sanitize.sh" >"$out/sanitize.txt" 2>&1
	grep -E "^==|SUMMARY|statements|grouped queries|HAVING|allocations|sanitize:|reported|crashed|failed|differs" "$out/sanitize.txt"
	grep -q "sanitize: PASSED" "$out/sanitize.txt" || fail=1
fi
echo "gpu_host: $([ $fail = 0 ] && echo PASSED || echo FAILED)"
exit $fail
