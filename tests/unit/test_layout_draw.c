// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of layout N's draw (scripts/mseal-bench/layout_draw.c): the
 * same rnd for the same N, inside mmap_rnd_bits, and spread evenly over
 * the two things that move the figures, the mmap area's place in a 2 MiB
 * block (rnd's low 9 bits) and its 2 MiB block in a 1 GiB region (the
 * next 9), over the layouts a record runs.
 */
#include "../../scripts/mseal-bench/layout_draw.c"
#include "utap.h"

#define PLACE(r) ((unsigned int)((r) & 511))
#define BLOCK(r) ((unsigned int)(((r) >> 9) & 511))

/*
 * The layouts a record runs for a workload of RUNS runs a boot over BOOTS
 * boots (record --layout-from: boot k from k * 64 + 1): 3 to 5 in each
 * eighth of the 2 MiB block and of the 1 GiB region for 30 or 32 of them.
 */
static int spread(unsigned long long first, int runs, int boots)
{
	int place[8] = { 0 }, block[8] = { 0 }, i, k;
	unsigned long long r;

	for (k = 0; k < boots; k++)
		for (i = 0; i < runs; i++) {
			r = bench_layout_rnd_pages(first + k * 64 + i, 28);
			place[PLACE(r) >> 6]++;
			block[BLOCK(r) >> 6]++;
		}
	for (i = 0; i < 8; i++)
		if (place[i] < 3 || place[i] > 5 || block[i] < 3 || block[i] > 5)
			return 0;
	return 1;
}

int main(void)
{
	int place_hit[512] = { 0 }, block_hit[512] = { 0 }, places = 0, blocks = 0;
	unsigned long long n, over18 = 0, over28 = 0;

	utap_plan(11);
	/* Pinned: a changed draw changes every recorded seeded figure. */
	utap_eq_u64(bench_layout_rnd_pages(1, 28), 151103804ULL, "layout 1, 28 bits: pinned");
	utap_eq_u64(bench_layout_rnd_pages(7, 28), 154376359ULL, "layout 7, 28 bits: pinned");
	utap_eq_u64(bench_layout_rnd_pages(7, 18), 235687ULL, "layout 7, 18 bits (arm64): the same low bits");
	utap_eq_u64(bench_layout_rnd_pages(7, 28), bench_layout_rnd_pages(7, 28), "layout 7 twice: one rnd");

	for (n = 1; n <= 512; n++) {
		if (!place_hit[PLACE(bench_layout_rnd_pages(n, 28))]++)
			places++;
		if (!block_hit[BLOCK(bench_layout_rnd_pages(n, 28))]++)
			blocks++;
	}
	/* A Kronecker sequence's 512 points in 512 cells: most, not all, every time the same. */
	utap_eq_u64(places, 454, "layouts 1..512: 454 of the 512 places in the 2 MiB block");
	utap_eq_u64(blocks, 456, "layouts 1..512: 456 of the 512 blocks of the 1 GiB region");

	utap_ok(spread(1, 6, 5), "a 6-run workload over 5 boots: 3 to 5 in every eighth");
	utap_ok(spread(1, 32, 1) && spread(65, 32, 1) && spread(1000, 32, 1),
		"32 consecutive layouts: 3 to 5 in every eighth");

	for (n = 1; n <= 4096; n++) {
		over18 |= bench_layout_rnd_pages(n, 28) >> 18;
		over28 |= bench_layout_rnd_pages(n, 28) >> 28;
		over28 |= bench_layout_rnd_pages(n, 18) >> 18;
	}
	utap_ok(over18 != 0, "28 bits: the bits above the region drawn too");
	utap_eq_u64(over28, 0, "never past mmap_rnd_bits (18 and 28)");
	utap_ok(bench_layout_rnd_pages(7, 28) != bench_layout_rnd_pages(8, 28), "layouts 7 and 8: two rnds");
	return utap_done();
}
