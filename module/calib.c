// SPDX-License-Identifier: GPL-2.0
/*
 * calib.c - measure what the probes themselves cost.
 *
 * A probe of the backend in use (kretprobe or fprobe) with the check
 * handlers is put on an empty function of this module and the function is
 * called in MS_CALIB_BATCHES batches of
 * MS_CALIB_CALLS; each figure is the lowest batch mean, so an interrupt in
 * one batch does not inflate it:
 *   calibration_ns        the mean duration the handlers record for it:
 *                         the probe's own share of every timed call, which
 *                         the report subtracts to give "net" times;
 *   calibration_outer_ns  the mean extra time per call, probed against
 *                         unprobed: the whole cost of one probe pair.
 * Run at load and on `echo calibrate > /sys/kernel/debug/mseal_stats`.
 *
 * A calibration that cannot measure returns -EAGAIN and keeps the figures
 * it had: kretprobe with kprobes disabled (sentinel.c), or a probe that
 * registered but never fired.  Try again when the cause is gone.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kprobes.h>
#include <linux/minmax.h>
#include <linux/mutex.h>
#include <linux/printk.h>
#include <linux/timekeeping.h>
#include "mseal_stats.h"
#include "plan.h"
#include "report.h"
#include "stats.h"

#define MS_CALIB_BATCHES	10
#define MS_CALIB_CALLS		200

static DEFINE_MUTEX(ms_calib_lock);
static struct ms_target ms_calib_target = {
	.name = "calibration",
	.kind = MS_KIND_CALIB,
};
static u64 ms_calib_inner, ms_calib_outer;

/* The probed function: a call, an fentry site, nothing else. */
static noinline void ms_calib_empty(void)
{
	asm volatile("");
}

static u64 ms_calib_loop(void)
{
	u64 t0 = ktime_get_ns();
	unsigned int i;

	for (i = 0; i < MS_CALIB_CALLS; i++)
		ms_calib_empty();
	return ktime_get_ns() - t0;
}

int ms_calib_run(int maxactive)
{
	struct ms_target *t = &ms_calib_target;
	enum ms_backend b = ms_backend();
	u64 bare = U64_MAX, probed = U64_MAX, inner = U64_MAX, timed = 0;
	struct ms_cell c;
	unsigned int i;
	int err;

	mutex_lock(&ms_calib_lock);
	if (b == MS_BACKEND_KRETPROBE && !ms_kprobes_enabled()) {
		pr_warn("calibration: " MS_KPROBES_OFF_MSG ": not calibrated\n");
		err = -EAGAIN;
		goto out;
	}
	for (i = 0; i < MS_CALIB_BATCHES; i++)
		bare = min(bare, ms_calib_loop());
	err = ms_probe_register(t, b, maxactive, NULL, ms_calib_empty);
	if (err) {
		pr_warn("calibration: cannot probe own function with %s: error %d\n",
			ms_backend_name(b), err);
		goto out;
	}
	for (i = 0; i < MS_CALIB_BATCHES; i++) {
		ms_stats_reset_cell(MS_CELL_CALIB);
		probed = min(probed, ms_calib_loop());
		ms_stats_cell_sum(MS_CELL_CALIB, &c);
		inner = min(inner, ms_cell_mean(&c));
		timed += c.count;
	}
	ms_probe_unregister(&t, 1, b);
	ms_stats_reset_cell(MS_CELL_CALIB);
	if (!timed) {
		pr_warn("calibration (%s): the probe never fired: not calibrated\n",
			ms_backend_name(b));
		err = -EAGAIN;
		goto out;
	}
	ms_calib_inner = inner;
	ms_calib_outer = probed > bare ? (probed - bare) / MS_CALIB_CALLS : 0;
	pr_info("calibration (%s): %llu ns inside a timed call, %llu ns per probed call (%llu of %u calls timed)\n",
		ms_backend_name(b), ms_calib_inner, ms_calib_outer, timed,
		MS_CALIB_BATCHES * MS_CALIB_CALLS);
out:
	mutex_unlock(&ms_calib_lock);
	return err;
}

u64 ms_calib_ns(void)
{
	return ms_calib_inner;
}

u64 ms_calib_outer_ns(void)
{
	return ms_calib_outer;
}
