// SPDX-License-Identifier: GPL-2.0
/*
 * ms_park.c - a test-only module: holds a task inside a seal check's body,
 * for the test of unloading mseal_stats while a call is in flight through
 * it (tests/guest/ms_unload, suite 47-module-direct).
 *
 *   insmod ms_park.ko [func=can_modify_vma_madv] [comm=ms_parked]
 *   echo 1 >/sys/module/ms_park/parameters/armed    the next call of FUNC
 *                                                   by a task named COMM
 *                                                   parks there
 *   cat /sys/module/ms_park/parameters/parked       1 while it is parked
 *   echo 0 >/sys/module/ms_park/parameters/armed    lets it go on
 *
 * A kprobe on the first instruction of FUNC's body past its fentry site:
 * the offset is found by trying 1, 2, ... (register_kprobe refuses one that
 * is not an instruction boundary); a probe that lands on the ftrace
 * location is given back, since it would fire before mseal_stats' direct
 * trampoline has called the function.  The pre-handler, for COMM's tasks
 * only and while armed, spins: the task is then inside the timed call,
 * with the trampoline's return address on its stack.  The check bodies
 * never sleep, so nothing else can hold a task there.
 *
 * The pre-handler runs with interrupts off (int3): a parked CPU takes no
 * IPI, so a text patch elsewhere (ftrace's, on x86) waits for it; the test
 * boots 4 vCPUs so that the shell still has one.  Parking is bounded:
 * timeout_ms (default 20000) later the task goes on by itself and
 * "timeouts" counts it (a test must see 0).  The time is
 * ktime_get_mono_fast_ns(), which runs with interrupts off.
 *
 * Read-only: offset (the one probed), parks (tasks parked so far),
 * timeouts.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/nmi.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/timekeeping.h>

static char *func = "can_modify_vma_madv";
module_param(func, charp, 0444);
MODULE_PARM_DESC(func, "the function whose body a task parks in");

static char comm[TASK_COMM_LEN] = "ms_parked";
module_param_string(comm, comm, sizeof(comm), 0444);
MODULE_PARM_DESC(comm, "only tasks of this comm park");

static int armed;
module_param(armed, int, 0644);
MODULE_PARM_DESC(armed, "1: the next call by COMM parks; 0: the parked task goes on");

static int parked;
module_param(parked, int, 0444);
MODULE_PARM_DESC(parked, "tasks parked now");

static int parks;
module_param(parks, int, 0444);
MODULE_PARM_DESC(parks, "tasks parked since the load");

static int timeouts;
module_param(timeouts, int, 0444);
MODULE_PARM_DESC(timeouts, "parks that ended by the timeout, not by armed=0");

static unsigned int timeout_ms = 20000;
module_param(timeout_ms, uint, 0444);
MODULE_PARM_DESC(timeout_ms, "the longest a task stays parked");

static unsigned int offset;
module_param(offset, uint, 0444);
MODULE_PARM_DESC(offset, "FUNC+offset is probed (found at load)");

static struct kprobe ms_park_kp;

static int ms_park_pre(struct kprobe *p, struct pt_regs *regs)
{
	u64 end;

	if (!READ_ONCE(armed) || strncmp(current->comm, comm, TASK_COMM_LEN))
		return 0;
	end = ktime_get_mono_fast_ns() + (u64)timeout_ms * NSEC_PER_MSEC;
	WRITE_ONCE(parks, READ_ONCE(parks) + 1);
	WRITE_ONCE(parked, READ_ONCE(parked) + 1);
	while (READ_ONCE(armed)) {
		if (ktime_get_mono_fast_ns() > end) {
			WRITE_ONCE(timeouts, READ_ONCE(timeouts) + 1);
			WRITE_ONCE(armed, 0);
			break;
		}
		touch_nmi_watchdog();
		cpu_relax();
	}
	WRITE_ONCE(parked, READ_ONCE(parked) - 1);
	return 0;
}
NOKPROBE_SYMBOL(ms_park_pre);

static int __init ms_park_init(void)
{
	int err = -EINVAL;
	unsigned int off;

	/* The first instruction boundary past the entry that is not the
	 * ftrace location (the fentry call, after an endbr64 with IBT). */
	for (off = 1; off < 64; off++) {
		memset(&ms_park_kp, 0, sizeof(ms_park_kp));
		ms_park_kp.symbol_name = func;
		ms_park_kp.offset = off;
		ms_park_kp.pre_handler = ms_park_pre;
		err = register_kprobe(&ms_park_kp);
		if (err)	/* -EILSEQ: not a boundary; else the entry refused */
			continue;
		if (kprobe_ftrace(&ms_park_kp)) {
			unregister_kprobe(&ms_park_kp);
			err = -EILSEQ;
			continue;
		}
		offset = off;
		pr_info("%s+%u probed (%px): tasks named %s park there when armed\n",
			func, off, ms_park_kp.addr, comm);
		return 0;
	}
	pr_err("no kprobe on %s's body: %d\n", func, err);
	return err ? err : -EINVAL;
}

static void __exit ms_park_exit(void)
{
	WRITE_ONCE(armed, 0);
	unregister_kprobe(&ms_park_kp);
}

module_init(ms_park_init);
module_exit(ms_park_exit);
MODULE_DESCRIPTION("mseal-stats tests: park a task inside a seal check");
MODULE_LICENSE("GPL");
