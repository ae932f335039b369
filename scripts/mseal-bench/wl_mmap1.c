// SPDX-License-Identifier: GPL-2.0
/*
 * mmap1, as will-it-scale's mmap1: map 128 MiB of private anonymous memory
 * and unmap it, never touching it.  Before the series every munmap (and the
 * munmap inside every mmap_region) walked the range once more for seals.
 */
#include <stdlib.h>
#include <sys/mman.h>

#include "bench.h"

#define MMAP1_SIZE (128UL << 20)

static char token;

static void *mmap1_setup(void)
{
	return &token;
}

static int mmap1_op(void *ctx)
{
	void *p = mmap(NULL, MMAP1_SIZE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	(void)ctx;
	if (p == MAP_FAILED)
		return -1;
	return munmap(p, MMAP1_SIZE);
}

static void mmap1_teardown(void *ctx)
{
	(void)ctx;
}

const struct workload wl_mmap1 = {
	.name = "mmap1",
	.help = "mmap + munmap 128 MiB private anonymous, untouched (will-it-scale mmap1)",
	.setup = mmap1_setup,
	.op = mmap1_op,
	.teardown = mmap1_teardown,
};
