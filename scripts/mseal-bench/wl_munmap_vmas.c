// SPDX-License-Identifier: GPL-2.0
/*
 * munmap-vmas: unmap one range that spans N VMAs, for each N of --vmas, to
 * show how the seal check's cost grows with N.  The pre-series check walks
 * all N VMAs once more before the unmap; the patched kernel tests a flag in
 * the walk the unmap makes anyway.  Only the munmap is timed (the setup of N
 * VMAs is not): for each N, the median munmap time and the munmaps per
 * second of munmap time.  One task; -s seconds per N.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "bench.h"

#define MAX_SAMPLES (1UL << 20)

struct point {
	long vmas;
	unsigned long ops;
	struct bench_summary ns;
};

static int measure(long n, double seconds, double *ns, struct point *pt)
{
	size_t pg = bench_page_size(), k = 0;
	double end = bench_now() + seconds, busy = 0;

	pt->vmas = n;
	pt->ops = 0;
	while (bench_now() < end) {
		void *p = bench_map_vmas((size_t)n);
		double t0, t1;

		if (!p)
			return -1;
		t0 = bench_now();
		if (munmap(p, (size_t)n * pg))
			return -1;
		t1 = bench_now();
		busy += t1 - t0;
		if (k < MAX_SAMPLES)
			ns[k++] = (t1 - t0) * 1e9;
		pt->ops++;
	}
	bench_summarize(ns, k, &pt->ns);
	printf("vmas:%ld munmaps:%lu munmap_ns_median:%.0f q1:%.0f q3:%.0f munmaps_per_sec:%.0f\n",
	       n, pt->ops, pt->ns.median, pt->ns.q1, pt->ns.q3, busy > 0 ? (double)pt->ops / busy : 0.0);
	fflush(stdout);
	return 0;
}

static int munmap_vmas_run(const struct bench_opts *o)
{
	double *ns = malloc(MAX_SAMPLES * sizeof(*ns));
	struct point pts[64];
	char *list = strdup(o->vmas), *tok, *save = NULL;
	int npts = 0, i;

	if (!ns || !list)
		return 1;
	if (o->tasks != 1 || o->threads)
		fprintf(stderr, "mseal-bench: munmap-vmas runs one task; -t/--threads ignored\n");
	for (tok = strtok_r(list, ",", &save); tok && npts < 64; tok = strtok_r(NULL, ",", &save)) {
		char *end;
		long n = strtol(tok, &end, 10);

		if (*end || n < 1 || n > 65536) {
			fprintf(stderr, "mseal-bench: bad VMA count '%s' in --vmas\n", tok);
			return 2;
		}
		if (o->warmup > 0 && npts == 0 && measure(n, o->warmup, ns, &pts[0]))
			goto fail;
		if (measure(n, o->seconds, ns, &pts[npts]))
			goto fail;
		npts++;
	}
	if (o->json) {
		unsigned long long layout = 0, rnd = 0;

		bench_layout_applied(&layout, &rnd);
		printf("{\"workload\": \"munmap-vmas\", \"seconds\": %g, \"layout\": %llu, "
		       "\"layout_rnd_pages\": %llu, \"points\": [", o->seconds, layout, rnd);
		for (i = 0; i < npts; i++)
			printf("%s{\"vmas\": %ld, \"munmaps\": %lu, \"munmap_ns_median\": %.0f, "
			       "\"q1\": %.0f, \"q3\": %.0f}", i ? ", " : "", pts[i].vmas,
			       pts[i].ops, pts[i].ns.median, pts[i].ns.q1, pts[i].ns.q3);
		printf("]}\n");
	}
	free(list);
	free(ns);
	return 0;
fail:
	perror("mseal-bench: munmap-vmas");
	return 1;
}

const struct workload wl_munmap_vmas = {
	.name = "munmap-vmas",
	.help = "munmap one range spanning N VMAs, N from --vmas; times the munmap alone",
	.run = munmap_vmas_run,
};
