// SPDX-License-Identifier: GPL-2.0
/*
 * mseal-compare-syscalls: the module's per-syscall account of an A/B run.
 *
 *   mseal-compare-syscalls KERNEL FILE.json...
 *
 * Sums the module's JSON reports (one per boot) of one kernel and prints,
 * per syscall that was called: calls, mean syscall ns, seal checks per
 * call, mean check ns raw and net of the module's calibration (the probe
 * cost the handlers measure inside every timed call), and the checks'
 * share of the syscall's time.  Net times are floored at zero.
 */
#include <stdio.h>
#include <stdlib.h>

#include "../../tests/guest/msjson.h"

static const char *const syscalls[] = {
	"mmap", "munmap", "mremap", "mprotect", "pkey_mprotect", "madvise",
	"process_madvise", "brk", "mseal", "shmdt",
};
static const char *const checks[] = {
	"can_modify_mm", "can_modify_mm_madv", "can_modify_vma", "can_modify_vma_madv",
};

#define NSYS (sizeof(syscalls) / sizeof(syscalls[0]))
#define NCHK (sizeof(checks) / sizeof(checks[0]))

struct acc {
	double calls, ns, checks, check_ns, check_net_ns;
};

int main(int argc, char **argv)
{
	static char text[4 << 20];
	struct acc acc[NSYS] = { { 0 } };
	size_t s, c;
	int i, boots = 0;

	if (argc < 3) {
		fprintf(stderr, "usage: mseal-compare-syscalls KERNEL FILE.json...\n");
		return 2;
	}
	for (i = 2; i < argc; i++) {
		double calib;

		if (msj_read_file(argv[i], text, sizeof(text)) <= 0 || !msj_valid(text)) {
			fprintf(stderr, "mseal-compare-syscalls: %s: no valid module JSON, skipped\n", argv[i]);
			continue;
		}
		boots++;
		calib = (double)msj_int(text, "calibration_ns", 0);
		for (s = 0; s < NSYS; s++) {
			char path[128];

			snprintf(path, sizeof(path), "syscalls.%s.count", syscalls[s]);
			acc[s].calls += (double)msj_int(text, path, 0);
			snprintf(path, sizeof(path), "syscalls.%s.ns.total", syscalls[s]);
			acc[s].ns += (double)msj_int(text, path, 0);
			for (c = 0; c < NCHK; c++) {
				double n, t;

				snprintf(path, sizeof(path), "syscalls.%s.checks.%s.count", syscalls[s], checks[c]);
				n = (double)msj_int(text, path, 0);
				snprintf(path, sizeof(path), "syscalls.%s.checks.%s.ns.total", syscalls[s], checks[c]);
				t = (double)msj_int(text, path, 0);
				acc[s].checks += n;
				acc[s].check_ns += t;
				acc[s].check_net_ns += t - n * calib > 0 ? t - n * calib : 0;
			}
		}
	}
	printf("%s, module's account over %d report(s):\n", argv[1], boots);
	printf("  %-16s %10s %10s %12s %14s %14s %7s\n", "syscall", "calls", "mean_ns",
	       "checks/call", "check_ns_raw", "check_ns_net", "share");
	for (s = 0; s < NSYS; s++) {
		struct acc *a = &acc[s];

		if (!a->calls)
			continue;
		printf("  %-16s %10.0f %10.0f %12.2f %14.0f %14.0f %6.1f%%\n", syscalls[s], a->calls,
		       a->ns / a->calls, a->checks / a->calls,
		       a->checks ? a->check_ns / a->checks : 0.0,
		       a->checks ? a->check_net_ns / a->checks : 0.0,
		       a->ns ? 100.0 * a->check_ns / a->ns : 0.0);
	}
	return boots ? 0 : 1;
}
