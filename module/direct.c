// SPDX-License-Identifier: GPL-2.0
/*
 * direct.c - the direct backend: an ftrace direct call per target, to a
 * trampoline of ours (direct_tramp.S) that calls the function itself and
 * sees its return, the mechanism of BPF's fexit.  One ftrace_ops per
 * target, filtered by the target's name (ftrace_set_filter) or, for
 * calibration, by address; each target has a slot, whose trampoline passes
 * the slot number to ms_direct_enter().
 *
 * Only one direct caller per function: when a BPF fentry/fexit program
 * (bpftrace's kfunc:/kretfunc:) or another module's direct call is already
 * there, registration says -EBUSY and plan.c falls back to a kretprobe for
 * that target.  The other way round, theirs is refused while ours is on.
 *
 * Unloading safely.  A task inside a timed call has a return address into
 * the trampoline on its stack for as long as the function runs; the checks
 * do not sleep, but the trampolines are written for any function, and
 * rcu_tasks alone would not cover one that does (a task that sleeps in
 * the body is quiescent for it).  So:
 *   1. unregister every ops, then synchronize_rcu_tasks(): no task enters a
 *      trampoline any more, and none is left between its entry and the
 *      in-flight count going up (ftrace waits too, for a module's ops, but
 *      not on every kernel in every state: 6.1 skips it with
 *      ftrace_enabled=0, so the module does not rely on it);
 *   2. wait until no timed call is in flight through the slots going
 *      away: a per-CPU count per slot, up in ms_direct_enter() when it
 *      says "time it", down in ms_direct_exit(); after step 1 a detached
 *      slot's count can only go down, so its sum over CPUs read as 0
 *      means every such call is back.  Per slot, not one for all: the
 *      slots that stay attached keep counting, and a sum over them would
 *      seldom read 0 on a busy machine (calibrate, which detaches only its
 *      own slot, used to wait for that with the command lock held);
 *   3. synchronize_rcu_tasks() again: a task that has counted itself out
 *      may still be on the trampoline's last instructions; they do not
 *      sleep, so once it has switched voluntarily it is out;
 * and only then are the slots and probes freed; the text goes with the
 * module after ms_plan_detach() returns.  (Without TASKS_RCU the kernel
 * does not preempt, and synchronize_rcu_tasks() is synchronize_rcu().)
 *
 * What a trampoline can call: a function whose arguments are all in
 * registers (six on x86_64, eight on arm64: stack arguments would be read
 * from the trampoline's frame) and whose value fits two registers.  Every
 * target is one: the checks take at most four arguments.
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
#include <linux/slab.h>
#include <linux/string.h>
#include "compat_direct.h"
#include "backend.h"
#include "direct.h"
#include "handlers.h"

#if MS_HAVE_DIRECT_TRAMP

static_assert(MS_DIRECT_NSLOTS == MS_NTARGETS + 1, "a direct slot per target and calibration");
static_assert(sizeof(struct ms_inst) <= MS_DIRECT_INST_SIZE, "struct ms_inst fits the trampoline frame");

struct ms_direct_probe {
	struct ms_probe p;
	enum ms_kind kind;	/* the target's, next to the probe: one line */
	unsigned int slot;
	struct ftrace_ops fops;
};

/* Bound before the function is patched, unbound once nothing can use it. */
static struct ms_direct_probe *ms_direct_slot[MS_DIRECT_NSLOTS];
/* Timed calls in flight, per slot (see the top, step 2). */
static DEFINE_PER_CPU(long [MS_DIRECT_NSLOTS], ms_direct_inflight);

notrace int ms_direct_enter(unsigned int slot, struct ms_inst *in)
{
	struct ms_direct_probe *p = READ_ONCE(ms_direct_slot[slot]);

	if (unlikely(!p))
		return 0;
	/*
	 * The in-flight count before the handler reads the clock (not inside
	 * the time measured), after the filter: a call the filter keeps out
	 * pays no count.  Until it is up, this task is between the entry and
	 * the count, which the first synchronize_rcu_tasks() of a detach
	 * covers (direct.c's top), as it covers the untimed path's return.
	 */
	in->slot = slot;
	if (likely(p->kind == MS_KIND_CHECK)) {
		if (!ms_filter_pass())
			return 0;
		this_cpu_inc(ms_direct_inflight[slot]);
		if (unlikely(!ms_handler_check_start(p->p.target, in, true))) {
			this_cpu_dec(ms_direct_inflight[slot]);
			return 0;
		}
		return 1;
	}
	this_cpu_inc(ms_direct_inflight[slot]);
	if (!ms_handler_enter(p->p.target, in, true)) {
		this_cpu_dec(ms_direct_inflight[slot]);
		return 0;
	}
	return 1;
}
NOKPROBE_SYMBOL(ms_direct_enter);

notrace void ms_direct_exit(struct ms_inst *in, unsigned long ret)
{
	ms_handler_exit(in, ret);
	this_cpu_dec(ms_direct_inflight[in->slot]);
}
NOKPROBE_SYMBOL(ms_direct_exit);

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

/*
 * Step 2 (see the top): every timed call through SLOTS is back from its
 * function.  A task that died inside one (an oops) never comes back: then
 * unload waits for good, and says so every 10 s.
 */
static void ms_direct_wait_calls(const unsigned int *slots, unsigned int n)
{
	unsigned long start = jiffies, next = start + 10 * HZ;
	long left;

	while ((left = ms_direct_calls_in_flight(slots, n)) > 0) {
		if (time_after(jiffies, next)) {
			pr_warn("waiting for %ld calls in flight through the direct trampolines (%u s)\n",
				left, jiffies_to_msecs(jiffies - start) / 1000);
			next += 10 * HZ;
		}
		msleep(10);
	}
}

/* Steps 1 to 3 (see the top) for SLOTS, whose ops ftrace has let go. */
static void ms_direct_quiesce(const unsigned int *slots, unsigned int n)
{
	synchronize_rcu_tasks();
	ms_direct_wait_calls(slots, n);
	synchronize_rcu_tasks();
}

/*
 * Registration of P refused with ERR.  A refusal can come after the ops
 * went on ftrace_ops_list (ftrace_startup() failing, an IPMODIFY conflict
 * with a livepatch or a kprobe with a post handler): meanwhile a CPU in
 * ftrace_ops_list_func() may have read it (synchronize_rcu()), and a task
 * may have entered the trampoline and be anywhere in ms_direct_enter() or
 * the function (ms_direct_quiesce(), as for a detach).  Only then can P
 * go.  The usual refusal, -EBUSY from a function that has a direct caller
 * already (bpftrace's kfunc:), comes before that: no wait.  On some kernels the refusal also leaves the function's entry in
 * ftrace's direct_functions pointing at our trampoline: nothing exported
 * can take it out, so say so, since it outlives the module
 * (compat_direct.h).
 */
static void ms_direct_refused(struct ms_direct_probe *p, const char *symbol, int err)
{
	WRITE_ONCE(ms_direct_slot[p->slot], NULL);
	if (!ms_ftrace_direct_was_live(&p->fops))
		return;
	synchronize_rcu();
	ms_direct_quiesce(&p->slot, 1);
	if (ms_ftrace_direct_left_stale(&p->fops, err))
		pr_err("%s: ftrace refused the direct call (error %d) and may have kept its entry, which names this module's trampoline, in its direct_functions table (kernels from 6.7, and 6.6.y, without \"ftrace: Fix BPF fexit with livepatch\"): then until reboot every later direct call on this function (a BPF fentry/fexit, bpftrace kfunc:, this module again) gets EBUSY\n",
		       symbol ?: "calibration", err);
}

static int ms_direct_attach(struct ms_target *t, const char *symbol, void *addr)
{
	struct ms_direct_probe *p = kzalloc(sizeof(*p), GFP_KERNEL);
	unsigned int slot;
	int err;

	if (!p)
		return -ENOMEM;
	p->p.target = t;
	p->kind = t->kind;
	mutex_lock(&ms_direct_lock);
	for (slot = 0; slot < MS_DIRECT_NSLOTS && ms_direct_slot[slot]; slot++)
		;
	if (slot == MS_DIRECT_NSLOTS) {
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
	WRITE_ONCE(ms_direct_slot[slot], p);
	err = ms_register_ftrace_direct(&p->fops, ms_direct_tramps[slot]);
	if (err) {
		ms_direct_refused(p, symbol, err);
		goto free_filter;
	}
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
	unsigned int slots[MS_DIRECT_NSLOTS];
	bool gone[MS_DIRECT_NSLOTS];
	struct ms_direct_probe *p;
	unsigned int i, nslots = 0;

	n = min_t(unsigned int, n, MS_DIRECT_NSLOTS);
	for (i = 0; i < n; i++) {
		p = container_of(ts[i]->probe, struct ms_direct_probe, p);
		gone[i] = !ms_unregister_ftrace_direct(&p->fops, ms_direct_tramps[p->slot]);
		/* A slot ftrace still calls would never drain: not waited for. */
		if (gone[i])
			slots[nslots++] = p->slot;
		/*
		 * Only when ftrace itself broke (ftrace_bug() disabled it): the
		 * site may still call the trampoline, which goes with this
		 * module.  Nothing here can keep the module; say so loudly.
		 */
		WARN(!gone[i], "%s: unregister_ftrace_direct failed: its call site may still enter mseal_stats' trampoline after unload\n",
		     ts[i]->symbol);
	}
	ms_direct_quiesce(slots, nslots);
	mutex_lock(&ms_direct_lock);
	for (i = 0; i < n; i++) {
		p = container_of(ts[i]->probe, struct ms_direct_probe, p);
		ts[i]->probe = NULL;
		/* ftrace may still hold an ops it would not let go: leak it. */
		if (!gone[i])
			continue;
		WRITE_ONCE(ms_direct_slot[p->slot], NULL);
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
	.wraps_calls = true,
	.requires = "ftrace direct calls: CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS (on arm64 with DYNAMIC_FTRACE_WITH_CALL_OPS, Linux 6.4 on)",
	.available = ms_direct_available,
	.attach = ms_direct_attach,
	.detach = ms_direct_detach,
	.missed = ms_direct_missed,
};
