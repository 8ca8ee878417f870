# The variance family on the GPU host: the whole suite (sql/variance.sql included) with every
# batch on the GPU and 20 s of writers (test/gpu_host.sh), then the variance cases against
# native and a before/after of existing cases, 10 M rows, 5 fresh-session runs.  Carry .gpuhost
# and .gpubuild (before.so: e8212db, the kinds table; after.so: this build).  Run from the
# repository root; writes under $OUT.
nvidia-smi --query-gpu=name --format=csv,noheader
md5sum .gpubuild/*.so
T0=$SECONDS
GPU_REDUCE_SO=$PWD/.gpubuild/after.so GPU_HOST_SWEEP=0 GPU_HOST_GROUPS=0 GPU_HOST_STRESS_S=20 \
	timeout 330 bash test/gpu_host.sh 10000000 > $OUT/gpu_host-10M.log 2>&1
echo "gpu_host rc=$? in $((SECONDS-T0)) s"
grep -n "PASSED\|FAILED\|failed\|stress:\|not ok\|\.\.\. FAILED\|variance" $OUT/gpu_host-10M.log | head -30
sysctl -qw vm.nr_hugepages=16800
S=$SECONDS
GPU_REDUCE_SO=$PWD/.gpubuild/after.so timeout $((585 - SECONDS + T0)) bash bench/pg_bench.sh --server gpuhost \
	--rows 10000000 --runs 5 --sessions fresh --server-opts "-c huge_pages=try" --out /tmp/var \
	--cases 'bulk_narrow_var_int8,bulk_narrow_stddev_float8,bulk_var_numeric,group1k_var_int4,bulk_narrow_sum_int8,bulk_narrow_sum_float8' > /tmp/var.log 2>&1
echo "pg_bench rc=$? in $((SECONDS-S)) s"
cp /tmp/var/results.csv $OUT/variance-results.csv 2>/dev/null; cp /tmp/var.log $OUT/variance-run.log
cut -d, -f1-12 /tmp/var/results.csv
