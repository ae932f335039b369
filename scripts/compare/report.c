// SPDX-License-Identifier: GPL-2.0
/*
 * mseal-compare-report: two kernels compared from a folder of boot records
 * (scripts/compare/record), and nothing else: it reads only the folder.
 *
 *   mseal-compare-report DIR [--a RELEASE --b RELEASE]
 *
 * The records are grouped by kernel release; A and B are the first two
 * releases in time order unless --a and --b name them.  Boots are the
 * samples (one boot is not a measurement): each boot gives one value per
 * workload, the median of its runs.  Per workload it gives
 *   - without the module (the headline): median ops/s of A and B over
 *     boots, the delta of B against A, its 95 % bootstrap interval and the
 *     Mann-Whitney p;
 *   - the same with the module loaded, and what watching costs per
 *     operation on each kernel (with less without, paired in each boot);
 *   - the module's account per kernel and syscall;
 *   - the explanation (explain.h): the measured per-operation difference
 *     without the module against the module's net check time per
 *     operation, their ratio and its 95 % interval.
 * Warnings (warn.h) come first.  It writes DIR/summary.txt (also printed),
 * DIR/summary.json and the plots' data in DIR/plot-data/ (for
 * scripts/compare/plots.gp).  Exit status 2 when there are not two kernels
 * to compare.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmpstats.h"
#include "explain.h"
#include "records.h"
#include "warn.h"

struct wl_result {
	char name[48];
	struct cmp_ab wo, w;		/* without and with the module */
	double watch_ns[2], watch_pct[2];	/* A, B: per-op time with less without */
	struct explained ex;
};

static struct record recs[REC_MAX];
static struct wl_result res[REC_MAX_WL];
static int nres;
static FILE *txt;

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
		perror(path);
		exit(2);
	}
	return f;
}

/* The values of workload WL in one phase over the boots idx[]. */
static size_t values(const int *idx, int n, const char *wl, int phase, double *v)
{
	size_t k = 0;
	int i;

	for (i = 0; i < n; i++) {
		const struct boot_wl *w = record_wl(&recs[idx[i]], wl);

		if (w && !isnan(w->ops[phase]))
			v[k++] = w->ops[phase];
	}
	return k;
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
	int i;

	for (i = 0; i < nres; i++) {
		struct wl_result *r = &res[i];
		size_t ka, kb;

		ka = values(ia, na, r->name, 0, a);
		kb = values(ib, nb, r->name, 0, b);
		cmp_compare(a, ka, b, kb, &r->wo);
		ka = values(ia, na, r->name, 1, a);
		kb = values(ib, nb, r->name, 1, b);
		cmp_compare(a, ka, b, kb, &r->w);
		watch_cost(ia, na, r->name, &r->watch_ns[0], &r->watch_pct[0]);
		watch_cost(ib, nb, r->name, &r->watch_ns[1], &r->watch_pct[1]);
		explain(recs, ia, na, ib, nb, r->name, &r->ex);
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

static void text_headline(void)
{
	int i;

	say("\nWithout the module (the headline): median ops/s over boots, B against A\n");
	say("  %-16s %5s %11s %11s %9s %20s %8s\n", "workload", "boots", "A ops/s", "B ops/s",
	    "delta", "95% CI (bootstrap)", "p (M-W)");
	for (i = 0; i < nres; i++)
		ab_row(res[i].name, &res[i].wo, "");
}

static void text_with_module(void)
{
	char extra[96];
	int i, any = 0;

	for (i = 0; i < nres; i++)
		any |= res[i].w.na || res[i].w.nb;
	if (!any) {
		say("\nWith the module: no runs with it (records made with --no-module)\n");
		return;
	}
	say("\nWith the module loaded: the same, and what watching costs per operation\n");
	say("  %-16s %5s %11s %11s %9s %20s %8s  %16s %16s\n", "workload", "boots", "A ops/s",
	    "B ops/s", "delta", "95% CI (bootstrap)", "p (M-W)", "watch A ns (%)", "watch B ns (%)");
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

static void text_explained(void)
{
	int i, any = 0;

	for (i = 0; i < nres; i++)
		any |= res[i].ex.na && res[i].ex.nb;
	if (!any)
		return;
	say("\nDoes the module's account explain the difference? ns per operation\n");
	say("  %-16s %5s %12s %10s %10s %10s %7s %18s\n", "workload", "boots", "measured A-B",
	    "checks A", "checks B", "A-B", "ratio", "95% CI (bootstrap)");
	for (i = 0; i < nres; i++) {
		const struct explained *e = &res[i].ex;
		char ci[48];

		if (!e->na || !e->nb)
			continue;
		if (isnan(e->lo))
			snprintf(ci, sizeof(ci), "-");
		else
			snprintf(ci, sizeof(ci), "[%.2f, %.2f]", e->lo, e->hi);
		say("  %-16s %2d/%-2d %12.0f %10.1f %10.1f %10.1f %7s %18s\n", res[i].name, e->na, e->nb,
		    e->measured_ns, e->check_a, e->check_b, e->check_a - e->check_b,
		    NUM("%.2f", e->ratio), ci);
	}
	too_wide_sentences();
	say("  (measured = 1e9 / median ops/s of A less that of B, without the module; checks =\n"
	    "   the module's net check time per operation, raw less calibration_ns per check,\n"
	    "   median over boots; ratio = (checks A - checks B) / measured: 1 when the checks'\n"
	    "   own time is the whole difference; one operation:");
	for (i = 0, any = 0; i < nres; i++)
		if (res[i].ex.op && (i == 0 || res[i].ex.op != res[i - 1].ex.op))
			say("%s%s%s = %s", any++ ? "; " : " ", res[i].ex.op->name,
			    strchr(res[i].ex.op->name, '-') ? "N" : "", res[i].ex.op->what);
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

static void json_summary(const char *dir, const char *ra, const char *rb, int na, int nb,
			 char warn[WARN_MAX][WARN_LEN], int nwarn, const struct acct acc[2])
{
	FILE *f = open_in(dir, "summary.json");
	int i;

	fprintf(f, "{\"a\": ");
	jstr(f, ra);
	fprintf(f, ", \"b\": ");
	jstr(f, rb);
	fprintf(f, ", \"records\": {\"a\": %d, \"b\": %d},\n \"warnings\": [", na, nb);
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
		fprintf(f, ": {\"boots\": {\"a\": %zu, \"b\": %zu},\n   \"without_module\": {", r->wo.na, r->wo.nb);
		jab(f, &r->wo);
		fprintf(f, "},\n   \"with_module\": ");
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
			fprintf(f, ", \"too_wide\": %s}", e->too_wide ? "true" : "false");
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
	fprintf(stderr, "usage: mseal-compare-report DIR [--a RELEASE --b RELEASE]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	static const char *rels[REC_MAX];
	static int ia[REC_MAX], ib[REC_MAX];
	static char warn[WARN_MAX][WARN_LEN];
	const char *dir = NULL, *ra = NULL, *rb = NULL;
	char err[512];
	struct acct acc[2];
	int n, nrel = 0, na = 0, nb = 0, nwarn, i, j;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--a") && i + 1 < argc)
			ra = argv[++i];
		else if (!strcmp(argv[i], "--b") && i + 1 < argc)
			rb = argv[++i];
		else if (argv[i][0] != '-' && !dir)
			dir = argv[i];
		else
			usage();
	}
	if (!dir || !ra != !rb)
		usage();
	n = records_load(dir, recs, REC_MAX, err, sizeof(err));
	if (n < 0) {
		fprintf(stderr, "mseal-compare report: %s\n", err);
		return 2;
	}
	if (!n) {
		fprintf(stderr, "mseal-compare report: no boot records in %s (folders with a meta.json, "
			"made by mseal-compare record)\n", dir);
		return 2;
	}
	/* Releases in the order of their first boot. */
	for (i = 0; i < n; i++) {
		for (j = 0; j < nrel && strcmp(rels[j], recs[i].release); j++)
			;
		if (j == nrel)
			rels[nrel++] = recs[i].release;
	}
	if (!ra) {
		if (nrel < 2) {
			fprintf(stderr, "mseal-compare report: %s has records of one kernel only (%s, %d boots): "
				"record the other kernel too\n", dir, rels[0], n);
			return 2;
		}
		ra = rels[0];
		rb = rels[1];
	}
	for (i = 0; i < n; i++) {
		if (!strcmp(recs[i].release, ra))
			ia[na++] = i;
		else if (!strcmp(recs[i].release, rb))
			ib[nb++] = i;
	}
	if (!na || !nb || !strcmp(ra, rb)) {
		fprintf(stderr, "mseal-compare report: %s has no records of %s\n", dir, !na ? ra : rb);
		return 2;
	}
	txt = open_in(dir, "summary.txt");
	say("mseal-compare report of %s\n", dir);
	say("A = %s (%d boot%s), B = %s (%d boot%s)\n", ra, na, na == 1 ? "" : "s", rb, nb, nb == 1 ? "" : "s");
	say("machine: %s, %s; governor %s, turbo %s\n", recs[ia[0]].cpu, recs[ia[0]].arch,
	    recs[ia[0]].governor[0] ? recs[ia[0]].governor : "not exposed",
	    recs[ia[0]].turbo[0] ? recs[ia[0]].turbo : "not exposed");
	for (i = 0; i < nrel; i++)
		if (strcmp(rels[i], ra) && strcmp(rels[i], rb))
			say("also in the folder, not compared: %s (--a and --b choose)\n", rels[i]);
	nwarn = compare_warnings(recs, ia, na, ib, nb, warn);
	for (i = 0; i < nwarn; i++)
		say("warning: %s\n", warn[i]);

	workloads(ia, na, ib, nb);
	analyse(ia, na, ib, nb);
	text_headline();
	text_with_module();
	account_sum(ia, na, &acc[0]);
	account_sum(ib, nb, &acc[1]);
	text_account("A", ra, &acc[0]);
	text_account("B", rb, &acc[1]);
	text_explained();
	fclose(txt);
	json_summary(dir, ra, rb, na, nb, warn, nwarn, acc);
	plot_data(dir, ra, rb, ia, na, ib, nb);
	return 0;
}
