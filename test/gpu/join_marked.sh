#!/usr/bin/env bash
# Marked joins on the GPU's page path, on a GPU host: (re)starts the bundled
# PostgreSQL of .gpuhost/ in /tmp/pg with the carried build (test/gpu/server.sh)
# and runs test/gpu/join_marked.sql: a semi and an anti join into a 3 M-row
# table, serial and parallel, with the page path on, cpu and off, against
# PostgreSQL's answers; the runs on the GPU must say "Page Path: gpu", decode
# pages there, and mark the same rows as the backend's.  A job the GPU failed
# would show as the fallback's WARNING, which fails the run.  Ends with
# "join_marked: PASSED" or "FAILED".
# usage: bash test/gpu/join_marked.sh      (log under $OUT or /tmp/join_marked)
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${OUT:-/tmp/join_marked}
dir=/tmp/pg
mkdir -p "$out"

source "$root/test/gpu/server.sh"
gpu_server_install && gpu_server_restart || exit 1
gpu_server_wait
PGOPTIONS="-c gpu_reduce.min_gpu_rows=1" psql_ -f "$root/test/gpu/join_marked.sql" >"$out/join_marked.out" 2>&1
cat "$out/join_marked.out"
if grep -q "join_marked: PASSED" "$out/join_marked.out" && ! grep -qE "WARNING|ERROR" "$out/join_marked.out"; then
	echo "join_marked: PASSED"
	exit 0
fi
echo "join_marked: FAILED"
exit 1
