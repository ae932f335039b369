/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stats.h - the per-CPU statistics: one table per CPU, written lock-free
 * by the probe handlers, summed into a snapshot for the report.
 */
#ifndef MSEAL_STATS_STATS_H
#define MSEAL_STATS_STATS_H

#include <linux/err.h>
#include <linux/errno.h>
#include "cell.h"

int ms_stats_init(void);
void ms_stats_exit(void);
/* Account one timed call to cell CELL of this CPU's table. */
void ms_stats_record(unsigned int cell, u64 ns, bool bad, bool error);
/*
 * Account one syscall that returned RET: -EPERM (what a seal refuses) is
 * counted apart from the other errors.  Every syscall side uses this.
 */
static __always_inline void ms_stats_record_syscall(unsigned int cell, u64 ns,
						    unsigned long ret)
{
	bool eperm = (long)ret == -EPERM;

	ms_stats_record(cell, ns, eperm, !eperm && IS_ERR_VALUE(ret));
}
/*
 * Sum every CPU's table into *SNAP: every cell whole, none half-updated;
 * and into *SINCE_NS the time since that generation began (load or reset).
 */
void ms_stats_snapshot(struct ms_table *snap, u64 *since_ns);
/* The same for one cell. */
void ms_stats_cell_sum(unsigned int cell, struct ms_cell *out);
/*
 * Zero every counter (from the next call on, on every CPU) and restart the
 * report's "since load or reset"; under ms_control_lock.  The end of init
 * resets too (control.c).
 */
void ms_stats_reset(void);
/* Changes at every reset: a sum taken across one is not a difference. */
unsigned long ms_stats_generation(void);

#endif /* MSEAL_STATS_STATS_H */
