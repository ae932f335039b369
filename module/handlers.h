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
#include "backend.h"
#include "plan.h"
#include "stats.h"
#include "systp.h"

/* What one call carries from entry to return. */
struct ms_inst {
	u64 t0;			/* ms_clock_read() at entry */
	unsigned int cell;
	unsigned int slot;	/* direct backend: the trampoline's slot */
};

/*
 * The row a check made now is charged to.  The syscall side's slot when
 * it counts (a static key: one patched jump), else the task's registers;
 * both through the one number-to-row table (names.h).
 */
static __always_inline unsigned int ms_task_row(void)
{
	if (ms_systp_counting())
		return ms_systp_row();
	return ms_row_of_nr(ms_current_syscall_nr());
}

static __always_inline unsigned int ms_check_row(void)
{
	if (unlikely(ms_current_is_worker()))
		return MS_WORKER;
	return ms_task_row();
}

/*
 * A check's entry past the filter (direct.c takes the in-flight count
 * between the two): false to let it run untimed.  ENTRY_IN_CALL: the
 * handler runs in the probed call's own context (a direct trampoline), so
 * in_task() here says where the call runs.  A kretprobe's entry handler
 * may run from an int3 trap (x86 kprobes not on ftrace: NMI context
 * whatever the caller), so that backend asks at the return instead
 * (ms_handler_exit_in_task()).
 */
static __always_inline bool ms_handler_check_start(struct ms_target *t, struct ms_inst *in,
						   bool entry_in_call)
{
	if (entry_in_call && unlikely(!in_task())) {
		ms_probe_missed_inc(t->probe);
		return false;
	}
	in->cell = MS_CELL_CHK(ms_check_row(), t->index);
	in->t0 = ms_clock_read();
	return true;
}

/*
 * Entry of a call to T: false to let it run uncounted.  Per kind, with
 * the kind a constant where the caller knows it (the compiler folds the
 * rest away).  A check outside task context (none is known: they run in
 * syscalls and workers) is not timed, since the record has no guard
 * against an interrupted writer on this CPU: it is counted as missed.
 */
static __always_inline bool ms_handler_enter_kind(enum ms_kind kind, struct ms_target *t,
						  struct ms_inst *in, bool entry_in_call)
{
	switch (kind) {
	case MS_KIND_SYSCALL:
		if (!ms_filter_pass())
			return false;
		in->cell = MS_CELL_SYS(t->index);
		break;
	case MS_KIND_CHECK:
		if (!ms_filter_pass())
			return false;
		return ms_handler_check_start(t, in, entry_in_call);
	default:
		/*
		 * Calibration takes a counted check's steps, keeps every call;
		 * a user task's steps even when a worker or a kernel thread
		 * runs it (a calibrate written from io-wq or a kthread).
		 */
		(void)ms_filter_pass();
		(void)ms_task_row();
		in->cell = MS_CELL_CALIB;
		break;
	}
	in->t0 = ms_clock_read();
	return true;
}

static __always_inline bool ms_handler_enter(struct ms_target *t, struct ms_inst *in,
					     bool entry_in_call)
{
	if (likely(t->kind == MS_KIND_CHECK))
		return ms_handler_enter_kind(MS_KIND_CHECK, t, in, entry_in_call);
	if (t->kind == MS_KIND_SYSCALL)
		return ms_handler_enter_kind(MS_KIND_SYSCALL, t, in, entry_in_call);
	return ms_handler_enter_kind(MS_KIND_CALIB, t, in, entry_in_call);
}

/*
 * At the return, for a backend whose entry may not run in the call's
 * context (a kretprobe): a check that ran outside task context is not
 * recorded but counted as missed, as ms_handler_check_start() does for
 * the others.  The return runs in the call's own context.
 */
static __always_inline bool ms_handler_exit_in_task(struct ms_target *t, const struct ms_inst *in)
{
	if (likely(in->cell < MS_NSYS || in_task()))
		return true;
	ms_probe_missed_inc(t->probe);
	return false;
}

/* Return of a call that ms_handler_enter() let in, with value RET. */
static __always_inline void ms_handler_exit(const struct ms_inst *in, unsigned long ret)
{
	u64 ns = ms_clock_ns(in->t0, ms_clock_read());

	if (in->cell < MS_NSYS)
		ms_stats_record_syscall(in->cell, ns, ret);
	else
		ms_stats_record_check(in->cell, ns, !ms_return_bool(ret));
}

#endif /* MSEAL_STATS_HANDLERS_H */
