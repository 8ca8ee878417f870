#!/usr/bin/env bash
# test/held_pins_stress.sh [SECONDS] -- the page path's held pins (src/held_pins.c)
# against VACUUM's cleanup locks, on a throwaway server (test/harness.sh).
#
# For SECONDS (default 30): two sessions scan a table through the page path
# (gpu_reduce.page_path = cpu, so without a GPU too: each job's pages stay
# held-pinned while the backend decodes the jobs before them), each answer
# checked against sum(); a third updates rows and runs VACUUM (FREEZE,
# DISABLE_PAGE_SKIPPING) with vacuum_freeze_min_age = 0, so that every page
# needs freezing and VACUUM waits for a cleanup lock on any page a scan
# holds: the drop of the last held pin must wake it (as UnpinBuffer does),
# or it waits for ever.  Passes when every scan answered right, at least one
# VACUUM finished after the others stopped, no statement ran past its
# timeout, and no buffer is left pinned.  Ends with '1 passed, 0 failed' or
# '0 passed, 1 failed'.
set -euo pipefail
# shellcheck source=test/harness.sh
source "$(dirname "$0")/harness.sh"
secs=${1:-30}

gr_ensure_packages
gr_build
gr_start -c shared_buffers=256MB
gr_psql -d postgres -q -c "CREATE EXTENSION gpu_reduce" -c "CREATE EXTENSION pg_buffercache" \
	-c "CREATE TABLE hp AS SELECT g AS id, g::int8 * 7 AS v, repeat('x', 40) AS pad FROM generate_series(1, 200000) g" \
	-c "ALTER TABLE hp SET (autovacuum_enabled = off)" -c "VACUUM ANALYZE hp"
out=$GR_TMP/stress
mkdir -p "$out"
end=$((SECONDS + secs))
for s in 1 2; do
	(
		n=0 bad=0
		while [ $SECONDS -lt "$end" ]; do
			r=$(gr_psql -d postgres -At -c "SET statement_timeout = '60s'" -c "SET gpu_reduce.page_path = cpu" \
				-c "SET max_parallel_workers_per_gather = 0" \
				-c "SELECT gpu_sum(v) = sum(v)::numeric FROM hp" 2>&1 | tail -n 1) || true
			n=$((n + 1))
			[ "$r" = t ] || { bad=$((bad + 1)); echo "scan $s: $r" >&2; }
		done
		echo "$n $bad" >"$out/scan$s"
	) &
done
(
	n=0 bad=0
	while [ $SECONDS -lt "$end" ]; do
		gr_psql -d postgres -q -c "SET statement_timeout = '60s'" -c "UPDATE hp SET v = v + 1 WHERE id % 53 = $((n % 53))" \
			-c "SET vacuum_freeze_min_age = 0" -c "VACUUM (FREEZE, DISABLE_PAGE_SKIPPING) hp" >/dev/null 2>&1 ||
			{ bad=$((bad + 1)); echo "vacuum $n failed" >&2; }
		n=$((n + 1))
	done
	echo "$n $bad" >"$out/vacuum"
) &
# how often a VACUUM was seen waiting for a pin (information, not a condition)
waits=0
while [ $SECONDS -lt "$end" ]; do
	w=$(gr_psql -d postgres -At -c "SELECT count(*) FROM pg_stat_activity WHERE wait_event IN ('BufferPin', 'BufferCleanup')")
	[ "$w" = 0 ] || waits=$((waits + 1))
	sleep 0.1
done
wait
# one more after every scan has ended: no pin may be left for it to wait on
last=$(gr_psql -d postgres -At -c "SET statement_timeout = '60s'" -c "VACUUM (FREEZE, DISABLE_PAGE_SKIPPING) hp" -c "SELECT 'done'" 2>&1 | tail -n 1)
left=$(gr_psql -d postgres -At -c "SELECT count(*) FROM pg_buffercache WHERE pinning_backends > 0")
read -r n1 b1 <"$out/scan1"
read -r n2 b2 <"$out/scan2"
read -r nv bv <"$out/vacuum"
echo "held_pins_stress: $secs s, scans $((n1 + n2)) ($((b1 + b2)) wrong or failed), VACUUMs $nv ($bv failed)," \
	"samples with a VACUUM waiting for a pin: $waits, last VACUUM: $last, buffers left pinned: $left"
if [ $((b1 + b2 + bv)) -eq 0 ] && [ "$nv" -gt 0 ] && [ $((n1 + n2)) -gt 0 ] && [ "$last" = done ] && [ "$left" = 0 ]; then
	echo "1 passed, 0 failed"
else
	echo "0 passed, 1 failed"
	exit 1
fi
