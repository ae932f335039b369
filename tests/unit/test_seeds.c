// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of pairing boots by seed (scripts/compare/seeds.c): the
 * distinct seeds of a kernel, those booted on both, and a seed's median
 * over its boots; values by hand.
 */
#include <math.h>

#include "../../scripts/lib/cmpstats.c"
#include "../../scripts/compare/seeds.c"
#include "utap.h"

static struct record recs[6];

int main(void)
{
	long long seeds[] = { 3, 1, REC_NO_SEED, 3, 7, 1 }, sa[6], sb[6], both[6];
	int ia[] = { 0, 1, 2, 3 }, ib[] = { 4, 5 }, na, nb, n, i;
	/* A's boots: seed 3 twice (100, 110), seed 1 once (90) and a NaN. */
	double v[] = { 100, 90, 110, NAN }, out[3];
	long long vs[] = { 3, 1, 3, 1 }, want[] = { 1, 3, 5 };

	utap_plan(8);
	for (i = 0; i < 6; i++)
		recs[i].seed = seeds[i];

	na = seeds_distinct(recs, ia, 4, sa);
	utap_ok(na == 2 && sa[0] == 1 && sa[1] == 3, "A's boots of seeds 3, 1, none, 3: the distinct seeds 1 and 3");
	nb = seeds_distinct(recs, ib, 2, sb);
	utap_ok(nb == 2 && sb[0] == 1 && sb[1] == 7, "B's: 1 and 7");
	n = seeds_common(sa, na, sb, nb, both);
	utap_ok(n == 1 && both[0] == 1, "booted on both: seed 1 only");
	utap_ok(seeds_common(sa, na, sb, 0, both) == 0, "nothing in common with no seeds");

	seeds_medians(v, vs, 4, want, 3, out);
	utap_ok(out[0] == 90, "seed 1: its one value, 90 (the NaN skipped)");
	utap_ok(out[1] == 105, "seed 3: the median of 100 and 110, 105");
	utap_ok(isnan(out[2]), "seed 5, never booted: NaN");
	utap_ok(v[0] == 100 && v[2] == 110, "the values are left as they were");
	return utap_done();
}
