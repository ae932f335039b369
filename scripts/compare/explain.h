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

#include "records.h"

/* What one operation of a workload is, in syscalls. */
struct op_def {
	const char *name;	/* the workload; with a trailing '-' a prefix (munmap-vmas-NNN) */
	const char *counted_by;	/* the syscall that counts operations */
	double calls_per_op;	/* of that syscall */
	const char *sys[3];	/* the syscalls whose checks belong to the operation */
	const char *what;	/* in words */
};

struct explained {
	const struct op_def *op;	/* NULL: the workload's operation is not known */
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

/* The operation of workload NAME, or NULL. */
const struct op_def *explain_op(const char *name);

/* Net check ns per operation in a boot's module reports of op; NaN when none counted. */
double explain_check_ns_per_op(const struct op_def *op, const struct acct *a);

/*
 * The explanation of workload NAME over the boots ia[] of A and ib[] of B;
 * by_seed too over the ns seeds[] booted on both (none: ns 0).
 */
void explain(const struct record *recs, const int *ia, int na, const int *ib, int nb,
	     const long long *seeds, int ns, const char *name, struct explained *out);

#endif
