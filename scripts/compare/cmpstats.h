/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Statistics for comparing two kernels' benchmark results: medians, a
 * bootstrap confidence interval of the relative difference of medians, and
 * the Mann-Whitney U test.  Plain C, no allocation beyond the caller's.
 */
#ifndef CMPSTATS_H
#define CMPSTATS_H

#include <stddef.h>
#include <stdint.h>

void cmp_sort(double *v, size_t n);

/* The q-quantile (0..1) of sorted v, interpolated as numpy's default. */
double cmp_quantile(const double *v, size_t n, double q);

/* Median of n values; v is sorted in place.  NaN for n == 0. */
double cmp_median(double *v, size_t n);

/*
 * Two-sided Mann-Whitney U test, normal approximation with tie and
 * continuity correction (scipy.stats.mannwhitneyu(..., method="asymptotic")).
 * Returns the p-value; *u gets U of the first sample.
 */
double cmp_mannwhitney(const double *a, size_t na, const double *b, size_t nb, double *u);

/*
 * Percentile bootstrap of 100 * (median(b) / median(a) - 1): resample each
 * sample with replacement `rounds` times (a fixed-seed generator, so the
 * same input gives the same interval).  level is e.g. 0.95.
 * scratch needs room for na + nb + rounds doubles.
 */
void cmp_bootstrap_delta(const double *a, size_t na, const double *b, size_t nb,
			 unsigned int rounds, double level, uint64_t seed,
			 double *scratch, double *lo, double *hi);

/* Two kernels' samples (one value per boot) compared. */
struct cmp_ab {
	size_t na, nb;
	double a, b;		/* medians */
	double delta_pct;	/* 100 * (b / a - 1) */
	double lo, hi;		/* its 95 % bootstrap confidence interval */
	double p;		/* Mann-Whitney */
};

/*
 * All of cmp_ab for a and b (copied, not reordered); NaN where a side is
 * empty, and no interval (NaN) with fewer than two values on a side.
 */
void cmp_compare(const double *a, size_t na, const double *b, size_t nb, struct cmp_ab *out);

/*
 * How much of a measured per-operation difference the module's account of
 * the seal checks explains:
 *   (median(ca) - median(cb)) / (1e9 / median(oa) - 1e9 / median(ob))
 * Boot i of A gave oa[i], its ops/s without the module, and ca[i], the net
 * check time per operation (ns) the module saw in the same boot; likewise
 * ob, cb for B.  1 means the checks' own time is the whole difference.
 * +-INFINITY when the measured difference is 0, NaN when both are.
 * scratch needs room for 2 * (na + nb) doubles.
 */
double cmp_explained_ratio(const double *oa, const double *ca, size_t na,
			   const double *ob, const double *cb, size_t nb, double *scratch);

/*
 * Percentile bootstrap of cmp_explained_ratio over boots: each round draws
 * na boots of A, then nb of B, with replacement, a boot's two values kept
 * together.  lo and hi are NaN when a round's ratio is (0 / 0).
 * scratch needs room for 2 * (na + nb) + rounds doubles.
 */
void cmp_bootstrap_ratio(const double *oa, const double *ca, size_t na,
			 const double *ob, const double *cb, size_t nb,
			 unsigned int rounds, double level, uint64_t seed,
			 double *scratch, double *lo, double *hi);

#endif
