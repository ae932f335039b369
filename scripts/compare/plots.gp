# SPDX-License-Identifier: GPL-2.0
# plots.gp: the plots of mseal-compare report, from DIR/plot-data/ (which
# build/mseal-compare-report writes: vars.gp, boots.dat, medians.dat,
# deltas.dat).  Computes nothing: it draws.
#
#   gnuplot -e "dir='DIR'" scripts/compare/plots.gp
#
# DIR/boots.png, .svg: per workload, every boot of A and of B (one colour
# each) and their medians (bars); the runs without the module in the top
# row, with it in the bottom row.
# DIR/deltas.png, .svg: forest plots of B against A in %, with the 95 %
# bootstrap intervals, without the module and with it side by side.
data = dir.'/plot-data'
load data.'/vars.gp'
colA = '#1f77b4'
colB = '#e8710a'
rows = with_module ? 2 : 1
phase_name(p) = p == 0 ? 'without the module' : 'with the module'

do for [t = 1:2] {
	if (t == 1) { set terminal pngcairo size (240 * n + 80), (330 * rows + 60) font ',10'; ext = 'png' }
	if (t == 2) { set terminal svg size (240 * n + 80), (330 * rows + 60) font ',10'; ext = 'svg' }

	set output dir.'/boots.'.ext
	set multiplot layout rows, n title sprintf('ops/s per boot: A = %s (%d boot(s), blue), B = %s (%d boot(s), orange); bars: medians', a, na, b, nb)
	set xtics ('A' 0, 'B' 1)
	set xrange [-0.6:1.6]
	set key off
	set grid ytics
	do for [p = 0:rows - 1] {
		do for [i = 1:n] {
			set title word(names, i)
			if (i == 1) { set ylabel 'ops/s, '.phase_name(p) } else { unset ylabel }
			plot data.'/boots.dat' using ($1 == i && $2 == 0 ? $3 : NaN):(column(4 + p)) with points pt 7 ps 1.1 lc rgb colA, \
			     data.'/boots.dat' using ($1 == i && $2 == 1 ? $3 : NaN):(column(4 + p)) with points pt 7 ps 1.1 lc rgb colB, \
			     data.'/medians.dat' using ($1 == i && $2 == 0 ? -0.25 : NaN):(column(3 + p)):(0.5):(0) with vectors nohead lw 3 lc rgb colA, \
			     data.'/medians.dat' using ($1 == i && $2 == 1 ? 0.75 : NaN):(column(3 + p)):(0.5):(0) with vectors nohead lw 3 lc rgb colB
		}
	}
	unset multiplot
	unset ylabel

	if (t == 1) { set terminal pngcairo size (with_module ? 1000 : 560), (40 * n + 160) font ',10' }
	if (t == 2) { set terminal svg size (with_module ? 1000 : 560), (40 * n + 160) font ',10' }
	set output dir.'/deltas.'.ext
	set multiplot layout 1, (with_module ? 2 : 1) title sprintf("B against A, median ops/s over boots, with 95 %% bootstrap intervals\nA = %s, B = %s", a, b)
	# One x range for both panels, so that they read side by side: every
	# delta and interval end (one boot: no interval, the delta alone).
	xlo = 0; xhi = 0
	do for [c in (with_module ? "3 4 5 6 7 8" : "3 4 5")] {
		undefine STATS_*
		stats data.'/deltas.dat' using (column(int(c))) nooutput
		if (exists("STATS_min")) { xlo = (STATS_min < xlo ? STATS_min : xlo); xhi = (STATS_max > xhi ? STATS_max : xhi) }
	}
	pad = (xhi - xlo) * 0.05 + 1
	set xrange [xlo - pad:xhi + pad]
	set xtics autofreq
	set yrange [0.5:n + 0.5]
	set ytics scale 0
	unset grid
	set grid xtics
	set xlabel 'delta, % (right of 0: B faster)'
	set arrow 1 from 0, graph 0 to 0, graph 1 nohead dt 2 lc rgb 'gray40'
	do for [p = 0:rows - 1] {
		set title phase_name(p)
		plot data.'/deltas.dat' using (column(3 + 3 * p)):1:(column(4 + 3 * p)):(column(5 + 3 * p)):ytic(2) with xerrorbars pt 7 ps 1.2 lc rgb 'black'
	}
	unset multiplot
	unset arrow 1
	unset xlabel
	set ytics scale default
	set yrange [*:*]
}
