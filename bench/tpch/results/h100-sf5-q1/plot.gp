set terminal pngcairo size 1000,500 font "sans,10" noenhanced
set output "ratios.png"
set datafile separator ","
set title "TPC-H SF5 (30 M rows) through the GpuReduce node: native time / node time (H100, PostgreSQL 15, 2026-11-26)"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set logscale y
set yrange [1:400]
set ylabel "speed-up over native (log)"
set xtics rotate by -20
set key top right
set grid ytics
plot "ratios.csv" every ::1 using 2:xtic(1) title "serial" lc rgb "#1f77b4", \
     "" every ::1 using 3 title "8 workers" lc rgb "#ff7f0e", \
     "" every ::1 using 4 title "target serial" lc rgb "#aaaaaa", \
     "" every ::1 using 5 title "target 8 workers" lc rgb "#dddddd"
