/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mseal-compare-report's state: one struct report holds the records, the
 * choice of A and B and every figure the analysis derives, so that the
 * text, the JSON and the plot data are each a function of it alone.
 *
 *   report.c           the command line, loading, A and B, DIR/matched/
 *   report_analysis.c  the figures per workload (rep_analyse)
 *   report_text.c      summary.txt and stdout (rep_text)
 *   report_json.c      summary.json (rep_json)
 *   report_plot.c      DIR/plot-data/ for plots.gp (rep_plot)
 */
#ifndef REPORT_STATE_H
#define REPORT_STATE_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/cmpstats.h"
#include "choose.h"
#include "clock.h"
#include "explain.h"
#include "headline.h"
#include "records.h"
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

struct report {
	const char *dir;
	struct record recs[REC_MAX];	/* DIR's, in time order */
	int nrecs;
	struct ab_choice c;
	int ia[REC_MAX], ib[REC_MAX], na, nb;	/* the records of A and of B */
	const struct clock_unit *clk;
	long long seeds_a[REC_MAX], seeds_b[REC_MAX], seeds[REC_MAX];
	int nseeds_a, nseeds_b, nseeds;	/* distinct seeds of A, of B, of both */
	struct record mrecs[REC_MAX];	/* DIR/matched/'s */
	int mia[REC_MAX], mib[REC_MAX], mna, mnb;	/* its boots of A and B; none: 0 */
	char warn[WARN_MAX][WARN_LEN];
	int nwarn;
	struct wl_result res[REC_MAX_WL];	/* every workload of A and B, in first-seen order */
	int nres;
	struct acct acc[2];		/* A's and B's module reports, summed */
	FILE *txt;			/* summary.txt, while rep_text writes it */
};

/*
 * DIR/NAME opened for writing.  A failure to is one at run time (DIR not
 * writable: another user's plot-data/), not a usage error: exit 1.
 */
static inline FILE *rep_open(const char *dir, const char *name)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f) {
		fprintf(stderr, "mseal-compare report: cannot write %s: %s\n", path, strerror(errno));
		exit(1);
	}
	return f;
}

/* The workloads of A and B and every figure of each. */
void rep_analyse(struct report *rp);

/* summary.txt, also printed. */
void rep_text(struct report *rp);

/* summary.json. */
void rep_json(const struct report *rp);

/* DIR/plot-data/: boots.dat, medians.dat, deltas.dat, vars.gp. */
void rep_plot(const struct report *rp);

#endif /* REPORT_STATE_H */
