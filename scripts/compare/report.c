// SPDX-License-Identifier: GPL-2.0
/*
 * mseal-compare-report: two kernels compared from a folder of boot records
 * (scripts/compare/record), and nothing else: it reads only the folder.
 *
 *   mseal-compare-report DIR [--baseline RELEASE] [--b RELEASE]
 *   mseal-compare-report DIR [--a RELEASE --b RELEASE]
 *
 * The records are grouped by kernel release.  A is the pre-series kernel
 * (choose.h): --baseline or --a names it, else the one release named
 * preseries, else the first boot's, and then the report says so.  Boots
 * are the samples (one boot is not a measurement): each boot gives one
 * value per workload, the median of its runs.  Every figure is in the
 * records' clock's unit (clock.h: wall ns, or guest instructions on the
 * instruction clock); records of two clocks are refused.  Per workload:
 *   - without the module (the headline): median ops/s of A and B over
 *     boots, the delta of B against A, its 95 % bootstrap interval and the
 *     Mann-Whitney p; and where the same seeds were booted on both
 *     kernels, the same over seed pairs (seeds.h);
 *   - the stop rule: each kernel's CV over boots and the boots each would
 *     need for +-1 and +-2 points (cmpstats.h, cmp_boots_needed);
 *   - the same with the module loaded, and what watching costs per
 *     operation on each kernel (with less without, paired in each boot);
 *   - the module's account per kernel and syscall;
 *   - the account against the gap (explain.h): (net checks A - net checks
 *     B) / (measured A - B) per operation and its 95 % interval, over boots
 *     and over seed pairs; over layouts from DIR/matched/ where it holds
 *     records (below).
 * DIR/matched/, where `mseal-compare vm --clock icount` puts it, holds
 * boots of the same kernels in seeded layouts, the same on both (mseal-bench
 * --layout N): the account against the gap over layouts is also taken over
 * them.  Over ASLR's unmatched layouts the gap of mmap1 is a difference of
 * two means that spread by 10 % a layout, and the account's interval
 * (0.14 to 4.00 once) says nothing; matched, what a layout does to both
 * kernels cancels (docs/comparison.md, "The account over matched
 * layouts").
 * Warnings (warn.h) come first.  It writes DIR/summary.txt (also printed),
 * DIR/summary.json and the plots' data in DIR/plot-data/ (for
 * scripts/compare/plots.gp).  Exit status 2 when there are not two kernels
 * to compare (or a usage error), 1 when the records mix clocks.
 */
#include <math.h>
#include <stdarg.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "choose.h"
#include "clock.h"
#include "../lib/cmpstats.h"
#include "explain.h"
#include "headline.h"
#include "records.h"
#include "seeds.h"
#include "warn.h"

/* The stop rule of one workload (cmpstats.h, cmp_boots_needed). */
struct spread {
	double cv[2];		/* A, B: the boots' CV without the module, % */
	double now;		/* the half-width it predicts at the boots recorded */
	unsigned long need[2];	/* boots of each kernel for +-1 and +-2 points; 0: unknown */
	double pair_sd;		/* over seed pairs: the per-seed deltas' sd, points; NaN: none */
	unsigned long pair_need[2];	/* seed pairs for +-1 and +-2 points; 0: unknown */
};

struct wl_result {
	char name[48];
	struct cmp_ab wo, w;		/* without and with the module */
	struct cmp_ab wo_seed;		/* without, paired by seed (na = nb = pairs; 0: none) */
	struct spread sp;
	double watch_ns[2], watch_pct[2];	/* A, B: per-op time with less without */
	struct explained ex;
	struct headline hl;		/* over layouts: the headline */
	struct headline hl_matched;	/* over DIR/matched's layouts: the account */
};

static struct record recs[REC_MAX];
static struct record mrecs[REC_MAX];	/* DIR/matched/'s */
static int mia[REC_MAX], mib[REC_MAX], mna, mnb;	/* its boots of A and B; none: 0 */
static struct wl_result res[REC_MAX_WL];
static int nres;
static int nrecs_all;		/* records loaded */
static FILE *txt;
static const struct clock_unit *clk;
static long long seeds_a[REC_MAX], seeds_b[REC_MAX], seeds[REC_MAX];
static int nseeds_a, nseeds_b, nseeds;	/* distinct seeds of A, of B, of both */

/* summary.txt and stdout alike. */
static void say(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	va_start(ap, fmt);
	vfprintf(txt, fmt, ap);
	va_end(ap);
}

static FILE *open_in(const char *dir, const char *name)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f) {
		/* A failure at run time (DIR not writable: another user's
		 * plot-data/), not a usage error: exit 1 as README says. */
		fprintf(stderr, "mseal-compare report: cannot write %s: %s\n", path, strerror(errno));
		exit(1);
	}
	return f;
}

/* The values of workload WL in one phase over the boots idx[], and each one's seed. */
static size_t values(const int *idx, int n, const char *wl, int phase, double *v, long long *seed)
{
	size_t k = 0;
	int i;

	for (i = 0; i < n; i++) {
		const struct boot_wl *w = record_wl(&recs[idx[i]], wl);

		if (w && !isnan(w->ops[phase])) {
			seed[k] = recs[idx[i]].seed;
			v[k++] = w->ops[phase];
		}
	}
	return k;
}

/*
 * The headline over seed pairs: each kernel's boots of a seed reduced to
 * their median, seeds without a figure on both kernels dropped.
 */
static void by_seed(const double *a, const long long *sa, size_t ka,
		    const double *b, const long long *sb, size_t kb, struct wl_result *r)
{
	static double pa[REC_MAX], pb[REC_MAX], d[REC_MAX];
	size_t k = 0;
	int i;

	seeds_medians(a, sa, ka, seeds, nseeds, pa);
	seeds_medians(b, sb, kb, seeds, nseeds, pb);
	for (i = 0; i < nseeds; i++)
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
static void watch_cost(const int *idx, int n, const char *wl, double *ns, double *pct)
{
	static double d[REC_MAX], r[REC_MAX];
	size_t k = 0;
	int i;

	for (i = 0; i < n; i++) {
		const struct boot_wl *w = record_wl(&recs[idx[i]], wl);

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
static void workloads(const int *ia, int na, const int *ib, int nb)
{
	const int *sets[2] = { ia, ib };
	int ns[2] = { na, nb }, s, i, j, k;

	for (s = 0; s < 2; s++)
		for (i = 0; i < ns[s]; i++)
			for (j = 0; j < recs[sets[s][i]].nwl; j++) {
				const char *name = recs[sets[s][i]].wl[j].name;

				for (k = 0; k < nres && strcmp(res[k].name, name); k++)
					;
				if (k == nres && nres < REC_MAX_WL)
					snprintf(res[nres++].name, sizeof(res[0].name), "%s", name);
			}
}

static void analyse(const int *ia, int na, const int *ib, int nb)
{
	static double a[REC_MAX], b[REC_MAX];
	static long long sa[REC_MAX], sb[REC_MAX];
	int i;

	for (i = 0; i < nres; i++) {
		struct wl_result *r = &res[i];
		size_t ka, kb;

		ka = values(ia, na, r->name, 0, a, sa);
		kb = values(ib, nb, r->name, 0, b, sb);
		cmp_compare(a, ka, b, kb, &r->wo);
		stop_rule(a, ka, b, kb, &r->wo, &r->sp);
		by_seed(a, sa, ka, b, sb, kb, r);
		ka = values(ia, na, r->name, 1, a, sa);
		kb = values(ib, nb, r->name, 1, b, sb);
		cmp_compare(a, ka, b, kb, &r->w);
		watch_cost(ia, na, r->name, &r->watch_ns[0], &r->watch_pct[0]);
		watch_cost(ib, nb, r->name, &r->watch_ns[1], &r->watch_pct[1]);
		explain(recs, ia, na, ib, nb, seeds, nseeds, r->name, &r->ex);
		headline(recs, ia, na, ib, nb, r->name, &r->hl);
		if (mna && mnb)
			headline(mrecs, mia, mna, mib, mnb, r->name, &r->hl_matched);
	}
}

/* A number for the text tables: "-" for NaN. */
static const char *num(char *buf, size_t size, const char *fmt, double v)
{
	if (isnan(v))
		snprintf(buf, size, "-");
	else
		snprintf(buf, size, fmt, v);
	return buf;
}
#define NUM(fmt, v) num((char[32]){ 0 }, 32, fmt, v)

static void ab_row(const char *name, const struct cmp_ab *s, const char *extra)
{
	char ci[64];

	if (isnan(s->lo))
		snprintf(ci, sizeof(ci), "-");
	else
		snprintf(ci, sizeof(ci), "[%+.2f%%, %+.2f%%]", s->lo, s->hi);
	say("  %-16s %2zu/%-2zu %11s %11s %9s %20s %8s%s\n", name, s->na, s->nb,
	    NUM("%.0f", s->a), NUM("%.0f", s->b), NUM("%+.2f%%", s->delta_pct), ci,
	    NUM("%.4f", s->p), extra);
}

/* "[lo, hi]" of a ratio, or "-" without an interval. */
static const char *ratio_ci(char *buf, size_t size, double lo, double hi)
{
	if (isnan(lo))
		snprintf(buf, size, "-");
	else
		snprintf(buf, size, "[%.2f, %.2f]", lo, hi);
	return buf;
}
#define RATIO_CI(lo, hi) ratio_ci((char[48]){ 0 }, 48, lo, hi)

/* "[lo%, hi%]" of a ratio's interval as a delta, or "-". */
static const char *delta_ci(char *buf, size_t size, const struct lay_ci *c)
{
	if (isnan(c->lo))
		snprintf(buf, size, "-");
	else
		snprintf(buf, size, "[%+.2f%%, %+.2f%%]", 100 * (c->lo - 1), 100 * (c->hi - 1));
	return buf;
}

/* One table of the account against the gap over layouts: H(r) of each workload. */
static void account_table(const struct headline *(*h_of)(const struct wl_result *))
{
	int i;

	say("  %-16s %7s %7s %20s %12s %10s %10s\n", "workload", "layouts", "ratio", "95% CI (t)",
	    "measured A-B", "checks A", "checks B");
	for (i = 0; i < nres; i++) {
		const struct headline *h = h_of(&res[i]);

		if (!h->acct.n)
			continue;
		say("  %-16s %7zu %7s %20s %12s %10s %10s\n", res[i].name, h->acct.n, NUM("%.2f", h->acct.q),
		    RATIO_CI(h->acct.lo, h->acct.hi), NUM("%.0f", h->gap_ns), NUM("%.1f", h->check[0]),
		    NUM("%.1f", h->check[1]));
	}
}

static const struct headline *hl_main(const struct wl_result *r) { return &r->hl; }
static const struct headline *hl_matched(const struct wl_result *r) { return &r->hl_matched; }

/*
 * The account against the gap over the headline's layouts, then over
 * DIR/matched's where there are any.  Both, not one: they are two
 * populations.  The headline's are the layouts users have, but unmatched,
 * so a workload whose layouts spread widely (mmap1, 10 %) gets an interval
 * that says nothing; the matched ones cancel what a layout does to both
 * kernels, but hold the brk heap next to the program, which moves what the
 * kernels do besides the checks (pagemove: docs/comparison.md).
 */
static void text_layout_account(void)
{
	int i, any = 0, anym = 0;

	for (i = 0; i < nres; i++) {
		any |= res[i].hl.acct.n > 0;
		anym |= mna && mnb && res[i].hl_matched.acct.n > 0;
	}
	if (any) {
		say("\nThe account against the gap over the same layouts: ratio = (checks A - checks B) /\n"
		    "(measured A - B) per operation, means over layouts; %s\n", clk->unit);
		account_table(hl_main);
	}
	if (anym) {
		say("\nThe same over matched layouts (matched/: %d and %d boots of the same kernels in\n"
		    "seeded layouts, mseal-bench --layout N, the same on both, so that what a layout does\n"
		    "to both cancels; the brk heap and the stack not randomised), means over layouts\n",
		    mna, mnb);
		account_table(hl_matched);
	}
}

/*
 * The headline (headline.h): mean ops/s over every run without the module,
 * each run a fresh process in its own layout; the interval over layouts
 * and boots.
 */
static void text_layouts(void)
{
	int i, paired = 0, fixed = 0, fixed_layout = 0;

	for (i = 0; i < nres; i++) {
		paired |= res[i].hl.paired;
		fixed |= res[i].hl.delta.boot_fixed;
	}
	for (i = 0; i < nrecs_all; i++)
		fixed_layout |= recs[i].aslr == 0;
	say("\nThe headline, without the module: mean ops/s over address-space layouts (every run a\n"
	    "fresh process, so a layout of its own), B against A; 95 %% interval over layouts and boots\n");
	say("  %-16s %7s %5s %11s %11s %9s %20s %14s %8s\n", "workload", "layouts", "boots", "A ops/s",
	    "B ops/s", "delta", "95% CI (t)", "CV A/B layout", "sd delta");
	for (i = 0; i < nres; i++) {
		const struct headline *h = &res[i].hl;
		char n[24], cv[32];

		if (!h->runs[0] || !h->runs[1])
			continue;
		if (h->paired)
			snprintf(n, sizeof(n), "%zu", h->runs[0]);
		else
			snprintf(n, sizeof(n), "%zu/%zu", h->runs[0], h->runs[1]);
		snprintf(cv, sizeof(cv), "%s/%s", NUM("%.1f%%", h->cv[0]), NUM("%.1f%%", h->cv[1]));
		say("  %-16s %7s %2d/%-2d %11s %11s %9s %20s %14s %8s\n", res[i].name, n, h->boots[0],
		    h->boots[1], NUM("%.0f", h->a), NUM("%.0f", h->b),
		    NUM("%+.2f%%", 100 * (h->delta.q - 1)), delta_ci((char[64]){ 0 }, 64, &h->delta), cv,
		    NUM("%.2f", h->pair_sd));
	}
	if (paired)
		say("  (layouts matched A to B: the same seeded layouts, mseal-bench --layout N, on both\n"
		    "   kernels; the delta's interval from the per-layout pairs, clustered by boot)\n");
	else if (!fixed_layout)
		say("  (layouts not matched: each run its own layout (ASLR), the kernels' runs two\n"
		    "   independent samples, each clustered by boot)\n");
	say("  (ratio of mean ops/s; Student's t on the larger of the runs' and the boots' variance,\n"
	    "   at boots - 1 degrees of freedom: few boots widen it)\n");
	if (fixed_layout && !paired)
		say("  note: ASLR was off in some boots (norandmaps or randomize_va_space 0): their runs\n"
		    "  all had one layout, the kernel's fixed one, so the interval holds that layout fixed\n");
	if (fixed)
		say("  note: a kernel has one boot here: its interval covers the layouts only and holds\n"
		    "  that boot fixed (its kernel layout, code placement); record more boots\n");
	text_layout_account();
}

static void text_headline(void)
{
	int i;

	say("\nOver boots: median ops/s over boots (each boot's median of its runs), B against A;\n"
	    "the interval covers boots, not the layouts within them (see the headline above)\n");
	say("  %-16s %5s %11s %11s %9s %20s %8s\n", "workload", "boots", "A ops/s", "B ops/s",
	    "delta", "95% CI (bootstrap)", "p (M-W)");
	for (i = 0; i < nres; i++)
		ab_row(res[i].name, &res[i].wo, "");
}

/* Where seeds pair up: the headline again, its interval from resampling seed pairs. */
static void text_by_seed(void)
{
	int i;

	if (!nseeds)
		return;
	say("\nPaired by seed (%d seed%s booted on both kernels): the same medians and delta over seeds,\n"
	    "the interval from resampling seed pairs, a seed's A and B together\n", nseeds, nseeds == 1 ? "" : "s");
	say("  %-16s %5s %11s %11s %9s %20s\n", "workload", "seeds", "A ops/s", "B ops/s",
	    "delta", "95% CI (pairs)");
	for (i = 0; i < nres; i++) {
		const struct cmp_ab *s = &res[i].wo_seed;
		char ci[64];

		if (!s->na)
			continue;
		if (isnan(s->lo))
			snprintf(ci, sizeof(ci), "-");
		else
			snprintf(ci, sizeof(ci), "[%+.2f%%, %+.2f%%]", s->lo, s->hi);
		say("  %-16s %5zu %11s %11s %9s %20s\n", res[i].name, s->na, NUM("%.0f", s->a),
		    NUM("%.0f", s->b), NUM("%+.2f%%", s->delta_pct), ci);
	}
}

/* One workload's stop rule, in words. */
static void stop_rule_sentence(const struct wl_result *r)
{
	const struct spread *sp = &r->sp;
	size_t have = r->wo.na < r->wo.nb ? r->wo.na : r->wo.nb;

	say("  %-16s CV A %s, B %s: ", r->name, NUM("%.2f%%", sp->cv[0]), NUM("%.2f%%", sp->cv[1]));
	if (!sp->need[0]) {
		say("one boot of a kernel has no spread; record more boots\n");
		return;
	}
	say("at this spread, %lu boots each for +-1 point, %lu for +-2", sp->need[0], sp->need[1]);
	if (have >= sp->need[0])
		say("; the %zu recorded are enough\n", have);
	else
		say(" (now %zu: +-%.1f points)\n", have, sp->now);
	if (sp->pair_need[0])
		say("  %-16s over seed pairs: the per-seed deltas spread by %.2f points: %lu pairs for +-1, "
		    "%lu for +-2 (now %zu)\n", "", sp->pair_sd, sp->pair_need[0], sp->pair_need[1], r->wo_seed.na);
}

static void text_stop_rule(void)
{
	int i;

	say("\nHow many boots (the stop rule): the boots' spread without the module, and the boots\n"
	    "each kernel needs for a 95 %% interval of +-1 and +-2 points on the delta at that spread\n");
	for (i = 0; i < nres; i++)
		stop_rule_sentence(&res[i]);
	say("  (normal approximation for the ratio of two medians: half-width = 1.96 * B/A *\n"
	    "   sqrt(pi/2 * (CV_A^2 + CV_B^2) / boots); a spread with outliers needs more: read it\n"
	    "   again as boots are added; over seed pairs, the same with the per-seed deltas' sd)\n");
}

static void text_with_module(void)
{
	char extra[96], watch_label[2][24];
	int i, any = 0;

	snprintf(watch_label[0], sizeof(watch_label[0]), "watch A %s (%%)", clk->per_op);
	snprintf(watch_label[1], sizeof(watch_label[1]), "watch B %s (%%)", clk->per_op);
	for (i = 0; i < nres; i++)
		any |= res[i].w.na || res[i].w.nb;
	if (!any) {
		say("\nWith the module: no runs with it (records made with --no-module)\n");
		return;
	}
	say("\nWith the module loaded: the same, and what watching costs per operation\n");
	say("  %-16s %5s %11s %11s %9s %20s %8s  %16s %16s\n", "workload", "boots", "A ops/s",
	    "B ops/s", "delta", "95% CI (bootstrap)", "p (M-W)", watch_label[0], watch_label[1]);
	for (i = 0; i < nres; i++) {
		char wa[40], wb[40];

		snprintf(wa, sizeof(wa), "%s (%s)", NUM("%.0f", res[i].watch_ns[0]), NUM("%+.1f%%", res[i].watch_pct[0]));
		snprintf(wb, sizeof(wb), "%s (%s)", NUM("%.0f", res[i].watch_ns[1]), NUM("%+.1f%%", res[i].watch_pct[1]));
		snprintf(extra, sizeof(extra), "  %16s %16s", wa, wb);
		ab_row(res[i].name, &res[i].w, extra);
	}
}

/* A kernel's module reports of every workload and boot, summed. */
static void account_sum(const int *idx, int n, struct acct *sum)
{
	int i, j, s;

	memset(sum, 0, sizeof(*sum));
	for (i = 0; i < n; i++)
		for (j = 0; j < recs[idx[i]].nwl; j++) {
			const struct acct *a = &recs[idx[i]].wl[j].acct;

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

static void text_account(const char *label, const char *rel, const struct acct *a)
{
	int s;

	if (!a->reports)
		return;
	say("\n%s = %s, the module's account over %d report(s):\n", label, rel, a->reports);
	say("  %-16s %10s %10s %12s %14s %14s %7s\n", "syscall", "calls", "mean_ns",
	    "checks/call", "check_ns_raw", "check_ns_net", "share");
	for (s = 0; s < REC_NSYS; s++) {
		if (!a->calls[s])
			continue;
		say("  %-16s %10.0f %10.0f %12.2f %14.0f %14.0f %6.1f%%\n", rec_syscalls[s],
		    a->calls[s], a->ns[s] / a->calls[s], a->checks[s] / a->calls[s],
		    a->checks[s] ? a->check_ns[s] / a->checks[s] : 0.0,
		    a->checks[s] ? a->check_net_ns[s] / a->checks[s] : 0.0,
		    a->ns[s] ? 100.0 * a->check_ns[s] / a->ns[s] : 0.0);
	}
}

/*
 * Where the ratio says nothing, or says no, one plain sentence per reason,
 * naming the workloads: one boot, a resample with no difference at all, an
 * interval wider than 0 to 1, or an interval wholly below 0 (the kernels
 * differ the other way from their checks).
 */
static void too_wide_sentences(void)
{
	static const char *const why[4] = {
		"one boot of a kernel gives no interval: the ratio cannot say how much of the "
		"difference the checks explain; record more boots",
		"some resamples of the boots differ by nothing at all, so the ratio has no interval "
		"and cannot say how much of the difference the checks explain; more boots will",
		"the ratio's 95 % interval is wider than 0 to 1: too wide to say how much of the "
		"difference the checks explain; more boots narrow it, about as 1/sqrt(boots)",
		"the ratio's 95 % interval is below 0: the kernel that spends more time in checks "
		"is the faster one here, so something other than the checks decides the difference",
	};
	int k, i, n;

	for (k = 0; k < 4; k++) {
		for (i = 0, n = 0; i < nres; i++) {
			const struct explained *e = &res[i].ex;
			int reason;

			if (!e->na || !e->nb)
				continue;
			if (e->too_wide)
				reason = e->na < 2 || e->nb < 2 ? 0 : isnan(e->lo) ? 1 : 2;
			else if (e->hi < 0)
				reason = 3;
			else
				continue;
			if (reason == k)
				say("%s%s", n++ ? ", " : "  ", res[i].name);
		}
		if (n)
			say(": %s.\n", why[k]);
	}
}


static void explained_row(const struct explained *e, const char *name)
{
	say("  %-16s %2d/%-2d %7s %18s %12.0f %10.1f %10.1f %10.1f", name, e->na, e->nb,
	    NUM("%.2f", e->ratio), RATIO_CI(e->lo, e->hi), e->measured_ns, e->check_a, e->check_b,
	    e->check_a - e->check_b);
	if (nseeds && e->by_seed.n)
		say(" %5d %7s %18s", e->by_seed.n, NUM("%.2f", e->by_seed.ratio),
		    RATIO_CI(e->by_seed.lo, e->by_seed.hi));
	say("\n");
}

/*
 * The account against the gap (issue 20 item 3): per workload
 *   (net check time per op of A - that of B) / (measured per-op time A - B)
 * with its 95 % interval.  The ratio explain.c computed all along is that
 * very figure (checks: the module's net check time per operation, median
 * over boots; measured: 1e9 / median ops/s of A less B's, without the
 * module), so it leads the section, the parts it is made of after it.
 */
static void text_explained(void)
{
	int i, any = 0;

	for (i = 0; i < nres; i++)
		any |= res[i].ex.na && res[i].ex.nb;
	if (!any)
		return;
	say("\nThe account against the gap: how much of the measured difference the module's net\n"
	    "check time explains, ratio = (checks A - checks B) / (measured A - B); %s\n", clk->unit);
	say("  %-16s %5s %7s %18s %12s %10s %10s %10s", "workload", "boots", "ratio", "95% CI (bootstrap)",
	    "measured A-B", "checks A", "checks B", "A-B");
	if (nseeds)
		say(" %5s %7s %18s", "seeds", "ratio", "95% CI (pairs)");
	say("\n");
	for (i = 0; i < nres; i++)
		if (res[i].ex.na && res[i].ex.nb)
			explained_row(&res[i].ex, res[i].name);
	too_wide_sentences();
	say("  (measured = 1e9 / median ops/s of A less that of B, without the module; checks =\n"
	    "   the module's net check time per operation, raw less its own backend's calibration\n"
	    "   per check, median over boots; ratio 1: the checks' own time is the whole difference;\n"
	    "   %sone operation:", nseeds ? "by seed: over seed pairs, resampled together; " : "");
	for (i = 0, any = 0; i < nres; i++)
		if (res[i].ex.op && (i == 0 || res[i].ex.op != res[i - 1].ex.op))
			say("%s%s%s = %s", any++ ? "; " : " ", res[i].ex.op->name,
			    res[i].ex.op->per_vmas ? "-N" : "", res[i].ex.op->what);
	say(")\n");
}

/* JSON: numbers (NaN as null) and strings. */
static void jnum(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, "%.6g", v);
	else
		fprintf(f, "null");
}

static void jstr(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(f, "\\u%04x", (unsigned char)*s);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

/* ", "key": number" (sep "" for the first of an object). */
static void jfield(FILE *f, const char *sep, const char *key, double v)
{
	fprintf(f, "%s\"%s\": ", sep, key);
	jnum(f, v);
}

static void jci(FILE *f, double lo, double hi)
{
	fprintf(f, ", \"ci95\": [");
	jnum(f, lo);
	fprintf(f, ", ");
	jnum(f, hi);
	fprintf(f, "]");
}

static void jpair(FILE *f, const char *key, double a, double b)
{
	fprintf(f, "\"%s\": {", key);
	jfield(f, "", "a", a);
	jfield(f, ", ", "b", b);
	fprintf(f, "}");
}

static void jab(FILE *f, const struct cmp_ab *s)
{
	fprintf(f, "\"boots\": {\"a\": %zu, \"b\": %zu}", s->na, s->nb);
	jfield(f, ", ", "a_ops", s->a);
	jfield(f, ", ", "b_ops", s->b);
	jfield(f, ", ", "delta_pct", s->delta_pct);
	jci(f, s->lo, s->hi);
	jfield(f, ", ", "p", s->p);
}

static void json_account(FILE *f, const struct acct *a)
{
	int s, first = 1;

	fprintf(f, "{");
	for (s = 0; s < REC_NSYS; s++) {
		if (!a->calls[s])
			continue;
		fprintf(f, "%s\"%s\": {\"calls\": %.0f, \"mean_ns\": ", first ? "" : ", ",
			rec_syscalls[s], a->calls[s]);
		jnum(f, a->ns[s] / a->calls[s]);
		fprintf(f, ", \"checks_per_call\": ");
		jnum(f, a->checks[s] / a->calls[s]);
		fprintf(f, ", \"check_ns_raw\": ");
		jnum(f, a->checks[s] ? a->check_ns[s] / a->checks[s] : 0);
		fprintf(f, ", \"check_ns_net\": ");
		jnum(f, a->checks[s] ? a->check_net_ns[s] / a->checks[s] : 0);
		fprintf(f, "}");
		first = 0;
	}
	fprintf(f, "}");
}

/* "spread": the stop rule of a workload; unknown figures null. */
static void json_spread(FILE *f, const struct spread *sp)
{
	fprintf(f, "\"spread\": {");
	jpair(f, "cv_pct", sp->cv[0], sp->cv[1]);
	fprintf(f, ", \"boots_needed\": {");
	jfield(f, "", "pm1", sp->need[0] ? (double)sp->need[0] : NAN);
	jfield(f, ", ", "pm2", sp->need[1] ? (double)sp->need[1] : NAN);
	fprintf(f, "}");
	jfield(f, ", ", "halfwidth_now_pct", sp->now);
	fprintf(f, ", \"paired_by_seed\": ");
	if (sp->pair_need[0]) {
		jfield(f, "{", "delta_sd_points", sp->pair_sd);
		jfield(f, ", \"pairs_needed\": {", "pm1", (double)sp->pair_need[0]);
		jfield(f, ", ", "pm2", (double)sp->pair_need[1]);
		fprintf(f, "}}");
	} else {
		fprintf(f, "null");
	}
	fprintf(f, "}");
}

static void json_by_seed(FILE *f, const struct cmp_ab *s)
{
	fprintf(f, "\"paired_by_seed\": ");
	if (!s->na) {
		fprintf(f, "null");
		return;
	}
	fprintf(f, "{\"seeds\": %zu", s->na);
	jfield(f, ", ", "a_ops", s->a);
	jfield(f, ", ", "b_ops", s->b);
	jfield(f, ", ", "delta_pct", s->delta_pct);
	jci(f, s->lo, s->hi);
	fprintf(f, "}");
}

/* The records of A and B that meet cond, by name (the warnings' conditions). */
static void json_names(FILE *f, const char *key, const int *ia, int na, const int *ib, int nb,
		       int (*cond)(const struct record *))
{
	const int *sets[2] = { ia, ib };
	int ns[2] = { na, nb }, s, i, first = 1;

	fprintf(f, "\"%s\": [", key);
	for (s = 0; s < 2; s++)
		for (i = 0; i < ns[s]; i++)
			if (cond(&recs[sets[s][i]])) {
				fprintf(f, "%s", first ? "" : ", ");
				jstr(f, recs[sets[s][i]].name);
				first = 0;
			}
	fprintf(f, "]");
}

static const struct record *options_first;
static int options_differ(const struct record *r)
{
	return warn_options_differ(options_first, r);
}

/* What the warnings look at, as data: lists of the records concerned. */
static void json_conditions(FILE *f, const int *ia, int na, const int *ib, int nb)
{
	options_first = &recs[ia[0] < ib[0] ? ia[0] : ib[0]];
	/* meta.json's own value (valid JSON: its file was), or null where it had none. */
	fprintf(f, "\"conditions\": {\"options\": %s", options_first->options[0] ? options_first->options : "null");
	fprintf(f, ", ");
	json_names(f, "options_differ", ia, na, ib, nb, options_differ);
	fprintf(f, ", \"busy_start_per_cpu\": %g, ", WARN_BUSY_PER_CPU);
	json_names(f, "busy_start", ia, na, ib, nb, warn_busy);
	fprintf(f, ", ");
	json_names(f, "governor_not_performance", ia, na, ib, nb, warn_governor_other);
	fprintf(f, ", ");
	json_names(f, "turbo_on", ia, na, ib, nb, warn_turbo_on);
	fprintf(f, ", ");
	json_names(f, "cpu_settings_refused", ia, na, ib, nb, warn_settings_refused);
	fprintf(f, "}");
}

static const char *const how_names[] = {
	[AB_GIVEN] = "given", [AB_NAMED] = "release name", [AB_FIRST] = "first boot",
};

static void json_head(FILE *f, const struct ab_choice *c, int na, int nb)
{
	fprintf(f, "{\"a\": ");
	jstr(f, c->a);
	fprintf(f, ", \"b\": ");
	jstr(f, c->b);
	fprintf(f, ", \"a_chosen_by\": ");
	jstr(f, how_names[c->how]);
	fprintf(f, ", \"records\": {\"a\": %d, \"b\": %d},\n \"clock\": ", na, nb);
	jstr(f, clk->clock);
	fprintf(f, ", \"unit\": ");
	jstr(f, clk->unit);
	fprintf(f, ", \"unit_is_not\": ");
	if (clk->not_time)
		jstr(f, clk->not_time);
	else
		fprintf(f, "null");
	fprintf(f, ",\n \"seeds\": {\"a\": %d, \"b\": %d, \"paired\": %d},\n ", nseeds_a, nseeds_b, nseeds);
}

/* A ratio's interval: "q", "ci95" and how it was had. */
static void json_lay_ci(FILE *f, const char *key, const struct lay_ci *c, double scale, double shift)
{
	fprintf(f, "\"%s\": {", key);
	jfield(f, "", "value", scale * (c->q - shift));
	jci(f, scale * (c->lo - shift), scale * (c->hi - shift));
	jfield(f, ", ", "se", scale * c->se);
	jfield(f, ", ", "df", c->df);
	fprintf(f, ", \"n\": %zu, \"boots\": %d, \"boot_fixed\": %s}", c->n, c->boots,
		c->boot_fixed ? "true" : "false");
}

/* The headline over layouts (headline.h). */
static void json_layouts(FILE *f, const struct headline *h)
{
	fprintf(f, "{\"paired\": %s, \"runs\": {\"a\": %zu, \"b\": %zu}, \"boots\": {\"a\": %d, \"b\": %d}, ",
		h->paired ? "true" : "false", h->runs[0], h->runs[1], h->boots[0], h->boots[1]);
	jpair(f, "mean_ops", h->a, h->b);
	fprintf(f, ", ");
	jpair(f, "cv_pct", h->cv[0], h->cv[1]);
	jfield(f, ", ", "pair_sd_points", h->pair_sd);
	fprintf(f, ",\n    ");
	json_lay_ci(f, "delta_pct", &h->delta, 100, 1);
	fprintf(f, ",\n    \"explained\": ");
	if (h->acct.n) {
		fprintf(f, "{");
		jfield(f, "", "measured_ns_per_op", h->gap_ns);
		fprintf(f, ", ");
		jpair(f, "check_ns_per_op", h->check[0], h->check[1]);
		fprintf(f, ", ");
		json_lay_ci(f, "ratio", &h->acct, 1, 0);
		fprintf(f, "}");
	} else {
		fprintf(f, "null");
	}
	fprintf(f, "}");
}

static void json_summary(const char *dir, const struct ab_choice *c, const int *ia, int na,
			 const int *ib, int nb, char warn[WARN_MAX][WARN_LEN], int nwarn,
			 const struct acct acc[2])
{
	FILE *f = open_in(dir, "summary.json");
	int i;

	json_head(f, c, na, nb);
	json_conditions(f, ia, na, ib, nb);
	fprintf(f, ",\n \"warnings\": [");
	for (i = 0; i < nwarn; i++) {
		fprintf(f, "%s", i ? ", " : "");
		jstr(f, warn[i]);
	}
	fprintf(f, "],\n \"workloads\": {");
	for (i = 0; i < nres; i++) {
		const struct wl_result *r = &res[i];
		const struct explained *e = &r->ex;

		fprintf(f, "%s\n  ", i ? "," : "");
		jstr(f, r->name);
		fprintf(f, ": {\"boots\": {\"a\": %zu, \"b\": %zu},\n   \"over_layouts\": ", r->wo.na, r->wo.nb);
		json_layouts(f, &r->hl);
		fprintf(f, ",\n   \"over_matched_layouts\": ");
		if (mna && mnb)
			json_layouts(f, &r->hl_matched);
		else
			fprintf(f, "null");
		fprintf(f, ",\n   \"without_module\": {");
		jab(f, &r->wo);
		fprintf(f, "},\n   ");
		json_by_seed(f, &r->wo_seed);
		fprintf(f, ",\n   ");
		json_spread(f, &r->sp);
		fprintf(f, ",\n   \"with_module\": ");
		if (r->w.na || r->w.nb) {
			fprintf(f, "{");
			jab(f, &r->w);
			fprintf(f, ", ");
			jpair(f, "watch_cost_ns_per_op", r->watch_ns[0], r->watch_ns[1]);
			fprintf(f, ", ");
			jpair(f, "watch_cost_pct", r->watch_pct[0], r->watch_pct[1]);
			fprintf(f, "}");
		} else {
			fprintf(f, "null");
		}
		fprintf(f, ",\n   \"explained\": ");
		if (e->na && e->nb) {
			fprintf(f, "{\"operation\": ");
			jstr(f, e->op->what);
			fprintf(f, ", \"boots\": {\"a\": %d, \"b\": %d}", e->na, e->nb);
			jfield(f, ", ", "measured_ns_per_op", e->measured_ns);
			fprintf(f, ", ");
			jpair(f, "check_ns_per_op", e->check_a, e->check_b);
			jfield(f, ", ", "ratio", e->ratio);
			jci(f, e->lo, e->hi);
			fprintf(f, ", \"too_wide\": %s, \"paired_by_seed\": ", e->too_wide ? "true" : "false");
			if (e->by_seed.n) {
				fprintf(f, "{\"seeds\": %d", e->by_seed.n);
				jfield(f, ", ", "ratio", e->by_seed.ratio);
				jci(f, e->by_seed.lo, e->by_seed.hi);
				fprintf(f, "}}");
			} else {
				fprintf(f, "null}");
			}
		} else {
			fprintf(f, "null");
		}
		fprintf(f, "}");
	}
	fprintf(f, "},\n \"account\": {\"a\": ");
	json_account(f, &acc[0]);
	fprintf(f, ", \"b\": ");
	json_account(f, &acc[1]);
	fprintf(f, "}}\n");
	fclose(f);
}

/* A gnuplot string: double quotes, with " and \\ escaped. */
static void gpstr(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

/*
 * The plots' data (scripts/compare/plots.gp): every boot's value spread a
 * little around its kernel's x (0 for A, 1 for B), the medians, and the
 * deltas with their intervals; workload i is column 1 = i.
 */
static void plot_data(const char *dir, const char *ra, const char *rb,
		      const int *ia, int na, const int *ib, int nb)
{
	const int *sets[2] = { ia, ib };
	int ns[2] = { na, nb }, i, s, k;
	char sub[4096];
	FILE *fb, *fm, *fd, *fw;
	int with_module = 0;

	for (i = 0; i < nres; i++)
		with_module |= res[i].w.na && res[i].w.nb;

	snprintf(sub, sizeof(sub), "%s/plot-data", dir);
	mkdir(sub, 0755);
	fb = open_in(sub, "boots.dat");
	fm = open_in(sub, "medians.dat");
	fd = open_in(sub, "deltas.dat");
	for (i = 0; i < nres; i++) {
		const struct wl_result *r = &res[i];

		for (s = 0; s < 2; s++) {
			for (k = 0; k < ns[s]; k++) {
				const struct boot_wl *w = record_wl(&recs[sets[s][k]], r->name);
				double x = s + (ns[s] > 1 ? 0.3 * ((double)k / (ns[s] - 1) - 0.5) : 0);

				if (w)
					fprintf(fb, "%d %d %.3f %.1f %.1f\n", i + 1, s, x, w->ops[0], w->ops[1]);
			}
			fprintf(fm, "%d %d %.1f %.1f\n", i + 1, s, s ? r->wo.b : r->wo.a, s ? r->w.b : r->w.a);
		}
		fprintf(fd, "%d %s %.3f %.3f %.3f %.3f %.3f %.3f\n", nres - i, r->name,
			r->wo.delta_pct, r->wo.lo, r->wo.hi, r->w.delta_pct, r->w.lo, r->w.hi);
	}
	fw = open_in(sub, "vars.gp");
	fprintf(fw, "a = ");
	gpstr(fw, ra);
	fprintf(fw, "\nb = ");
	gpstr(fw, rb);
	fprintf(fw, "\nna = %d\nnb = %d\nn = %d\nwith_module = %d\nnames = \"", na, nb, nres, with_module);
	for (i = 0; i < nres; i++)
		fprintf(fw, "%s%s", i ? " " : "", res[i].name);
	fprintf(fw, "\"\n");
	fclose(fb);
	fclose(fm);
	fclose(fd);
	fclose(fw);
}

static void usage(void)
{
	fprintf(stderr, "usage: mseal-compare-report DIR [--baseline RELEASE] [--b RELEASE]\n"
		"       mseal-compare-report DIR [--a RELEASE --b RELEASE]\n");
	exit(2);
}

static void die(int status, const char *dir, const char *why)
{
	fprintf(stderr, "mseal-compare report: %s: %s\n", dir, why);
	exit(status);
}

/* How A was chosen, where the user did not say it: the sign of every delta hangs on it. */
static void say_choice(const struct ab_choice *c, const char *first)
{
	if (c->how == AB_NAMED && strcmp(c->a, first))
		say("note: A = %s, the release named as the pre-series one, though the first boot was of %s; "
		    "--baseline RELEASE says otherwise\n", c->a, first);
	else if (c->how == AB_FIRST)
		say("note: A = %s, the first boot's release: no release here is named as the pre-series "
		    "one (\"preseries\" in its name); if %s is not the kernel before the series, give "
		    "--baseline RELEASE (the pre-series release) and every delta turns round\n", c->a, c->a);
}

static void say_clock(void)
{
	say("clock: %s; the unit: %s%s\n", clk->clock, clk->unit,
	    clk->not_time ? ", and ops/s are operations per 1e9 of them" : "");
	if (clk->not_time)
		say("  what it is not: %s.\n", clk->not_time);
}

static void say_seeds(void)
{
	if (!nseeds_a && !nseeds_b)
		return;
	say("seeds: %d distinct on A, %d on B, %d on both%s\n", nseeds_a, nseeds_b, nseeds,
	    nseeds ? ": the headline is also given paired by seed" : "");
}

/* Split the records into A's and B's; refuse records of two clocks. */
static void split(const struct ab_choice *c, int n, int *ia, int *na, int *ib, int *nb, const char *dir)
{
	static int all[REC_MAX];
	char err[512];
	int i, k = 0;

	*na = *nb = 0;
	for (i = 0; i < n; i++) {
		if (!strcmp(recs[i].release, c->a))
			ia[(*na)++] = all[k++] = i;
		else if (!strcmp(recs[i].release, c->b))
			ib[(*nb)++] = all[k++] = i;
	}
	clk = clock_of_records(recs, all, k, err, sizeof(err));
	if (!clk)
		die(1, dir, err);
	nseeds_a = seeds_distinct(recs, ia, *na, seeds_a);
	nseeds_b = seeds_distinct(recs, ib, *nb, seeds_b);
	nseeds = seeds_common(seeds_a, nseeds_a, seeds_b, nseeds_b, seeds);
}

/*
 * DIR/matched/'s records of A and B (mia, mib), where there are any.  A
 * folder that cannot be read, whose records are of another clock or lack
 * a kernel is not used, and why is written to warn (else it is left "").
 */
static void load_matched(const char *dir, const struct ab_choice *c, char *warn, size_t len)
{
	static int all[REC_MAX];
	char path[4096], err[512];
	struct stat st;
	int n, i, k = 0;

	warn[0] = 0;
	snprintf(path, sizeof(path), "%s/matched", dir);
	if (stat(path, &st) || !S_ISDIR(st.st_mode))
		return;
	n = records_load(path, mrecs, REC_MAX, err, sizeof(err));
	if (n < 0) {
		snprintf(warn, len, "%s not used: %s", path, err);
		return;
	}
	for (i = 0; i < n; i++) {
		if (!strcmp(mrecs[i].release, c->a))
			mia[mna++] = all[k++] = i;
		else if (!strcmp(mrecs[i].release, c->b))
			mib[mnb++] = all[k++] = i;
	}
	if (k && clock_of_records(mrecs, all, k, err, sizeof(err)) != clk) {
		snprintf(warn, len, "%s not used: its records are not all of this folder's clock (%s)",
			 path, clk->clock);
		mna = mnb = 0;
	} else if (!mna || !mnb) {
		snprintf(warn, len, "%s not used: it has no boots of %s", path, !mna ? c->a : c->b);
		mna = mnb = 0;
	}
}

int main(int argc, char **argv)
{
	static int ia[REC_MAX], ib[REC_MAX];
	static char warn[WARN_MAX][WARN_LEN];
	static struct ab_choice c;
	const char *dir = NULL, *ra = NULL, *rb = NULL;
	char err[512], mwarn[WARN_LEN];
	struct acct acc[2];
	int n, na = 0, nb = 0, nwarn, i;

	for (i = 1; i < argc; i++) {
		if ((!strcmp(argv[i], "--a") || !strcmp(argv[i], "--baseline")) && i + 1 < argc && !ra)
			ra = argv[++i];
		else if (!strcmp(argv[i], "--b") && i + 1 < argc && !rb)
			rb = argv[++i];
		else if (argv[i][0] != '-' && !dir)
			dir = argv[i];
		else
			usage();
	}
	if (!dir)
		usage();
	n = records_load(dir, recs, REC_MAX, err, sizeof(err));
	if (n < 0) {
		fprintf(stderr, "mseal-compare report: %s\n", err);
		return 2;
	}
	nrecs_all = n;
	if (!n)
		die(2, dir, "no boot records (folders with a meta.json, made by mseal-compare record)");
	if (choose_ab(recs, n, ra, rb, &c, err, sizeof(err)))
		die(2, dir, err);
	split(&c, n, ia, &na, ib, &nb, dir);

	txt = open_in(dir, "summary.txt");
	say("mseal-compare report of %s\n", dir);
	say("A = %s (%d boot%s), B = %s (%d boot%s)\n", c.a, na, na == 1 ? "" : "s", c.b, nb, nb == 1 ? "" : "s");
	say_choice(&c, c.rels[0]);
	say("machine: %s, %s; governor %s, turbo %s\n", recs[ia[0]].cpu, recs[ia[0]].arch,
	    recs[ia[0]].governor[0] ? recs[ia[0]].governor : "not exposed",
	    recs[ia[0]].turbo[0] ? recs[ia[0]].turbo : "not exposed");
	say_clock();
	say_seeds();
	for (i = 0; i < c.nrel; i++)
		if (strcmp(c.rels[i], c.a) && strcmp(c.rels[i], c.b))
			say("also in the folder, not compared: %s (--baseline and --b choose)\n", c.rels[i]);
	nwarn = compare_warnings(recs, ia, na, ib, nb, warn);
	load_matched(dir, &c, mwarn, sizeof(mwarn));
	if (mwarn[0] && nwarn < WARN_MAX)
		snprintf(warn[nwarn++], WARN_LEN, "%s", mwarn);
	for (i = 0; i < nwarn; i++)
		say("warning: %s\n", warn[i]);

	workloads(ia, na, ib, nb);
	analyse(ia, na, ib, nb);
	text_layouts();
	text_headline();
	text_by_seed();
	text_stop_rule();
	text_with_module();
	account_sum(ia, na, &acc[0]);
	account_sum(ib, nb, &acc[1]);
	text_account("A", c.a, &acc[0]);
	text_account("B", c.b, &acc[1]);
	text_explained();
	fclose(txt);
	json_summary(dir, &c, ia, na, ib, nb, warn, nwarn, acc);
	plot_data(dir, c.a, c.b, ia, na, ib, nb);
	return 0;
}
