// SPDX-License-Identifier: GPL-2.0
/*
 * probes.c - the kretprobe handlers.
 *
 * Entry: test the filter first (non-zero return: skip this call, nothing
 * recorded), then keep the entry time and the statistics cell to charge in
 * the instance data, since the task may sleep or migrate before the return.
 * A check is charged to the syscall the task is in (syscall_get_nr on its
 * user registers), or to "other".
 * Return: account the duration and the result to this CPU's table.
 */
#include <linux/errno.h>
#include <linux/err.h>
#include <linux/kprobes.h>
#include <linux/ptrace.h>
#include <linux/timekeeping.h>
#include "mseal_stats_compat.h"
#include "cell.h"
#include "filter.h"
#include "plan.h"
#include "stats.h"

struct ms_inst {
	u64 t0;
	unsigned int cell;
};

static struct ms_target *ms_target_of(struct kretprobe_instance *ri)
{
	return container_of(ms_kretprobe_of(ri), struct ms_target, rp);
}
NOKPROBE_SYMBOL(ms_target_of);

static int ms_sys_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct ms_inst *in = (struct ms_inst *)ri->data;

	if (!ms_filter_pass())
		return 1;
	in->cell = MS_CELL_SYS(ms_target_of(ri)->index);
	in->t0 = ktime_get_ns();
	return 0;
}
NOKPROBE_SYMBOL(ms_sys_entry);

static int ms_sys_return(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct ms_inst *in = (struct ms_inst *)ri->data;
	u64 ns = ktime_get_ns() - in->t0;
	unsigned long ret = regs_return_value(regs);
	bool eperm = (long)ret == -EPERM;

	ms_stats_record(in->cell, ns, eperm, !eperm && IS_ERR_VALUE(ret));
	return 0;
}
NOKPROBE_SYMBOL(ms_sys_return);

/* Checks, and the calibration probe, which must cost exactly what they do. */
static int ms_chk_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct ms_inst *in = (struct ms_inst *)ri->data;
	struct ms_target *t = ms_target_of(ri);
	int sys;

	/* The calibration probe takes every step, and keeps every call. */
	if (!ms_filter_pass() && t->kind != MS_KIND_CALIB)
		return 1;
	sys = ms_sys_from_nr(ms_current_syscall_nr());
	if (t->kind == MS_KIND_CALIB)
		in->cell = MS_CELL_CALIB;
	else
		in->cell = MS_CELL_CHK(sys, t->index);
	in->t0 = ktime_get_ns();
	return 0;
}
NOKPROBE_SYMBOL(ms_chk_entry);

static int ms_chk_return(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct ms_inst *in = (struct ms_inst *)ri->data;
	u64 ns = ktime_get_ns() - in->t0;

	ms_stats_record(in->cell, ns, !ms_return_bool(regs), false);
	return 0;
}
NOKPROBE_SYMBOL(ms_chk_return);

void ms_probe_prepare(struct ms_target *t, int maxactive)
{
	memset(&t->rp, 0, sizeof(t->rp));
	t->rp.maxactive = maxactive;
	t->rp.data_size = sizeof(struct ms_inst);
	if (t->kind == MS_KIND_SYSCALL) {
		t->rp.entry_handler = ms_sys_entry;
		t->rp.handler = ms_sys_return;
	} else {
		t->rp.entry_handler = ms_chk_entry;
		t->rp.handler = ms_chk_return;
	}
}
