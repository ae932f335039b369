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
 * preseries, else the first boot's, and then the report says so.  Every
 * figure is in the records' clock's unit (clock.h: wall ns, or guest
 * instructions on the instruction clock); records of two clocks are
 * refused.  Per workload, in this order (report.h names the file of each):
 *   - the headline (headline.h): mean ops/s over layouts without the
 *     module, every run a layout of its own, B's delta against A and its
 *     95 % Student's t interval over layouts and boots, and the account
 *     against the gap over the same layouts, and over DIR/matched/'s
 *     seeded layouts (the same on both kernels, so that what a layout
 *     does to both cancels) where that folder holds records;
 *   - over boots: each boot's median of its runs, the medians of A and B,
 *     the 95 % bootstrap interval and the Mann-Whitney p; the same over
 *     seed pairs where seeds were booted on both kernels (seeds.h);
 *   - the stop rule: each kernel's CV over boots and the boots each would
 *     need for +-1 and +-2 points (cmpstats.h, cmp_boots_needed);
 *   - the same with the module loaded, and what watching costs per
 *     operation on each kernel (with less without, paired in each boot);
 *   - the module's account per kernel and syscall;
 *   - the account against the gap over boots (explain.h): (net checks A -
 *     net checks B) / (measured A - B) per operation and its 95 % interval.
 * Warnings (warn.h) come first.  It writes DIR/summary.txt (also printed),
 * DIR/summary.json and the plots' data in DIR/plot-data/ (for
 * scripts/compare/plots.gp).  Exit status 2 when there are not two kernels
 * to compare (or a usage error), 1 when the records mix clocks or a file
 * cannot be written.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "report_state.h"
#include "seeds.h"

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

/* Split the records into A's and B's; refuse records of two clocks. */
static void split(struct report *rp)
{
	static int all[REC_MAX];
	char err[512];
	int i, k = 0;

	rp->na = rp->nb = 0;
	for (i = 0; i < rp->nrecs; i++) {
		if (!strcmp(rp->recs[i].release, rp->c.a))
			rp->ia[rp->na++] = all[k++] = i;
		else if (!strcmp(rp->recs[i].release, rp->c.b))
			rp->ib[rp->nb++] = all[k++] = i;
	}
	rp->clk = clock_of_records(rp->recs, all, k, err, sizeof(err));
	if (!rp->clk)
		die(1, rp->dir, err);
	rp->nseeds_a = seeds_distinct(rp->recs, rp->ia, rp->na, rp->seeds_a);
	rp->nseeds_b = seeds_distinct(rp->recs, rp->ib, rp->nb, rp->seeds_b);
	rp->nseeds = seeds_common(rp->seeds_a, rp->nseeds_a, rp->seeds_b, rp->nseeds_b, rp->seeds);
}

/*
 * DIR/matched/'s records of A and B (rp->mia, rp->mib), where there are any.  A
 * folder that cannot be read, whose records are of another clock or lack
 * a kernel is not used, and why is written to warn (else it is left "").
 */
static void load_matched(struct report *rp, char *warn, size_t len)
{
	const struct ab_choice *c = &rp->c;
	static int all[REC_MAX];
	char path[4096], err[512];
	struct stat st;
	int n, i, k = 0;

	warn[0] = 0;
	snprintf(path, sizeof(path), "%s/matched", rp->dir);
	if (stat(path, &st) || !S_ISDIR(st.st_mode))
		return;
	n = rec_load(path, rp->mrecs, REC_MAX, err, sizeof(err));
	if (n < 0) {
		snprintf(warn, len, "%s not used: %s", path, err);
		return;
	}
	for (i = 0; i < n; i++) {
		if (!strcmp(rp->mrecs[i].release, c->a))
			rp->mia[rp->mna++] = all[k++] = i;
		else if (!strcmp(rp->mrecs[i].release, c->b))
			rp->mib[rp->mnb++] = all[k++] = i;
	}
	if (k && clock_of_records(rp->mrecs, all, k, err, sizeof(err)) != rp->clk) {
		snprintf(warn, len, "%s not used: its records are not all of this folder's clock (%s)",
			 path, rp->clk->clock);
		rp->mna = rp->mnb = 0;
	} else if (!rp->mna || !rp->mnb) {
		snprintf(warn, len, "%s not used: it has no boots of %s", path, !rp->mna ? c->a : c->b);
		rp->mna = rp->mnb = 0;
	}
}

int main(int argc, char **argv)
{
	const char *ra = NULL, *rb = NULL;
	char err[512], mwarn[WARN_LEN];
	struct report *rp = calloc(1, sizeof(*rp));
	int i;

	if (!rp) {
		perror("mseal-compare report");
		return 1;
	}
	for (i = 1; i < argc; i++) {
		if ((!strcmp(argv[i], "--a") || !strcmp(argv[i], "--baseline")) && i + 1 < argc && !ra)
			ra = argv[++i];
		else if (!strcmp(argv[i], "--b") && i + 1 < argc && !rb)
			rb = argv[++i];
		else if (argv[i][0] != '-' && !rp->dir)
			rp->dir = argv[i];
		else
			usage();
	}
	if (!rp->dir)
		usage();
	rp->nrecs = rec_load(rp->dir, rp->recs, REC_MAX, err, sizeof(err));
	if (rp->nrecs < 0) {
		fprintf(stderr, "mseal-compare report: %s\n", err);
		return 2;
	}
	if (!rp->nrecs)
		die(2, rp->dir, "no boot records (folders with a meta.json, made by mseal-compare record)");
	if (choose_ab(rp->recs, rp->nrecs, ra, rb, &rp->c, err, sizeof(err)))
		die(2, rp->dir, err);
	split(rp);
	rp->nwarn = warn_compare(rp->recs, rp->ia, rp->na, rp->ib, rp->nb, rp->warn);
	load_matched(rp, mwarn, sizeof(mwarn));
	if (mwarn[0] && rp->nwarn < WARN_MAX)
		snprintf(rp->warn[rp->nwarn++], WARN_LEN, "%s", mwarn);

	rep_analyse(rp);
	rep_text(rp);
	rep_json(rp);
	rep_plot(rp);
	free(rp);
	return 0;
}
