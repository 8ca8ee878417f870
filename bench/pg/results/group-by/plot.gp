set terminal pngcairo size 900,480 font "sans,10"
set output "ratios.png"
set datafile separator ","
set title "GROUP BY into a scan-wide GPU table: native time / gpu\\_reduce time (H100, PostgreSQL 15)"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set logscale y
set yrange [0.5:100]
set ylabel "speed-up over native (log)"
set xtics rotate by -20
set key top right
set grid ytics
plot "ratios.csv" every ::1 using 2:xtic(1) title "serial" lc rgb "#1f77b4", \
     "" every ::1 using 3 title "8 workers" lc rgb "#ff7f0e", \
     "" every ::1 using 4 title "target serial" lc rgb "#aaaaaa"
