// SPDX-License-Identifier: GPL-2.0
/*
 * mseal-compare-summary: the statistics of an A/B comparison.
 *
 *   mseal-compare-summary RUNS.tsv KERNEL_A KERNEL_B
 *
 * RUNS.tsv has one line per boot and workload:
 *   KERNEL <tab> BOOT <tab> WORKLOAD <tab> OPS_PER_SEC
 * (the median of that boot's seconds).  Boots, not seconds, are the samples:
 * one boot is not a measurement.  For every workload it prints the median
 * ops/s on A and on B, the delta of B against A in %, its 95 % bootstrap
 * confidence interval and the Mann-Whitney p-value, as a table and, with
 * --json, as JSON.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmpstats.h"

#define MAX_ROWS 4096
#define MAX_WL 16
#define ROUNDS 10000

struct row {
	char kernel[128], workload[64];
	double ops;
};

static struct row rows[MAX_ROWS];
static size_t nrows;

static size_t collect(const char *kernel, const char *wl, double *out)
{
	size_t i, n = 0;

	for (i = 0; i < nrows; i++)
		if (!strcmp(rows[i].kernel, kernel) && !strcmp(rows[i].workload, wl))
			out[n++] = rows[i].ops;
	return n;
}

int main(int argc, char **argv)
{
	static double a[MAX_ROWS], b[MAX_ROWS], scratch[2 * MAX_ROWS + ROUNDS];
	char wls[MAX_WL][64], line[512];
	size_t nwl = 0, i, k;
	int json = argc == 5 && !strcmp(argv[4], "--json");
	FILE *f;

	if (argc != 4 && !json) {
		fprintf(stderr, "usage: mseal-compare-summary RUNS.tsv KERNEL_A KERNEL_B [--json]\n");
		return 2;
	}
	f = fopen(argv[1], "r");
	if (!f) {
		perror(argv[1]);
		return 2;
	}
	while (fgets(line, sizeof(line), f) && nrows < MAX_ROWS) {
		struct row *r = &rows[nrows];
		int boot;

		if (sscanf(line, "%127s %d %63s %lf", r->kernel, &boot, r->workload, &r->ops) != 4)
			continue;
		nrows++;
		for (k = 0; k < nwl && strcmp(wls[k], r->workload); k++)
			;
		if (k == nwl && nwl < MAX_WL)
			strcpy(wls[nwl++], r->workload);
	}
	fclose(f);

	if (!json)
		printf("%-16s %5s %12s %12s %8s %20s %9s\n", "workload", "boots",
		       "A ops/s", "B ops/s", "delta", "95% CI (bootstrap)", "p (M-W)");
	else
		printf("{\"a\": \"%s\", \"b\": \"%s\", \"workloads\": {", argv[2], argv[3]);
	for (i = 0; i < nwl; i++) {
		size_t na = collect(argv[2], wls[i], a), nb = collect(argv[3], wls[i], b);
		double ma, mb, lo, hi, p, u, delta;

		if (!na || !nb)
			continue;
		p = cmp_mannwhitney(a, na, b, nb, &u);
		cmp_bootstrap_delta(a, na, b, nb, ROUNDS, 0.95, 0x5eed, scratch, &lo, &hi);
		ma = cmp_median(a, na);
		mb = cmp_median(b, nb);
		delta = 100.0 * (mb / ma - 1.0);
		if (!json)
			printf("%-16s %2zu/%-2zu %12.0f %12.0f %+7.2f%% [%+7.2f%%, %+7.2f%%] %9.4f\n",
			       wls[i], na, nb, ma, mb, delta, lo, hi, p);
		else
			printf("%s\"%s\": {\"boots_a\": %zu, \"boots_b\": %zu, \"median_a\": %.1f, "
			       "\"median_b\": %.1f, \"delta_pct\": %.3f, \"ci95_pct\": [%.3f, %.3f], "
			       "\"mannwhitney_p\": %.6g}", i ? ", " : "", wls[i], na, nb, ma, mb,
			       delta, lo, hi, p);
	}
	if (json)
		printf("}}\n");
	return 0;
}
