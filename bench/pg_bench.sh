#!/usr/bin/env bash
# bench/pg_bench.sh -- gpu_* aggregates against the native way of writing each query, end to end in PostgreSQL.
#
# usage: bash bench/pg_bench.sh [--rows N] [--runs R] [--out DIR] [--cases LIST] [--modes LIST]
#                               [--sessions LIST] [--workers W] [--server harness|gpuhost]
#                               [--shared-buffers SIZE] [--session-opts OPTS] [--server-opts OPTS]
#                               [--no-build] [--append]
#   --rows N          rows per table (default 50000000)
#   --runs R          timed runs per query after one warm-up (default 3); the median counts
#   --out DIR         where report.md, results.csv, ratios.png and logs go (default $OUT or /tmp/pg_bench)
#   --cases LIST      comma-separated case names or shell patterns from bench/pg/cases.txt (default all)
#   --modes LIST      serial,parallel (default both): max_parallel_workers_per_gather 0 or W
#   --sessions LIST   warm,fresh (default both): one session for all runs, or one per query
#   --workers W       parallel workers per gather in parallel mode (default 8)
#   --server S        harness: test/harness.sh's throwaway server on this Debian host (default);
#                     gpuhost: the bundled PostgreSQL of .gpuhost/ on the GPU host
#   --shared-buffers  server shared_buffers (default a quarter of RAM, at most 32GB)
#   --session-opts    settings of every session (default "-c jit=off -c work_mem=1GB": the GPU
#                     host's PostgreSQL has no JIT, and GROUP BY hash tables fit in memory)
#   --server-opts     more server settings, e.g. "-c huge_pages=on" (default none)
#   PGB_NO_PREWARM=1  (environment) leave the tables out of pg_prewarm: a table then
#                     reaches shared_buffers only through the scans themselves (on a
#                     second run the tables are kept and the server restarted, so the
#                     warm-up query reads them from the OS cache; a table smaller than a
#                     quarter of shared_buffers is then read into the pool, not through
#                     the bulk-read ring, and the timed runs find it there: for the OS
#                     cache only, see bench/pg/cold_restarts.sh)
#   --no-build        use the installed extension (harness) / do not build (gpuhost)
#   --append          add to the out dir's results.csv instead of starting it anew (a long suite
#                     split over several commands, e.g. --cases 'sum*' then --cases 'group*')
#
# Steps: start the server (gpu_reduce preloaded, so its GPU service runs where
# there is a GPU), load the tables the chosen cases use (bench/pg/tables.sh),
# then for each case, mode and session time native and gpu_* queries
# alternately (bench/pg/timing.sh), read the plans (workers; for GROUP BY
# cases peak memory: bench/pg/plan.sh); append each result to results.csv as it comes, and at
# the end write report.md (bench/pg/report.sh) and ratios.png (bench/pg/plot.sh).
set -euo pipefail

PGB_ROOT=$(cd "$(dirname "$0")/.." && pwd)
PGB_DIR=$PGB_ROOT/bench/pg
PGB_ARGS=("$@")

pgb_log() { printf '[pg_bench] %s\n' "$*" >&2; }
pgb_die() { printf '[pg_bench] ERROR: %s\n' "$*" >&2; exit 1; }

rows=50000000 runs=3 out=${OUT:-/tmp/pg_bench} case_list='*' modes=serial,parallel
sessions=warm,fresh workers=8 server=harness shared_buffers= server_opts= PGB_NO_BUILD=0
PGB_SESSION_OPTS="-c jit=off -c work_mem=1GB" append=0
while [ $# -gt 0 ]; do
	case $1 in
	--rows) rows=$2; shift 2 ;;
	--runs) runs=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--cases) case_list=$2; shift 2 ;;
	--modes) modes=$2; shift 2 ;;
	--sessions) sessions=$2; shift 2 ;;
	--workers) workers=$2; shift 2 ;;
	--server) server=$2; shift 2 ;;
	--shared-buffers) shared_buffers=$2; shift 2 ;;
	--session-opts) PGB_SESSION_OPTS=$2; shift 2 ;;
	--server-opts) server_opts=$2; shift 2 ;;
	--no-build) PGB_NO_BUILD=1; shift ;;
	--append) append=1; shift ;;
	-h | --help) sed -n '2,/^set -e/p' "$0" | sed 's/^# \{0,1\}//; /^set -e/d'; exit 0 ;;
	*) pgb_die "unknown argument: $1 (see --help)" ;;
	esac
done
case "$rows$runs$workers" in *[!0-9]*) pgb_die "--rows, --runs and --workers take numbers" ;; esac
[ "$runs" -ge 1 ] || pgb_die "--runs must be at least 1"
if [ -z "$shared_buffers" ]; then
	mem_mb=$(awk '/^MemTotal:/ { print int($2 / 1024) }' /proc/meminfo)
	shared_buffers=$((mem_mb / 4 > 32768 ? 32768 : mem_mb / 4))MB
fi
mkdir -p "$out/logs"
PGB_OUT=$(cd "$out" && pwd)
export PGB_NO_BUILD PGB_SESSION_OPTS

case $server in
harness) source "$PGB_DIR/server_harness.sh" ;;
gpuhost) source "$PGB_DIR/server_gpuhost.sh" ;;
*) pgb_die "--server is harness or gpuhost" ;;
esac
source "$PGB_DIR/tables.sh"
source "$PGB_DIR/timing.sh"
source "$PGB_DIR/plan.sh"

# The chosen cases from cases.txt as "name|native|gpu|settings" lines, in file order.
pgb_cases() {
	local name native gpu settings pat
	local -a pats
	IFS=, read -ra pats <<<"$case_list"
	grep -v '^[[:space:]]*\(#\|$\)' "$PGB_DIR/cases.txt" |
		while IFS='|' read -r name native gpu settings; do
			name=$(echo $name) native=$(echo "$native" | sed 's/^ *//; s/ *$//') gpu=$(echo "$gpu" | sed 's/^ *//; s/ *$//')
			settings=$(echo "$settings" | sed 's/^ *//; s/ *$//')
			for pat in "${pats[@]}"; do
				# shellcheck disable=SC2053
				if [[ $name == $pat ]]; then printf '%s|%s|%s|%s\n' "$name" "$native" "$gpu" "$settings"; break; fi
			done
		done
}

# One line describing the host: CPU, cores, memory, GPU use, PostgreSQL (no commas: it goes into the CSV).
pgb_host() {
	local cpu gpus gpu
	cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)
	gpus=$(pgb_psql -At -c "SET client_min_messages = warning; SELECT count(*) FROM gpu_reduce_devices()" | tail -1)
	if [ "$gpus" -gt 0 ] 2>/dev/null; then
		gpu="$gpus GPU in use: $(pgb_psql -At -c "SELECT string_agg(name, ' + ') FROM gpu_reduce_devices()")"
	else
		gpu="no GPU in use (CPU reducer)"
	fi
	printf '%s; %s cores; %s GB RAM; %s; %s\n' "$cpu" "$(nproc)" \
		"$(awk '/^MemTotal:/ { print int($2 / 1048576 + 0.5) }' /proc/meminfo)" "$gpu" \
		"$(pgb_psql -At -c 'SHOW server_version' | awk '{ print "PostgreSQL " $1 }')" | tr ',' ';'
}

# Install gnuplot when missing and we can (root with apt-get, not on the GPU host); succeed only if it is there.
pgb_ensure_gnuplot() {
	command -v gnuplot >/dev/null 2>&1 && return 0
	if [ "$server" = harness ] && [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
		pgb_log "installing gnuplot-nox for the chart"
		DEBIAN_FRONTEND=noninteractive apt-get install -y gnuplot-nox </dev/null >/dev/null 2>&1 ||
			{ apt-get update </dev/null >/dev/null 2>&1 &&
				DEBIAN_FRONTEND=noninteractive apt-get install -y gnuplot-nox </dev/null >/dev/null 2>&1; } || true
	fi
	command -v gnuplot >/dev/null 2>&1
}

mapfile -t cases < <(pgb_cases)
[ ${#cases[@]} -gt 0 ] || pgb_die "no case matches --cases $case_list"
mode_list=() session_list=()
IFS=, read -ra mode_list <<<"$modes"
IFS=, read -ra session_list <<<"$sessions"
for m in "${mode_list[@]}"; do case $m in serial | parallel) ;; *) pgb_die "--modes: serial, parallel" ;; esac; done
for s in "${session_list[@]}"; do case $s in warm | fresh) ;; *) pgb_die "--sessions: warm, fresh" ;; esac; done

pgb_server_start -c shared_preload_libraries=gpu_reduce -c max_worker_processes=32 -c max_parallel_workers=16 \
	-c shared_buffers="$shared_buffers" -c max_connections=100 $server_opts
host=$(pgb_host)
# the commit measured (a checkout without git history: -), "+" when the work tree differs from it
build=$(git -C "$PGB_ROOT" rev-parse --short HEAD 2>/dev/null || echo -)
[ "$build" = - ] || git -C "$PGB_ROOT" diff --quiet HEAD -- 2>/dev/null || build=$build+
pgb_log "host: $host"
pgb_log "${#cases[@]} cases x modes ${modes} x sessions ${sessions}; $rows rows, $runs runs; out: $PGB_OUT"

tables=$(printf '%s\n' "${cases[@]}" | grep -o 'pgb_[a-z_]*' | sort -u | tr '\n' ' ')
t0=$SECONDS
# shellcheck disable=SC2086
pgb_tables_create "$rows" $tables
pgb_log "tables ready in $((SECONDS - t0)) s"
# into shared_buffers, where the bulk scan's page path reads them (a sequential
# scan of a large table would only pass through a small ring of buffers)
if [ "${PGB_NO_PREWARM:-0}" = 1 ]; then
	pgb_log "PGB_NO_PREWARM=1: tables stay where the load left them (mostly the OS cache)"
elif pgb_psql -qc "CREATE EXTENSION IF NOT EXISTS pg_prewarm" >/dev/null 2>&1; then
	for t in $tables; do
		pgb_log "prewarmed $t: $(pgb_psql -Atc "SELECT pg_prewarm('$t')") pages"
	done
else
	pgb_log "no pg_prewarm: tables stay where the load left them"
fi

csv=$PGB_OUT/results.csv
[ "$append" = 1 ] && [ -s "$csv" ] || echo "case,mode,session,native_ms,gpu_ms,ratio,native_peak_kb,gpu_peak_kb,native_disk_kb,gpu_disk_kb,native_strategy,gpu_strategy,native_workers,gpu_workers,gpu_buffer_peak_kb,gpu_batches,cpu_batches,answers,rows,host,gpu_plan,explain_gpu_batches,explain_cpu_batches,build" >"$csv"
n=0 failed=0
for line in "${cases[@]}"; do
	IFS='|' read -r name native gpu PGB_CASE_OPTS <<<"$line"
	export PGB_CASE_OPTS
	n=$((n + 1))
	for mode in "${mode_list[@]}"; do
		w=0 label=serial
		[ "$mode" = parallel ] && w=$workers label=parallel$workers
		# GROUP BY cases: peak memory of both; bulk cases: the gpu query's batch counters
		nanalyze=0 ganalyze=0
		[[ $name == group* ]] && nanalyze=1 ganalyze=1
		[[ $name == bulk* ]] && ganalyze=1
		nplan=$(pgb_plan "$native" "$w" $nanalyze) gplan=$(pgb_plan "$gpu" "$w" $ganalyze)
		read -r nw ns np nd _ _ _ <<<"$nplan"
		read -r gw gs gp gd gnode egb ecb <<<"$gplan"
		for session in "${session_list[@]}"; do
			log=$PGB_OUT/logs/$name.$label.$session.log
			t=$SECONDS
			if ! "pgb_run_$session" "$native" "$gpu" "$w" "$runs" "$log"; then
				pgb_log "case $n/${#cases[@]} $name $label $session: FAILED (see $log)"
				tail -5 "$log" >&2
				failed=$((failed + 1))
				continue
			fi
			read -r nms gms answers gb cb bpeak <<<"$(pgb_parse_log "$log")"
			if [ "$nms" = NA ] || [ "$gms" = NA ]; then
				pgb_log "case $n/${#cases[@]} $name $label $session: no timings (see $log)"
				failed=$((failed + 1))
				continue
			fi
			ratio=$(awk -v n="$nms" -v g="$gms" 'BEGIN { printf (g > 0 ? "%.2f" : "NA"), n / g }')
			printf '%s,%s,%s,%.1f,%.1f,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n' "$name" "$label" "$session" \
				"$nms" "$gms" "$ratio" "$np" "$gp" "$nd" "$gd" "$ns" "$gs" "$nw" "$gw" "$bpeak" "$gb" "$cb" \
				"$answers" "$rows" "$host" "$gnode" "$egb" "$ecb" "$build" >>"$csv"
			pgb_log "case $n/${#cases[@]} $name $label $session: native $nms ms, gpu $gms ms, ratio $ratio, answers $answers, batches gpu $gb cpu $cb, plan $gnode ($egb/$ecb), workers $nw/$gw ($((SECONDS - t)) s)"
		done
	done
done

bash "$PGB_DIR/report.sh" "$csv" "$runs" >"$PGB_OUT/report.md"
if pgb_ensure_gnuplot; then
	bash "$PGB_DIR/plot.sh" "$csv" "$PGB_OUT/ratios.png" >/dev/null && pgb_log "chart: $PGB_OUT/ratios.png"
else
	pgb_log "no gnuplot here: no chart; plot elsewhere with: bash bench/pg/plot.sh results.csv ratios.png"
fi
pgb_log "done in $((SECONDS)) s: $PGB_OUT/report.md, $PGB_OUT/results.csv ($failed failed)"
cat "$PGB_OUT/report.md"
[ "$failed" = 0 ]
