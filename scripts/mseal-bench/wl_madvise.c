// SPDX-License-Identifier: GPL-2.0
/*
 * madvise: MADV_DONTNEED on read-only and on writable private anonymous
 * memory, MADVISE_PAGES each, untouched.  Read-only anonymous memory is
 * what the madvise seal check guards (a discard would change its
 * contents); writable memory is where it has nothing to refuse.  One
 * operation is one call on each.
 */
#include <stdlib.h>
#include <sys/mman.h>

#include "bench.h"

#define MADVISE_PAGES 16

static void *madvise_setup(void)
{
	size_t len = MADVISE_PAGES * bench_page_size();
	char *p = mmap(NULL, 2 * len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	if (mprotect(p, len, PROT_READ))
		return NULL;
	return p;
}

static int madvise_op(void *ctx)
{
	size_t len = MADVISE_PAGES * bench_page_size();
	char *p = ctx;

	if (madvise(p, len, MADV_DONTNEED))
		return -1;
	return madvise(p + len, len, MADV_DONTNEED);
}

static void madvise_teardown(void *ctx)
{
	munmap(ctx, 2 * MADVISE_PAGES * bench_page_size());
}

const struct workload wl_madvise = {
	.name = "madvise",
	.help = "MADV_DONTNEED on 16 read-only and on 16 writable anonymous pages",
	.setup = madvise_setup,
	.op = madvise_op,
	.teardown = madvise_teardown,
};
