#!/usr/bin/env bash
# GROUP BY on the GPU's page path, on a GPU host: (re)starts the bundled
# PostgreSQL 15 of .gpuhost/ in /tmp/pg (as test/gpu/expr_page.sh does),
# installs the carried build (GPU_REDUCE_SO, default .gpubuild/gpu_reduce.so)
# and runs sql/group_pages.sql twice: with gpu_reduce.page_path = cpu (each
# job grouped by the backend, as the kernel would) and = on (each job grouped
# by the kernel).  Both must give native's answers (every "same" column t)
# and the same output but for the page path's name; the GPU run must say
# "gpu" where the CPU run says "cpu".  Jobs are 64 pages (page_pins 256: the
# GPU takes no smaller job).  Ends with "group_page: PASSED" or "FAILED".
# usage: bash test/gpu/group_page.sh      (logs under $OUT or /tmp/group_page)
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${OUT:-/tmp/group_page}
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
fail=0
for mode in cpu on; do
	sed -e "s/^SET gpu_reduce.page_path = cpu;/SET gpu_reduce.page_path = $mode;/" \
		-e "s/^SET gpu_reduce.page_pins = 64;/SET gpu_reduce.page_pins = 256;/" \
		"$root/sql/group_pages.sql" >"$out/group_pages-$mode.sql"
	psql_ -a -f "$out/group_pages-$mode.sql" >"$out/group_pages-$mode.out" 2>&1
done
grep -n "ERROR" "$out/group_pages-on.out" && fail=1
# every answer native's, in both runs
grep -nE "^ [a-z]+ +\| f " "$out/group_pages-cpu.out" "$out/group_pages-on.out" && fail=1
sed -e "s/page_path = on;/page_path = cpu;/" -e "s/^ gpu / cpu /" "$out/group_pages-on.out" |
	diff "$out/group_pages-cpu.out" - >"$out/diff.txt"
ngpu=$(grep -cE "^ gpu +\|" "$out/group_pages-on.out")
ncpu=$(grep -cE "^ cpu +\|" "$out/group_pages-cpu.out")
echo "grouped on the GPU: $ngpu queries; by the backend (cpu run): $ncpu"
[ "$ngpu" = "$ncpu" ] && [ "$ngpu" -gt 0 ] || fail=1
if [ -s "$out/diff.txt" ]; then
	echo "the runs differ beyond the page path's name:"
	head -40 "$out/diff.txt"
	fail=1
fi
grep -E "gpu_reduce|WARNING|ERROR|FATAL|PANIC" "$dir/log/server.log" | tail -10
echo "group_page: $([ $fail = 0 ] && echo PASSED || echo FAILED)"
