// SPDX-License-Identifier: GPL-2.0
/*
 * backend.c - which probes the module uses, from three load-time parameters:
 *
 *   backend=auto|direct|kretprobe                      (default auto)
 *   syscall_backend=auto|direct|tracepoint|kretprobe   (default auto)
 *   syscalls=1|0                    (default 1; 0: checks only)
 *
 * backend is for the checks, syscall_backend for the syscalls.  auto is the
 * first of each list below that the kernel has (testbed/mseal-overhead,
 * docs/overhead.md):
 *
 *   checks     direct      an ftrace direct call to our trampoline that
 *                          calls the check itself (direct.c): no int3, no
 *                          register dump, no return hook
 *              kretprobe   every kernel has it; and where a function's
 *                          direct call is taken (-EBUSY: a BPF fentry or
 *                          fexit, bpftrace's kfunc:) that target falls
 *                          back to it, and says so
 *   syscalls   direct      trampolines like the checks' (saving the one
 *                          argument) on the tracked syscalls' entry
 *                          functions (__x64_sys_NAME, __arm64_sys_NAME): a
 *                          syscall not tracked runs none of our code and
 *                          none of the kernel's syscall work; the time is
 *                          the entry function's, not the whole syscall's;
 *                          rmmod waits for every call in flight, however
 *                          long it sleeps (see ms_sys_choices)
 *              tracepoint  raw_syscalls sys_enter/sys_exit (systp.c): every
 *                          syscall of every task takes the syscall work;
 *                          the time is sys_enter to sys_exit
 *              kretprobe   on the entry functions
 *
 * Asking for a backend the kernel lacks refuses the load (-EOPNOTSUPP and
 * a line in dmesg); a value the parameter does not take: -EINVAL.  With
 * syscalls=0 the syscall wrappers are not probed (their targets are
 * "off"), only the checks, still charged to the syscall the task is in.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/moduleparam.h>
#include <linux/printk.h>
#include <linux/string.h>
#include "backend.h"

/* One parameter: the backends it takes, best first, and what became of it. */
struct ms_backend_param {
	const char *param;
	const struct ms_backend_ops *const *choices;
	unsigned int nchoices;
	const struct ms_backend_ops *req;	/* NULL: auto */
	const struct ms_backend_ops *used;	/* once resolved */
};

static const struct ms_backend_ops *const ms_chk_choices[] = {
	&ms_direct_ops, &ms_kretprobe_ops,
};

/*
 * auto takes direct first: an untracked syscall then runs none of our code
 * and none of the kernel's syscall-work path, which a raw_syscalls probe
 * switches on for every task.  The price is at unload: rmmod waits for
 * every tracked syscall in flight through a trampoline, and a body can
 * sleep as long as a user likes (a userfaultfd monitor that never reads
 * munmap's or madvise's event).  direct.c names such tasks while it waits
 * (killing one ends the wait); syscall_backend=tracepoint has no wait.
 */
static const struct ms_backend_ops *const ms_sys_choices[] = {
	&ms_direct_ops, &ms_tracepoint_ops, &ms_kretprobe_ops,
};

static struct ms_backend_param ms_chk_param = {
	"backend", ms_chk_choices, ARRAY_SIZE(ms_chk_choices),
};

static struct ms_backend_param ms_sys_param = {
	"syscall_backend", ms_sys_choices, ARRAY_SIZE(ms_sys_choices),
};

static bool ms_syscalls_param = true;

static int ms_backend_set(const char *val, const struct kernel_param *kp)
{
	struct ms_backend_param *p = kp->arg;
	unsigned int i;

	if (sysfs_streq(val, "auto")) {
		p->req = NULL;
		return 0;
	}
	for (i = 0; i < p->nchoices; i++) {
		if (sysfs_streq(val, p->choices[i]->name)) {
			p->req = p->choices[i];
			return 0;
		}
	}
	return -EINVAL;
}

/* The backend asked for until load resolves it, then the one in use. */
static int ms_backend_get(char *buf, const struct kernel_param *kp)
{
	const struct ms_backend_param *p = kp->arg;
	const struct ms_backend_ops *b = p->used ?: p->req;

	return scnprintf(buf, PAGE_SIZE, "%s\n", b ? b->name : "auto");
}

static const struct kernel_param_ops ms_backend_param_ops = {
	.set = ms_backend_set,
	.get = ms_backend_get,
};

module_param_cb(backend, &ms_backend_param_ops, &ms_chk_param, 0444);
MODULE_PARM_DESC(backend, "checks: auto (default: direct where the kernel has ftrace direct calls, else kretprobe), direct or kretprobe; read at load");
module_param_cb(syscall_backend, &ms_backend_param_ops, &ms_sys_param, 0444);
MODULE_PARM_DESC(syscall_backend, "syscalls: auto (default: direct where the kernel has ftrace direct calls, else tracepoint, else kretprobe), direct, tracepoint or kretprobe; read at load");
module_param_named(syscalls, ms_syscalls_param, bool, 0444);
MODULE_PARM_DESC(syscalls, "1 (default): count the syscalls too; 0: only the checks, still charged to their syscall");

static int ms_param_resolve(struct ms_backend_param *p)
{
	unsigned int i;

	if (p->req) {
		if (!p->req->available()) {
			pr_err("%s=%s: this kernel cannot (it needs %s)\n",
			       p->param, p->req->name, p->req->requires);
			return -EOPNOTSUPP;
		}
		p->used = p->req;
		return 0;
	}
	for (i = 0; i < p->nchoices; i++) {
		if (p->choices[i]->available()) {
			p->used = p->choices[i];
			return 0;
		}
	}
	pr_err("%s=auto: this kernel has none of the backends (kretprobe needs %s)\n",
	       p->param, ms_kretprobe_ops.requires);
	return -EOPNOTSUPP;
}

int ms_backend_resolve(void)
{
	int err = ms_param_resolve(&ms_chk_param);

	if (!err && ms_syscalls_param)
		err = ms_param_resolve(&ms_sys_param);
	return err;
}

const struct ms_backend_ops *ms_backend_checks(void)
{
	return ms_chk_param.used;
}

const struct ms_backend_ops *ms_backend_syscalls(void)
{
	return ms_syscalls_param ? ms_sys_param.used : NULL;
}

const struct ms_backend_ops *ms_backend_at(unsigned int i)
{
	static const struct ms_backend_ops *const all[] = {
		&ms_direct_ops, &ms_kretprobe_ops, &ms_tracepoint_ops,
	};

	return i < ARRAY_SIZE(all) ? all[i] : NULL;
}

const struct ms_backend_ops *ms_backend_fallback(const struct ms_backend_ops *ops)
{
	return ops == &ms_direct_ops ? &ms_kretprobe_ops : NULL;
}
