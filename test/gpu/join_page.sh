#!/usr/bin/env bash
# Joins on the GPU's page path, on a GPU host: (re)starts the bundled
# PostgreSQL of .gpuhost/ in /tmp/pg with the carried build (test/gpu/server.sh)
# and runs sql/join.sql through pg_regress twice, every batch on the GPU
# (min_gpu_rows 1):
#   1. as it is: the joins before its page-path section are read and probed
#      by the GPU's jobs (page_path on, the default), that section's by the
#      backend's (page_path = cpu); the output must be expected/join.out;
#   2. with that section's page path on too: the same output but for its
#      "Page Path: gpu" line.
# A job the GPU failed would show in the output (the fallback's WARNING),
# so the same output is the GPU's; gpu_reduce_devices() shows what ran
# there.  Ends with "join_page: PASSED" or "FAILED".
# usage: bash test/gpu/join_page.sh      (logs under $OUT or /tmp/join_page)
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${OUT:-/tmp/join_page}
dir=/tmp/pg
mkdir -p "$out"

source "$root/test/gpu/server.sh"
gpu_server_install && gpu_server_restart || exit 1
gpu_server_wait
fail=0
regress="$(dirname "$(pg_config --pgxs)")/../test/regress/pg_regress"
# from PostgreSQL 16 on, pg_regress looks for expected/ apart from the input
expected_opt() { "$regress" --help | grep -q -- --expecteddir && echo "--expecteddir=$1"; }
batches() { psql_ -Atq -c "SET client_min_messages = warning; SELECT sum(batches) FROM gpu_reduce_devices()"; }
before=$(batches)
for mode in cpu on; do
	mkdir -p "$out/$mode/sql" "$out/$mode/expected"
	sed "s/^SET gpu_reduce.page_path = cpu;/SET gpu_reduce.page_path = $mode;/" \
		"$root/sql/join.sql" >"$out/$mode/sql/join.sql"
	sed "s/^ Page Path: cpu$/ Page Path: $([ $mode = on ] && echo gpu || echo cpu)/" \
		"$root/expected/join.out" |
		sed "s/^SET gpu_reduce.page_path = cpu;/SET gpu_reduce.page_path = $mode;/" \
			>"$out/$mode/expected/join.out"
	PGOPTIONS="-c gpu_reduce.min_gpu_rows=1" "$regress" --bindir="$(pg_config --bindir)" \
		--inputdir="$out/$mode" $(expected_opt "$out/$mode") --outputdir="$out/$mode" \
		--host="$dir/sock" --user=postgres \
		--load-extension=gpu_reduce join >"$out/regress-$mode.log" 2>&1 ||
		{ fail=1; head -150 "$out/$mode/regression.diffs"; }
	grep -E "tests? passed|failed" "$out/regress-$mode.log"
done
after=$(batches)
echo "GPU jobs and batches during the runs: $((after - before))"
[ "$((after - before))" -gt 0 ] || fail=1
grep -c "WARNING" "$out"/*/results/join.out || true
psql_ -c "SELECT * FROM gpu_reduce_devices()"
if [ $fail = 0 ]; then echo "join_page: PASSED"; else echo "join_page: FAILED"; fi
exit $fail
