/* SPDX-License-Identifier: GPL-2.0 */
/*
 * backend.h - one interface for every probe mechanism, in the kernel's own
 * style (struct ftrace_ops, trace_kprobe/trace_fprobe): each backend is a
 * file of its own with one table of operations; the plan, calibration and
 * the report call only through the table and never ask which one it is.
 *
 *   kretprobe.c    a kretprobe per target: every kernel has it, it is the
 *                  fallback everywhere
 *   direct.c       an ftrace direct call to a trampoline of ours that calls
 *                  the function itself (as BPF's fexit does): no int3, no
 *                  register dump, no return-address hijack
 *   systp.c        the syscalls only: the raw_syscalls sys_enter/sys_exit
 *                  tracepoints, one pair for all
 *
 * A backend's probe embeds struct ms_probe (the part every backend shares)
 * and wraps it in its own struct (container_of).  A kernel without the
 * mechanism gets a table whose available() is false and whose attach()
 * says -EOPNOTSUPP.  backend.c picks the tables from the parameters, in
 * one place.
 */
#ifndef MSEAL_STATS_BACKEND_H
#define MSEAL_STATS_BACKEND_H

#include <linux/atomic.h>
#include <linux/types.h>
#include "plan.h"

/* What every backend's probe starts with. */
struct ms_probe {
	struct ms_target *target;
	/* Calls not timed because they came outside task context (never seen). */
	atomic_long_t outside_task;
};

static __always_inline void ms_probe_missed_inc(struct ms_probe *p)
{
	atomic_long_inc(&p->outside_task);
}

struct ms_backend_ops {
	const char *name;
	/* What a kernel needs for it, for the message when it has not. */
	const char *requires;
	/* What a syscall's time covers on it, for the report. */
	const char *span;
	/* Its probes stop firing while kprobes are disabled (kprobes/enabled 0). */
	bool needs_kprobes;
	/*
	 * It times a call from a function's entry to its return, with the
	 * shared handlers (handlers.h): calibration can measure it on a
	 * function of ours (calib.c).
	 */
	bool wraps_calls;
	/* Can this kernel do it at all? */
	bool (*available)(void);
	/*
	 * Probe T at SYMBOL, or at ADDR when SYMBOL is NULL (a function of
	 * ours: calibration); set T->probe.  0, -ENOENT (not there), -EBUSY
	 * (taken by another user of the same mechanism) or another error.
	 * May rewrite T->symbol to say what it probed.
	 */
	int (*attach)(struct ms_target *t, const char *symbol, void *addr);
	/*
	 * Undo attach for the N targets in TS, all of this backend, and free
	 * their probes: when it returns, no handler of theirs runs, nor ever
	 * will, and no task is still inside code of ours they put in its way.
	 */
	void (*detach)(struct ms_target **ts, unsigned int n);
	/* Hits T's probe could not count (no instance free, table full). */
	unsigned long (*missed)(const struct ms_target *t);
};

extern const struct ms_backend_ops ms_kretprobe_ops;
extern const struct ms_backend_ops ms_direct_ops;
extern const struct ms_backend_ops ms_tracepoint_ops;

/* kretprobe.c: the parameter maxactive as set at load (0: automatic), resolved. */
int ms_maxactive(void);

/* backend.c: the backends the parameters chose, once resolved. */
int ms_backend_resolve(void);
const struct ms_backend_ops *ms_backend_checks(void);
/* NULL with syscalls=0: the syscalls are not probed. */
const struct ms_backend_ops *ms_backend_syscalls(void);
/* Every backend, I from 0 on; NULL past the last. */
const struct ms_backend_ops *ms_backend_at(unsigned int i);
/* Where a target goes when OPS is taken (-EBUSY); NULL: nowhere. */
const struct ms_backend_ops *ms_backend_fallback(const struct ms_backend_ops *ops);

#endif /* MSEAL_STATS_BACKEND_H */
