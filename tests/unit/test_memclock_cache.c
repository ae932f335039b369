// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the memory clock's cache model (testbed/memclock/cache.c)
 * on address streams whose hits and misses are known by hand.
 */
#include "../../testbed/memclock/cache.c"
#include "utap.h"

int main(void)
{
	struct mc_geometry g, two_sets = { 4 * 64, 2 }, l1 = { 1024, 2 }, l2 = { 4096, 4 },
			      l3 = { 16384, 4 };
	struct mc_cache c, llc;
	struct mc_cpu cpu;
	uint64_t a, hits;
	int lv[4] = { 0 };

	utap_plan(13);

	utap_ok(!mc_geometry_parse("48K:12", &g) && g.size == 48 << 10 && g.ways == 12,
		"geometry 48K:12 is 49152 bytes, 12 ways");
	utap_ok(!mc_geometry_parse("2M:16", &g) && g.size == 2 << 20 && g.ways == 16,
		"geometry 2M:16");
	utap_ok(mc_geometry_parse("48K", &g) && mc_geometry_parse("K:4", &g) &&
		mc_geometry_parse("4K:0", &g) && mc_geometry_parse("4K:8x", &g),
		"no ways, no size, 0 ways, trailing text: refused");
	utap_ok(mc_cache_init(&c, &(struct mc_geometry){ 1000, 2 }, 64) &&
		mc_cache_init(&c, &(struct mc_geometry){ 4 * 64, 3 }, 64) &&
		mc_cache_init(&c, &two_sets, 48),
		"a size not of whole lines, lines not of whole sets, a line not a power of two: refused");

	/* 2 sets of 2 ways: lines 0, 2, 4 share set 0. */
	utap_ok(!mc_cache_init(&c, &two_sets, 64) && c.sets == 2 && c.ways == 2, "4 lines in 2 sets of 2 ways");
	utap_ok(!mc_cache_access(&c, 0) && mc_cache_access(&c, 63) && !mc_cache_access(&c, 64),
		"line 0 misses, then hits at its last byte; line 1 misses");
	/* Set 0 holds lines 0 and 2; touch 0, then 4 evicts 2, the older. */
	mc_cache_access(&c, 2 * 64);
	mc_cache_access(&c, 0);
	mc_cache_access(&c, 4 * 64);
	utap_ok(mc_cache_access(&c, 0) && !mc_cache_access(&c, 2 * 64),
		"LRU: after 0, 2, 0, 4 in one set, 0 stays and 2 was evicted");
	utap_eq_u64(c.accesses * 1000 + c.misses, 8 * 1000 + 5, "8 accesses, 5 misses");
	mc_cache_free(&c);

	/* A scan of twice the cache, twice: LRU misses every line both times. */
	mc_cache_init(&c, &l1, 64);
	for (hits = 0, a = 0; a < 2 * 2048; a += 64)
		hits += mc_cache_access(&c, a % 2048);
	utap_eq_u64(hits, 0, "a cyclic scan of 2 KiB through 1 KiB, LRU: no hit");
	mc_cache_free(&c);

	/* The hierarchy: L1 1 KiB, L2 4 KiB, LLC 16 KiB. */
	mc_cache_init(&cpu.l1i, &l1, 64);
	mc_cache_init(&cpu.l1d, &l1, 64);
	mc_cache_init(&cpu.l2, &l2, 64);
	mc_cache_init(&llc, &l3, 64);
	cpu.llc = &llc;
	for (a = 0; a < 8192; a += 64)	/* 128 lines, cold */
		lv[mc_access(&cpu, false, a)]++;
	utap_ok(lv[MC_MEM] == 128 && lv[MC_L1] + lv[MC_L2] + lv[MC_LLC] == 0,
		"128 cold lines: all from memory");
	memset(lv, 0, sizeof(lv));
	for (a = 0; a < 8192; a += 64)	/* again: 8 KiB fits the LLC only */
		lv[mc_access(&cpu, false, a)]++;
	utap_ok(lv[MC_LLC] == 128, "the same 8 KiB again: all from the LLC (L1 and L2 too small)");
	memset(lv, 0, sizeof(lv));
	for (a = 0; a < 512; a += 64)	/* 8 lines: now in L1D */
		mc_access(&cpu, false, a);
	for (a = 0; a < 512; a += 64)
		lv[mc_access(&cpu, false, a)]++;
	utap_ok(lv[MC_L1] == 8, "8 lines read twice: the second time from L1D");
	utap_ok(mc_access(&cpu, true, 0) == MC_L2,
		"an instruction fetch of a line L1D holds: L1I misses, L2 has it");
	mc_cache_free(&cpu.l1i);
	mc_cache_free(&cpu.l1d);
	mc_cache_free(&cpu.l2);
	mc_cache_free(&llc);
	return utap_done();
}
