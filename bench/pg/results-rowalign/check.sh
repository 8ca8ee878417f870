# Row-aligned page-path decoding on the GPU host, correctness: the whole suite with every batch
# on the GPU and 20 s of writers (test/gpu_host.sh, 10 M rows), then nulls.sql (every reduction op
# over columns with NULLs through the GPU page path, against the page path on the CPU and the row
# path).  Carry .gpuhost and .gpubuild (rowalign.so: this build).  Run from the repository root;
# writes under $OUT.
nvidia-smi --query-gpu=name --format=csv,noheader
md5sum .gpubuild/*.so
T0=$SECONDS
# ROWALIGN_NULLS_ONLY=1: nulls.sql only, on the cluster an earlier gpu_host.sh left in /tmp/pg
[ "${ROWALIGN_NULLS_ONLY:-0}" = 1 ] || {
GPU_REDUCE_SO=$PWD/.gpubuild/rowalign.so GPU_HOST_SWEEP=0 GPU_HOST_GROUPS=0 GPU_HOST_STRESS_S=20 \
	timeout 330 bash test/gpu_host.sh 10000000 > $OUT/gpu_host.log 2>&1
echo "gpu_host rc=$? in $((SECONDS-T0)) s"
grep -n "gpu_host: \|FAILED\|failed\|stress:\|not ok\|page_path_answers\|workers=" $OUT/gpu_host.log | head -30
}
# gpu_host.sh ends with the buffer pool unregistered: restart with it registered
dir=/tmp/pg
source $dir/pgroot/activate.sh
opts="-k $dir/sock -c listen_addresses='' -c shared_preload_libraries=gpu_reduce -c shared_buffers=8GB"
opts="$opts -c max_worker_processes=32 -c max_parallel_workers=16 -c huge_pages=try"
su pgrun -c "export LD_LIBRARY_PATH=$LD_LIBRARY_PATH; $(pg_config --bindir)/pg_ctl -D $dir/data -l $dir/log/server.log -o \"$opts\" restart -w" >/dev/null
for t in $(seq 1 60); do
	psql -X -h $dir/sock -U postgres -At -c "SELECT page_path FROM gpu_reduce_devices()" 2>/dev/null |
		grep -qx 'buffer pool registered' && break
	sleep 0.5
done
psql -X -h $dir/sock -U postgres -c "SELECT device, name, page_path FROM gpu_reduce_devices()"
S=$SECONDS
timeout 240 psql -X -h $dir/sock -U postgres -f bench/pg/results-rowalign/nulls.sql > $OUT/nulls.log 2>&1
echo "nulls.sql rc=$? in $((SECONDS-S)) s"
grep -E "WARNING|ERROR|rowalign_nulls_ok" -A2 $OUT/nulls.log | head -20
