// SPDX-License-Identifier: GPL-2.0
/*
 * ms_selfcost - the module's own figures that an instruction clock (vm-run
 * --clock icount) makes exact: the calibration at load against later
 * calibrations, and the time the syscall side measures for a syscall that
 * does next to nothing.
 *
 *   ms_selfcost [N [CALIBRATIONS]]      (defaults 10000 and 3)
 *
 * Prints, as TAP comments and two results: calibration_ns and
 * calibration_outer_ns after insmod and after each "calibrate"; then, after
 * a reset, N calls of madvise(p, 0, MADV_NORMAL) (an empty range: madvise
 * returns 0 before any lock or check) and the madvise row's count and mean.
 * On the instruction clock that mean is the instructions between the
 * syscall side's two clock reads: the entry function's body on direct
 * calls (the kernel's tracepoint and syscall path too on the tracepoints)
 * plus whatever of the module's own falls in between; a module that moves
 * its own work out of that window lowers it by exactly that work.
 * The second result: every later calibration agrees with the one at load
 * within 5 % (both figures); meaningful on the instruction clock, where
 * the same work is the same time (on the wall clock of a busy TCG host
 * it is not: run it there for the figures only, with MS_SELFCOST_FIGURES=1).
 */
#include "mstest.h"

static long long cal_inner(void)
{
	ms_snapshot();
	return ms_get("calibration_ns");
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 10000, i;
	int cals = argc > 2 ? atoi(argv[2]) : 3, c, bad = 0, apart = 0;
	bool figures = getenv("MS_SELFCOST_FIGURES") != NULL;
	long long inner0, outer0, inner, outer, count, total;
	char *p = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	t_plan(2);
	inner0 = cal_inner();
	outer0 = ms_get("calibration_outer_ns");
	printf("# calibration at load: %lld ns inside, %lld ns in all\n", inner0, outer0);
	for (c = 1; c <= cals; c++) {
		bad |= ms_write(MS_COMMAND, "calibrate\n");
		inner = cal_inner();
		outer = ms_get("calibration_outer_ns");
		printf("# calibrate %d: %lld ns inside, %lld ns in all (%+.1f %% and %+.1f %% against the load's)\n",
		       c, inner, outer, inner0 ? 100.0 * (inner - inner0) / inner0 : 0,
		       outer0 ? 100.0 * (outer - outer0) / outer0 : 0);
		apart += llabs(inner - inner0) * 20 > inner0 || llabs(outer - outer0) * 20 > outer0;
	}
	bad |= ms_reset();
	for (i = 0; i < n; i++)
		bad |= madvise(p, 0, MADV_NORMAL);
	ms_snapshot();
	count = ms_get("syscalls.madvise.count");
	total = ms_get("syscalls.madvise.ns.total");
	printf("# madvise of an empty range: %lld calls, %lld ns in all, %.1f ns each (min %lld, max %lld)\n",
	       count, total, count > 0 ? (double)total / count : 0.0,
	       ms_get("syscalls.madvise.ns.min"), ms_get("syscalls.madvise.ns.max"));
	t_ok(!bad && count == n, "%ld calls counted, commands accepted", n);
	if (figures)
		t_skip("agreement of the calibrations: figures only (MS_SELFCOST_FIGURES)");
	else
		t_ok(inner0 > 0 && outer0 > 0 && !apart,
		     "%d calibrations agree with the one at load (%lld ns inside, %lld in all) within 5 %%",
		     cals, inner0, outer0);
	return t_exit();
}
