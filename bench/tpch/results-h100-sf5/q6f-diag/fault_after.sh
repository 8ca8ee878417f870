# sourced by gpu_run.sh (TPCH_AFTER): a query twice in one session, faults counted
W="where l_shipdate >= date '1994-01-01' and l_shipdate < date '1994-01-01' + interval '1' year and l_discount between 0.06 - 0.01 and 0.06 + 0.01 and l_quantity < 24"
twice() {	# setting query
  coproc PS { tpch_psql -X -At 2>&1; }
  echo "select pg_backend_pid();" >&${PS[1]}
  read -u ${PS[0]} pid
  echo "SET max_parallel_workers_per_gather = 0; $1" >&${PS[1]}
  echo '\timing on' >&${PS[1]}
  local res=""
  for k in 1 2 3; do
    f0=$(awk '{print $10}' /proc/$pid/stat)
    echo "$2;" >&${PS[1]}
    echo "select 'DONE';" >&${PS[1]}
    t=""; n=0
    while read -u ${PS[0]} line; do case "$line" in Time:*) n=$((n+1)); [ $n = 1 ] && t=${line#Time: };; DONE) break;; esac; done
    read -u ${PS[0]} line  # DONE's time
    f1=$(awk '{print $10}' /proc/$pid/stat)
    res="$res ${t% ms}ms/$((f1 - f0))flt"
  done
  echo '\q' >&${PS[1]}; wait $PS_PID 2>/dev/null
  echo "$res"
}
for r in 1 2 3 4 5 6 7 8; do
  echo "floor: $(twice "SET gpu_reduce.debug_page_read_only = on" "select gpu_sum(l_orderkey) from lineitem")" | tee -a "$out/fault.txt"
  echo "q6f:   $(twice "" "select gpu_sum(l_extendedprice * l_discount) from lineitem_f $W")" | tee -a "$out/fault.txt"
done
grep -i huge /proc/meminfo | tee -a "$out/fault.txt"
cat /sys/kernel/mm/transparent_hugepage/enabled /proc/sys/kernel/numa_balancing 2>/dev/null | tee -a "$out/fault.txt"
uname -r | tee -a "$out/fault.txt"
