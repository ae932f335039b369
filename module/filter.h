/* SPDX-License-Identifier: GPL-2.0 */
/*
 * filter.h - which tasks are counted: module parameters tgid and comm.
 */
#ifndef MSEAL_STATS_FILTER_H
#define MSEAL_STATS_FILTER_H

#include <linux/compiler.h>
#include <linux/sched.h>
#include <linux/types.h>

struct ms_filter {
	int tgid;			/* 0: every process */
	char comm[TASK_COMM_LEN];	/* "": every command */
};

/*
 * Is a filter set (tgid or comm)?  Written with the filter, under its
 * seqlock; read alone, with READ_ONCE, by the handlers: in the common
 * unfiltered case the filter test is one load of a read-mostly word that no
 * CPU writes, and no seqlock copy.  A handler racing with a change of the
 * filter sees the old or the new one, as if it had run before or after it.
 */
extern bool ms_filter_active;
bool ms_filter_pass_slow(void);

/* Does current pass the filter?  Safe in probe handlers. */
static __always_inline bool ms_filter_pass(void)
{
	if (likely(!READ_ONCE(ms_filter_active)))
		return true;
	return ms_filter_pass_slow();
}
/* A consistent copy of the filter, for the report. */
void ms_filter_get(struct ms_filter *f);
/* maxactive as set at load (0: automatic), resolved. */
int ms_maxactive(void);

#endif /* MSEAL_STATS_FILTER_H */
