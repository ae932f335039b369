// SPDX-License-Identifier: GPL-2.0
/* The module's account against the measured difference: see explain.h. */
#include <math.h>
#include <string.h>

#include "../lib/cmpstats.h"
#include "explain.h"
#include "seeds.h"

#define ROUNDS 10000

/*
 * A kernel's boots with both phases: ops/s without the module, check ns/op
 * with it, and the boot's seed.
 */
static int paired(const struct record *recs, const int *idx, int n, const char *name,
		  const struct msw_workload *op, double *ops, double *chk, long long *seed)
{
	int i, k = 0;

	for (i = 0; i < n; i++) {
		const struct boot_wl *w = rec_wl(&recs[idx[i]], name);
		double c;

		if (!w || isnan(w->ops[0]))
			continue;
		c = rec_check_ns_per_op(op, &w->acct);
		if (isnan(c))
			continue;
		ops[k] = w->ops[0];
		seed[k] = recs[idx[i]].seed;
		chk[k++] = c;
	}
	return k;
}

/* The boots of one kernel, as paired() lays them out. */
struct boots {
	double ops[REC_MAX], chk[REC_MAX];
	long long seed[REC_MAX];
	int n;
};

/*
 * The ratio over seed pairs: each kernel's boots of a seed reduced to
 * their medians, seeds where either kernel lacks a figure dropped, and the
 * pairs resampled together (cmp_bootstrap_ratio_paired).
 */
static void by_seed(const struct boots *a, const struct boots *b, const long long *seeds, int ns,
		    struct explained *out)
{
	static double oa[REC_MAX], ca[REC_MAX], ob[REC_MAX], cb[REC_MAX];
	static double scratch[4 * REC_MAX + ROUNDS];
	int i, k = 0;

	seeds_medians(a->ops, a->seed, (size_t)a->n, seeds, ns, oa);
	seeds_medians(a->chk, a->seed, (size_t)a->n, seeds, ns, ca);
	seeds_medians(b->ops, b->seed, (size_t)b->n, seeds, ns, ob);
	seeds_medians(b->chk, b->seed, (size_t)b->n, seeds, ns, cb);
	for (i = 0; i < ns; i++) {
		if (isnan(oa[i]) || isnan(ca[i]) || isnan(ob[i]) || isnan(cb[i]))
			continue;
		oa[k] = oa[i];
		ca[k] = ca[i];
		ob[k] = ob[i];
		cb[k++] = cb[i];
	}
	out->by_seed.n = k;
	out->by_seed.ratio = out->by_seed.lo = out->by_seed.hi = NAN;
	if (!k)
		return;
	out->by_seed.ratio = cmp_explained_ratio(oa, ca, (size_t)k, ob, cb, (size_t)k, scratch);
	if (k > 1)
		cmp_bootstrap_ratio_paired(oa, ca, ob, cb, (size_t)k, ROUNDS, 0.95, 0x5eed, scratch,
					   &out->by_seed.lo, &out->by_seed.hi);
}

void explain(const struct record *recs, const int *ia, int na, const int *ib, int nb,
	     const long long *seeds, int ns, const char *name, struct explained *out)
{
	static struct boots ba, bb;
	static double scratch[4 * REC_MAX + ROUNDS];

	memset(out, 0, sizeof(*out));
	out->measured_ns = out->check_a = out->check_b = NAN;
	out->ratio = out->lo = out->hi = NAN;
	out->too_wide = 1;
	out->op = msw_counted(name);
	if (!out->op)
		return;
	ba.n = out->na = paired(recs, ia, na, name, out->op, ba.ops, ba.chk, ba.seed);
	bb.n = out->nb = paired(recs, ib, nb, name, out->op, bb.ops, bb.chk, bb.seed);
	if (!out->na || !out->nb)
		return;
	out->ratio = cmp_explained_ratio(ba.ops, ba.chk, (size_t)out->na, bb.ops, bb.chk, (size_t)out->nb, scratch);
	/* cmp_explained_ratio left the sorted copies in scratch: their medians. */
	out->measured_ns = 1e9 / cmp_median(scratch, (size_t)out->na) -
			   1e9 / cmp_median(scratch + 2 * out->na, (size_t)out->nb);
	out->check_a = cmp_median(scratch + out->na, (size_t)out->na);
	out->check_b = cmp_median(scratch + 2 * out->na + out->nb, (size_t)out->nb);
	if (out->ratio == 0)
		out->ratio = 0;	/* not -0 */
	if (out->na > 1 && out->nb > 1)
		cmp_bootstrap_ratio(ba.ops, ba.chk, (size_t)out->na, bb.ops, bb.chk, (size_t)out->nb, ROUNDS, 0.95,
				    0x5eed, scratch, &out->lo, &out->hi);
	/* An interval wider than 1 cannot tell "none of it" from "all of it". */
	out->too_wide = !isfinite(out->lo) || !isfinite(out->hi) || out->hi - out->lo > 1.0;
	if (ns)
		by_seed(&ba, &bb, seeds, ns, out);
}
