/* SPDX-License-Identifier: GPL-2.0 */
/*
 * names.h - the syscalls and seal checks mseal_stats knows, as X-macro lists,
 * and the indexes the statistics use for them.
 */
#ifndef MSEAL_STATS_NAMES_H
#define MSEAL_STATS_NAMES_H

/* Syscalls that change mappings: the callers of the seal checks. */
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

/* Checks made outside any listed syscall are charged to this row. */
#define MS_OTHER	MS_NSYS

extern const char *const ms_sys_names[MS_NSYS];
extern const char *const ms_chk_names[MS_NCHK];

/* The index of syscall number NR, or MS_OTHER when it is not listed. */
int ms_sys_from_nr(long nr);
/* The number of syscall index S (native table). */
int ms_nr_of_sys(unsigned int s);

#endif /* MSEAL_STATS_NAMES_H */
