# bench.sh DEADLINE_S OUTNAME [pg_bench args...]: one pg_bench run appending to /tmp/bo/NAME, copied to $OUT
dl=$1 name=$2; shift 2
B=/tmp/bo/$name; mkdir -p $B
sysctl -qw vm.nr_hugepages=16800; grep HugePages_Free /proc/meminfo
ap=; [ -f $B/results.csv ] && ap=--append
S=$SECONDS
timeout $dl bash bench/pg_bench.sh --server gpuhost --rows 50000000 --runs 5 --sessions fresh --server-opts "-c huge_pages=try" --out $B $ap "$@" > $B/run.$(date +%s).log 2>&1
echo "pg_bench $* rc=$? in $((SECONDS-S)) s"
grep HugePages_Free /proc/meminfo
mkdir -p $OUT/$name; cp -r $B/* $OUT/$name/ 2>/dev/null
cat $B/results.csv | cut -c1-300
