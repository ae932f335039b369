// SPDX-License-Identifier: GPL-2.0
/*
 * plan.c - resolve the probe plan at load time.
 *
 * Syscalls are probed through the architecture's wrapper symbols.  A check
 * that the compiler cloned is tried as NAME.isra.N, NAME.constprop.N and
 * NAME.part.N (N 0..9) when NAME itself is not found.  -ENOENT means absent:
 * not in this kernel, or inlined.  Any other error: failed, with the errno.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/printk.h>
#include "mseal_stats_compat.h"
#include "plan.h"

static struct ms_target ms_targets[MS_NTARGETS];

static int ms_try(struct ms_target *t, int maxactive, const char *symbol)
{
	strscpy(t->symbol, symbol, sizeof(t->symbol));
	ms_probe_prepare(t, maxactive);
	t->rp.kp.symbol_name = t->symbol;
	return register_kretprobe(&t->rp);
}

static int ms_attach_check(struct ms_target *t, int maxactive)
{
	static const char *const clones[] = { "isra", "constprop", "part" };
	char sym[64];
	unsigned int c, n;
	int err;

	err = ms_try(t, maxactive, t->name);
	for (c = 0; c < ARRAY_SIZE(clones) && err == -ENOENT; c++) {
		for (n = 0; n < 10 && err == -ENOENT; n++) {
			snprintf(sym, sizeof(sym), "%s.%s.%u", t->name, clones[c], n);
			err = ms_try(t, maxactive, sym);
		}
	}
	if (err == -ENOENT)
		strscpy(t->symbol, "-", sizeof(t->symbol));
	return err;
}

static int ms_attach_syscall(struct ms_target *t, int maxactive)
{
	char sym[64];

	snprintf(sym, sizeof(sym), MS_SYSCALL_PREFIX "%s", t->name);
	return ms_try(t, maxactive, sym);
}

void ms_plan_attach(int maxactive)
{
	unsigned int i;

	for (i = 0; i < MS_NTARGETS; i++) {
		struct ms_target *t = &ms_targets[i];
		int err;

		if (i < MS_NCHK) {
			t->kind = MS_KIND_CHECK;
			t->index = i;
			t->name = ms_chk_names[i];
			err = ms_attach_check(t, maxactive);
		} else {
			t->kind = MS_KIND_SYSCALL;
			t->index = i - MS_NCHK;
			t->name = ms_sys_names[t->index];
			err = ms_attach_syscall(t, maxactive);
		}
		t->err = 0;
		if (!err) {
			t->state = MS_STATE_ATTACHED;
		} else if (err == -ENOENT) {
			t->state = MS_STATE_ABSENT;
		} else {
			t->state = MS_STATE_FAILED;
			t->err = err;
			pr_warn("cannot probe %s: error %d\n", t->symbol, err);
		}
	}
}

void ms_plan_detach(void)
{
	struct kretprobe *rps[MS_NTARGETS];
	unsigned int i, n = 0;

	for (i = 0; i < MS_NTARGETS; i++)
		if (ms_targets[i].state == MS_STATE_ATTACHED)
			rps[n++] = &ms_targets[i].rp;
	/* One grace period for all; returns when no handler runs. */
	if (n)
		unregister_kretprobes(rps, n);
	for (i = 0; i < MS_NTARGETS; i++) {
		if (ms_targets[i].state == MS_STATE_ATTACHED &&
		    ms_target_missed(&ms_targets[i]))
			pr_info("%s missed %lu hits\n", ms_targets[i].symbol,
				ms_target_missed(&ms_targets[i]));
	}
}

const struct ms_target *ms_plan_target(unsigned int i)
{
	return i < MS_NTARGETS ? &ms_targets[i] : NULL;
}

unsigned long ms_target_missed(const struct ms_target *t)
{
	return ms_kretprobe_missed(&t->rp);
}

bool ms_plan_mseal_supported(void)
{
	return ms_targets[MS_NCHK + MS_SYS_mseal].state != MS_STATE_ABSENT;
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
	default:
		return "absent";
	}
}
