// SPDX-License-Identifier: GPL-2.0
/*
 * clock.c - which clock the hot path reads: the counter directly while it
 * is the kernel's clocksource, else ktime_get_mono_fast_ns().  Every
 * clocksource change calls the pvclock_gtod chain (as KVM uses it), and
 * so does registering: the module listens there, nothing on the hot path,
 * and takes the clocksource's mult and shift from the same call.
 *
 * The chain runs under the timekeeper's lock on every tick: the callback
 * queues an irq_work (no wake-up there), which queues a work item, which
 * turns the key off (that sleeps).  A call ends on the clock it began on.
 * Once off, the key stays off until reload.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/clocksource.h>
#include <linux/irq_work.h>
#include <linux/kprobes.h>
#include <linux/notifier.h>
#include <linux/printk.h>
#include <linux/pvclock_gtod.h>
#include <linux/time64.h>
#include <linux/timekeeper_internal.h>
#include <linux/timekeeping.h>
#include <linux/workqueue.h>
#include "clock.h"
#include "mseal_stats.h"
#include "stats.h"

DEFINE_STATIC_KEY_FALSE(ms_clock_counter);
u64 ms_clock_mult __read_mostly;
DEFINE_PER_CPU(unsigned long, ms_clock_backwards);

unsigned long ms_clock_backwards_total(void)
{
	unsigned long n = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		n += per_cpu(ms_clock_backwards, cpu);
	return n;
}

/* The counter given up (ms_clock_left), in which generation of the figures. */
static bool ms_clock_left;
static unsigned long ms_clock_left_gen;

#ifdef MS_COUNTER_CSID

static bool ms_clock_watching;

/*
 * Under the control lock: no reset between the note and the key.  The
 * note before the key: a report that sees the key off sees the note.
 */
static void ms_clock_drop_work(struct work_struct *w)
{
	mutex_lock(&ms_control_lock);
	if (static_key_enabled(&ms_clock_counter)) {
		WRITE_ONCE(ms_clock_left_gen, ms_stats_generation());
		/* Pairs with ms_clock_switched()'s acquire: the generation first. */
		smp_store_release(&ms_clock_left, true);
		/* The note before the key: pairs with ms_clock_name()'s smp_rmb(). */
		smp_wmb();
		static_branch_disable(&ms_clock_counter);
		pr_info("clock: the kernel no longer keeps time with the %s: ktime_get_mono_fast_ns() from now on\n",
			MS_COUNTER_NAME);
	}
	mutex_unlock(&ms_control_lock);
}

static DECLARE_WORK(ms_clock_drop, ms_clock_drop_work);

static void ms_clock_drop_irq_work(struct irq_work *iw)
{
	schedule_work(&ms_clock_drop);
}

static struct irq_work ms_clock_drop_iw;

/*
 * The 32.32 multiplier of ns = ticks * mult >> shift; a shift over 32
 * (a clocksource's own) drops low bits of mult.
 */
static __always_inline u64 ms_clock_mult_of(u32 mult, u32 shift)
{
	return shift <= 32 ? (u64)mult << (32 - shift) : mult >> (shift - 32);
}

static notrace int ms_clock_changed(struct notifier_block *nb, unsigned long was_set, void *priv)
{
	const struct timekeeper *tk = priv;
	const struct clocksource *cs = tk->tkr_mono.clock;

	if (!was_set)
		return NOTIFY_DONE;
	if (cs->id == MS_COUNTER_CSID)
		WRITE_ONCE(ms_clock_mult, ms_clock_mult_of(cs->mult, cs->shift));
	else if (static_key_enabled(&ms_clock_counter))
		irq_work_queue(&ms_clock_drop_iw);
	return NOTIFY_DONE;
}

/* Under the timekeeper's seqcount: a kprobe reading the time would spin. */
NOKPROBE_SYMBOL(ms_clock_changed);

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

/* The kernel keeps time with the counter, and trusts it. */
static bool ms_clock_usable(void)
{
	struct system_time_snapshot snap;

	ms_ktime_get_snapshot(&snap);
	return ms_counter_usable(&snap);
}

/*
 * The notifier first (it gives the rate), the choice, then the choice
 * again once the key is on: the notifier acts only while the key is on.
 */
void ms_clock_init(void)
{
	ms_clock_watch();
	if (!ms_clock_usable()) {
		pr_info("clock: ktime_get_mono_fast_ns() (the clocksource is not a counter the module reads directly)\n");
		return;
	}
	if (!READ_ONCE(ms_clock_mult)) {
		pr_info("clock: ktime_get_mono_fast_ns() (the clocksource's rate did not reach the module: no notifier)\n");
		return;
	}
	static_branch_enable(&ms_clock_counter);
	if (!ms_clock_usable()) {
		static_branch_disable(&ms_clock_counter);
		pr_info("clock: ktime_get_mono_fast_ns() (the clocksource changed while the module loaded)\n");
		return;
	}
	pr_info("clock: %s read directly, %llu Hz (the clocksource's rate)\n", MS_COUNTER_NAME,
		div64_u64((u64)NSEC_PER_SEC << 32, READ_ONCE(ms_clock_mult)));
}

bool ms_clock_switched(void)
{
	/* Pairs with ms_clock_drop_work()'s release: its generation seen. */
	return smp_load_acquire(&ms_clock_left) &&
	       READ_ONCE(ms_clock_left_gen) == ms_stats_generation();
}

/* The key read first: the work item notes the switch before it turns it off. */
const char *ms_clock_name(void)
{
	bool on = static_key_enabled(&ms_clock_counter);

	/* The key before the note: pairs with ms_clock_drop_work()'s smp_wmb(). */
	smp_rmb();
	if (ms_clock_switched())
		return MS_COUNTER_NAME ", then ktime_get_mono_fast_ns";
	return on ? MS_COUNTER_NAME : "ktime_get_mono_fast_ns";
}
