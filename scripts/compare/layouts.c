// SPDX-License-Identifier: GPL-2.0
/* Statistics over address-space layouts: see layouts.h. */
#include <math.h>
#include <stdlib.h>

#include "../lib/cmpstats.h"
#include "layouts.h"

/* Student's t, 97.5 % point, df 1 to 30 (any table of t; R's qt(0.975, df)). */
static const double t975[31] = {
	NAN, 12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.3060, 2.2622,
	2.2281, 2.2010, 2.1788, 2.1604, 2.1448, 2.1314, 2.1199, 2.1098, 2.1009, 2.0930,
	2.0860, 2.0796, 2.0739, 2.0687, 2.0639, 2.0595, 2.0555, 2.0518, 2.0484, 2.0452,
	2.0423,
};

double lay_t975(double df)
{
	double z = CMP_Z95, lo, hi, f;
	int k;

	if (isnan(df))
		return NAN;
	if (df <= 1)
		return t975[1];
	if (df <= 30) {
		/*
		 * Between two whole degrees (Welch's df is fractional): log t
		 * linear in 1 / df, within 3 % of the exact value between 1
		 * and 2 degrees (t(1.5) = 6.02: 6.17 here) and closer above.
		 */
		k = (int)df;
		if (k == 30)
			return t975[30];
		lo = log(t975[k]);
		hi = log(t975[k + 1]);
		f = (1.0 / k - 1.0 / df) / (1.0 / k - 1.0 / (k + 1));
		return exp(lo + f * (hi - lo));
	}
	/* Cornish-Fisher: within 1e-4 of the exact value from 30 degrees on. */
	return z + (z * z * z + z) / (4 * df) +
	       (5 * pow(z, 5) + 16 * z * z * z + 3 * z) / (96 * df * df);
}

double lay_mean(const double *v, size_t n)
{
	double s = 0;
	size_t i;

	if (!n)
		return NAN;
	for (i = 0; i < n; i++)
		s += v[i];
	return s / (double)n;
}

static int cmp_ll(const void *x, const void *y)
{
	long long a = *(const long long *)x, b = *(const long long *)y;

	return a < b ? -1 : a > b;
}

int lay_boots(const long long *boot, size_t n)
{
	long long *s = malloc((n ? n : 1) * sizeof(*s));
	size_t i;
	int g = 0;

	if (!s)
		abort();
	for (i = 0; i < n; i++)
		s[i] = boot[i];
	qsort(s, n, sizeof(*s), cmp_ll);
	for (i = 0; i < n; i++)
		g += !i || s[i] != s[i - 1];
	free(s);
	return g;
}

static double at(const double *v, size_t i)
{
	return v ? v[i] : 0.0;
}

/*
 * The variance of the mean of z[0..n) (centred here): the larger of the
 * runs' own and the cluster-robust one over boots.  *g gets the boots.
 */
static double var_of_mean(const double *z, const long long *boot, size_t n, int *g)
{
	double m = lay_mean(z, n), ss = 0, cs = 0, unit, clus;
	long long *seen;
	size_t i, j;
	int k = 0;

	*g = lay_boots(boot, n);
	if (n < 2)
		return NAN;
	for (i = 0; i < n; i++)
		ss += (z[i] - m) * (z[i] - m);
	unit = ss / (double)(n - 1) / (double)n;
	if (*g < 2)
		return unit;
	seen = malloc(n * sizeof(*seen));
	if (!seen)
		abort();
	for (i = 0; i < n; i++) {
		double t = 0;

		for (j = 0; j < (size_t)k && seen[j] != boot[i]; j++)
			;
		if (j < (size_t)k)
			continue;
		seen[k++] = boot[i];
		for (j = i; j < n; j++)
			if (boot[j] == boot[i])
				t += z[j] - m;
		cs += t * t;
	}
	free(seen);
	clus = (double)*g / (*g - 1) * cs / ((double)n * (double)n);
	return clus > unit ? clus : unit;
}

/* One side's residuals x_i - q y_i (z must hold s->n). */
static void residuals(const struct lay_side *s, double q, double *z)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		z[i] = at(s->x, i) - q * at(s->y, i);
}

static double side_mean(const double *v, size_t n)
{
	return v ? lay_mean(v, n) : 0.0;
}

int lay_ratio(const struct lay_side *a, const struct lay_side *b, int paired, struct lay_ci *out)
{
	double num, den, *za, *zb, va, vb, dfa, dfb, t;
	size_t i;
	int ga, gb;

	out->q = out->lo = out->hi = out->se = out->df = NAN;
	out->n = paired ? a->n : a->n + b->n;
	out->boots = 0;
	out->boot_fixed = 0;
	if (!a->n || !b->n || (paired && a->n != b->n))
		return -1;
	num = side_mean(a->x, a->n) + side_mean(b->x, b->n);
	den = side_mean(a->y, a->n) + side_mean(b->y, b->n);
	out->q = num / den;
	if (den == 0 || isnan(out->q))
		return -1;
	za = malloc(a->n * sizeof(*za));
	zb = malloc(b->n * sizeof(*zb));
	if (!za || !zb)
		abort();
	residuals(a, out->q, za);
	residuals(b, out->q, zb);
	if (paired) {
		for (i = 0; i < a->n; i++)
			za[i] += zb[i];
		va = var_of_mean(za, a->boot, a->n, &ga);
		out->boots = ga;
		out->boot_fixed = ga < 2;
		out->df = ga < 2 ? (double)a->n - 1 : ga - 1;
		out->se = sqrt(va) / fabs(den);
	} else {
		va = var_of_mean(za, a->boot, a->n, &ga);
		vb = var_of_mean(zb, b->boot, b->n, &gb);
		out->boots = ga < gb ? ga : gb;
		out->boot_fixed = ga < 2 || gb < 2;
		dfa = ga < 2 ? (double)a->n - 1 : ga - 1;
		dfb = gb < 2 ? (double)b->n - 1 : gb - 1;
		/* Welch-Satterthwaite; one side without spread leaves the other's df. */
		out->df = va + vb > 0 ? (va + vb) * (va + vb) / (va * va / dfa + vb * vb / dfb) :
					(dfa < dfb ? dfa : dfb);
		out->se = sqrt(va + vb) / fabs(den);
	}
	free(za);
	free(zb);
	if (isnan(out->se) || out->df < 1)
		return 0;
	t = lay_t975(out->df);
	out->lo = out->q - t * out->se;
	out->hi = out->q + t * out->se;
	return 0;
}

unsigned long lay_boots_needed(const struct lay_ci *c, double h)
{
	double g;

	if (isnan(c->se) || c->boots < 2 || h <= 0)
		return 0;
	g = ceil((double)c->boots * pow(CMP_Z95 * c->se / h, 2));
	return g < 2 ? 2 : (unsigned long)g;
}
