# Before (e8212db, the kinds table, installed as 1.2) and after (this build: the variance family,
# the scan description, the sink, native aggregates) on the GPU host, one server, the same tables:
# page-path and row-path cases against native in fresh sessions, 5 runs, serial and 8 workers,
# then the variance cases and native aggregates taken by the node (after only).  Carry .gpuhost
# and .gpubuild (before.so, after.so).  Run from the repository root; copies results under $OUT.
nvidia-smi --query-gpu=name --format=csv,noheader
md5sum .gpubuild/*.so
sysctl -qw vm.nr_hugepages=16800
CASES='bulk_narrow_sum_int8,bulk_narrow_sum_float8,bulk_narrow_four,bulk_sum_numeric,group1k_sum_int8,bulk_rowpath_four'
NEW='bulk_narrow_var_int8,bulk_narrow_stddev_float8,bulk_var_numeric,group1k_var_int4,native_sum_int8,native_avg_numeric,native_max_timestamptz,bulk_avg_numeric,bulk_max_timestamptz'
T0=$SECONDS
run() {	# label so cases env...
	local b=$1 so=$2 cases=$3 S=$SECONDS
	shift 3
	env "$@" GPU_REDUCE_SO=$PWD/.gpubuild/$so timeout $((585 - SECONDS + T0)) bash bench/pg_bench.sh --server gpuhost \
		--rows ${AB_ROWS:-10000000} --runs 5 --sessions fresh --server-opts "-c huge_pages=try" \
		--out /tmp/ab/$b --cases "$cases" > /tmp/ab-$b.log 2>&1
	echo "$b: pg_bench rc=$? in $((SECONDS-S)) s"
	mkdir -p $OUT/$b; cp /tmp/ab/$b/results.csv $OUT/$b/ 2>/dev/null; cp /tmp/ab-$b.log $OUT/$b/run.log
}
# AB_PHASE=ab: before and after; AB_PHASE=new: the new cases (one device call each)
if [ "${AB_PHASE:-ab}" = ab ]; then
	run before before.so "$CASES" GPU_REDUCE_VERSION=1.2 PGB_NATIVE_OFF=0
	run after after.so "$CASES"
	for b in before after; do echo "== $b"; cut -d, -f1-6,16-17 /tmp/ab/$b/results.csv; done
else
	run new after.so "$NEW"
	echo "== new"; cut -d, -f1-6,16-17 /tmp/ab/new/results.csv
fi
