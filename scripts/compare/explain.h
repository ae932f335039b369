/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Does the module's account of the seal checks explain the difference the
 * kernels show without it?  Per workload whose operation is known: the
 * measured per-operation difference (no module), the module's net check
 * time per operation on each kernel, their ratio and its bootstrap
 * interval over boots.
 */
#ifndef EXPLAIN_H
#define EXPLAIN_H

#include "../lib/workloads.h"
#include "records.h"

struct explained {
	const struct msw_workload *op;	/* NULL: the module does not count its operations */
	int na, nb;			/* boots with both phases */
	double measured_ns;		/* 1e9 / median ops/s of A less B, without the module */
	double check_a, check_b;	/* median net check ns per operation, with it */
	double ratio, lo, hi;		/* (check_a - check_b) / measured_ns, 95 % CI (NaN: one boot) */
	int too_wide;			/* the interval says nothing */
	struct {			/* the same over seed pairs (seeds.h); n 0: not paired */
		int n;
		double ratio, lo, hi;
	} by_seed;
};

/*
 * The explanation of workload NAME over the boots ia[] of A and ib[] of B;
 * by_seed too over the ns seeds[] booted on both (none: ns 0).
 */
void explain(const struct record *recs, const int *ia, int na, const int *ib, int nb,
	     const long long *seeds, int ns, const char *name, struct explained *out);

#endif
