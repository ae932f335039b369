// SPDX-License-Identifier: GPL-2.0
/*
 * control.c - the commands, through a write-only module parameter:
 *
 *   echo reset     > /sys/module/mseal_stats/parameters/command
 *   echo calibrate > /sys/module/mseal_stats/parameters/command
 *
 * reset zeroes every counter, the probes' missed counts too; calibrate
 * measures the probe cost again (-EAGAIN when it cannot: calib.c).
 * Anything else is -EINVAL and changes nothing.
 *
 * Why a parameter and not a write to the debugfs file: under Secure Boot
 * most kernels run with lockdown=integrity, and debugfs then opens only
 * files with no write bit (debugfs_locked_down()); sysfs parameters are
 * not restricted, so the commands work there as everywhere.  Both reports
 * stay in debugfs, read-only.
 *
 * The parameter's file exists from the moment the module is loading, so a
 * command can arrive before init is done or while exit runs: it is refused
 * (-EBUSY) until ms_control_ready(true) and after ms_control_ready(false).
 * One mutex orders the commands, so a reset never lands inside a
 * calibration's measurement.  No command waits for a grace period (the
 * calibration probes stay attached from load to unload: calib.c): sysfs
 * holds kernel_param_lock around .set, and reading any parameter of the
 * module, like rmmod, would wait behind it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/printk.h>
#include <linux/string.h>
#include "mseal_stats.h"
#include "plan.h"
#include "stats.h"

/*
 * Serializes the commands and ms_ready, the clock's note and the drop of
 * its key (clock.c), and every write of the generation (stats.c asserts it); exit's
 * ms_control_ready(false) waits out a running calibrate before detach.
 * Taken before cpu_hotplug_lock (static_branch_disable() takes it).
 */
DEFINE_MUTEX(ms_control_lock);
static bool ms_ready;

void ms_control_ready(bool ready)
{
	mutex_lock(&ms_control_lock);
	/*
	 * The figures start when commands do, as after a reset: what the
	 * probes counted while they attached and calibrated goes, and the
	 * report's "since load" is the span of what it sums.
	 */
	if (ready && !ms_ready) {
		ms_stats_reset();
		ms_plan_reset_missed();
	}
	ms_ready = ready;
	mutex_unlock(&ms_control_lock);
}

static int ms_command_set(const char *val, const struct kernel_param *kp)
{
	int err = 0;

	mutex_lock(&ms_control_lock);
	if (!ms_ready) {
		pr_warn("command=%s: commands are taken once the module is loaded, not while it loads or unloads\n",
			val);
		err = -EBUSY;
	} else if (sysfs_streq(val, "reset")) {
		ms_stats_reset();
		ms_plan_reset_missed();
	} else if (sysfs_streq(val, "calibrate")) {
		err = ms_calib_run();
	} else {
		err = -EINVAL;
	}
	mutex_unlock(&ms_control_lock);
	return err;
}

/* Write only: no .get, and the file has no read bit. */
static const struct kernel_param_ops ms_command_ops = {
	.set = ms_command_set,
};

module_param_cb(command, &ms_command_ops, NULL, 0200);
MODULE_PARM_DESC(command, "write reset (zero all counters) or calibrate (measure the probe cost again)");
