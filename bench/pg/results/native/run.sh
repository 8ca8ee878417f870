# Native aggregates with internal states in parallel plans (e6c8d0a): the node's participants
# emit PostgreSQL's serialized states.  PHASE=check: test/gpu_host.sh (the whole suite,
# native_aggregates' parallel cases included, on the GPU host); PHASE=bench: native sum(int8),
# avg(numeric), var_samp(int8) and max(timestamptz) taken by the node (native_aggregates = on)
# against the same queries under off, beside their gpu_* names against native, 10 M rows, fresh
# sessions, 5 runs, serial and 8 workers.  Carry .gpuhost and .gpubuild (parallel.so = e6c8d0a
# built with CUDA).  Run from the repository root; writes under $OUT.
nvidia-smi --query-gpu=name --format=csv,noheader
md5sum .gpubuild/parallel.so
T0=$SECONDS
if [ "${PHASE:-check}" = check ]; then
	GPU_REDUCE_SO=$PWD/.gpubuild/parallel.so GPU_HOST_SWEEP=0 GPU_HOST_GROUPS=0 GPU_HOST_STRESS_S=20 \
		timeout 560 bash test/gpu_host.sh 10000000 > $OUT/gpu_host-10M.log 2>&1
	echo "gpu_host rc=$? in $((SECONDS-T0)) s"
	grep -n "PASSED\|FAILED\|stress:\|workers=\|passed\|failed" $OUT/gpu_host-10M.log | tail -15
else
	sysctl -qw vm.nr_hugepages=16800
	GPU_REDUCE_SO=$PWD/.gpubuild/parallel.so timeout 580 bash bench/pg_bench.sh --server gpuhost \
		--rows 10000000 --runs 5 --sessions fresh --server-opts "-c huge_pages=try" --out /tmp/np \
		--cases "${CASES:-native_sum_int8,bulk_narrow_sum_int8,native_avg_numeric,bulk_avg_numeric,native_var_int8,bulk_narrow_var_int8}" \
		> $OUT/bench.log 2>&1
	echo "pg_bench rc=$? in $((SECONDS-T0)) s"
	cp /tmp/np/results.csv $OUT/results.csv 2>/dev/null
	cut -d, -f1-6,16-17 /tmp/np/results.csv
fi
