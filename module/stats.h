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

/*
 * Each CPU's table (stats.c), for the inline writers below: a per-CPU
 * pointer, one load from the CPU's own area, to a table of the CPU's node
 * (over alloc_percpu()'s 32 KiB unit since the histogram has a bucket per
 * bit, cell.h); and the generation.
 */
DECLARE_PER_CPU(struct ms_cpu_table *, ms_ctab);
extern unsigned long ms_gen;

/*
 * The first call into a cell in this generation (stats.c): the cell is
 * zeroed, then the call added, out of line (a handler that inlined the
 * memset would save registers for it on every call).
 */
void ms_stats_record_new(unsigned int cell, u64 ns, bool bad, bool error);

/*
 * Account one timed call to cell CELL of this CPU's table, inline in each
 * handler: the caller is in task context (the check handlers test it at
 * entry; a syscall's tracepoints and wrappers are), so no writer nests in
 * another on this CPU; preemption off keeps the task on it.  A cell of an
 * older generation goes to ms_stats_record_new(), which looks again on
 * whichever CPU the task is then (only this CPU's writer changes a
 * cell's generation, so the test needs no seqcount).  In a caller that
 * does nothing after it, that is a tail call.
 */
static __always_inline void ms_stats_record(unsigned int cell, u64 ns, bool bad, bool error)
{
	unsigned long gen = READ_ONCE(ms_gen);
	struct ms_cpu_table *ct;
	struct ms_cell *c;

	preempt_disable_notrace();
	ct = __this_cpu_read(ms_ctab);
	if (unlikely(ct->t.gen[cell] != gen)) {
		preempt_enable_notrace();
		ms_stats_record_new(cell, ns, bad, error);
		return;
	}
	c = &ct->t.table.cell[cell];
	/* One address for every field (GCC recomputed it for each). */
	OPTIMIZER_HIDE_VAR(c);
	raw_write_seqcount_begin(&ct->seq);
	ms_cell_add(c, ns, bad, error);
	raw_write_seqcount_end(&ct->seq);
	preempt_enable_notrace();
}

/*
 * The uncommon outcomes out of line (stats.c): a refused check, a syscall
 * that failed.  The common one then records with constant flags, which
 * the compiler folds away: no setcc and add per flag on every call.
 */
void ms_stats_record_refused(unsigned int cell, u64 ns);
void ms_stats_record_failed(unsigned int cell, u64 ns, unsigned long ret);

/* A check: refused or not, never an error. */
static __always_inline void ms_stats_record_check(unsigned int cell, u64 ns, bool refused)
{
	if (unlikely(refused)) {
		ms_stats_record_refused(cell, ns);
		return;
	}
	ms_stats_record(cell, ns, false, false);
}

/*
 * Account one syscall that returned RET: -EPERM (what a seal refuses) is
 * counted apart from the other errors (ms_stats_record_failed()).  Every
 * syscall side uses this.
 */
static __always_inline void ms_stats_record_syscall(unsigned int cell, u64 ns,
						    unsigned long ret)
{
	if (IS_ERR_VALUE(ret)) {
		ms_stats_record_failed(cell, ns, ret);
		return;
	}
	ms_stats_record(cell, ns, false, false);
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
