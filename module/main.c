// SPDX-License-Identifier: GPL-2.0
/*
 * mseal_stats - count and time every mseal check, per syscall.
 *
 *   insmod mseal_stats.ko [tgid=N] [comm=NAME] [maxactive=N]
 *   cat /sys/kernel/debug/mseal_stats          text report
 *   cat /sys/kernel/debug/mseal_stats.json     the same as JSON
 *   echo reset > /sys/kernel/debug/mseal_stats
 *
 * Order matters for a safe unload at any moment: the probes go first
 * (unregister_kretprobes() returns when no handler runs any more), then the
 * files (an open file holds a module reference), then the per-CPU data.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/init.h>
#include <linux/module.h>
#include <linux/printk.h>
#include "filter.h"
#include "mseal_stats.h"
#include "plan.h"
#include "stats.h"

static int __init ms_init(void)
{
	unsigned int i, attached = 0;
	int err;

	err = ms_stats_init();
	if (err)
		return err;
	ms_calib_run(ms_maxactive());
	ms_plan_attach(ms_maxactive());
	err = ms_debugfs_init();
	if (err) {
		ms_plan_detach();
		ms_stats_exit();
		return err;
	}
	for (i = 0; i < MS_NTARGETS; i++)
		attached += ms_plan_target(i)->state == MS_STATE_ATTACHED;
	pr_info("%u of %u probes attached (backend kretprobe, maxactive %d), mseal %s\n",
		attached, MS_NTARGETS, ms_maxactive(),
		ms_plan_mseal_supported() ? "supported" : "not supported");
	return 0;
}

static void __exit ms_exit(void)
{
	ms_plan_detach();
	ms_debugfs_exit();
	ms_stats_exit();
}

module_init(ms_init);
module_exit(ms_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Count and time the mseal checks, per syscall");
MODULE_AUTHOR("mseal-stats project");
