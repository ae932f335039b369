// SPDX-License-Identifier: GPL-2.0
/*
 * clock.c - which clock the hot path reads (clock.h): chosen at load, and
 * taken back to ktime_get_mono_fast_ns() when the kernel stops keeping time with the
 * counter.
 *
 * The counter is read directly only while it is the kernel's clocksource.
 * The kernel changes clocksource when it finds the TSC unstable (the
 * clocksource watchdog, or mark_tsc_unstable(): it rates the TSC down and
 * switches), and when root writes current_clocksource.  Every change goes
 * through the timekeeper's update with TK_CLOCK_WAS_SET, which calls the
 * pvclock_gtod notifier chain (KVM's hook for the same question: is the
 * host's clocksource still the TSC?) with the new timekeeper.  So the
 * module listens there instead of asking on every call: nothing on the
 * hot path, and a change is seen at the moment the kernel makes it.  The
 * chain runs with the timekeeper's sequence count held for writing, on
 * every tick: the callback only tests was_set, and on a change queues an
 * irq_work (as KVM does: no wake-up may run there), which queues a work
 * item, which turns the static key off (that sleeps).  Calls that began
 * with the counter end with it (clock.h: the mark), so none is measured
 * with two clocks.  Once off, the key stays off until the module is
 * loaded again.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/clocksource.h>
#include <linux/irq_work.h>
#include <linux/notifier.h>
#include <linux/printk.h>
#include <linux/pvclock_gtod.h>
#include <linux/time64.h>
#include <linux/timekeeper_internal.h>
#include <linux/timekeeping.h>
#include <linux/workqueue.h>
#include "clock.h"

DEFINE_STATIC_KEY_FALSE(ms_clock_counter);
u64 ms_clock_mult __read_mostly;

#ifdef MS_COUNTER_CSID

static bool ms_clock_watching;

static void ms_clock_drop_work(struct work_struct *w)
{
	if (!static_key_enabled(&ms_clock_counter))
		return;
	static_branch_disable(&ms_clock_counter);
	pr_info("clock: the kernel no longer keeps time with the %s: ktime_get_mono_fast_ns() from now on\n",
		MS_COUNTER_NAME);
}
static DECLARE_WORK(ms_clock_drop, ms_clock_drop_work);

static void ms_clock_drop_irq_work(struct irq_work *iw)
{
	schedule_work(&ms_clock_drop);
}
static struct irq_work ms_clock_drop_iw;

static notrace int ms_clock_changed(struct notifier_block *nb, unsigned long was_set, void *priv)
{
	const struct timekeeper *tk = priv;

	if (was_set && tk->tkr_mono.clock->id != MS_COUNTER_CSID &&
	    static_key_enabled(&ms_clock_counter))
		irq_work_queue(&ms_clock_drop_iw);
	return NOTIFY_DONE;
}

static struct notifier_block ms_clock_nb = {
	.notifier_call = ms_clock_changed,
};

/* Listen from before the choice (ms_clock_init() says why). */
static void ms_clock_watch(void)
{
	init_irq_work(&ms_clock_drop_iw, ms_clock_drop_irq_work);
	ms_clock_watching = !pvclock_gtod_register_notifier(&ms_clock_nb);
}

/* After the probes are gone: nothing left that could turn the key. */
void ms_clock_exit(void)
{
	if (!ms_clock_watching)
		return;
	pvclock_gtod_unregister_notifier(&ms_clock_nb);
	irq_work_sync(&ms_clock_drop_iw);
	cancel_work_sync(&ms_clock_drop);
	ms_clock_watching = false;
}

#else /* !MS_COUNTER_CSID */

static void ms_clock_watch(void)
{
}

void ms_clock_exit(void)
{
}

#endif /* MS_COUNTER_CSID */

/*
 * ns = ticks * mult >> 32, mult = TO * 2^32 / FROM rounded: for TO up to
 * NSEC_PER_SEC the product TO * 2^32 fits 64 bits, and so does mult for
 * any FROM of at least 1 (tick per TO ns); the 128-bit product of
 * mul_u64_u64_shr() takes any difference.  A 5 GHz TSC gets a multiplier
 * of about 8.6e8: an error of about 1e-9, far below a nanosecond.
 */
static bool ms_clock_choose(u32 *from, u32 *to)
{
	struct system_time_snapshot snap;

	ms_ktime_get_snapshot(&snap);
	return ms_counter_freq(&snap, from, to);
}

/*
 * The notifier first, then the choice, then the choice again once the key
 * is on: a change after that is the notifier's (it acts only while the
 * key is on), one before it is seen by the second look.
 */
void ms_clock_init(void)
{
	u32 from, to;

	ms_clock_watch();
	if (!ms_clock_choose(&from, &to)) {
		pr_info("clock: ktime_get_mono_fast_ns() (the clocksource is not a counter the module reads directly)\n");
		return;
	}
	ms_clock_mult = div64_u64(((u64)to << 32) + from / 2, from);
	static_branch_enable(&ms_clock_counter);
	if (!ms_clock_choose(&from, &to)) {
		static_branch_disable(&ms_clock_counter);
		pr_info("clock: ktime_get_mono_fast_ns() (the clocksource changed while the module loaded)\n");
		return;
	}
	pr_info("clock: %s read directly, %llu Hz\n", MS_COUNTER_NAME,
		(u64)from * (NSEC_PER_SEC / to));
}

const char *ms_clock_name(void)
{
	return static_key_enabled(&ms_clock_counter) ? MS_COUNTER_NAME : "ktime_get_mono_fast_ns";
}
