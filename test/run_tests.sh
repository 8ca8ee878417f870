#!/usr/bin/env bash
# test/run_tests.sh -- build, install and run the regression suite in several passes.
#
# Every pass runs all sql/*.sql against the same expected/*.out: the answers
# must not depend on how rows are batched or whether the library is preloaded.
#
#   default    no extra settings
#   batch1     PGOPTIONS='-c gpu_reduce.batch_rows=1'
#   batch7     PGOPTIONS='-c gpu_reduce.batch_rows=7'
#   batch100k  PGOPTIONS='-c gpu_reduce.batch_rows=100000'
#   rowpath    PGOPTIONS='-c gpu_reduce.bulk_scan=off': every aggregate fed by
#              PostgreSQL's own scan (bulk_scan.sql turns it on for itself)
#   preload    server restarted with shared_preload_libraries=gpu_reduce
#
# Environment: GPU_REDUCE_PASSES (space or comma separated pass names, default
# all), GPU_REDUCE_TESTS (test names, default every sql/*.sql),
# GPU_REDUCE_SERVER_OPTS (extra server options for every pass, e.g.
# '-c max_worker_processes=32'), plus those of test/harness.sh (PG_CONFIG,
# GPU_REDUCE_MAKEFLAGS, ...).
# The server runs without autovacuum: the tests VACUUM and ANALYZE their
# tables themselves, and an autovacuum worker's ANALYZE of another table,
# holding its snapshot, kept a test's VACUUM from marking pages all-visible
# (bulk_scan's "All-Visible Pages: 0" in one CI pass of six).
# The default and preload passes also run the isolation specs of
# test/isolation (concurrent sessions, pg_isolation_regress); the default pass
# runs them once more through the page path (gpu_reduce.page_path = cpu).
# First builds and runs test/xsum_test.c, the unit test of the exact float
# accumulators.  Ends with the line 'N passed, N failed' (test files x passes,
# isolation specs included).
set -euo pipefail

# shellcheck source=test/harness.sh
source "$(dirname "$0")/harness.sh"

ALL_PASSES="default batch1 batch7 batch100k rowpath preload"
PASSES=${GPU_REDUCE_PASSES:-all}
[ "$PASSES" = all ] && PASSES=$ALL_PASSES
PASSES=${PASSES//,/ }
for p in $PASSES; do
	case " $ALL_PASSES " in
	*" $p "*) ;;
	*) gr_die "unknown pass '$p' (known: $ALL_PASSES)" ;;
	esac
done

gr_ensure_packages

if [ -n "${GPU_REDUCE_TESTS:-}" ]; then
	TESTS=${GPU_REDUCE_TESTS//,/ }
else
	TESTS=$(cd "$GR_ROOT/sql" && ls ./*.sql | sed 's|^\./||; s|\.sql$||' | LC_ALL=C sort | tr '\n' ' ')
fi
[ -n "${TESTS// /}" ] || gr_die "no tests found in $GR_ROOT/sql"
NTESTS=$(echo $TESTS | wc -w)

gr_build
gr_init_cluster

# unit test of the exact float accumulators, outside PostgreSQL
UNIT_FAILED=0
cc -O2 -Wall -I"$GR_ROOT/common" "$GR_ROOT/test/xsum_test.c" "$GR_ROOT/src/xsum.c" -lm \
	-o "$GR_TMP/xsum_test" && "$GR_TMP/xsum_test" || UNIT_FAILED=1

# pg_regress runs as the unprivileged user, who may not be able to read the
# repository (e.g. under /root): give it a copy of the suite
cp -r "$GR_ROOT/sql" "$GR_ROOT/expected" "$GR_TMP/suite/"
if [ "$(id -u)" -eq 0 ]; then chown -R "$GR_OS_USER" "$GR_TMP/suite" "$GR_TMP/out"; fi
PG_REGRESS=$(dirname "$("$PG_CONFIG" --pgxs)")/../test/regress/pg_regress
[ -x "$PG_REGRESS" ] || gr_die "pg_regress not found at $PG_REGRESS"
# isolation specs (concurrent sessions): test/isolation/specs, run in the
# default and preload passes
PG_ISOLATION_REGRESS=$(dirname "$("$PG_CONFIG" --pgxs)")/../test/isolation/pg_isolation_regress
[ -x "$PG_ISOLATION_REGRESS" ] || gr_die "pg_isolation_regress not found at $PG_ISOLATION_REGRESS"
ISO_TESTS=$(cd "$GR_ROOT/test/isolation/specs" && ls ./*.spec | sed 's|^\./||; s|\.spec$||' | LC_ALL=C sort | tr '\n' ' ')
NISO=$(echo $ISO_TESTS | wc -w)
cp -r "$GR_ROOT/test/isolation" "$GR_TMP/isolation"
if [ "$(id -u)" -eq 0 ]; then chown -R "$GR_OS_USER" "$GR_TMP/isolation"; fi

TOTAL_PASSED=0
TOTAL_FAILED=0
FAILED_PASSES=""
CURRENT_SERVER=none

# Run pg_regress or pg_isolation_regress against the server and count its
# results into the totals.  $1 label, $2 runner, $3 input dir, $4 output
# dir, $5 database, $6 tests expected, $7 PGOPTIONS; the rest are the tests.
run_runner() {
	local label=$1 runner=$2 indir=$3 out=$4 db=$5 ntests=$6 opts=$7 log start npass nfail rc=0
	shift 7
	log="$out/$(basename "$runner").log"
	mkdir -p "$out"
	if [ "$(id -u)" -eq 0 ]; then chown "$GR_OS_USER" "$out"; fi
	start=$(date +%s)
	PGOPTIONS=$opts gr_as_user "$runner" \
		--bindir="$GR_BINDIR" \
		--inputdir="$indir" \
		--outputdir="$out" \
		--load-extension=gpu_reduce \
		--host="$GR_SOCK" --port="$GR_PORT" \
		--dbname="$db" \
		"$@" >"$log" 2>&1 || rc=$?
	cat "$log"
	# PostgreSQL 15 prints 'test NAME ... ok', 16 and later TAP lines 'ok N - NAME'
	npass=$(grep -Ec '^(test| ) +[A-Za-z0-9_]+ +\.\.\. ok|^ok +[0-9]+ +- +[A-Za-z0-9_]+' "$log" || true)
	nfail=$((ntests - npass))
	if [ "$nfail" -gt 0 ] || [ "$rc" -ne 0 ]; then
		[ "$nfail" -gt 0 ] || nfail=1
		FAILED_PASSES+=" $label"
		if [ -f "$out/regression.diffs" ]; then
			echo "--- regression.diffs of $label:"
			cat "$out/regression.diffs"
		fi
	fi
	echo "=== pass $label: $npass passed, $nfail failed in $(($(date +%s) - start)) s"
	TOTAL_PASSED=$((TOTAL_PASSED + npass))
	TOTAL_FAILED=$((TOTAL_FAILED + nfail))
}

# Run the whole suite once, and in the default and preload passes the
# isolation specs; $1 = pass name.
run_pass() {
	local pass=$1 opts="" server="plain"
	case $pass in
	batch1) opts="-c gpu_reduce.batch_rows=1" ;;
	batch7) opts="-c gpu_reduce.batch_rows=7" ;;
	batch100k) opts="-c gpu_reduce.batch_rows=100000" ;;
	rowpath) opts="-c gpu_reduce.bulk_scan=off" ;;
	preload) server="preload" ;;
	esac
	if [ "$server" != "$CURRENT_SERVER" ]; then
		# shellcheck disable=SC2086
		if [ "$server" = preload ]; then
			gr_restart -c autovacuum=off ${GPU_REDUCE_SERVER_OPTS:-} -c shared_preload_libraries=gpu_reduce
		else
			gr_restart -c autovacuum=off ${GPU_REDUCE_SERVER_OPTS:-}
		fi
		CURRENT_SERVER=$server
	fi
	echo "=== pass $pass: PGOPTIONS='$opts' server=$server"
	# shellcheck disable=SC2086
	run_runner "$pass" "$PG_REGRESS" "$GR_TMP/suite" "$GR_TMP/out/$pass" "$GR_DB" \
		"$NTESTS" "$opts" $TESTS
	case $pass in
	default | preload)
		# shellcheck disable=SC2086
		run_runner "$pass-isolation" "$PG_ISOLATION_REGRESS" "$GR_TMP/isolation" \
			"$GR_TMP/out/$pass-isolation" "${GR_DB}_isolation" "$NISO" "" $ISO_TESTS
		;;
	esac
	if [ "$pass" = default ]; then
		# the same specs through the page path, pages held pinned a few jobs at a time
		# shellcheck disable=SC2086
		run_runner "$pass-isolation-pagepath" "$PG_ISOLATION_REGRESS" "$GR_TMP/isolation" \
			"$GR_TMP/out/$pass-isolation-pagepath" "${GR_DB}_isolation" "$NISO" \
			"-c gpu_reduce.page_path=cpu -c gpu_reduce.page_pins=8" $ISO_TESTS
	fi
}

for p in $PASSES; do
	run_pass "$p"
done
gr_stop

[ -z "$FAILED_PASSES" ] || echo "failed passes:$FAILED_PASSES"
[ "$UNIT_FAILED" = 0 ] || echo "test/xsum_test.c FAILED"
echo "$TOTAL_PASSED passed, $TOTAL_FAILED failed"
[ "$TOTAL_FAILED" -eq 0 ] && [ "$UNIT_FAILED" = 0 ]
