// SPDX-License-Identifier: GPL-2.0
/*
 * ms_kmemleak - did mseal_stats leak kernel memory?  (kernels with kmemleak)
 *
 *   ms_kmemleak clear    before the first insmod: scan, then forget every
 *                        suspect found so far (the kernel's own boot-time
 *                        objects are not the module's)
 *   ms_kmemleak check    after the last rmmod: one TAP result
 *
 * kmemleak reports an object only once it has stayed unreferenced across
 * scans and is older than 5 s, so check waits, scans twice, and reads
 * /sys/kernel/debug/kmemleak.  An object is the module's when its
 * allocation backtrace names mseal_stats, or has a frame kallsyms no longer
 * resolves ("[<...>] 0x..."): code of a module since unloaded, and no other
 * module is loaded in the test bed.  Objects of the rest of the kernel are
 * counted in a comment, not failed.  Without kmemleak: SKIP.
 */
#include "mstest.h"

#define KMEMLEAK	"/sys/kernel/debug/kmemleak"

static char buf[1 << 22];

static int scan(void)
{
	return ms_write(KMEMLEAK, "scan");
}

int main(int argc, char **argv)
{
	int mine = 0, others = 0, unresolved;
	char *obj, *next;

	t_plan(1);
	if (argc != 2 || (strcmp(argv[1], "clear") && strcmp(argv[1], "check"))) {
		t_ok(0, "usage: ms_kmemleak clear|check");
		return 2;
	}
	if (access(KMEMLEAK, R_OK)) {
		t_skip("no kmemleak in this kernel (%s)", KMEMLEAK);
		return 0;
	}
	if (!strcmp(argv[1], "clear")) {
		int err = scan();

		if (!err)
			err = ms_write(KMEMLEAK, "clear");

		t_ok(!err, "kmemleak: boot-time suspects scanned and cleared%s%s",
		     err ? ": " : "", err ? strerror(err) : "");
		return t_exit();
	}
	/* Old enough (kmemleak's minimum age is 5 s), then two scans. */
	sleep(6);
	if (scan() || (sleep(1), scan())) {
		t_ok(0, "kmemleak: scan failed: %s", strerror(errno));
		return 1;
	}
	if (msj_read_file(KMEMLEAK, buf, sizeof(buf)) < 0) {
		t_ok(0, "kmemleak: cannot read %s", KMEMLEAK);
		return 1;
	}
	for (obj = strstr(buf, "unreferenced object"); obj; obj = next) {
		next = strstr(obj + 1, "unreferenced object");
		if (next)
			next[-1] = '\0';
		unresolved = strstr(obj, "] 0x") != NULL;
		if (strstr(obj, "mseal_stats") || unresolved) {
			if (!mine)
				printf("# the first one:\n%s\n", obj);
			mine++;
		} else {
			others++;
		}
	}
	printf("# kmemleak: %d unreferenced objects of the rest of the kernel (not failed)\n", others);
	t_ok(mine == 0, "kmemleak: no object leaked by mseal_stats (%d found)", mine);
	return t_exit();
}
