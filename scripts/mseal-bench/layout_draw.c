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
 * The top BITS bits of frac(N * ALPHA), ALPHA a 64-bit binary fraction:
 * the Kronecker sequence N * ALPHA mod 1.  Its points spread evenly over
 * any run of consecutive N, and, for these two ALPHAs, over runs of N
 * spaced as a record spaces its boots (N + 64 * boot).
 */
static unsigned long long kronecker(unsigned long long n, unsigned long long alpha,
				    unsigned int bits)
{
	return bits ? (n * alpha) >> (64 - bits) : 0;
}

/*
 * frac((sqrt(5) - 1) / 2) and frac(sqrt(6)), times 2^64.  Chosen among
 * quadratic irrationals for the most even spread of N * alpha over
 * record shapes from 1 run a boot over 8 to 40 boots to 64 runs over 10
 * (sqrt(2), say, puts 64 * alpha next to 1/2: one run a boot over a few
 * boots then falls in two clusters).
 */
#define LAYOUT_ALPHA_PLACE	0x9e3779b97f4a7c15ULL
#define LAYOUT_ALPHA_BLOCK	0x7311c2812425cfa0ULL

/*
 * Layout N's rnd, in pages of 1 << PAGE_SHIFT bytes.  What the layout does
 * to a workload hangs on where the mmap area's top falls in the page
 * tables (docs/comparison.md, "Why the layout moves mmap1"): its page in
 * a PTE table's span (rnd's low PAGE_SHIFT - 3 bits: 9, a 2 MiB block,
 * with 4 KiB pages) and that block in a PMD table's span (the next as
 * many, or what mmap_rnd_bits leaves: a 1 GiB region with 4 KiB pages).
 * Those two follow two Kronecker sequences, so the layouts a record runs
 * spread evenly over both, as ASLR's draws do only on average: with 4 KiB
 * pages, each eighth of either holds 3 to 5 of a 6-run workload's 30
 * layouts over 5 boots, and within 2 of even for every shape from 1 run
 * a boot to 64 (tests/unit/test_layout_draw.c).  The bits above, which
 * no figure follows, come from splitmix64.  Every N is one value of rnd
 * ASLR could draw, given the kernel's mmap_rnd_bits.
 */
unsigned long long bench_layout_rnd_pages(unsigned long long n, unsigned int bits,
					  unsigned int page_shift)
{
	unsigned int table = page_shift - 3;
	unsigned int place = bits < table ? bits : table;
	unsigned int block = bits - place < table ? bits - place : table;
	unsigned long long high = splitmix64(n) & ((1ULL << (bits - place - block)) - 1);

	return high << (place + block) | kronecker(n, LAYOUT_ALPHA_BLOCK, block) << place |
	       kronecker(n, LAYOUT_ALPHA_PLACE, place);
}
