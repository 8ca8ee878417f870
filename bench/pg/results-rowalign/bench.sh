# Row-aligned page-path decoding on the GPU host, timing: the page path before (after.so, HEAD)
# and after (rowalign.so, this build), 10 M rows, 5 runs in fresh sessions, serial and 8 workers.
# Carry .gpuhost and .gpubuild.  ROWALIGN_BENCH_S: seconds for both (default 590).  Run from the repository root; copies results under $OUT.
nvidia-smi --query-gpu=name --format=csv,noheader
md5sum .gpubuild/*.so
sysctl -qw vm.nr_hugepages=16800
T0=$SECONDS
for so in after rowalign; do
	S=$SECONDS
	GPU_REDUCE_SO=$PWD/.gpubuild/$so.so timeout $((${ROWALIGN_BENCH_S:-590} - SECONDS + T0)) bash bench/pg_bench.sh --server gpuhost \
		--rows 10000000 --runs 5 --sessions fresh --server-opts "-c huge_pages=try" --out /tmp/pb-$so \
		--cases 'bulk_narrow_sum_int8,bulk_narrow_sum_float8,bulk_narrow_four,bulk_narrow_top2_float8,bulk_narrow_var_int8' \
		> /tmp/pb-$so.log 2>&1
	echo "$so: pg_bench rc=$? in $((SECONDS-S)) s"
	mkdir -p $OUT/$so; cp /tmp/pb-$so/results.csv $OUT/$so/ 2>/dev/null; cp /tmp/pb-$so.log $OUT/$so/run.log
done
for so in after rowalign; do echo "== $so"; cut -d, -f1-6,16-18 /tmp/pb-$so/results.csv; done
