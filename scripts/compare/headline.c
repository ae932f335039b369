// SPDX-License-Identifier: GPL-2.0
/* The headline over layouts: see headline.h. */
#include <math.h>
#include <string.h>

#include "../lib/cmpstats.h"
#include "../lib/workloads.h"
#include "headline.h"

/* One kernel's runs of a workload: without the module (ops) and with it (chk). */
struct runs {
	double ops[REC_MAX * 4], chk[REC_MAX * 4];
	long long layout[REC_MAX * 4], rnd[REC_MAX * 4], boot[REC_MAX * 4];
	size_t n;
};

/*
 * A boot's cluster: its seed where it has one (A's and B's boot of a seed
 * together), else itself (negative: seeds are not).
 */
static long long boot_key(const struct record *recs, int idx)
{
	return recs[idx].seed != REC_NO_SEED ? recs[idx].seed : -1 - (long long)idx;
}

/*
 * The runs of one kernel: run r without the module, with run r with it
 * (NaN where the boot has none), in boot order.
 */
static void gather(const struct record *recs, const int *idx, int n, const char *wl, struct runs *s)
{
	int i, r;

	s->n = 0;
	for (i = 0; i < n; i++) {
		const struct boot_wl *w = rec_wl(&recs[idx[i]], wl);

		for (r = 0; w && r < w->nrun[0] && s->n < sizeof(s->ops) / sizeof(s->ops[0]); r++) {
			s->ops[s->n] = w->run[0][r].ops;
			s->layout[s->n] = w->run[0][r].layout;
			s->rnd[s->n] = w->run[0][r].rnd;
			s->chk[s->n] = r < w->nrun[1] && w->run[1][r].layout == w->run[0][r].layout ?
				       w->run[1][r].chk : NAN;
			s->boot[s->n++] = boot_key(recs, idx[i]);
		}
	}
}

/*
 * The kernels can pair by layout: every run in a seeded layout, and each
 * layout in one boot only (a layout run again in another boot would merge
 * two boots' runs into one cluster, and the boots' spread would go unseen).
 */
static int pairable(const struct runs *s)
{
	size_t i, j;

	for (i = 0; i < s->n; i++) {
		if (!s->layout[i])
			return 0;
		for (j = 0; j < i; j++)
			if (s->layout[j] == s->layout[i] && s->boot[j] != s->boot[i])
				return 0;
	}
	return s->n > 0;
}

/*
 * Reduce a kernel's runs to one value per layout (their mean: a layout run
 * twice is one layout), in place; returns the layouts.
 */
static size_t per_layout(struct runs *s)
{
	size_t i, j, k = 0;

	for (i = 0; i < s->n; i++) {
		double ops = 0, chk = 0;
		int n = 0, nc = 0;

		for (j = 0; j < k && s->layout[j] != s->layout[i]; j++)
			;
		if (j < k)
			continue;
		for (j = i; j < s->n; j++) {
			if (s->layout[j] != s->layout[i])
				continue;
			ops += s->ops[j];
			n++;
			if (!isnan(s->chk[j])) {
				chk += s->chk[j];
				nc++;
			}
		}
		s->layout[k] = s->layout[i];
		s->rnd[k] = s->rnd[i];
		s->boot[k] = s->boot[i];
		s->ops[k] = ops / n;
		s->chk[k++] = nc ? chk / nc : NAN;
	}
	return s->n = k;
}

/*
 * Pair A's and B's layouts: both keep only the layouts they share, in A's
 * order; layout N is the same place on both only with the same rnd (the
 * same mmap_rnd_bits).
 */
static size_t match(struct runs *a, struct runs *b)
{
	static struct runs t;
	size_t i, j, k = 0;

	t = *b;
	for (i = 0; i < a->n; i++) {
		for (j = 0; j < t.n && (t.layout[j] != a->layout[i] || t.rnd[j] != a->rnd[i]); j++)
			;
		if (j == t.n)
			continue;
		a->ops[k] = a->ops[i];
		a->chk[k] = a->chk[i];
		a->layout[k] = a->layout[i];
		a->rnd[k] = a->rnd[i];
		a->boot[k] = a->boot[i];
		b->ops[k] = t.ops[j];
		b->chk[k] = t.chk[j];
		b->layout[k] = t.layout[j];
		b->boot[k++] = t.boot[j];
	}
	return a->n = b->n = k;
}

/* The account over the runs (pairs) that have a check time: x = checks, y = ns per op. */
static void account(const struct runs *a, const struct runs *b, int paired, struct headline *h)
{
	static double xa[REC_MAX * 4], ya[REC_MAX * 4], xb[REC_MAX * 4], yb[REC_MAX * 4], one[REC_MAX * 4];
	static long long ka[REC_MAX * 4], kb[REC_MAX * 4];
	size_t i, na = 0, nb = 0;

	for (i = 0; i < a->n; i++) {
		if (isnan(a->chk[i]) || (paired && isnan(b->chk[i])))
			continue;
		xa[na] = a->chk[i];
		ya[na] = 1e9 / a->ops[i];
		ka[na++] = a->boot[i];
		if (paired) {
			xb[nb] = -b->chk[i];
			yb[nb] = -1e9 / b->ops[i];
			kb[nb++] = b->boot[i];
		}
	}
	for (i = 0; !paired && i < b->n; i++) {
		if (isnan(b->chk[i]))
			continue;
		xb[nb] = -b->chk[i];
		yb[nb] = -1e9 / b->ops[i];
		kb[nb++] = b->boot[i];
	}
	h->check[0] = lay_mean(xa, na);
	h->check[1] = -lay_mean(xb, nb) + 0.0;	/* not -0 */
	for (i = 0; i < na; i++)
		one[i] = 1;
	/* The gap alone: its mean over ones, the same machinery. */
	lay_ratio(&(struct lay_side){ ya, one, ka, na }, &(struct lay_side){ yb, NULL, kb, nb }, paired, &h->gap);
	h->gap_ns = h->gap.q;
	lay_ratio(&(struct lay_side){ xa, ya, ka, na }, &(struct lay_side){ xb, yb, kb, nb }, paired, &h->acct);
	/*
	 * A ratio whose denominator may be 0 has no interval (Fieller): where
	 * the gap's own interval covers 0, say none.
	 */
	if (!(h->gap.lo > 0 || h->gap.hi < 0))
		h->acct.lo = h->acct.hi = NAN;
}

void headline(const struct record *recs, const int *ia, int na, const int *ib, int nb,
	      const char *wl, struct headline *h)
{
	static struct runs a, b;
	static double d[REC_MAX * 4];
	size_t i;

	memset(h, 0, sizeof(*h));
	h->a = h->b = h->pair_sd = h->gap_ns = NAN;
	h->cv[0] = h->cv[1] = h->check[0] = h->check[1] = NAN;
	gather(recs, ia, na, wl, &a);
	gather(recs, ib, nb, wl, &b);
	h->paired = pairable(&a) && pairable(&b);
	if (h->paired) {
		per_layout(&a);
		per_layout(&b);
		/* Too few shared layouts to pair: the runs as they are, unpaired. */
		if (match(&a, &b) < 2) {
			gather(recs, ia, na, wl, &a);
			gather(recs, ib, nb, wl, &b);
			h->paired = 0;
		}
	}
	h->runs[0] = a.n;
	h->runs[1] = b.n;
	h->boots[0] = lay_boots(a.boot, a.n);
	h->boots[1] = lay_boots(b.boot, b.n);
	h->a = lay_mean(a.ops, a.n);
	h->b = lay_mean(b.ops, b.n);
	h->cv[0] = cmp_cv_pct(a.ops, a.n);
	h->cv[1] = cmp_cv_pct(b.ops, b.n);
	if (h->paired) {
		for (i = 0; i < a.n; i++)
			d[i] = 100.0 * (b.ops[i] / a.ops[i] - 1.0);
		h->pair_sd = cmp_sd(d, a.n);
	}
	lay_ratio(&(struct lay_side){ NULL, a.ops, a.boot, a.n },
		  &(struct lay_side){ b.ops, NULL, b.boot, b.n }, h->paired, &h->delta);
	if (msw_counted(wl))
		account(&a, &b, h->paired, h);
}
