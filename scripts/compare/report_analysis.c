// SPDX-License-Identifier: GPL-2.0
/*
 * The figures of a comparison, per workload: the headline over layouts,
 * the medians over boots and by seed, the stop rule, the cost of watching,
 * the account against the gap; and each kernel's module reports summed.
 */
#include <math.h>
#include <string.h>

#include "report_state.h"
#include "seeds.h"

/* The values of workload WL in one phase over the boots idx[], and each one's seed. */
static size_t values(const struct report *rp, const int *idx, int n, const char *wl, int phase, double *v, long long *seed)
{
	size_t k = 0;
	int i;

	for (i = 0; i < n; i++) {
		const struct boot_wl *w = rec_wl(&rp->recs[idx[i]], wl);

		if (w && !isnan(w->ops[phase])) {
			seed[k] = rp->recs[idx[i]].seed;
			v[k++] = w->ops[phase];
		}
	}
	return k;
}

/*
 * The headline over seed pairs: each kernel's boots of a seed reduced to
 * their median, seeds without a figure on both kernels dropped.
 */
static void by_seed(const struct report *rp, const double *a, const long long *sa, size_t ka,
		    const double *b, const long long *sb, size_t kb, struct wl_result *r)
{
	static double pa[REC_MAX], pb[REC_MAX], d[REC_MAX];
	size_t k = 0;
	int i;

	seeds_medians(a, sa, ka, rp->seeds, rp->nseeds, pa);
	seeds_medians(b, sb, kb, rp->seeds, rp->nseeds, pb);
	for (i = 0; i < rp->nseeds; i++)
		if (!isnan(pa[i]) && !isnan(pb[i])) {
			pa[k] = pa[i];
			pb[k++] = pb[i];
		}
	cmp_compare_paired(pa, pb, k, &r->wo_seed);
	/* The stop rule over pairs: the spread of the per-seed deltas (cmpstats.h). */
	for (i = 0; i < (int)k; i++)
		d[i] = 100.0 * (pb[i] / pa[i] - 1.0);
	r->sp.pair_sd = cmp_sd(d, k);
	r->sp.pair_need[0] = cmp_boots_needed(r->sp.pair_sd, 0, 1.0, 1.0);
	r->sp.pair_need[1] = cmp_boots_needed(r->sp.pair_sd, 0, 1.0, 2.0);
}

/* The stop rule at the spread of the boots without the module. */
static void stop_rule(const double *a, size_t ka, const double *b, size_t kb,
		      const struct cmp_ab *wo, struct spread *sp)
{
	double ratio = wo->b / wo->a;

	sp->cv[0] = cmp_cv_pct(a, ka);
	sp->cv[1] = cmp_cv_pct(b, kb);
	sp->need[0] = cmp_boots_needed(sp->cv[0], sp->cv[1], ratio, 1.0);
	sp->need[1] = cmp_boots_needed(sp->cv[0], sp->cv[1], ratio, 2.0);
	sp->now = ka < 2 || kb < 2 ? NAN :
		  cmp_halfwidth_pct(sp->cv[0], sp->cv[1], ratio, (double)(ka < kb ? ka : kb));
}

/* Median over boots of what watching costs: ns per operation and %. */
static void watch_cost(const struct report *rp, const int *idx, int n, const char *wl, double *ns, double *pct)
{
	static double d[REC_MAX], r[REC_MAX];
	size_t k = 0;
	int i;

	for (i = 0; i < n; i++) {
		const struct boot_wl *w = rec_wl(&rp->recs[idx[i]], wl);

		if (!w || isnan(w->ops[0]) || isnan(w->ops[1]))
			continue;
		/* 1e9 / ops/s: ns per operation, or instructions on the icount clock. */
		d[k] = 1e9 / w->ops[1] - 1e9 / w->ops[0];
		r[k++] = 100.0 * (w->ops[0] / w->ops[1] - 1.0);
	}
	*ns = cmp_median(d, k);
	*pct = cmp_median(r, k);
}

/* Every workload of A's and B's records, in the order they first appear. */
static void workloads(struct report *rp)
{
	const int *sets[2] = { rp->ia, rp->ib };
	int ns[2] = { rp->na, rp->nb }, s, i, j, k;
	size_t len;

	for (s = 0; s < 2; s++)
		for (i = 0; i < ns[s]; i++)
			for (j = 0; j < rp->recs[sets[s][i]].nwl; j++) {
				const char *name = rp->recs[sets[s][i]].wl[j].name;

				for (k = 0; k < rp->nres && strcmp(rp->res[k].name, name); k++)
					;
				if (k < rp->nres || rp->nres == REC_MAX_WL)
					continue;
				/* Both names are 48 bytes: the copy is whole. */
				len = strnlen(name, sizeof(rp->res[0].name) - 1);
				memcpy(rp->res[rp->nres].name, name, len);
				rp->res[rp->nres++].name[len] = '\0';
			}
}

/* A kernel's module reports of every workload and boot, summed. */
static void account_sum(const struct report *rp, const int *idx, int n, struct acct *sum)
{
	int i, j, s;

	memset(sum, 0, sizeof(*sum));
	for (i = 0; i < n; i++)
		for (j = 0; j < rp->recs[idx[i]].nwl; j++) {
			const struct acct *a = &rp->recs[idx[i]].wl[j].acct;

			for (s = 0; s < REC_NSYS; s++) {
				sum->calls[s] += a->calls[s];
				sum->ns[s] += a->ns[s];
				sum->checks[s] += a->checks[s];
				sum->check_ns[s] += a->check_ns[s];
				sum->check_net_ns[s] += a->check_net_ns[s];
			}
			sum->reports += a->reports;
		}
}

void rep_analyse(struct report *rp)
{
	const int *ia = rp->ia, *ib = rp->ib;
	int na = rp->na, nb = rp->nb;
	static double a[REC_MAX], b[REC_MAX];
	static long long sa[REC_MAX], sb[REC_MAX];
	int i;

	workloads(rp);
	for (i = 0; i < rp->nres; i++) {
		struct wl_result *r = &rp->res[i];
		size_t ka, kb;

		ka = values(rp, ia, na, r->name, 0, a, sa);
		kb = values(rp, ib, nb, r->name, 0, b, sb);
		cmp_compare(a, ka, b, kb, &r->wo);
		stop_rule(a, ka, b, kb, &r->wo, &r->sp);
		by_seed(rp, a, sa, ka, b, sb, kb, r);
		ka = values(rp, ia, na, r->name, 1, a, sa);
		kb = values(rp, ib, nb, r->name, 1, b, sb);
		cmp_compare(a, ka, b, kb, &r->w);
		watch_cost(rp, ia, na, r->name, &r->watch_ns[0], &r->watch_pct[0]);
		watch_cost(rp, ib, nb, r->name, &r->watch_ns[1], &r->watch_pct[1]);
		explain(rp->recs, ia, na, ib, nb, rp->seeds, rp->nseeds, r->name, &r->ex);
		headline(rp->recs, ia, na, ib, nb, r->name, &r->hl);
		if (rp->mna && rp->mnb)
			headline(rp->mrecs, rp->mia, rp->mna, rp->mib, rp->mnb, r->name, &r->hl_matched);
	}
	account_sum(rp, rp->ia, rp->na, &rp->acc[0]);
	account_sum(rp, rp->ib, rp->nb, &rp->acc[1]);
}
