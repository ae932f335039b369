// SPDX-License-Identifier: GPL-2.0
/*
 * stats.c - per-CPU statistics tables.  A handler writes only its own
 * CPU's table, in task context with preemption off: no lock, no atomic.
 * Readers sum all tables; a cell is seen whole because
 * - a seqcount per CPU brackets each update, and a reader copies again
 *   if the owner wrote meanwhile;
 * - a reset writes no table but starts a generation (gentab.h): a
 *   memset from another CPU could meet a handler halfway through a cell.
 */
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/kprobes.h>
#include <linux/lockdep.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/seqlock.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/topology.h>
#include <linux/vmalloc.h>
#include "gentab.h"
#include "mseal_stats.h"
#include "stats.h"

/* Per possible CPU, vzalloc'd on its node; set at init, before any probe. */
DEFINE_PER_CPU(struct ms_cpu_table *, ms_ctab);
/* Never 0, the zeroed tables' generation (gentab.h). */
unsigned long ms_gen = 1;
/*
 * When the generation began, written with ms_gen under ms_reset_seq so a
 * snapshot takes the start of the generation it summed.  Writers hold
 * ms_control_lock; handlers read only ms_gen.
 */
static seqcount_t ms_reset_seq;
static u64 ms_reset_ns;

int ms_stats_init(void)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct ms_cpu_table *ct = vzalloc_node(sizeof(*ct), cpu_to_node(cpu));

		if (!ct) {
			ms_stats_exit();
			return -ENOMEM;
		}
		seqcount_init(&ct->seq);
		per_cpu(ms_ctab, cpu) = ct;
	}
	/*
	 * Every CPU sees the tables and pointers before any probe runs there:
	 * not every attach path orders them (arm64 patches without stopping
	 * the other CPUs).
	 */
	synchronize_rcu();
	seqcount_init(&ms_reset_seq);
	/* For a report read while init runs: the end of init resets. */
	ms_reset_ns = ktime_get_ns();
	return 0;
}

void ms_stats_exit(void)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		vfree(per_cpu(ms_ctab, cpu));
		per_cpu(ms_ctab, cpu) = NULL;
	}
}

notrace noinline void ms_stats_record_new(unsigned int cell, u64 ns, bool bad, bool error)
{
	struct ms_cpu_table *ct;

	preempt_disable_notrace();
	ct = __this_cpu_read(ms_ctab);
	raw_write_seqcount_begin(&ct->seq);
	ms_gen_add(&ct->t, READ_ONCE(ms_gen), cell, ns, bad, error);
	raw_write_seqcount_end(&ct->seq);
	preempt_enable_notrace();
}
NOKPROBE_SYMBOL(ms_stats_record_new);

notrace noinline void ms_stats_record_refused(unsigned int cell, u64 ns)
{
	ms_stats_record(cell, ns, true, false);
}
NOKPROBE_SYMBOL(ms_stats_record_refused);

notrace noinline void ms_stats_record_failed(unsigned int cell, u64 ns, unsigned long ret)
{
	bool eperm = (long)ret == -EPERM;

	ms_stats_record(cell, ns, eperm, !eperm);
}
NOKPROBE_SYMBOL(ms_stats_record_failed);

/* Cell CELL of CT as of generation GEN, whole. */
static void ms_cpu_cell(struct ms_cpu_table *ct, unsigned int cell,
			unsigned long gen, struct ms_cell *out)
{
	unsigned int seq;

	do {
		seq = raw_read_seqcount_begin(&ct->seq);
		ms_gen_read(&ct->t, gen, cell, out);
	} while (read_seqcount_retry(&ct->seq, seq));
}

static void ms_cell_sum_gen(unsigned int cell, unsigned long gen, struct ms_cell *out)
{
	struct ms_cell c;
	int cpu;

	memset(out, 0, sizeof(*out));
	for_each_possible_cpu(cpu) {
		ms_cpu_cell(per_cpu(ms_ctab, cpu), cell, gen, &c);
		ms_cell_merge(out, &c);
	}
}

void ms_stats_cell_sum(unsigned int cell, struct ms_cell *out)
{
	ms_cell_sum_gen(cell, READ_ONCE(ms_gen), out);
}

/* The generation now, and into *ARG when it began. */
static unsigned long ms_snap_generation(void *arg)
{
	unsigned long gen;
	unsigned int seq;

	do {
		seq = read_seqcount_begin(&ms_reset_seq);
		gen = READ_ONCE(ms_gen);
		*(u64 *)arg = ms_reset_ns;
	} while (read_seqcount_retry(&ms_reset_seq, seq));
	return gen;
}

static void ms_snap_sum(void *arg, unsigned long gen, struct ms_table *snap)
{
	unsigned int i;

	for (i = 0; i < MS_NCELLS; i++)
		ms_cell_sum_gen(i, gen, &snap->cell[i]);
}

/* One generation for all cells: a reset meanwhile makes it start over. */
void ms_stats_snapshot(struct ms_table *snap, u64 *since_ns)
{
	u64 start_ns;
	const struct ms_gen_source src = {
		.generation = ms_snap_generation,
		.sum = ms_snap_sum,
		.arg = &start_ns,
	};

	ms_gen_snapshot(&src, snap);
	*since_ns = ktime_get_ns() - start_ns;
}

/* A new generation (the cells read as zero) and the time it began. */
void ms_stats_reset(void)
{
	lockdep_assert_held(&ms_control_lock);
	/* The write side of a seqcount_t wants preemption off. */
	preempt_disable();
	write_seqcount_begin(&ms_reset_seq);
	ms_reset_ns = ktime_get_ns();
	WRITE_ONCE(ms_gen, ms_gen + 1);
	write_seqcount_end(&ms_reset_seq);
	preempt_enable();
}

unsigned long ms_stats_generation(void)
{
	return READ_ONCE(ms_gen);
}
