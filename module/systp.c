// SPDX-License-Identifier: GPL-2.0
/*
 * systp.c - the syscall side on the raw_syscalls tracepoints (sys_enter,
 * sys_exit), the default where the kernel has them: syscall_backend=tracepoint.
 *
 * Why: a kretprobe on a syscall wrapper pays an ftrace trampoline that saves
 * every register, a kprobe lookup, an instance from a pool and a return
 * trampoline, twice per syscall.  A tracepoint probe is a direct call from
 * the syscall entry and exit work, with the syscall number and registers as
 * arguments.  The data is the same: count, duration (sys_enter to sys_exit:
 * the wrapper's time plus the syscall dispatch), -EPERM and other errors;
 * checks are charged to their syscall by syscall_get_nr() as before.
 *
 * The price: while registered, every syscall of every task takes the
 * syscall entry and exit work (SYSCALL_WORK_SYSCALL_TRACEPOINT), and our
 * probe sees every syscall, so it tests the filter and the number first and
 * returns at once for any syscall it does not track.
 *
 * The entry time waits in the in-flight table (inflight.h), since the task
 * may sleep or migrate before sys_exit.  A sys_enter that finds no free slot
 * is a miss, counted per syscall like a kretprobe's; a sys_exit without its
 * sys_enter (the syscall began before the load) is not counted at all.
 *
 * Order, so that no slot is ever left claimed while the probes run: sys_exit
 * is registered before sys_enter and unregistered after it, so every
 * sys_enter we see has its sys_exit seen too.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/errno.h>
#include <linux/mm.h>
#include <linux/percpu.h>
#include <linux/ptrace.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/tracepoint.h>
#include "mseal_stats_compat.h"
#include "cell.h"
#include "filter.h"
#include "inflight.h"
#include "names.h"
#include "stats.h"
#include "systp.h"

#if MS_HAVE_SYSCALL_TP

/* 4096 slots of one cache line: 256 KiB, far more than tasks in flight. */
#define MS_INFLIGHT_BITS	12

struct ms_tp_missed {
	unsigned long n[MS_NSYS];
};

static struct tracepoint *ms_tp_enter_tp, *ms_tp_exit_tp;
static struct ms_inflight ms_tp_inflight;
static bool ms_tp_on[MS_NSYS];	/* set before the probes, then only read */
static DEFINE_PER_CPU(struct ms_tp_missed, ms_tp_missed);

static void ms_tp_find(struct tracepoint *tp, void *priv)
{
	if (!strcmp(tp->name, "sys_enter"))
		ms_tp_enter_tp = tp;
	else if (!strcmp(tp->name, "sys_exit"))
		ms_tp_exit_tp = tp;
}

bool ms_systp_available(void)
{
	if (!ms_tp_enter_tp || !ms_tp_exit_tp)
		for_each_kernel_tracepoint(ms_tp_find, NULL);
	return ms_tp_enter_tp && ms_tp_exit_tp;
}

/* The tracked syscall number NR is, or -1: compat numbers are another table's. */
static __always_inline int ms_tp_sys(long nr)
{
	int sys;

	if (in_compat_syscall())
		return -1;
	sys = ms_sys_from_nr(nr);
	return sys != MS_OTHER && ms_tp_on[sys] ? sys : -1;
}

static notrace void ms_tp_sys_enter(void *data, struct pt_regs *regs, long id)
{
	int sys;

	if (!ms_filter_pass())
		return;
	sys = ms_tp_sys(id);
	if (sys < 0)
		return;
	if (!ms_inflight_put(&ms_tp_inflight, current, ktime_get_ns(), MS_CELL_SYS(sys)))
		this_cpu_inc(ms_tp_missed.n[sys]);
}
NOKPROBE_SYMBOL(ms_tp_sys_enter);

/*
 * No filter test here: a task the filter let in at sys_enter must get its
 * slot back even if the filter changed since; one that it kept out has no
 * slot, and the look-up says so.
 */
static notrace void ms_tp_sys_exit(void *data, struct pt_regs *regs, long ret)
{
	unsigned int cell;
	u64 t0;

	if (ms_tp_sys(syscall_get_nr(current, regs)) < 0)
		return;
	if (!ms_inflight_take(&ms_tp_inflight, current, &t0, &cell))
		return;
	ms_stats_record_syscall(cell, ktime_get_ns() - t0, ret);
}
NOKPROBE_SYMBOL(ms_tp_sys_exit);

int ms_systp_attach(const bool on[MS_NSYS])
{
	int err, cpu;

	if (!ms_systp_available())
		return -ENOENT;
	ms_tp_inflight.bits = MS_INFLIGHT_BITS;
	ms_tp_inflight.slot = kvcalloc(1U << MS_INFLIGHT_BITS,
				       sizeof(struct ms_inflight_slot), GFP_KERNEL);
	if (!ms_tp_inflight.slot)
		return -ENOMEM;
	for_each_possible_cpu(cpu)
		memset(per_cpu_ptr(&ms_tp_missed, cpu), 0, sizeof(struct ms_tp_missed));
	memcpy(ms_tp_on, on, sizeof(ms_tp_on));

	err = tracepoint_probe_register(ms_tp_exit_tp, ms_tp_sys_exit, NULL);
	if (err)
		goto free;
	err = tracepoint_probe_register(ms_tp_enter_tp, ms_tp_sys_enter, NULL);
	if (!err)
		return 0;
	tracepoint_probe_unregister(ms_tp_exit_tp, ms_tp_sys_exit, NULL);
	tracepoint_synchronize_unregister();
free:
	kvfree(ms_tp_inflight.slot);
	ms_tp_inflight.slot = NULL;
	return err;
}

/*
 * After tracepoint_synchronize_unregister() no probe of ours runs, nor ever
 * will (it waits for the RCU flavours tracepoint callers use, the
 * faultable syscall tracepoints' tasks-trace RCU included), so the table
 * can go; slots still claimed belong to syscalls that outlive us.
 */
void ms_systp_detach(void)
{
	if (!ms_tp_inflight.slot)
		return;
	tracepoint_probe_unregister(ms_tp_enter_tp, ms_tp_sys_enter, NULL);
	tracepoint_probe_unregister(ms_tp_exit_tp, ms_tp_sys_exit, NULL);
	tracepoint_synchronize_unregister();
	kvfree(ms_tp_inflight.slot);
	ms_tp_inflight.slot = NULL;
}

unsigned long ms_systp_missed(unsigned int sys)
{
	unsigned long n = 0;
	int cpu;

	if (sys >= MS_NSYS)
		return 0;
	for_each_possible_cpu(cpu)
		n += per_cpu_ptr(&ms_tp_missed, cpu)->n[sys];
	return n;
}

#else /* !MS_HAVE_SYSCALL_TP */

bool ms_systp_available(void)
{
	return false;
}

int ms_systp_attach(const bool on[MS_NSYS])
{
	return -EOPNOTSUPP;
}

void ms_systp_detach(void)
{
}

unsigned long ms_systp_missed(unsigned int sys)
{
	return 0;
}

#endif /* MS_HAVE_SYSCALL_TP */
