// SPDX-License-Identifier: GPL-2.0
/*
 * names.c - names of the syscalls and checks, and syscall number to index.
 * The table is built at compile time from the __NR_* constants.
 */
#include "env.h"
#ifdef __KERNEL__
#include <linux/kprobes.h>
#include <asm/unistd.h>
#else
#include <sys/syscall.h>
#endif
#include "names.h"

/* mseal is 462 on every architecture that has it (6.10+ headers). */
#ifndef __NR_mseal
#define __NR_mseal 462
#endif

#define MS_NAME(n) #n,
const char *const ms_sys_names[MS_NSYS] = { MS_SYSCALLS(MS_NAME) };
const char *const ms_chk_names[MS_NCHK] = { MS_CHECKS(MS_NAME) };
#undef MS_NAME

const char *ms_row_name(unsigned int r)
{
	if (r < MS_NSYS)
		return ms_sys_names[r];
	return r == MS_WORKER ? "worker" : "other";
}

notrace int ms_sys_from_nr(long nr)
{
	switch (nr) {
#define MS_CASE(n) case __NR_##n: return MS_SYS_##n;
	MS_SYSCALLS(MS_CASE)
#undef MS_CASE
	default:
		return MS_OTHER;
	}
}

int ms_nr_of_sys(unsigned int s)
{
#define MS_NR(n) __NR_##n,
	static const int nrs[MS_NSYS] = { MS_SYSCALLS(MS_NR) };
#undef MS_NR

	return s < MS_NSYS ? nrs[s] : -1;
}

#ifdef __KERNEL__
NOKPROBE_SYMBOL(ms_sys_from_nr);	/* called from the probe handlers */
#endif
