# quick A/B on the warm GPU host's running server (gpu_run.sh left it up)
source /tmp/pgt/pgroot/activate.sh
P() { psql -h /tmp/pgt/sock -U postgres -d postgres -X -At "$@"; }
one() { P -c "SET max_parallel_workers_per_gather = 0; $1" -c '\timing on' -c "$2" 2>&1 | awk '/^Time:/ {print $2}'; }
W="where l_shipdate >= date '1994-01-01' and l_shipdate < date '1994-01-01' + interval '1' year and l_discount between 0.06 - 0.01 and 0.06 + 0.01 and l_quantity < 24"
for r in 1 2 3 4 5 6 7; do
  a=$(one "" "select gpu_sum(l_extendedprice * l_discount) from lineitem $W")
  b=$(one "" "select gpu_sum(l_extendedprice * l_discount) from lineitem_f $W")
  c=$(one "SET gpu_reduce.debug_page_read_only = on" "select gpu_sum(l_orderkey) from lineitem")
  d=$(one "SET gpu_reduce.debug_page_read_only = on" "select gpu_sum(l_orderkey) from lineitem_f")
  e=$(one "" "select count(*) from lineitem_f $W")
  echo "q6 $a q6f $b floor $c floorf $d countf $e"
done
echo "--- with native q6f before each node run"
for r in 1 2 3; do
  n=$(one "SET gpu_reduce.bulk_scan = off" "select sum(l_extendedprice * l_discount) from lineitem_f $W")
  b=$(one "" "select gpu_sum(l_extendedprice * l_discount) from lineitem_f $W")
  n2=$(one "SET gpu_reduce.bulk_scan = off" "select sum(l_extendedprice * l_discount) from lineitem $W")
  a=$(one "" "select gpu_sum(l_extendedprice * l_discount) from lineitem $W")
  echo "nativef $n q6f $b native $n2 q6 $a"
done
