#!/usr/bin/env bash
# The expression program on the GPU's page path, on a GPU host: (re)starts
# the bundled PostgreSQL 15 of .gpuhost/ in /tmp/pg (the one test/gpu_host.sh
# leaves, or a new one) with shared_preload_libraries = gpu_reduce and the
# buffer pool registered, installs the carried build (GPU_REDUCE_SO, default
# .gpubuild/gpu_reduce.so) and runs test/gpu/expr_page.sql over ROWS rows
# (default 4 M).  Ends with "expr_page: PASSED" or "expr_page: FAILED".
# usage: bash test/gpu/expr_page.sh [ROWS]     (log under $OUT or /tmp/expr_page)
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
rows=${1:-4000000}
out=${OUT:-/tmp/expr_page}
dir=/tmp/pg
mkdir -p "$out"

if [ ! -f "$dir/data/PG_VERSION" ]; then
	bash "$root/.gpuhost/start-pg.sh" "$dir" >/dev/null || exit 1
fi
source "$dir/pgroot/activate.sh"
so=${GPU_REDUCE_SO:-$root/.gpubuild/gpu_reduce.so}
install -m 755 "$so" "$(pg_config --pkglibdir)/gpu_reduce.so"
install -m 644 "$root/gpu_reduce.control" "$root"/gpu_reduce--*.sql "$(pg_config --sharedir)/extension/"
opts="-k $dir/sock -c listen_addresses='' -c shared_preload_libraries=gpu_reduce -c shared_buffers=8GB"
opts="$opts -c max_connections=100 -c max_worker_processes=32 -c max_parallel_workers=16"
if [ "$(id -u)" = 0 ]; then
	sysctl -qw vm.nr_hugepages=4200 2>/dev/null || true
	opts="$opts -c huge_pages=try"
fi
su pgrun -c "export LD_LIBRARY_PATH=$LD_LIBRARY_PATH; $(pg_config --bindir)/pg_ctl -D $dir/data -l $dir/log/server.log -o \"$opts\" restart -w" >/dev/null ||
	{ tail -30 "$dir/log/server.log"; exit 1; }
psql_() { psql -h "$dir/sock" -U postgres -X "$@"; }
psql_ -q -c "CREATE EXTENSION IF NOT EXISTS gpu_reduce"
for t in $(seq 1 60); do
	psql_ -At -c "SET client_min_messages = warning; SELECT page_path FROM gpu_reduce_devices()" 2>/dev/null |
		grep -qx 'buffer pool registered' && break
	sleep 0.5
done
psql_ -c "SELECT device, name, page_path FROM gpu_reduce_devices()"
psql_ -v ON_ERROR_STOP=1 -v rows="$rows" -f "$root/test/gpu/expr_page.sql" >"$out/expr_page.log" 2>&1
rc=$?
cat "$out/expr_page.log"
grep -E "gpu_reduce|WARNING|ERROR|FATAL|PANIC" "$dir/log/server.log" | tail -10
[ $rc = 0 ] && grep -q "expr_page: all checks passed" "$out/expr_page.log"
echo "expr_page: $([ $? = 0 ] && echo PASSED || echo FAILED)"
