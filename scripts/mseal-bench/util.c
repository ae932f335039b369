// SPDX-License-Identifier: GPL-2.0
/* mseal-bench: helpers shared by the workloads and the harness. */
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"

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

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Linear interpolation between order statistics, as numpy's default. */
static double quantile(const double *v, size_t n, double q)
{
	double pos = q * (double)(n - 1);
	size_t lo = (size_t)pos;

	if (lo + 1 >= n)
		return v[n - 1];
	return v[lo] + (pos - (double)lo) * (v[lo + 1] - v[lo]);
}

void bench_summarize(double *v, size_t n, struct bench_summary *s)
{
	if (!n) {
		*s = (struct bench_summary){ 0 };
		return;
	}
	qsort(v, n, sizeof(*v), cmp_double);
	s->min = v[0];
	s->max = v[n - 1];
	s->median = quantile(v, n, 0.5);
	s->q1 = quantile(v, n, 0.25);
	s->q3 = quantile(v, n, 0.75);
}
