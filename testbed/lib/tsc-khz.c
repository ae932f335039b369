// SPDX-License-Identifier: GPL-2.0
/*
 * tsc-khz: this machine's TSC frequency in kHz, measured against
 * CLOCK_MONOTONIC_RAW; prints it, or exits 1 where there is no TSC to read
 * (not x86_64).
 *
 * testbed/vm-run gives it to the source-built kernels (tsc_early_khz=):
 * under TCG a guest's RDTSC reads the host's TSC, and those kernels have
 * no ACPI, so no HPET or PM timer to calibrate it against.  /proc/cpuinfo's
 * "cpu MHz" is not that figure everywhere: absent on some virtual
 * machines, the current clock under frequency scaling on others.
 *
 * Five 20 ms windows; each end is a TSC read between two clock reads, the
 * pair kept only if the clock moved under 20 us (a preemption there
 * would blur the end).  The median of the five: a window the host
 * stretched by descheduling us still measures TSC ticks against real
 * time, so load changes nothing but the spread.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#if defined(__x86_64__)
#include <x86intrin.h>

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* One end of a window: the TSC and the clock's midpoint around it. */
static int end_of_window(double *ns, uint64_t *tsc)
{
	int tries;

	for (tries = 0; tries < 1000; tries++) {
		double a = now_ns(), b;
		uint64_t t = __rdtsc();

		b = now_ns();
		if (b - a < 20000) {
			*ns = (a + b) / 2;
			*tsc = t;
			return 0;
		}
	}
	return -1;
}

static int cmp(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return a < b ? -1 : a > b;
}

int main(void)
{
	double khz[5];
	int i;

	for (i = 0; i < 5; i++) {
		double n0, n1;
		uint64_t t0, t1;
		struct timespec w = { 0, 20 * 1000 * 1000 };

		if (end_of_window(&n0, &t0))
			return 1;
		nanosleep(&w, NULL);
		if (end_of_window(&n1, &t1) || n1 <= n0)
			return 1;
		khz[i] = (double)(t1 - t0) / (n1 - n0) * 1e6;
	}
	qsort(khz, 5, sizeof(khz[0]), cmp);
	if (khz[2] < 1000)	/* below 1 MHz: no TSC worth the name */
		return 1;
	printf("%.0f\n", khz[2]);
	return 0;
}
#else
int main(void)
{
	return 1;
}
#endif
