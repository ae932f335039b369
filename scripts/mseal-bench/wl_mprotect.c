// SPDX-License-Identifier: GPL-2.0
/*
 * mprotect: flip the protection of a region made of MPROTECT_VMAS VMAs.
 * The VMAs differ in VM_DONTCOPY (MADV_DONTFORK on every other page), so
 * they stay separate whatever protection the whole region gets.  One
 * operation is two mprotect calls: read-only, then read-write.
 */
#include <stdlib.h>
#include <sys/mman.h>

#include "bench.h"

#define MPROTECT_VMAS 8

static void *mprotect_setup(void)
{
	size_t pg = bench_page_size(), i;
	char *p = mmap(NULL, MPROTECT_VMAS * pg, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	for (i = 1; i < MPROTECT_VMAS; i += 2)
		if (madvise(p + i * pg, pg, MADV_DONTFORK))
			return NULL;
	return p;
}

static int mprotect_op(void *ctx)
{
	size_t len = MPROTECT_VMAS * bench_page_size();

	if (mprotect(ctx, len, PROT_READ))
		return -1;
	return mprotect(ctx, len, PROT_READ | PROT_WRITE);
}

static void mprotect_teardown(void *ctx)
{
	munmap(ctx, MPROTECT_VMAS * bench_page_size());
}

const struct workload wl_mprotect = {
	.name = "mprotect",
	.help = "mprotect a region of 8 VMAs read-only, then read-write",
	.setup = mprotect_setup,
	.op = mprotect_op,
	.teardown = mprotect_teardown,
};
