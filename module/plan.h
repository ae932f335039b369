/* SPDX-License-Identifier: GPL-2.0 */
/*
 * plan.h - the probe plan: every target, its kind, and what became of it
 * at load: attached (with which backend), absent from this kernel, failed
 * with an errno, off (not probed on request: the syscalls with syscalls=0),
 * or partial (only a .part.N clone of a check exists: it runs for some
 * calls only, so it is listed and not counted).
 *
 * A target is one symbol.  A check can have several: the function and the
 * complete clones the compiler made of it (NAME.isra.N, NAME.constprop.N),
 * each called instead of it by some callers; all are probed and charged to
 * the same check.
 */
#ifndef MSEAL_STATS_PLAN_H
#define MSEAL_STATS_PLAN_H

#include <linux/types.h>
#include "names.h"

/* MS_KIND_NONE: no target (an unbound direct slot's probe); zeroed memory. */
enum ms_kind { MS_KIND_NONE, MS_KIND_SYSCALL, MS_KIND_CHECK, MS_KIND_CALIB };
enum ms_state {
	MS_STATE_ABSENT, MS_STATE_ATTACHED, MS_STATE_FAILED, MS_STATE_OFF,
	MS_STATE_PARTIAL,
};

struct ms_backend_ops;
struct ms_probe;

struct ms_target {
	const char *name;	/* base name: "munmap", "can_modify_vma" */
	enum ms_kind kind;
	unsigned int index;	/* enum ms_sys or enum ms_chk */
	enum ms_state state;
	const struct ms_backend_ops *ops;	/* attached: its backend */
	struct ms_probe *probe;	/* attached: the backend's own probe */
	int err;		/* failed: negative errno */
	unsigned long missed_base;	/* the backend's misses at the last reset */
	char symbol[64];	/* symbol probed, or the last one tried */
};

/* Symbols probed per check at most: the function and its complete clones. */
#define MS_CHK_SYMS	4
#define MS_NTARGETS	(MS_NCHK * MS_CHK_SYMS + MS_NSYS)

/*
 * Resolve and attach every target: the checks with CHK, the syscalls with
 * SYS (NULL: syscalls=0, they are off).  A target whose backend is taken
 * (-EBUSY: another direct caller) falls back to the backend
 * ms_backend_fallback() names.  Never fails for a missing target.  Returns
 * 0, or the first error other than -ENOENT (a target then failed).
 */
int ms_plan_attach(const struct ms_backend_ops *chk, const struct ms_backend_ops *sys);
/* Detach all, checks first; returns when no handler runs any more. */
void ms_plan_detach(void);
/* Targets in use: index 0 to ms_plan_count() - 1. */
unsigned int ms_plan_count(void);
const struct ms_target *ms_plan_target(unsigned int i);
unsigned int ms_plan_attached(void);
bool ms_plan_mseal_supported(void);
/* Hits target T missed since the last reset. */
unsigned long ms_target_missed(const struct ms_target *t);
/* Start every target's missed count again from 0 (reset). */
void ms_plan_reset_missed(void);
const char *ms_kind_name(enum ms_kind kind);
const char *ms_state_name(enum ms_state state);

#endif /* MSEAL_STATS_PLAN_H */
