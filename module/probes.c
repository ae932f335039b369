// SPDX-License-Identifier: GPL-2.0
/*
 * probes.c - the probe handlers, for both backends (kretprobe, fprobe).
 *
 * Entry: test the filter first (one READ_ONCE'd flag when no filter is set;
 * a filtered-out call: non-zero return, nothing recorded and no return
 * handler), then keep the entry time and the statistics cell to charge in
 * the per-call data (kretprobe instance data, fprobe entry data), since the
 * task may sleep or migrate before the return.  A check is charged to the
 * syscall the task is in (syscall_get_nr on its user registers), or to
 * "other".
 * Return: account the duration and the result to this CPU's table.
 *
 * The hot path writes nothing shared between CPUs: the per-call data is the
 * call's own, the table this CPU's (stats.c); no atomic, no division.
 *
 * Every handler and what it calls in this module is notrace and
 * NOKPROBE_SYMBOL: a kretprobe handler runs as a kprobe (kprobe_running()
 * set; a kprobe hit inside it is only counted as missed) and an fprobe
 * handler inside ftrace's recursion protection (ftrace_test_recursion_trylock
 * before 6.14, fgraph's own from 6.14: a traced function called inside it is
 * skipped, not recursed into).  They still call traceable kernel functions
 * (ktime_get_ns, syscall_get_nr): if one of those is probed by someone else,
 * that probe misses the hit, our handler is never re-entered; our own code
 * never shows up in a trace nor pays for an fentry call.
 */
#include <linux/errno.h>
#include <linux/err.h>
#include <linux/kprobes.h>
#include <linux/ptrace.h>
#include <linux/rcupdate.h>
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

/* --- the work, shared by both backends ------------------------------------ */

/* Syscall entry: false to skip this call. */
static __always_inline bool ms_sys_enter(const struct ms_target *t, struct ms_inst *in)
{
	if (!ms_filter_pass())
		return false;
	in->cell = MS_CELL_SYS(t->index);
	in->t0 = ktime_get_ns();
	return true;
}

static __always_inline void ms_sys_exit(const struct ms_inst *in, unsigned long ret)
{
	u64 ns = ktime_get_ns() - in->t0;

	/* Only a stale fgraph frame from an earlier load could fail this. */
	if (unlikely(in->cell >= MS_NCELLS))
		return;
	ms_stats_record_syscall(in->cell, ns, ret);
}

/* Checks, and the calibration probe, which must cost exactly what they do. */
static __always_inline bool ms_chk_enter(const struct ms_target *t, struct ms_inst *in)
{
	int sys;

	/* The calibration probe takes every step, and keeps every call. */
	if (!ms_filter_pass() && t->kind != MS_KIND_CALIB)
		return false;
	sys = ms_sys_from_nr(ms_current_syscall_nr());
	if (t->kind == MS_KIND_CALIB)
		in->cell = MS_CELL_CALIB;
	else
		in->cell = MS_CELL_CHK(sys, t->index);
	in->t0 = ktime_get_ns();
	return true;
}

static __always_inline void ms_chk_exit(const struct ms_inst *in, unsigned long ret)
{
	u64 ns = ktime_get_ns() - in->t0;

	if (unlikely(in->cell >= MS_NCELLS))
		return;
	ms_stats_record(in->cell, ns, !ms_return_bool(ret), false);
}

/* --- kretprobe ----------------------------------------------------------- */

static notrace struct ms_target *ms_rp_target(struct kretprobe_instance *ri)
{
	return container_of(ms_kretprobe_of(ri), struct ms_target, rp);
}
NOKPROBE_SYMBOL(ms_rp_target);

static notrace int ms_rp_sys_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	return !ms_sys_enter(ms_rp_target(ri), (struct ms_inst *)ri->data);
}
NOKPROBE_SYMBOL(ms_rp_sys_entry);

static notrace int ms_rp_sys_return(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	ms_sys_exit((struct ms_inst *)ri->data, regs_return_value(regs));
	return 0;
}
NOKPROBE_SYMBOL(ms_rp_sys_return);

static notrace int ms_rp_chk_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	return !ms_chk_enter(ms_rp_target(ri), (struct ms_inst *)ri->data);
}
NOKPROBE_SYMBOL(ms_rp_chk_entry);

static notrace int ms_rp_chk_return(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	ms_chk_exit((struct ms_inst *)ri->data, regs_return_value(regs));
	return 0;
}
NOKPROBE_SYMBOL(ms_rp_chk_return);

static int ms_rp_register(struct ms_target *t, int maxactive, const char *symbol,
			  void *addr)
{
	memset(&t->rp, 0, sizeof(t->rp));
	t->rp.maxactive = maxactive;
	t->rp.data_size = sizeof(struct ms_inst);
	if (t->kind == MS_KIND_SYSCALL) {
		t->rp.entry_handler = ms_rp_sys_entry;
		t->rp.handler = ms_rp_sys_return;
	} else {
		t->rp.entry_handler = ms_rp_chk_entry;
		t->rp.handler = ms_rp_chk_return;
	}
	if (symbol)
		t->rp.kp.symbol_name = symbol;
	else
		t->rp.kp.addr = (kprobe_opcode_t *)addr;
	return register_kretprobe(&t->rp);
}

/* --- fprobe -------------------------------------------------------------- */

#if MS_HAVE_FPROBE
/*
 * One fprobe per target: container_of finds the target.  entry_data is the
 * struct ms_inst of this call (a rethook node before 6.14, the task's fgraph
 * shadow stack from 6.14); a non-zero return from the entry handler skips
 * the exit handler, as with a kretprobe.
 */
static notrace int ms_fp_sys_entry(struct fprobe *fp, unsigned long ip,
				   unsigned long ret_ip, MS_FPROBE_REGS *regs,
				   void *data)
{
	return !ms_sys_enter(container_of(fp, struct ms_target, fp), data);
}
NOKPROBE_SYMBOL(ms_fp_sys_entry);

static notrace void ms_fp_sys_exit(struct fprobe *fp, unsigned long ip,
				   unsigned long ret_ip, MS_FPROBE_REGS *regs,
				   void *data)
{
	ms_sys_exit(data, ms_fprobe_return_value(regs));
}
NOKPROBE_SYMBOL(ms_fp_sys_exit);

static notrace int ms_fp_chk_entry(struct fprobe *fp, unsigned long ip,
				   unsigned long ret_ip, MS_FPROBE_REGS *regs,
				   void *data)
{
	return !ms_chk_enter(container_of(fp, struct ms_target, fp), data);
}
NOKPROBE_SYMBOL(ms_fp_chk_entry);

static notrace void ms_fp_chk_exit(struct fprobe *fp, unsigned long ip,
				   unsigned long ret_ip, MS_FPROBE_REGS *regs,
				   void *data)
{
	ms_chk_exit(data, ms_fprobe_return_value(regs));
}
NOKPROBE_SYMBOL(ms_fp_chk_exit);

static int ms_fp_register(struct ms_target *t, int maxactive, const char *symbol,
			  void *addr)
{
	unsigned long ip = (unsigned long)addr;

	memset(&t->fp, 0, sizeof(t->fp));
	t->fp.entry_data_size = sizeof(struct ms_inst);
	ms_fprobe_set_maxactive(&t->fp, maxactive);
	if (t->kind == MS_KIND_SYSCALL) {
		t->fp.entry_handler = ms_fp_sys_entry;
		t->fp.exit_handler = ms_fp_sys_exit;
	} else {
		t->fp.entry_handler = ms_fp_chk_entry;
		t->fp.exit_handler = ms_fp_chk_exit;
	}
	if (symbol)
		return register_fprobe_syms(&t->fp, &symbol, 1);
	return register_fprobe_ips(&t->fp, &ip, 1);
}
#else
static int ms_fp_register(struct ms_target *t, int maxactive, const char *symbol,
			  void *addr)
{
	return -EOPNOTSUPP;
}
#endif /* MS_HAVE_FPROBE */

/* --- both ---------------------------------------------------------------- */

int ms_probe_register(struct ms_target *t, enum ms_backend b, int maxactive,
		      const char *symbol, void *addr)
{
	t->backend = b;
	if (b == MS_BACKEND_FPROBE)
		return ms_fp_register(t, maxactive, symbol, addr);
	return ms_rp_register(t, maxactive, symbol, addr);
}

/*
 * Why no handler runs after this returns, and none ever will:
 *
 * kretprobe: unregister_kretprobes() disarms all, waits one grace period for
 * every running entry handler, and clears each instance pool's link to the
 * kretprobe, so a call still in flight returns through the trampoline
 * without calling our return handler.
 *
 * fprobe before 6.14: unregister_fprobe() first stops the rethook (its
 * handler pointer is set to NULL, read under preempt_disable by the
 * trampoline), then unregisters the ftrace_ops, which for a module's
 * (dynamic) ops waits with synchronize_rcu_tasks_rude() and
 * synchronize_rcu_tasks(): every entry handler has finished, every exit
 * handler that read the old pointer too.  Calls still in flight keep their
 * rethook node (freed with the pool after the last one returns, by the
 * kernel, not us) and return without calling our exit handler.
 *
 * fprobe from 6.14: unregister_fprobe() removes the fprobe from fprobe's
 * hash tables (RCU) and the ftrace filter; fprobe_return() calls an exit
 * handler only for an fprobe still in the table, read under
 * preempt_disable, and the entry side looks the fprobe up under RCU.  But
 * unregister_fprobe() need not wait for a CPU that passed that test just
 * before, so synchronize_rcu() below waits for it (one grace period for all
 * targets).  Entry data of calls in flight is on the task's shadow stack,
 * the kernel's memory; if this module is loaded again at the same address
 * before such a call returns, its exit handler may see that old frame: the
 * cell bound check in the handlers keeps it harmless (one stray sample).
 *
 * Either way the per-CPU tables and the targets can go once this returns.
 */
void ms_probe_unregister(struct ms_target **ts, unsigned int n, enum ms_backend b)
{
	unsigned int i;

	if (!n)
		return;
	if (b == MS_BACKEND_KRETPROBE) {
		struct kretprobe *rps[MS_NTARGETS + 1];

		for (i = 0; i < n && i < ARRAY_SIZE(rps); i++)
			rps[i] = &ts[i]->rp;
		unregister_kretprobes(rps, i);
		return;
	}
#if MS_HAVE_FPROBE
	/* Soft-disable all first: the handlers stop at once, not one by one. */
	for (i = 0; i < n; i++)
		disable_fprobe(&ts[i]->fp);
	for (i = 0; i < n; i++)
		unregister_fprobe(&ts[i]->fp);
	synchronize_rcu();
#endif
}

unsigned long ms_probe_missed(const struct ms_target *t)
{
#if MS_HAVE_FPROBE
	if (t->backend == MS_BACKEND_FPROBE)
		return ms_fprobe_missed(&t->fp);
#endif
	return ms_kretprobe_missed(&t->rp);
}
