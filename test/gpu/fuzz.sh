#!/usr/bin/env bash
# The differential generator (test/fuzz/fuzz.py) on a GPU host, with every
# batch and job on the GPU: (re)starts the bundled PostgreSQL 15 of .gpuhost/
# in /tmp/pg with gpu_reduce preloaded (test/gpu/server.sh), installs the
# carried build (GPU_REDUCE_SO, default .gpubuild/gpu_reduce.so), waits for the
# GPU service, and runs fuzz.py's gpu profile (gpu_reduce.min_gpu_rows = 1
# for every query, beside its random settings) seed after seed until SECONDS
# have passed, each query through the node and through PostgreSQL's own plan.
# With GPU_FUZZ_SUITE=1 it first runs the whole pg_regress suite (sql/) on
# the same server.  Then the server log is checked for crashes and the
# GPU's counters shown (gpu_reduce_devices(): batches the GPU reduced).
# Failures are written as replayable SQL scripts under $OUT/fuzz.  Ends with
# 'N passed, N failed' and "fuzz_gpu: PASSED" or "FAILED".
# usage: bash test/gpu/fuzz.sh [SECONDS] [FIRST_SEED]   (default 600, 1; logs under $OUT or /tmp/fuzz_gpu)
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${OUT:-/tmp/fuzz_gpu}
dir=/tmp/pg
seconds=${1:-600}
seed=${2:-1}
mkdir -p "$out/fuzz"

source "$root/test/gpu/server.sh"
gpu_server_install && gpu_server_restart || exit 1
gpu_server_wait
fail=0
log_start=$(wc -l <"$dir/log/server.log")

if [ "${GPU_FUZZ_SUITE:-0}" = 1 ]; then
	echo "== pg_regress suite, every batch on the GPU"
	PGOPTIONS="-c gpu_reduce.min_gpu_rows=1" \
		"$(dirname "$(pg_config --pgxs)")/../test/regress/pg_regress" \
		--bindir="$(pg_config --bindir)" --inputdir="$root" --outputdir="$out/regress" \
		--host="$dir/sock" --user=postgres --load-extension=gpu_reduce \
		$(cd "$root/sql" && ls *.sql | sed 's/\.sql$//' | sort) >"$out/regress.log" 2>&1 ||
		{ fail=1; cp "$out/regress/regression.diffs" "$out/" 2>/dev/null; }
	grep -E '^(test| ) |tests (passed|failed)' "$out/regress.log"
fi

echo "== fuzz.py, gpu profile, $seconds s from seed $seed"
psql_ -q -d postgres -c "DROP DATABASE IF EXISTS gr_fuzz" -c "CREATE DATABASE gr_fuzz"
psql_ -q -d gr_fuzz -c "CREATE EXTENSION gpu_reduce"
start=$SECONDS
passed=0
failed=0
while [ $((SECONDS - start)) -lt "$seconds" ]; do
	left=$((seconds - (SECONDS - start)))
	python3 "$root/test/fuzz/fuzz.py" --host "$dir/sock" --dbname gr_fuzz --user postgres \
		--server-log "$dir/log/server.log" --settings-profile gpu --seed "$seed" \
		--count 100000 --time-limit "$left" --out "$out/fuzz/seed$seed" >"$out/fuzz-$seed.log" 2>&1
	tail -n 2 "$out/fuzz-$seed.log"
	last=$(tail -n 1 "$out/fuzz-$seed.log")
	if [[ $last =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed$ ]]; then
		passed=$((passed + BASH_REMATCH[1]))
		failed=$((failed + BASH_REMATCH[2]))
	else
		echo "seed $seed: fuzz.py did not finish"
		failed=$((failed + 1))
	fi
	seed=$((seed + 1))
done
echo "fuzz: $passed passed, $failed failed over $((SECONDS - start)) s"
[ "$failed" -eq 0 ] || fail=1

crashes=$(tail -n +"$log_start" "$dir/log/server.log" | grep -c 'terminated by signal')
echo "server processes terminated by a signal: $crashes"
[ "$crashes" -eq 0 ] || fail=1
psql_ -d postgres -c "SELECT device, name, batches, rows, page_path FROM gpu_reduce_devices()"
echo "$passed passed, $failed failed"
if [ "$fail" = 0 ]; then echo "fuzz_gpu: PASSED"; else echo "fuzz_gpu: FAILED"; fi
exit "$fail"
