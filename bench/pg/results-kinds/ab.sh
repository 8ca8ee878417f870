# Before (caa2e9b) and after (the kinds table) on the GPU host, one server, the same tables:
# page-path cases of issue 14 and row-path cases (GROUP BY, bulk_scan=off), each build against
# native in fresh sessions, 5 runs, serial and 8 workers.  Carry .gpuhost and .gpubuild
# (before.so, after.so).  Run from the repository root; copies results under $OUT.
nvidia-smi --query-gpu=name --format=csv,noheader
md5sum .gpubuild/*.so
sysctl -qw vm.nr_hugepages=16800
CASES='bulk_narrow_sum_int8,bulk_narrow_sum_float8,bulk_narrow_four,bulk_narrow_top2_float8,bulk_sum_numeric,group1k_sum_int8,group1k_sum_float8,bulk_rowpath_four,max_timestamptz'
T0=$SECONDS
for b in ${AB_ORDER:-before after}; do
	S=$SECONDS
	GPU_REDUCE_SO=$PWD/.gpubuild/$b.so timeout $((575 - SECONDS + T0)) bash bench/pg_bench.sh --server gpuhost \
		--rows ${AB_ROWS:-10000000} --runs 5 --sessions fresh --server-opts "-c huge_pages=try" \
		--out /tmp/ab/$b --cases "$CASES" > /tmp/ab-$b.log 2>&1
	echo "$b: pg_bench rc=$? in $((SECONDS-S)) s"
	mkdir -p $OUT/$b; cp /tmp/ab/$b/results.csv $OUT/$b/ 2>/dev/null; cp /tmp/ab-$b.log $OUT/$b/run.log
done
for b in before after; do echo "== $b"; cut -d, -f1-12 /tmp/ab/$b/results.csv; done
