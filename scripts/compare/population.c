// SPDX-License-Identifier: GPL-2.0
/* The population check, seeded layouts against ASLR's: see population.h. */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "clock.h"
#include "headline.h"
#include "layouts.h"
#include "population.h"

#define POP_MAX_RUNS (REC_MAX * 4)

static struct record arecs[REC_MAX];	/* DIR/aslr/'s */
static FILE *out;

static void say(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	if (out) {
		va_start(ap, fmt);
		vfprintf(out, fmt, ap);
		va_end(ap);
	}
}

/* One kernel's runs of a workload without the module, each with its boot (seed). */
struct pop {
	double v[POP_MAX_RUNS];
	long long boot[POP_MAX_RUNS];
	size_t n;
	int seeded;	/* every run in a seeded layout */
	int aslr;	/* every run in the kernel's own layout */
};

static void gather(const struct record *recs, const int *idx, int n, const char *wl, struct pop *p)
{
	int i, r;

	p->n = 0;
	p->seeded = p->aslr = 1;
	for (i = 0; i < n; i++) {
		const struct boot_wl *w = rec_wl(&recs[idx[i]], wl);

		for (r = 0; w && r < w->nrun[0] && p->n < POP_MAX_RUNS; r++) {
			if (isnan(w->run[0][r].ops))
				continue;
			p->v[p->n] = w->run[0][r].ops;
			p->boot[p->n++] = recs[idx[i]].seed != REC_NO_SEED ? recs[idx[i]].seed : -1 - i;
			if (w->run[0][r].layout)
				p->aslr = 0;
			else
				p->seeded = 0;
		}
	}
}

/* The mean of p with its 95 % interval over layouts and boots (layouts.h). */
static void mean_ci(const struct pop *p, struct lay_ci *c)
{
	static const double one[2] = { 1, 1 };
	static const long long two[2] = { 1, 2 };
	struct lay_side a = { p->v, NULL, p->boot, p->n };
	struct lay_side b = { NULL, one, two, 2 };

	/* mean(v) / 1, the constant side adding nothing to the variance. */
	lay_ratio(&a, &b, 0, c);
}

static int by_value(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a > b) - (a < b);
}

/*
 * Two-sample Kolmogorov-Smirnov: D = sup |F_s - F_r|, p from the
 * asymptotic Kolmogorov distribution with Stephens' small-sample factor
 * (Numerical Recipes' probks).
 */
static void ks_test(const struct pop *s, const struct pop *r, double *d, double *p)
{
	static double x[POP_MAX_RUNS], y[POP_MAX_RUNS];
	size_t i = 0, j = 0, k;
	double ne, lam, sum = 0, sign = 1, term;

	memcpy(x, s->v, s->n * sizeof(*x));
	memcpy(y, r->v, r->n * sizeof(*y));
	qsort(x, s->n, sizeof(*x), by_value);
	qsort(y, r->n, sizeof(*y), by_value);
	*d = 0;
	while (i < s->n && j < r->n) {
		double t = x[i] <= y[j] ? x[i] : y[j], f;

		while (i < s->n && x[i] <= t)
			i++;
		while (j < r->n && y[j] <= t)
			j++;
		f = fabs((double)i / s->n - (double)j / r->n);
		if (f > *d)
			*d = f;
	}
	ne = (double)s->n * r->n / (s->n + r->n);
	lam = (sqrt(ne) + 0.12 + 0.11 / sqrt(ne)) * *d;
	for (k = 1; k <= 100; k++) {
		term = sign * 2 * exp(-2 * lam * lam * (double)(k * k));
		sum += term;
		if (fabs(term) < 1e-10)
			break;
		sign = -sign;
	}
	*p = lam < 0.2 ? 1.0 : fmin(1.0, fmax(0.0, sum));
}

static const char *ci(char *buf, size_t len, const struct lay_ci *c, const char *fmt)
{
	char lo[32], hi[32];

	if (isnan(c->lo)) {
		snprintf(buf, len, "-");
		return buf;
	}
	snprintf(lo, sizeof(lo), fmt, c->lo);
	snprintf(hi, sizeof(hi), fmt, c->hi);
	snprintf(buf, len, "[%s, %s]", lo, hi);
	return buf;
}

/* One kernel's row; returns 1 when the means are apart beyond their intervals. */
static int kernel_row(const char *wl, const char *kname, const struct pop *s, const struct pop *r)
{
	struct lay_ci ms, mr, q;
	struct lay_side a = { s->v, NULL, s->boot, s->n };
	struct lay_side b = { NULL, r->v, r->boot, r->n };
	char b1[64], b2[64], b3[64];
	double d, p;
	int apart;

	mean_ci(s, &ms);
	mean_ci(r, &mr);
	lay_ratio(&a, &b, 0, &q);
	ks_test(s, r, &d, &p);
	apart = !isnan(q.lo) && (q.lo > 1 || q.hi < 1);
	say("  %-16s %-3s %4zu %4zu %9.0f %-20s %9.0f %-20s %7.4f %-18s %5.2f %6.3f%s\n", wl, kname,
	    s->n, r->n, ms.q, ci(b1, sizeof(b1), &ms, "%.0f"), mr.q, ci(b2, sizeof(b2), &mr, "%.0f"),
	    q.q, ci(b3, sizeof(b3), &q, "%.4f"), d, p, apart ? "  apart" : "");
	return apart;
}

static void split(const struct record *recs, int n, const char *rel, int *idx, int *k)
{
	int i;

	*k = 0;
	for (i = 0; i < n; i++)
		if (!strcmp(recs[i].release, rel))
			idx[(*k)++] = i;
}

int population_check(const char *dir, const char *rel_a, const char *rel_b,
		     const struct record *recs, const int *ia, int na, const int *ib, int nb,
		     FILE *txt)
{
	static int ja[REC_MAX], jb[REC_MAX];
	static struct pop s, r;
	static char names[REC_MAX_WL][48];
	char path[4096], err[512], b1[64], b2[64];
	struct stat st;
	int n, ka, kb, i, j, k, nw = 0, apart = 0, rows = 0;

	out = txt;
	snprintf(path, sizeof(path), "%s/aslr", dir);
	if (stat(path, &st) || !S_ISDIR(st.st_mode))
		return 0;
	n = rec_load(path, arecs, REC_MAX, err, sizeof(err));
	if (n < 0) {
		say("\nThe population check: %s not used: %s\n", path, err);
		return -1;
	}
	split(arecs, n, rel_a, ja, &ka);
	split(arecs, n, rel_b, jb, &kb);
	if (!ka || !kb) {
		say("\nThe population check: %s not used: it has no boots of %s\n", path, !ka ? rel_a : rel_b);
		return -1;
	}
	if (clock_of_records(arecs, ja, ka, err, sizeof(err)) != clock_of_records(recs, ia, na, err, sizeof(err))) {
		say("\nThe population check: %s not used: its records are of another clock\n", path);
		return -1;
	}
	for (i = 0; i < na; i++)
		for (j = 0; j < recs[ia[i]].nwl; j++) {
			for (k = 0; k < nw && strcmp(names[k], recs[ia[i]].wl[j].name); k++)
				;
			if (k == nw && nw < REC_MAX_WL)
				snprintf(names[nw++], sizeof(names[0]), "%s", recs[ia[i]].wl[j].name);
		}
	say("\nThe population check: the seeded layouts here (mseal-bench --layout N) against ASLR's\n"
	    "(aslr/: %d and %d boots of the same kernels), runs without the module: mean ops/s with\n"
	    "its 95 %% interval over layouts and boots, the ratio seeded / ASLR with its interval, and\n"
	    "a two-sample Kolmogorov-Smirnov test of the per-run figures (D, p)\n", ka, kb);
	say("  %-16s %-3s %4s %4s %9s %-20s %9s %-20s %7s %-18s %5s %6s\n", "workload", "k", "runs", "aslr",
	    "seeded", "95% CI", "ASLR", "95% CI", "ratio", "95% CI", "D", "p");
	for (i = 0; i < nw; i++) {
		for (k = 0; k < 2; k++) {
			gather(recs, k ? ib : ia, k ? nb : na, names[i], &s);
			gather(arecs, k ? jb : ja, k ? kb : ka, names[i], &r);
			if (!s.n || !r.n || !s.seeded || !r.aslr)
				continue;
			apart += kernel_row(names[i], k ? "B" : "A", &s, &r);
			rows++;
		}
	}
	if (!rows) {
		say("  (no workload has seeded runs here and ASLR's in aslr/ on both kernels)\n");
		return 1;
	}
	say("  %d of %d rows apart beyond their intervals%s\n", apart, rows,
	    apart ? " (\"apart\"): there the seeded layouts are not ASLR's population" : "");
	say("\n  The delta B / A over each population: seeded (paired by layout) and ASLR's (unpaired)\n");
	say("  %-16s %9s %-20s %9s %-20s %9s\n", "workload", "seeded", "95% CI (t)", "ASLR", "95% CI (t)",
	    "apart by");
	for (i = 0; i < nw; i++) {
		struct headline hs, hr;
		struct lay_ci ds, dr;

		headline(recs, ia, na, ib, nb, names[i], &hs);
		headline(arecs, ja, ka, jb, kb, names[i], &hr);
		if (!hs.runs[0] || !hr.runs[0])
			continue;
		ds = hs.delta;
		dr = hr.delta;
		ds.q = 100 * (ds.q - 1), ds.lo = 100 * (ds.lo - 1), ds.hi = 100 * (ds.hi - 1);
		dr.q = 100 * (dr.q - 1), dr.lo = 100 * (dr.lo - 1), dr.hi = 100 * (dr.hi - 1);
		say("  %-16s %+8.2f%% %-20s %+8.2f%% %-20s %+8.2f\n", names[i], ds.q,
		    ci(b1, sizeof(b1), &ds, "%+.2f"), dr.q, ci(b2, sizeof(b2), &dr, "%+.2f"), ds.q - dr.q);
	}
	return 1;
}
