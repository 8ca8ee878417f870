# C21: one GPU: serial page path over 50 M rows in fresh sessions with 4 kB pages (as two_gpus.sh of last session) vs huge pages; is nsys here?
which nsys; ls /usr/local/cuda/bin | grep -i nsys; ls -d /opt/nvidia/nsight-systems* 2>/dev/null
md5sum .gpubuild/gpu_reduce.so
T0=$SECONDS
bash .gpuhost/start-pg.sh /tmp/pg >/dev/null 2>&1
source /tmp/pg/pgroot/activate.sh
install -m 755 .gpubuild/gpu_reduce.so $(pg_config --pkglibdir)/gpu_reduce.so
install -m 644 gpu_reduce.control gpu_reduce--*.sql $(pg_config --sharedir)/extension/
sysctl -qw vm.nr_hugepages=5200
start() { su pgrun -c "export LD_LIBRARY_PATH=$LD_LIBRARY_PATH; $(pg_config --bindir)/pg_ctl -D /tmp/pg/data -l /tmp/pg/log/server.log -o \"-k /tmp/pg/sock -c listen_addresses='' -c shared_preload_libraries=gpu_reduce -c shared_buffers=8GB -c huge_pages=$1 -c max_worker_processes=16 -c max_parallel_workers=8\" restart -w -t 300" >/dev/null || tail /tmp/pg/log/server.log; }
P="psql -X -h /tmp/pg/sock -U postgres -d postgres"
start off
$P -qc "CREATE EXTENSION IF NOT EXISTS gpu_reduce" -c "CREATE EXTENSION IF NOT EXISTS pg_prewarm" -c "CREATE TABLE tg AS SELECT (random()*2e9 - 1e9)::int4 AS i, (random()*2e18)::int8 - 1000000000000000000 AS b, random()*1e6 - 5e5 AS d FROM generate_series(1, 50000000)" -c "ALTER TABLE tg SET (parallel_workers = 8)" -c "VACUUM ANALYZE tg"
echo "loaded at $((SECONDS-T0)) s"
tm() { PGOPTIONS="-c jit=off -c max_parallel_workers_per_gather=$1" $P -At -c '\timing on' -c "$2" | awk '/^Time:/ {t=$2} END {print t}'; }
for round in 1 2; do for hp in off on; do
  start $hp; $P -Atc "SELECT pg_prewarm('tg')" >/dev/null
  for i in $(seq 30); do [ "$($P -Atc "SELECT count(*) FROM gpu_reduce_devices() WHERE page_path = 'buffer pool registered'" 2>/dev/null)" = 1 ] && break; sleep 1; done
  grep HugePages_Free /proc/meminfo | tr '\n' ' '
  PGOPTIONS="-c jit=off -c max_parallel_workers_per_gather=0" $P -c "EXPLAIN (ANALYZE, VERBOSE, COSTS OFF) SELECT gpu_sum(b) FROM tg" | grep -E "GPU Decoded|Wait Time|Execution" | tr -s ' ' | tr '\n' ';'; echo
  g=""; g8=""; for r in 1 2 3 4 5 6 7; do g="$g $(tm 0 'SELECT gpu_sum(b) FROM tg')"; done
  for r in 1 2 3 4 5; do g8="$g8 $(tm 8 'SELECT gpu_sum(b) FROM tg')"; done
  echo "round $round huge_pages=$hp: serial gpu_sum(b) ms:$g | 8 workers:$g8"
done; done
echo "done at $((SECONDS-T0)) s"
