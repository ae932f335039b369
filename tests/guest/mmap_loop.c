// SPDX-License-Identifier: GPL-2.0
/*
 * mmap_loop: a benchmark smoke test: mmap + munmap of a private anonymous
 * region in a loop, as TAP.
 *
 *   mmap_loop [SECONDS [MIB]]        defaults: 2 s, 128 MiB
 *
 * Prints the rate as a `# ` comment and one `ok` line; it fails only when
 * mmap or munmap fails, never on speed (one boot is not a measurement).
 * The pages are never touched: the loop costs what the VMA code costs,
 * which is where the seal checks are.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	double seconds = argc > 1 ? atof(argv[1]) : 2.0;
	size_t len = (size_t)(argc > 2 ? atol(argv[2]) : 128) << 20;
	unsigned long ops = 0;
	double t0, t;
	int i;

	printf("1..1\n");
	if (seconds <= 0 || !len) {
		printf("not ok 1 - mmap_loop: bad arguments\n");
		return 1;
	}
	t0 = now();
	do {
		/* Check the clock every 64 rounds: clock_gettime is not free. */
		for (i = 0; i < 64; i++) {
			void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
				       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

			if (p == MAP_FAILED) {
				printf("# mmap: %s\n", strerror(errno));
				printf("not ok 1 - mmap_loop: mmap+munmap of %zu MiB\n", len >> 20);
				return 1;
			}
			if (munmap(p, len)) {
				printf("# munmap: %s\n", strerror(errno));
				printf("not ok 1 - mmap_loop: mmap+munmap of %zu MiB\n", len >> 20);
				return 1;
			}
		}
		ops += 64;
		t = now() - t0;
	} while (t < seconds);

	printf("# mmap_loop: %lu mmap+munmap of %zu MiB in %.3f s: %.0f ops/s\n",
	       ops, len >> 20, t, ops / t);
	printf("ok 1 - mmap_loop: mmap+munmap of %zu MiB\n", len >> 20);
	return 0;
}
