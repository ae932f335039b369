/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mseal_stats_compat.h - every kernel-version and architecture difference
 * the module meets, each behind a small named inline, in the style of
 * lttng-modules' wrapper headers.  The rest of the module reads as if there
 * were one kernel.  Supported: 5.11 and later, x86_64 and arm64.  The
 * ftrace direct-call API has a header of its own: compat_direct.h.
 */
#ifndef MSEAL_STATS_COMPAT_H
#define MSEAL_STATS_COMPAT_H

#include <linux/version.h>
#include <linux/compat.h>
#include <linux/kprobes.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sched/task_stack.h>
#include <linux/security.h>
#include <linux/timekeeping.h>
#if defined(MS_HAVE_CSID_X86_TSC) || defined(MS_HAVE_CSID_ARM_ARCH_COUNTER)
#include <linux/clocksource_ids.h>
#endif /* MS_HAVE_CSID_X86_TSC || MS_HAVE_CSID_ARM_ARCH_COUNTER */
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
	/* Both are int: wrapped past INT_MAX they still count up. */
	return (unsigned long)(unsigned int)rp->nmissed + rp->kp.nmissed;
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
 * Another task's stack trace: stack_trace_save_tsk() is exported on some
 * kernels only (6.12 has it, 6.1 not); Kbuild reads Module.symvers.
 */
#if IS_ENABLED(CONFIG_STACKTRACE) && defined(MS_HAVE_EXPORT_STACK_TRACE_SAVE_TSK)
#define MS_HAVE_TASK_STACK_TRACE 1
#else
#define MS_HAVE_TASK_STACK_TRACE 0
#endif

/*
 * In a native entry function (__x64_sys_NAME, __arm64_sys_NAME): did a
 * compat task get here?  x86_64's ia32 syscalls have entries of their own
 * (__ia32_sys_NAME); only x32 shares the native ones.  arm64's compat
 * table shares many.
 */
static __always_inline bool ms_compat_in_native_entry(void)
{
	if (IS_ENABLED(CONFIG_X86_64) && !IS_ENABLED(CONFIG_X86_X32_ABI))
		return false;
	return in_compat_syscall();
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
 * Tasks whose user registers are not a syscall of their own: an io_uring
 * io-wq worker starts with a copy of its creator's registers on x86 (zeros
 * on arm64), a kernel thread has none.  PF_USER_WORKER (vhost, io_uring)
 * is from 6.4; PF_IO_WORKER from 5.12.
 */
#ifdef PF_USER_WORKER
#define MS_PF_WORKER	(PF_KTHREAD | PF_IO_WORKER | PF_USER_WORKER)
#else /* !PF_USER_WORKER */
#define MS_PF_WORKER	(PF_KTHREAD | PF_IO_WORKER)
#endif /* PF_USER_WORKER */

static __always_inline bool ms_current_is_worker(void)
{
	return current->flags & MS_PF_WORKER;
}

/*
 * When TASK was born (ns since boot): with the task_struct's address, it
 * names one task for good (inflight.h), since an address comes back.
 */
static __always_inline u64 ms_task_birth(const struct task_struct *task)
{
	return task->start_time;
}

/*
 * Is the kernel locked down so far that debugfs opens only files with no
 * write bit (lockdown=integrity or higher)?  security_locked_down() says so
 * once in dmesg when it is; a kernel without the lockdown LSM answers 0.
 */
static inline bool ms_debugfs_locked_down(void)
{
	return security_locked_down(LOCKDOWN_DEBUGFS) != 0;
}


/*
 * Tasks-RCU, for memory read by code that runs preemptible outside any
 * RCU read side (the direct trampolines).  ftrace selects it on a
 * preemptible kernel; without it (Debian's arm64 cloud 6.12: no
 * preemption) the header makes call_rcu_tasks() call_rcu(), and such
 * code is never preempted: one RCU grace period covers it, and
 * rcu_barrier() waits for its callbacks.
 */
#ifdef CONFIG_TASKS_RCU
#define ms_rcu_barrier_tasks	rcu_barrier_tasks
#else /* !CONFIG_TASKS_RCU */
#ifdef CONFIG_PREEMPTION
#error "mseal_stats: a preemptible kernel without CONFIG_TASKS_RCU (ftrace selects it)"
#endif
#define ms_rcu_barrier_tasks	rcu_barrier
#endif /* CONFIG_TASKS_RCU */

/*
 * The raw_syscalls tracepoints sys_enter and sys_exit (syscall_backend=
 * tracepoint): x86_64 and arm64 have had them since long before 5.11, with
 * the probe arguments (regs, id) and (regs, ret) unchanged; systp.c has
 * the compiler check its probes against the kernel's prototypes.  Newer kernels
 * (7.3 in the matrix; not 6.12) make them faultable: probes run preemptible,
 * under tasks-trace RCU, which tracepoint_synchronize_unregister() waits
 * for there.  systp.c's probes are preemption-safe either way.
 */
#if IS_ENABLED(CONFIG_TRACEPOINTS) && IS_ENABLED(CONFIG_HAVE_SYSCALL_TRACEPOINTS)
#define MS_HAVE_SYSCALL_TP	1
#else
#define MS_HAVE_SYSCALL_TP	0
#endif

/*
 * A snapshot of the time with the id of the clocksource read:
 * ktime_get_snapshot(), which Linux 7.x replaced by
 * ktime_get_snapshot_id(clock, snap) (module/conftest/).  Only the
 * clocksource id is used, so any clock will do.
 */
#ifdef MS_HAVE_KTIME_GET_SNAPSHOT_ID
static inline void ms_ktime_get_snapshot(struct system_time_snapshot *snap)
{
	ktime_get_snapshot_id(CLOCK_REALTIME, snap);
}
#else /* !MS_HAVE_KTIME_GET_SNAPSHOT_ID */
static inline void ms_ktime_get_snapshot(struct system_time_snapshot *snap)
{
	ktime_get_snapshot(snap);
}
#endif /* MS_HAVE_KTIME_GET_SNAPSHOT_ID */

/*
 * The hot path's clock (clock.h): the CPU's counter read directly, where
 * the kernel keeps time with it itself, so that two reads of it are what
 * ktime_get_ns() would have returned, without its sequence loop and its
 * indirect call.  A time snapshot (ms_ktime_get_snapshot()) and the
 * clocksource-change notifier (clock.c) name the clocksource by its id
 * (cs_id).  The branch is chosen by architecture first and then by what
 * this kernel provides (module/conftest/: the ids came at different
 * releases per architecture).  The architecture comes first because the
 * ids are one enum for every architecture: CSID_X86_TSC compiles on an
 * arm64 6.10 too, and choosing by the compile test alone once gave arm64
 * the x86 names (its clocksource reported as unknown).  Elsewhere: no
 * counter (ms_counter_usable() says no) and the hot path reads
 * ktime_get_mono_fast_ns().
 *
 * ms_counter_usable(): whether the snapshot's clocksource is the counter,
 * and the kernel still trusts it.  Its rate is not asked here: clock.c
 * takes the clocksource's own mult and shift, the conversion the kernel
 * itself applies (on arm64 that is the rate the timer driver settled on,
 * which may come from the device tree where firmware left CNTFRQ_EL0
 * wrong; on x86_64 tsc_khz's).
 *
 * x86_64: the TSC, when it is the clocksource (CSID_X86_TSC, Linux 6.10
 * on) and not marked unstable; rdtsc_ordered() as the kernel's own
 * read_tsc() does (rdtscp, or lfence; rdtsc).  A bare rdtsc may execute
 * before the instructions ahead of it complete: the end read could come
 * before the body's last work, the start read after the body's first.
 * The ordering both reads need is exactly rdtsc_ordered()'s, so it is
 * used as it stands rather than rdtsc() plus fences of our own.
 * arm64: the architected counter, when it is the clocksource; read through
 * arch_timer_read_counter, the driver's own reader (it carries the errata
 * workarounds).
 */
#if defined(CONFIG_X86_64) && defined(MS_HAVE_CSID_X86_TSC)
#include <asm/tsc.h>
#define MS_COUNTER_NAME		"tsc"
#define MS_COUNTER_CSID		CSID_X86_TSC

static __always_inline u64 ms_counter_read(void)
{
	return rdtsc_ordered();
}

static inline bool ms_counter_usable(const struct system_time_snapshot *snap)
{
	return snap->cs_id == CSID_X86_TSC && !check_tsc_unstable();
}

static inline const char *ms_clocksource_name(const struct system_time_snapshot *snap)
{
	switch (snap->cs_id) {
	case CSID_X86_TSC:		return "tsc";
	case CSID_X86_TSC_EARLY:	return "tsc-early";
	case CSID_X86_KVM_CLK:		return "kvm-clock";
	default:			return NULL;
	}
}
#elif defined(CONFIG_ARM64) && defined(MS_HAVE_CSID_ARM_ARCH_COUNTER) /* !x86_64 TSC */
#include <asm/arch_timer.h>
#include <clocksource/arm_arch_timer.h>
#define MS_COUNTER_NAME		"arch_sys_counter"
#define MS_COUNTER_CSID		CSID_ARM_ARCH_COUNTER

static __always_inline u64 ms_counter_read(void)
{
	return arch_timer_read_counter();
}

static inline bool ms_counter_usable(const struct system_time_snapshot *snap)
{
	return snap->cs_id == CSID_ARM_ARCH_COUNTER;
}

static inline const char *ms_clocksource_name(const struct system_time_snapshot *snap)
{
	return snap->cs_id == CSID_ARM_ARCH_COUNTER ? "arch_sys_counter" : NULL;
}
#else /* !(X86_64 && CSID_X86_TSC) && !(ARM64 && CSID_ARM_ARCH_COUNTER) */
/*
 * No id to tell the clocksource by (x86_64 before 6.10, arm64 before
 * 5.12): no counter read directly, and the report's clocksource is
 * "unknown" (mseal-stats record reads sysfs, in its own namespace).
 */
#define MS_COUNTER_NAME		"none"

static __always_inline u64 ms_counter_read(void)
{
	return 0;
}

static inline bool ms_counter_usable(const struct system_time_snapshot *snap)
{
	return false;
}

static inline const char *ms_clocksource_name(const struct system_time_snapshot *snap)
{
	return NULL;
}
#endif /* X86_64 && CSID_X86_TSC, ARM64 && CSID_ARM_ARCH_COUNTER */

#endif /* MSEAL_STATS_COMPAT_H */
