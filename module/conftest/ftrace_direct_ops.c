// SPDX-License-Identifier: GPL-2.0
/*
 * Compile test (Kbuild): the ftrace direct-call API on an ftrace_ops,
 * register_ftrace_direct(ops, addr) and unregister_ftrace_direct(ops, addr,
 * free_filters), as in Linux 6.4 and later.  MS_HAVE_FTRACE_DIRECT_OPS.
 */
#include <linux/ftrace.h>

static struct ftrace_ops ms_ops;

int ms_conftest(void);
int ms_conftest(void)
{
	return register_ftrace_direct(&ms_ops, 0) +
	       unregister_ftrace_direct(&ms_ops, 0, true);
}
