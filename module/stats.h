/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stats.h - the per-CPU statistics: one table per CPU, written lock-free
 * by the probe handlers, summed into a snapshot for the report.
 */
#ifndef MSEAL_STATS_STATS_H
#define MSEAL_STATS_STATS_H

#include <linux/err.h>
#include <linux/errno.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/seqlock.h>
#include "cell.h"
#include "gentab.h"

int ms_stats_init(void);
void ms_stats_exit(void);
struct ms_cpu_table {
	seqcount_t seq;
	struct ms_gen_table t;
};

/* The tables and the generation (stats.c), for the inline writers below. */
extern struct ms_cpu_table __percpu *ms_pcpu;
extern unsigned long ms_gen;

/*
 * Account one timed call to cell CELL of this CPU's table, inline in each
 * handler: the caller is in task context (the check handlers test it at
 * entry; a syscall's tracepoints and wrappers are), so no writer nests in
 * another on this CPU; preemption off keeps the task on it.
 */
static __always_inline void ms_stats_record(unsigned int cell, u64 ns, bool bad, bool error)
{
	struct ms_cpu_table *ct;

	preempt_disable_notrace();
	ct = this_cpu_ptr(ms_pcpu);
	raw_write_seqcount_begin(&ct->seq);
	ms_gen_add(&ct->t, READ_ONCE(ms_gen), cell, ns, bad, error);
	raw_write_seqcount_end(&ct->seq);
	preempt_enable_notrace();
}

/* A check: refused or not, never an error. */
static __always_inline void ms_stats_record_check(unsigned int cell, u64 ns, bool refused)
{
	ms_stats_record(cell, ns, refused, false);
}
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
