// SPDX-License-Identifier: GPL-2.0
/*
 * ms_race.c - a test-only module with a data race planted on purpose: the
 * positive control of tests/on-demand/kcsan.  A KCSAN run that reports no
 * race in mseal_stats means something only if the same boot, filter and
 * vCPUs report this one.
 *
 *   insmod ms_race.ko     one kthread per online CPU (at most 4), each
 *                         incrementing ms_race_count with a plain
 *                         read-modify-write, no lock, no READ_ONCE
 *   rmmod ms_race         stops them
 *
 * The race has the shape KCSAN must see in mseal_stats if it is there: the
 * same function on two CPUs, a plain access to one word.  Each thread gives
 * the CPU up every 1024 increments (cond_resched()), so a one-vCPU guest
 * or a busy host still runs the others.
 *
 * Read-only: count (the shared word, torn by design), threads.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/err.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/sched.h>

#define MS_RACE_MAX_THREADS 4

static unsigned long ms_race_count;
module_param_named(count, ms_race_count, ulong, 0444);
MODULE_PARM_DESC(count, "the word every thread increments with no lock (read-only)");

static unsigned int ms_race_nthreads;
module_param_named(threads, ms_race_nthreads, uint, 0444);
MODULE_PARM_DESC(threads, "threads running (read-only)");

static struct task_struct *ms_race_tasks[MS_RACE_MAX_THREADS];

/* The planted race: a plain load and store of a shared word, on every CPU. */
static noinline void ms_race_bump(void)
{
	ms_race_count++;
}

static int ms_race_thread(void *unused)
{
	unsigned int i = 0;

	while (!kthread_should_stop()) {
		ms_race_bump();
		if (!(++i & 1023))
			cond_resched();
	}
	return 0;
}

static void ms_race_stop(void)
{
	unsigned int i;

	for (i = 0; i < ms_race_nthreads; i++)
		kthread_stop(ms_race_tasks[i]);
	ms_race_nthreads = 0;
}

static int __init ms_race_init(void)
{
	struct task_struct *t;
	unsigned int cpu;

	for_each_online_cpu(cpu) {
		if (ms_race_nthreads == MS_RACE_MAX_THREADS)
			break;
		t = kthread_create_on_cpu(ms_race_thread, NULL, cpu, "ms_race/%u");
		if (IS_ERR(t)) {
			ms_race_stop();
			return PTR_ERR(t);
		}
		ms_race_tasks[ms_race_nthreads++] = t;
		wake_up_process(t);
	}
	pr_info("%u threads racing on one word\n", ms_race_nthreads);
	return 0;
}

static void __exit ms_race_exit(void)
{
	ms_race_stop();
}

module_init(ms_race_init);
module_exit(ms_race_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("mseal-stats tests: a planted data race, KCSAN's positive control");
