// SPDX-License-Identifier: GPL-2.0
/*
 * getppid: a null syscall, one no seal check is made in and mseal_stats
 * does not track.  What it gains while the module is loaded is what every
 * other syscall on the machine pays for the module's syscall side (the
 * raw_syscalls tracepoints see every syscall): mseal-overhead prints it.
 * Made with syscall(2), so no C library can answer it from a cache.
 */
#include <sys/syscall.h>
#include <unistd.h>

#include "bench.h"

static int getppid_ctx;

static void *getppid_setup(void)
{
	return &getppid_ctx;
}

static int getppid_op(void *ctx)
{
	(void)ctx;
	return syscall(SYS_getppid) < 0 ? -1 : 0;
}

static void getppid_teardown(void *ctx)
{
	(void)ctx;
}

const struct workload wl_getppid = {
	.name = "getppid",
	.help = "getppid(2), a null syscall the module does not track: what every other syscall pays",
	.setup = getppid_setup,
	.op = getppid_op,
	.teardown = getppid_teardown,
};
