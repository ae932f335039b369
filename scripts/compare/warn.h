/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What makes a comparison of boot records doubtful, each said with what to
 * do instead: too few boots, records of different machines, CPU settings
 * or record options, a busy start, a frequency governor other than
 * performance, turbo on (each with what the loop asked for, where it
 * asked), CPU settings the kernel refused, boots that did not alternate.  The report still
 * reports.
 */
#ifndef WARN_H
#define WARN_H

#include "records.h"

#define WARN_MAX 16
#define WARN_LEN 512
#define WARN_MIN_BOOTS 5

/*
 * A busy start: the 1-minute load average at the record's start above
 * this many runnable tasks per CPU.  At 0.5 half the CPUs were taken on
 * average over the minute before the runs, so a benchmark thread has even
 * odds of sharing its core, its caches or the package's power budget with
 * other work.  An idle machine sits near 0 (the test bed's guests start
 * at 0.00), while a boot's own start-up (one task at a time) stays below
 * it on any machine of two or more CPUs.  The 1-minute figure because it is the one about
 * the start; the 5- and 15-minute ones still carry the boot itself.
 */
#define WARN_BUSY_PER_CPU 0.5

/* The warnings for the boots ia[] of A and ib[] of B (in time order); how many. */
int warn_compare(const struct record *recs, const int *ia, int na, const int *ib, int nb,
		 char out[WARN_MAX][WARN_LEN]);

/* Per record, for summary.json's lists: each condition the warnings count. */
int warn_busy(const struct record *r);
int warn_governor_other(const struct record *r);
int warn_turbo_on(const struct record *r);
int warn_settings_refused(const struct record *r);
int warn_options_differ(const struct record *first, const struct record *r);

#endif
