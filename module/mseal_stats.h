/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mseal_stats.h - the module's parts as main.c, control.c and debugfs.c
 * see them.
 */
#ifndef MSEAL_STATS_H
#define MSEAL_STATS_H

#include <linux/types.h>

/* calib.c: measure the probe cost (0, or -EAGAIN: could not; kept as was). */
int ms_calib_run(void);
u64 ms_calib_ns(void);
u64 ms_calib_outer_ns(void);

/* sentinel.c: kprobes globally disabled (debugfs kprobes/enabled 0)? */
int ms_sentinel_init(void);
void ms_sentinel_exit(void);
bool ms_kprobes_enabled(void);

/* control.c: accept commands (true) or refuse them (false). */
void ms_control_ready(bool ready);

/* debugfs.c */
int ms_debugfs_init(void);
void ms_debugfs_exit(void);
/* Is debugfs read-only here (lockdown)?  Asked at load, then remembered. */
bool ms_locked_down(void);

#endif /* MSEAL_STATS_H */
