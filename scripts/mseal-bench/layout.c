// SPDX-License-Identifier: GPL-2.0
/*
 * mseal-bench --layout N: run in the N-th of a seeded family of user
 * address-space layouts, the same on every kernel and every boot.
 *
 * Why: with ASLR on, every process gets its own layout, and the layout
 * alone moves mmap1 by tens of percent on one kernel (docs/comparison.md,
 * "Layouts").  Two kernels compared over unrelated layouts need hundreds of
 * them for a narrow interval; compared over the same layouts, what a layout
 * does to both cancels.  ASLR cannot be made to repeat across kernels (its
 * random numbers come from the kernel's CRNG), so this draws the one part
 * of it that places the mmap area, the way the kernel would, and turns the
 * kernel's own randomisation off:
 *
 *   mmap_base = PAGE_ALIGN(TASK_SIZE - gap - rnd)    (mm/util.c, arch/x86/mm/mmap.c)
 *   gap = RLIMIT_STACK + stack_maxrandom_size + stack_guard_gap, at least 128 MiB
 *   rnd = (random & ((1 << mmap_rnd_bits) - 1)) pages
 *
 * Under ASLR stack_maxrandom_size is 16 GiB - 4 KiB (x86_64) or 1 GiB -
 * 4 KiB (arm64, 4 KiB pages) and rnd is uniform over 2^mmap_rnd_bits
 * pages.  Without PF_RANDOMIZE both are 0, so an RLIMIT_STACK of
 * 8 MiB + stack_maxrandom_size + rnd puts mmap_base exactly where ASLR
 * would have put it with that rnd; rnd is drawn from N.  The process then
 * re-executes itself with personality(ADDR_NO_RANDOMIZE) and that limit, so
 * the kernel lays it out afresh (the layout is fixed at exec).  Everything
 * in the mmap area (the vDSO, every mapping the workloads make) moves with
 * mmap_base, as under ASLR.  Not drawn: the stack's own randomisation (here
 * the stack stays at the top, at least 16 GiB above the mmap area, as under
 * ASLR but for a 1-in-1000 chance that the two share a 1 GiB region) and
 * the brk heap's (the workloads do not use the heap).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>
#include <sys/resource.h>
#include <unistd.h>

#include "bench.h"

#define LAYOUT_ENV "MSEAL_BENCH_LAYOUT_APPLIED"

#if defined(__x86_64__)
#define STACK_MAXRANDOM ((0x3fffffULL) << 12)	/* __STACK_RND_MASK(0) pages */
#define RND_BITS_DEFAULT 28			/* CONFIG_ARCH_MMAP_RND_BITS_MIN */
#elif defined(__aarch64__)
#define STACK_MAXRANDOM ((0x3ffffULL) << 12)	/* STACK_RND_MASK, 4 KiB pages */
#define RND_BITS_DEFAULT 18			/* CONFIG_ARCH_MMAP_RND_BITS default */
#else
#error "mseal-bench --layout knows x86_64 and arm64"
#endif /* __x86_64__ / __aarch64__ */

/* Debian's and the kernel's default RLIMIT_STACK. */
#define STACK_RLIMIT_DEFAULT (8ULL << 20)

/* splitmix64: a fixed, portable stream from N, so layout N is one thing. */
static unsigned long long splitmix64(unsigned long long x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

/* The kernel's mmap_rnd_bits (root may read it), else the default. */
static unsigned int rnd_bits(void)
{
	FILE *f = fopen("/proc/sys/vm/mmap_rnd_bits", "r");
	unsigned int bits = RND_BITS_DEFAULT;

	if (f) {
		if (fscanf(f, "%u", &bits) != 1 || bits < 8 || bits > 40)
			bits = RND_BITS_DEFAULT;
		fclose(f);
	}
	return bits;
}

unsigned long long bench_layout_rnd_pages(unsigned long long n, unsigned int bits)
{
	return splitmix64(n) & ((1ULL << bits) - 1);
}

int bench_layout_applied(unsigned long long *n, unsigned long long *rnd_pages)
{
	const char *s = getenv(LAYOUT_ENV);

	if (!s || sscanf(s, "%llu:%llu", n, rnd_pages) != 2)
		return 0;
	return 1;
}

int bench_layout_apply(unsigned long long n, char **argv)
{
	unsigned long long applied, rnd;
	unsigned int bits = rnd_bits();
	char val[64], exe[4096];
	struct rlimit rl;
	ssize_t len;

	/* After the exec: nothing to do, the layout is in place. */
	if (bench_layout_applied(&applied, &rnd) && applied == n)
		return 0;
	rnd = bench_layout_rnd_pages(n, bits);
	if (getrlimit(RLIMIT_STACK, &rl))
		return -1;
	rl.rlim_cur = STACK_RLIMIT_DEFAULT + STACK_MAXRANDOM + (rnd << 12);
	if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < rl.rlim_cur) {
		errno = EPERM;	/* a hard limit below it: the layout cannot be made */
		return -1;
	}
	if (setrlimit(RLIMIT_STACK, &rl))
		return -1;
	if (personality(PER_LINUX | ADDR_NO_RANDOMIZE) == -1)
		return -1;
	snprintf(val, sizeof(val), "%llu:%llu", n, rnd);
	if (setenv(LAYOUT_ENV, val, 1))
		return -1;
	/*
	 * The binary by its own name, not /proc/self/exe: the task's comm is
	 * the name exec'd, and the module's comm= filter and record look for
	 * mseal-bench.
	 */
	len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (len <= 0)
		return -1;
	exe[len] = '\0';
	execv(exe, argv);
	return -1;
}
