// SPDX-License-Identifier: GPL-2.0
/*
 * sentinel.c - are kprobes armed at all on this kernel right now?
 *
 * `echo 0 > /sys/kernel/debug/kprobes/enabled` disarms every kprobe and
 * kretprobe in the system (and any registered later) until 1 is written
 * again; register_kretprobe() still succeeds, the probes just never fire.
 * The flag itself (kprobes_all_disarmed) is not exported, and a disarmed
 * kprobe keeps its flags, so kprobe_disabled() cannot tell either.  So the
 * module keeps one kprobe of its own on an empty function of its own and
 * calls that function: if the hit count moved, kprobes fire.  One trap per
 * question; asked at load, at each report open and before calibration.
 *
 * The function is built like calib.c's empty function (a traceable call
 * site, nothing else), so the kprobe lands where the calibration's does on
 * every kernel tested: an ftrace-based kprobe on x86, which the switch
 * disarms like any other.  A notrace function is only "endbr64; ret" with
 * IBT, and x86 6.12 refuses a kprobe there (-EINVAL, seen on src-debug).
 * Direct calls and tracepoints do not depend on kprobes being armed.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/kprobes.h>
#include <linux/printk.h>
#include "mseal_stats.h"

static atomic_long_t ms_sentinel_hits = ATOMIC_LONG_INIT(0);
static bool ms_sentinel_registered;

/* The probed function: called only to be probed. */
static noinline void ms_sentinel_ping(void)
{
	asm volatile("");
}

static int ms_sentinel_pre(struct kprobe *p, struct pt_regs *regs)
{
	atomic_long_inc(&ms_sentinel_hits);
	return 0;
}
NOKPROBE_SYMBOL(ms_sentinel_pre);

static struct kprobe ms_sentinel_kp = {
	.pre_handler = ms_sentinel_pre,
};

int ms_sentinel_init(void)
{
	int err;

	ms_sentinel_kp.addr = (kprobe_opcode_t *)ms_sentinel_ping;
	err = register_kprobe(&ms_sentinel_kp);
	if (err) {
		/* Not fatal: the report then cannot tell, and says so. */
		pr_warn("cannot probe own sentinel function (error %d): whether kprobes are enabled is unknown\n",
			err);
		return 0;
	}
	ms_sentinel_registered = true;
	return 0;
}

void ms_sentinel_exit(void)
{
	if (ms_sentinel_registered)
		unregister_kprobe(&ms_sentinel_kp);
	ms_sentinel_registered = false;
}

/*
 * True when a kprobe hit fires (or when the sentinel could not be set up:
 * no evidence against).  Process context only; concurrent callers each see
 * at least their own hit.
 */
bool ms_kprobes_enabled(void)
{
	long before;

	if (!ms_sentinel_registered)
		return true;
	before = atomic_long_read(&ms_sentinel_hits);
	ms_sentinel_ping();
	return atomic_long_read(&ms_sentinel_hits) != before;
}
