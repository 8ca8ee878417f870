# After the row-path fold and the parallel guard (19b00fb): gpu_host.sh again (its native side now
# under native_aggregates = off), the changed cases, and the kernels' quick test.  Carry .gpuhost and
# .gpubuild (after.so: 19b00fb).  Run from the repository root; writes under $OUT.
nvidia-smi --query-gpu=name --format=csv,noheader
md5sum .gpubuild/after.so
T0=$SECONDS
GPU_REDUCE_SO=$PWD/.gpubuild/after.so GPU_HOST_SWEEP=0 GPU_HOST_GROUPS=0 GPU_HOST_STRESS_S=20 \
	timeout 300 bash test/gpu_host.sh 10000000 > $OUT/gpu_host-10M.log 2>&1
echo "gpu_host rc=$? in $((SECONDS-T0)) s"
grep -n "PASSED\|FAILED\|stress:\|workers=" $OUT/gpu_host-10M.log | head
sysctl -qw vm.nr_hugepages=16800
S=$SECONDS
GPU_REDUCE_SO=$PWD/.gpubuild/after.so timeout $((540 - SECONDS + T0)) bash bench/pg_bench.sh --server gpuhost \
	--rows 10000000 --runs 5 --sessions fresh --server-opts "-c huge_pages=try" --out /tmp/conf \
	--cases 'group1k_var_int4,native_sum_int8,native_avg_numeric' > /tmp/conf.log 2>&1
echo "pg_bench rc=$? in $((SECONDS-S)) s"
cp /tmp/conf/results.csv $OUT/confirm-results.csv 2>/dev/null
grep "\[pg_bench\] case" /tmp/conf.log
S=$SECONDS
make bench-kernels > /dev/null 2>&1 && timeout $((590 - SECONDS + T0)) bench/kernel_test --quick > $OUT/kernel_test_quick.txt 2>&1
echo "kernel_test --quick rc=$? in $((SECONDS-S)) s"; tail -2 $OUT/kernel_test_quick.txt
