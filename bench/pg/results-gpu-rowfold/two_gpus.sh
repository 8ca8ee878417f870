# two_gpus.sh: (run C16) the page path over two GPUs against one (CUDA_VISIBLE_DEVICES=0), same table, same run; C17 is the same with 50 M rows and 5 runs
nvidia-smi -L; md5sum .gpubuild/gpu_reduce.so
T0=$SECONDS
bash .gpuhost/start-pg.sh /tmp/pg >/dev/null 2>&1
source /tmp/pg/pgroot/activate.sh
install -m 755 .gpubuild/gpu_reduce.so $(pg_config --pkglibdir)/gpu_reduce.so
install -m 644 gpu_reduce.control gpu_reduce--*.sql $(pg_config --sharedir)/extension/
start() { su pgrun -c "export LD_LIBRARY_PATH=$LD_LIBRARY_PATH $1; $(pg_config --bindir)/pg_ctl -D /tmp/pg/data -l /tmp/pg/log/server.log -o \"-k /tmp/pg/sock -c listen_addresses='' -c shared_preload_libraries=gpu_reduce -c shared_buffers=8GB -c max_worker_processes=16 -c max_parallel_workers=8\" restart -w -t 300" >/dev/null || tail /tmp/pg/log/server.log; }
P="psql -X -h /tmp/pg/sock -U postgres -d postgres"
ready() { for i in $(seq 60); do [ "$($P -Atc "SELECT count(*) FROM gpu_reduce_devices() WHERE page_path = 'buffer pool registered'" 2>/dev/null)" -ge "$1" ] && break; sleep 1; done; $P -c "SELECT device, name, page_path FROM gpu_reduce_devices()"; }
med() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
tm() { PGOPTIONS="-c jit=off -c max_parallel_workers_per_gather=$1" $P -At -c '\timing on' -c "$2" | awk '/^Time:/ {t=$2} END {print t}'; }
bench() {
	for w in 0 8; do
		: >/tmp/n.$w; : >/tmp/g.$w
		for r in 1 2 3 4 5 6 7; do tm $w "SELECT sum(b) FROM n20" >>/tmp/n.$w; tm $w "SELECT gpu_sum(b) FROM n20" >>/tmp/g.$w; done
		n=$(med </tmp/n.$w); g=$(med </tmp/g.$w)
		echo "$1 workers=$w native sum(b) $n ms, gpu_sum(b) $g ms, ratio $(awk -v a=$n -v b=$g 'BEGIN{printf "%.2f", a/b}')  runs: native $(tr '\n' ' ' </tmp/n.$w)| gpu $(tr '\n' ' ' </tmp/g.$w)"
	done
}
start ""
$P -qc "CREATE EXTENSION IF NOT EXISTS gpu_reduce" -c "CREATE EXTENSION IF NOT EXISTS pg_prewarm" -c "DROP TABLE IF EXISTS n20" -c "CREATE TABLE n20 AS SELECT (random()*2e9 - 1e9)::int4 AS i, (random()*2e18)::int8 - 1000000000000000000 AS b, random()*1e6 - 5e5 AS d FROM generate_series(1, 20000000)" -c "ALTER TABLE n20 SET (parallel_workers = 8)" -c "VACUUM ANALYZE n20"
$P -Atc "SELECT pg_prewarm('n20'), pg_relation_size('n20') / 8192" ; echo "loaded at $((SECONDS-T0)) s"
ready 2
for w in 0 8; do PGOPTIONS="-c max_parallel_workers_per_gather=$w" $P -At -c "SELECT 'answers equal native, workers=$w: ' || ((SELECT gpu_sum(b) FROM n20) = (SELECT sum(b) FROM n20) AND (SELECT gpu_min(d) FROM n20) = (SELECT min(d) FROM n20) AND (SELECT gpu_max(i) FROM n20) = (SELECT max(i) FROM n20) AND (SELECT gpu_avg(b)::text FROM n20) = (SELECT avg(b)::text FROM n20) AND (SELECT gpu_top2(d) FROM n20) = (SELECT array_agg(d ORDER BY d DESC) FROM (SELECT d FROM n20 ORDER BY d DESC LIMIT 2) s))"; done
PGOPTIONS="-c max_parallel_workers_per_gather=0" $P -c "EXPLAIN (ANALYZE, VERBOSE, COSTS OFF) SELECT gpu_sum(b) FROM n20" | grep -E "Page Path|Decoded|Wait Time|Execution"
$P -c "SELECT device, batches, rows FROM gpu_reduce_devices()"
bench "two GPUs"
$P -c "SELECT device, batches, rows FROM gpu_reduce_devices()"
echo "at $((SECONDS-T0)) s"; start "CUDA_VISIBLE_DEVICES=0"; $P -Atc "SELECT pg_prewarm('n20')"; ready 1
PGOPTIONS="-c max_parallel_workers_per_gather=0" $P -c "EXPLAIN (ANALYZE, VERBOSE, COSTS OFF) SELECT gpu_sum(b) FROM n20" | grep -E "Page Path|Decoded|Wait Time|Execution"
bench "one GPU"
$P -c "SELECT device, batches, rows FROM gpu_reduce_devices()"
echo "done at $((SECONDS-T0)) s"
