/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cache.h - the cache model behind the memory clock: set-associative
 * caches with LRU replacement, a private L1I, L1D and L2 per vCPU and one
 * last-level cache they share.  Plain C with no QEMU in it, so the unit
 * tests (tests/unit/test_memclock_cache.c) run it on known address
 * streams.
 *
 * What it models: which level each access of a line is served from,
 * write-allocate, no prefetcher, no write-backs, no TLB.  The levels are
 * not inclusive: a line is filled into every level it missed in, and each
 * level evicts on its own.
 */
#ifndef MC_CACHE_H
#define MC_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct mc_cache {
	unsigned int sets, ways, line_shift;
	uint64_t *tag;		/* sets * ways: the line's number + 1, 0 empty */
	uint64_t *used;		/* sets * ways: the tick of the last hit or fill */
	uint64_t tick;
	uint64_t accesses, misses;
};

/* A geometry: SIZE bytes, WAYS ways; "48K:12", "2M:16". */
struct mc_geometry {
	size_t size;
	unsigned int ways;
};

/* 0, or -1 when the text is no geometry (size and ways are then untouched). */
int mc_geometry_parse(const char *text, struct mc_geometry *g);

/*
 * 0, or -1 when the geometry does not divide into whole sets of LINE-byte
 * lines (LINE a power of two) or memory is short.
 */
int mc_cache_init(struct mc_cache *c, const struct mc_geometry *g, unsigned int line);
void mc_cache_free(struct mc_cache *c);

/* Whether ADDR's line is in C; a miss fills it over the least recently used. */
bool mc_cache_access(struct mc_cache *c, uint64_t addr);

/* Where an access was served from. */
enum mc_level { MC_L1, MC_L2, MC_LLC, MC_MEM };

/* One vCPU's caches; llc is shared. */
struct mc_cpu {
	struct mc_cache l1i, l1d, l2;
	struct mc_cache *llc;
};

/* One access through the hierarchy: L1I or L1D, then L2, then the LLC. */
enum mc_level mc_access(struct mc_cpu *cpu, bool insn, uint64_t addr);

#endif /* MC_CACHE_H */
