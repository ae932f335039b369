// SPDX-License-Identifier: GPL-2.0
/*
 * cache.c - the memory clock's cache model (cache.h).
 *
 * A set is its ways' tags and last-use ticks side by side; a look-up scans
 * the ways, a miss replaces the way used longest ago (an empty way has
 * tick 0, so it goes first).  The set is the line number modulo the
 * number of sets, which need not be a power of two (a 1.25 MiB 10-way L2
 * has 2048 sets, but a 30 MiB 16-way LLC 30720, a 3 MiB 16-way one 3072).
 */
#include <stdlib.h>
#include <string.h>

#include "cache.h"

int mc_geometry_parse(const char *text, struct mc_geometry *g)
{
	unsigned long long size, ways;
	char *end;

	size = strtoull(text, &end, 10);
	if (end == text)
		return -1;
	switch (*end) {
	case 'K': size <<= 10; end++; break;
	case 'M': size <<= 20; end++; break;
	default: break;
	}
	if (*end++ != ':')
		return -1;
	ways = strtoull(end, &end, 10);
	if (*end || !size || !ways || ways > 64)
		return -1;
	g->size = (size_t)size;
	g->ways = (unsigned int)ways;
	return 0;
}

int mc_cache_init(struct mc_cache *c, const struct mc_geometry *g, unsigned int line)
{
	size_t lines;

	memset(c, 0, sizeof(*c));
	if (!line || (line & (line - 1)) || g->size % line)
		return -1;
	lines = g->size / line;
	if (!g->ways || lines % g->ways)
		return -1;
	c->sets = (unsigned int)(lines / g->ways);
	c->ways = g->ways;
	c->line_shift = (unsigned int)__builtin_ctz(line);
	c->tag = calloc(lines, sizeof(*c->tag));
	c->used = calloc(lines, sizeof(*c->used));
	if (!c->tag || !c->used) {
		mc_cache_free(c);
		return -1;
	}
	return 0;
}

void mc_cache_free(struct mc_cache *c)
{
	free(c->tag);
	free(c->used);
	c->tag = c->used = NULL;
}

bool mc_cache_access(struct mc_cache *c, uint64_t addr)
{
	uint64_t line = addr >> c->line_shift;
	size_t base = (size_t)(line % c->sets) * c->ways, i, victim = base;

	c->accesses++;
	c->tick++;
	for (i = base; i < base + c->ways; i++) {
		if (c->tag[i] == line + 1) {
			c->used[i] = c->tick;
			return true;
		}
		if (c->used[i] < c->used[victim])
			victim = i;
	}
	c->misses++;
	c->tag[victim] = line + 1;
	c->used[victim] = c->tick;
	return false;
}

enum mc_level mc_access(struct mc_cpu *cpu, bool insn, uint64_t addr)
{
	if (mc_cache_access(insn ? &cpu->l1i : &cpu->l1d, addr))
		return MC_L1;
	if (mc_cache_access(&cpu->l2, addr))
		return MC_L2;
	if (mc_cache_access(cpu->llc, addr))
		return MC_LLC;
	return MC_MEM;
}
