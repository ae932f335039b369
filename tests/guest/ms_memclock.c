// SPDX-License-Identifier: GPL-2.0
/*
 * ms_memclock [MIB]: known windows for the memory clock's test (13-memclock):
 * each window's ON, BEGIN and END marks (scripts/lib/memclock_mark.h), and
 * a line saying what the program did in it and how many nanoseconds of
 * CLOCK_MONOTONIC it took, which on the instruction clock is the number of
 * instructions the vCPU ran:
 *   window 1  nothing: END right after BEGIN;
 *   window 2  one read of every 64-byte line of a MIB buffer (default 4),
 *             written before ON, so every line is in memory, none in the
 *             modelled caches;
 *   window 3  the same read again, the caches warm from window 2.
 * Between ON and BEGIN the program sleeps 1 ms: the plugin switches on
 * asynchronously (qemu_plugin_reset() takes effect once the current
 * block has run), so BEGIN must not be in ON's block; a task that
 * blocked and woke is well past it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../../scripts/lib/memclock_mark.h"

static long long now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000LL + t.tv_nsec;
}

/* One load from every line; the sum keeps the loads. */
static unsigned long read_lines(const volatile unsigned char *p, size_t n)
{
	unsigned long s = 0;
	size_t i;

	for (i = 0; i < n; i += 64)
		s += p[i];
	return s;
}

int main(int argc, char **argv)
{
	size_t mib = argc > 1 ? strtoul(argv[1], NULL, 10) : 4, n = mib << 20;
	unsigned char *buf = malloc(n);
	long long t0, t1;
	unsigned long s;
	int w;

	if (!buf || !mib) {
		fprintf(stderr, "ms_memclock: no buffer\n");
		return 1;
	}
	memset(buf, 1, n);
	for (w = 1; w <= 3; w++) {
		mc_mark(MC_MARK_ON);
		usleep(1000);
		t0 = now_ns();
		mc_mark(MC_MARK_BEGIN);
		s = w == 1 ? 0 : read_lines(buf, n);
		mc_mark(MC_MARK_END);
		t1 = now_ns();
		printf("ms_memclock: window %d lines %zu sum %lu ns %lld\n",
		       w, w == 1 ? 0 : n / 64, s, t1 - t0);
	}
	return 0;
}
