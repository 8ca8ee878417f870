# The kinds-table build on the GPU host: the suite with every batch on the GPU, 30 s of writers,
# then kernel_test and kernel_bench (cuda/ now includes common/).  Carry .gpuhost and .gpubuild
# (after.so: the build under test).  Run from the repository root; writes under $OUT.
nvidia-smi --query-gpu=name --format=csv,noheader
md5sum .gpubuild/*.so
T0=$SECONDS
GPU_REDUCE_SO=$PWD/.gpubuild/after.so GPU_HOST_SWEEP=0 GPU_HOST_GROUPS=0 GPU_HOST_STRESS_S=30 \
	timeout 360 bash test/gpu_host.sh 10000000 > $OUT/gpu_host-10M.log 2>&1
echo "gpu_host rc=$? in $((SECONDS-T0)) s"
grep -n "PASSED\|FAILED\|failed\|stress:\|not ok\|stats\|native/\|GPU Wait\|want 1\|\.\.\. FAILED" $OUT/gpu_host-10M.log | head -30
S=$SECONDS
make bench-kernels > $OUT/bench-kernels-build.log 2>&1 || tail -5 $OUT/bench-kernels-build.log
timeout $((585 - SECONDS + T0 - 90)) bench/kernel_test > $OUT/kernel_test.txt 2>&1; echo "kernel_test rc=$? in $((SECONDS-S)) s"; tail -4 $OUT/kernel_test.txt
S=$SECONDS
timeout $((588 - SECONDS + T0)) bench/kernel_bench > $OUT/kernel_bench.txt 2>&1; echo "kernel_bench rc=$? in $((SECONDS-S)) s"
grep -E "sum int8|xsum float8 random|xsum float8 bits|service|kernel_bench:" $OUT/kernel_bench.txt
