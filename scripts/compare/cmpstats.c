// SPDX-License-Identifier: GPL-2.0
/* Statistics for mseal-compare: see cmpstats.h. */
#include <math.h>
#include <stdlib.h>

#include "cmpstats.h"

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
