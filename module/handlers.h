/* SPDX-License-Identifier: GPL-2.0 */
/*
 * handlers.h - the work every backend's handlers share, inlined into each
 * (kretprobe.c, direct.c; systp.c keeps its own entry time per task).
 *
 * Entry: test the filter first (one load when no filter is set; a call the
 * filter keeps out records nothing and skips the return side), then keep
 * the entry time and the statistics cell to charge in the call's own data
 * (a kretprobe instance, the direct trampoline's stack frame), since the
 * task may sleep or migrate before the return.
 * Return: account the duration and the result to this CPU's table.
 *
 * A check is charged to a row (names.h): "worker" when a kernel-side worker
 * makes it (its user registers name no syscall of its own); else the
 * syscall the tracepoint side saw this task enter, when that side counts
 * (so a check from task_work after sys_exit is not charged to the syscall
 * that just ended); else the syscall number in the task's user registers.
 * A listed syscall's row, or "other".
 *
 * The hot path writes nothing shared between CPUs: the per-call data is
 * the call's own, the table this CPU's (stats.c); no atomic, no division.
 * Everything here and all it calls in this module is notrace and
 * NOKPROBE_SYMBOL.  It still calls traceable kernel functions
 * (local_clock where the counter is not read directly, syscall_get_nr): a probe of someone else's on those sees
 * the hit or misses it, ours are never re-entered.
 */
#ifndef MSEAL_STATS_HANDLERS_H
#define MSEAL_STATS_HANDLERS_H

#include "mseal_stats_compat.h"
#include "cell.h"
#include "clock.h"
#include "filter.h"
#include "plan.h"
#include "stats.h"
#include "systp.h"

/* What one call carries from entry to return. */
struct ms_inst {
	u64 t0;
	unsigned int cell;
	unsigned int slot;	/* direct backend: the trampoline's slot */
};

/* The row a check made now is charged to. */
static __always_inline unsigned int ms_check_row(void)
{
	int row;

	if (unlikely(ms_current_is_worker()))
		return MS_WORKER;
	row = ms_systp_row();
	if (row >= 0)
		return row;
	return ms_sys_from_nr(ms_current_syscall_nr());
}

/* Entry of a call to T: false to let it run uncounted. */
static __always_inline bool ms_handler_enter(const struct ms_target *t, struct ms_inst *in)
{
	if (t->kind == MS_KIND_SYSCALL) {
		if (!ms_filter_pass())
			return false;
		in->cell = MS_CELL_SYS(t->index);
	} else if (likely(t->kind == MS_KIND_CHECK)) {
		if (!ms_filter_pass())
			return false;
		in->cell = MS_CELL_CHK(ms_check_row(), t->index);
	} else {
		/* Calibration takes a counted check's steps, keeps every call. */
		(void)ms_filter_pass();
		(void)ms_check_row();
		in->cell = MS_CELL_CALIB;
	}
	in->t0 = ms_clock_read();
	return true;
}

/* Return of a call that ms_handler_enter() let in, with value RET. */
static __always_inline void ms_handler_exit(const struct ms_inst *in, unsigned long ret)
{
	u64 ns = ms_clock_ns(in->t0, ms_clock_read());

	if (in->cell < MS_NSYS)
		ms_stats_record_syscall(in->cell, ns, ret);
	else
		ms_stats_record(in->cell, ns, !ms_return_bool(ret), false);
}

#endif /* MSEAL_STATS_HANDLERS_H */
