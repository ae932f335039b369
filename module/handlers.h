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
 * the call's own, the table this CPU's (stats.c); no division, and one
 * atomic only, sys_enter's claim of an in-flight slot (a cmpxchg on a
 * slot hashed from the task, which no other CPU is likely to touch).
 * Everything here and all it calls in this module is notrace and
 * NOKPROBE_SYMBOL (the helpers of inflight.h, cell.h, gentab.h, names.h
 * and backend.h it uses are __always_inline: no copy of them out of line
 * to probe).  It still calls traceable kernel functions
 * (ktime_get_mono_fast_ns where the counter is not read directly,
 * syscall_get_nr): a probe of someone else's on those sees the hit or
 * misses it, ours are never re-entered.
 */
#ifndef MSEAL_STATS_HANDLERS_H
#define MSEAL_STATS_HANDLERS_H

#include "mseal_stats_compat.h"
#include "cell.h"
#include "clock.h"
#include "filter.h"
#include "backend.h"
#include "plan.h"
#include "stats.h"
#include "systp.h"

/*
 * Calibration finds the row as a check does and throws it away: this keeps
 * the compiler from dropping the work (an asm that reads X, and emits
 * nothing).
 */
#define MS_KEEP(x)	asm volatile("" : : "r" (x))

/* What one call carries from entry to return. */
struct ms_inst {
	u64 t0;			/* the clock at entry (clock.h) */
	unsigned int cell;	/* the cell to charge, with the clock's mark */
	unsigned int slot;	/* direct backend: the trampoline's slot */
};

/*
 * The first check cell (cell.h: MS_CELL_CHK(row, 0)) of the row a check
 * made now is charged to.  The syscall side's slot when it counts (a
 * static key), else the task's registers, through the number table
 * (names.h); a worker's row before either.
 */
static __always_inline unsigned int ms_task_chk_base(void)
{
	if (ms_systp_counting())
		return MS_CELL_CHK(ms_systp_row(), 0);
	return ms_chk_base_of_nr(ms_current_syscall_nr());
}

static __always_inline unsigned int ms_check_chk_base(void)
{
	if (unlikely(ms_current_is_worker()))
		return MS_CELL_CHK(MS_WORKER, 0);
	return ms_task_chk_base();
}

/*
 * The same into *BASE, for a caller with a slow path of its own (the
 * direct trampoline's entry): false, and nothing found, when the task
 * has no slot in the in-flight table (a check outside a tracked syscall:
 * the commonest case), or its slot is neither this CPU's hint nor its
 * home slot, or is marked (its syscall timed with the fallback clock):
 * the cases where ms_systp_row() calls out of line for the whole look-up.
 * A slot found here is trusted as it stands, where the window look-up
 * also asks whether its syscall is a tracked one: they differ only for a
 * slot left claimed by a sys_exit never seen (an oops, or a probe before
 * ours that made a tracked syscall untracked: systp.c's registration says
 * which), whose later checks this path charges to the old row.
 */
static __always_inline bool ms_check_chk_base_home(unsigned int *base)
{
	struct ms_inflight_slot *s;

	if (unlikely(ms_current_is_worker())) {
		*base = MS_CELL_CHK(MS_WORKER, 0);
		return true;
	}
	if (!ms_systp_counting()) {
		*base = ms_chk_base_of_nr(ms_current_syscall_nr());
		return true;
	}
	if (unlikely(!ms_systp_find_fast(ms_task_birth(current), &s)))
		return false;
	*base = MS_CELL_CHK(s->cell & ~MS_CLOCK_LOCAL, 0);
	return true;
}

/*
 * A check's entry past the filter, in task context (the direct trampoline
 * tests in_task() itself, at its entry; a kretprobe's entry handler may
 * run from an int3 trap, NMI context whatever the caller, so that backend
 * asks at the return: ms_handler_exit_in_task()).  A check outside task
 * context (none is known: they run in syscalls and workers) is not timed,
 * since the record has no guard against an interrupted writer on this
 * CPU: it is counted as missed.
 */
static __always_inline void ms_handler_check_start(unsigned int index, struct ms_inst *in)
{
	ms_clock_start(&in->t0, &in->cell, ms_check_chk_base() + index);
}

/*
 * Calibration takes a counted check's steps and keeps every call; a user
 * task's steps even when a worker or a kernel thread runs it (a calibrate
 * written from io-wq or a kthread).
 */
static __always_inline void ms_handler_calib_start(struct ms_inst *in)
{
	unsigned int base;

	(void)ms_filter_pass();
	base = ms_task_chk_base();
	/* Found as a check's is; the cell is its own. */
	MS_KEEP(base);
	ms_clock_start(&in->t0, &in->cell, MS_CELL_CALIB);
}

/*
 * Entry of a call to P's target (a backend that takes every kind: the
 * kretprobe): false to let it run uncounted.  P is the probe, not its
 * target's ->probe, which is set only once registration has returned (a
 * handler can fire before that); P->target is set before.
 */
static __always_inline bool ms_handler_enter(struct ms_probe *p, struct ms_inst *in)
{
	const struct ms_target *t = p->target;

	if (likely(t->kind == MS_KIND_CHECK)) {
		if (!ms_filter_pass())
			return false;
		ms_handler_check_start(t->index, in);
		return true;
	}
	if (t->kind == MS_KIND_SYSCALL) {
		if (!ms_filter_pass())
			return false;
		ms_clock_start(&in->t0, &in->cell, MS_CELL_SYS(t->index));
		return true;
	}
	ms_handler_calib_start(in);
	return true;
}

/*
 * At the return, for a backend whose entry may not run in the call's
 * context (a kretprobe): a check that ran outside task context is not
 * recorded but counted as missed, as the direct trampoline's entry does.
 * The return runs in the call's own context.  P as for ms_handler_enter().
 */
static __always_inline bool ms_handler_exit_in_task(struct ms_probe *p, const struct ms_inst *in)
{
	if (likely((in->cell & ~MS_CLOCK_LOCAL) < MS_NSYS || in_task()))
		return true;
	ms_probe_missed_inc(p);
	return false;
}

/* The ns of a call that ms_handler_*() let in; *CELL: its cell, unmarked. */
static __always_inline u64 ms_handler_ns(const struct ms_inst *in, unsigned int *cell)
{
	*cell = in->cell;
	if (likely(!(*cell & MS_CLOCK_LOCAL)))
		return ms_clock_ns(in->t0, ms_counter_read(), 0);
	*cell &= ~MS_CLOCK_LOCAL;
	return ms_clock_ns(in->t0, ktime_get_mono_fast_ns(), MS_CLOCK_LOCAL);
}

/* Return of a check or calibration call, with value RET. */
static __always_inline void ms_handler_exit_check(const struct ms_inst *in, unsigned long ret)
{
	unsigned int cell;
	u64 ns = ms_handler_ns(in, &cell);

	ms_stats_record_check(cell, ns, !ms_return_bool(ret));
}

/* Return of any call that ms_handler_enter() let in, with value RET. */
static __always_inline void ms_handler_exit(const struct ms_inst *in, unsigned long ret)
{
	unsigned int cell;
	u64 ns = ms_handler_ns(in, &cell);

	if (cell < MS_NSYS)
		ms_stats_record_syscall(cell, ns, ret);
	else
		ms_stats_record_check(cell, ns, !ms_return_bool(ret));
}

#endif /* MSEAL_STATS_HANDLERS_H */
