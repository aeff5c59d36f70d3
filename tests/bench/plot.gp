# How cost grows with the payload: ns per event against payload size, one line
# a path, from the data files tests/bench/report.awk writes (a header of
# quoted path names, then one row a size; NaN where a path cannot take
# the size, so its line stops there and its name says so). scripts/bench:
#
#   gnuplot -e "dat='build/bench/sweep-vm.dat'; out='build/bench/sweep-vm.png'; \
#               ttl='...'" tests/bench/plot.gp

set terminal pngcairo size 1000,700 font ",11"
set output out
set title ttl
set datafile missing "NaN"
set key inside top left box opaque autotitle columnhead noenhanced
set logscale x 2
set xtics ("8 B" 8, "64 B" 64, "512 B" 512, "4 KB" 4096, "8 KB" 8192)
set xrange [6:11000]
set xlabel "payload (bytes, log scale)"
set ylabel "ns per event (median)"
set yrange [0:*]
set grid
stats dat nooutput
plot for [c=2:STATS_columns] dat using 1:c with linespoints lw 2 pt c
