// SPDX-License-Identifier: GPL-2.0
/*
 * systp.c - the syscall side on the raw_syscalls tracepoints (sys_enter,
 * sys_exit): syscall_backend=tracepoint, where direct calls are not to be
 * had.  The time is sys_enter to sys_exit (the entry function plus the
 * dispatch).  While registered, every syscall of every task takes the
 * syscall work, and our probe sees every syscall: it tests the number
 * first and lets any syscall it does not track go.
 *
 * The entry time waits in the in-flight table (inflight.h): the task may
 * sleep or migrate before sys_exit.  A sys_enter with no free slot is a
 * miss; a sys_exit without its sys_enter is not counted.  The slot also
 * names the syscall the checks are charged to (ms_systp_row()).
 *
 * One pair of probes serves every syscall target.  sys_exit is registered
 * before sys_enter and unregistered after it, so every sys_enter we see
 * has its sys_exit seen too.  (Detach turns the syscalls off first, so a
 * sys_exit in that window may leave its slot claimed: the table goes next.)
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
 * The in-flight table's size: at least 4096 slots of one cache line (256
 * KiB), more on a machine that can run more threads, up to 2^18 (16 MiB):
 * one slot for every 8 threads the kernel would allow (its max_threads
 * rule, set_max_threads(): memory over 8 kernel stacks), since thousands
 * of threads asleep inside a counted syscall (queued on one mmap_lock)
 * each hold one.
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
 * Where every CPU's hint points until a claim (systp.h): owned by nobody.
 * Set by ms_tp_hints_reset(), not by an initializer: the loader does not
 * relocate a module's per-CPU section on every kernel (it has lost
 * SHF_ALLOC, and apply_relocations() skips it), so an address there
 * reaches every CPU as NULL.
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
 * The tracked syscall number NR is, or -1.  The number table first
 * (names.h: one load, the syscall's MS_ROW_TP bit), so that every syscall
 * not counted, system-wide, pays that and no more; compat numbers are
 * another table's, and the compat test comes after it for that reason.
 */
static __always_inline int ms_tp_sys(long nr)
{
	int sys = ms_tp_sys_of_nr(nr);

	if (likely(sys < 0) || in_compat_syscall())
		return -1;
	return sys;
}

/*
 * Both probes make no call on their common path on x86_64 (a function
 * that calls nothing saves no register; arm64 reads its counter through
 * the timer driver's function pointer, arch_timer_read_counter): the slot
 * found from this CPU's hint or the home slot, the counter read directly,
 * no filter.  Anything else (a filter set, ktime_get_mono_fast_ns(), the
 * window of the table, a call that began on the other clock) is a tail
 * call to a function that takes every step.
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
	/*
	 * A start on the fallback clock marks the slot, which keeps its exit
	 * off the fast path.  The clock last: the claim and the mark are
	 * ours, not the syscall's.
	 */
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

	/*
	 * The number as it is now, not ID: ID was taken before any probe ran,
	 * and a probe before ours (we register last) may have rewritten it,
	 * as the entry code's own re-read allows for.
	 */
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
 * A sys_exit past the fast path: T1 is its end read with the counter, or
 * 0 when no clock was read yet (a filter set, or the fallback clock).
 * A task the filter lets in reads its end first, before the look-up, as
 * the fast path does.  One it keeps out reads no clock and looks for a
 * slot all the same, since the filter may have changed since its
 * sys_enter: it normally has none, and the look-up stops at the home slot
 * unless some slot past a home slot is claimed (inflight.h), so it pays
 * what its sys_enter paid.  A start read with the counter ends with the
 * counter, one read with the fallback clock with that clock: no call is
 * measured with two clocks.
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
 * With a filter set, the slow path: it reads the clock only for a task the
 * filter lets in, and gives back the slot of one it let in at sys_enter
 * and keeps out now.  Else the clock first, then the look-up: only the
 * test of the syscall number comes before it, which keeps the clock read
 * off every syscall we do not track.  RET
 * is the value the syscall left in the registers (syscall_exit_work()
 * reads it for the tracepoint); this probe runs first (ms_tp_register()),
 * so no other probe has been there before it.
 */
static notrace void ms_tp_sys_exit(void *data, struct pt_regs *regs, long ret)
{
	struct ms_inflight_slot *s;
	unsigned int cell;
	u64 t0, t1;

	if (ms_tp_sys(syscall_get_nr(current, regs)) < 0)
		return;
	/* Nothing of what follows hoisted above the test. */
	barrier();
	if (unlikely(ms_filter_set() || !ms_clock_is_counter())) {
		ms_tp_sys_exit_slow(ret, 0);
		return;
	}
	t1 = ms_counter_read();
	/*
	 * A slot whose start was read with the fallback clock has its birth
	 * marked (sys_enter): the fast look-up misses it.  So a slot found
	 * here was claimed by a fast sys_enter, or a slow one on the counter:
	 * its cell has no MS_CLOCK_LOCAL, and indexes the table as it is.
	 */
	if (unlikely(!ms_systp_find_fast(ms_task_birth(current), &s)))
		goto slow;
	cell = s->cell;
	t0 = s->t0;
	/* A home slot, or calibration's (whose count then only stays up). */
	smp_store_release(&s->owner, NULL);
	ms_stats_record_syscall(cell, ms_clock_ns(t0, t1, 0), ret);
	return;
slow:
	ms_tp_sys_exit_slow(ret, t1);
}
NOKPROBE_SYMBOL(ms_tp_sys_exit);

notrace int ms_systp_row_window(void)
{
	unsigned int cell;

	/*
	 * A task in no tracked syscall (the kernel's own vm_mmap() in execve,
	 * a syscall not counted) holds no syscall's slot: calibration's, the
	 * only other kind, is charged to "other" as well.  So no scan of the
	 * window for the row it would give anyway.
	 */
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
 * Calibration's task is in no counted syscall: give it a slot as a counted
 * syscall's sys_enter does (charged to "other", never taken by a sys_exit:
 * the syscall it is in is not tracked), so that its checks' look-up finds
 * a slot as a real check's does.  Commands and init are serialized with
 * detach (control.c, main.c): the table stays while calibration runs.
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
	/*
	 * As a sys_enter leaves it: marked on the fallback clock, and this
	 * CPU's hint (the caller keeps the task on this CPU), so that the
	 * checks' look-up takes the path a real check's takes.  All but one
	 * step on the fallback clock: there ms_systp_row_window() answers
	 * "other" for calibration's untracked syscall (write, finit_module)
	 * before the window's peek a real check pays, a few ns against the
	 * fallback clock's reads.
	 */
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

/*
 * The table goes, and every CPU's hint back to nobody's slot: so a hint
 * never names a slot of a table that is gone.
 */
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
	 * Before the probes: the first registration's hints are NULL (above).
	 * A grace period then puts a full barrier on every CPU between these
	 * stores and any probe's first load of them: the probes' only order
	 * against the stores is the key (ms_systp_on) or the tracepoint's
	 * published array, a control dependency where the kernel has no jump
	 * labels.  Once per registration, in process context.
	 */
	ms_tp_hints_reset();
	synchronize_rcu();
	for_each_possible_cpu(cpu)
		memset(per_cpu_ptr(&ms_tp_missed, cpu), 0, sizeof(struct ms_tp_missed));

	/*
	 * Probes run in descending priority.  sys_enter at the lowest: one
	 * that rewrites the syscall number there (the entry code reads it
	 * again after the tracepoint for that reason) must run before ours,
	 * so that the slot is claimed for the syscall that runs, the one
	 * sys_exit will name.  (One registered at INT_MIN after ours that
	 * rewrites a tracked number to an untracked one leaves our slot
	 * claimed until the task's next tracked syscall; its checks meanwhile
	 * go to that syscall's row.)  sys_exit at the highest, the mirror image:
	 * ours runs first there, so the two nest inside every other probe
	 * (what they cost is outside the time measured, on both sides), and
	 * it sees the number and the return value as the syscall left them.
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
 * Detach is for all at once (plan.c detaches every target of a backend
 * together).  After tracepoint_synchronize_unregister() no probe of ours
 * runs, nor ever will (it waits for the RCU flavours tracepoint callers
 * use, the faultable syscall tracepoints' tasks-trace RCU included), so
 * the table can go; slots still claimed belong to syscalls that outlive
 * us.  The check handlers that ask ms_systp_row() are gone before this
 * (plan.c detaches the checks first).
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
