/* SPDX-License-Identifier: GPL-2.0 */
/*
 * plan.h - the probe plan: every target, its kind, and what became of it
 * at load (attached, absent from this kernel, failed with an errno, or off:
 * not probed on request, the syscalls with syscalls=0).
 */
#ifndef MSEAL_STATS_PLAN_H
#define MSEAL_STATS_PLAN_H

#include <linux/kprobes.h>
#include "mseal_stats_compat.h"
#include "names.h"

enum ms_kind { MS_KIND_SYSCALL, MS_KIND_CHECK, MS_KIND_CALIB };
enum ms_state { MS_STATE_ABSENT, MS_STATE_ATTACHED, MS_STATE_FAILED, MS_STATE_OFF };
enum ms_backend { MS_BACKEND_KRETPROBE, MS_BACKEND_FPROBE, MS_BACKEND_TRACEPOINT };

struct ms_target {
	struct kretprobe rp;	/* backend kretprobe */
#if MS_HAVE_FPROBE
	struct fprobe fp;	/* backend fprobe */
#endif
	const char *name;	/* base name: "munmap", "can_modify_vma" */
	enum ms_kind kind;
	unsigned int index;	/* enum ms_sys or enum ms_chk */
	enum ms_state state;
	enum ms_backend backend; /* attached: the backend of its probe */
	int err;		/* MS_STATE_FAILED: negative errno */
	char symbol[64];	/* symbol probed, or the last one tried */
};

#define MS_NTARGETS	(MS_NCHK + MS_NSYS)

/*
 * Resolve and attach every target: the checks with backend B, the syscalls
 * (only when SYSCALLS) with SYSB (B, or MS_BACKEND_TRACEPOINT); never fails
 * for a missing target.  Returns 0, or the first error other than -ENOENT
 * (a target then failed).
 */
int ms_plan_attach(enum ms_backend b, enum ms_backend sysb, int maxactive,
		   bool syscalls);
/* Detach all; returns when no handler runs any more. */
void ms_plan_detach(void);
const struct ms_target *ms_plan_target(unsigned int i);
bool ms_plan_mseal_supported(void);
/* Hits target T missed (kretprobe or fprobe nmissed). */
unsigned long ms_target_missed(const struct ms_target *t);
const char *ms_kind_name(enum ms_kind kind);
const char *ms_state_name(enum ms_state state);

/*
 * probes.c: attach T with backend B to SYMBOL, or to ADDR when SYMBOL is
 * NULL; 0, -ENOENT (no such symbol or not traceable) or another error.
 */
int ms_probe_register(struct ms_target *t, enum ms_backend b, int maxactive,
		      const char *symbol, void *addr);
/*
 * Detach the N targets in TS (all attached with backend B); returns when no
 * handler of theirs runs any more, nor ever will.
 */
void ms_probe_unregister(struct ms_target **ts, unsigned int n, enum ms_backend b);
unsigned long ms_probe_missed(const struct ms_target *t);

/*
 * backend.c: the backends and mode chosen by the module parameters:
 * ms_backend() for the checks, ms_syscall_backend() for the syscalls.
 */
enum ms_backend ms_backend(void);
enum ms_backend ms_syscall_backend(void);
const char *ms_backend_name(enum ms_backend b);
bool ms_syscalls_probed(void);
/* Resolve the "auto"s; 0, or -EOPNOTSUPP (asked for one this kernel lacks). */
int ms_backend_resolve(void);

#endif /* MSEAL_STATS_PLAN_H */
