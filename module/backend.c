// SPDX-License-Identifier: GPL-2.0
/*
 * backend.c - which probes the module uses, from two load-time parameters:
 *
 *   backend=auto|kretprobe|fprobe   (default auto)
 *   syscalls=1|0                    (default 1; 0: checks only)
 *
 * auto is kretprobe, on every kernel: of the two it slows the benchmark
 * least, which is what an instrument left loaded during a benchmark is for.
 * scripts/mseal-overhead (docs/overhead.md), src-preseries-bpf and
 * src-patched-bpf under QEMU TCG, 5 interleaved rounds of 3 s, slowdown of
 * mseal-bench against no instrument in the same round (median):
 *
 *   kernel, workload         kretprobe   fprobe
 *   src-preseries mmap1        18.6 %    33.9 %
 *   src-preseries pagemove     26.1 %    38.8 %
 *   src-patched   mmap1        14.7 %    21.4 %
 *   src-patched   pagemove      6.5 %    19.9 %
 *
 * The module's own calibration ranks them the other way round: one probe
 * pair on an empty function in a tight loop (calibration_outer_ns) costs
 * 650-700 ns with fprobe against 730-780 ns with kretprobe on the same
 * kernels (and 740 against 814 on debian-6.12, 863 against 933 on 7.3).
 * A loop that calls one function 200 times is not a syscall workload; the
 * benchmark is, so the benchmark decides.  On the Debian kernels the
 * benchmark did not decide (mmap1, 4 interleaved rounds of 3 s, median
 * ops/s, no instrument / kretprobe / fprobe: debian-6.12 47.9k / 37.4k /
 * 37.0k; debian-newest 61.2k / 50.7k / 54.2k, within the rounds' spread),
 * so one rule for all.  fprobe stays selectable (backend=fprobe).
 *
 * A target the backend cannot attach is reported failed.  backend=fprobe on
 * a kernel without a supported fprobe (CONFIG_FPROBE, 6.5 on:
 * MS_HAVE_FPROBE) refuses to load (-EOPNOTSUPP, and a line in dmesg); a
 * value that is none of the three: -EINVAL.
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
MODULE_PARM_DESC(backend, "auto (default: kretprobe, the cheaper one measured), kretprobe or fprobe; read at load");
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
	default:	/* auto and kretprobe */
		ms_used = MS_BACKEND_KRETPROBE;
		break;
	}
	ms_resolved = true;
	return 0;
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
