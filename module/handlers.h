/* SPDX-License-Identifier: GPL-2.0 */
/*
 * handlers.h - the work every backend's handlers share, inlined into each
 * (kretprobe.c, direct.c; systp.c keeps its own entry time per task).
 *
 * Entry: the filter first (a call it keeps out records nothing), then the
 * entry time and the cell to charge, in the call's own data (a kretprobe
 * instance, the trampoline's frame): the task may sleep or migrate.
 * Return: the duration and the result into this CPU's table.
 *
 * A check's row (names.h): "worker" for a kernel-side worker; else the
 * syscall the tracepoint side saw this task enter, when that side counts
 * (a check from task_work after sys_exit is not charged to the syscall
 * that ended); else the syscall number in the task's user registers.
 *
 * Nothing shared between CPUs is written but the tracepoint side's
 * in-flight slot (a cmpxchg on a line hashed from the task).  All of it is
 * notrace and NOKPROBE_SYMBOL, its helpers __always_inline: our probes are
 * never re-entered.  The kernel functions it calls (syscall_get_nr,
 * ktime_get_mono_fast_ns) may carry someone else's probe.
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
 * direct entry): false when the tracepoint side counts and the task's
 * slot is not this CPU's hint nor its home slot, or is marked (the cases
 * ms_systp_row() takes out of line).  A slot found here is trusted as it
 * stands: only a slot left by a sys_exit never seen (an oops) differs from
 * what the window look-up would say.
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
 * A check's entry past the filter.  A check outside task context is not
 * recorded (the record has no guard against an interrupted writer on this
 * CPU) but counted as missed: the direct entry tests in_task(), a
 * kretprobe (whose entry may run from an int3 trap) at the return.
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
