// SPDX-License-Identifier: GPL-2.0
/*
 * Layout N's draw: the rnd, in pages, that mseal-bench --layout N puts
 * below the mmap area (layout.c applies it).  Plain arithmetic, so the
 * unit tests hold it to its promise (tests/unit/test_layout_draw.c).
 */
#include "bench.h"

/* splitmix64: a fixed, portable stream from N, so layout N is one thing. */
static unsigned long long splitmix64(unsigned long long x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

/*
 * The top 9 bits of frac(N * ALPHA), ALPHA a 64-bit binary fraction: the
 * Kronecker sequence N * ALPHA mod 1, in 512 steps.  Its points spread
 * evenly over any run of consecutive N, and over runs of N spaced apart
 * as a record's boots space them (N + 64 * boot).
 */
static unsigned int kronecker9(unsigned long long n, unsigned long long alpha)
{
	return (unsigned int)((n * alpha) >> 55);
}

/* frac((sqrt(5) - 1) / 2) and frac(sqrt(2)), times 2^64: two irrationals, unrelated. */
#define LAYOUT_ALPHA_PLACE	0x9e3779b97f4a7c15ULL
#define LAYOUT_ALPHA_BLOCK	0x6a09e667f3bcc908ULL

/*
 * Layout N's rnd, in pages.  What the layout does to a workload hangs on
 * where the mmap area's top falls in the page tables (docs/comparison.md,
 * "Why the layout moves mmap1"): its place in a 2 MiB block (rnd's low
 * 9 bits: the PTEs munmap visits) and its 2 MiB block in a 1 GiB region
 * (the next 9: whether mmap1's range crosses into the region below).
 * Those two follow two Kronecker sequences, so the layouts a record runs
 * spread over both evenly, as ASLR's draws do only on average: the 30
 * layouts of a 6-run workload over 5 boots put 3 to 5 in each eighth of
 * either.  Over the 160 layouts of make demo's mmap1 the page-table model
 * of docs/comparison.md puts the mean 0.2 % from ASLR's expectation,
 * where independent draws missed it by 1.2 %.  The bits above, which no
 * figure follows, come from splitmix64.  Every N is still one draw ASLR
 * could make.
 */
unsigned long long bench_layout_rnd_pages(unsigned long long n, unsigned int bits)
{
	unsigned long long strata = (unsigned long long)kronecker9(n, LAYOUT_ALPHA_BLOCK) << 9 |
				    kronecker9(n, LAYOUT_ALPHA_PLACE);

	return ((splitmix64(n) & ~0x3ffffULL) | strata) & ((1ULL << bits) - 1);
}
