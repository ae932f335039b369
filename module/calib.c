// SPDX-License-Identifier: GPL-2.0
/*
 * calib.c - measure what the probes themselves cost.
 *
 * A probe of the checks' backend, with the check handlers, is put on an
 * empty function of this module and the function is called in
 * MS_CALIB_BATCHES batches of MS_CALIB_CALLS; each figure is the lowest
 * batch mean, so an interrupt in one batch does not inflate it:
 *   calibration_ns        the mean duration the handlers record for it:
 *                         the probe's own share of every timed call, which
 *                         the report subtracts to give "net" times;
 *   calibration_outer_ns  the mean extra time per call, probed against
 *                         unprobed: the whole cost of one probe pair.
 * Run at load and on the command "calibrate" (control.c, which orders it
 * with "reset"; a batch is measured as the difference of the calibration
 * cell before and after it, and only whole batches of one reset generation
 * count, so a reset can never make a figure 0).
 *
 * A calibration that cannot measure returns -EAGAIN and keeps the figures
 * it had: a backend that needs kprobes while they are disabled
 * (sentinel.c), or a probe that registered but never fired.  Try again
 * when the cause is gone.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kprobes.h>
#include <linux/minmax.h>
#include <linux/printk.h>
#include <linux/timekeeping.h>
#include "mseal_stats.h"
#include "backend.h"
#include "report.h"
#include "stats.h"

#define MS_CALIB_BATCHES	10
#define MS_CALIB_CALLS		200

static struct ms_target ms_calib_target;
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

int ms_calib_run(void)
{
	const struct ms_backend_ops *ops = ms_backend_checks();
	struct ms_target *t = &ms_calib_target;
	u64 bare = U64_MAX, probed = U64_MAX, inner = U64_MAX, timed = 0;
	struct ms_cell before, after;
	unsigned long gen;
	unsigned int i;
	int err;

	if (ops->needs_kprobes && !ms_kprobes_enabled()) {
		pr_warn("calibration: " MS_KPROBES_OFF_MSG ": not calibrated\n");
		return -EAGAIN;
	}
	for (i = 0; i < MS_CALIB_BATCHES; i++)
		bare = min(bare, ms_calib_loop());
	memset(t, 0, sizeof(*t));
	t->name = "calibration";
	t->kind = MS_KIND_CALIB;
	strscpy(t->symbol, "ms_calib_empty", sizeof(t->symbol));
	err = ops->attach(t, NULL, ms_calib_empty);
	if (err) {
		pr_warn("calibration: cannot probe own function with %s: error %d\n",
			ops->name, err);
		return err;
	}
	for (i = 0; i < MS_CALIB_BATCHES; i++) {
		gen = ms_stats_generation();
		ms_stats_cell_sum(MS_CELL_CALIB, &before);
		probed = min(probed, ms_calib_loop());
		ms_stats_cell_sum(MS_CELL_CALIB, &after);
		if (ms_stats_generation() != gen ||
		    after.count - before.count != MS_CALIB_CALLS)
			continue;
		inner = min(inner, (after.total_ns - before.total_ns) / MS_CALIB_CALLS);
		timed += MS_CALIB_CALLS;
	}
	ops->detach(&t, 1);
	if (!timed) {
		pr_warn("calibration (%s): the probe never fired: not calibrated\n", ops->name);
		return -EAGAIN;
	}
	ms_calib_inner = inner;
	ms_calib_outer = probed > bare ? (probed - bare) / MS_CALIB_CALLS : 0;
	pr_info("calibration (%s): %llu ns inside a timed call, %llu ns per probed call (%llu of %u calls timed)\n",
		ops->name, ms_calib_inner, ms_calib_outer, timed,
		MS_CALIB_BATCHES * MS_CALIB_CALLS);
	return 0;
}

u64 ms_calib_ns(void)
{
	return ms_calib_inner;
}

u64 ms_calib_outer_ns(void)
{
	return ms_calib_outer;
}
