// SPDX-License-Identifier: GPL-2.0
/*
 * calib.c - measure what the probes themselves cost, per backend.
 *
 * For each backend that times calls from a function's entry to its return
 * (direct, kretprobe) and that some target uses, or that the checks were
 * given: a probe of it, with the shared handlers, is put on an empty
 * function of this module, and the function is called in MS_CALIB_BATCHES
 * batches of MS_CALIB_CALLS on one CPU (migration off), each after a batch
 * of an unprobed twin.  Each figure is the median of the batches (a robust
 * middle: an interrupt in one batch does not move it, and neither does the
 * hottest batch, which real calls, with colder caches, never see):
 *   inner_ns   the mean duration the handlers record for the empty
 *              function: the probe's own share of every timed call, which
 *              the report subtracts from each check of that backend to
 *              give "net" times (and from each syscall on that backend);
 *   outer_ns   the mean extra time per call, probed against unprobed: the
 *              whole cost of one probe pair, subtracted from the syscall
 *              around each check of that backend.
 * The handlers make the look-up a real check makes: the row of the
 * syscall the task is in, found in the tracepoint side's in-flight table
 * when that side counts (systp.c gives the calibrating task a slot there,
 * as a counted syscall's sys_enter gives one).  So calibration runs after
 * the probes are attached, at load and on the command "calibrate"
 * (control.c, which orders it with "reset"); a batch is measured as the
 * difference of the calibration cell before and after it, and only whole
 * batches of one reset generation count, so a reset can never make a
 * figure 0.
 *
 * The calibration probes are attached once, at load (ms_calib_attach(),
 * one empty function per backend: a direct call and a kretprobe cannot
 * share one), and detached at unload (ms_calib_detach()).  Attaching and
 * detaching wait for grace periods (RCU, RCU-tasks, the slot's calls);
 * the command runs under ms_control_lock and sysfs' kernel_param_lock
 * (held around every parameter's .set), which reading any of the module's
 * parameters and rmmod wait for: so the command only measures, with the
 * probes in place, and never waits for a grace period.  Nothing calls the
 * empty functions but calibration, so the probes cost nothing meanwhile.
 *
 * A backend that cannot be calibrated now returns -EAGAIN and keeps the
 * figures it had: one that needs kprobes while they are disabled
 * (sentinel.c), or a probe that registered but never fired.  Try again
 * when the cause is gone.  One whose probe could not be attached at load
 * returns that error.
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
 * The probed functions, one per backend: a call, an fentry site, nothing
 * else; and their twin, never probed, for the calls without a probe.
 * Their asm differs, so that the compiler cannot fold one into another.
 * Each returns true, as a check that lets the operation go on does, so
 * that the return side takes the same path on every call (its "refused"
 * test reads the value the function left in the return register).
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

/*
 * MS_CALIB_BATCHES batches of the twin (unprobed) and of the probed
 * function, interleaved, on this CPU: the median extra time per call into
 * C->outer_ns, the median time the handlers recorded per call into
 * C->inner_ns; returns the calls timed (0: the probe never fired).
 */
static unsigned int ms_calib_batches(struct ms_calib *c, ms_calib_fn fn)
{
	u64 bare[MS_CALIB_BATCHES], probed[MS_CALIB_BATCHES], inner[MS_CALIB_BATCHES];
	/*
	 * Not on the stack: with the arrays they pass the 1 KiB frame limit
	 * under KASAN.  Calibrations never overlap (init runs one before
	 * commands are taken, control.c one command at a time).
	 */
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

/*
 * At load, after the plan's probes: a calibration probe for each backend
 * to calibrate.  A probe that would not attach is said in dmesg, and
 * ms_calib_run() returns its error.
 */
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
