// SPDX-License-Identifier: GPL-2.0
/*
 * plan.c - resolve the probe plan at load time.
 *
 * Syscalls are probed through the architecture's wrapper symbols (or, with
 * the tracepoint side, counted on raw_syscalls when the kernel has their
 * wrapper: a syscall this kernel lacks, mseal before 6.10, is absent either
 * way).  A check is looked for as NAME and as the clones the compiler makes:
 * NAME.isra.N and NAME.constprop.N (N 0..9) are complete copies that some
 * callers call instead of NAME, so every one found is probed and charged to
 * the check; NAME.part.N is the outlined slow part of a function whose fast
 * path was inlined into its callers: it runs for some calls only, so it is
 * listed as partial and not counted.  Absent: not in this kernel, or
 * inlined.  Any other error: failed, with the errno.
 *
 * A target whose backend is taken (-EBUSY: the direct call of that function
 * belongs to someone else) or refuses it (-EINVAL: ftrace does not list
 * the symbol) is attached with the fallback backend instead;
 * dmesg says so, and the report names each target's backend.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/printk.h>
#include "mseal_stats_compat.h"
#include "backend.h"
#include "plan.h"

static struct ms_target ms_targets[MS_NTARGETS];
static unsigned int ms_ntargets;
static bool ms_mseal_supported;

/*
 * Does the kernel have SYMBOL?  A disabled kprobe is registered (nothing is
 * patched) and removed at once; kallsyms answers fast for a name that is
 * not there.  Any answer but -ENOENT counts as there.
 */
static bool ms_symbol_exists(const char *symbol)
{
	struct kprobe kp = { .symbol_name = symbol, .flags = KPROBE_FLAG_DISABLED };
	int err = register_kprobe(&kp);

	if (!err)
		unregister_kprobe(&kp);
	return err != -ENOENT;
}

static struct ms_target *ms_new_target(enum ms_kind kind, unsigned int index,
				       const char *name, const char *symbol)
{
	struct ms_target *t;

	if (ms_ntargets == MS_NTARGETS)
		return NULL;
	t = &ms_targets[ms_ntargets++];
	memset(t, 0, sizeof(*t));
	t->kind = kind;
	t->index = index;
	t->name = name;
	t->state = MS_STATE_ABSENT;
	strscpy(t->symbol, symbol, sizeof(t->symbol));
	return t;
}

/* Attach T (its symbol) with OPS, or with the fallback when OPS is taken. */
static int ms_attach_target(struct ms_target *t, const struct ms_backend_ops *ops)
{
	const struct ms_backend_ops *fb = ms_backend_fallback(ops);
	int err = ops->attach(t, t->symbol, NULL);

	if (err == -EBUSY && fb) {
		pr_info("%s: %s refused (EBUSY: the function already has a direct caller, such as a BPF fentry/fexit program or bpftrace kfunc:, or a livepatch); using %s for it\n",
			t->symbol, ops->name, fb->name);
		ops = fb;
		err = ops->attach(t, t->symbol, NULL);
	} else if (err == -EINVAL && fb) {
		pr_info("%s: %s refused (EINVAL: ftrace does not list the function as traceable); using %s for it\n",
			t->symbol, ops->name, fb->name);
		ops = fb;
		err = ops->attach(t, t->symbol, NULL);
	}
	if (!err) {
		t->state = MS_STATE_ATTACHED;
		t->ops = ops;
		return 0;
	}
	t->state = MS_STATE_FAILED;
	t->err = err;
	pr_warn("cannot probe %s with %s: error %d\n", t->symbol, ops->name, err);
	return err;
}

/*
 * SYM, a symbol of check K, if the kernel has it: probed with OPS, or, a
 * .part clone (PART), only listed.  *FOUND counts the check's symbols.
 */
static int ms_plan_symbol(unsigned int k, const char *sym, bool part,
			  unsigned int *found, const struct ms_backend_ops *ops)
{
	struct ms_target *t;

	if (!ms_symbol_exists(sym))
		return 0;
	if (*found == MS_CHK_SYMS) {
		pr_warn("%s: more than %u symbols: %s is not probed\n",
			ms_chk_names[k], MS_CHK_SYMS, sym);
		return 0;
	}
	(*found)++;
	t = ms_new_target(MS_KIND_CHECK, k, ms_chk_names[k], sym);
	if (!part)
		return ms_attach_target(t, ops);
	t->state = MS_STATE_PARTIAL;
	pr_info("%s: only partly out of line (%s runs for some calls only): listed, not counted\n",
		ms_chk_names[k], sym);
	return 0;
}

/* Every symbol of check K: the function, its complete clones, a .part. */
static int ms_plan_check(unsigned int k, const struct ms_backend_ops *ops)
{
	static const char *const clones[] = { "isra", "constprop", "part" };
	unsigned int c, n, found = 0;
	char sym[64];
	int err, first;

	first = ms_plan_symbol(k, ms_chk_names[k], false, &found, ops);
	for (c = 0; c < ARRAY_SIZE(clones); c++) {
		for (n = 0; n < 10; n++) {
			snprintf(sym, sizeof(sym), "%s.%s.%u", ms_chk_names[k], clones[c], n);
			err = ms_plan_symbol(k, sym, !strcmp(clones[c], "part"), &found, ops);
			first = first ?: err;
		}
	}
	if (!found)
		ms_new_target(MS_KIND_CHECK, k, ms_chk_names[k], "-");
	return first;
}

static int ms_plan_syscall(unsigned int s, const struct ms_backend_ops *ops)
{
	struct ms_target *t;
	char sym[64];

	snprintf(sym, sizeof(sym), MS_SYSCALL_PREFIX "%s", ms_sys_names[s]);
	t = ms_new_target(MS_KIND_SYSCALL, s, ms_sys_names[s], ops ? sym : "-");
	if (!ops) {
		t->state = MS_STATE_OFF;
		return 0;
	}
	if (!ms_symbol_exists(sym))
		return 0;
	return ms_attach_target(t, ops);
}

int ms_plan_attach(const struct ms_backend_ops *chk, const struct ms_backend_ops *sys)
{
	unsigned int i;
	int err, first = 0;

	ms_ntargets = 0;
	for (i = 0; i < MS_NCHK; i++) {
		err = ms_plan_check(i, chk);
		first = first ?: err;
	}
	for (i = 0; i < MS_NSYS; i++) {
		err = ms_plan_syscall(i, sys);
		first = first ?: err;
	}
	ms_mseal_supported = ms_symbol_exists(MS_SYSCALL_PREFIX "mseal");
	return first;
}

/* Detach every attached target of KIND, one backend at a time. */
static void ms_detach_kind(enum ms_kind kind)
{
	struct ms_target *ts[MS_NTARGETS];
	const struct ms_backend_ops *ops;
	unsigned int i, n;

	for (;;) {
		ops = NULL;
		for (i = 0, n = 0; i < ms_ntargets; i++) {
			struct ms_target *t = &ms_targets[i];

			if (t->kind != kind || t->state != MS_STATE_ATTACHED)
				continue;
			ops = ops ?: t->ops;
			if (t->ops == ops)
				ts[n++] = t;
		}
		if (!ops)
			return;
		for (i = 0; i < n; i++)
			if (ms_target_missed(ts[i]))
				pr_info("%s missed %lu hits\n", ts[i]->symbol,
					ms_target_missed(ts[i]));
		ops->detach(ts, n);
		for (i = 0; i < n; i++)
			ts[i]->state = MS_STATE_ABSENT;
	}
}

/*
 * Each backend's probes together: one grace period for all.  The checks
 * first: their handlers ask the tracepoint side which syscall a task is
 * in, so that side goes last.
 */
void ms_plan_detach(void)
{
	ms_detach_kind(MS_KIND_CHECK);
	ms_detach_kind(MS_KIND_SYSCALL);
}

unsigned int ms_plan_count(void)
{
	return ms_ntargets;
}

const struct ms_target *ms_plan_target(unsigned int i)
{
	return i < ms_ntargets ? &ms_targets[i] : NULL;
}

unsigned int ms_plan_attached(void)
{
	unsigned int i, n = 0;

	for (i = 0; i < ms_ntargets; i++)
		n += ms_targets[i].state == MS_STATE_ATTACHED;
	return n;
}

unsigned long ms_target_missed(const struct ms_target *t)
{
	unsigned long m;

	if (t->state != MS_STATE_ATTACHED)
		return 0;
	m = t->ops->missed(t) + atomic_long_read(&t->probe->outside_task);
	return m > t->missed_base ? m - t->missed_base : 0;
}

void ms_plan_reset_missed(void)
{
	unsigned int i;

	for (i = 0; i < ms_ntargets; i++)
		if (ms_targets[i].state == MS_STATE_ATTACHED)
			ms_targets[i].missed_base = ms_targets[i].ops->missed(&ms_targets[i]) +
				atomic_long_read(&ms_targets[i].probe->outside_task);
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
	case MS_STATE_PARTIAL:
		return "partial";
	default:
		return "absent";
	}
}
