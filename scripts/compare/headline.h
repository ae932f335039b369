/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The headline of a comparison, over layouts (layouts.h): every run of a
 * workload without the module is one sample, a boot's runs one cluster.
 * Where both kernels ran the same seeded layouts (mseal-bench --layout N,
 * as the test bed's `mseal-compare vm` does), run i of A and of B pair by
 * layout and what the layout does to both cancels; where they did not (a
 * real machine with ASLR on: each run its own random layout) the runs are
 * two independent samples.  The account against the gap is taken over the
 * same layouts: the runs with the module give the net check time per
 * operation, the runs without it the measured per-operation gap.
 */
#ifndef HEADLINE_H
#define HEADLINE_H

#include "layouts.h"
#include "records.h"

struct headline {
	int paired;		/* layouts matched A to B */
	size_t runs[2];		/* runs of A and of B without the module (pairs: both the pairs) */
	int boots[2];		/* boots they come from */
	double a, b;		/* mean ops/s over them */
	double cv[2];		/* their spread from layout to layout: CV, % */
	double pair_sd;		/* paired: sd of the per-layout deltas, points; NaN: unpaired */
	struct lay_ci delta;	/* b / a with its interval */
	struct lay_ci acct;	/* (checks A - B) / (per-op A - B); n 0: no account;
				 * no interval where the gap's covers 0 */
	struct lay_ci gap;	/* per-op A - B without the module, ns, with its interval */
	double check[2];	/* mean net check ns per operation, A and B */
	double gap_ns;		/* mean ns per operation A less B, without the module */
};

/* The headline of workload WL over the boots ia[] of A and ib[] of B. */
void headline(const struct record *recs, const int *ia, int na, const int *ib, int nb,
	      const char *wl, struct headline *h);

#endif
