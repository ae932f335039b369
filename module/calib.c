// SPDX-License-Identifier: GPL-2.0
/*
 * calib.c - what the probes themselves cost, per backend that wraps calls
 * and is in use.  Its probe sits on an empty function of this module,
 * called in MS_CALIB_BATCHES batches on one CPU, each after a batch of an
 * unprobed twin; each figure is the median of the batches:
 *   inner_ns   the time the handlers record for the empty function,
 *              subtracted from each timed call of that backend;
 *   outer_ns   the extra time per probed call, subtracted from the
 *              syscall around each check of that backend.
 * The handlers make a real check's row look-up (systp.c gives the task a
 * slot).  Only whole batches of one generation count: a reset never makes
 * a figure 0.
 *
 * The probes are attached at load and detached at unload: the command
 * runs under locks that sysfs readers and rmmod wait for, so it never
 * waits for a grace period.  A backend that cannot be calibrated now
 * returns -EAGAIN and keeps its figures.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kprobes.h>
#include <linux/minmax.h>
#include <linux/mutex.h>
#include <linux/preempt.h>
#include <linux/printk.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include "mseal_stats.h"
#include "backend.h"
#include "clock.h"
#include "report.h"
#include "stats.h"
#include "systp.h"

#define MS_CALIB_BATCHES	11	/* odd: the median is one batch */
#define MS_CALIB_CALLS		200

/* The backends that wrap calls: direct and kretprobe. */
#define MS_CALIB_MAX		2

/* The figures, per backend; the lock keeps a reader from half of a run's. */
static struct ms_calib ms_calibs[MS_CALIB_MAX];
static DEFINE_MUTEX(ms_calib_lock);

/*
 * One probed function per backend and an unprobed twin; distinct asm so
 * none is folded into another.  True, as a check that allows: the return
 * side takes the same path on every call.
 */
typedef bool (*ms_calib_fn)(void);

static noinline bool ms_calib_empty0(void)
{
	asm volatile("# ms_calib_empty0");
	return true;
}

static noinline bool ms_calib_empty1(void)
{
	asm volatile("# ms_calib_empty1");
	return true;
}

static noinline bool ms_calib_twin(void)
{
	asm volatile("# ms_calib_twin");
	return true;
}

/* A backend's calibration probe, from load to unload. */
static struct ms_calib_probe {
	const struct ms_backend_ops *ops;	/* NULL: none */
	ms_calib_fn fn;
	const char *fn_name;
	struct ms_target t;
	int err;				/* the attach's: 0, attached */
} ms_calib_probes[MS_CALIB_MAX] = {
	{ .fn = ms_calib_empty0, .fn_name = "ms_calib_empty0" },
	{ .fn = ms_calib_empty1, .fn_name = "ms_calib_empty1" },
};

static u64 ms_calib_loop(ms_calib_fn fn)
{
	u64 t0 = ktime_get_ns();
	unsigned int i;

	for (i = 0; i < MS_CALIB_CALLS; i++)
		fn();
	return ktime_get_ns() - t0;
}

/* The figures of OPS, to fill: its entry, or a free one. */
static struct ms_calib *ms_calib_slot(const struct ms_backend_ops *ops)
{
	unsigned int i;

	for (i = 0; i < MS_CALIB_MAX; i++)
		if (ms_calibs[i].ops == ops || !ms_calibs[i].ops)
			return &ms_calibs[i];
	return NULL;
}

/* C's figures from interleaved batches; the calls timed (0: never fired). */
static unsigned int ms_calib_batches(struct ms_calib *c, ms_calib_fn fn)
{
	u64 bare[MS_CALIB_BATCHES], probed[MS_CALIB_BATCHES], inner[MS_CALIB_BATCHES];
	/* Static (KASAN's frame limit): calibrations never overlap. */
	static struct ms_cell before, after;
	unsigned int i, n = 0;
	unsigned long gen;
	u64 b, p;

	/* One clock for every batch kept: the one the report will name. */
	c->counter = ms_clock_is_counter();
	for (i = 0; i < MS_CALIB_BATCHES; i++) {
		bare[i] = ms_calib_loop(ms_calib_twin);
		gen = ms_stats_generation();
		ms_stats_cell_sum(MS_CELL_CALIB, &before);
		probed[i] = ms_calib_loop(fn);
		ms_stats_cell_sum(MS_CELL_CALIB, &after);
		if (ms_stats_generation() != gen || ms_clock_is_counter() != c->counter ||
		    after.count - before.count != MS_CALIB_CALLS)
			continue;
		inner[n++] = (after.total_ns - before.total_ns) / MS_CALIB_CALLS;
	}
	if (!n)
		return 0;
	b = ms_median(bare, MS_CALIB_BATCHES);
	p = ms_median(probed, MS_CALIB_BATCHES);
	c->inner_ns = ms_median(inner, n);
	c->outer_ns = p > b ? (p - b) / MS_CALIB_CALLS : 0;
	return n * MS_CALIB_CALLS;
}

/* Measure on one CPU, with a row look-up as a real check's. */
static unsigned int ms_calib_measure(struct ms_calib *c, ms_calib_fn fn)
{
	unsigned int timed;
	bool slot;

	migrate_disable();
	slot = ms_systp_calib_begin();
	timed = ms_calib_batches(c, fn);
	if (slot)
		ms_systp_calib_end();
	c->cpu = raw_smp_processor_id();
	migrate_enable();
	return timed;
}

static int ms_calib_backend(struct ms_calib_probe *cp)
{
	const struct ms_backend_ops *ops = cp->ops;
	struct ms_calib *c = ms_calib_slot(ops);
	struct ms_calib next;
	unsigned int timed;

	if (!c)
		return -ENOSPC;
	if (cp->err)
		return cp->err;
	if (ops->needs_kprobes && !ms_kprobes_enabled()) {
		pr_warn("calibration (%s): " MS_KPROBES_OFF_MSG ": not calibrated\n", ops->name);
		return -EAGAIN;
	}
	next = *c;
	timed = ms_calib_measure(&next, cp->fn);
	if (!timed) {
		pr_warn("calibration (%s): the probe never fired: not calibrated\n", ops->name);
		return -EAGAIN;
	}
	next.ops = ops;
	mutex_lock(&ms_calib_lock);
	*c = next;
	mutex_unlock(&ms_calib_lock);
	pr_info("calibration (%s, CPU %d): %llu ns inside a timed call, %llu ns per probed call (%u of %u calls timed)\n",
		ops->name, c->cpu, c->inner_ns, c->outer_ns, timed,
		MS_CALIB_BATCHES * MS_CALIB_CALLS);
	return 0;
}

/* Is OPS one to calibrate: a wrapper of calls, in use or the checks'? */
static bool ms_calib_wanted(const struct ms_backend_ops *ops)
{
	unsigned int i;

	if (!ops->wraps_calls)
		return false;
	if (ops == ms_backend_checks())
		return true;
	for (i = 0; i < ms_plan_count(); i++) {
		const struct ms_target *t = ms_plan_target(i);

		if (t->state == MS_STATE_ATTACHED && t->ops == ops)
			return true;
	}
	return false;
}

/* At load, after the plan's probes; ms_calib_run() returns an attach's error. */
void ms_calib_attach(void)
{
	struct ms_calib_probe *cp = ms_calib_probes;
	const struct ms_backend_ops *ops;
	unsigned int i;

	for (i = 0; (ops = ms_backend_at(i)) && cp < ms_calib_probes + MS_CALIB_MAX; i++) {
		struct ms_target *t = &cp->t;

		if (!ms_calib_wanted(ops))
			continue;
		memset(t, 0, sizeof(*t));
		t->name = "calibration";
		t->kind = MS_KIND_CALIB;
		strscpy(t->symbol, cp->fn_name, sizeof(t->symbol));
		cp->ops = ops;
		cp->err = ops->attach(t, NULL, cp->fn);
		if (cp->err)
			pr_warn("calibration: cannot probe own function with %s: error %d\n",
				ops->name, cp->err);
		cp++;
	}
}

/* At unload (or a failed load), before the plan's probes. */
void ms_calib_detach(void)
{
	struct ms_calib_probe *cp;
	struct ms_target *t;

	for (cp = ms_calib_probes; cp < ms_calib_probes + MS_CALIB_MAX; cp++) {
		if (!cp->ops)
			continue;
		t = &cp->t;
		if (!cp->err)
			cp->ops->detach(&t, 1);
		cp->ops = NULL;
	}
}

int ms_calib_run(void)
{
	struct ms_calib_probe *cp;
	int err, first = 0;

	for (cp = ms_calib_probes; cp < ms_calib_probes + MS_CALIB_MAX; cp++) {
		if (!cp->ops)
			continue;
		err = ms_calib_backend(cp);
		first = first ?: err;
	}
	return first;
}

bool ms_calib_get(const struct ms_backend_ops *ops, struct ms_calib *out)
{
	bool found = false;
	unsigned int i;

	mutex_lock(&ms_calib_lock);
	for (i = 0; i < MS_CALIB_MAX && !found; i++) {
		if (ms_calibs[i].ops && ms_calibs[i].ops == ops) {
			*out = ms_calibs[i];
			found = true;
		}
	}
	mutex_unlock(&ms_calib_lock);
	return found;
}
