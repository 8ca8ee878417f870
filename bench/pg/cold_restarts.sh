#!/usr/bin/env bash
# bench/pg/cold_restarts.sh -- on the GPU host, after bench/pg_bench.sh --server gpuhost has
# loaded pgb_rand (and left its server and database gpu_reduce_bench in /tmp/pg):
#   A. the table in the OS cache only: the server is restarted before every query, so
#      neither native nor gpu_* finds a block in shared_buffers (PGB_NO_PREWARM=1 is not
#      this: its warm-up query leaves a table smaller than shared_buffers / 4 in the pool,
#      because PostgreSQL reads such a table without the bulk-read ring); 5 runs each,
#      serial and 8 workers, then both plans' EXPLAIN (ANALYZE, BUFFERS) with
#      track_io_timing, which says how much of each query is reading blocks into the pool;
#   B. a copy of pgb_rand's i, b and d (issue 14's 2.5 GB table shape) made by
#      CREATE TABLE AS, VACUUM FREEZE, pg_prewarm, and four queries timed alternately,
#      5 runs each in fresh sessions, serial and 8 workers (pgb_narrow and its bulk_narrow_*
#      cases in cases.txt do this through pg_bench.sh).
# Output: one run of it was bench/pg/results-gpu-targets/cold-restarts.log
#   (git show 3e7729b:bench/pg/results-gpu-targets/cold-restarts.log).
# no new measurement starts after 515 s (the device host's 600 s limit per command)
END=$((SECONDS + 515))
source /tmp/pg/pgroot/activate.sh
P="psql -X -h /tmp/pg/sock -U postgres -d gpu_reduce_bench"
ms() { PGOPTIONS="-c jit=off -c max_parallel_workers_per_gather=$2" $P -At -c '\timing on' -c "$1" | awk '/^Time:/ {print $2}'; }
restart() {
  su pgrun -c "export LD_LIBRARY_PATH=$LD_LIBRARY_PATH; $(pg_config --bindir)/pg_ctl -D /tmp/pg/data restart -w -t 300" >/dev/null
  for _ in $(seq 1 60); do [ "$($P -At -c "SET client_min_messages = warning; SELECT count(*) FROM gpu_reduce_devices()" | tail -1)" != 0 ] && break; sleep 0.5; done
}
echo "== A. OS cache only (restart before each query), 515464-page pgb_rand"
for w in 0 8; do for i in 1 2 3 4 5; do
  [ $SECONDS -gt $((END - 200)) ] && break
  restart; n=$(ms "SELECT sum(b) FROM pgb_rand" $w)
  restart; g=$(ms "SELECT gpu_sum(b) FROM pgb_rand" $w)
  echo "cold workers=$w run=$i native_ms=$n gpu_ms=$g"
done; done
restart
PGOPTIONS="-c max_parallel_workers_per_gather=0 -c track_io_timing=on" $P -c "EXPLAIN (ANALYZE, BUFFERS, VERBOSE, COSTS OFF) SELECT gpu_sum(b) FROM pgb_rand"
restart
PGOPTIONS="-c max_parallel_workers_per_gather=0 -c track_io_timing=on" $P -c "EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) SELECT sum(b) FROM pgb_rand"
echo "== B. the issue's shape: 50 M rows of (b int8, d float8, i int4)"
S=$SECONDS
$P -qc "DROP TABLE IF EXISTS pgb_issue" -c "CREATE TABLE pgb_issue AS SELECT b, d, i FROM pgb_rand" -c "VACUUM (FREEZE, ANALYZE) pgb_issue"
echo "loaded in $((SECONDS-S)) s: $($P -At -c "SELECT pg_relation_size('pgb_issue') / 8192 || ' pages, ' || pg_size_pretty(pg_relation_size('pgb_issue'))")"
$P -At -c "CREATE EXTENSION IF NOT EXISTS pg_prewarm" -c "SELECT pg_prewarm('pgb_issue')"
for q in "sum(b)|gpu_sum(b)" "sum(d)|gpu_sum(d)" "max(b)|gpu_max(b)" "sum(b), min(d), max(d), avg(i)|gpu_sum(b), gpu_min(d), gpu_max(d), gpu_avg(i)"; do
  for w in 0 8; do
    [ $SECONDS -gt $END ] && break 2
    ms "SELECT ${q%%|*} FROM pgb_issue" $w >/dev/null; ms "SELECT ${q##*|} FROM pgb_issue" $w >/dev/null
    ns=; gs=
    for i in 1 2 3 4 5; do ns="$ns $(ms "SELECT ${q%%|*} FROM pgb_issue" $w)"; gs="$gs $(ms "SELECT ${q##*|} FROM pgb_issue" $w)"; done
    med() { echo $* | tr ' ' '\n' | sort -g | sed -n 3p; }
    n=$(med $ns) g=$(med $gs)
    echo "issue-shape workers=$w [$q] native:$ns | gpu:$gs | medians $n / $g = $(awk -v n="$n" -v g="$g" 'BEGIN { printf "%.2f", n / g }')"
  done
done
$P -At -c "SELECT (SELECT sum(b) FROM pgb_issue) = (SELECT gpu_sum(b) FROM pgb_issue) AS same"
echo "done at $SECONDS s"
