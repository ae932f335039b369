/* SPDX-License-Identifier: GPL-2.0 */
/*
 * filter.h - which tasks are counted: module parameters tgid and comm.
 */
#ifndef MSEAL_STATS_FILTER_H
#define MSEAL_STATS_FILTER_H

#include <linux/sched.h>
#include <linux/types.h>

struct ms_filter {
	int tgid;			/* 0: every process */
	char comm[TASK_COMM_LEN];	/* "": every command */
};

/* Does current pass the filter?  Safe in probe handlers. */
bool ms_filter_pass(void);
/* A consistent copy of the filter, for the report. */
void ms_filter_get(struct ms_filter *f);
/* maxactive as set at load (0: automatic), resolved. */
int ms_maxactive(void);

#endif /* MSEAL_STATS_FILTER_H */
