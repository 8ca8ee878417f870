#!/usr/bin/env bash
# Issue 14's two-GPU check, for a GPU host with two or more GPUs and the
# relocatable PostgreSQL of shared/gpuhost copied to .gpuhost/ (as
# test/gpu_host.sh): the page path over every GPU against each GPU alone, on
# one table held in shared_buffers, serially and with 8 workers.
#
# The server runs on huge pages (as root: vm.nr_hugepages is raised), since
# with 4 kB pages a fresh backend's page faults on the buffer pool, not the
# GPUs, are most of a serial scan's time.  The GPU set is fixed when the
# service starts, so each configuration is a server restart (and a
# pg_prewarm); the configurations run ROUNDS times in turn, so that a slow
# spell of the host does not land on one of them only.  In each, three arms
# alternate, each query in a fresh session:
#   native  sum(b) under gpu_reduce.bulk_scan = off: PostgreSQL's own plan.
#           (Plain sum(b) is not native: since gpu_reduce.native_aggregates
#           became the default the node takes it, and the ratio was ~1.0x.)
#   node    gpu_sum(b) through the GpuReduce node's page path;
#   floor   gpu_sum(b) under gpu_reduce.debug_page_read_only = on: the same
#           scan whose kernel only reads the pinned pages (the zero-copy floor
#           probe of bench/floor), the bound the link sets for this table.
# It prints the medians, native/node and node/floor, every run's time, the
# serial EXPLAIN ANALYZE's GPU Wait Time, and how many page jobs each GPU ran.
#
# usage: bash bench/pg/two_gpus.sh [ROWS [RUNS [ROUNDS]]]   (default 50000000 7 2)
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
rows=${1:-50000000}
runs=${2:-7}
rounds=${3:-2}
dir=/tmp/pg
so=${GPU_REDUCE_SO:-$root/.gpubuild/gpu_reduce.so}
ngpus=$(nvidia-smi -L | grep -c '^GPU')
[ "$ngpus" -ge 2 ] || { echo "two_gpus.sh: this host has $ngpus GPU(s), not two or more" >&2; exit 1; }
nvidia-smi -L
md5sum "$so"
T0=$SECONDS

if [ -f "$dir/data/postmaster.pid" ]; then
	(source "$dir/pgroot/activate.sh" &&
		su pgrun -c "export LD_LIBRARY_PATH=$LD_LIBRARY_PATH; $(pg_config --bindir)/pg_ctl -D $dir/data stop -m fast" >/dev/null)
fi
bash "$root/.gpuhost/start-pg.sh" "$dir" >/dev/null || exit 1
source "$dir/pgroot/activate.sh"
install -m 755 "$so" "$(pg_config --pkglibdir)/gpu_reduce.so"
install -m 644 "$root/gpu_reduce.control" "$root"/gpu_reduce--*.sql "$(pg_config --sharedir)/extension/"
sb_mb=$(( (rows / 50000000 + 1) * 4096 ))	# 2.5 GB per 50 M rows, and room (the hugepages: the rest of the shared memory too)
hp=try
[ "$(id -u)" = 0 ] && sysctl -qw vm.nr_hugepages=$(( sb_mb / 2 + 1024 )) && hp=on
grep -E "HugePages_(Total|Free)" /proc/meminfo

P="psql -X -h $dir/sock -U postgres -d postgres"
# start [ENV]: (re)start the server, the GPU service seeing the GPUs ENV leaves
start() {
	su pgrun -c "export LD_LIBRARY_PATH=$LD_LIBRARY_PATH $1; $(pg_config --bindir)/pg_ctl -D $dir/data -l $dir/log/server.log -o \"-k $dir/sock -c listen_addresses='' -c shared_preload_libraries=gpu_reduce -c shared_buffers=${sb_mb}MB -c huge_pages=$hp -c max_worker_processes=16 -c max_parallel_workers=8\" restart -w -t 300" >/dev/null ||
		{ tail "$dir/log/server.log"; exit 1; }
}
# ready N: wait until N GPUs have registered the buffer pool
ready() {
	for _ in $(seq 60); do
		[ "$($P -Atc "SELECT count(*) FROM gpu_reduce_devices() WHERE page_path = 'buffer pool registered'" 2>/dev/null)" = "$1" ] && return 0
		sleep 1
	done
	echo "two_gpus.sh: $1 GPU(s) did not register the buffer pool" >&2
	$P -c "SELECT * FROM gpu_reduce_devices()"
	exit 1
}
med() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
# tm WORKERS SQL [OPTIONS]: the time of SQL in a fresh session with OPTIONS
tm() { PGOPTIONS="-c jit=off -c max_parallel_workers_per_gather=$1 ${3:-}" $P -At -c '\timing on' -c "$2" | awk '/^Time:/ {t=$2} END {print t}'; }

start ""
$P -qc "CREATE EXTENSION IF NOT EXISTS gpu_reduce" -c "CREATE EXTENSION IF NOT EXISTS pg_prewarm" \
	-c "DROP TABLE IF EXISTS tg" \
	-c "CREATE TABLE tg AS SELECT (random()*2e9 - 1e9)::int4 AS i, (random()*2e18)::int8 - 1000000000000000000 AS b, random()*1e6 - 5e5 AS d FROM generate_series(1, $rows)" \
	-c "ALTER TABLE tg SET (parallel_workers = 8)" -c "VACUUM ANALYZE tg"
echo "table tg: $rows rows, $($P -Atc "SELECT pg_relation_size('tg') / 8192") pages, loaded at $((SECONDS - T0)) s"

# one configuration: NAME, the environment of the server, how many GPUs
config() {
	start "$2"
	$P -Atc "SELECT pg_prewarm('tg')" >/dev/null
	ready "$3"
	for w in 0 8; do
		PGOPTIONS="-c max_parallel_workers_per_gather=$w" $P -Atc "SELECT 'answers equal native, workers=$w: ' || ((SELECT gpu_sum(b) FROM tg) = (SELECT sum(b) FROM tg) AND (SELECT gpu_min(d) FROM tg) = (SELECT min(d) FROM tg) AND (SELECT gpu_max(i) FROM tg) = (SELECT max(i) FROM tg) AND (SELECT gpu_avg(b)::text FROM tg) = (SELECT avg(b)::text FROM tg))"
	done
	PGOPTIONS="-c jit=off -c max_parallel_workers_per_gather=0" $P -c "EXPLAIN (ANALYZE, VERBOSE, COSTS OFF) SELECT gpu_sum(b) FROM tg" |
		grep -E "GPU Decoded|Wait Time|Execution" | tr -s ' ' | tr '\n' ';'
	echo
	for w in 0 8; do
		: >/tmp/tg.n; : >/tmp/tg.g; : >/tmp/tg.f
		for _ in $(seq "$runs"); do
			tm $w "SELECT sum(b) FROM tg" "-c gpu_reduce.bulk_scan=off" >>/tmp/tg.n
			tm $w "SELECT gpu_sum(b) FROM tg" >>/tmp/tg.g
			tm $w "SELECT gpu_sum(b) FROM tg" "-c gpu_reduce.debug_page_read_only=on" >>/tmp/tg.f
		done
		n=$(med </tmp/tg.n); g=$(med </tmp/tg.g); f=$(med </tmp/tg.f)
		echo "$1 workers=$w: native (bulk_scan=off) sum(b) $n ms, node gpu_sum(b) $g ms, floor $f ms, native/node $(awk -v a="$n" -v b="$g" 'BEGIN {printf "%.2f", a / b}'), node/floor $(awk -v a="$g" -v b="$f" 'BEGIN {printf "%.2f", a / b}')  runs: native $(tr '\n' ' ' </tmp/tg.n)| node $(tr '\n' ' ' </tmp/tg.g)| floor $(tr '\n' ' ' </tmp/tg.f)"
	done
	$P -Atc "SELECT 'page jobs per GPU: ' || string_agg(device || '=' || batches, ' ' ORDER BY device) FROM gpu_reduce_devices()"
}
for r in $(seq "$rounds"); do
	echo "== round $r at $((SECONDS - T0)) s"
	config "all $ngpus GPUs" "" "$ngpus"
	config "GPU 0 alone" "CUDA_VISIBLE_DEVICES=0" 1
	config "GPU 1 alone" "CUDA_VISIBLE_DEVICES=1" 1
done
echo "done at $((SECONDS - T0)) s"
