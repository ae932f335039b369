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
 * cmp_ab of n seed pairs (a[i] and b[i] of one seed): the medians, the
 * delta, and its interval from resampling the pairs
 * (cmp_bootstrap_delta_paired).  p is NaN: Mann-Whitney's samples must be
 * independent, and a seed's two boots are not.
 */
void cmp_compare_paired(const double *a, const double *b, size_t n, struct cmp_ab *out);

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

/*
 * The same two statistics when the boots pair up by seed (the instruction
 * clock's records: one seed booted on A and on B): the samples are pairs,
 * a[i] and b[i] (oa[i], ca[i], ob[i], cb[i]) of one seed, and each round
 * draws n pairs with replacement, a pair's A and B kept together.  The
 * statistic is the unpaired one's (medians, then their ratio), so with one
 * boot per seed and kernel the point estimate is the headline's; only the
 * interval changes: whatever a seed does to both kernels alike (the
 * address-space layout it draws) moves both medians together and cancels.
 * scratch: 2 * n + rounds doubles (delta), 4 * n + rounds (ratio).
 */
void cmp_bootstrap_delta_paired(const double *a, const double *b, size_t n,
				unsigned int rounds, double level, uint64_t seed,
				double *scratch, double *lo, double *hi);
void cmp_bootstrap_ratio_paired(const double *oa, const double *ca,
				const double *ob, const double *cb, size_t n,
				unsigned int rounds, double level, uint64_t seed,
				double *scratch, double *lo, double *hi);

/* Sample standard deviation (n - 1); NaN for n < 2. */
double cmp_sd(const double *v, size_t n);

/* Coefficient of variation in percent: 100 * sample sd (n - 1) / mean; NaN for n < 2. */
double cmp_cv_pct(const double *v, size_t n);

/* The 97.5 % point of the standard normal: a two-sided 95 % interval. */
#define CMP_Z95 1.959963984540054

/*
 * The stop rule: how wide the headline's 95 % interval is at a spread, and
 * how many boots of each kernel make it +-h points.
 *
 * The headline is D = 100 * (mB / mA - 1), mA and mB the medians of n
 * boots of each kernel.  Normal approximation: the median of n boots of
 * spread sigma has a variance of (pi / 2) sigma^2 / n (its efficiency
 * against the mean, 2 / pi, for normal data), and by the delta method the
 * ratio R = mB / mA of two independent medians has
 *   Var(R) / R^2 = (pi / 2) (cvA^2 + cvB^2) / n,
 * so, cv in percent, the two-sided 95 % half-width in points is
 *   h(n) = z * R * sqrt((pi / 2) * (cvA^2 + cvB^2) / n),     z = 1.95996
 * and the boots each kernel needs for +-h:
 *   n = ceil((z * R)^2 * (pi / 2) * (cvA^2 + cvB^2) / h^2), at least 2.
 * Why this one: it predicts the interval the report gives (a bootstrap of
 * the medians' ratio), not the narrower one of means (pi / 2 fewer boots);
 * it takes both kernels' spreads as they are.  It is a normal-theory
 * figure: a spread with outliers (a shared host) widens the bootstrap's
 * interval beyond it, so the rule is read again after more boots, with
 * their CV.  Equal boots of each kernel, as ABBA order makes them.  In
 * python3, 200 pairs of samples of normal data at a CV of 5 % on both
 * kernels, each given the report's bootstrap (2000 rounds), had a mean
 * half-width of 4.97 points at 12 boots each (the rule: 5.01), 8.35 at 5
 * (7.77), 3.55 at 24 (3.55).
 *
 * Over seed pairs (cmp_bootstrap_delta_paired) what spreads is the
 * per-seed delta 100 * (b_s / a_s - 1), in points: the same formula with
 * cv_a = its sd, cv_b = 0 and ratio = 1 gives the seed pairs needed (the
 * paired statistic sits near the median seed's delta, hence pi / 2 again).
 */
/* ratio is mB / mA (1 where it is not known, NaN); cv_a, cv_b in percent. */
double cmp_halfwidth_pct(double cv_a, double cv_b, double ratio, double n);
/* Boots of each kernel for a half-width of h points; 0 when a CV is unknown (NaN). */
unsigned long cmp_boots_needed(double cv_a, double cv_b, double ratio, double h);

#endif
