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

source "$root/test/gpu/server.sh"
gpu_server_install && gpu_server_restart || exit 1
gpu_server_wait
psql_ -v ON_ERROR_STOP=1 -v rows="$rows" -f "$root/test/gpu/expr_page.sql" >"$out/expr_page.log" 2>&1
rc=$?
cat "$out/expr_page.log"
grep -E "gpu_reduce|WARNING|ERROR|FATAL|PANIC" "$dir/log/server.log" | tail -10
[ $rc = 0 ] && grep -q "expr_page: all checks passed" "$out/expr_page.log"
echo "expr_page: $([ $? = 0 ] && echo PASSED || echo FAILED)"
