/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compat_direct.h - the ftrace direct-call API in the form this kernel has,
 * behind wrappers named after the calls they wrap:
 *
 *   MS_HAVE_FTRACE_DIRECT_OPS    register_ftrace_direct(ops, addr),
 *                                unregister_ftrace_direct(ops, addr, free),
 *                                modify_ftrace_direct(ops, addr)
 *                                (Linux 6.4 on)
 *   MS_HAVE_FTRACE_DIRECT_MULTI  register_ftrace_direct_multi(ops, addr),
 *                                unregister_ftrace_direct_multi(ops, addr),
 *                                modify_ftrace_direct_multi(ops, addr)
 *                                (5.16 to 6.3: Debian's 6.1)
 *
 * Both come from Kbuild's compile tests (module/conftest/), not from the
 * version number: a vendor kernel that backported the ops form builds too.
 * MS_HAVE_FTRACE_DIRECT: one of them, and a kernel built with direct calls
 * (CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS: on arm64 it needs
 * DYNAMIC_FTRACE_WITH_CALL_OPS, so 6.4 on), for which direct_tramp.S has
 * built the trampolines.  For the assembler: how it reaches current.
 */
#ifndef MSEAL_STATS_COMPAT_DIRECT_H
#define MSEAL_STATS_COMPAT_DIRECT_H

#ifdef __ASSEMBLY__
/*
 * x86_64: current's per-CPU variable, for the syscall trampolines' fast
 * filter test (direct_tramp.S), by what this kernel exports (Kbuild reads
 * Module.symvers): pcpu_hot, whose first member is current_task (6.2 to
 * 6.14; direct.c checks the offset), or current_task itself (6.1, and
 * 6.15 on).  Neither: no fast test, the trampolines test in C.  arm64's
 * current is sp_el0 on every kernel.
 */
#ifdef CONFIG_X86_64
#include <asm/percpu.h>
#if defined(MS_HAVE_EXPORT_PCPU_HOT)
#define MS_X86_CURRENT_TASK	PER_CPU_VAR(pcpu_hot)
#elif defined(MS_HAVE_EXPORT_CURRENT_TASK)
#define MS_X86_CURRENT_TASK	PER_CPU_VAR(current_task)
#endif
#endif /* CONFIG_X86_64 */

#else /* !__ASSEMBLY__ */

#include <linux/ftrace.h>

/* direct_tramp.S builds the trampolines (x86_64 and arm64 only, like the module). */
#define MS_HAVE_DIRECT_TRAMP	IS_ENABLED(CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS)

#if MS_HAVE_DIRECT_TRAMP && \
	(defined(MS_HAVE_FTRACE_DIRECT_OPS) || defined(MS_HAVE_FTRACE_DIRECT_MULTI))
#define MS_HAVE_FTRACE_DIRECT	1
#else
#define MS_HAVE_FTRACE_DIRECT	0
#endif

#if MS_HAVE_FTRACE_DIRECT

/*
 * ftrace_free_filter(OPS), on every kernel: empty OPS's filter and free
 * its hash.  ftrace_free_filter() itself is exported only from 6.2 and
 * 6.1.8 (a compile test cannot see that), and one reference to it would
 * keep the module from loading at all on 5.16 to 6.1.7, with any backend
 * ("Unknown symbol").  An empty filter set with reset does the same
 * everywhere: ftrace moves the old hash out (freed after a grace period)
 * and the static EMPTY_HASH in.  OPS must not be registered.
 */
static inline void ms_ftrace_free_filter(struct ftrace_ops *ops)
{
	ftrace_set_filter(ops, NULL, 0, 1);
}

/*
 * After ms_register_ftrace_direct(OPS) failed: had it got past its own
 * checks and handed OPS to ftrace (register_ftrace_function), which may
 * have put it on ftrace_ops_list, live, before refusing?  Both forms set
 * OPS->flags to their DIRECT flags just before that, and nothing clears
 * them; every earlier refusal (-EBUSY: the function has a direct caller;
 * -EINVAL, -ENOMEM) leaves OPS as it was, without FTRACE_OPS_FL_DIRECT.
 */
static inline bool ms_ftrace_direct_was_live(const struct ftrace_ops *ops)
{
	return ops->flags & FTRACE_OPS_FL_DIRECT;
}

#ifdef MS_HAVE_FTRACE_DIRECT_OPS
/* Send every call of the functions OPS filters to the trampoline at ADDR. */
static inline int ms_register_ftrace_direct(struct ftrace_ops *ops, unsigned long addr)
{
	return register_ftrace_direct(ops, addr);
}

/*
 * Undo it and free OPS's filter; returns once no new call can enter.
 * ADDR: the trampoline OPS calls now (ftrace drops only entries that
 * name it).
 */
static inline int ms_unregister_ftrace_direct(struct ftrace_ops *ops, unsigned long addr)
{
	return unregister_ftrace_direct(ops, addr, true);
}

/*
 * Send OPS's calls to ADDR instead, OPS registered: a stub ops takes the
 * calls through ftrace's list meanwhile (static: no grace period).
 */
static inline int ms_modify_ftrace_direct(struct ftrace_ops *ops, unsigned long addr)
{
	return modify_ftrace_direct(ops, addr);
}

/*
 * After ms_register_ftrace_direct(OPS) failed with ERR: may ftrace have
 * kept OPS's functions in its direct_functions table?  The entries go in
 * before register_ftrace_function_nolock().  A refusal there (an IPMODIFY
 * conflict, -ENODEV) took them out again (remove_direct_functions_hash)
 * until "ftrace: Fix modification of direct_function hash while in use"
 * (6.7, also in stable 6.6.y) dropped that cleanup; "ftrace: Fix BPF fexit
 * with livepatch" (2025) added reset_direct(), which removes them and
 * clears OPS->func.  Neither kind of cleanup clears OPS->func before it,
 * so OPS->func set says "may have kept", not "kept": on 6.4 to early 6.6
 * the entry is gone.  Every earlier refusal (-EBUSY, -EINVAL, -ENOMEM)
 * returns before OPS->func is set.
 */
static inline bool ms_ftrace_direct_left_stale(const struct ftrace_ops *ops, int err)
{
	return err && ops->func;
}
#else /* !MS_HAVE_FTRACE_DIRECT_OPS: MS_HAVE_FTRACE_DIRECT_MULTI */
static inline int ms_register_ftrace_direct(struct ftrace_ops *ops, unsigned long addr)
{
	return register_ftrace_direct_multi(ops, addr);
}

static inline int ms_unregister_ftrace_direct(struct ftrace_ops *ops, unsigned long addr)
{
	int err = unregister_ftrace_direct_multi(ops, addr);

	/* Not the hashes of an ops ftrace still has enabled. */
	if (!err)
		ms_ftrace_free_filter(ops);
	return err;
}

static inline int ms_modify_ftrace_direct(struct ftrace_ops *ops, unsigned long addr)
{
	return modify_ftrace_direct_multi(ops, addr);
}

/* 5.16 to 6.3 take their direct_functions entries out on every refusal. */
static inline bool ms_ftrace_direct_left_stale(const struct ftrace_ops *ops, int err)
{
	return false;
}
#endif /* MS_HAVE_FTRACE_DIRECT_OPS */

#endif /* MS_HAVE_FTRACE_DIRECT */

#endif /* __ASSEMBLY__ */

#endif /* MSEAL_STATS_COMPAT_DIRECT_H */
