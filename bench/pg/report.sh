#!/usr/bin/env bash
# bench/pg/report.sh -- the Markdown report of a results.csv (from this host or another).
#
# usage: bash bench/pg/report.sh results.csv [RUNS] > report.md
# Table 1: one row per case, one column per mode and session, each cell
# "ratio (native ms / gpu ms)" where ratio = native/gpu (> 1: gpu_* faster),
# with the answers check and the gpu/cpu batch counts of one gpu query of the
# first serial session; a parallel cell is marked where a query got no workers;
# and, where recorded, the gpu query's plan per mode (GpuReduce: the bulk scan's
# Custom Scan; rows: the per-row aggregate path) with its EXPLAIN ANALYZE
# batch counters.
# Table 2: the floor cases (bulk_floor_*) as gpu time / floor time.
# Table 3: the GROUP BY cases' plans and peak memory.
set -euo pipefail
csv=${1:?usage: report.sh results.csv [RUNS]}
runs=${2:-?}

awk -F, -v runs="$runs" '
NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
{
	c = $col["case"]; k = $col["mode"] " " $col["session"]
	if (!(c in seen)) { seen[c] = 1; cases[++nc] = c }
	if (!(k in kseen)) { kseen[k] = 1; keys[++nk] = k }
	mark = ""
	if ($col["mode"] != "serial" && $col["native_workers"] == "0") mark = mark " †n"
	if ($col["mode"] != "serial" && $col["gpu_workers"] == "0") mark = mark " †g"
	cell[c, k] = sprintf("%s (%s / %s)%s", $col["ratio"], $col["native_ms"], $col["gpu_ms"], mark)
	if ($col["answers"] == "differ") ans[c] = "differ"; else if (!(c in ans)) ans[c] = $col["answers"]
	if ($col["mode"] == "serial" && !(c in batches))
		batches[c] = $col["gpu_batches"] " / " $col["cpu_batches"]
	if ("gpu_plan" in col && $col["gpu_plan"] != "" && !((c, $col["mode"]) in pseen)) {
		pseen[c, $col["mode"]] = 1
		p = $col["mode"] " " $col["gpu_plan"]
		if ($col["explain_gpu_batches"] != "-" && $col["explain_gpu_batches"] != "")
			p = p " " $col["explain_gpu_batches"] "/" $col["explain_cpu_batches"]
		prev = (c in plan) ? plan[c] "; " : ""
		plan[c] = prev p
		hasplan = 1
	}
	if (c ~ /^bulk_floor/ && $col["ratio"] + 0 > 0)
		floor[++nf] = sprintf("| %s | %s %s | %s | %s | %.2f |", c, $col["mode"], $col["session"],
			$col["native_ms"], $col["gpu_ms"], 1 / $col["ratio"])
	if ($col["native_peak_kb"] != "-" && !((c, $col["mode"]) in mseen)) {
		mseen[c, $col["mode"]] = 1
		mem[++nm] = sprintf("| %s | %s | %s | %s | %s | %s | %s | %s | %s |", c, $col["mode"],
			$col["native_strategy"] ", " $col["native_workers"] " workers", $col["native_peak_kb"], $col["native_disk_kb"],
			$col["gpu_strategy"] ", " $col["gpu_workers"] " workers", $col["gpu_peak_kb"], $col["gpu_disk_kb"], $col["gpu_buffer_peak_kb"])
	}
	rows = $col["rows"]; host = $col["host"]
}
END {
	printf "# gpu_* aggregates against native PostgreSQL\n\n"
	printf "Host: %s  \nRows per table: %s; median of %s runs after one warm-up, native and gpu_* alternating.\n\n", host, rows, runs
	printf "Each cell: **native/gpu time ratio** (native ms / gpu ms); above 1 the gpu_* aggregate is faster.\n"
	printf "warm: all runs in one session; fresh: a new session per query (start-up costs included).\n"
	printf "answers: same when both queries printed the same text (float sums differ by design: the native one rounds every row).\n"
	printf "batches gpu / cpu: gpu_reduce_stats() after one gpu query of the serial session (a parallel worker counts in its own process).\n"
	printf "†n / †g: the planner chose a plan without parallel workers for the native / gpu query although workers were allowed.\n"
	if (hasplan)
		printf "gpu plan: per mode, GpuReduce when the bulk scan (Custom Scan (GpuReduce)) ran, rows for the per-row aggregate path; for bulk_* cases followed by its EXPLAIN ANALYZE GPU Batches/CPU Batches, summed over the participants.\n"
	printf "\n| case | answers |"
	for (j = 1; j <= nk; j++) printf " %s |", keys[j]
	printf " batches gpu / cpu |%s\n|---|---|", hasplan ? " gpu plan |" : ""
	for (j = 1; j <= nk; j++) printf "---:|"
	printf "---:|%s\n", hasplan ? "---|" : ""
	for (i = 1; i <= nc; i++) {
		c = cases[i]
		printf "| %s | %s |", c, ans[c]
		for (j = 1; j <= nk; j++) printf " %s |", ((c, keys[j]) in cell) ? cell[c, keys[j]] : "-"
		printf " %s |", (c in batches) ? batches[c] : "-"
		if (hasplan) printf " %s |", (c in plan) ? plan[c] : "-"
		printf "\n"
	}
	if (nf > 0) {
		printf "\nThe page-walk floor (bench/floor: gr_floor_sum reads the column straight from the pages, serially, also in parallel mode)"
		printf " against gpu_sum on the same table in the same run: gpu ms / floor ms (the target of issue 10: 1.25 or less, serially).\n\n"
		printf "| case | mode, session | floor ms | gpu ms | gpu / floor |\n|---|---|---:|---:|---:|\n"
		for (i = 1; i <= nf; i++) print floor[i]
	}
	if (nm > 0) {
		printf "\nPeak memory of the GROUP BY cases (EXPLAIN ANALYZE, kB summed over leader and workers:"
		printf " HashAggregate Peak Memory Usage + in-memory sorts; disk: spilled kB; gpu buffer peak: gpu_reduce_stats().buffer_peak_bytes after one gpu query, of the session process itself, so in parallel mode the leader alone).\n\n"
		printf "| case | mode | native plan | native peak kB | native disk kB | gpu plan | gpu peak kB | gpu disk kB | gpu buffer peak kB |\n"
		printf "|---|---|---|---:|---:|---|---:|---:|---:|\n"
		for (i = 1; i <= nm; i++) print mem[i]
	}
}' "$csv"
