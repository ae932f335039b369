// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the headline's pairing (scripts/compare/headline.c): which
 * runs pair by layout, which fall back to unpaired, and how a run with the
 * module is attached to its run without.  Records are made in memory, as
 * records.c would load them.
 */
#include <math.h>

#include "../../scripts/lib/cmpstats.c"
#include "../../scripts/compare/layouts.c"
#include "../../scripts/compare/records.c"
#include "../../scripts/compare/seeds.c"
#include "../../scripts/lib/workloads.c"
#include "../../scripts/compare/explain.c"
#include "../../scripts/compare/headline.c"
#include "utap.h"

static struct record recs[4];

/* Boot i: SEED, NRUNS runs of mmap1, run r in layout LAYOUT0 + r (0: ASLR's), ops OPS[r]. */
static void boot(int i, long long seed, int nruns, long long layout0, const double *ops, double chk)
{
	struct boot_wl *w = &recs[i].wl[0];
	int r;

	memset(&recs[i], 0, sizeof(recs[i]));
	recs[i].seed = seed;
	recs[i].nwl = 1;
	snprintf(w->name, sizeof(w->name), "mmap1");
	w->nrun[0] = w->nrun[1] = nruns;
	for (r = 0; r < nruns; r++) {
		long long l = layout0 ? layout0 + r : 0;

		w->run[0][r] = (struct run_val){ .ops = ops[r], .chk = NAN, .layout = l, .rnd = l * 7 };
		w->run[1][r] = (struct run_val){ .ops = ops[r] * 0.9, .chk = chk, .layout = l, .rnd = l * 7 };
	}
}

int main(void)
{
	static const double a[] = { 100, 110, 120, 130 }, b[] = { 104, 114, 124, 134 };
	static const int ia[] = { 0, 1 }, ib[] = { 2, 3 };
	struct headline h;

	utap_plan(9);
	/* Seeds 1 and 2 on both kernels, layouts 1-2 and 3-4: four pairs. */
	boot(0, 1, 2, 1, a, 300);
	boot(1, 2, 2, 3, a + 2, 300);
	boot(2, 1, 2, 1, b, 0);
	boot(3, 2, 2, 3, b + 2, 0);
	headline(recs, ia, 2, ib, 2, "mmap1", &h);
	utap_ok(h.paired && h.runs[0] == 4 && h.boots[0] == 2, "seeded layouts, one boot each: 4 pairs over 2 boots");
	utap_ok(fabs(h.delta.q - 476.0 / 460.0) < 1e-12, "paired: the ratio of means, 476/460");
	utap_ok(fabs(h.pair_sd - cmp_sd((double[]){ 4.0, 400.0 / 110, 400.0 / 120, 400.0 / 130 }, 4)) < 1e-9,
		"paired: the per-layout deltas' sd");
	utap_ok(h.acct.n == 4 && fabs(h.check[0] - 300) < 1e-12 && h.check[1] == 0,
		"the account attaches each with-module run to its layout: checks 300 and 0");
	/* The same layouts on every boot (record --layout-from 1 after each): not paired. */
	boot(1, 2, 2, 1, a + 2, 300);
	boot(3, 2, 2, 1, b + 2, 0);
	headline(recs, ia, 2, ib, 2, "mmap1", &h);
	utap_ok(!h.paired && h.runs[0] == 4 && h.runs[1] == 4 && h.boots[0] == 2,
		"a layout in two boots: unpaired, every run kept, 2 boots");
	/* Layout N with another rnd on B (another mmap_rnd_bits): no pair. */
	boot(1, 2, 2, 3, a + 2, 300);
	boot(3, 2, 2, 3, b + 2, 0);
	recs[2].wl[0].run[0][0].rnd = recs[2].wl[0].run[0][1].rnd = 12345;
	headline(recs, ia, 2, ib, 2, "mmap1", &h);
	utap_ok(h.paired && h.runs[0] == 2, "layouts 1 and 2 placed elsewhere on B: only layouts 3 and 4 pair");
	/* Only one shared layout: unpaired, every run kept. */
	recs[3].wl[0].run[0][0].rnd = 1;
	headline(recs, ia, 2, ib, 2, "mmap1", &h);
	utap_ok(!h.paired && h.runs[0] == 4 && h.runs[1] == 4, "fewer than 2 shared layouts: unpaired, 4 and 4 runs");
	/* ASLR's layouts: unpaired; clusters by seed. */
	boot(0, 1, 2, 0, a, 300);
	boot(1, 2, 2, 0, a + 2, 300);
	boot(2, 1, 2, 0, b, 0);
	boot(3, 2, 2, 0, b + 2, 0);
	headline(recs, ia, 2, ib, 2, "mmap1", &h);
	utap_ok(!h.paired && h.boots[0] == 2 && h.boots[1] == 2 && isnan(h.pair_sd), "ASLR's layouts: unpaired, 2 boots a side");
	/* One run a side: a ratio, no interval. */
	boot(0, 1, 1, 0, a, 300);
	boot(2, 1, 1, 0, b, 0);
	headline(recs, ia, 1, ib, 1, "mmap1", &h);
	utap_ok(fabs(h.delta.q - 1.04) < 1e-12 && isnan(h.delta.lo) && isnan(h.delta.hi), "one run a side: 1.04, no interval");
	return utap_done();
}
