// SPDX-License-Identifier: GPL-2.0
/*
 * backend.c - which probes the module uses, from two load-time parameters:
 *
 *   backend=auto|kretprobe|fprobe   (default auto)
 *   syscalls=1|0                    (default 1; 0: checks only)
 *
 * auto is fprobe where this kernel has a supported fprobe (CONFIG_FPROBE,
 * 6.5 on: MS_HAVE_FPROBE), else kretprobe: fprobe was the cheaper of the two
 * on every kernel measured.  The module's own calibration under QEMU TCG on
 * this project's 2-core build machine (busy), one guest boot per kernel,
 * the module loaded 3 times with each backend in turn (alternating); ns per
 * probe pair, best of 3 (range), inner = what the handlers record inside a
 * timed empty call (calibration_ns), outer = the whole cost of the probe
 * pair per call (calibration_outer_ns):
 *
 *   kernel          kretprobe inner   outer          fprobe inner   outer
 *   debian-6.12     283 (283-290)     814 (814-831)  273 (273-282)  740 (740-776)
 *   src-patched     265 (265-294)     748 (748-792)  233 (233-250)  666 (666-694)
 *   debian-newest   304 (304-309)     933 (933-943)  394 (394-399)  863 (863-874)
 *
 * "Cheapest" is the outer figure, what the instrument adds to every probed
 * call: fprobe is 7 to 11% cheaper on all three.  On 7.3 (fprobe on fgraph)
 * a larger part of it falls inside the timed window (inner 394 against
 * 304): more of the probe's cost is then subtracted as calibration, which
 * net times allow for.  TCG times are not hardware times; the ranking is
 * what counts here.
 *
 * If fprobe cannot attach at load under auto (any error but -ENOENT on a
 * target, or on the calibration function), the module falls back to
 * kretprobe entirely: every probe detached and attached again, and
 * calibrated again, so that one calibration figure holds for every probe.
 * backend=fprobe asked explicitly never falls back: such a target is
 * reported failed.  backend=fprobe on a kernel without a supported fprobe
 * refuses to load (-EOPNOTSUPP, and a line in dmesg); a value that is none
 * of the three: -EINVAL.
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

enum ms_backend_req { MS_REQ_AUTO, MS_REQ_KRETPROBE, MS_REQ_FPROBE };

static const char *const ms_req_names[] = {
	[MS_REQ_AUTO] = "auto",
	[MS_REQ_KRETPROBE] = "kretprobe",
	[MS_REQ_FPROBE] = "fprobe",
};

static enum ms_backend_req ms_req = MS_REQ_AUTO;
static enum ms_backend ms_used = MS_BACKEND_KRETPROBE;
static bool ms_resolved;
static bool ms_syscalls_param = true;

static int ms_backend_set(const char *val, const struct kernel_param *kp)
{
	int i = sysfs_match_string(ms_req_names, val);

	if (i < 0)
		return -EINVAL;
	ms_req = i;
	return 0;
}

/* The backend asked for until load resolves it, then the one in use. */
static int ms_backend_get(char *buf, const struct kernel_param *kp)
{
	return scnprintf(buf, PAGE_SIZE, "%s\n", ms_resolved ?
			 ms_backend_name(ms_used) : ms_req_names[ms_req]);
}

static const struct kernel_param_ops ms_backend_ops = {
	.set = ms_backend_set,
	.get = ms_backend_get,
};

module_param_cb(backend, &ms_backend_ops, NULL, 0444);
MODULE_PARM_DESC(backend, "auto (default: fprobe where supported, else kretprobe), kretprobe or fprobe; read at load");
module_param_named(syscalls, ms_syscalls_param, bool, 0444);
MODULE_PARM_DESC(syscalls, "1 (default): probe the syscalls too; 0: only the checks, still charged to their syscall");

int ms_backend_resolve(void)
{
	switch (ms_req) {
	case MS_REQ_FPROBE:
		if (!MS_HAVE_FPROBE) {
			pr_err("backend=fprobe: this kernel has no supported fprobe (CONFIG_FPROBE %s, Linux 6.5 or later needed)\n",
			       IS_ENABLED(CONFIG_FPROBE) ? "set" : "not set");
			return -EOPNOTSUPP;
		}
		ms_used = MS_BACKEND_FPROBE;
		break;
	case MS_REQ_KRETPROBE:
		ms_used = MS_BACKEND_KRETPROBE;
		break;
	default:
		ms_used = MS_HAVE_FPROBE ? MS_BACKEND_FPROBE : MS_BACKEND_KRETPROBE;
		break;
	}
	ms_resolved = true;
	return 0;
}

bool ms_backend_fall_back(void)
{
	if (ms_req != MS_REQ_AUTO || ms_used == MS_BACKEND_KRETPROBE)
		return false;
	pr_warn("backend=auto: fprobe failed, falling back to kretprobe\n");
	ms_used = MS_BACKEND_KRETPROBE;
	return true;
}

enum ms_backend ms_backend(void)
{
	return ms_used;
}

const char *ms_backend_name(enum ms_backend b)
{
	return b == MS_BACKEND_FPROBE ? "fprobe" : "kretprobe";
}

bool ms_syscalls_probed(void)
{
	return ms_syscalls_param;
}
