// SPDX-License-Identifier: GPL-2.0
/*
 * plan.c - resolve the probe plan at load time.
 *
 * Syscalls are probed through the architecture's wrapper symbols, or, with
 * the tracepoint syscall side, counted on raw_syscalls sys_enter/sys_exit
 * (systp.c) when the kernel has their wrapper: a syscall this kernel lacks
 * (mseal before 6.10) is absent whichever way it would be counted.  A check
 * that the compiler cloned is tried as NAME.isra.N, NAME.constprop.N and
 * NAME.part.N (N 0..9) when NAME itself is not found.  -ENOENT means absent:
 * not in this kernel, or inlined.  Any other error: failed, with the errno.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/printk.h>
#include "mseal_stats_compat.h"
#include "plan.h"
#include "systp.h"

static struct ms_target ms_targets[MS_NTARGETS];

/*
 * Does the kernel have SYMBOL?  A disabled kprobe is registered (nothing is
 * patched) and removed at once; kallsyms_lookup_name() answers fast for a
 * name that is not there.  Any answer but -ENOENT counts as there.
 */
static bool ms_symbol_exists(const char *symbol)
{
	struct kprobe kp = { .symbol_name = symbol, .flags = KPROBE_FLAG_DISABLED };
	int err = register_kprobe(&kp);

	if (!err)
		unregister_kprobe(&kp);
	return err != -ENOENT;
}

static int ms_try(struct ms_target *t, enum ms_backend b, int maxactive,
		  const char *symbol)
{
	strscpy(t->symbol, symbol, sizeof(t->symbol));
	/*
	 * fprobe resolves a name with a walk of every kernel and module
	 * symbol: ask kallsyms first, or the 30 clone names tried for each
	 * absent check make a slow load.
	 */
	if (b == MS_BACKEND_FPROBE && !ms_symbol_exists(t->symbol))
		return -ENOENT;
	return ms_probe_register(t, b, maxactive, t->symbol, NULL);
}

static int ms_attach_check(struct ms_target *t, enum ms_backend b, int maxactive)
{
	static const char *const clones[] = { "isra", "constprop", "part" };
	char sym[64];
	unsigned int c, n;
	int err;

	err = ms_try(t, b, maxactive, t->name);
	for (c = 0; c < ARRAY_SIZE(clones) && err == -ENOENT; c++) {
		for (n = 0; n < 10 && err == -ENOENT; n++) {
			snprintf(sym, sizeof(sym), "%s.%s.%u", t->name, clones[c], n);
			err = ms_try(t, b, maxactive, sym);
		}
	}
	if (err == -ENOENT)
		strscpy(t->symbol, "-", sizeof(t->symbol));
	return err;
}

/*
 * A syscall: a probe on its wrapper, or, for the tracepoints, only the test
 * that the wrapper exists (the syscall is in this kernel); they are
 * attached all together afterwards (ms_attach_syscalls_tp).
 */
static int ms_attach_syscall(struct ms_target *t, enum ms_backend b, int maxactive)
{
	char sym[64];

	snprintf(sym, sizeof(sym), MS_SYSCALL_PREFIX "%s", t->name);
	if (b != MS_BACKEND_TRACEPOINT)
		return ms_try(t, b, maxactive, sym);
	if (!ms_symbol_exists(sym)) {
		strscpy(t->symbol, sym, sizeof(t->symbol));
		return -ENOENT;
	}
	snprintf(t->symbol, sizeof(t->symbol), "raw_syscalls nr %d",
		 ms_nr_of_sys(t->index));
	return 0;
}

/*
 * The syscalls with a wrapper symbol are counted on the tracepoints: on[]
 * says which, each such target is attached (or failed, all together) once
 * both tracepoints are.  The symbol column names the tracepoints and the
 * syscall's number.
 */
static int ms_attach_syscalls_tp(void)
{
	bool on[MS_NSYS] = {};
	struct ms_target *t;
	unsigned int s;
	int err;

	for (s = 0; s < MS_NSYS; s++) {
		t = &ms_targets[MS_NCHK + s];
		if (t->state == MS_STATE_ATTACHED)
			on[s] = true;
	}
	err = ms_systp_attach(on);
	if (!err)
		return 0;
	for (s = 0; s < MS_NSYS; s++) {
		t = &ms_targets[MS_NCHK + s];
		if (!on[s])
			continue;
		t->state = MS_STATE_FAILED;
		t->err = err;
	}
	pr_warn("cannot register the raw_syscalls tracepoint probes: error %d\n", err);
	return err;
}

static bool ms_mseal_supported;

int ms_plan_attach(enum ms_backend b, enum ms_backend sysb, int maxactive,
		   bool syscalls)
{
	int first = 0;
	unsigned int i;

	for (i = 0; i < MS_NTARGETS; i++) {
		struct ms_target *t = &ms_targets[i];
		int err;

		if (i < MS_NCHK) {
			t->kind = MS_KIND_CHECK;
			t->index = i;
			t->name = ms_chk_names[i];
			err = ms_attach_check(t, b, maxactive);
		} else {
			t->kind = MS_KIND_SYSCALL;
			t->index = i - MS_NCHK;
			t->name = ms_sys_names[t->index];
			if (!syscalls) {
				snprintf(t->symbol, sizeof(t->symbol), "%s", "-");
				t->state = MS_STATE_OFF;
				t->err = 0;
				continue;
			}
			t->backend = sysb;
			err = ms_attach_syscall(t, sysb, maxactive);
		}
		t->err = 0;
		if (!err) {
			t->state = MS_STATE_ATTACHED;
		} else if (err == -ENOENT) {
			t->state = MS_STATE_ABSENT;
		} else {
			t->state = MS_STATE_FAILED;
			t->err = err;
			first = first ?: err;
			pr_warn("cannot probe %s with %s: error %d\n", t->symbol,
				ms_backend_name(b), err);
		}
	}
	if (syscalls && sysb == MS_BACKEND_TRACEPOINT) {
		int err = ms_attach_syscalls_tp();

		first = first ?: err;
	}
	if (syscalls)
		ms_mseal_supported = ms_targets[MS_NCHK + MS_SYS_mseal].state != MS_STATE_ABSENT;
	else
		ms_mseal_supported = ms_symbol_exists(MS_SYSCALL_PREFIX "mseal");
	return first;
}

void ms_plan_detach(void)
{
	struct ms_target *ts[MS_NTARGETS];
	unsigned int i, n;
	int b;

	/*
	 * Each backend's probes together: one grace period for all.  The
	 * tracepoints first: no sys_enter after that, and no slot of theirs
	 * left claimed (systp.c).
	 */
	ms_systp_detach();
	for (b = MS_BACKEND_KRETPROBE; b <= MS_BACKEND_FPROBE; b++) {
		for (i = 0, n = 0; i < MS_NTARGETS; i++)
			if (ms_targets[i].state == MS_STATE_ATTACHED &&
			    ms_targets[i].backend == b)
				ts[n++] = &ms_targets[i];
		ms_probe_unregister(ts, n, b);
	}
	for (i = 0; i < MS_NTARGETS; i++) {
		if (ms_targets[i].state == MS_STATE_ATTACHED &&
		    ms_target_missed(&ms_targets[i]))
			pr_info("%s missed %lu hits\n", ms_targets[i].symbol,
				ms_target_missed(&ms_targets[i]));
		if (ms_targets[i].state == MS_STATE_ATTACHED)
			ms_targets[i].state = MS_STATE_ABSENT;
	}
}

const struct ms_target *ms_plan_target(unsigned int i)
{
	return i < MS_NTARGETS ? &ms_targets[i] : NULL;
}

unsigned long ms_target_missed(const struct ms_target *t)
{
	if (t->backend == MS_BACKEND_TRACEPOINT)
		return ms_systp_missed(t->index);
	return ms_probe_missed(t);
}

bool ms_plan_mseal_supported(void)
{
	return ms_mseal_supported;
}

const char *ms_kind_name(enum ms_kind kind)
{
	return kind == MS_KIND_SYSCALL ? "syscall" : "check";
}

const char *ms_state_name(enum ms_state state)
{
	switch (state) {
	case MS_STATE_ATTACHED:
		return "attached";
	case MS_STATE_FAILED:
		return "failed";
	case MS_STATE_OFF:
		return "off";
	default:
		return "absent";
	}
}
