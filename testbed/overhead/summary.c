// SPDX-License-Identifier: GPL-2.0
/*
 * summary.c: mseal-overhead's table.  Reads the runs (one per line:
 * kernel, instrument, workload, round, median ops/s; tab or space
 * separated) and prints, per kernel and workload, each instrument's ops/s
 * as a ratio to the uninstrumented run ("none") of the same round: the
 * median ratio over rounds, its range, the slowdown in percent, and the
 * time the instrument adds to one operation (1e9/ops - 1e9/ops of "none",
 * per round, median): divided by the probed calls an operation makes, the
 * cost of one probed call.  Pairing by round cancels the drift that a long
 * guest run has.
 *
 *   mseal-overhead-summary RUNS.tsv
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../../scripts/lib/cmpstats.h"

#define MAX_RUNS	8192
#define MAX_NAMES	64
#define NAME_LEN	64

struct run {
	char kernel[NAME_LEN], inst[NAME_LEN], wl[NAME_LEN];
	int round;
	double ops;
};

static struct run runs[MAX_RUNS];
static size_t nruns;

/* Distinct values of one field, in order of first appearance. */
struct names {
	char v[MAX_NAMES][NAME_LEN];
	size_t n;
};

static void names_add(struct names *s, const char *v)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (!strcmp(s->v[i], v))
			return;
	if (s->n < MAX_NAMES)
		snprintf(s->v[s->n++], NAME_LEN, "%s", v);
}

static const struct run *find(const char *k, const char *inst, const char *wl, int round)
{
	size_t i;

	for (i = 0; i < nruns; i++)
		if (runs[i].round == round && !strcmp(runs[i].kernel, k) &&
		    !strcmp(runs[i].inst, inst) && !strcmp(runs[i].wl, wl))
			return &runs[i];
	return NULL;
}

/*
 * Ratios inst/none per round, inst's ops/s, and the ns inst adds to one
 * operation (ADDED, may be NULL); returns how many rounds.
 */
static size_t ratios(const char *k, const char *inst, const char *wl,
		     double *ratio, double *ops, double *added)
{
	size_t i, n = 0;

	for (i = 0; i < nruns; i++) {
		const struct run *r = &runs[i], *base;

		if (strcmp(r->kernel, k) || strcmp(r->inst, inst) || strcmp(r->wl, wl))
			continue;
		base = find(k, "none", wl, r->round);
		if (!base || base->ops <= 0)
			continue;
		ratio[n] = r->ops / base->ops;
		ops[n] = r->ops;
		if (added)
			added[n] = r->ops > 0 ? 1e9 / r->ops - 1e9 / base->ops : 0;
		n++;
	}
	return n;
}

int main(int argc, char **argv)
{
	static double ratio[MAX_RUNS], ops[MAX_RUNS], added[MAX_RUNS];
	struct names kernels = { 0 }, insts = { 0 }, wls = { 0 };
	char line[512];
	size_t k, w, i;
	FILE *f;

	if (argc != 2) {
		fprintf(stderr, "usage: %s RUNS.tsv\n", argv[0]);
		return 2;
	}
	f = fopen(argv[1], "r");
	if (!f) {
		perror(argv[1]);
		return 1;
	}
	while (fgets(line, sizeof(line), f) && nruns < MAX_RUNS) {
		struct run *r = &runs[nruns];

		if (sscanf(line, "%63s %63s %63s %d %lf", r->kernel, r->inst, r->wl,
			   &r->round, &r->ops) != 5)
			continue;
		names_add(&kernels, r->kernel);
		names_add(&insts, r->inst);
		names_add(&wls, r->wl);
		nruns++;
	}
	fclose(f);

	for (k = 0; k < kernels.n; k++) {
		for (w = 0; w < wls.n; w++) {
			const char *kn = kernels.v[k], *wn = wls.v[w];
			double slow_mod = -1, slow_bt = -1, slow_bk = -1, slow_ft = -1;
			size_t n = ratios(kn, "none", wn, ratio, ops, NULL);

			if (!n)
				continue;
			printf("%s, %s: no instrument %.0f ops/s (median of %zu rounds)\n",
			       kn, wn, cmp_median(ops, n), n);
			printf("  %-20s %12s %8s %17s %9s %12s\n", "instrument", "ops/s", "ratio",
			       "ratio min..max", "slowdown", "ns/op added");
			for (i = 0; i < insts.n; i++) {
				const char *in = insts.v[i];
				double med, slow;

				if (!strcmp(in, "none"))
					continue;
				n = ratios(kn, in, wn, ratio, ops, added);
				if (!n)
					continue;
				med = cmp_median(ratio, n);	/* sorts ratio */
				slow = 100.0 * (1.0 - med);
				printf("  %-20s %12.0f %8.3f %8.3f..%-8.3f %8.1f%% %12.0f\n", in,
				       cmp_median(ops, n), med, ratio[0], ratio[n - 1], slow,
				       cmp_median(added, n));
				if (!strcmp(in, "mod-all"))
					slow_mod = slow;
				else if (!strcmp(in, "bpftrace"))
					slow_bt = slow;
				else if (!strcmp(in, "bpftrace-kfunc"))
					slow_bk = slow;
				else if (!strcmp(in, "ftrace-profile"))
					slow_ft = slow;
			}
			if (slow_mod >= 0 && slow_bt > 0)
				printf("  module (mod-all) slowdown / bpftrace's: %.2f\n", slow_mod / slow_bt);
			if (slow_mod >= 0 && slow_bk > 0)
				printf("  module (mod-all) slowdown / bpftrace kfunc's: %.2f\n", slow_mod / slow_bk);
			if (slow_mod >= 0 && slow_ft > 0)
				printf("  module (mod-all) slowdown / ftrace profiler's: %.2f\n", slow_mod / slow_ft);
			printf("\n");
		}
	}
	return 0;
}
