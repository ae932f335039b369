/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The workload registry: every workload of mseal-bench, what one of its
 * operations is in syscalls, and whether `mseal-compare record` runs it by
 * default.  The one list of workloads: mseal-bench --list prints it for
 * the shell tools (record, vm, vm-record), report links it.
 *
 * `mseal-bench --list` prints one workload a line, fields separated by a
 * single space, the last one running to the end of the line:
 *	NAME RECORD KIND WHAT
 * RECORD is "default" when record runs it without -w, "-" otherwise; KIND
 * is "ops" (one run, its ops/s) or "vmas" (one run per --vmas count,
 * recorded as NAME-NNN); WHAT is one operation in words.
 */
#ifndef MSEAL_WORKLOADS_H
#define MSEAL_WORKLOADS_H

#include <stdio.h>

struct msw_workload {
	const char *name;
	int in_record;		/* record runs it when -w is not given */
	int per_vmas;		/* one run per VMA count, recorded as NAME-NNN */
	/* The syscall that counts operations (NULL: the module does not see it) ... */
	const char *counted_by;
	double calls_per_op;	/* ... and its calls in one operation */
	const char *sys[3];	/* the syscalls whose seal checks belong to one operation */
	const char *what;	/* one operation, in words */
};

extern const struct msw_workload msw_workloads[];
extern const int msw_count;

/* The workload NAME, or NULL. */
const struct msw_workload *msw_find(const char *name);

/*
 * The workload of a name in a record: NAME itself, or NAME-NNN (digits)
 * of a per_vmas workload; NULL when there is none, or when the module
 * does not count its operations.
 */
const struct msw_workload *msw_counted(const char *recorded);

/* mseal-bench --list: the lines above, in registry order. */
void msw_print_list(FILE *f);

#endif /* MSEAL_WORKLOADS_H */
