/* SPDX-License-Identifier: GPL-2.0 */
/*
 * plan.h - the probe plan: every target, its kind, and what became of it
 * at load (attached, absent from this kernel, or failed with an errno).
 */
#ifndef MSEAL_STATS_PLAN_H
#define MSEAL_STATS_PLAN_H

#include <linux/kprobes.h>
#include "names.h"

enum ms_kind { MS_KIND_SYSCALL, MS_KIND_CHECK, MS_KIND_CALIB };
enum ms_state { MS_STATE_ABSENT, MS_STATE_ATTACHED, MS_STATE_FAILED };

struct ms_target {
	struct kretprobe rp;
	const char *name;	/* base name: "munmap", "can_modify_vma" */
	enum ms_kind kind;
	unsigned int index;	/* enum ms_sys or enum ms_chk */
	enum ms_state state;
	int err;		/* MS_STATE_FAILED: negative errno */
	char symbol[64];	/* symbol probed, or the last one tried */
};

#define MS_NTARGETS	(MS_NCHK + MS_NSYS)

/* Resolve and attach every target; never fails for a missing target. */
void ms_plan_attach(int maxactive);
/* Detach all; returns when no handler runs any more. */
void ms_plan_detach(void);
const struct ms_target *ms_plan_target(unsigned int i);
bool ms_plan_mseal_supported(void);
/* Hits target T missed (kretprobe nmissed, entry and pool). */
unsigned long ms_target_missed(const struct ms_target *t);
const char *ms_kind_name(enum ms_kind kind);
const char *ms_state_name(enum ms_state state);

/* probes.c: set T's kretprobe up with the handlers for its kind. */
void ms_probe_prepare(struct ms_target *t, int maxactive);

#endif /* MSEAL_STATS_PLAN_H */
