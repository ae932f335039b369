// SPDX-License-Identifier: GPL-2.0
/*
 * summary.c - the memory clock's A/B table (testbed/mseal-memclock):
 *
 *   memclock-summary [--cpi C] [--penalties L2,LLC,MEM] RUNS.tsv
 *
 * RUNS.tsv has a line per measured run: kernel (A or B), boot, workload,
 * layout, operations, then the plugin's window: instructions, I/O
 * accesses, and accesses and misses of L1I, L1D, L2 and the LLC, and the
 * checks' counts ("-" where none were looked for).  For each workload and
 * kernel it prints the medians per operation over the runs, and B against A, paired by layout (the same seeded layout on
 * both kernels), for instructions and for modelled cycles:
 *
 *   cycles = C * instructions + (L2 hits) * L2 + (LLC hits) * LLC
 *            + (LLC misses) * MEM
 *
 * An L1 hit costs nothing beyond its instruction; every L1 miss is an L2
 * access.  Where the runs carry the seal checks' own counts (the plugin's
 * fn=: the checks with what they call), the account follows: the checks'
 * cost A - B against the gap A - B, in instructions and in cycles, with
 * a 95 % interval from resampling the layout pairs.  The defaults (C 1, 12, 50 and 250 cycles) are those of a
 * current x86 server core at about 3 GHz, less an L1 hit: L2 about 16
 * cycles to use, the LLC about 60, memory about 85 ns.  They are a model,
 * not a machine: the table is printed in instructions and misses too, so
 * any other weights can be put on the same counts.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../scripts/lib/cmpstats.h"

#define MAX_RUNS 4096

struct run {
	char kernel[8], wl[32];
	long boot, layout;
	double ops, insns, io, acc[4], miss[4];	/* L1I, L1D, L2, LLC */
	int has_fn;
	/* inside the checks: entries, instructions, L1, L2 and LLC misses */
	double fn_calls, fn_insns, fn_miss[3];
};

static struct run runs[MAX_RUNS];
static size_t nruns;
static double cpi = 1, pen_l2 = 12, pen_llc = 50, pen_mem = 250;

static double cycles(const struct run *r)
{
	return cpi * r->insns + (r->acc[2] - r->miss[2]) * pen_l2 +
	       (r->acc[3] - r->miss[3]) * pen_llc + r->miss[3] * pen_mem;
}

/* The checks' modelled cycles, as cycles() counts the whole run's. */
static double fn_cycles(const struct run *r)
{
	return cpi * r->fn_insns + (r->fn_miss[0] - r->fn_miss[1]) * pen_l2 +
	       (r->fn_miss[1] - r->fn_miss[2]) * pen_llc + r->fn_miss[2] * pen_mem;
}

/*
 * (mean(ca) - mean(cb)) / (mean(ga) - mean(gb)) over n pairs, and its 95 %
 * percentile interval over 2000 resamplings of the pairs (a fixed seed:
 * the same runs print the same interval).
 */
static void account(const double *ca, const double *cb, const double *ga, const double *gb,
		    size_t n, double *ratio, double *lo, double *hi)
{
	static double r[2000];
	uint64_t x = 0x9e3779b97f4a7c15ull;
	size_t k, i, j;

	for (k = 0; k <= 2000; k++) {
		double sc = 0, sg = 0;

		for (i = 0; i < n; i++) {
			j = i;
			if (k < 2000) {
				x ^= x << 13; x ^= x >> 7; x ^= x << 17;
				j = (size_t)(x % n);
			}
			sc += ca[j] - cb[j];
			sg += ga[j] - gb[j];
		}
		if (k < 2000)
			r[k] = sc / sg;
		else
			*ratio = sc / sg;
	}
	cmp_sort(r, 2000);
	*lo = cmp_quantile(r, 2000, 0.025);
	*hi = cmp_quantile(r, 2000, 0.975);
}

/* B's run in A's layout and boot, or NULL. */
static const struct run *partner(const struct run *a)
{
	size_t i;

	for (i = 0; i < nruns; i++)
		if (!strcmp(runs[i].kernel, "B") && !strcmp(runs[i].wl, a->wl) &&
		    runs[i].layout == a->layout && runs[i].boot == a->boot)
			return &runs[i];
	return NULL;
}

/* The median of n values, the values left in their order (pairs stay pairs). */
static double med(const double *v, size_t n)
{
	static double copy[MAX_RUNS];

	memcpy(copy, v, n * sizeof(*v));
	return cmp_median(copy, n);
}

static double mean(const double *v, size_t n)
{
	double s = 0;
	size_t i;

	for (i = 0; i < n; i++)
		s += v[i];
	return n ? s / (double)n : NAN;
}

static void workload(const char *wl)
{
	static double a[6][MAX_RUNS], b[6][MAX_RUNS], fa[3][MAX_RUNS], fb[3][MAX_RUNS];
	static const char *const what[6] = { "insns", "L1I miss", "L1D miss", "L2 miss",
					      "LLC miss", "cycles" };
	struct cmp_ab ci, cc;
	size_t i, n = 0, k;
	int fn = 1;
	double ratio, lo, hi;

	for (i = 0; i < nruns; i++) {
		const struct run *ra = &runs[i], *rb;

		if (strcmp(ra->kernel, "A") || strcmp(ra->wl, wl) || ra->ops <= 0)
			continue;
		rb = partner(ra);
		if (!rb || rb->ops <= 0)
			continue;
		a[0][n] = ra->insns / ra->ops;
		b[0][n] = rb->insns / rb->ops;
		for (k = 0; k < 4; k++) {
			a[k + 1][n] = ra->miss[k] / ra->ops;
			b[k + 1][n] = rb->miss[k] / rb->ops;
		}
		a[5][n] = cycles(ra) / ra->ops;
		b[5][n] = cycles(rb) / rb->ops;
		fn &= ra->has_fn && rb->has_fn;
		fa[0][n] = ra->fn_calls / ra->ops;
		fb[0][n] = rb->fn_calls / rb->ops;
		fa[1][n] = ra->fn_insns / ra->ops;
		fb[1][n] = rb->fn_insns / rb->ops;
		fa[2][n] = fn_cycles(ra) / ra->ops;
		fb[2][n] = fn_cycles(rb) / rb->ops;
		n++;
	}
	printf("%s: %zu layouts run on both kernels; per operation, medians over layouts\n", wl, n);
	if (n < 2) {
		printf("  (too few for a comparison)\n\n");
		return;
	}
	printf("  %-9s %12s %12s %9s\n", "", "A", "B", "B - A");
	for (k = 0; k < 6; k++)
		printf("  %-9s %12.1f %12.1f %+9.1f\n", what[k], med(a[k], n), med(b[k], n),
		       med(b[k], n) - med(a[k], n));
	cmp_compare_paired(a[0], b[0], n, &ci);
	cmp_compare_paired(a[5], b[5], n, &cc);
	printf("  B against A, the medians' ratio, 95 %% interval over the layout pairs\n"
	       "  (resampled as independent, though they come in boots):\n");
	printf("    instructions %+6.2f %% [%+.2f, %+.2f]\n", ci.delta_pct, ci.lo, ci.hi);
	printf("    cycles       %+6.2f %% [%+.2f, %+.2f]", cc.delta_pct, cc.lo, cc.hi);
	if (ci.delta_pct != 0)
		printf("  (%.2f of the instructions' change)", cc.delta_pct / ci.delta_pct);
	printf("\n");
	if (!fn) {
		printf("\n");
		return;
	}
	printf("  the seal checks (with what they call), per operation, means:\n");
	printf("  %-9s %12.2f %12.2f\n", "calls", mean(fa[0], n), mean(fb[0], n));
	printf("  %-9s %12.1f %12.1f %+9.1f\n", "insns", mean(fa[1], n), mean(fb[1], n),
	       mean(fb[1], n) - mean(fa[1], n));
	printf("  %-9s %12.1f %12.1f %+9.1f\n", "cycles", mean(fa[2], n), mean(fb[2], n),
	       mean(fb[2], n) - mean(fa[2], n));
	printf("  account, checks A - B against the gap A - B (1: the checks are the gap):\n");
	account(fa[1], fb[1], a[0], b[0], n, &ratio, &lo, &hi);
	printf("    instructions %6.2f [%.2f, %.2f]%s\n", ratio, lo, hi,
	       ci.lo <= 0 && ci.hi >= 0 ? "  (the gap's interval holds 0: no ratio to read)" : "");
	account(fa[2], fb[2], a[5], b[5], n, &ratio, &lo, &hi);
	printf("    cycles       %6.2f [%.2f, %.2f]%s\n\n", ratio, lo, hi,
	       cc.lo <= 0 && cc.hi >= 0 ? "  (the gap's interval holds 0: no ratio to read)" : "");
}

static int load(const char *path)
{
	char line[1024];
	FILE *f = fopen(path, "r");
	int got;

	if (!f) {
		perror(path);
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		struct run *r = &runs[nruns];

		if (line[0] == '#')
			continue;
		if (nruns == MAX_RUNS) {
			fprintf(stderr, "memclock-summary: more than %d runs\n", MAX_RUNS);
			fclose(f);
			return -1;
		}
		got = sscanf(line, "%7s %ld %31s %ld %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf"
			     " %lf %lf %lf %lf %lf",
			     r->kernel, &r->boot, r->wl, &r->layout, &r->ops, &r->insns, &r->io,
			     &r->acc[0], &r->miss[0], &r->acc[1], &r->miss[1], &r->acc[2],
			     &r->miss[2], &r->acc[3], &r->miss[3], &r->fn_calls, &r->fn_insns,
			     &r->fn_miss[0], &r->fn_miss[1], &r->fn_miss[2]);
		r->has_fn = got == 20;
		if (got != 15 && got != 20) {
			fprintf(stderr, "memclock-summary: %s: not a run: %s", path, line);
			fclose(f);
			return -1;
		}
		nruns++;
	}
	fclose(f);
	return 0;
}

int main(int argc, char **argv)
{
	char seen[16][32];
	size_t nseen = 0, i, j;
	int a;

	for (a = 1; a < argc - 1; a++) {
		if (!strcmp(argv[a], "--cpi") && a + 1 < argc - 1) {
			char *end;

			cpi = strtod(argv[++a], &end);
			if (*end || !(cpi > 0))
				goto usage;
		} else if (!strcmp(argv[a], "--penalties") && a + 1 < argc - 1) {
			if (sscanf(argv[++a], "%lf,%lf,%lf", &pen_l2, &pen_llc, &pen_mem) != 3)
				goto usage;
		} else {
			goto usage;
		}
	}
	if (a != argc - 1)
		goto usage;
	if (load(argv[a]))
		return 1;
	printf("modelled cycles = %g * instructions + L2 hits * %g + LLC hits * %g + LLC misses * %g\n\n",
	       cpi, pen_l2, pen_llc, pen_mem);
	for (i = 0; i < nruns; i++) {
		for (j = 0; j < nseen && strcmp(seen[j], runs[i].wl); j++)
			;
		if (j < nseen)
			continue;
		if (nseen == 16) {
			fprintf(stderr, "memclock-summary: more than 16 workloads: %s and later left out\n",
				runs[i].wl);
			break;
		}
		strcpy(seen[nseen++], runs[i].wl);
		workload(runs[i].wl);
	}
	return 0;
usage:
	fprintf(stderr, "usage: memclock-summary [--cpi C] [--penalties L2,LLC,MEM] RUNS.tsv\n");
	return 2;
}
