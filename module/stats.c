// SPDX-License-Identifier: GPL-2.0
/*
 * stats.c - per-CPU statistics tables.
 *
 * Writers are the probe handlers: each writes only its own CPU's table, with
 * preemption off, so no lock and no atomic is needed (the probed functions
 * never run in interrupt context).  Readers sum all CPUs; a reset or a
 * snapshot that races with a writer can at worst lose or half-see that one
 * call, which is why tests reset before their workload, not during it.
 */
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/kprobes.h>
#include <linux/string.h>
#include "stats.h"

static struct ms_table __percpu *ms_pcpu;

int ms_stats_init(void)
{
	ms_pcpu = alloc_percpu(struct ms_table);
	return ms_pcpu ? 0 : -ENOMEM;
}

void ms_stats_exit(void)
{
	free_percpu(ms_pcpu);
	ms_pcpu = NULL;
}

notrace void ms_stats_record(unsigned int cell, u64 ns, bool bad, bool error)
{
	preempt_disable_notrace();
	ms_cell_add(&this_cpu_ptr(ms_pcpu)->cell[cell], ns, bad, error);
	preempt_enable_notrace();
}
NOKPROBE_SYMBOL(ms_stats_record);

void ms_stats_snapshot(struct ms_table *snap)
{
	int cpu;

	memset(snap, 0, sizeof(*snap));
	for_each_possible_cpu(cpu)
		ms_table_merge(snap, per_cpu_ptr(ms_pcpu, cpu));
}

void ms_stats_cell_sum(unsigned int cell, struct ms_cell *out)
{
	int cpu;

	memset(out, 0, sizeof(*out));
	for_each_possible_cpu(cpu)
		ms_cell_merge(out, &per_cpu_ptr(ms_pcpu, cpu)->cell[cell]);
}

void ms_stats_reset_cell(unsigned int cell)
{
	int cpu;

	for_each_possible_cpu(cpu)
		memset(&per_cpu_ptr(ms_pcpu, cpu)->cell[cell], 0, sizeof(struct ms_cell));
}

void ms_stats_reset(void)
{
	int cpu;

	for_each_possible_cpu(cpu)
		memset(per_cpu_ptr(ms_pcpu, cpu), 0, sizeof(struct ms_table));
}
