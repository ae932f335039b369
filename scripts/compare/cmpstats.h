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

#endif
