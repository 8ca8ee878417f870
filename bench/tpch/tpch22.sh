#!/bin/bash
# All 22 TPC-H queries, as TPC-H writes them (queries/q01.sql ... q22.sql, from
# DuckDB's tpch extension), on a throwaway server (test/harness.sh) with
# gpu_reduce preloaded: the eight tables from DuckDB's dbgen (gen.py) with
# primary keys and the usual foreign-key indexes (schema.sql, keys.sql),
# frozen, analyzed and prewarmed.  For each query and each workers setting,
# PostgreSQL's own plan (gpu_reduce.bulk_scan = off) against the default plan,
# each run in a fresh session, the two sides alternating (the first side too:
# native first in odd runs, the node first in even ones), medians; and
# DuckDB's own times of the same query texts on the same data.
#
#   bash bench/tpch/tpch22.sh SF OUTDIR [RUNS]        (RUNS default 3)
#
# Prints one CSV line per query and workers setting (and writes them to
# OUTDIR/results.csv):
#   query,workers,node_in_plan,answers_equal,native_ms,node_ms,ratio,duckdb_1t_ms,duckdb_all_ms,note
# node_in_plan: 1 when EXPLAIN (default settings) shows GpuReduce; answers_equal:
# 1 when every run's answer of the default plan is the same text, all rows in
# the query's order, as PostgreSQL's own plan's; ratio = native / node; duckdb_*:
# DuckDB's median on 1 thread and on all the host's threads; note: a timeout
# or an error, or native_plan_differs where the node is not in the default
# plan and yet it is not PostgreSQL's own (the planner's choice disturbed:
# compare plans/qNN-wW.txt with plans/qNN-wW-native.txt).  Then a 'total'
# line per workers setting (a timed-out run counts TPCH_TIMEOUT) and 'N
# passed, M failed': the queries whose answers were equal under every workers
# setting.  The exit status is 0 only when M is 0.  OUTDIR also gets
# README.md (a summary), duckdb.csv, plans/ (each EXPLAIN, the default plan's
# and PostgreSQL's own: -native), runs.log (every run's time), diff/ (both
# answers of any mismatch) and chart.png where matplotlib can be imported.
#
# Answers only (CI: .ci/run's tpch stage):
#   TPCH_ANSWERS_ONLY=1 bash bench/tpch/tpch22.sh 0.01 OUTDIR
# runs each query once per side and times nothing in DuckDB; with workers, the
# sessions make parallel plans cheap (parallel_setup_cost = 0 and the like:
# TPCH_PARALLEL_SETTINGS) so that a table of SF 0.01 is scanned in parallel.
#
# Environment:
#   TPCH_NO_BUILD=1          use the installed extension (no make, no make install)
#   TPCH_WORKERS             max_parallel_workers_per_gather settings (default "0 2")
#   TPCH_TIMEOUT             statement_timeout of each query in seconds (default 300)
#   TPCH_QUERIES             which queries (default "01 02 ... 22")
#   TPCH_QUERY_DIR           where query NN is qNN.sql (default bench/tpch/queries; other
#                            queries over the same tables: bench/tpch/like/)
#   TPCH_DATA                the CSV folder (default /tmp/gpu_reduce_tpch_sfSF; reused
#                            when its eight files are there)
#   TPCH_VENV                the venv made when python3 cannot import duckdb with the
#                            tpch extension wheel (default /tmp/gpu_reduce_tpch_venv)
#   TPCH_SHARED_BUFFERS      (default 2.5 GB per SF, at least 128 MB)
#   TPCH_SERVER_OPTS         more server options (-c k=v ...)
#   TPCH_NODE_SETTINGS       SQL run before each of the default plan's runs only
#   TPCH_ANALYZE=1           also EXPLAIN (ANALYZE, VERBOSE) each query whose plan has the
#                            node, after its timed runs (plans/qNN-wW-analyze.txt)
#   GPU_REDUCE_MAKEFLAGS     as for test/run_tests.sh (e.g. 'WITH_CUDA=no')
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
if [ $# -lt 2 ]; then
	sed -n '2,12p' "$0" >&2
	exit 2
fi
sf=$1
mkdir -p "$2"
out=$(cd "$2" && pwd)
runs=${3:-3}
answers_only=${TPCH_ANSWERS_ONLY:-0}
[ "$answers_only" = 1 ] && runs=1
workers=${TPCH_WORKERS:-0 2}
timeout_s=${TPCH_TIMEOUT:-300}
queries=${TPCH_QUERIES:-$(seq -f '%02g' 1 22 | tr '\n' ' ')}
qdir=$(cd "${TPCH_QUERY_DIR:-$here/queries}" && pwd)
data=${TPCH_DATA:-/tmp/gpu_reduce_tpch_sf$sf}
venv=${TPCH_VENV:-/tmp/gpu_reduce_tpch_venv}
tables="region nation part supplier partsupp customer orders lineitem"
parallel_settings=
if [ "$answers_only" = 1 ]; then
	parallel_settings=${TPCH_PARALLEL_SETTINGS-SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0; SET min_parallel_table_scan_size = 0; SET min_parallel_index_scan_size = 0}
fi
TPCH_PY=
T0=$SECONDS
# shellcheck source=../../test/harness.sh
source "$here/../../test/harness.sh"
# shellcheck source=timing.sh
source "$here/timing.sh"

tpch_log() { printf '# %s (%d s)\n' "$*" "$((SECONDS - T0))" >&2; }

# The python that runs gen.py: python3 when it imports duckdb and has the tpch
# extension's wheel, else a venv under /tmp with both from PyPI (made once;
# python3-venv installed with apt-get when we are root and it is missing).
tpch_python() {
	local check='import duckdb, glob, os, sys
sys.exit(not glob.glob(os.path.join(os.path.dirname(duckdb.__file__), "..", "duckdb_ext", "extensions", "*", "*", "tpch.duckdb_extension")))'
	if command -v python3 >/dev/null 2>&1 && python3 -c "$check" 2>/dev/null; then
		TPCH_PY=python3
		return 0
	fi
	TPCH_PY=$venv/bin/python
	if [ -x "$TPCH_PY" ] && "$TPCH_PY" -c "$check" 2>/dev/null; then return 0; fi
	if ! command -v python3 >/dev/null 2>&1 || ! python3 -c 'import venv, ensurepip' 2>/dev/null; then
		if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
			gr_log "python3-venv missing; installing it"
			export DEBIAN_FRONTEND=noninteractive
			apt-get update </dev/null >/dev/null
			apt-get install -y --no-install-recommends python3 python3-venv </dev/null >/dev/null ||
				gr_die "apt-get install python3-venv failed"
		else
			gr_die "python3 with the venv module is needed (as root: apt-get install -y python3-venv)"
		fi
	fi
	gr_log "making $venv: duckdb==1.4.4 duckdb-ext-tpch==1.4.4.20260205 from PyPI"
	rm -rf "$venv"
	python3 -m venv "$venv"
	"$venv/bin/pip" install -q --disable-pip-version-check duckdb==1.4.4 duckdb-ext-tpch==1.4.4.20260205 ||
		gr_die "pip install of duckdb and its tpch extension failed"
}

# Are all eight CSV files in the data folder?
tpch_have_data() {
	local t
	for t in $tables; do [ -f "$data/$t.csv" ] || return 1; done
}

# One run in a fresh session: prints "ms|answer" (answer: the rows as psql -At
# prints them), "timeout|" when statement_timeout cancelled it, "error|message".
tpch22_one() {	# settings query-file
	local r rc=0 t
	r=$(gr_psql -d postgres -At -c "$1" -c '\timing on' -f "$2" 2>&1) || rc=$?
	if [ "$rc" -ne 0 ]; then
		case $r in
		*"statement timeout"*) echo "timeout|" ;;
		*) echo "error|$(printf '%s\n' "$r" | grep -m 1 'ERROR' || printf '%s' "$r" | tail -n 1)" ;;
		esac
		return 0
	fi
	t=$(printf '%s\n' "$r" | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p' | tail -n 1)
	printf '%s|%s\n' "$t" "$(printf '%s\n' "$r" | grep -v -e '^Time: ' -e '^SET$' -e '^Timing is on\.$')"
}

# The settings of one side: $1 native|node, $2 workers.
tpch22_settings() {
	local s="SET max_parallel_workers_per_gather = $2; SET statement_timeout = '${timeout_s}s'"
	if [ "$2" != 0 ] && [ -n "$parallel_settings" ]; then s+="; $parallel_settings"; fi
	if [ "$1" = native ]; then
		s+="; SET gpu_reduce.bulk_scan = off"
	elif [ -n "${TPCH_NODE_SETTINGS:-}" ]; then
		s+="; $TPCH_NODE_SETTINGS"
	fi
	echo "$s"
}

# DuckDB's median of a query: $1 query (q01), $2 threads (1 or all); empty when not timed.
tpch22_duck() {
	[ -f "$out/duckdb.csv" ] || return 0
	if [ "$2" = 1 ]; then
		awk -F, -v q="$1" '$1 == q && $2 == 1 {print $3; exit}' "$out/duckdb.csv"
	else
		awk -F, -v q="$1" '$1 == q {m = $3} END {print m}' "$out/duckdb.csv"
	fi
}

# One query under one workers setting: EXPLAIN, then RUNS alternating runs;
# prints its CSV line and returns 1 when the answers differed.
tpch22_query() {	# qNN workers
	local q=$1 w=$2 f="$GR_TMP/q/$1.sql" in_plan same=1 note="" r a b ta tb n g ratio
	local nat=() node=()
	gr_psql -q -d postgres -c "$(tpch22_settings node "$w")" -c "EXPLAIN $(sed '/^--/d' "$f")" \
		>"$out/plans/$q-w$w.txt" 2>&1 || true
	in_plan=$(grep -q 'GpuReduce' "$out/plans/$q-w$w.txt" && echo 1 || echo 0)
	# PostgreSQL's own plan beside it: without the node both should be one plan
	gr_psql -q -d postgres -c "$(tpch22_settings native "$w")" -c "EXPLAIN $(sed '/^--/d' "$f")" \
		>"$out/plans/$q-w$w-native.txt" 2>&1 || true
	if [ "$in_plan" = 0 ] && ! cmp -s "$out/plans/$q-w$w.txt" "$out/plans/$q-w$w-native.txt"; then
		note+="native_plan_differs "
	fi
	for ((r = 1; r <= runs; r++)); do
		# the side that goes first alternates: neither gains from the other's
		# leftovers (the same-plan ratios of the H200 run of d4667b5 leaned 4 %
		# towards native, which always went first)
		if ((r % 2)); then
			a=$(tpch22_one "$(tpch22_settings native "$w")" "$f")
			b=$(tpch22_one "$(tpch22_settings node "$w")" "$f")
		else
			b=$(tpch22_one "$(tpch22_settings node "$w")" "$f")
			a=$(tpch22_one "$(tpch22_settings native "$w")" "$f")
		fi
		ta=${a%%|*}
		tb=${b%%|*}
		echo "$q workers $w run $r: native $ta ms ($(printf '%s\n' "${a#*|}" | grep -c . || true) rows)," \
			"node $tb ms ($(printf '%s\n' "${b#*|}" | grep -c . || true) rows)" >>"$out/runs.log"
		case $ta in timeout) note+="native_timeout "; ta=$((timeout_s * 1000)) ;; error) note+="native_error "; ta= ;; esac
		case $tb in timeout) note+="node_timeout "; tb=$((timeout_s * 1000)) ;; error) note+="node_error "; tb= ;; esac
		[[ $a != error\|* ]] || echo "# $q workers $w, native: ${a#*|}" >&2
		[[ $b != error\|* ]] || echo "# $q workers $w, node: ${b#*|}" >&2
		nat+=("$ta")
		node+=("$tb")
		if [ "${a#*|}" != "${b#*|}" ] || [[ $a == timeout\|* || $a == error\|* ]] ||
			[[ $b == timeout\|* || $b == error\|* ]]; then
			same=0
			mkdir -p "$out/diff"
			printf '%s\n' "${a#*|}" >"$out/diff/$q-w$w-native.txt"
			printf '%s\n' "${b#*|}" >"$out/diff/$q-w$w-node.txt"
		fi
		# a timeout is not worth waiting for again
		case "$note" in *timeout*) break ;; esac
	done
	# where the node is in the plan, where its time went (after the timed runs)
	if [ "${TPCH_ANALYZE:-0}" = 1 ] && [ "$in_plan" = 1 ]; then
		gr_psql -q -d postgres -c "$(tpch22_settings node "$w")" \
			-c "EXPLAIN (ANALYZE, VERBOSE) $(sed '/^--/d' "$f")" >"$out/plans/$q-w$w-analyze.txt" 2>&1 || true
	fi
	n=$(printf '%s\n' "${nat[@]}" | grep . | tpch_median || true)
	g=$(printf '%s\n' "${node[@]}" | grep . | tpch_median || true)
	ratio=$(awk -v n="$n" -v g="$g" 'BEGIN {if (n != "" && g > 0) printf "%.2f", n / g}')
	[ -z "$n" ] || n=$(printf '%.1f' "$n")
	[ -z "$g" ] || g=$(printf '%.1f' "$g")
	# shellcheck disable=SC2086
	note=$(printf '%s\n' $note | awk 'NF && !seen[$0]++' | paste -sd' ' -)
	echo "$q,$w,$in_plan,$same,$n,$g,$ratio,$(tpch22_duck "$q" 1),$(tpch22_duck "$q" all),${note}"
	[ "$same" = 1 ]
}

# The totals of the queries per workers setting, as CSV lines, from results.csv.
tpch22_totals() {
	local w
	for w in $workers; do
		awk -F, -v w="$w" 'NR > 1 && $1 != "total" && $2 == w {
				p += $3; e += $4; n += $5; g += $6; d1 += $8; da += $9; k++
			}
			END {printf "total,%s,%d,%d,%.1f,%.1f,%s,%s,%s,%d queries\n", w, p, e, n, g,
				(g > 0 ? sprintf("%.2f", n / g) : ""), (d1 > 0 ? sprintf("%.1f", d1) : ""),
				(da > 0 ? sprintf("%.1f", da) : ""), k}' "$out/results.csv"
	done
}

# OUTDIR/README.md: how the results were made, the table, the totals.
tpch22_readme() {	# passed failed elapsed
	local commit host gpu
	commit=$(git -C "$here" rev-parse --short HEAD 2>/dev/null || echo unknown)
	host="$(nproc) cores, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | sed -n 1p)"
	gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | paste -sd, || true)
	{
		echo "# TPC-H, 22 queries, SF $sf: PostgreSQL's plan against gpu_reduce's default plan"
		echo
		echo "Made $(date -u '+%Y-%m-%d %H:%M UTC') at $commit by"
		echo
		echo "    ${TPCH_ANSWERS_ONLY:+TPCH_ANSWERS_ONLY=$TPCH_ANSWERS_ONLY }bash bench/tpch/tpch22.sh $sf OUTDIR $runs"
		echo
		echo "Host: $host; GPU: ${gpu:-none}. PostgreSQL: $("$PG_CONFIG" --version)."
		echo "Workers settings: $workers; $runs run(s) a side, fresh sessions, medians; statement_timeout ${timeout_s} s."
		[ -z "$parallel_settings" ] || echo "With workers, the sessions also ran: \`$parallel_settings\`."
		echo "Times in ms. native: \`gpu_reduce.bulk_scan = off\`; node: the default plan; ratio native/node;"
		echo "DuckDB 1.4.4 on the same data, 1 thread and $(nproc) threads (empty when not timed)."
		echo "Answers: $1 passed, $2 failed (a query passes when its answers were equal under every workers setting)."
		echo "The run took $3 s."
		echo
		echo "| query | workers | GpuReduce in plan | answers equal | native | node | ratio | DuckDB 1 thread | DuckDB all | note |"
		echo "|---|---|---|---|---|---|---|---|---|---|"
		awk -F, 'NR > 1 {
				row = "| " $1
				for (i = 2; i <= 10; i++) row = row " | " $i
				print row " |"
			}' "$out/results.csv"
		[ ! -f "$out/chart.png" ] || printf '\n![per-query times](chart.png)\n'
	} >"$out/README.md"
}

mkdir -p "$out/plans"
rm -rf "$out/diff"
: >"$out/runs.log"
rm -f "$out/duckdb.csv"

# data, and DuckDB's times unless answers only
if [ "$answers_only" = 1 ] && tpch_have_data; then
	tpch_log "data in $data"
else
	tpch_python
	tpch_log "python: $TPCH_PY"
	gen=("$TPCH_PY" "$here/gen.py" "$sf" "$data" --all)
	if [ "$answers_only" != 1 ]; then
		for q in $queries; do gen+=(--time "$qdir/q$q.sql"); done
		gen+=(--runs "$runs" --times-csv "$out/duckdb.csv")
	fi
	"${gen[@]}" >"$out/duckdb.txt"
	[ "$answers_only" = 1 ] && rm -f "$out/duckdb.txt"
	tpch_log "dbgen${TPCH_ANSWERS_ONLY:+ (no DuckDB timing)} done: $data"
fi
chmod 755 "$data"
chmod 644 "$data"/*.csv

gr_ensure_packages
if [ "${TPCH_NO_BUILD:-0}" = 1 ]; then
	gr_log "TPCH_NO_BUILD=1: the installed gpu_reduce of $PG_CONFIG, not built"
else
	gr_build >/dev/null
fi
sb=${TPCH_SHARED_BUFFERS:-$(awk -v sf="$sf" 'BEGIN {m = int(sf * 2560); print (m < 128 ? 128 : m) "MB"}')}
# shellcheck disable=SC2086
gr_start -c shared_buffers="$sb" -c max_parallel_workers_per_gather=0 \
	-c shared_preload_libraries=gpu_reduce ${TPCH_SERVER_OPTS:-} >/dev/null
gr_psql -q -d postgres -c "CREATE EXTENSION gpu_reduce" -c "CREATE EXTENSION pg_prewarm"
mkdir -p "$GR_TMP/q"
cp "$here"/schema.sql "$here"/create.sql "$here"/keys.sql "$GR_TMP"/
for q in $queries; do cp "$qdir/q$q.sql" "$GR_TMP/q/"; done
chmod -R a+rX "$GR_TMP/q" "$GR_TMP"/*.sql
gr_psql -q -d postgres -c "SET client_min_messages = warning" -f "$GR_TMP/schema.sql"
for t in $tables; do
	gr_psql -q -d postgres -c "\\copy $t FROM '$data/$t.csv' WITH (FORMAT csv, DELIMITER '|')"
done
gr_psql -q -d postgres -f "$GR_TMP/keys.sql"
gr_psql -At -d postgres -c "SELECT sum(pg_prewarm(c.oid)) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
	WHERE n.nspname = 'public' AND c.relkind IN ('r', 'i')" >/dev/null
tpch_log "loaded, keyed, frozen, analyzed, prewarmed: $(gr_psql -At -d postgres -c \
	"SELECT pg_size_pretty(pg_database_size('postgres'))"), lineitem $(gr_psql -At -d postgres -c \
	"SELECT count(*) FROM lineitem") rows; shared_buffers $sb"

echo "query,workers,node_in_plan,answers_equal,native_ms,node_ms,ratio,duckdb_1t_ms,duckdb_all_ms,note" |
	tee "$out/results.csv"
passed=0
failed=0
for q in $queries; do
	ok=1
	for w in $workers; do
		tpch22_query "q$q" "$w" | tee -a "$out/results.csv" || ok=0
	done
	if [ "$ok" = 1 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
done
tpch22_totals | tee -a "$out/results.csv"
for p in "$TPCH_PY" python3; do
	if [ -n "$p" ] && "$p" -c 'import matplotlib' 2>/dev/null; then
		"$p" "$here/chart22.py" "$out/results.csv" "$out/chart.png" >&2 || true
		break
	fi
done
tpch22_readme "$passed" "$failed" "$((SECONDS - T0))"
tpch_log "results in $out"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
