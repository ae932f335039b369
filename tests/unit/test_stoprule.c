// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the stop rule (scripts/lib/cmpstats.c: cmp_cv_pct,
 * cmp_halfwidth_pct, cmp_boots_needed): the boots of each kernel that make
 * the headline's 95 % interval +-h points at the spread seen.
 *
 * The reference values come from python3's standard library, not from
 * this code: z from statistics.NormalDist, the CV from statistics.stdev
 * and statistics.mean, and
 *
 *   import math, statistics as st
 *   z = st.NormalDist().inv_cdf(0.975)                 # 1.9599639845400536
 *   def need(ca, cb, R, h): return (z * R) ** 2 * (math.pi / 2) * (ca ** 2 + cb ** 2) / h ** 2
 *   def hw(ca, cb, R, n): return z * R * math.sqrt(math.pi / 2 * (ca ** 2 + cb ** 2) / n)
 *   need(2, 3, 1.05, 1)       # 86.48444634831176  -> 87 boots
 *   need(2, 3, 1.05, 2)       # 21.62111158707794  -> 22
 *   need(20, 20, 1.0, 1)      # 4827.319524064148  -> 4828
 *   need(20, 20, 1.0, 2)      # 1206.829881016037  -> 1207
 *   need(0.05, 0.04, 1.072, 1) # 0.028430826594703442 -> 1, raised to 2
 *   hw(16, 33, 1.0, 12)       # 26.006298836103866
 *   hw(2, 3, 1.05, 5)         # 4.158952905439342
 *   100 * st.stdev([100, 110, 90, 120, 80]) / st.mean(...)       # 15.811388300841895
 *   100 * st.stdev([49786, 51200, 47310, 50550]) / st.mean(...)  # 3.4239628792057277
 *   st.stdev([3.4, 4.1, 3.9, 3.6, 4.0])  # 0.29154759474226494 (per-seed deltas, points)
 *   need(0.29154759474226494, 0, 1, 1)    # 0.5129026994318154 -> 1, raised to 2
 *   need(2.5, 0, 1, 1)                   # 37.71343378175116 -> 38 seed pairs
 *
 * And the rule against the interval it predicts: 200 pairs of samples of
 * normal data (CV 5 % on both kernels), each given the report's bootstrap
 * (2000 rounds), in python3: mean half-width 4.97 points at 12 boots each
 * (the rule: 5.01), 8.35 at 5 (7.77), 3.55 at 24 (3.55).
 */
#include <math.h>
#include <stdlib.h>

#include "../../scripts/lib/cmpstats.c"
#include "utap.h"

static int close_to(double got, double want, double tol)
{
	if (fabs(got - want) <= tol)
		return 1;
	printf("#   got %.17g, want %.17g\n", got, want);
	return 0;
}

int main(void)
{
	double v[] = { 100, 110, 90, 120, 80 }, oa[] = { 49786, 51200, 47310, 50550 }, one[] = { 5 };

	double d[] = { 3.4, 4.1, 3.9, 3.6, 4.0 };

	utap_plan(16);

	utap_ok(close_to(CMP_Z95, 1.9599639845400536, 1e-15), "z of a two-sided 95 %% interval (NormalDist: 1.9599639845400536)");
	utap_ok(close_to(cmp_cv_pct(v, 5), 15.811388300841895, 1e-12), "CV of 100 110 90 120 80: 15.811388300841895 %%");
	utap_ok(close_to(cmp_cv_pct(oa, 4), 3.4239628792057277, 1e-12), "CV of four boots' ops/s: 3.4239628792057277 %%");
	utap_ok(isnan(cmp_cv_pct(one, 1)), "one boot has no CV (NaN)");

	utap_eq_u64(cmp_boots_needed(2, 3, 1.05, 1), 87, "CV 2 and 3 %, B 5 % faster: 87 boots each for +-1 point (86.48)");
	utap_eq_u64(cmp_boots_needed(2, 3, 1.05, 2), 22, "the same for +-2 points: 22 (21.62)");
	utap_eq_u64(cmp_boots_needed(20, 20, 1.0, 1), 4828, "CV 20 % on both (the test bed's wall clock): 4828 for +-1 (4827.32)");
	utap_eq_u64(cmp_boots_needed(20, 20, 1.0, 2), 1207, "and 1207 for +-2 (1206.83)");
	utap_eq_u64(cmp_boots_needed(0.05, 0.04, 1.072, 1), 2, "the instruction clock's spread: 0.03 boots, raised to 2 (one gives no interval)");
	utap_eq_u64(cmp_boots_needed(NAN, 3, 1.0, 1), 0, "an unknown CV (one boot): 0, no figure");

	utap_ok(close_to(cmp_halfwidth_pct(16, 33, 1.0, 12), 26.006298836103866, 1e-12),
		"half-width at CV 16 and 33 %%, 12 boots each: 26.006298836103866 points");
	utap_ok(close_to(cmp_halfwidth_pct(2, 3, 1.05, 5), 4.158952905439342, 1e-12),
		"half-width at CV 2 and 3 %%, 5 boots each, R 1.05: 4.158952905439342");
	utap_ok(close_to(cmp_halfwidth_pct(2, 3, NAN, 5), 4.158952905439342 / 1.05, 1e-12),
		"an unknown ratio counts as 1");
	utap_ok(close_to(cmp_sd(d, 5), 0.29154759474226494, 1e-12), "sd of per-seed deltas 3.4 4.1 3.9 3.6 4.0: 0.29154759474226494");
	utap_eq_u64(cmp_boots_needed(cmp_sd(d, 5), 0, 1, 1), 2, "seed pairs at that spread for +-1 point: 0.51, raised to 2");
	utap_eq_u64(cmp_boots_needed(2.5, 0, 1, 1), 38, "per-seed deltas spread by 2.5 points: 38 seed pairs for +-1 (37.71)");
	return utap_done();
}
