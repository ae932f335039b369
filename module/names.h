/* SPDX-License-Identifier: GPL-2.0 */
/*
 * names.h - the syscalls and seal checks mseal_stats knows, as X-macro lists,
 * and the indexes the statistics use for them.
 */
#ifndef MSEAL_STATS_NAMES_H
#define MSEAL_STATS_NAMES_H

#include "env.h"

/*
 * Syscalls that change mappings: the callers of the seal checks.  Each
 * takes arguments (a SYSCALL_DEFINE0 entry is shared with ia32, which
 * ms_compat_in_native_entry() assumes it is not) and returns (a direct
 * call on exit or exit_group would hold every unload).
 */
#define MS_SYSCALLS(X)		\
	X(mmap)			\
	X(munmap)		\
	X(mremap)		\
	X(mprotect)		\
	X(pkey_mprotect)	\
	X(madvise)		\
	X(process_madvise)	\
	X(brk)			\
	X(mseal)		\
	X(shmdt)

/* The seal checks, by base symbol name (clones: NAME.isra.N etc.). */
#define MS_CHECKS(X)		\
	X(can_modify_mm)	\
	X(can_modify_mm_madv)	\
	X(can_modify_vma)	\
	X(can_modify_vma_madv)

#define MS_ENUM_SYS(n) MS_SYS_##n,
#define MS_ENUM_CHK(n) MS_CHK_##n,
enum ms_sys { MS_SYSCALLS(MS_ENUM_SYS) MS_NSYS };
enum ms_chk { MS_CHECKS(MS_ENUM_CHK) MS_NCHK };
#undef MS_ENUM_SYS
#undef MS_ENUM_CHK

/*
 * The rows checks are charged to: one per listed syscall, then "other"
 * (a user task outside every listed syscall) and "worker" (a kernel-side
 * worker: an io_uring io-wq worker, a kernel thread; their user registers
 * are the creator's copy or zeros, not a syscall of theirs).
 */
#define MS_OTHER	MS_NSYS
#define MS_WORKER	(MS_NSYS + 1)
#define MS_NROWS	(MS_NSYS + 2)

extern const char *const ms_sys_names[MS_NSYS];
extern const char *const ms_chk_names[MS_NCHK];

/* The name of check row R: a syscall, "other" or "worker". */
const char *ms_row_name(unsigned int r);

/*
 * Syscall number to row as a table, for the hot path on both sides (the check handlers'
 * row, the tracepoint probes' test): one load, no switch.  Every native
 * syscall number is below MS_NR_MAX (mseal, 462, is the highest listed);
 * a number past it, or -1, is "other".  The tracepoint side marks the
 * syscalls it counts with MS_ROW_TP, so that its probes need this one load
 * to let every other syscall go.  Filled by ms_names_init() at load.
 */
#define MS_NR_MAX	512
#define MS_ROW_TP	0x80
#define MS_ROW_MASK	0x7f

extern u8 ms_nr_row[MS_NR_MAX];
/*
 * The same rows as the first cell of each in the check cells (cell.h:
 * MS_CELL_CHK(row, 0)), for the check handlers: a load and an add give
 * the cell.  Filled with ms_nr_row, never changed after.
 */
extern u8 ms_nr_chk[MS_NR_MAX];

void ms_names_init(void);
/* Mark syscall index S counted (or not) by the tracepoint side. */
void ms_names_set_tp(unsigned int s, bool on);

/* The first check cell of the row of syscall number NR (cell.h). */
static __always_inline unsigned int ms_chk_base_of_nr(long nr)
{
	if ((unsigned long)nr >= MS_NR_MAX)
		return MS_NSYS + MS_OTHER * MS_NCHK;	/* MS_CELL_CHK(MS_OTHER, 0) */
	return ms_nr_chk[nr];
}

/* The syscall index of NR if the tracepoint side counts it, else -1. */
static __always_inline int ms_tp_sys_of_nr(long nr)
{
	u8 v;

	if ((unsigned long)nr >= MS_NR_MAX)
		return -1;
	v = READ_ONCE(ms_nr_row[nr]);
	return v & MS_ROW_TP ? v & MS_ROW_MASK : -1;
}

/* The number of syscall index S (native table). */
int ms_nr_of_sys(unsigned int s);

#endif /* MSEAL_STATS_NAMES_H */
