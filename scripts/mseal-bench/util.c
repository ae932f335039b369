// SPDX-License-Identifier: GPL-2.0
/* mseal-bench: helpers shared by the workloads and the harness. */
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "../lib/cmpstats.h"

size_t bench_page_size(void)
{
	return (size_t)sysconf(_SC_PAGESIZE);
}

double bench_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/*
 * n pages in n VMAs: adjacent anonymous VMAs merge unless something differs,
 * so every other page is made writable.
 */
void *bench_map_vmas(size_t n)
{
	size_t pg = bench_page_size(), i;
	char *p = mmap(NULL, n * pg, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	for (i = 1; i < n; i += 2)
		if (mprotect(p + i * pg, pg, PROT_READ | PROT_WRITE)) {
			munmap(p, n * pg);
			return NULL;
		}
	return p;
}

void bench_summarize(double *v, size_t n, struct bench_summary *s)
{
	if (!n) {
		*s = (struct bench_summary){ 0 };
		return;
	}
	cmp_sort(v, n);
	s->min = v[0];
	s->max = v[n - 1];
	s->median = cmp_quantile(v, n, 0.5);
	s->q1 = cmp_quantile(v, n, 0.25);
	s->q3 = cmp_quantile(v, n, 0.75);
}
