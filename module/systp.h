/* SPDX-License-Identifier: GPL-2.0 */
/*
 * systp.h - the syscall side on the raw_syscalls tracepoints (systp.c): its
 * backend table is ms_tracepoint_ops (backend.h); this is what the check
 * handlers ask it.
 */
#ifndef MSEAL_STATS_SYSTP_H
#define MSEAL_STATS_SYSTP_H

/*
 * The row (names.h) of the syscall current is in, as its own sys_enter
 * recorded it: a listed syscall, or MS_OTHER when it is in none that is
 * counted (or its sys_enter was not seen).  -1 when the tracepoint side is
 * not counting: ask the registers instead.
 */
int ms_systp_row(void);

#endif /* MSEAL_STATS_SYSTP_H */
