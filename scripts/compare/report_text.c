// SPDX-License-Identifier: GPL-2.0
/*
 * summary.txt, printed as it is written: the headline over layouts first,
 * then the medians over boots, by seed, the stop rule, the runs with the
 * module, each kernel's account and the account against the gap.
 */
#include <math.h>
#include <stdarg.h>
#include <string.h>

#include "population.h"
#include "report_state.h"

/* summary.txt and stdout alike. */
static void text_say(const struct report *rp, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	va_start(ap, fmt);
	vfprintf(rp->txt, fmt, ap);
	va_end(ap);
}

/* A number for the text tables: "-" for NaN. */
static const char *text_num(char *buf, size_t size, const char *fmt, double v)
{
	if (isnan(v))
		snprintf(buf, size, "-");
	else
		snprintf(buf, size, fmt, v);
	return buf;
}
#define NUM(fmt, v) text_num((char[32]){ 0 }, 32, fmt, v)

static void text_ab_row(const struct report *rp, const char *name, const struct cmp_ab *s, const char *extra)
{
	char ci[64];

	if (isnan(s->lo))
		snprintf(ci, sizeof(ci), "-");
	else
		snprintf(ci, sizeof(ci), "[%+.2f%%, %+.2f%%]", s->lo, s->hi);
	text_say(rp, "  %-16s %2zu/%-2zu %11s %11s %9s %20s %8s%s\n", name, s->na, s->nb,
	    NUM("%.0f", s->a), NUM("%.0f", s->b), NUM("%+.2f%%", s->delta_pct), ci,
	    NUM("%.4f", s->p), extra);
}

/* "[lo, hi]" of a ratio, or "-" without an interval. */
static const char *text_ratio_ci(char *buf, size_t size, double lo, double hi)
{
	if (isnan(lo))
		snprintf(buf, size, "-");
	else
		snprintf(buf, size, "[%.2f, %.2f]", lo, hi);
	return buf;
}
#define RATIO_CI(lo, hi) text_ratio_ci((char[48]){ 0 }, 48, lo, hi)

/* "[lo%, hi%]" of a ratio's interval as a delta, or "-". */
static const char *text_delta_ci(char *buf, size_t size, const struct lay_ci *c)
{
	if (isnan(c->lo))
		snprintf(buf, size, "-");
	else
		snprintf(buf, size, "[%+.2f%%, %+.2f%%]", 100 * (c->lo - 1), 100 * (c->hi - 1));
	return buf;
}

/* One table of the account against the gap over layouts: H(r) of each workload. */
static void text_account_table(const struct report *rp, const struct headline *(*h_of)(const struct wl_result *))
{
	int i;

	text_say(rp, "  %-16s %7s %7s %20s %12s %10s %10s\n", "workload", "layouts", "ratio", "95% CI (t)",
	    "measured A-B", "checks A", "checks B");
	for (i = 0; i < rp->nres; i++) {
		const struct headline *h = h_of(&rp->res[i]);

		if (!h->acct.n)
			continue;
		text_say(rp, "  %-16s %7zu %7s %20s %12s %10s %10s\n", rp->res[i].name, h->acct.n, NUM("%.2f", h->acct.q),
		    RATIO_CI(h->acct.lo, h->acct.hi), NUM("%.0f", h->gap_ns), NUM("%.1f", h->check[0]),
		    NUM("%.1f", h->check[1]));
	}
}

static const struct headline *text_hl_main(const struct wl_result *r) { return &r->hl; }
static const struct headline *text_hl_matched(const struct wl_result *r) { return &r->hl_matched; }

/*
 * The account against the gap over the headline's layouts, then over
 * DIR/matched's where there are any.  Both, not one: they are two
 * populations.  The headline's are the layouts users have, but unmatched,
 * so a workload whose layouts spread widely (mmap1, 10 %) gets an interval
 * that says nothing; the matched ones cancel what a layout does to both
 * kernels, but hold the brk heap next to the program, which moves what the
 * kernels do besides the checks (pagemove: docs/comparison.md).
 */
static void text_layout_account(const struct report *rp)
{
	int i, any = 0, anym = 0;

	for (i = 0; i < rp->nres; i++) {
		any |= rp->res[i].hl.acct.n > 0;
		anym |= rp->mna && rp->mnb && rp->res[i].hl_matched.acct.n > 0;
	}
	if (any) {
		text_say(rp, "\nThe account against the gap over the same layouts: ratio = (checks A - checks B) /\n"
		    "(measured A - B) per operation, means over layouts; %s\n", rp->clk->unit);
		text_account_table(rp, text_hl_main);
	}
	if (anym) {
		text_say(rp, "\nThe same over matched layouts (matched/: %d and %d boots of the same kernels in\n"
		    "seeded layouts, mseal-bench --layout N, the same on both, so that what a layout does\n"
		    "to both cancels; the brk heap and the stack not randomised), means over layouts\n",
		    rp->mna, rp->mnb);
		text_account_table(rp, text_hl_matched);
	}
}

/*
 * The headline (headline.h): mean ops/s over every run without the module,
 * each run a fresh process in its own layout; the interval over layouts
 * and boots.
 */
static void text_layouts(const struct report *rp)
{
	int i, paired = 0, fixed = 0, fixed_layout = 0;

	for (i = 0; i < rp->nres; i++) {
		paired |= rp->res[i].hl.paired;
		fixed |= rp->res[i].hl.delta.boot_fixed;
	}
	for (i = 0; i < rp->nrecs; i++)
		fixed_layout |= rp->recs[i].aslr == 0;
	text_say(rp, "\nThe headline, without the module: mean ops/s over address-space layouts (every run a\n"
	    "fresh process, so a layout of its own), B against A; 95 %% interval over layouts and boots\n");
	text_say(rp, "  %-16s %7s %5s %11s %11s %9s %20s %14s %8s\n", "workload", "layouts", "boots", "A ops/s",
	    "B ops/s", "delta", "95% CI (t)", "CV A/B layout", "sd delta");
	for (i = 0; i < rp->nres; i++) {
		const struct headline *h = &rp->res[i].hl;
		char n[24], cv[32];

		if (!h->runs[0] || !h->runs[1])
			continue;
		if (h->paired)
			snprintf(n, sizeof(n), "%zu", h->runs[0]);
		else
			snprintf(n, sizeof(n), "%zu/%zu", h->runs[0], h->runs[1]);
		snprintf(cv, sizeof(cv), "%s/%s", NUM("%.1f%%", h->cv[0]), NUM("%.1f%%", h->cv[1]));
		text_say(rp, "  %-16s %7s %2d/%-2d %11s %11s %9s %20s %14s %8s\n", rp->res[i].name, n, h->boots[0],
		    h->boots[1], NUM("%.0f", h->a), NUM("%.0f", h->b),
		    NUM("%+.2f%%", 100 * (h->delta.q - 1)), text_delta_ci((char[64]){ 0 }, 64, &h->delta), cv,
		    NUM("%.2f", h->pair_sd));
	}
	if (paired)
		text_say(rp, "  (layouts matched A to B: the same seeded layouts, mseal-bench --layout N, on both\n"
		    "   kernels; the delta's interval from the per-layout pairs, clustered by boot)\n");
	else if (!fixed_layout)
		text_say(rp, "  (layouts not matched: each run its own layout (ASLR), the kernels' runs two\n"
		    "   independent samples, each clustered by boot)\n");
	text_say(rp, "  (ratio of mean ops/s; Student's t on the larger of the runs' and the boots' variance,\n"
	    "   at boots - 1 degrees of freedom: few boots widen it)\n");
	if (fixed_layout && !paired)
		text_say(rp, "  note: ASLR was off in some boots (norandmaps or randomize_va_space 0): their runs\n"
		    "  all had one layout, the kernel's fixed one, so the interval holds that layout fixed\n");
	if (fixed)
		text_say(rp, "  note: a kernel has one boot here: its interval covers the layouts only and holds\n"
		    "  that boot fixed (its kernel layout, code placement); record more boots\n");
	text_layout_account(rp);
}

static void text_headline(const struct report *rp)
{
	int i;

	text_say(rp, "\nOver boots: median ops/s over boots (each boot's median of its runs), B against A;\n"
	    "the interval covers boots, not the layouts within them (see the headline above)\n");
	text_say(rp, "  %-16s %5s %11s %11s %9s %20s %8s\n", "workload", "boots", "A ops/s", "B ops/s",
	    "delta", "95% CI (bootstrap)", "p (M-W)");
	for (i = 0; i < rp->nres; i++)
		text_ab_row(rp, rp->res[i].name, &rp->res[i].wo, "");
}

/* Where seeds pair up: the headline again, its interval from resampling seed pairs. */
static void text_by_seed(const struct report *rp)
{
	int i;

	if (!rp->nseeds)
		return;
	text_say(rp, "\nPaired by seed (%d seed%s booted on both kernels): the same medians and delta over seeds,\n"
	    "the interval from resampling seed pairs, a seed's A and B together\n", rp->nseeds, rp->nseeds == 1 ? "" : "s");
	text_say(rp, "  %-16s %5s %11s %11s %9s %20s\n", "workload", "seeds", "A ops/s", "B ops/s",
	    "delta", "95% CI (pairs)");
	for (i = 0; i < rp->nres; i++) {
		const struct cmp_ab *s = &rp->res[i].wo_seed;
		char ci[64];

		if (!s->na)
			continue;
		if (isnan(s->lo))
			snprintf(ci, sizeof(ci), "-");
		else
			snprintf(ci, sizeof(ci), "[%+.2f%%, %+.2f%%]", s->lo, s->hi);
		text_say(rp, "  %-16s %5zu %11s %11s %9s %20s\n", rp->res[i].name, s->na, NUM("%.0f", s->a),
		    NUM("%.0f", s->b), NUM("%+.2f%%", s->delta_pct), ci);
	}
}

/* One workload's stop rule, in words. */
static void text_stop_rule_sentence(const struct report *rp, const struct wl_result *r)
{
	const struct spread *sp = &r->sp;
	size_t have = r->wo.na < r->wo.nb ? r->wo.na : r->wo.nb;

	text_say(rp, "  %-16s CV A %s, B %s: ", r->name, NUM("%.2f%%", sp->cv[0]), NUM("%.2f%%", sp->cv[1]));
	if (!sp->need[0]) {
		text_say(rp, "one boot of a kernel has no spread; record more boots\n");
		return;
	}
	text_say(rp, "at this spread, %lu boots each for +-1 point, %lu for +-2", sp->need[0], sp->need[1]);
	if (have >= sp->need[0])
		text_say(rp, "; the %zu recorded are enough\n", have);
	else
		text_say(rp, " (now %zu: +-%.1f points)\n", have, sp->now);
	if (r->hl.paired && lay_boots_needed(&r->hl.delta, 0.01))
		text_say(rp, "  %-16s paired by layout (the headline): %lu boots for +-1, %lu for +-2 (now %d)\n", "",
		    lay_boots_needed(&r->hl.delta, 0.01), lay_boots_needed(&r->hl.delta, 0.02), r->hl.delta.boots);
	if (sp->pair_need[0])
		text_say(rp, "  %-16s over seed pairs: the per-seed deltas spread by %.2f points: %lu pairs for +-1, "
		    "%lu for +-2 (now %zu)\n", "", sp->pair_sd, sp->pair_need[0], sp->pair_need[1], r->wo_seed.na);
}

static void text_stop_rule(const struct report *rp)
{
	int i;

	text_say(rp, "\nHow many boots (the stop rule): the boots' spread without the module, and the boots\n"
	    "each kernel needs for a 95 %% interval of +-1 and +-2 points on the delta at that spread\n");
	for (i = 0; i < rp->nres; i++)
		text_stop_rule_sentence(rp, &rp->res[i]);
	text_say(rp, "  (normal approximation for the ratio of two medians: half-width = 1.96 * B/A *\n"
	    "   sqrt(pi/2 * (CV_A^2 + CV_B^2) / boots); a spread with outliers needs more: read it\n"
	    "   again as boots are added; over seed pairs, the same with the per-seed deltas' sd)\n");
}

static void text_with_module(const struct report *rp)
{
	char extra[96], watch_label[2][24];
	int i, any = 0;

	snprintf(watch_label[0], sizeof(watch_label[0]), "watch A %s (%%)", rp->clk->per_op);
	snprintf(watch_label[1], sizeof(watch_label[1]), "watch B %s (%%)", rp->clk->per_op);
	for (i = 0; i < rp->nres; i++)
		any |= rp->res[i].w.na || rp->res[i].w.nb;
	if (!any) {
		text_say(rp, "\nWith the module: no runs with it (records made with --no-module)\n");
		return;
	}
	text_say(rp, "\nWith the module loaded: the same, and what watching costs per operation\n");
	text_say(rp, "  %-16s %5s %11s %11s %9s %20s %8s  %16s %16s\n", "workload", "boots", "A ops/s",
	    "B ops/s", "delta", "95% CI (bootstrap)", "p (M-W)", watch_label[0], watch_label[1]);
	for (i = 0; i < rp->nres; i++) {
		char wa[40], wb[40];

		snprintf(wa, sizeof(wa), "%s (%s)", NUM("%.0f", rp->res[i].watch_ns[0]), NUM("%+.1f%%", rp->res[i].watch_pct[0]));
		snprintf(wb, sizeof(wb), "%s (%s)", NUM("%.0f", rp->res[i].watch_ns[1]), NUM("%+.1f%%", rp->res[i].watch_pct[1]));
		snprintf(extra, sizeof(extra), "  %16s %16s", wa, wb);
		text_ab_row(rp, rp->res[i].name, &rp->res[i].w, extra);
	}
}

static void text_account(const struct report *rp, const char *label, const char *rel, const struct acct *a)
{
	int s;

	if (!a->reports)
		return;
	text_say(rp, "\n%s = %s, the module's account over %d report(s):\n", label, rel, a->reports);
	text_say(rp, "  %-16s %10s %10s %12s %14s %14s %7s\n", "syscall", "calls", "mean_ns",
	    "checks/call", "check_ns_raw", "check_ns_net", "share");
	for (s = 0; s < REC_NSYS; s++) {
		if (!a->calls[s])
			continue;
		text_say(rp, "  %-16s %10.0f %10.0f %12.2f %14.0f %14.0f %6.1f%%\n", rec_syscalls[s],
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
static void text_too_wide(const struct report *rp)
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
		for (i = 0, n = 0; i < rp->nres; i++) {
			const struct explained *e = &rp->res[i].ex;
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
				text_say(rp, "%s%s", n++ ? ", " : "  ", rp->res[i].name);
		}
		if (n)
			text_say(rp, ": %s.\n", why[k]);
	}
}

static void text_explained_row(const struct report *rp, const struct explained *e, const char *name)
{
	text_say(rp, "  %-16s %2d/%-2d %7s %18s %12.0f %10.1f %10.1f %10.1f", name, e->na, e->nb,
	    NUM("%.2f", e->ratio), RATIO_CI(e->lo, e->hi), e->measured_ns, e->check_a, e->check_b,
	    e->check_a - e->check_b);
	if (rp->nseeds && e->by_seed.n)
		text_say(rp, " %5d %7s %18s", e->by_seed.n, NUM("%.2f", e->by_seed.ratio),
		    RATIO_CI(e->by_seed.lo, e->by_seed.hi));
	text_say(rp, "\n");
}

/*
 * The account against the gap over boots: per workload
 *   (net check time per op of A - that of B) / (measured per-op time A - B)
 * with its 95 % interval (explain.h), then the parts it is made of
 * (checks: the module's net check time per operation, median over boots;
 * measured: 1e9 / median ops/s of A less B's, without the module).
 */
static void text_explained(const struct report *rp)
{
	int i, any = 0;

	for (i = 0; i < rp->nres; i++)
		any |= rp->res[i].ex.na && rp->res[i].ex.nb;
	if (!any)
		return;
	text_say(rp, "\nThe account against the gap: how much of the measured difference the module's net\n"
	    "check time explains, ratio = (checks A - checks B) / (measured A - B); %s\n", rp->clk->unit);
	text_say(rp, "  %-16s %5s %7s %18s %12s %10s %10s %10s", "workload", "boots", "ratio", "95% CI (bootstrap)",
	    "measured A-B", "checks A", "checks B", "A-B");
	if (rp->nseeds)
		text_say(rp, " %5s %7s %18s", "seeds", "ratio", "95% CI (pairs)");
	text_say(rp, "\n");
	for (i = 0; i < rp->nres; i++)
		if (rp->res[i].ex.na && rp->res[i].ex.nb)
			text_explained_row(rp, &rp->res[i].ex, rp->res[i].name);
	text_too_wide(rp);
	text_say(rp, "  (measured = 1e9 / median ops/s of A less that of B, without the module; checks =\n"
	    "   the module's net check time per operation, raw less its own backend's calibration\n"
	    "   per check, median over boots; ratio 1: the checks' own time is the whole difference;\n"
	    "   %sone operation:", rp->nseeds ? "by seed: over seed pairs, resampled together; " : "");
	for (i = 0, any = 0; i < rp->nres; i++)
		if (rp->res[i].ex.op && (i == 0 || rp->res[i].ex.op != rp->res[i - 1].ex.op))
			text_say(rp, "%s%s%s = %s", any++ ? "; " : " ", rp->res[i].ex.op->name,
			    rp->res[i].ex.op->per_vmas ? "-N" : "", rp->res[i].ex.op->what);
	text_say(rp, ")\n");
}

/* How A was chosen, where the user did not say it: the sign of every delta hangs on it. */
static void text_choice(const struct report *rp, const struct ab_choice *c, const char *first)
{
	if (c->how == AB_NAMED && strcmp(c->a, first))
		text_say(rp, "note: A = %s, the release named as the pre-series one, though the first boot was of %s; "
		    "--baseline RELEASE says otherwise\n", c->a, first);
	else if (c->how == AB_FIRST)
		text_say(rp, "note: A = %s, the first boot's release: no release here is named as the pre-series "
		    "one (\"preseries\" in its name); if %s is not the kernel before the series, give "
		    "--baseline RELEASE (the pre-series release) and every delta turns round\n", c->a, c->a);
}

static void text_clock(const struct report *rp)
{
	text_say(rp, "clock: %s; the unit: %s%s\n", rp->clk->clock, rp->clk->unit,
	    rp->clk->not_time ? ", and ops/s are operations per 1e9 of them" : "");
	if (rp->clk->not_time)
		text_say(rp, "  what it is not: %s.\n", rp->clk->not_time);
}

static void text_seeds(const struct report *rp)
{
	if (!rp->nseeds_a && !rp->nseeds_b)
		return;
	text_say(rp, "seeds: %d distinct on A, %d on B, %d on both%s\n", rp->nseeds_a, rp->nseeds_b, rp->nseeds,
	    rp->nseeds ? ": the headline is also given paired by seed" : "");
}

/*
 * Who is compared with whom, on what machine and clock, and the warnings:
 * before every table, since they change how each reads.
 */
static void text_intro(const struct report *rp)
{
	const struct record *first = &rp->recs[rp->ia[0]];
	const struct ab_choice *c = &rp->c;
	int i;

	text_say(rp, "mseal-compare report of %s\n", rp->dir);
	text_say(rp, "A = %s (%d boot%s), B = %s (%d boot%s)\n", c->a, rp->na, rp->na == 1 ? "" : "s", c->b, rp->nb,
	    rp->nb == 1 ? "" : "s");
	text_choice(rp, c, c->rels[0]);
	text_say(rp, "machine: %s, %s; governor %s, turbo %s\n", first->cpu, first->arch,
	    first->governor[0] ? first->governor : "not exposed",
	    first->turbo[0] ? first->turbo : "not exposed");
	text_clock(rp);
	text_seeds(rp);
	for (i = 0; i < c->nrel; i++)
		if (strcmp(c->rels[i], c->a) && strcmp(c->rels[i], c->b))
			text_say(rp, "also in the folder, not compared: %s (--baseline and --b choose)\n", c->rels[i]);
	for (i = 0; i < rp->nwarn; i++)
		text_say(rp, "warning: %s\n", rp->warn[i]);
}

void rep_text(struct report *rp)
{
	rp->txt = rep_open(rp->dir, "summary.txt");
	text_intro(rp);
	text_layouts(rp);
	text_headline(rp);
	text_by_seed(rp);
	text_stop_rule(rp);
	text_with_module(rp);
	text_account(rp, "A", rp->c.a, &rp->acc[0]);
	text_account(rp, "B", rp->c.b, &rp->acc[1]);
	text_explained(rp);
	population_check(rp->dir, rp->c.a, rp->c.b, rp->recs, rp->ia, rp->na, rp->ib, rp->nb, rp->txt);
	fclose(rp->txt);
	rp->txt = NULL;
}
