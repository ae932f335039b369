// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of layout N's draw (scripts/mseal-bench/layout_draw.c): rnd
 * inside mmap_rnd_bits, and spread evenly over the two things that move
 * the figures, the mmap area's page in a PTE table's span (rnd's low
 * PAGE_SHIFT - 3 bits) and that span in a PMD table's (the next bits),
 * over the layouts a record runs: boot k runs layouts first + 64 * k on.
 * Independent draws fail the spread checks most of the time.
 */
#include "../../scripts/mseal-bench/layout_draw.c"
#include "utap.h"

/*
 * RUNS layouts a boot over BOOTS boots, FIRST the first, in CELLS equal
 * parts of the place and of the block: true when every part holds the
 * even share, rounded down or up, give or take SLACK.
 */
static int spread(unsigned long long first, int runs, int boots, unsigned int cells, int slack,
		  unsigned int bits, unsigned int page_shift)
{
	unsigned int table = page_shift - 3, i;
	unsigned int place_bits = bits < table ? bits : table;
	unsigned int block_bits = bits - place_bits < table ? bits - place_bits : table;
	int place[16] = { 0 }, block[16] = { 0 }, n = runs * boots, k, r;
	unsigned long long v;

	for (k = 0; k < boots; k++)
		for (r = 0; r < runs; r++) {
			v = bench_layout_rnd_pages(first + 64ULL * k + r, bits, page_shift);
			place[(v & ((1ULL << place_bits) - 1)) * cells >> place_bits]++;
			block[((v >> place_bits) & ((1ULL << block_bits) - 1)) * cells >> block_bits]++;
		}
	for (i = 0; i < cells; i++) {
		if (place[i] < n / (int)cells - slack || place[i] > (n + (int)cells - 1) / (int)cells + slack)
			return 0;
		if (block[i] < n / (int)cells - slack || block[i] > (n + (int)cells - 1) / (int)cells + slack)
			return 0;
	}
	return 1;
}

int main(void)
{
	int place_hit[512] = { 0 }, block_hit[512] = { 0 }, places = 0, blocks = 0;
	unsigned long long n, over18 = 0, over = 0;

	utap_plan(15);
	/* Pinned: a changed draw changes every recorded seeded figure. */
	utap_eq_u64(bench_layout_rnd_pages(1, 28, 12), 50711868ULL, "layout 1, 28 bits, 4 KiB pages: pinned");
	utap_eq_u64(bench_layout_rnd_pages(7, 28, 12), 123507879ULL, "layout 7, 28 bits, 4 KiB pages: pinned");
	utap_eq_u64(bench_layout_rnd_pages(7, 18, 12), bench_layout_rnd_pages(7, 28, 12) & 0x3ffff,
		    "layout 7, 18 bits (arm64, 4 KiB): the 28-bit draw's low 18 bits");
	utap_eq_u64(bench_layout_rnd_pages(7, 16, 14), 8860ULL, "layout 7, 16 bits, 16 KiB pages: pinned");
	utap_eq_u64(bench_layout_rnd_pages(7, 14, 16), 2672ULL, "layout 7, 14 bits, 64 KiB pages: pinned");

	for (n = 1; n <= 512; n++) {
		if (!place_hit[bench_layout_rnd_pages(n, 28, 12) & 511]++)
			places++;
		if (!block_hit[(bench_layout_rnd_pages(n, 28, 12) >> 9) & 511]++)
			blocks++;
	}
	/* A Kronecker sequence's 512 points in 512 cells: most, every time the same. */
	utap_eq_u64(places, 454, "layouts 1..512: 454 of the 512 places in the 2 MiB block");
	utap_eq_u64(blocks, 365, "layouts 1..512: 365 of the 512 blocks of the 1 GiB region");

	/* The shapes records run: make demo's, vm --clock wall's and loop's, longer ones. */
	utap_ok(spread(1, 6, 5, 8, 1, 28, 12) && spread(1, 32, 5, 8, 2, 28, 12),
		"make demo's shapes: 6 runs over 5 boots, every eighth within 1 of even; 32, within 2");
	utap_ok(spread(1, 1, 5, 4, 0, 28, 12) && spread(1, 1, 6, 4, 0, 28, 12) &&
		spread(1, 1, 12, 4, 1, 28, 12) && spread(1, 1, 30, 8, 1, 28, 12) &&
		spread(1, 1, 40, 8, 1, 28, 12) && spread(1, 2, 15, 8, 1, 28, 12),
		"1 run a boot over 5, 6, 12, 30 and 40 boots, 2 over 15: every part within 1 of even");
	utap_ok(spread(1, 64, 5, 8, 2, 28, 12) && spread(1, 64, 10, 8, 2, 28, 12),
		"64 runs a boot (--runs-of mmap1:64) over 5 and 10 boots: every eighth within 2 of even");
	utap_ok(spread(1, 32, 1, 8, 2, 28, 12) && spread(65, 32, 1, 8, 2, 28, 12) &&
		spread(1000, 32, 1, 8, 2, 28, 12), "32 consecutive layouts: every eighth within 2 of even");
	utap_ok(spread(1, 6, 5, 8, 1, 16, 14) &&
		spread(1, 6, 5, 2, 1, 14, 16),
		"arm64 16 and 64 KiB pages at their default bits: every part within 1 of even");

	for (n = 1; n <= 4096; n++) {
		over18 |= bench_layout_rnd_pages(n, 28, 12) >> 18;
		over |= bench_layout_rnd_pages(n, 28, 12) >> 28;
		over |= bench_layout_rnd_pages(n, 18, 12) >> 18;
		over |= bench_layout_rnd_pages(n, 16, 14) >> 16;
		over |= bench_layout_rnd_pages(n, 14, 16) >> 14;
		over |= bench_layout_rnd_pages(n, 8, 12) >> 8;
		over |= bench_layout_rnd_pages(n, 32, 12) >> 32;
		over |= bench_layout_rnd_pages(n, 33, 12) >> 33;
		over |= bench_layout_rnd_pages(n, 40, 16) >> 40;
	}
	utap_ok(over18 != 0, "28 bits: the bits above the region drawn too");
	utap_eq_u64(over, 0, "never past mmap_rnd_bits (8 to 40)");
	utap_eq_u64(bench_layout_rnd_pages(7, 8, 12), 83ULL, "8 bits, fewer than a table's 9: the place's top 8");
	return utap_done();
}
