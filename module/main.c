// SPDX-License-Identifier: GPL-2.0
/*
 * mseal_stats - count and time every mseal check, per syscall.
 *
 *   insmod mseal_stats.ko [tgid=N] [comm=NAME] [maxactive=N]
 *                         [backend=auto|direct|kretprobe]
 *                         [syscall_backend=auto|direct|tracepoint|kretprobe]
 *                         [syscalls=1|0]
 *   cat /sys/kernel/debug/mseal_stats          text report
 *   cat /sys/kernel/debug/mseal_stats.json     the same as JSON
 *   echo reset > /sys/module/mseal_stats/parameters/command
 *
 * Order matters for a safe unload at any moment: commands are refused
 * first (control.c), then the probes go, calibration's first
 * (ms_calib_detach(), ms_plan_detach(): each returns when no
 * handler runs any more and no task is inside a trampoline of ours, with
 * any backend: see each backend's detach), then the files (an open file
 * holds a module reference), then the sentinel kprobe the report asks
 * (sentinel.c), the filter and the per-CPU data.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/init.h>
#include <linux/module.h>
#include <linux/printk.h>
#include "backend.h"
#include "filter.h"
#include "clock.h"
#include "names.h"
#include "mseal_stats.h"
#include "plan.h"
#include "report.h"
#include "stats.h"

static void ms_say_loaded(void)
{
	const struct ms_backend_ops *sys = ms_backend_syscalls();
	bool chk_kp = false, sys_kp = false;
	unsigned int i;

	pr_info("%u of %u probes attached (checks %s, syscalls %s, maxactive %d), mseal %s\n",
		ms_plan_attached(), ms_plan_count(), ms_backend_checks()->name,
		sys ? sys->name : "not probed (syscalls=0)", ms_maxactive(),
		ms_plan_mseal_supported() ? "supported" : "not supported");
	if (ms_locked_down())
		pr_info("lockdown: debugfs is read-only here; the reports are (0400), and the commands go through " MS_COMMAND_PARAM "\n");
	if (ms_kprobes_enabled())
		return;
	/* Loaded all the same: writing 1 there arms every probe again. */
	for (i = 0; i < ms_plan_count(); i++) {
		const struct ms_target *t = ms_plan_target(i);

		if (t->state != MS_STATE_ATTACHED || !t->ops->needs_kprobes)
			continue;
		if (t->kind == MS_KIND_SYSCALL)
			sys_kp = true;
		else
			chk_kp = true;
	}
	pr_warn(MS_KPROBES_OFF_MSG ": %s\n", ms_kprobes_off_effect(chk_kp, sys_kp, sys));
}

static int __init ms_init(void)
{
	int err;

	ms_names_init();
	err = ms_backend_resolve();
	if (err)
		goto filter;
	err = ms_filter_start();
	if (err)
		goto filter;
	err = ms_stats_init();
	if (err)
		goto filter;
	ms_sentinel_init();
	ms_clock_init();
	/*
	 * Neither a target that would not attach nor a failed calibration
	 * stops the load: both are in dmesg and in the report.  Calibration
	 * after the attach: it measures each backend in use, with the look-up
	 * into the syscall side that a real check makes (calib.c).
	 */
	ms_plan_attach(ms_backend_checks(), ms_backend_syscalls());
	ms_calib_attach();
	ms_calib_run();
	err = ms_debugfs_init();
	if (err) {
		ms_calib_detach();
		ms_plan_detach();
		ms_clock_exit();
		ms_sentinel_exit();
		ms_stats_exit();
		goto filter;
	}
	ms_say_loaded();
	/* Counts and rates start here, not before a slow attach (control.c). */
	ms_control_ready(true);
	return 0;
filter:
	/* A filter the parameters set is dropped; later writes are refused. */
	ms_filter_exit();
	return err;
}

static void __exit ms_exit(void)
{
	ms_control_ready(false);
	ms_calib_detach();
	ms_plan_detach();
	ms_clock_exit();
	ms_debugfs_exit();
	ms_sentinel_exit();
	ms_filter_exit();
	ms_stats_exit();
}

module_init(ms_init);
module_exit(ms_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Count and time the mseal checks, per syscall");
MODULE_AUTHOR("mseal-stats project");
/* dkms.conf's PACKAGE_VERSION, passed in by Kbuild: one version, one place. */
MODULE_VERSION(MS_VERSION);
