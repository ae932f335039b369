// SPDX-License-Identifier: GPL-2.0
/*
 * backend.c - which probes the module uses, from three load-time parameters:
 *
 *   backend=auto|kretprobe|fprobe                       (default auto)
 *   syscall_backend=auto|tracepoint|kretprobe|fprobe    (default auto)
 *   syscalls=1|0                    (default 1; 0: checks only)
 *
 * backend is for the checks, syscall_backend for the syscalls; auto there
 * is the raw_syscalls tracepoints where the kernel has them (systp.c), else
 * what backend is.  Both defaults are the benchmark's choice, not the
 * calibration's: scripts/mseal-overhead (docs/overhead.md), src-preseries-bpf
 * and src-patched-bpf under QEMU TCG, interleaved rounds of 3 s, slowdown of
 * mseal-bench's mmap1 against no instrument in the same round (median):
 *
 *   checks / syscalls          src-preseries   src-patched    (6 rounds)
 *   kretprobe / tracepoint        42.7 % (*)       6.7 %
 *   fprobe / tracepoint           14.3 %           8.3 %
 *   kretprobe / kretprobe         22.6 %          16.4 %
 *   fprobe / fprobe               48.5 %          24.4 %
 *   checks only                                               (10 rounds)
 *   kretprobe                     15.3 %          -2.1 %
 *   fprobe                        18.4 %          -1.4 %
 *
 * On src-patched mmap1 fires only its two syscalls: the tracepoints cost a
 * third of kretprobes there.  (*) slow runs, which every instrument had in
 * that round, the uninstrumented one too; 20.0 % over 10 rounds.  For the
 * checks, kretprobe and fprobe are within the spread of each other (before
 * 6.14 both return through rethook); kretprobe stays, since every kernel
 * has it and fprobe needs 6.5 and CONFIG_FPROBE.  The calibration's
 * empty-function loop agrees (685-734 ns kretprobe, 701-739 ns fprobe per
 * probed call); a loop over one function is not a syscall workload, so the
 * benchmark decides.
 *
 * A target the backend cannot attach is reported failed.  fprobe on a
 * kernel without a supported fprobe (CONFIG_FPROBE, 6.5 on: MS_HAVE_FPROBE),
 * or tracepoint on one without the raw_syscalls tracepoints, refuses to load
 * (-EOPNOTSUPP, and a line in dmesg); a value the parameter does not take:
 * -EINVAL.
 *
 * syscalls=0: the syscall wrappers are not probed (their targets are "off"),
 * only the checks, which are still charged to the syscall the task is in.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/moduleparam.h>
#include <linux/printk.h>
#include <linux/string.h>
#include "plan.h"
#include "systp.h"

enum ms_backend_req { MS_REQ_AUTO, MS_REQ_KRETPROBE, MS_REQ_FPROBE, MS_REQ_TRACEPOINT };

static const char *const ms_req_names[] = {
	[MS_REQ_AUTO] = "auto",
	[MS_REQ_KRETPROBE] = "kretprobe",
	[MS_REQ_FPROBE] = "fprobe",
	[MS_REQ_TRACEPOINT] = "tracepoint",
};

/* One parameter: what was asked, what load made of it. */
struct ms_backend_param {
	enum ms_backend_req req;
	enum ms_backend used;
	bool tracepoint_ok;	/* tracepoint is a value it takes */
};

static struct ms_backend_param ms_chk_param = { MS_REQ_AUTO, MS_BACKEND_KRETPROBE, false };
static struct ms_backend_param ms_sys_param = { MS_REQ_AUTO, MS_BACKEND_TRACEPOINT, true };
static bool ms_resolved;
static bool ms_syscalls_param = true;

static int ms_backend_set(const char *val, const struct kernel_param *kp)
{
	struct ms_backend_param *p = kp->arg;
	int i = sysfs_match_string(ms_req_names, val);

	if (i < 0 || (i == MS_REQ_TRACEPOINT && !p->tracepoint_ok))
		return -EINVAL;
	p->req = i;
	return 0;
}

/* The backend asked for until load resolves it, then the one in use. */
static int ms_backend_get(char *buf, const struct kernel_param *kp)
{
	const struct ms_backend_param *p = kp->arg;

	return scnprintf(buf, PAGE_SIZE, "%s\n", ms_resolved ?
			 ms_backend_name(p->used) : ms_req_names[p->req]);
}

static const struct kernel_param_ops ms_backend_ops = {
	.set = ms_backend_set,
	.get = ms_backend_get,
};

module_param_cb(backend, &ms_backend_ops, &ms_chk_param, 0444);
MODULE_PARM_DESC(backend, "checks: auto (default: kretprobe, the cheaper one measured), kretprobe or fprobe; read at load");
module_param_cb(syscall_backend, &ms_backend_ops, &ms_sys_param, 0444);
MODULE_PARM_DESC(syscall_backend, "syscalls: auto (default: tracepoint where the kernel has raw_syscalls, else as backend), tracepoint, kretprobe or fprobe; read at load");
module_param_named(syscalls, ms_syscalls_param, bool, 0444);
MODULE_PARM_DESC(syscalls, "1 (default): count the syscalls too; 0: only the checks, still charged to their syscall");

static int ms_need_fprobe(const char *param)
{
	if (MS_HAVE_FPROBE)
		return 0;
	pr_err("%s=fprobe: this kernel has no supported fprobe (CONFIG_FPROBE %s, Linux 6.5 or later needed)\n",
	       param, IS_ENABLED(CONFIG_FPROBE) ? "set" : "not set");
	return -EOPNOTSUPP;
}

int ms_backend_resolve(void)
{
	switch (ms_chk_param.req) {
	case MS_REQ_FPROBE:
		if (ms_need_fprobe("backend"))
			return -EOPNOTSUPP;
		ms_chk_param.used = MS_BACKEND_FPROBE;
		break;
	default:	/* auto and kretprobe */
		ms_chk_param.used = MS_BACKEND_KRETPROBE;
		break;
	}
	switch (ms_sys_param.req) {
	case MS_REQ_TRACEPOINT:
		if (!ms_systp_available()) {
			pr_err("syscall_backend=tracepoint: this kernel has no raw_syscalls sys_enter and sys_exit tracepoints (CONFIG_HAVE_SYSCALL_TRACEPOINTS, CONFIG_TRACEPOINTS)\n");
			return -EOPNOTSUPP;
		}
		ms_sys_param.used = MS_BACKEND_TRACEPOINT;
		break;
	case MS_REQ_FPROBE:
		if (ms_need_fprobe("syscall_backend"))
			return -EOPNOTSUPP;
		ms_sys_param.used = MS_BACKEND_FPROBE;
		break;
	case MS_REQ_KRETPROBE:
		ms_sys_param.used = MS_BACKEND_KRETPROBE;
		break;
	default:
		ms_sys_param.used = ms_systp_available() ? MS_BACKEND_TRACEPOINT :
				    ms_chk_param.used;
		break;
	}
	ms_resolved = true;
	return 0;
}

enum ms_backend ms_backend(void)
{
	return ms_chk_param.used;
}

enum ms_backend ms_syscall_backend(void)
{
	return ms_sys_param.used;
}

const char *ms_backend_name(enum ms_backend b)
{
	switch (b) {
	case MS_BACKEND_FPROBE:
		return "fprobe";
	case MS_BACKEND_TRACEPOINT:
		return "tracepoint";
	default:
		return "kretprobe";
	}
}

bool ms_syscalls_probed(void)
{
	return ms_syscalls_param;
}
