// SPDX-License-Identifier: GPL-2.0
/*
 * names.c - names of the syscalls and checks, and syscall number to index.
 * The table is built at compile time from the __NR_* constants.
 */
#include "env.h"
#ifdef __KERNEL__
#include <asm/unistd.h>
#else
#include <sys/syscall.h>
#endif
#include "cell.h"
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

int ms_nr_of_sys(unsigned int s)
{
#define MS_NR(n) __NR_##n,
	static const int nrs[MS_NSYS] = { MS_SYSCALLS(MS_NR) };
#undef MS_NR

	return s < MS_NSYS ? nrs[s] : -1;
}

u8 ms_nr_row[MS_NR_MAX];
u8 ms_nr_chk[MS_NR_MAX];

void ms_names_init(void)
{
	unsigned int i;

	for (i = 0; i < MS_NR_MAX; i++)
		ms_nr_row[i] = MS_OTHER;
	for (i = 0; i < MS_NSYS; i++)
		ms_nr_row[ms_nr_of_sys(i)] = i;
	for (i = 0; i < MS_NR_MAX; i++)
		ms_nr_chk[i] = MS_CELL_CHK(ms_nr_row[i], 0);
}

void ms_names_set_tp(unsigned int s, bool on)
{
	int nr = ms_nr_of_sys(s);

	if (nr < 0 || nr >= MS_NR_MAX)
		return;
	WRITE_ONCE(ms_nr_row[nr], on ? s | MS_ROW_TP : s);
}

#define MS_NR_CHECK(n) _Static_assert(__NR_##n < MS_NR_MAX, "__NR_" #n " fits the row table");
MS_SYSCALLS(MS_NR_CHECK)
#undef MS_NR_CHECK
_Static_assert(MS_NROWS <= MS_ROW_MASK, "the row fits beside MS_ROW_TP");
_Static_assert(MS_CELL_CHK(MS_NROWS - 1, 0) <= 0xff, "a row's first check cell fits ms_nr_chk");
_Static_assert(MS_NSYS + MS_OTHER * MS_NCHK == MS_CELL_CHK(MS_OTHER, 0),
	       "ms_chk_base_of_nr's other");
