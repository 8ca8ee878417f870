#!/usr/bin/env bash
# test/fuzz/run.sh -- differential fuzzing of the GpuReduce node against PostgreSQL's own plan.
#
# Builds and installs the extension and starts a throwaway cluster
# (test/harness.sh), twice: plain, then with shared_preload_libraries =
# gpu_reduce (the GPU service; max_worker_processes = 16).  In each, in a fresh
# database, test/fuzz/fuzz.py runs COUNT random aggregate queries per seed over
# random tables, each query with gpu_reduce.bulk_scan on and off under random
# settings, answers compared (see fuzz.py's docstring).  Then fuzz.py's
# negative control runs once (it corrupts the node side of every 4th query)
# and must report differences, and the server log is checked for crashes.
# Every failure is written as a replayable SQL script under the output
# directory.  Ends with 'N passed, N failed': queries that matched, and
# differences plus crashes (the negative control counts as one either way).
#
# usage: bash test/fuzz/run.sh [SEEDS] [COUNT]
#   SEEDS   seeds, space or comma separated (default: $GPU_REDUCE_FUZZ_SEEDS, else '1 2 3 4')
#   COUNT   queries per seed and server (default: $GPU_REDUCE_FUZZ_COUNT, else 800)
#
# Environment:
#   GPU_REDUCE_FUZZ_SEEDS     as SEEDS
#   GPU_REDUCE_FUZZ_COUNT     as COUNT
#   GPU_REDUCE_FUZZ_PROFILE   cpu (default) or gpu: gpu also sets gpu_reduce.min_gpu_rows = 1 for
#                             every query (batches of any size go to the GPU)
#   GPU_REDUCE_FUZZ_OUT       directory for the failures' scripts (default /tmp/gr_fuzz; its
#                             plain/, preload/ and control/ are emptied first)
#   GPU_REDUCE_FUZZ_ARGS      more fuzz.py arguments, e.g. '--time-limit 600'
#   and those of test/harness.sh (PG_CONFIG, GPU_REDUCE_MAKEFLAGS, GPU_REDUCE_KEEP_TMP, ...)
set -euo pipefail

# shellcheck source=test/harness.sh
source "$(dirname "$0")/../harness.sh"

SEEDS=${1:-${GPU_REDUCE_FUZZ_SEEDS:-1 2 3 4}}
SEEDS=${SEEDS//,/ }
COUNT=${2:-${GPU_REDUCE_FUZZ_COUNT:-800}}
PROFILE=${GPU_REDUCE_FUZZ_PROFILE:-cpu}
OUT=${GPU_REDUCE_FUZZ_OUT:-/tmp/gr_fuzz}
FUZZ=$GR_ROOT/test/fuzz/fuzz.py
DB=gr_fuzz
case $PROFILE in
cpu | gpu) ;;
*) gr_die "GPU_REDUCE_FUZZ_PROFILE must be cpu or gpu, not '$PROFILE'" ;;
esac
command -v python3 >/dev/null 2>&1 || gr_die "python3 is needed"

gr_ensure_packages
gr_build
gr_init_cluster
rm -rf "$OUT/plain" "$OUT/preload" "$OUT/control"
mkdir -p "$OUT"

TOTAL_PASSED=0
TOTAL_FAILED=0
FUZZ_CRASHES=0
START=$(date +%s)

# A fresh database with the extension.
fresh_db() {
	gr_psql -q -d postgres -c "SET client_min_messages = warning" -c "DROP DATABASE IF EXISTS $DB" \
		-c "CREATE DATABASE $DB" >/dev/null
	gr_psql -q -d "$DB" -c "CREATE EXTENSION gpu_reduce" >/dev/null
}

# Run fuzz.py with the server's connection and the given arguments; its output
# goes to the terminal and to $GR_TMP/fuzz.log.
run_fuzz() {
	# shellcheck disable=SC2086
	PATH="$GR_BINDIR:$PATH" python3 "$FUZZ" --host "$GR_SOCK" --port "$GR_PORT" --dbname "$DB" \
		--user "$GR_OS_USER" --server-log "$GR_TMP/server.log" --settings-profile "$PROFILE" \
		${GPU_REDUCE_FUZZ_ARGS:-} "$@" 2>&1 | tee "$GR_TMP/fuzz.log" || true
}

# Add the last run_fuzz's counts to the totals: its last line 'N passed, M failed', and the
# processes its server log showed terminated by a signal.
count_fuzz() {
	local label=$1 last passed failed crashes
	last=$(tail -n 1 "$GR_TMP/fuzz.log")
	if ! [[ $last =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed$ ]]; then
		echo "=== $label: fuzz.py did not finish"
		TOTAL_FAILED=$((TOTAL_FAILED + 1))
		return
	fi
	passed=${BASH_REMATCH[1]}
	failed=${BASH_REMATCH[2]}
	crashes=$(sed -n 's/^fuzz: .* showed \([0-9][0-9]*\) processes terminated by a signal$/\1/p' "$GR_TMP/fuzz.log")
	TOTAL_PASSED=$((TOTAL_PASSED + passed))
	TOTAL_FAILED=$((TOTAL_FAILED + failed))
	FUZZ_CRASHES=$((FUZZ_CRASHES + ${crashes:-0}))
	echo "=== $label: $passed passed, $failed failed"
}

for server in plain preload; do
	if [ "$server" = preload ]; then
		gr_restart -c shared_preload_libraries=gpu_reduce -c max_worker_processes=16
	else
		gr_restart -c max_worker_processes=16
	fi
	fresh_db
	for seed in $SEEDS; do
		echo "=== server $server, seed $seed, $COUNT queries, profile $PROFILE"
		run_fuzz --seed "$seed" --count "$COUNT" --out "$OUT/$server"
		count_fuzz "$server seed $seed"
	done
done

# the negative control: the node side of every 4th query corrupted; it must be caught
echo "=== negative control"
run_fuzz --seed 1000 --count 40 --negative-control --out "$OUT/control"
detected=$(sed -n 's/^negative control: [0-9]* corrupted queries, \([0-9]*\) detected$/\1/p' "$GR_TMP/fuzz.log")
crashes=$(sed -n 's/^fuzz: .* showed \([0-9][0-9]*\) processes terminated by a signal$/\1/p' "$GR_TMP/fuzz.log")
FUZZ_CRASHES=$((FUZZ_CRASHES + ${crashes:-0}))
if [ "${detected:-0}" -gt 0 ]; then
	echo "=== negative control: $detected corrupted queries detected: passed"
	TOTAL_PASSED=$((TOTAL_PASSED + 1))
else
	echo "=== negative control: no difference reported: FAILED"
	TOTAL_FAILED=$((TOTAL_FAILED + 1))
fi
gr_stop

# crashes fuzz.py did not see in the log (it counts those it saw among its failures)
LOGGED=$(grep -c 'terminated by signal' "$GR_TMP/server.log" || true)
if [ "$LOGGED" -gt "$FUZZ_CRASHES" ]; then
	echo "=== server log: $LOGGED processes terminated by a signal, $FUZZ_CRASHES seen by fuzz.py:"
	grep 'terminated by signal' "$GR_TMP/server.log" | tail -n 5
	TOTAL_FAILED=$((TOTAL_FAILED + LOGGED - FUZZ_CRASHES))
fi
[ "$TOTAL_FAILED" -eq 0 ] || echo "failures written to $OUT"
echo "=== fuzz run took $(($(date +%s) - START)) s"
echo "$TOTAL_PASSED passed, $TOTAL_FAILED failed"
[ "$TOTAL_FAILED" -eq 0 ]
