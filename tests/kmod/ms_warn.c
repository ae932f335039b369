// SPDX-License-Identifier: GPL-2.0
/*
 * ms_warn: a module that makes the kernel complain, for the test bed's tests
 * of itself (tests/suites/10-testbed): a boot in which it loads must fail,
 * naming what happened and the step that did it.
 *
 *   insmod ms_warn.ko            WARN() once from init: a "WARNING:" report
 *                                in the log, and taint W
 *   insmod ms_warn.ko what=taint taint W and not a word in the log, as when
 *                                the ring buffer has lost a WARN's lines
 *   insmod ms_warn.ko what=bug   BUG() from init: an oops that kills insmod
 *                                (the module stays half-loaded); for
 *                                vm-run's end of a guest gone quiet after
 *                                an oops
 *
 * It loads with warn and taint and unloads with rmmod.  Built for a test-bed kernel
 * with `testbed/build-module --src tests/kmod SPEC`.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/string.h>

static char *what = "warn";
module_param(what, charp, 0444);
MODULE_PARM_DESC(what, "warn (a WARN and taint W), taint (taint W only) or bug (BUG())");

static int __init ms_warn_init(void)
{
	if (!strcmp(what, "warn"))
		WARN(1, "ms_warn: a warning planted by the test bed\n");
	else if (!strcmp(what, "taint"))
		add_taint(TAINT_WARN, LOCKDEP_STILL_OK);
	else if (!strcmp(what, "bug"))
		BUG();
	else
		return -EINVAL;
	return 0;
}

static void __exit ms_warn_exit(void)
{
}

module_init(ms_warn_init);
module_exit(ms_warn_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("mseal-stats test bed: a planted WARN or taint");
