// SPDX-License-Identifier: GPL-2.0
/* Boots paired by seed: see seeds.h. */
#include <math.h>
#include <stdlib.h>

#include "../lib/cmpstats.h"
#include "seeds.h"

static int by_value(const void *x, const void *y)
{
	long long a = *(const long long *)x, b = *(const long long *)y;

	return (a > b) - (a < b);
}

int seeds_distinct(const struct record *recs, const int *idx, int n, long long *out)
{
	int i, k = 0, d = 0;

	for (i = 0; i < n; i++)
		if (recs[idx[i]].seed != REC_NO_SEED)
			out[k++] = recs[idx[i]].seed;
	qsort(out, (size_t)k, sizeof(*out), by_value);
	for (i = 0; i < k; i++)
		if (!d || out[d - 1] != out[i])
			out[d++] = out[i];
	return d;
}

int seeds_common(const long long *sa, int na, const long long *sb, int nb, long long *out)
{
	int i = 0, j = 0, k = 0;

	while (i < na && j < nb) {
		if (sa[i] == sb[j]) {
			out[k++] = sa[i];
			i++;
			j++;
		} else if (sa[i] < sb[j]) {
			i++;
		} else {
			j++;
		}
	}
	return k;
}

void seeds_medians(const double *v, const long long *seed_of, size_t n,
		   const long long *seeds, int ns, double *out)
{
	static double tmp[REC_MAX];
	size_t j, k;
	int i;

	for (i = 0; i < ns; i++) {
		for (j = 0, k = 0; j < n && k < REC_MAX; j++)
			if (seed_of[j] == seeds[i] && !isnan(v[j]))
				tmp[k++] = v[j];
		out[i] = cmp_median(tmp, k);
	}
}
