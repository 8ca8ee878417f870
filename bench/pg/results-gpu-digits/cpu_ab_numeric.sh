# cpu_ab_numeric.sh [N]: A/B of two builds, /tmp/A.so and /tmp/B.so, installed in turn (new sessions load the file; the server must not preload it), on numeric min/max/top-k through the row path and the bulk scan; table np = 5 M rows of numeric(12,2) column p; PSQL names the psql command
N=${1:-5}; LIB=$(pg_config --pkglibdir); PSQL=${PSQL:-psql}
for r in $(seq $N); do for b in A B; do
cp /tmp/$b.so $LIB/gpu_reduce.so
{ echo "set jit=off; set max_parallel_workers_per_gather=0; \\timing on"
for path in row bulk; do
 [ $path = row ] && echo "set gpu_reduce.bulk_scan=off;" || echo "set gpu_reduce.bulk_scan=on;"
 for a in min max; do
  echo "\\echo @n $b $path $a"; echo "select $a(p) from np;"
  echo "\\echo @g $b $path $a"; echo "select gpu_$a(p) from np;"
 done
 echo "\\echo @g $b $path top10"; echo "select gpu_topk(p, 10) from np;"
done; } | $PSQL -At 2>&1
done; done | python3 "$(dirname "$0")/../ab_medians.py"
