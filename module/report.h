/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report.h - the report, as text (report_text.c: tables in the manner of
 * `perf trace -s`, histograms in bcc funclatency's) and as JSON (report.c),
 * formatted from a snapshot of the statistics.  Pure C: the module
 * fills struct ms_report, the unit tests fill it by hand.
 */
#ifndef MSEAL_STATS_REPORT_H
#define MSEAL_STATS_REPORT_H

#include "buf.h"
#include "cell.h"

/* One wording for dmesg (main.c, calib.c) and the report's warning line. */
#define MS_KPROBES_OFF_MSG \
	"kprobes are disabled (/sys/kernel/debug/kprobes/enabled is 0)"

/* Where the commands go (control.c): one wording for dmesg and the report. */
#define MS_COMMAND_PARAM	"/sys/module/mseal_stats/parameters/command"

struct ms_report_probe {
	const char *name;	/* base name: "munmap", "can_modify_vma" */
	const char *kind;	/* "syscall", "check" */
	const char *state;	/* "attached", "absent", "failed", "off", "partial" */
	const char *symbol;	/* the symbol probed or tried last */
	const char *backend;	/* attached: its backend; else "-" */
	int err;		/* failed: the negative errno */
	u64 missed;
};

/*
 * The JSON's schema: 2 adds "version", "schema", "clocksource" and
 * "calibration" (per backend) to the unnumbered first one; 3 adds
 * "since_reset_ns"; 4 adds "clock"; 5 adds "syscalls_in_flight",
 * "syscall_span" and "clock_backwards".  Fields are only ever added.
 */
#define MS_REPORT_SCHEMA	5

/* The text report's lines are at most this wide (tests/unit/test_report.c). */
#define MS_REPORT_COLS		100

/* One backend's calibration, as reported. */
struct ms_report_calib {
	const char *backend;
	u64 inner_ns;		/* subtracted from each timed call on it */
	u64 outer_ns;		/* the whole cost of one probed call */
	int cpu;		/* the CPU it ran on */
	const char *clock;	/* the clock it was taken with (clock.h's names) */
	bool stale;		/* that clock no longer times the calls */
};

#define MS_REPORT_NCALIB	2

struct ms_report {
	const char *version;		/* the module's (dkms.conf) */
	const char *kernel;
	const char *clocksource;	/* the kernel's current one */
	const char *clock;		/* what timed these figures (clock.h) */
	bool clock_switched;		/* two clocks in these figures */
	u64 clock_backwards;		/* calls timed 0 because the clock went back */
	u64 since_reset_ns;		/* since load or the last reset: the figures' span */
	bool mseal_supported;
	const char *backend;		/* checks: "direct" or "kretprobe" */
	const char *syscall_backend;	/* "direct", "tracepoint" or "kretprobe" */
	const char *syscall_span;	/* what a syscall's time covers (backend.h) */
	bool syscalls_probed;		/* false: checks only (syscalls=0) */
	u64 sys_in_flight;		/* tracepoint side: slots claimed now */
	bool kprobes_enabled;		/* false: kprobes/enabled is 0 */
	bool chk_need_kprobes;		/* some check probe is a kretprobe */
	bool sys_need_kprobes;		/* some syscall probe is a kretprobe */
	bool locked_down;		/* debugfs read-only (lockdown) */
	/*
	 * Each check is netted with its own backend's figures: CHK_INNER from
	 * each check, CHK_OUTER from the syscall around it.  Uncalibrated: its
	 * backend has no calibration, or its symbols are on two backends.
	 */
	u64 chk_inner[MS_NCHK];
	u64 chk_outer[MS_NCHK];
	bool chk_uncalibrated[MS_NCHK];
	/* From each syscall: its own probe's share (0: the tracepoints, outside the time). */
	u64 sys_inner;
	struct ms_report_calib calib[MS_REPORT_NCALIB];
	unsigned int ncalib;
	int maxactive;
	int filter_tgid;
	const char *filter_comm;
	u64 calibration_ns;		/* handler cost inside a probed call (checks' backend) */
	u64 calibration_outer_ns;	/* whole cost of a probe pair per call (checks' backend) */
	const struct ms_report_probe *probes;
	unsigned int nprobes;
	bool sys_shown[MS_NSYS];	/* syscalls to list (their probe is attached) */
	bool chk_shown[MS_NCHK];	/* checks to list (attached) */
	const struct ms_table *t;
};

/*
 * What kprobes/enabled 0 stops, given whether some check probe (CHK) and
 * some syscall probe (SYS) need kprobes (kretprobes stop firing, direct
 * calls and the tracepoints do not): the end of the warning, for dmesg and
 * the report alike.
 */
const char *ms_kprobes_off_effect(bool chk, bool sys, bool syscalls_probed);
/* report_text.c */
void ms_report_text(struct ms_buf *b, const struct ms_report *r);
/* C's histogram from its first to its last non-empty bucket, and its closing line. */
void ms_report_hist(struct ms_buf *b, const struct ms_cell *c);
/* report.c */
void ms_report_json(struct ms_buf *b, const struct ms_report *r);

/* Shared by both reports (report.c). */
/* Missed hits over every probe: the figure a load test checks for 0. */
u64 ms_missed_total(const struct ms_report *r);
/* Check K's cell C, less K's backend's share inside each call. */
u64 ms_check_net(const struct ms_report *r, unsigned int k, const struct ms_cell *c);
/*
 * Syscall S's time less its own probe's share inside each call and the
 * whole cost of every check probe that fired inside it.
 */
u64 ms_sys_net(const struct ms_report *r, unsigned int s);
/*
 * A syscall's JSON entry is there when its probe exists, or, with
 * syscalls=0 (no syscall probed), when checks were charged to it.
 */
bool ms_sys_row_shown(const struct ms_report *r, unsigned int s);

#endif /* MSEAL_STATS_REPORT_H */
