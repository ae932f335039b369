/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mseal_stats.h - the module's parts as main.c and debugfs.c see them.
 */
#ifndef MSEAL_STATS_H
#define MSEAL_STATS_H

#include <linux/types.h>

/* calib.c */
int ms_calib_run(int maxactive);
u64 ms_calib_ns(void);
u64 ms_calib_outer_ns(void);

/* sentinel.c: kprobes globally disabled (debugfs kprobes/enabled 0)? */
int ms_sentinel_init(void);
void ms_sentinel_exit(void);
bool ms_kprobes_enabled(void);

/* debugfs.c */
int ms_debugfs_init(void);
void ms_debugfs_exit(void);

#endif /* MSEAL_STATS_H */
