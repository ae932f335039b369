// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the statistics over layouts (scripts/compare/layouts.c).
 *
 * The reference values come from an independent implementation of
 * layouts.h's formulas in python3 (standard library only):
 *
 *   def vom(z, boot):   # variance of mean(z): max(runs', clustered by boot)
 *       n = len(z); m = sum(z) / n
 *       unit = sum((x - m) ** 2 for x in z) / (n - 1) / n
 *       g = {}
 *       for x, b in zip(z, boot): g[b] = g.get(b, 0) + (x - m)
 *       if len(g) < 2: return unit
 *       return max(unit, len(g) / (len(g) - 1) * sum(v * v for v in g.values()) / n / n)
 *   # paired: q = mean(b) / mean(a), z = b - q a, se = sqrt(vom(z)) / mean(a),
 *   # interval q +- t(0.975, boots - 1) se
 *
 * and Student's t from any table (R's qt(0.975, df)).
 */
#include <math.h>

#include "../../scripts/lib/cmpstats.c"
#include "../../scripts/compare/layouts.c"
#include "utap.h"

#define CLOSE(got, want, tol) (fabs((got) - (want)) <= (tol))

static void test_t(void)
{
	utap_ok(CLOSE(lay_t975(1), 12.7062, 1e-4), "t(1) = 12.7062");
	utap_ok(CLOSE(lay_t975(2), 4.3027, 1e-4), "t(2) = 4.3027");
	utap_ok(CLOSE(lay_t975(30), 2.0423, 1e-4), "t(30) = 2.0423");
	utap_ok(CLOSE(lay_t975(60), 2.0003, 2e-4), "t(60) = 2.0003 (Cornish-Fisher)");
	utap_ok(CLOSE(lay_t975(120), 1.9799, 2e-4), "t(120) = 1.9799");
	utap_ok(lay_t975(2.5) < lay_t975(2) && lay_t975(2.5) > lay_t975(3),
		"a fractional df lies between its neighbours");
}

/* Three boots of two layouts each, paired: python's figures. */
static void test_paired(void)
{
	static const double a[] = { 100, 120, 90, 110, 105, 95 };
	static const double b[] = { 104, 126, 93, 115, 109, 99 };
	static const long long boot[] = { 1, 1, 2, 2, 3, 3 };
	struct lay_side sa = { .y = a, .boot = boot, .n = 6 }, sb = { .x = b, .boot = boot, .n = 6 };
	struct lay_ci c;

	utap_ok(lay_ratio(&sa, &sb, 1, &c) == 0, "paired: computed");
	utap_ok(CLOSE(c.q, 1.0419354839, 1e-9), "paired: q = mean(b) / mean(a) = 1.0419354839 (%.10f)", c.q);
	utap_ok(CLOSE(c.se, 0.0024264774, 1e-9), "paired: se 0.0024264774 (%.10f)", c.se);
	utap_ok(c.boots == 3 && c.df == 2 && !c.boot_fixed, "paired: 3 boots, df 2");
	utap_ok(CLOSE(c.lo, 1.0314950796, 1e-6) && CLOSE(c.hi, 1.0523758881, 1e-6),
		"paired: interval [1.031495, 1.052376] ([%.6f, %.6f])", c.lo, c.hi);
	utap_eq_u64(c.n, 6, "paired: 6 pairs");
}

/*
 * Two boots whose layouts differ in what the change does: +2 % in every
 * layout of boot 1, +6 % in every layout of boot 2.  The runs alone (8
 * layouts, t at 7 df) would give [+2.20 %, +5.80 %], which covers neither
 * group; over boots the interval must cover both.
 */
static void test_two_groups(void)
{
	static const double a[] = { 100, 110, 120, 130, 100, 110, 120, 130 };
	double b[8];
	static const long long boot[] = { 1, 1, 1, 1, 2, 2, 2, 2 };
	struct lay_side sa = { .y = a, .boot = boot, .n = 8 }, sb = { .x = b, .boot = boot, .n = 8 };
	struct lay_ci c;
	int i;

	for (i = 0; i < 8; i++)
		b[i] = a[i] * (i < 4 ? 1.02 : 1.06);
	lay_ratio(&sa, &sb, 1, &c);
	utap_ok(CLOSE(c.q, 1.04, 1e-12), "two groups: +4 %% on average");
	utap_ok(CLOSE(c.se, 0.02, 1e-9), "two groups: se 0.02 over boots (%.10f)", c.se);
	utap_ok(c.df == 1, "two groups: 2 boots, df 1");
	utap_ok(c.lo < 1.02 && c.hi > 1.06, "two groups: the interval [%.4f, %.4f] covers +2 %% and +6 %%",
		c.lo, c.hi);
	utap_ok(CLOSE(c.lo, 0.785876, 1e-5) && CLOSE(c.hi, 1.294124, 1e-5), "two groups: python's [0.785876, 1.294124]");
}

/* One boot: the interval covers the layouts only, and says so. */
static void test_one_boot(void)
{
	static const double a[] = { 100, 102, 98, 101 }, b[] = { 103, 105, 101, 104 };
	static const long long boot[] = { 7, 7, 7, 7 };
	struct lay_side sa = { .y = a, .boot = boot, .n = 4 }, sb = { .x = b, .boot = boot, .n = 4 };
	struct lay_ci c;

	lay_ratio(&sa, &sb, 1, &c);
	utap_ok(c.boot_fixed && c.boots == 1 && c.df == 3, "one boot: boot_fixed, df = layouts - 1");
}

/* Unpaired, two boots a side: Welch-Satterthwaite over the sides. */
static void test_unpaired(void)
{
	static const double a[] = { 100, 102, 98, 101 }, b[] = { 110, 111, 108, 113 };
	static const long long ba[] = { 1, 1, 2, 2 }, bb[] = { 3, 3, 4, 4 };
	struct lay_side sa = { .y = a, .boot = ba, .n = 4 }, sb = { .x = b, .boot = bb, .n = 4 };
	struct lay_ci c;

	lay_ratio(&sa, &sb, 0, &c);
	utap_ok(CLOSE(c.q, 1.1022443890, 1e-9), "unpaired: q 1.1022443890 (%.10f)", c.q);
	utap_ok(CLOSE(c.se, 0.0139979274, 1e-9), "unpaired: se 0.0139979274 (%.10f)", c.se);
	utap_ok(CLOSE(c.df, 1.9800953997, 1e-8), "unpaired: df 1.9800953997 (%.10f)", c.df);
	utap_eq_u64(c.n, 8, "unpaired: 8 runs");
}

/* The account's shape: x and y on both sides, B's negated. */
static void test_account_shape(void)
{
	static const double ca[] = { 300, 310 }, cb[] = { -10, -12 };
	static const double ya[] = { 14000, 14100 }, yb[] = { -13700, -13790 };
	static const long long boot[] = { 1, 2 };
	struct lay_side sa = { .x = ca, .y = ya, .boot = boot, .n = 2 };
	struct lay_side sb = { .x = cb, .y = yb, .boot = boot, .n = 2 };
	struct lay_ci c;

	lay_ratio(&sa, &sb, 1, &c);
	/* (305 - 11) / (14050 - 13745) = 294 / 305 */
	utap_ok(CLOSE(c.q, 294.0 / 305.0, 1e-12), "account: (checks A - B) / (per-op A - B) = 294/305");
	utap_ok(lay_ratio(&sa, &(struct lay_side){ 0 }, 1, &c) == -1, "no runs on a side: -1");
}

/* Boots for a half-width: se scales as 1 / sqrt(boots), z = 1.96. */
static void test_boots_needed(void)
{
	struct lay_ci c = { .q = 1.05, .se = 0.005, .boots = 5 };

	/* ceil(5 * (1.959964 * 0.005 / 0.01)^2) = ceil(4.8018) */
	utap_eq_u64(lay_boots_needed(&c, 0.01), 5, "boots needed for +-1 point at se 0.5 points over 5 boots: 5");
	/* ceil(5 * 0.2401) = 2 */
	utap_eq_u64(lay_boots_needed(&c, 0.02), 2, "for +-2 points: 2");
	c.se = 0.02;	/* ceil(5 * 15.3658) = 77 */
	utap_eq_u64(lay_boots_needed(&c, 0.01), 77, "at se 2 points: 77 for +-1");
	c.boots = 1;
	utap_eq_u64(lay_boots_needed(&c, 0.01), 0, "one boot: no spread, 0");
}

int main(void)
{
	utap_plan(28);
	test_t();
	test_paired();
	test_two_groups();
	test_one_boot();
	test_unpaired();
	test_account_shape();
	test_boots_needed();
	return utap_done();
}
