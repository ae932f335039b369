// SPDX-License-Identifier: GPL-2.0
/*
 * pagemove, as stress-ng's pagemove: a region of PAGEMOVE_PAGES touched
 * pages with a one-page hole; each operation moves the page next to the
 * hole into it with mremap(MREMAP_FIXED | MREMAP_MAYMOVE), so the hole
 * rotates through the region.  Before the series every such mremap walked
 * both ranges for seals.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "bench.h"

#define PAGEMOVE_PAGES 64

struct pagemove {
	char *base;
	size_t hole;	/* index of the page that is not mapped */
};

static void *pagemove_setup(void)
{
	size_t pg = bench_page_size();
	struct pagemove *pm = calloc(1, sizeof(*pm));

	if (!pm)
		return NULL;
	pm->base = mmap(NULL, (PAGEMOVE_PAGES + 1) * pg, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (pm->base == MAP_FAILED) {
		free(pm);
		return NULL;
	}
	memset(pm->base, 0x5a, (PAGEMOVE_PAGES + 1) * pg);
	pm->hole = PAGEMOVE_PAGES;
	if (munmap(pm->base + pm->hole * pg, pg)) {
		free(pm);
		return NULL;
	}
	return pm;
}

static int pagemove_op(void *ctx)
{
	struct pagemove *pm = ctx;
	size_t pg = bench_page_size();
	size_t from = pm->hole ? pm->hole - 1 : PAGEMOVE_PAGES;
	void *p = mremap(pm->base + from * pg, pg, pg, MREMAP_FIXED | MREMAP_MAYMOVE,
			 pm->base + pm->hole * pg);

	if (p == MAP_FAILED)
		return -1;
	pm->hole = from;
	return 0;
}

static void pagemove_teardown(void *ctx)
{
	struct pagemove *pm = ctx;

	munmap(pm->base, (PAGEMOVE_PAGES + 1) * bench_page_size());
	free(pm);
}

const struct workload wl_pagemove = {
	.name = "pagemove",
	.help = "rotate 64 touched pages through a hole with mremap FIXED|MAYMOVE (stress-ng pagemove)",
	.setup = pagemove_setup,
	.op = pagemove_op,
	.teardown = pagemove_teardown,
};
