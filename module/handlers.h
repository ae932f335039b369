/* SPDX-License-Identifier: GPL-2.0 */
/*
 * handlers.h - the handler work kretprobe.c and direct.c share: entry
 * time and cell into the call's own data (the task may sleep or migrate),
 * the duration into this CPU's table at the return.  A check's row: a
 * worker's; else the syscall the tracepoint side saw the task enter; else
 * the number in its registers.  Nothing shared is written but a probe's
 * outside_task count (an atomic, on a miss).  They call kernel functions
 * another's kprobe may hit or miss (ktime_get_mono_fast_ns(), the
 * filter's strncmp(), a clocksource's read, which ftrace can trace too);
 * ours are notrace, NOKPROBE_SYMBOL and __always_inline: never re-entered.
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

/* Keeps the compiler from dropping the work that computed X. */
#define MS_KEEP(x)	asm volatile("" : : "r" (x))

/* What one call carries from entry to return. */
struct ms_inst {
	u64 t0;			/* the clock at entry (clock.h) */
	unsigned int cell;	/* the cell to charge, with the clock's mark */
	unsigned int slot;	/* direct backend: the trampoline's slot */
};

/* The first check cell of the row a check made now is charged to. */
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
 * The same into *BASE; false where ms_systp_row() would go out of line
 * (slot neither the hint nor home, or marked): the caller's slow path.
 * A slot current left claimed (a sys_exit not seen, which only a detach
 * does, after the checks' own) would name its old syscall: this path
 * would charge that row, the window path "other".
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
 * A check's entry past the filter.  Outside task context a check is
 * counted as missed, never recorded: the record has no guard against an
 * interrupted writer on this CPU.  The test is at the return for a
 * kretprobe (ms_handler_exit_in_task()); direct.c tests at its entry.
 */
static __always_inline void ms_handler_check_start(unsigned int index, struct ms_inst *in)
{
	ms_clock_start(&in->t0, &in->cell, ms_check_chk_base() + index);
}

/* A counted check's steps (a user task's, even from a worker); every call kept. */
static __always_inline void ms_handler_calib_start(struct ms_inst *in)
{
	unsigned int base;

	(void)ms_filter_pass();
	base = ms_task_chk_base();
	MS_KEEP(base);
	ms_clock_start(&in->t0, &in->cell, MS_CELL_CALIB);
}

/*
 * Entry of a call to P's target: false to let it run uncounted.  P, not
 * the target's ->probe: that is set only after registration returns.
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
 * The task-context test at the return, for a backend whose entry may run
 * from a trap (a kretprobe): a check outside task context is missed.
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
