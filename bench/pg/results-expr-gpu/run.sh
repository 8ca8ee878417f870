# The expression program on the GPU's page path, on the GPU host: test/gpu/expr_page.sh (TPC-H
# Q6's shape, sum(price * (1 - disc)), IN lists, column against column, rows handed back to
# PostgreSQL, a job whose list overflows, PostgreSQL's error from a row handed back; 4 M rows,
# each answer against PostgreSQL's plan), then test/gpu_host.sh (the whole suite with every job
# on the GPU, sql/expressions.sql included).  Carry .gpuhost and .gpubuild (expr.so: this work
# built with CUDA).  Run from the repository root; writes under $OUT.
nvidia-smi --query-gpu=name --format=csv,noheader
md5sum .gpubuild/${EXPR_SO:-expr.so}
T0=$SECONDS
if [ "${PHASE:-all}" != host ]; then
	GPU_REDUCE_SO=$PWD/.gpubuild/${EXPR_SO:-expr.so} OUT=$OUT/expr timeout ${EXPR_TIMEOUT:-200} \
		bash test/gpu/expr_page.sh ${EXPR_ROWS:-4000000} > $OUT/expr_page.log 2>&1
	echo "expr_page rc=$? in $((SECONDS-T0)) s"
	grep -E "expr_page: |ERROR|xp_error|speedup| \| " $OUT/expr_page.log | head -20
fi
if [ "${PHASE:-all}" != expr ]; then
	T1=$SECONDS
	GPU_REDUCE_SO=$PWD/.gpubuild/${EXPR_SO:-expr.so} GPU_HOST_SWEEP=0 GPU_HOST_GROUPS=0 GPU_HOST_STRESS_S=20 \
		OUT=$OUT/host timeout ${HOST_TIMEOUT:-380} bash test/gpu_host.sh 10000000 > $OUT/gpu_host-10M.log 2>&1
	echo "gpu_host rc=$? in $((SECONDS-T1)) s"
	grep -n "PASSED\|FAILED\|stress:\|workers=\|passed\|failed\|not ok" $OUT/gpu_host-10M.log | tail -15
fi
