/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Statistics over address-space layouts: the headline of a comparison.
 *
 * Every run of mseal-bench is a fresh process, so one user address-space
 * layout (ASLR's, or mseal-bench --layout N's: the same on both kernels),
 * and the layout alone moves mmap1 by tens of percent on one kernel
 * (docs/comparison.md, "Layouts").  A boot with one layout is one draw of
 * that spread, however often it repeats (Stabilizer, ASPLOS 2013), so the
 * unit of a sample is the run, and the runs of one boot share whatever
 * the boot drew (the kernel's own layout, its code placement): they are a
 * cluster.
 *
 * Every statistic here is a ratio of means
 *	Q = (mean(xa) + mean(xb)) / (mean(ya) + mean(yb))
 * of one value per run on each side (A's runs and B's): the headline
 * B / A is x = b on B's side and y = a on A's; the account against the
 * gap (checks A - checks B) / (per-op A - per-op B) is x = checks and
 * y = ns per op, B's side negated.  Paired (the same layouts on both
 * kernels: run i of A and run i of B in one layout), the linearised
 * residuals z_i = (xa_i + xb_i) - Q (ya_i + yb_i) are taken per pair, so
 * what a layout does to both kernels cancels; unpaired, per side.
 *
 * The variance of mean(z) is the larger of the runs' own (s^2 / n) and the
 * cluster-robust one over boots (G / (G - 1) * sum over boots of the
 * boot's summed residuals squared / n^2): the interval covers layouts and
 * boots, never less than either shows.  Its 95 % half-width is Student's t
 * at G - 1 degrees of freedom (Welch-Satterthwaite over the two sides when
 * unpaired) times that standard error over the denominator: few boots
 * widen it (t at 2 degrees is 4.30).  With one boot the boots' variation
 * is not measured: the interval then covers the layouts only (n - 1
 * degrees) and says it holds the boot fixed.
 */
#ifndef LAYOUTS_H
#define LAYOUTS_H

#include <stddef.h>

/* One side's runs: x_i, y_i (either may be NULL: zeros) and each run's boot. */
struct lay_side {
	const double *x, *y;
	const long long *boot;
	size_t n;
};

struct lay_ci {
	double q, lo, hi;	/* the ratio and its 95 % interval (NaN: fewer than 2 runs a side) */
	double se, df;		/* its standard error and the t's degrees of freedom */
	size_t n;		/* runs (pairs when paired; A's and B's added when not) */
	int boots;		/* boots (clusters) the runs come from, on the side with fewer */
	int boot_fixed;		/* one boot: the interval covers the layouts only */
};

/*
 * Q with its interval.  Paired: a->n == b->n and run i of each is one
 * layout (a->boot gives the clusters).  Returns 0, or -1 when a side has
 * no runs or the denominator is 0 (then q is NaN or +-INFINITY).
 */
int lay_ratio(const struct lay_side *a, const struct lay_side *b, int paired, struct lay_ci *out);

/*
 * Boots (clusters) an interval like c's needs for a 95 % half-width of h,
 * in c's unit: its standard error scales as 1 / sqrt(boots), the t as the
 * normal (c->se over c->boots boots); at least 2.  0: c has no interval.
 */
unsigned long lay_boots_needed(const struct lay_ci *c, double h);

/* The 97.5 % point of Student's t at df degrees of freedom (df below 1 is taken as 1). */
double lay_t975(double df);

/* Boots (clusters) among n runs: distinct values of boot[]. */
int lay_boots(const long long *boot, size_t n);

/* Mean of n values; NaN for n == 0. */
double lay_mean(const double *v, size_t n);

#endif
