// SPDX-License-Identifier: GPL-2.0
/*
 * systp.c - syscall_backend=tracepoint: sys_enter to sys_exit on the
 * raw_syscalls tracepoints.  The probes see every syscall and test the
 * number first.  The entry time waits in the in-flight table (the task
 * may sleep or migrate); no free slot is a miss, a sys_exit without its
 * sys_enter is not counted.  The slot also names the checks' row.
 *
 * sys_exit is registered before sys_enter and unregistered after it, so
 * every sys_enter we see has its sys_exit seen too, but for those the
 * detach's number test turns away: their slots stay claimed, harmless,
 * as the table is freed next.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/errno.h>
#include <linux/mm.h>
#include <linux/percpu.h>
#include <linux/ptrace.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/tracepoint.h>
#include "mseal_stats_compat.h"
#include "backend.h"
#include "cell.h"
#include "clock.h"
#include "filter.h"
#include "inflight.h"
#include "names.h"
#include "stats.h"
#include "systp.h"

#if MS_HAVE_SYSCALL_TP
#include <trace/events/syscalls.h>

/*
 * 2^12 to 2^18 slots: one per 8 threads set_max_threads() would allow,
 * since every thread asleep inside a counted syscall holds one.
 */
#define MS_INFLIGHT_MIN_BITS	12
#define MS_INFLIGHT_MAX_BITS	18

static unsigned int ms_tp_inflight_bits(void)
{
	u64 threads = div64_u64((u64)totalram_pages() * PAGE_SIZE, 8 * THREAD_SIZE);
	unsigned int bits = MS_INFLIGHT_MIN_BITS;

	while (bits < MS_INFLIGHT_MAX_BITS && (1ULL << bits) < threads / 8)
		bits++;
	return bits;
}

struct ms_tp_missed {
	unsigned long n[MS_NSYS];
};

static struct tracepoint *ms_tp_enter_tp, *ms_tp_exit_tp;
struct ms_inflight ms_tp_inflight;
static bool ms_tp_registered;
/* On after the table and the probes, for ms_systp_row() (systp.h). */
DEFINE_STATIC_KEY_FALSE(ms_systp_on);
static struct ms_probe ms_tp_probes[MS_NSYS];
/*
 * Every CPU's hint until a claim: owned by nobody.  Set at run time: not
 * every kernel relocates a module's per-CPU initializers.
 */
static struct ms_inflight_slot ms_tp_nobody;
DEFINE_PER_CPU(struct ms_inflight_slot *, ms_tp_last);
static DEFINE_PER_CPU(struct ms_tp_missed, ms_tp_missed);

static void ms_tp_find(struct tracepoint *tp, void *priv)
{
	if (!strcmp(tp->name, "sys_enter"))
		ms_tp_enter_tp = tp;
	else if (!strcmp(tp->name, "sys_exit"))
		ms_tp_exit_tp = tp;
}

static bool ms_tp_available(void)
{
	if (!ms_tp_enter_tp || !ms_tp_exit_tp)
		for_each_kernel_tracepoint(ms_tp_find, NULL);
	return ms_tp_enter_tp && ms_tp_exit_tp;
}

/*
 * The tracked syscall NR is, or -1.  The table first: one load is all an
 * untracked syscall pays; compat numbers index another table.
 */
static __always_inline int ms_tp_sys(long nr)
{
	int sys = ms_tp_sys_of_nr(nr);

	if (likely(sys < 0) || in_compat_syscall())
		return -1;
	return sys;
}

/*
 * The probes' common path calls nothing (no register saved): hint or home
 * slot, counter, no filter.  Anything else tail-calls a slow path.
 */
static noinline notrace void ms_tp_sys_enter_slow(int sys)
{
	struct ms_inflight_slot *s;

	if (!ms_filter_pass())
		return;
	s = ms_inflight_claim(&ms_tp_inflight, current, ms_task_birth(current),
			      MS_CELL_SYS(sys));
	if (unlikely(!s)) {
		this_cpu_inc(ms_tp_missed.n[sys]);
		return;
	}
	/* The fallback clock marks the slot: its exit takes the slow path. */
	if (ms_clock_is_counter()) {
		s->t0 = ms_counter_read();	/* the claim wrote the cell */
	} else {
		WRITE_ONCE(s->birth, s->birth | MS_INFLIGHT_BIRTH_MARK);
		s->cell |= MS_CLOCK_LOCAL;
		s->t0 = ktime_get_mono_fast_ns();
	}
}
NOKPROBE_SYMBOL(ms_tp_sys_enter_slow);

static notrace void ms_tp_sys_enter(void *data, struct pt_regs *regs, long id)
{
	struct ms_inflight_slot *s;
	int sys;

	/* The number now, not ID: an earlier probe may have rewritten it. */
	sys = ms_tp_sys(syscall_get_nr(current, regs));
	if (sys < 0)
		return;
	if (unlikely(ms_filter_set() || !ms_clock_is_counter())) {
		ms_tp_sys_enter_slow(sys);
		return;
	}
	if (unlikely(!ms_inflight_claim_home(&ms_tp_inflight, current, ms_task_birth(current),
					     &s))) {
		ms_tp_sys_enter_slow(sys);
		return;
	}
	s->cell = MS_CELL_SYS(sys);
	this_cpu_write(ms_tp_last, s);
	s->t0 = ms_counter_read();
}
NOKPROBE_SYMBOL(ms_tp_sys_enter);

/*
 * A sys_exit past the fast path; T1: the counter's end, or 0 if not read.
 * A task the filter keeps out still frees its slot (the filter may have
 * changed).  A call ends on the clock it started on.
 */
static noinline notrace void ms_tp_sys_exit_slow(long ret, u64 t1)
{
	struct ms_inflight_slot *s;
	unsigned int cell;
	u64 tl = 0, t0;

	if (!t1 && ms_filter_pass()) {
		if (ms_clock_is_counter())
			t1 = ms_counter_read();
		else
			tl = ktime_get_mono_fast_ns();
	}
	s = ms_inflight_find(&ms_tp_inflight, current, ms_task_birth(current));
	if (!s)
		return;
	cell = s->cell;
	t0 = s->t0;
	ms_inflight_free(&ms_tp_inflight, current, s);
	if (cell & MS_CLOCK_LOCAL)
		t1 = tl ?: ktime_get_mono_fast_ns();
	else if (!t1)
		t1 = ms_counter_read();
	ms_stats_record_syscall(cell & ~MS_CLOCK_LOCAL, ms_clock_ns(t0, t1, cell), ret);
}
NOKPROBE_SYMBOL(ms_tp_sys_exit_slow);

/*
 * The clock right after the number test, the look-up after it.  This
 * probe runs first (ms_tp_register()): RET is as the syscall left it.
 */
static notrace void ms_tp_sys_exit(void *data, struct pt_regs *regs, long ret)
{
	struct ms_inflight_slot *s;
	unsigned int cell;
	u64 t0, t1;

	if (ms_tp_sys(syscall_get_nr(current, regs)) < 0)
		return;
	/* Nothing of what follows hoisted above the test: every untracked syscall would pay. */
	barrier();
	if (unlikely(ms_filter_set() || !ms_clock_is_counter())) {
		ms_tp_sys_exit_slow(ret, 0);
		return;
	}
	t1 = ms_counter_read();
	/* The fast look-up misses marked slots: this cell has no MS_CLOCK_LOCAL. */
	if (unlikely(!ms_systp_find_fast(ms_task_birth(current), &s)))
		goto slow;
	cell = s->cell;
	t0 = s->t0;
	/*
	 * Usually the home slot; the hint may also name a window slot that
	 * this task claimed on the slow path after the hint's own task freed
	 * it: that one leaves the window count.
	 */
	ms_inflight_free(&ms_tp_inflight, current, s);
	ms_stats_record_syscall(cell, ms_clock_ns(t0, t1, 0), ret);
	return;
slow:
	ms_tp_sys_exit_slow(ret, t1);
}
NOKPROBE_SYMBOL(ms_tp_sys_exit);

notrace int ms_systp_row_window(void)
{
	unsigned int cell;

	/* Outside a tracked syscall every slot is "other": no scan. */
	if (ms_tp_sys(ms_current_syscall_nr()) < 0)
		return MS_OTHER;
	if (!ms_inflight_peek(&ms_tp_inflight, current, ms_task_birth(current), &cell))
		return MS_OTHER;
	return cell & ~MS_CLOCK_LOCAL;
}
NOKPROBE_SYMBOL(ms_systp_row_window);

unsigned long ms_systp_in_flight(void)
{
	return ms_systp_counting() ? ms_inflight_claimed(&ms_tp_inflight) : 0;
}

/* The compiler checks our probes against the kernel's own prototypes. */
static void __maybe_unused ms_tp_check_prototypes(void)
{
	check_trace_callback_type_sys_enter(ms_tp_sys_enter);
	check_trace_callback_type_sys_exit(ms_tp_sys_exit);
}

/*
 * A slot for calibration's task, as a sys_enter would claim (row "other"),
 * so its look-up is a real check's.  Serialized with detach: the table
 * stays while calibration runs.
 */
bool ms_systp_calib_begin(void)
{
	struct ms_inflight_slot *s;

	if (!ms_systp_counting())
		return false;
	s = ms_inflight_claim(&ms_tp_inflight, current, ms_task_birth(current), MS_OTHER);
	if (!s)
		return false;
	s->t0 = 0;
	/* As a sys_enter leaves it; the caller keeps the task on this CPU. */
	if (!ms_clock_is_counter())
		WRITE_ONCE(s->birth, s->birth | MS_INFLIGHT_BIRTH_MARK);
	this_cpu_write(ms_tp_last, s);
	return true;
}

void ms_systp_calib_end(void)
{
	unsigned int cell;
	u64 t0;

	ms_inflight_take(&ms_tp_inflight, current, ms_task_birth(current), &t0, &cell);
}

static void ms_tp_hints_reset(void)
{
	int cpu;

	for_each_possible_cpu(cpu)
		per_cpu(ms_tp_last, cpu) = &ms_tp_nobody;
}

/* A hint never names a slot of a table that is gone. */
static void ms_tp_table_free(void)
{
	kvfree(ms_tp_inflight.slot);
	ms_tp_inflight.slot = NULL;
	ms_tp_hints_reset();
}

static int ms_tp_register(void)
{
	struct ms_inflight_slot *slots;
	unsigned int bits;
	int err, cpu;

	bits = ms_tp_inflight_bits();
	slots = kvcalloc(1U << bits, sizeof(struct ms_inflight_slot), GFP_KERNEL);
	if (!slots)
		return -ENOMEM;
	ms_inflight_set(&ms_tp_inflight, slots, bits);
	/*
	 * The grace period orders the hints' stores before any probe's load
	 * on every CPU: the probes' only other order is a control dependency.
	 */
	ms_tp_hints_reset();
	synchronize_rcu();
	for_each_possible_cpu(cpu)
		memset(per_cpu_ptr(&ms_tp_missed, cpu), 0, sizeof(struct ms_tp_missed));

	/*
	 * sys_enter last, after any probe that rewrites the number; sys_exit
	 * first, before any that rewrites the result.  Ours nest inside every
	 * other probe, whose cost stays outside the time measured.
	 */
	err = tracepoint_probe_register_prio(ms_tp_exit_tp, ms_tp_sys_exit, NULL, INT_MAX);
	if (err)
		goto free;
	err = tracepoint_probe_register_prio(ms_tp_enter_tp, ms_tp_sys_enter, NULL, INT_MIN);
	if (err) {
		tracepoint_probe_unregister(ms_tp_exit_tp, ms_tp_sys_exit, NULL);
		tracepoint_synchronize_unregister();
		goto free;
	}
	ms_tp_registered = true;
	static_branch_enable(&ms_systp_on);
	return 0;
free:
	ms_tp_table_free();
	pr_warn("cannot register the raw_syscalls tracepoint probes: error %d\n", err);
	return err;
}

/* SYMBOL: the syscall's wrapper, which plan.c found; the probes are shared. */
static int ms_tp_attach(struct ms_target *t, const char *symbol, void *addr)
{
	int err;

	if (t->kind != MS_KIND_SYSCALL || !ms_tp_available())
		return -EOPNOTSUPP;
	if (!ms_tp_registered) {
		err = ms_tp_register();
		if (err)
			return err;
	}
	ms_tp_probes[t->index].target = t;
	t->probe = &ms_tp_probes[t->index];
	snprintf(t->symbol, sizeof(t->symbol), "raw_syscalls nr %d", ms_nr_of_sys(t->index));
	ms_names_set_tp(t->index, true);
	return 0;
}

/*
 * All targets at once.  After tracepoint_synchronize_unregister() no probe
 * of ours runs, so the table can go; the checks, which read it, are
 * detached before this (plan.c).
 */
static void ms_tp_detach(struct ms_target **ts, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		ms_names_set_tp(ts[i]->index, false);
		ts[i]->probe = NULL;
	}
	if (!ms_tp_registered)
		return;
	static_branch_disable(&ms_systp_on);
	tracepoint_probe_unregister(ms_tp_enter_tp, ms_tp_sys_enter, NULL);
	tracepoint_probe_unregister(ms_tp_exit_tp, ms_tp_sys_exit, NULL);
	tracepoint_synchronize_unregister();
	ms_tp_table_free();
	ms_tp_registered = false;
}

static unsigned long ms_tp_missed_of(const struct ms_target *t)
{
	unsigned long n = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		n += per_cpu_ptr(&ms_tp_missed, cpu)->n[t->index];
	return n;
}

#else /* !MS_HAVE_SYSCALL_TP */

static bool ms_tp_available(void)
{
	return false;
}

static int ms_tp_attach(struct ms_target *t, const char *symbol, void *addr)
{
	return -EOPNOTSUPP;
}

static void ms_tp_detach(struct ms_target **ts, unsigned int n)
{
}

static unsigned long ms_tp_missed_of(const struct ms_target *t)
{
	return 0;
}

DEFINE_STATIC_KEY_FALSE(ms_systp_on);
struct ms_inflight ms_tp_inflight;
/* Never read: ms_systp_on stays off. */
DEFINE_PER_CPU(struct ms_inflight_slot *, ms_tp_last);

int ms_systp_row_window(void)
{
	return MS_OTHER;
}

unsigned long ms_systp_in_flight(void)
{
	return 0;
}

bool ms_systp_calib_begin(void)
{
	return false;
}

void ms_systp_calib_end(void)
{
}

#endif /* MS_HAVE_SYSCALL_TP */

const struct ms_backend_ops ms_tracepoint_ops = {
	.name = "tracepoint",
	.span = "raw_syscalls sys_enter to sys_exit",
	.requires = "the raw_syscalls sys_enter and sys_exit tracepoints (CONFIG_HAVE_SYSCALL_TRACEPOINTS, CONFIG_TRACEPOINTS)",
	.available = ms_tp_available,
	.attach = ms_tp_attach,
	.detach = ms_tp_detach,
	.missed = ms_tp_missed_of,
};
