// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the explained ratio and its bootstrap interval
 * (scripts/compare/cmpstats.c: cmp_explained_ratio, cmp_bootstrap_ratio).
 *
 * The reference values are computed independently, by exhaustive
 * enumeration rather than by resampling: with n boots on a side there are
 * n^n equally likely resamples, so for n = 4 on both sides the bootstrap
 * distribution of the ratio is exactly known from 4^4 * 4^4 = 65536
 * outcomes (python3, standard library only; statistics.median averages
 * the middle two as cmp_median does):
 *
 *   import itertools, statistics as st
 *   oa=[49786,51200,47310,50550]; ca=[750,812,705,760]
 *   ob=[59600,57100,61020,58800]; cb=[0,12,5,8]
 *   out = {}
 *   for ia in itertools.product(range(4), repeat=4):
 *       moa = st.median([oa[i] for i in ia]); mca = st.median([ca[i] for i in ia])
 *       for ib in itertools.product(range(4), repeat=4):
 *           mob = st.median([ob[i] for i in ib]); mcb = st.median([cb[i] for i in ib])
 *           r = (mca - mcb) / (1e9 / moa - 1e9 / mob)
 *           out[r] = out.get(r, 0) + 1
 *   # the value where the cumulative share crosses 0.025 and 0.975:
 *   # 0.16453534667788064 (share 0.0194 below it, 0.0266 up to it) and
 *   # 0.32962304427480954 (0.9710 below, 0.9784 up to it)
 *
 * Both crossings fall inside a value's own probability mass, 0.0016 or
 * more from its edges: a percentile bootstrap of 200000 rounds (standard
 * error of a share near 0.025: 0.00035) lands on those very values.  A
 * resampling that split a boot's two values, or a wrong median, gives
 * other values.
 */
#include <math.h>
#include <stdlib.h>

#include "../../scripts/compare/cmpstats.c"
#include "utap.h"

#define N(x) (sizeof(x) / sizeof((x)[0]))
#define ROUNDS 200000

static int close_to(double got, double want, double tol)
{
	if (fabs(got - want) <= tol)
		return 1;
	printf("#   got %.17g, want %.17g\n", got, want);
	return 0;
}

static double scratch[2 * 16 + ROUNDS];

int main(void)
{
	/* A: pre-series-like ops/s without the module and check ns/op with it. */
	double oa[] = { 49786, 51200, 47310, 50550 }, ca[] = { 750, 812, 705, 760 };
	double ob[] = { 59600, 57100, 61020, 58800 }, cb[] = { 0, 12, 5, 8 };
	/* By hand: 1e9/100000 - 1e9/125000 = 10000 - 8000 = 2000 ns measured,
	 * 1000 - 0 ns of checks: exactly half of it, in every resample. */
	double ka[] = { 100000, 100000, 100000 }, kc[] = { 1000, 1000, 1000 };
	double kb[] = { 125000, 125000 }, kd[] = { 0, 0 };
	/* The same ops/s on both kernels: no difference to explain. */
	double same[] = { 50000, 50000 }, zero[] = { 0, 0 };
	double r, lo, hi, lo2, hi2;

	utap_plan(9);

	r = cmp_explained_ratio(ka, kc, N(ka), kb, kd, N(kb), scratch);
	utap_ok(close_to(r, 0.5, 1e-12), "by hand: 1000 ns of checks of a 2000 ns difference is 0.5");
	cmp_bootstrap_ratio(ka, kc, N(ka), kb, kd, N(kb), 1000, 0.95, 42, scratch, &lo, &hi);
	utap_ok(close_to(lo, 0.5, 1e-12) && close_to(hi, 0.5, 1e-12),
		"by hand: constant boots give the interval [0.5, 0.5]");

	/* Medians: ca 755 (750, 760), cb 6.5 (5, 8), oa 50168 (49786, 50550), ob 59200 (58800, 59600). */
	r = cmp_explained_ratio(oa, ca, N(oa), ob, cb, N(ob), scratch);
	utap_ok(close_to(r, 0.2461253633303811, 1e-12),
		"the ratio of medians (enumeration's point estimate 0.2461253633303811)");
	utap_ok(oa[0] == 49786 && ca[3] == 760 && cb[1] == 12, "the inputs are left in their order");

	cmp_bootstrap_ratio(oa, ca, N(oa), ob, cb, N(ob), ROUNDS, 0.95, 0x5eed, scratch, &lo, &hi);
	printf("# bootstrap 95%% CI of the ratio: [%.17g, %.17g]\n", lo, hi);
	utap_ok(close_to(lo, 0.16453534667788064, 1e-12), "2.5 %% point: the enumerated 0.16453534667788064");
	utap_ok(close_to(hi, 0.32962304427480954, 1e-12), "97.5 %% point: the enumerated 0.32962304427480954");
	cmp_bootstrap_ratio(oa, ca, N(oa), ob, cb, N(ob), ROUNDS, 0.95, 7, scratch, &lo2, &hi2);
	utap_ok(lo2 == lo && hi2 == hi, "another seed lands on the same enumerated values");

	/* Nothing measured, checks seen on A: every resample's ratio is +inf. */
	cmp_bootstrap_ratio(same, ca, N(same), same, zero, N(same), 1000, 0.95, 1, scratch, &lo, &hi);
	utap_ok(isinf(lo) && lo > 0 && isinf(hi) && hi > 0,
		"no measured difference but checks on A: the interval is [+inf, +inf]");
	/* Nothing measured and no checks: 0 / 0 in every round. */
	cmp_bootstrap_ratio(same, zero, N(same), same, zero, N(same), 1000, 0.95, 1, scratch, &lo, &hi);
	utap_ok(isnan(lo) && isnan(hi), "0 / 0: no interval (NaN)");
	return utap_done();
}
