#!/usr/bin/env bash
# The scan's GROUP BY table full (sql/group_pages.sql's 6-group table over 100
# groups), on a GPU host: N times on the bundled server without a tool (a
# timing-dependent hang would show as a timeout), then once under
# compute-sanitizer memcheck (test/gpu/sanitize.sh with only these statements).
# usage: bash bench/pg/results/group-by/full_table.sh [N]   (logs under $OUT)
set -uo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
out=${OUT:-/tmp/full_table}
dir=/tmp/pg
n=${1:-100}
mkdir -p "$out"
{ sed -n '1,103p' "$root/sql/group_pages.sql"; sed -n '146,156p' "$root/sql/group_pages.sql"; } >"$out/full.sql"
source "$root/test/gpu/server.sh"
gpu_server_install && gpu_server_restart || exit 1
gpu_server_wait
sed -e "s/^SET gpu_reduce.page_path = cpu;/SET gpu_reduce.page_path = on;/" \
	-e "s/^SET gpu_reduce.page_pins = 64;/SET gpu_reduce.page_pins = 256;/" "$out/full.sql" >"$out/full-on.sql"
psql_ -a -f "$out/full-on.sql" >"$out/full-on.out" 2>&1
q="SELECT count(*) = 100 FROM (SELECT k100, count(*), gpu_sum(x) FROM gpk GROUP BY 1) s"
ok=0
start=$SECONDS
for i in $(seq 1 "$n"); do
	r=$(PGOPTIONS="-c statement_timeout=30s -c gpu_reduce.page_pins=256 -c gpu_reduce.debug_job_groups=6 -c max_parallel_workers_per_gather=0" \
		psql_ -At -c "$q" 2>&1)
	[ "$r" = t ] && ok=$((ok + 1)) || echo "run $i: $r"
done
echo "table full, no tool: $ok of $n queries answered in $((SECONDS - start)) s"
grep -E "^ [a-z]+ +\|" "$out/full-on.out"
OUT=$out/memcheck TOOLS=memcheck GROUP_SQL=$out/full.sql timeout ${SANITIZE_TIMEOUT:-420} bash "$root/test/gpu/sanitize.sh" >"$out/memcheck.txt" 2>&1
echo "memcheck exit: $?"
grep -E "^==|SUMMARY|statements|grouped queries|allocations|sanitize:|reported|crashed|failed|differs" "$out/memcheck.txt"
grep -E "^ [a-z]+ +\||ERROR" "$out/memcheck/memcheck.group_pages.out"
