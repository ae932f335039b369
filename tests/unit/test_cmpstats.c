// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of mseal-compare's statistics.  The Mann-Whitney reference
 * values come from scipy 1.10.1 (Debian bookworm's python3-scipy):
 *   scipy.stats.mannwhitneyu(A, B, method="asymptotic", alternative="two-sided")
 */
#include <math.h>
#include <stdlib.h>

#include "../../scripts/lib/cmpstats.c"
#include "utap.h"

#define N(x) (sizeof(x) / sizeof((x)[0]))

static int close_to(double got, double want, double tol)
{
	if (fabs(got - want) <= tol)
		return 1;
	printf("#   got %.17g, want %.17g\n", got, want);
	return 0;
}

int main(void)
{
	double a[] = { 270, 281, 265, 290, 276, 284, 262, 279 };
	double b[] = { 293, 288, 301, 285, 296, 290, 299, 287 };
	double c[] = { 1, 2, 2, 3, 3, 3 }, d[] = { 2, 3, 4, 4, 5 };
	double e[] = { 5, 5, 5, 6 }, f[] = { 5, 5, 5, 6 };
	double odd[] = { 3, 1, 2 }, even[] = { 4, 1, 3, 2 };
	double scratch[16 + 2000], lo, hi, lo2, hi2, u, p;
	double flat_a[] = { 100, 100, 100, 100 }, flat_b[] = { 110, 110, 110 };

	utap_plan(12);

	utap_ok(cmp_median(odd, 3) == 2, "median of an odd count");
	utap_ok(cmp_median(even, 4) == 2.5, "median of an even count");

	p = cmp_mannwhitney(a, N(a), b, N(b), &u);
	utap_ok(u == 3.5, "Mann-Whitney U with one tie (scipy: 3.5)");
	utap_ok(close_to(p, 0.0032530810400609885, 1e-12), "Mann-Whitney p (scipy: 0.0032530810400609885)");
	p = cmp_mannwhitney(c, N(c), d, N(d), &u);
	utap_ok(u == 5.5, "Mann-Whitney U, many ties (scipy: 5.5)");
	utap_ok(close_to(p, 0.08871369199677616, 1e-12), "Mann-Whitney p, many ties (scipy: 0.08871369199677616)");
	p = cmp_mannwhitney(e, N(e), f, N(f), &u);
	utap_ok(u == 8 && p == 1.0, "identical samples: U = 8, p = 1 (scipy)");

	/* Constant samples: every resample gives exactly +10 %. */
	cmp_bootstrap_delta(flat_a, N(flat_a), flat_b, N(flat_b), 1000, 0.95, 42, scratch, &lo, &hi);
	utap_ok(close_to(lo, 10, 1e-9) && close_to(hi, 10, 1e-9), "bootstrap of constant samples is [+10 %%, +10 %%]");

	cmp_bootstrap_delta(a, N(a), b, N(b), 2000, 0.95, 42, scratch, &lo, &hi);
	printf("# bootstrap 95%% CI of the median delta: [%.3f, %.3f] %%\n", lo, hi);
	/* Point estimate: median(b) = 291.5, median(a) = 277.5: +5.045 %. */
	utap_ok(lo < 5.045 && 5.045 < hi, "the CI contains the point estimate");
	utap_ok(lo > 0, "the CI excludes zero for clearly separated samples");
	cmp_bootstrap_delta(a, N(a), b, N(b), 2000, 0.95, 42, scratch, &lo2, &hi2);
	utap_ok(lo == lo2 && hi == hi2, "the same seed gives the same interval");
	cmp_bootstrap_delta(e, N(e), f, N(f), 2000, 0.95, 7, scratch, &lo, &hi);
	utap_ok(lo <= 0 && hi >= 0, "the CI of identical samples contains zero");
	return utap_done();
}
