// SPDX-License-Identifier: GPL-2.0
/*
 * direct.c - the direct backend: per target an ftrace_ops whose direct
 * call goes to its slot's trampoline (direct_tramp.S), which calls the
 * function and sees its return, as BPF's fexit does.  One ops per target:
 * the slot's own trampoline tells the entry its target.  A function with
 * a direct caller already gives -EBUSY, and plan.c uses a kretprobe.
 *
 * Unload.  A task in a timed call has a return address into the
 * trampoline while the function runs, perhaps asleep (rcu_tasks does not
 * cover that).  So, before the slots and probes are freed:
 *   1. unregister, then synchronize_rcu_tasks(): no task enters a
 *      trampoline, nor is between its entry and the in-flight count
 *      going up (ftrace's own wait is not on every kernel);
 *   2. wait for each detached slot's in-flight count (per slot: the
 *      others keep counting) to sum to 0: after step 1 it only goes down;
 *   3. synchronize_rcu_tasks() again, for the trampoline's last
 *      instructions after the count went down (they do not sleep).
 *
 * Targets take all their arguments in registers and return at most two.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bug.h>
#include <linux/build_bug.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/kprobes.h>
#include <linux/minmax.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/printk.h>
#include <linux/rcupdate.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/stacktrace.h>
#include <linux/string.h>
#include <asm/current.h>
#include "compat_direct.h"
#include "backend.h"
#include "direct.h"
#include "filter.h"
#include "handlers.h"

#if MS_HAVE_DIRECT_TRAMP

static_assert(MS_DIRECT_NSLOTS == MS_NTARGETS + 1, "a direct slot per target and calibration");
static_assert(MS_DIRECT_NSYS == MS_NSYS, "a syscall slot per syscall");
static_assert(sizeof(struct ms_inst) <= MS_DIRECT_INST_SIZE,
	      "struct ms_inst fits the trampoline frame");
static_assert(offsetof(struct ms_filter_fast, off) == 0 &&
	      offsetof(struct ms_filter_fast, val) == 8 &&
	      offsetof(struct ms_filter_fast, mask) == 16,
	      "struct ms_filter_fast as the trampolines read it");
#if defined(CONFIG_X86_64) && defined(MS_HAVE_EXPORT_PCPU_HOT)
/* The trampolines read current at pcpu_hot's start (compat_direct.h). */
static_assert(offsetof(struct pcpu_hot, current_task) == 0, "current_task is pcpu_hot's first member");
#endif

/* A slot's probe; the entry reads KIND and INDEX, on the probe's first line. */
struct ms_direct_probe {
	struct ms_probe p;
	enum ms_kind kind;
	unsigned int index;	/* the check or the syscall */
	unsigned int slot;
	struct ftrace_ops fops;
	unsigned long addr;	/* the trampoline fops calls; 0: not registered */
};

/* An unbound slot's probe: its calls run untimed, with no NULL test. */
static struct ms_direct_probe ms_direct_none = { .kind = MS_KIND_NONE };

/* Bound before the function is patched, unbound once nothing can use it. */
static struct ms_direct_probe *ms_direct_slot[MS_DIRECT_NSLOTS] = {
	[0 ... MS_DIRECT_NSLOTS - 1] = &ms_direct_none,
};

/* Timed calls in flight, per slot (see the top, step 2). */
static DEFINE_PER_CPU(long [MS_DIRECT_NSLOTS], ms_direct_inflight);

/*
 * Entry and return call nothing on their common path (no register saved);
 * the rest is a tail call.  The in-flight count goes up after the filter
 * and task-context tests and before the clock read; until then the first
 * synchronize_rcu_tasks() of a detach covers the task.
 */
static __always_inline void ms_direct_count_in(unsigned int slot, struct ms_inst *in)
{
	in->slot = slot;
	this_cpu_inc(ms_direct_inflight[slot]);
}

static noinline notrace int ms_direct_start_local(struct ms_inst *in, unsigned int cell)
{
	in->cell = cell | MS_CLOCK_LOCAL;
	in->t0 = ktime_get_mono_fast_ns();
	return 1;
}
NOKPROBE_SYMBOL(ms_direct_start_local);

static noinline notrace int ms_direct_enter_slow(struct ms_direct_probe *p, unsigned int slot,
						 struct ms_inst *in);

/*
 * A check's or calibration's steps.  SLOW: every step the generic way,
 * for a filter set or a slot past the home slot.
 */
static __always_inline int ms_direct_steps(const enum ms_kind kind, struct ms_direct_probe *p,
					   unsigned int slot, struct ms_inst *in,
					   const bool slow)
{
	unsigned int cell;

	if (slow) {
		/* Calibration keeps every call, but asks as a check does. */
		if (!ms_filter_pass() && kind == MS_KIND_CHECK)
			return 0;
	} else if (ms_filter_set()) {
		return ms_direct_enter_slow(p, slot, in);
	}
	if (unlikely(!in_task())) {
		ms_probe_missed_inc(&p->p);
		return 0;
	}
	/* Calibration takes a user task's steps, even from a worker. */
	if (slow)
		cell = kind == MS_KIND_CALIB ? ms_task_chk_base() : ms_check_chk_base();
	else if (kind == MS_KIND_CALIB && unlikely(ms_current_is_worker()))
		return ms_direct_enter_slow(p, slot, in);
	else if (unlikely(!ms_check_chk_base_home(&cell)))
		return ms_direct_enter_slow(p, slot, in);
	cell += p->index;
	if (kind == MS_KIND_CALIB) {
		MS_KEEP(cell);
		cell = MS_CELL_CALIB;
	}
	ms_direct_count_in(slot, in);
	if (slow) {
		ms_clock_start(&in->t0, &in->cell, cell);
		return 1;
	}
	if (unlikely(!ms_clock_is_counter()))
		return ms_direct_start_local(in, cell);
	in->cell = cell;
	in->t0 = ms_counter_read();
	return 1;
}

/* A syscall's entry function past its tests: its cell from the slot. */
static __always_inline int ms_direct_sys_timed(struct ms_direct_probe *p, unsigned int slot,
					       struct ms_inst *in)
{
	unsigned int cell = MS_CELL_SYS(p->index);

	ms_direct_count_in(slot, in);
	if (unlikely(!ms_clock_is_counter()))
		return ms_direct_start_local(in, cell);
	in->cell = cell;
	in->t0 = ms_counter_read();
	return 1;
}

static noinline notrace int ms_direct_enter_slow(struct ms_direct_probe *p, unsigned int slot,
						 struct ms_inst *in)
{
	if (p->kind == MS_KIND_CHECK)
		return ms_direct_steps(MS_KIND_CHECK, p, slot, in, true);
	return ms_direct_steps(MS_KIND_CALIB, p, slot, in, true);
}
NOKPROBE_SYMBOL(ms_direct_enter_slow);

notrace int ms_direct_enter(unsigned int slot, struct ms_inst *in)
{
	struct ms_direct_probe *p = READ_ONCE(ms_direct_slot[slot]);

	if (likely(p->kind == MS_KIND_CHECK))
		return ms_direct_steps(MS_KIND_CHECK, p, slot, in, false);
	if (p->kind == MS_KIND_CALIB)
		return ms_direct_steps(MS_KIND_CALIB, p, slot, in, false);
	return 0;
}
NOKPROBE_SYMBOL(ms_direct_enter);

/*
 * With a filter set, out of line (the call would cost the common path
 * its saved registers); the filter is a syscall's only step that differs.
 */
static noinline notrace int ms_direct_sys_filtered(struct ms_direct_probe *p, unsigned int slot,
						   struct ms_inst *in)
{
	if (!ms_filter_pass_slow())
		return 0;
	return ms_direct_sys_timed(p, slot, in);
}
NOKPROBE_SYMBOL(ms_direct_sys_filtered);

/*
 * A syscall slot's entry: bound to a syscall or to nothing.  In task
 * context; the tracepoint side leaves compat syscalls out, and so does
 * this one.
 */
notrace int ms_direct_sys_enter(unsigned int slot, struct ms_inst *in)
{
	struct ms_direct_probe *p = READ_ONCE(ms_direct_slot[slot]);

	if (unlikely(p->kind != MS_KIND_SYSCALL || ms_compat_in_native_entry()))
		return 0;
	if (ms_filter_set())
		return ms_direct_sys_filtered(p, slot, in);
	return ms_direct_sys_timed(p, slot, in);
}
NOKPROBE_SYMBOL(ms_direct_sys_enter);

/*
 * The return: the clock, the count down, then the record (a tail call),
 * covered by a detach's second synchronize_rcu_tasks().
 */
static __always_inline void ms_direct_record(unsigned int cell, u64 ns, unsigned long ret)
{
	if (cell < MS_NSYS)
		ms_stats_record_syscall(cell, ns, ret);
	else
		ms_stats_record_check(cell, ns, !ms_return_bool(ret));
}

static noinline notrace void ms_direct_exit_local(struct ms_inst *in, unsigned long ret)
{
	unsigned int cell;
	u64 ns = ms_handler_ns(in, &cell);

	this_cpu_dec(ms_direct_inflight[in->slot]);
	ms_direct_record(cell, ns, ret);
}
NOKPROBE_SYMBOL(ms_direct_exit_local);

/* A timed call's return: SYS, a syscall slot's; else a check's or calibration's. */
static __always_inline void ms_direct_exit_steps(struct ms_inst *in, unsigned long ret,
						 const bool sys)
{
	unsigned int cell = in->cell;
	u64 ns;

	if (unlikely(cell & MS_CLOCK_LOCAL)) {
		ms_direct_exit_local(in, ret);
		return;
	}
	ns = ms_clock_ns(in->t0, ms_counter_read(), 0);
	this_cpu_dec(ms_direct_inflight[in->slot]);
	if (sys)
		ms_stats_record_syscall(cell, ns, ret);
	else
		ms_stats_record_check(cell, ns, !ms_return_bool(ret));
}

notrace void ms_direct_exit(struct ms_inst *in, unsigned long ret)
{
	ms_direct_exit_steps(in, ret, false);
}
NOKPROBE_SYMBOL(ms_direct_exit);

notrace void ms_direct_sys_exit(struct ms_inst *in, unsigned long ret)
{
	ms_direct_exit_steps(in, ret, true);
}
NOKPROBE_SYMBOL(ms_direct_sys_exit);

#endif /* MS_HAVE_DIRECT_TRAMP */

#if MS_HAVE_FTRACE_DIRECT

static DEFINE_MUTEX(ms_direct_lock);	/* the slots, for attach and detach */

static bool ms_direct_available(void)
{
	return true;
}

static long ms_direct_calls_in_flight(const unsigned int *slots, unsigned int n)
{
	long sum = 0;
	unsigned int i;
	int cpu;

	for_each_possible_cpu(cpu)
		for (i = 0; i < n; i++)
			sum += READ_ONCE(per_cpu(ms_direct_inflight, cpu)[slots[i]]);
	return sum;
}

#if MS_HAVE_TASK_STACK_TRACE
/*
 * The slot whose trampoline (plain or filter-testing) holds ADDR: the one
 * starting last at or before it.  -1: none (the ends: direct_tramp.S).
 */
static int ms_direct_slot_of(unsigned long addr)
{
	static const unsigned long *const tables[] = { ms_direct_tramps, ms_direct_ftramps };
	unsigned long start, best_start = 0;
	int slot, best = -1;
	unsigned int t;

	if (addr - ms_direct_tramps[0] >= ms_direct_tramps_size)
		return -1;
	for (t = 0; t < ARRAY_SIZE(tables); t++)
		for (slot = 0; slot < MS_DIRECT_NSLOTS; slot++) {
			start = tables[t][slot];
			if (start <= addr && (best < 0 || start > best_start)) {
				best = slot;
				best_start = start;
			}
		}
	return best;
}

static bool ms_direct_slot_in(int slot, const unsigned int *slots, unsigned int n)
{
	while (n--)
		if (slots[n] == slot)
			return true;
	return false;
}

/* What the walk found, printed after it: no console output under RCU. */
struct ms_direct_waiter {
	pid_t pid;
	char comm[TASK_COMM_LEN];
	int slot;
	bool killable;
};

/*
 * Name up to 8 tasks a wait for SLOTS is for: asleep with a return address
 * into one of their trampolines on the stack (a syscall asleep in its
 * body: a userfaultfd event nobody reads, I/O that does not end).  Only
 * while step 2 waits, every 10 s: it walks every task's stack, with
 * breaks in the RCU read side, as the hung-task detector does.  One
 * caller at a time (ms_direct_lock or the module's exit): static buffers.
 */
static void ms_direct_name_waiters(const unsigned int *slots, unsigned int n, const char *what)
{
	static unsigned long entries[128];
	static struct ms_direct_waiter found[8];
	struct task_struct *g, *t;
	unsigned int i, nr, nfound = 0, walked = 0;
	int slot;

	rcu_read_lock();
	for_each_process_thread(g, t) {
		if (++walked % 1024 == 0) {
			get_task_struct(g);
			get_task_struct(t);
			rcu_read_unlock();
			cond_resched();
			rcu_read_lock();
			put_task_struct(t);
			put_task_struct(g);
			/* Gone meanwhile: the list goes on from elsewhere. */
			if (!pid_alive(g) || !pid_alive(t))
				break;
		}
		if (t == current || task_is_running(t) || (t->flags & PF_EXITING))
			continue;
		nr = stack_trace_save_tsk(t, entries, ARRAY_SIZE(entries), 0);
		for (i = 0; i < nr; i++) {
			slot = ms_direct_slot_of(entries[i]);
			if (slot < 0 || !ms_direct_slot_in(slot, slots, n))
				continue;
			found[nfound].pid = task_pid_nr(t);
			get_task_comm(found[nfound].comm, t);
			found[nfound].slot = slot;
			found[nfound].killable = READ_ONCE(t->__state) &
						 (TASK_WAKEKILL | TASK_INTERRUPTIBLE);
			nfound++;
			break;
		}
		if (nfound == ARRAY_SIZE(found))
			break;
	}
	rcu_read_unlock();
	for (i = 0; i < nfound; i++) {
		const struct ms_target *tg = READ_ONCE(ms_direct_slot[found[i].slot])->p.target;

		pr_warn("pid %d (%s) is asleep in %s through a trampoline: the %s waits for it to return%s\n",
			found[i].pid, found[i].comm, tg ? tg->symbol : "a probed function", what,
			found[i].killable ? "; killing it ends the wait" : "");
	}
}
#else /* !MS_HAVE_TASK_STACK_TRACE: the count alone */
static void ms_direct_name_waiters(const unsigned int *slots, unsigned int n, const char *what)
{
}
#endif /* MS_HAVE_TASK_STACK_TRACE */

/* Step 2; a task that died in a call (an oops) blocks it for good. */
static void ms_direct_wait_calls(const unsigned int *slots, unsigned int n, const char *what)
{
	unsigned long start = jiffies, next = start + 10 * HZ;
	long left;

	while ((left = ms_direct_calls_in_flight(slots, n)) > 0) {
		if (time_after(jiffies, next)) {
			pr_warn("waiting for %ld calls in flight through the direct trampolines (%u s)\n",
				left, jiffies_to_msecs(jiffies - start) / 1000);
			ms_direct_name_waiters(slots, n, what);
			next += 10 * HZ;
		}
		msleep(20);
	}
}

/* Steps 1 to 3 (see the top) for SLOTS, whose ops ftrace has let go. */
static void ms_direct_quiesce(const unsigned int *slots, unsigned int n, const char *what)
{
	synchronize_rcu_tasks();
	ms_direct_wait_calls(slots, n, what);
	synchronize_rcu_tasks();
}

/*
 * Registration of P refused.  If the ops was live meanwhile, a CPU may
 * have read it and a task entered the trampoline: wait as a detach does
 * before P goes.  A stale direct_functions entry outlives the module:
 * say so.
 */
static void ms_direct_refused(struct ms_direct_probe *p, const char *symbol, int err)
{
	WRITE_ONCE(ms_direct_slot[p->slot], &ms_direct_none);
	if (!ms_ftrace_direct_was_live(&p->fops))
		return;
	synchronize_rcu();
	ms_direct_quiesce(&p->slot, 1, "refused attach");
	if (ms_ftrace_direct_left_stale(&p->fops, err))
		pr_err("%s: ftrace refused the direct call (error %d) and may have kept its entry, which names this module's trampoline, in its direct_functions table (kernels from 6.7, and 6.6.y, without \"ftrace: Fix BPF fexit with livepatch\"): then until reboot every later direct call on this function (a BPF fentry/fexit, bpftrace kfunc:, this module again) gets EBUSY\n",
		       symbol ?: "calibration", err);
}

/*
 * The trampoline for P: while a filter is set, for a check or a syscall,
 * the one that makes the fast filter test; calibration keeps every call.
 * Under ms_direct_lock: a filter change after this read switches the
 * slot (ms_direct_filter_changed()).
 */
static unsigned long ms_direct_tramp_for(const struct ms_direct_probe *p)
{
	if (p->kind != MS_KIND_CALIB && ms_filter_fast_on())
		return ms_direct_ftramps[p->slot];
	return ms_direct_tramps[p->slot];
}

/*
 * Switch every registered slot to the trampoline the filter in force
 * wants.  ftrace moves a call site at a time, a stub ops taking its
 * calls meanwhile, and waits for no grace period: a task already in the
 * old trampoline finishes there (it is the same code, past the test).
 * A refusal leaves the slot where it was: still right, the C test
 * decides.
 */
void ms_direct_filter_changed(void)
{
	struct ms_direct_probe *p;
	unsigned long addr;
	unsigned int slot;
	int err;

	mutex_lock(&ms_direct_lock);
	for (slot = 0; slot < MS_DIRECT_NSLOTS; slot++) {
		p = ms_direct_slot[slot];
		if (!p->addr)
			continue;
		addr = ms_direct_tramp_for(p);
		if (p->addr == addr)
			continue;
		err = ms_modify_ftrace_direct(&p->fops, addr);
		if (!err)
			p->addr = addr;
		else
			pr_warn_once("%s: ftrace did not switch the trampoline (error %d): filtered-out tasks pay the whole entry\n",
				     p->p.target->symbol, err);
	}
	mutex_unlock(&ms_direct_lock);
}

static int ms_direct_attach(struct ms_target *t, const char *symbol, void *addr)
{
	struct ms_direct_probe *p;
	unsigned long tramp;
	unsigned int slot, end;
	int err;

	p = kzalloc(sizeof(*p), GFP_KERNEL);
	if (!p)
		return -ENOMEM;
	p->p.target = t;
	p->kind = t->kind;
	p->index = t->index;
	/*
	 * A syscall's entry function takes a syscall slot, the rest the
	 * others: those trampolines save one argument, the pt_regs.
	 */
	if (t->kind == MS_KIND_SYSCALL &&
	    WARN_ON_ONCE(!symbol || strncmp(symbol, MS_SYSCALL_PREFIX, strlen(MS_SYSCALL_PREFIX)))) {
		kfree(p);
		return -EINVAL;
	}
	slot = t->kind == MS_KIND_SYSCALL ? 0 : MS_DIRECT_NSYS;
	end = t->kind == MS_KIND_SYSCALL ? MS_DIRECT_NSYS : MS_DIRECT_NSLOTS;
	mutex_lock(&ms_direct_lock);
	for (; slot < end && ms_direct_slot[slot] != &ms_direct_none; slot++)
		;
	if (slot == end) {
		err = -ENOSPC;
		goto unlock;
	}
	if (symbol)
		err = ftrace_set_filter(&p->fops, (unsigned char *)symbol, strlen(symbol), 1);
	else
		err = ftrace_set_filter_ip(&p->fops, (unsigned long)addr, 0, 1);
	if (err)
		goto free_filter;
	p->slot = slot;
	/* p's fields before p: pairs with the dependent loads in ms_direct_enter(). */
	smp_store_release(&ms_direct_slot[slot], p);
	/* Read once: a filter change after it switches the slot. */
	tramp = ms_direct_tramp_for(p);
	err = ms_register_ftrace_direct(&p->fops, tramp);
	if (err) {
		ms_direct_refused(p, symbol, err);
		goto free_filter;
	}
	p->addr = tramp;
	mutex_unlock(&ms_direct_lock);
	t->probe = &p->p;
	return 0;

free_filter:
	ms_ftrace_free_filter(&p->fops);
unlock:
	mutex_unlock(&ms_direct_lock);
	kfree(p);
	return err;
}

static void ms_direct_detach(struct ms_target **ts, unsigned int n)
{
	unsigned long addrs[MS_DIRECT_NSLOTS];
	unsigned int slots[MS_DIRECT_NSLOTS];
	bool gone[MS_DIRECT_NSLOTS];
	struct ms_direct_probe *p;
	unsigned int i, nslots = 0;

	n = min_t(unsigned int, n, MS_DIRECT_NSLOTS);
	/*
	 * Each trampoline taken out of a filter change's reach (addr 0: the
	 * switch skips it) under the lock, then unregistered outside it: a
	 * parameter writer waits for no grace period of ftrace's.
	 */
	mutex_lock(&ms_direct_lock);
	for (i = 0; i < n; i++) {
		p = container_of(ts[i]->probe, struct ms_direct_probe, p);
		addrs[i] = p->addr;
		p->addr = 0;
	}
	mutex_unlock(&ms_direct_lock);
	for (i = 0; i < n; i++) {
		p = container_of(ts[i]->probe, struct ms_direct_probe, p);
		gone[i] = !ms_unregister_ftrace_direct(&p->fops, addrs[i]);
		/* A slot ftrace still calls would never drain. */
		if (gone[i])
			slots[nslots++] = p->slot;
		/* Only if ftrace broke; nothing here can keep the module. */
		WARN(!gone[i], "%s: unregister_ftrace_direct failed: its call site may still enter mseal_stats' trampoline after unload\n",
		     ts[i]->symbol);
	}
	ms_direct_quiesce(slots, nslots, "detach");
	mutex_lock(&ms_direct_lock);
	for (i = 0; i < n; i++) {
		p = container_of(ts[i]->probe, struct ms_direct_probe, p);
		ts[i]->probe = NULL;
		/* ftrace may still hold an ops it would not let go: leak it. */
		if (!gone[i])
			continue;
		WRITE_ONCE(ms_direct_slot[p->slot], &ms_direct_none);
		kfree(p);
	}
	mutex_unlock(&ms_direct_lock);
}

/* No pool to run dry, no recursion guard that could skip a call. */
static unsigned long ms_direct_missed(const struct ms_target *t)
{
	return 0;
}

#else /* !MS_HAVE_FTRACE_DIRECT */

static bool ms_direct_available(void)
{
	return false;
}

void ms_direct_filter_changed(void)
{
}

static int ms_direct_attach(struct ms_target *t, const char *symbol, void *addr)
{
	return -EOPNOTSUPP;
}

static void ms_direct_detach(struct ms_target **ts, unsigned int n)
{
}

static unsigned long ms_direct_missed(const struct ms_target *t)
{
	return 0;
}

#endif /* MS_HAVE_FTRACE_DIRECT */

const struct ms_backend_ops ms_direct_ops = {
	.name = "direct",
	.span = "the entry function " MS_SYSCALL_PREFIX "NAME",
	.wraps_calls = true,
	.requires = "ftrace direct calls: CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS (on arm64 with DYNAMIC_FTRACE_WITH_CALL_OPS, Linux 6.4 on)",
	.available = ms_direct_available,
	.attach = ms_direct_attach,
	.detach = ms_direct_detach,
	.missed = ms_direct_missed,
};
