// SPDX-License-Identifier: GPL-2.0
/*
 * madvise_n N: exactly N madvise(MADV_DONTNEED) calls on one read-only
 * and one writable VMA alternately, then exit 0.  A known workload for
 * the tracers' exact-count tests: N madvise calls, N seal checks (one VMA
 * each), none refused.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000, i;
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	char *p = mmap(NULL, 2 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED || mprotect(p, pg, PROT_READ)) {
		perror("madvise_n: setup");
		return 1;
	}
	for (i = 0; i < n; i++)
		if (madvise(p + (i % 2) * pg, pg, MADV_DONTNEED)) {
			perror("madvise_n: madvise");
			return 1;
		}
	return 0;
}
