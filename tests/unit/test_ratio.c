// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the explained ratio and its bootstrap interval
 * (scripts/lib/cmpstats.c: cmp_explained_ratio, cmp_bootstrap_ratio).
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
 *
 * Paired by seed (cmp_bootstrap_delta_paired, cmp_bootstrap_ratio_paired):
 * five seeds, each booted on A and on B, whose layout moves both kernels
 * alike (A 62-78k ops/s); 5^5 = 3125 equally likely resamples of the
 * seed pairs, enumerated the same way:
 *
 *   a=[62000,78000,70000,66000,74000]; b=[64900,80700,73100,68400,76500]
 *   ca=[760,700,735,748,712]; cb=[10,0,6,3,8]
 *   for ix in itertools.product(range(5), repeat=5):
 *       delta = 100 * (st.median([b[i] for i in ix]) / st.median([a[i] for i in ix]) - 1)
 *       ratio = (st.median(ca[ix]) - st.median(cb[ix])) / (1e9 / st.median(a[ix]) - 1e9 / st.median(b[ix]))
 *   # delta: point 4.428571428571426; 2.5 % at 3.378378378378377 (its mass
 *   #   0 to 0.2595), 97.5 % at 4.677419354838719 (0.9421 to 1)
 *   # ratio: point 1.2033203225806426; 2.5 % at 1.0406379310344818 (0 to
 *   #   0.0579), 97.5 % at 1.6319333333333326 (0.9421 to 1)
 *
 * Each crossing lies 0.025 inside its value's mass.  And by hand: B 10 %
 * faster than A in every seed gives exactly [+10 %, +10 %] paired, while
 * the same boots resampled without the pairing give an interval that holds
 * zero.
 */
#include <math.h>
#include <stdlib.h>

#include "../../scripts/lib/cmpstats.c"
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

static double scratch[4 * 16 + ROUNDS];

static void paired_tests(void)
{
	double a[] = { 62000, 78000, 70000, 66000, 74000 }, b[] = { 64900, 80700, 73100, 68400, 76500 };
	double ca[] = { 760, 700, 735, 748, 712 }, cb[] = { 10, 0, 6, 3, 8 };
	/* By hand: B 10 % faster than A under every layout: every resample's medians keep it. */
	double la[] = { 60000, 80000, 70000, 65000 }, lb[] = { 66000, 88000, 77000, 71500 };
	double lo, hi, r;

	cmp_bootstrap_delta_paired(la, lb, N(la), 1000, 0.95, 3, scratch, &lo, &hi);
	utap_ok(close_to(lo, 10, 1e-9) && close_to(hi, 10, 1e-9),
		"paired, by hand: B = 1.1 A in every seed gives [+10 %%, +10 %%] whatever the layout");
	cmp_bootstrap_delta(la, N(la), lb, N(lb), 1000, 0.95, 3, scratch, &lo, &hi);
	utap_ok(lo < 0 && hi > 20, "the same boots unpaired: an interval from below 0 to above +20 %% ([%.1f, %.1f])", lo, hi);

	cmp_bootstrap_delta_paired(a, b, N(a), ROUNDS, 0.95, 0x5eed, scratch, &lo, &hi);
	utap_ok(close_to(lo, 3.378378378378377, 1e-9), "paired delta, 2.5 %% point: the enumerated 3.378378378378377");
	utap_ok(close_to(hi, 4.677419354838719, 1e-9), "paired delta, 97.5 %% point: the enumerated 4.677419354838719");

	r = cmp_explained_ratio(a, ca, N(a), b, cb, N(b), scratch);
	utap_ok(close_to(r, 1.2033203225806426, 1e-12), "the seeds' explained ratio: 1.2033203225806426");
	cmp_bootstrap_ratio_paired(a, ca, b, cb, N(a), ROUNDS, 0.95, 0x5eed, scratch, &lo, &hi);
	utap_ok(close_to(lo, 1.0406379310344818, 1e-12) && close_to(hi, 1.6319333333333326, 1e-12),
		"paired ratio: the enumerated [1.0406379310344818, 1.6319333333333326]");
}

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

	utap_plan(15);

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
	paired_tests();
	return utap_done();
}
