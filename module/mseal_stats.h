/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mseal_stats.h - the module's parts as main.c, control.c and debugfs.c
 * see them.
 */
#ifndef MSEAL_STATS_H
#define MSEAL_STATS_H

#include <linux/types.h>

struct ms_backend_ops;
struct mutex;

/* One backend's calibration (calib.c). */
struct ms_calib {
	const struct ms_backend_ops *ops;	/* NULL: none yet */
	u64 inner_ns;	/* the handlers' share inside each timed call */
	u64 outer_ns;	/* the whole cost of one probed call */
	int cpu;	/* the CPU it ran on */
	bool counter;	/* taken with the counter (clock.h), else the fallback */
};

/*
 * calib.c: attach a calibration probe for each backend that wraps calls
 * and is in use (after the plan's probes: at load), and detach them (at
 * unload, before the plan's); measure the probe cost with them (0, or the
 * first error: -EAGAIN, could not; that backend's figures are kept as
 * they were).  Only attach and detach wait for grace periods.
 */
void ms_calib_attach(void);
void ms_calib_detach(void);
int ms_calib_run(void);
/* OPS's figures into *OUT; false: not calibrated. */
bool ms_calib_get(const struct ms_backend_ops *ops, struct ms_calib *out);

/* sentinel.c: kprobes globally disabled (debugfs kprobes/enabled 0)? */
int ms_sentinel_init(void);
void ms_sentinel_exit(void);
bool ms_kprobes_enabled(void);

/* control.c: accept commands (true) or refuse them (false). */
void ms_control_ready(bool ready);
/* Held around every command: stats.c asserts it for a reset. */
extern struct mutex ms_control_lock;

/* debugfs.c */
int ms_debugfs_init(void);
void ms_debugfs_exit(void);
/* Is debugfs read-only here (lockdown)?  Asked at load, then remembered. */
bool ms_locked_down(void);

#endif /* MSEAL_STATS_H */
