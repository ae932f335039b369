/* SPDX-License-Identifier: GPL-2.0 */
/*
 * systp.h - the syscall side on the raw_syscalls tracepoints (systp.c): its
 * backend table is ms_tracepoint_ops (backend.h); this is what the check
 * handlers ask it.
 */
#ifndef MSEAL_STATS_SYSTP_H
#define MSEAL_STATS_SYSTP_H

#include <linux/types.h>

/*
 * The row (names.h) of the syscall current is in, as its own sys_enter
 * recorded it: a listed syscall, or MS_OTHER when it is in none that is
 * counted (or its sys_enter was not seen).  -1 when the tracepoint side is
 * not counting: ask the registers instead.
 */
int ms_systp_row(void);

/*
 * Calibration (calib.c): let current's look-up in ms_systp_row() find a
 * slot, as a check inside a counted syscall finds its syscall's, so that
 * calibration pays what a real check pays; false when the side is not
 * counting (a real check does not look then either).  _end frees it.
 */
bool ms_systp_calib_begin(void);
void ms_systp_calib_end(void);

#endif /* MSEAL_STATS_SYSTP_H */
