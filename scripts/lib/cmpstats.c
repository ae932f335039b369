// SPDX-License-Identifier: GPL-2.0
/* Statistics for mseal-compare: see cmpstats.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cmpstats.h"

/* M_PI is XSI, not ISO C: not every compiler mode defines it. */
#define PI 3.14159265358979323846

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

void cmp_sort(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_double);
}

double cmp_median(double *v, size_t n)
{
	if (!n)
		return NAN;
	cmp_sort(v, n);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

double cmp_mannwhitney(const double *a, size_t na, const double *b, size_t nb, double *u)
{
	size_t n = na + nb, i, j;
	double r1 = 0, ties = 0, u1, u2, mu, sigma, z, p;

	/* Rank of a[i] in the pooled sample, ties averaged: count below and equal. */
	for (i = 0; i < na; i++) {
		double below = 0, equal = 0;

		for (j = 0; j < na; j++) {
			below += a[j] < a[i];
			equal += a[j] == a[i];
		}
		for (j = 0; j < nb; j++) {
			below += b[j] < a[i];
			equal += b[j] == a[i];
		}
		r1 += below + (equal + 1) / 2;
	}
	/* Tie correction: sum of t^3 - t over groups of equal values. */
	for (i = 0; i < n; i++) {
		double x = i < na ? a[i] : b[i - na], t = 0;
		int first = 1;

		for (j = 0; j < n; j++) {
			double y = j < na ? a[j] : b[j - na];

			if (y == x) {
				t++;
				if (j < i)
					first = 0;
			}
		}
		if (first)
			ties += t * t * t - t;
	}
	u1 = r1 - (double)na * (double)(na + 1) / 2;
	u2 = (double)na * (double)nb - u1;
	if (u)
		*u = u1;
	mu = (double)na * (double)nb / 2;
	sigma = sqrt((double)na * (double)nb / 12 *
		     ((double)(n + 1) - ties / ((double)n * (double)(n - 1))));
	if (sigma == 0)
		return 1.0;
	z = ((u1 > u2 ? u1 : u2) - mu - 0.5) / sigma;
	p = erfc(z / sqrt(2.0));
	return p > 1 ? 1 : p;
}

/* xorshift64*: small, fast and good enough for resampling indices. */
static uint64_t next_rand(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545F4914F6CDD1DULL;
}

static double resampled_median(const double *v, size_t n, double *tmp, uint64_t *s)
{
	size_t i;

	for (i = 0; i < n; i++)
		tmp[i] = v[next_rand(s) % n];
	return cmp_median(tmp, n);
}

double cmp_quantile(const double *v, size_t n, double q)
{
	double pos = q * (double)(n - 1);
	size_t lo = (size_t)pos;

	if (lo + 1 >= n)
		return v[n - 1];
	/* Equal neighbours, infinite ones too (inf - inf is NaN). */
	if (v[lo] == v[lo + 1])
		return v[lo];
	return v[lo] + (pos - (double)lo) * (v[lo + 1] - v[lo]);
}

void cmp_bootstrap_delta(const double *a, size_t na, const double *b, size_t nb,
			 unsigned int rounds, double level, uint64_t seed,
			 double *scratch, double *lo, double *hi)
{
	double *ta = scratch, *tb = scratch + na, *d = scratch + na + nb;
	uint64_t s = seed ? seed : 1;
	unsigned int r;

	for (r = 0; r < rounds; r++) {
		double ma = resampled_median(a, na, ta, &s);
		double mb = resampled_median(b, nb, tb, &s);

		d[r] = 100.0 * (mb / ma - 1.0);
	}
	cmp_sort(d, rounds);
	*lo = cmp_quantile(d, rounds, (1 - level) / 2);
	*hi = cmp_quantile(d, rounds, 1 - (1 - level) / 2);
}

/* The ratio of boots already laid out in t: oa, ca, ob, cb one after the other. */
static double ratio_in_place(double *t, size_t na, size_t nb)
{
	double ca = cmp_median(t + na, na), cb = cmp_median(t + 2 * na + nb, nb);
	double num = ca - cb;
	double den = 1e9 / cmp_median(t, na) - 1e9 / cmp_median(t + 2 * na, nb);

	if (den == 0)
		return num == 0 ? NAN : copysign(INFINITY, num);
	return num / den;
}

double cmp_explained_ratio(const double *oa, const double *ca, size_t na,
			   const double *ob, const double *cb, size_t nb, double *scratch)
{
	memcpy(scratch, oa, na * sizeof(*oa));
	memcpy(scratch + na, ca, na * sizeof(*ca));
	memcpy(scratch + 2 * na, ob, nb * sizeof(*ob));
	memcpy(scratch + 2 * na + nb, cb, nb * sizeof(*cb));
	return ratio_in_place(scratch, na, nb);
}

/*
 * One round's resample of the boots into t (oa, ca, ob, cb one after the
 * other), a boot's two values kept together; paired: B's boot i is the
 * one of the seed drawn for A's boot i (na == nb).
 */
static void resample_boots(const double *oa, const double *ca, size_t na,
			   const double *ob, const double *cb, size_t nb,
			   int paired, double *t, uint64_t *s)
{
	size_t i, j;

	for (i = 0; i < na; i++) {
		j = next_rand(s) % na;
		t[i] = oa[j];
		t[na + i] = ca[j];
		if (paired) {
			t[2 * na + i] = ob[j];
			t[2 * na + nb + i] = cb[j];
		}
	}
	for (i = 0; !paired && i < nb; i++) {
		j = next_rand(s) % nb;
		t[2 * na + i] = ob[j];
		t[2 * na + nb + i] = cb[j];
	}
}

static void bootstrap_ratio(const double *oa, const double *ca, size_t na,
			    const double *ob, const double *cb, size_t nb, int paired,
			    unsigned int rounds, double level, uint64_t seed,
			    double *scratch, double *lo, double *hi)
{
	double *t = scratch, *d = scratch + 2 * (na + nb);
	uint64_t s = seed ? seed : 1;
	unsigned int r;

	for (r = 0; r < rounds; r++) {
		resample_boots(oa, ca, na, ob, cb, nb, paired, t, &s);
		d[r] = ratio_in_place(t, na, nb);
		if (isnan(d[r])) {
			*lo = *hi = NAN;
			return;
		}
	}
	cmp_sort(d, rounds);
	*lo = cmp_quantile(d, rounds, (1 - level) / 2);
	*hi = cmp_quantile(d, rounds, 1 - (1 - level) / 2);
}

void cmp_bootstrap_ratio(const double *oa, const double *ca, size_t na,
			 const double *ob, const double *cb, size_t nb,
			 unsigned int rounds, double level, uint64_t seed,
			 double *scratch, double *lo, double *hi)
{
	bootstrap_ratio(oa, ca, na, ob, cb, nb, 0, rounds, level, seed, scratch, lo, hi);
}

void cmp_bootstrap_ratio_paired(const double *oa, const double *ca,
				const double *ob, const double *cb, size_t n,
				unsigned int rounds, double level, uint64_t seed,
				double *scratch, double *lo, double *hi)
{
	bootstrap_ratio(oa, ca, n, ob, cb, n, 1, rounds, level, seed, scratch, lo, hi);
}

void cmp_bootstrap_delta_paired(const double *a, const double *b, size_t n,
				unsigned int rounds, double level, uint64_t seed,
				double *scratch, double *lo, double *hi)
{
	double *ta = scratch, *tb = scratch + n, *d = scratch + 2 * n;
	uint64_t s = seed ? seed : 1;
	unsigned int r;
	size_t i, j;

	for (r = 0; r < rounds; r++) {
		for (i = 0; i < n; i++) {
			j = next_rand(&s) % n;
			ta[i] = a[j];
			tb[i] = b[j];
		}
		d[r] = 100.0 * (cmp_median(tb, n) / cmp_median(ta, n) - 1.0);
	}
	cmp_sort(d, rounds);
	*lo = cmp_quantile(d, rounds, (1 - level) / 2);
	*hi = cmp_quantile(d, rounds, 1 - (1 - level) / 2);
}

static double mean_of(const double *v, size_t n)
{
	double sum = 0;
	size_t i;

	for (i = 0; i < n; i++)
		sum += v[i];
	return sum / (double)n;
}

double cmp_sd(const double *v, size_t n)
{
	double mean, ss = 0;
	size_t i;

	if (n < 2)
		return NAN;
	mean = mean_of(v, n);
	/* Two passes: the spread of values near 1e5 ops/s keeps its digits. */
	for (i = 0; i < n; i++)
		ss += (v[i] - mean) * (v[i] - mean);
	return sqrt(ss / (double)(n - 1));
}

double cmp_cv_pct(const double *v, size_t n)
{
	return n < 2 ? NAN : 100.0 * cmp_sd(v, n) / mean_of(v, n);
}

/* (z R)^2 (pi / 2) (cvA^2 + cvB^2): the boots that give a half-width of 1 point. */
static double boots_for_one_point(double cv_a, double cv_b, double ratio)
{
	double zr = CMP_Z95 * (isfinite(ratio) && ratio > 0 ? ratio : 1.0);

	return zr * zr * (PI / 2) * (cv_a * cv_a + cv_b * cv_b);
}

double cmp_halfwidth_pct(double cv_a, double cv_b, double ratio, double n)
{
	return sqrt(boots_for_one_point(cv_a, cv_b, ratio) / n);
}

unsigned long cmp_boots_needed(double cv_a, double cv_b, double ratio, double h)
{
	double n;

	if (isnan(cv_a) || isnan(cv_b) || !(h > 0))
		return 0;
	n = ceil(boots_for_one_point(cv_a, cv_b, ratio) / (h * h));
	/* One boot of a kernel gives no interval at all. */
	return n < 2 ? 2 : (unsigned long)n;
}

/* Bootstrap rounds: enough that the interval's ends move by < 0.1 % between seeds. */
#define CMP_ROUNDS 10000
#define CMP_MAX_N 4096

void cmp_compare(const double *a, size_t na, const double *b, size_t nb, struct cmp_ab *out)
{
	static double ta[CMP_MAX_N], tb[CMP_MAX_N], scratch[2 * CMP_MAX_N + CMP_ROUNDS];
	double u;

	out->na = na;
	out->nb = nb;
	out->a = out->b = out->delta_pct = out->lo = out->hi = out->p = NAN;
	if (!na || !nb || na > CMP_MAX_N || nb > CMP_MAX_N)
		return;
	memcpy(ta, a, na * sizeof(*a));
	memcpy(tb, b, nb * sizeof(*b));
	out->p = cmp_mannwhitney(ta, na, tb, nb, &u);
	/* Resampling one boot gives that boot back: no interval. */
	if (na > 1 && nb > 1)
		cmp_bootstrap_delta(ta, na, tb, nb, CMP_ROUNDS, 0.95, 0x5eed, scratch, &out->lo, &out->hi);
	out->a = cmp_median(ta, na);
	out->b = cmp_median(tb, nb);
	out->delta_pct = 100.0 * (out->b / out->a - 1.0);
}

void cmp_compare_paired(const double *a, const double *b, size_t n, struct cmp_ab *out)
{
	static double ta[CMP_MAX_N], tb[CMP_MAX_N], scratch[2 * CMP_MAX_N + CMP_ROUNDS];

	out->na = out->nb = n;
	out->a = out->b = out->delta_pct = out->lo = out->hi = out->p = NAN;
	if (!n || n > CMP_MAX_N)
		return;
	if (n > 1)
		cmp_bootstrap_delta_paired(a, b, n, CMP_ROUNDS, 0.95, 0x5eed, scratch, &out->lo, &out->hi);
	memcpy(ta, a, n * sizeof(*a));
	memcpy(tb, b, n * sizeof(*b));
	out->a = cmp_median(ta, n);
	out->b = cmp_median(tb, n);
	out->delta_pct = 100.0 * (out->b / out->a - 1.0);
}
