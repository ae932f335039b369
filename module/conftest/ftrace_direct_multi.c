// SPDX-License-Identifier: GPL-2.0
/*
 * Compile test (Kbuild): the older form of the same API,
 * register_ftrace_direct_multi(ops, addr) and
 * unregister_ftrace_direct_multi(ops, addr), Linux 5.16 to 6.3.
 * MS_HAVE_FTRACE_DIRECT_MULTI.
 */
#include <linux/ftrace.h>

static struct ftrace_ops ms_ops;

int ms_conftest(void);
int ms_conftest(void)
{
	return register_ftrace_direct_multi(&ms_ops, 0) +
	       unregister_ftrace_direct_multi(&ms_ops, 0);
}
