source /tmp/pgt/pgroot/activate.sh
W="where l_shipdate >= date '1994-01-01' and l_shipdate < date '1994-01-01' + interval '1' year and l_discount between 0.06 - 0.01 and 0.06 + 0.01 and l_quantity < 24"
svc=$(ps -eo pid,cmd | grep "[g]pu_reduce service\|[g]pu_reduce" | head -3)
echo "$svc"
pinned() {	# core query
  coproc PS { psql -h /tmp/pgt/sock -U postgres -d postgres -X -At 2>&1; }
  echo "select pg_backend_pid();" >&${PS[1]}
  read -u ${PS[0]} pid
  [ "$1" != - ] && taskset -cp $1 $pid >/dev/null
  echo "SET max_parallel_workers_per_gather = 0;" >&${PS[1]}
  echo '\timing on' >&${PS[1]}
  echo "$2;" >&${PS[1]}
  echo "select 'DONE';" >&${PS[1]}
  t=""
  while read -u ${PS[0]} line; do case "$line" in Time:*) t=${line#Time: };; DONE) break;; esac; done
  echo '\q' >&${PS[1]}; wait $PS_PID 2>/dev/null
  echo "${t% ms}"
}
for c in $(seq 0 15); do
  echo "core $c: floor $(pinned $c "SET gpu_reduce.debug_page_read_only = on; select gpu_sum(l_orderkey) from lineitem") $(pinned $c "SET gpu_reduce.debug_page_read_only = on; select gpu_sum(l_orderkey) from lineitem") native_f $(pinned $c "SET gpu_reduce.bulk_scan = off; select sum(l_extendedprice * l_discount) from lineitem_f $W") node_f $(pinned $c "select gpu_sum(l_extendedprice * l_discount) from lineitem_f $W")"
done
