/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The clock the records were timed by, and so the unit of every figure of
 * the report: the wall clock (real machines, the test bed by default), or
 * QEMU's instruction clock (-icount shift=0: guest time advances 1 ns per
 * guest instruction, testbed/vm-run --clock icount), where a "ns" is one
 * guest instruction and an "ops/s" is operations per 1e9 of them.
 */
#ifndef CLOCK_H
#define CLOCK_H

#include <stddef.h>

#include "records.h"

struct clock_unit {
	const char *clock;	/* as meta.json names it */
	const char *unit;	/* of the per-operation figures, in words */
	const char *per_op;	/* their short label in tables */
	const char *not_time;	/* what the unit is not, said once; NULL: nothing to say */
};

/*
 * The clock of the records idx[] (all of A and B); NULL, with a reason in
 * err, when they mix clocks or name one this report does not know.
 */
const struct clock_unit *clock_of_records(const struct record *recs, const int *idx, int n,
					  char *err, size_t errlen);

#endif
