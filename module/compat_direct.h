/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compat_direct.h - the ftrace direct-call API in the form this kernel has,
 * behind two wrappers named after the calls they wrap:
 *
 *   MS_HAVE_FTRACE_DIRECT_OPS    register_ftrace_direct(ops, addr) and
 *                                unregister_ftrace_direct(ops, addr, free)
 *                                (Linux 6.4 on)
 *   MS_HAVE_FTRACE_DIRECT_MULTI  register_ftrace_direct_multi(ops, addr) and
 *                                unregister_ftrace_direct_multi(ops, addr)
 *                                (5.16 to 6.3: Debian's 6.1)
 *
 * Both come from Kbuild's compile tests (module/conftest/), not from the
 * version number: a vendor kernel that backported the ops form builds too.
 * MS_HAVE_FTRACE_DIRECT: one of them, and a kernel built with direct calls
 * (CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS: on arm64 it needs
 * DYNAMIC_FTRACE_WITH_CALL_OPS, so 6.4 on), for which direct_tramp.S has
 * built the trampolines.
 */
#ifndef MSEAL_STATS_COMPAT_DIRECT_H
#define MSEAL_STATS_COMPAT_DIRECT_H

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

#ifdef MS_HAVE_FTRACE_DIRECT_OPS
/* Send every call of the functions OPS filters to the trampoline at ADDR. */
static inline int ms_register_ftrace_direct(struct ftrace_ops *ops, unsigned long addr)
{
	return register_ftrace_direct(ops, addr);
}

/* Undo it and free OPS's filter; returns once no new call can enter. */
static inline int ms_unregister_ftrace_direct(struct ftrace_ops *ops, unsigned long addr)
{
	return unregister_ftrace_direct(ops, addr, true);
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
		ftrace_free_filter(ops);
	return err;
}
#endif /* MS_HAVE_FTRACE_DIRECT_OPS */

#endif /* MS_HAVE_FTRACE_DIRECT */

#endif /* MSEAL_STATS_COMPAT_DIRECT_H */
