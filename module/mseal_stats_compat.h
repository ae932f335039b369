/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mseal_stats_compat.h - every kernel-version and architecture difference
 * the module meets, each behind a small named inline, in the style of
 * lttng-modules' wrapper headers.  The rest of the module reads as if there
 * were one kernel.  Supported: 5.11 and later, x86_64 and arm64.
 */
#ifndef MSEAL_STATS_COMPAT_H
#define MSEAL_STATS_COMPAT_H

#include <linux/version.h>
#include <linux/compat.h>
#include <linux/kprobes.h>
#include <linux/sched.h>
#include <linux/sched/task_stack.h>
#include <asm/syscall.h>

/* Syscall wrapper symbols: __x64_sys_munmap, __arm64_sys_munmap. */
#if defined(CONFIG_X86_64)
#define MS_SYSCALL_PREFIX	"__x64_sys_"
#elif defined(CONFIG_ARM64)
#define MS_SYSCALL_PREFIX	"__arm64_sys_"
#else
#error "mseal_stats: only x86_64 and arm64 are supported"
#endif

#if LINUX_VERSION_CODE < KERNEL_VERSION(5, 11, 0)
#error "mseal_stats needs Linux 5.11 or later (get_kretprobe)"
#endif /* LINUX_VERSION_CODE < KERNEL_VERSION(5, 11, 0) */

/* The kretprobe an instance belongs to. */
static __always_inline struct kretprobe *ms_kretprobe_of(struct kretprobe_instance *ri)
{
	return get_kretprobe(ri);
}

/*
 * Hits a kretprobe missed: instance pool exhausted (rp->nmissed) or the
 * entry kprobe itself skipped, e.g. on recursion (kp.nmissed).
 */
static inline unsigned long ms_kretprobe_missed(const struct kretprobe *rp)
{
	return (unsigned long)rp->nmissed + rp->kp.nmissed;
}

/*
 * The index in the syscall table of the syscall current is in, or -1 when
 * it is in none; compat (32-bit) syscalls answer -1 too, their numbers are
 * another table's.
 */
static __always_inline long ms_current_syscall_nr(void)
{
	if (in_compat_syscall())
		return -1;
	return syscall_get_nr(current, task_pt_regs(current));
}

/*
 * A bool return value: only the low byte of the return register is
 * defined by the ABI.
 */
static __always_inline bool ms_return_bool(unsigned long ret)
{
	return (u8)ret != 0;
}

/*
 * fprobe, the second backend.  MS_HAVE_FPROBE: this kernel has it
 * (CONFIG_FPROBE) and its API is one the module knows:
 *
 *   before 6.5    no entry data or no return address in the handlers: not
 *                 supported (MS_HAVE_FPROBE 0, backend=fprobe refused).
 *   6.5 to 6.13   fprobe on an ftrace_ops, exit through a rethook: handlers
 *                 get struct pt_regs; a pool of nr_maxactive nodes holds
 *                 the entry data of calls in flight (0: 2 per CPU per
 *                 address, too few for a syscall that sleeps).
 *   6.14 on       fprobe on the function-graph tracer (fgraph): handlers get
 *                 struct ftrace_regs; the entry data lives on the task's
 *                 shadow stack, there is no pool and no nr_maxactive.
 *
 * MS_FPROBE_REGS is the register type the handlers get;
 * ms_fprobe_return_value() reads the return value in the exit handler.
 */
#if IS_ENABLED(CONFIG_FPROBE) && LINUX_VERSION_CODE >= KERNEL_VERSION(6, 5, 0)
#define MS_HAVE_FPROBE	1
#include <linux/fprobe.h>

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 14, 0)
#define MS_FPROBE_REGS	struct ftrace_regs

static __always_inline unsigned long ms_fprobe_return_value(struct ftrace_regs *fregs)
{
	return ftrace_regs_get_return_value(fregs);
}

static inline void ms_fprobe_set_maxactive(struct fprobe *fp, int maxactive)
{
}
#else /* LINUX_VERSION_CODE < KERNEL_VERSION(6, 14, 0) */
#define MS_FPROBE_REGS	struct pt_regs

static __always_inline unsigned long ms_fprobe_return_value(struct pt_regs *regs)
{
	return regs_return_value(regs);
}

static inline void ms_fprobe_set_maxactive(struct fprobe *fp, int maxactive)
{
	fp->nr_maxactive = maxactive;
}
#endif /* LINUX_VERSION_CODE >= KERNEL_VERSION(6, 14, 0) */

/*
 * Hits an fprobe missed: no rethook node or shadow-stack room, or refused
 * for recursion (before 6.14; the fgraph version does not count those yet).
 */
static inline unsigned long ms_fprobe_missed(const struct fprobe *fp)
{
	return READ_ONCE(fp->nmissed);
}
#else
#define MS_HAVE_FPROBE	0
#endif /* IS_ENABLED(CONFIG_FPROBE) && >= 6.5 */

/*
 * The raw_syscalls tracepoints sys_enter and sys_exit (syscall_backend=
 * tracepoint): x86_64 and arm64 have had them since long before 5.11, with
 * the probe arguments (regs, id) and (regs, ret) unchanged.  Newer kernels
 * (7.3 in the matrix; not 6.12) make them faultable: probes run preemptible,
 * under tasks-trace RCU, which tracepoint_synchronize_unregister() waits
 * for there.  systp.c's probes are preemption-safe either way.
 */
#if IS_ENABLED(CONFIG_TRACEPOINTS) && IS_ENABLED(CONFIG_HAVE_SYSCALL_TRACEPOINTS)
#define MS_HAVE_SYSCALL_TP	1
#else
#define MS_HAVE_SYSCALL_TP	0
#endif

#endif /* MSEAL_STATS_COMPAT_H */
