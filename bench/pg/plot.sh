#!/usr/bin/env bash
# bench/pg/plot.sh -- draw the native/gpu time ratios of a results.csv as a PNG bar chart.
#
# usage: bash bench/pg/plot.sh results.csv ratios.png
# One group of bars per case, one bar per mode and session, on a log scale:
# bars grow up from 1 where the gpu_* aggregate is faster, down where slower
# (the bar heights are log2(ratio), the axis is labelled with the ratios).  Needs gnuplot
# (Debian: gnuplot-nox); a CSV from a host without it can be plotted elsewhere.
set -euo pipefail
csv=${1:?usage: plot.sh results.csv ratios.png}
png=${2:?usage: plot.sh results.csv ratios.png}
command -v gnuplot >/dev/null 2>&1 || { echo "plot.sh: gnuplot not found (apt-get install gnuplot-nox)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# pivot: a header line of series names, then "case ratio ratio ...", "-" where missing
awk -F, '
NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
{
	c = $col["case"]; k = $col["mode"] "-" $col["session"]
	if (!(c in seen)) { seen[c] = 1; cases[++nc] = c }
	if (!(k in kseen)) { kseen[k] = 1; keys[++nk] = k }
	r[c, k] = ($col["ratio"] + 0 > 0) ? log($col["ratio"]) / log(2) : "-"
	if (r[c, k] != "" && r[c, k] != "-") { if (r[c, k] < lo) lo = r[c, k]; if (r[c, k] > hi) hi = r[c, k] }
	host = $col["host"]; rows = $col["rows"]
}
END {
	printf "case"; for (j = 1; j <= nk; j++) printf " %s", keys[j]; printf "\n"
	for (i = 1; i <= nc; i++) {
		printf "%s", cases[i]
		for (j = 1; j <= nk; j++) printf " %s", ((cases[i], keys[j]) in r) ? r[cases[i], keys[j]] : "-"
		printf "\n"
	}
	print host > "/dev/stderr"
	print rows > "/dev/stderr"
	# y range in whole powers of 2 around the bars, 1 always inside
	printf "%d %d\n", int(lo - 1.25), int(hi + 1.25) > "/dev/stderr"
}' "$csv" >"$tmp/data" 2>"$tmp/meta"
host=$(sed -n 1p "$tmp/meta" | sed 's/"/'"'"'/g')
rows=$(sed -n 2p "$tmp/meta")
read -r ylo yhi < <(sed -n 3p "$tmp/meta")
series=$(head -1 "$tmp/data" | awk '{print NF - 1}')
ncases=$(($(wc -l <"$tmp/data") - 1))
width=$((400 + ncases * 46))

gnuplot <<GP
set terminal pngcairo size $width,720 font "sans,11"
set output "$png"
set datafile missing "-"
set title "native / gpu_* time ratio, $rows rows per table: above 1 gpu_* is faster\n$host" noenhanced
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set ytics ("1/64" -6, "1/32" -5, "1/16" -4, "1/8" -3, "1/4" -2, "1/2" -1, "1" 0, "2" 1, "4" 2, "8" 3, "16" 4, "32" 5, "64" 6, "128" 7)
set yrange [$ylo:$yhi]
set grid ytics
set ylabel "native ms / gpu ms (log scale)"
set xtics rotate by 40 right noenhanced
set key top right noenhanced
set bmargin 8
set lmargin 12
set xzeroaxis lt -1 lw 2
plot for [s=2:$((series + 1))] "$tmp/data" using s:xtic(1) title columnheader(s)
GP
echo "plot.sh: wrote $png"
