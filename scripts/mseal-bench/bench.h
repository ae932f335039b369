/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mseal-bench: the workloads that show what the seal checks cost.
 *
 * One workload a file (wl_*.c), one harness (main.c), in the shape of
 * will-it-scale: every task loops over its workload's op() and bumps its own
 * counter; the harness samples the counters once a second.
 */
#ifndef MSEAL_BENCH_H
#define MSEAL_BENCH_H

#include <stddef.h>

struct bench_opts {
	const char *vmas;	/* munmap-vmas: comma-separated VMA counts */
	double seconds;		/* measured; under 1: one sample that long */
	double warmup;		/* seconds; under 1: one sample that long */
	int tasks;
	int threads;		/* 0: processes */
	int json;
};

struct workload {
	const char *name;
	const char *help;
	/* Per task: make the memory op() works on.  Returns NULL on error. */
	void *(*setup)(void);
	/* One operation; returns 0, or -1 with errno set. */
	int (*op)(void *ctx);
	void (*teardown)(void *ctx);
	/* A workload with a run() of its own replaces the harness loop. */
	int (*run)(const struct bench_opts *o);
};

extern const struct workload wl_mmap1, wl_mprotect, wl_pagemove, wl_madvise,
	wl_munmap_vmas, wl_getppid;

size_t bench_page_size(void);
/* Map n pages of private anonymous memory in n VMAs (alternating prot). */
void *bench_map_vmas(size_t n);
double bench_now(void);		/* CLOCK_MONOTONIC, seconds */

/*
 * --layout N (layout.c): re-execute argv in layout N; returns 0 when it
 * already runs in it, -1 with errno when it cannot.  _applied tells which
 * layout this process runs in (0 where none) and its rnd, in pages.
 */
int bench_layout_apply(unsigned long long n, char **argv);
int bench_layout_applied(unsigned long long *n, unsigned long long *rnd_pages);
unsigned long long bench_layout_rnd_pages(unsigned long long n, unsigned int bits,
					  unsigned int page_shift);

/* --meta and --meta-stamp (meta.c): a boot record's meta.json. */
int bench_meta(int argc, char **argv);
int bench_meta_stamp(const char *file, const char *epoch);

/* Summary statistics of n samples (sorted in place). */
struct bench_summary {
	double median, min, max, q1, q3;
};
void bench_summarize(double *v, size_t n, struct bench_summary *s);

#endif
