/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The boot records of a folder, as `mseal-compare record` writes them
 * (scripts/compare/record): DIR/NAME/meta.json plus each run's mseal-bench
 * JSON and, for the runs with the module, its JSON report.  Loaded into
 * one value per boot and workload: the median ops/s over the boot's runs,
 * without and with the module, and the module's account of those runs.
 */
#ifndef RECORDS_H
#define RECORDS_H

#include <stddef.h>

#include "../lib/workloads.h"

#define REC_MAX 512	/* boot records in a folder */
#define REC_MAX_WL 32	/* workloads in a record */
#define REC_MAX_RUNS 64	/* runs of one workload in one phase of a boot */
#define REC_NSYS 10
#define REC_NCHK 4
#define REC_NO_SEED (-1LL)

extern const char *const rec_syscalls[REC_NSYS];
extern const char *const rec_checks[REC_NCHK];

/* The module's reports of some runs, summed; check times raw and net of calibration. */
struct acct {
	double calls[REC_NSYS], ns[REC_NSYS];
	double checks[REC_NSYS], check_ns[REC_NSYS], check_net_ns[REC_NSYS];
	int reports;
};

/*
 * One run: a fresh mseal-bench process, so one user address-space layout
 * (layouts.h: the unit of the headline).
 */
struct run_val {
	double ops;		/* ops/s */
	double chk;		/* with the module: net check ns per operation (explain.h); NaN: unknown */
	long long layout;	/* mseal-bench --layout N; 0: the kernel's own (ASLR, or norandmaps) */
	long long rnd;		/* layout N's rnd in pages: N names one place only with the same rnd */
};

/* One workload in one boot. */
struct boot_wl {
	char name[48];
	double ops[2];		/* median ops/s over the runs: [0] without the module, [1] with; NaN: none */
	struct acct acct;	/* the module's reports of the runs with it */
	struct run_val run[2][REC_MAX_RUNS];	/* each run, in the order run: [0] without, [1] with */
	int nrun[2];
};

struct record {
	char name[256];		/* its folder, inside DIR */
	char release[128], arch[32], cpu[160], machine[80], governor[64], turbo[16];
	/* What `loop start --governor/--no-turbo` asked for and found at this
	 * boot (scripts/compare/cpu-settings' line), or record's "asked: nothing". */
	char cpu_settings[256];
	char clock[16];		/* "wall" (also when meta.json has none) or "icount" */
	char options[512];	/* meta.json's "options", whitespace outside strings dropped */
	long long seed;		/* QEMU's -seed of the boot; REC_NO_SEED: none (null or absent) */
	double load1;		/* the first figure of "loadavg_start"; NaN: none */
	int cpus;		/* 0: not recorded */
	long long epoch;
	int with_module;	/* the module was loaded for the second phase */
	int aslr;		/* randomize_va_space (0: one fixed user layout); -1: not recorded */
	int nwl;
	struct boot_wl wl[REC_MAX_WL];
};

/*
 * Load every record of DIR (folders with a meta.json; hidden ones, where
 * a record is still being written, are skipped), in time order (epoch,
 * then name).  Returns how many, or -1 with a reason in err.
 */
int rec_load(const char *dir, struct record *recs, int max, char *err, size_t errlen);

/* A record's workload NAME, or NULL. */
const struct boot_wl *rec_wl(const struct record *r, const char *name);

/* Index of syscall NAME in rec_syscalls, or -1. */
int rec_syscall_index(const char *name);

/* Net check ns per operation of workload W in module reports A; NaN when none counted. */
double rec_check_ns_per_op(const struct msw_workload *w, const struct acct *a);

#endif
