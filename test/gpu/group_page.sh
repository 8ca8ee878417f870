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

source "$root/test/gpu/server.sh"
gpu_server_install && gpu_server_restart || exit 1
gpu_server_wait
fail=0
for mode in cpu on; do
	sed -e "s/^SET gpu_reduce.page_path = cpu;/SET gpu_reduce.page_path = $mode;/" \
		-e "s/^SET gpu_reduce.page_pins = 64;/SET gpu_reduce.page_pins = 256;/" \
		"$root/sql/group_pages.sql" >"$out/group_pages-$mode.sql"
	# on the GPU, every aggregate state's batch also goes to a slot (min_gpu_rows 1): the
	# scan's states then hold most slots, as they may under load, while its jobs need some
	PGOPTIONS="-c gpu_reduce.min_gpu_rows=$([ $mode = on ] && echo 1 || echo 65536)" \
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
