# C14: A/B on the GPU host: row path folding (839dc75) vs batching, one build (.gpubuild/ab.so: 839dc75 + an experiment GUC gpu_reduce.xrow_fold), same server, alternating fresh sessions
T0=$SECONDS
bash .gpuhost/start-pg.sh /tmp/pg >/dev/null 2>&1
source /tmp/pg/pgroot/activate.sh
install -m 755 .gpubuild/ab.so $(pg_config --pkglibdir)/gpu_reduce.so
install -m 644 gpu_reduce.control gpu_reduce--*.sql $(pg_config --sharedir)/extension/
su pgrun -c "export LD_LIBRARY_PATH=$LD_LIBRARY_PATH; $(pg_config --bindir)/pg_ctl -D /tmp/pg/data -l /tmp/pg/log/server.log -o \"-k /tmp/pg/sock -c listen_addresses='' -c shared_preload_libraries=gpu_reduce -c shared_buffers=8GB -c max_worker_processes=16 -c max_parallel_workers=8\" restart -w -t 300" >/dev/null || tail /tmp/pg/log/server.log
P="psql -X -h /tmp/pg/sock -U postgres -d postgres"
$P -qc "CREATE EXTENSION IF NOT EXISTS gpu_reduce" -c "CREATE EXTENSION IF NOT EXISTS pg_prewarm" -c "DROP TABLE IF EXISTS f4" -c "CREATE TABLE f4 AS SELECT (random()*2e9)::int8 - 1000000000 AS b, random()*1000-500 AS d, (random()*2e9-1e9)::int4 AS i, now() - random() * interval '3650 days' AS t FROM generate_series(1, 20000000)" -c "ALTER TABLE f4 SET (parallel_workers = 8)" -c "VACUUM ANALYZE f4" -c "SELECT pg_prewarm('f4')"
echo "loaded in $((SECONDS-T0)) s"; $P -Atc "SELECT name FROM gpu_reduce_devices()"
bash bench/pg/results-gpu-rowfold/ab.sh "$P" f4 9 0 | tee $OUT/ab-serial.txt
echo "at $((SECONDS-T0)) s"
bash bench/pg/results-gpu-rowfold/ab.sh "$P" f4 9 8 | tee $OUT/ab-8w.txt
echo "done at $((SECONDS-T0)) s"
