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
 *   2. wait until no timed call is in flight: a per-CPU count, up in
 *      ms_direct_enter() when it says "time it", down in ms_direct_exit();
 *      after step 1 it can only go down, so its sum over CPUs read as 0
 *      means every such call is back;
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
	struct ftrace_ops fops;
	unsigned int slot;
};

/* Bound before the function is patched, unbound once nothing can use it. */
static struct ms_direct_probe *ms_direct_slot[MS_DIRECT_NSLOTS];
static DEFINE_PER_CPU(long, ms_direct_inflight);

notrace int ms_direct_enter(unsigned int slot, struct ms_inst *in)
{
	struct ms_direct_probe *p = READ_ONCE(ms_direct_slot[slot]);

	if (unlikely(!p) || !ms_handler_enter(p->p.target, in))
		return 0;
	this_cpu_inc(ms_direct_inflight);
	return 1;
}
NOKPROBE_SYMBOL(ms_direct_enter);

notrace void ms_direct_exit(struct ms_inst *in, unsigned long ret)
{
	ms_handler_exit(in, ret);
	this_cpu_dec(ms_direct_inflight);
}
NOKPROBE_SYMBOL(ms_direct_exit);

#endif /* MS_HAVE_DIRECT_TRAMP */

#if MS_HAVE_FTRACE_DIRECT

static DEFINE_MUTEX(ms_direct_lock);	/* the slots, for attach and detach */

static bool ms_direct_available(void)
{
	return true;
}

static int ms_direct_attach(struct ms_target *t, const char *symbol, void *addr)
{
	struct ms_direct_probe *p = kzalloc(sizeof(*p), GFP_KERNEL);
	unsigned int slot;
	int err;

	if (!p)
		return -ENOMEM;
	p->p.target = t;
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
	/*
	 * A refusal (-EBUSY: the function has a direct caller already, or an
	 * IPMODIFY user such as livepatch) comes before anything is patched:
	 * no call can have reached the trampoline, the slot is free again.
	 */
	err = ms_register_ftrace_direct(&p->fops, ms_direct_tramps[slot]);
	if (err) {
		WRITE_ONCE(ms_direct_slot[slot], NULL);
		/*
		 * ftrace_startup() refuses after the ops went on ftrace_ops_list
		 * and takes it off with no grace period: a CPU in
		 * ftrace_ops_list_func() may still read it or its filter.
		 */
		synchronize_rcu();
		goto free_filter;
	}
	mutex_unlock(&ms_direct_lock);
	t->probe = &p->p;
	return 0;

free_filter:
	ftrace_free_filter(&p->fops);
unlock:
	mutex_unlock(&ms_direct_lock);
	kfree(p);
	return err;
}

static long ms_direct_calls_in_flight(void)
{
	long n = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		n += READ_ONCE(per_cpu(ms_direct_inflight, cpu));
	return n;
}

/*
 * Step 2 (see the top): every timed call is back from its function.  A
 * task that died inside one (an oops) never comes back: then unload waits
 * for good, and says so every 10 s.
 */
static void ms_direct_wait_calls(void)
{
	unsigned long start = jiffies, next = start + 10 * HZ;
	long n;

	while ((n = ms_direct_calls_in_flight()) > 0) {
		if (time_after(jiffies, next)) {
			pr_warn("unload waits for %ld calls in flight through the direct trampolines (%u s)\n",
				n, jiffies_to_msecs(jiffies - start) / 1000);
			next += 10 * HZ;
		}
		msleep(10);
	}
}

static void ms_direct_detach(struct ms_target **ts, unsigned int n)
{
	bool gone[MS_NTARGETS + 1];
	struct ms_direct_probe *p;
	unsigned int i;

	for (i = 0; i < n && i < ARRAY_SIZE(gone); i++) {
		p = container_of(ts[i]->probe, struct ms_direct_probe, p);
		gone[i] = !ms_unregister_ftrace_direct(&p->fops, ms_direct_tramps[p->slot]);
		/*
		 * Only when ftrace itself broke (ftrace_bug() disabled it): the
		 * site may still call the trampoline, which goes with this
		 * module.  Nothing here can keep the module; say so loudly.
		 */
		WARN(!gone[i], "%s: unregister_ftrace_direct failed: its call site may still enter mseal_stats' trampoline after unload\n",
		     ts[i]->symbol);
	}
	synchronize_rcu_tasks();
	ms_direct_wait_calls();
	synchronize_rcu_tasks();
	mutex_lock(&ms_direct_lock);
	for (i = 0; i < n && i < ARRAY_SIZE(gone); i++) {
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
	.requires = "ftrace direct calls: CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS (on arm64 with DYNAMIC_FTRACE_WITH_CALL_OPS, Linux 6.4 on)",
	.available = ms_direct_available,
	.attach = ms_direct_attach,
	.detach = ms_direct_detach,
	.missed = ms_direct_missed,
};
