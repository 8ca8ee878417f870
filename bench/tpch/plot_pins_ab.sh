#!/usr/bin/env bash
# bench/tpch/plot_pins_ab.sh -- draw pins_ab.sh's runs (pins-ab.csv) as a PNG:
# each run's time of Q6 over float8 and of the zero-copy floor, serial, with
# the page path's pins held (held_pins.c) and through the buffer manager.
#   bash bench/tpch/plot_pins_ab.sh pins-ab.csv pins-ab.png     (needs gnuplot)
set -euo pipefail
csv=${1:?usage: plot_pins_ab.sh pins-ab.csv pins-ab.png}
png=${2:?usage: plot_pins_ab.sh pins-ab.csv pins-ab.png}
command -v gnuplot >/dev/null 2>&1 || { echo "plot_pins_ab.sh: gnuplot not found (apt-get install gnuplot-nox)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# one line per run: q6f buffer_manager, q6f held, floor buffer_manager, floor held
awk -F, 'NR > 1 && $1 != "walk" { v[$3, $1, $2] = $4; if ($3 > n) n = $3 }
	END { for (r = 1; r <= n; r++)
		print r, v[r, "q6f", "buffer_manager"], v[r, "q6f", "held"], v[r, "floor", "buffer_manager"], v[r, "floor", "held"] }' \
	"$csv" >"$tmp/data"
gnuplot <<GP
set terminal pngcairo size 900,480 font ",11" noenhanced
set output "$png"
set title "Serial page path, SF5 lineitem(_f) on the H100 host: each run a fresh session"
set xlabel "run"
set ylabel "ms"
set yrange [0:*]
set key outside right
set grid ytics
plot "$tmp/data" using 1:2 with linespoints lw 2 title "Q6 float8, buffer manager's pins", \
     "" using 1:3 with linespoints lw 2 title "Q6 float8, held pins", \
     "" using 1:4 with linespoints dt 2 title "floor, buffer manager's pins", \
     "" using 1:5 with linespoints dt 2 title "floor, held pins"
GP
echo "$png"
