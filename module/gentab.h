/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gentab.h - per-CPU cells under reset generations.  A reset writes no
 * table; each cell keeps its generation, its owner zeroes it (one cell,
 * never the table, with preemption off) at its first update in a newer
 * one, and readers take another generation's cell for zeros.  Generation
 * 0 is never current, so every cell is ms_cell_zero()ed before use.
 *
 * A snapshot that a reset overtakes would mix two generations: it reads
 * the generation again after the sum and starts over when it moved.
 * Pure C (unit-tested); the caller keeps writer and readers apart.
 */
#ifndef MSEAL_STATS_GENTAB_H
#define MSEAL_STATS_GENTAB_H

#include "cell.h"

struct ms_gen_table {
	unsigned long gen[MS_NCELLS];	/* the generation each cell holds */
	struct ms_table table;
};

/* Account one call to cell CELL in generation GEN (the owner only). */
static __always_inline void ms_gen_add(struct ms_gen_table *t, unsigned long gen,
				       unsigned int cell, u64 ns, bool bad, bool error)
{
	struct ms_cell *c = &t->table.cell[cell];

	if (unlikely(t->gen[cell] != gen)) {
		ms_cell_zero(c);
		WRITE_ONCE(t->gen[cell], gen);
	}
	ms_cell_add(c, ns, bad, error);
}

/* Cell CELL of T as of generation GEN: zeros when it holds another. */
static inline void ms_gen_read(const struct ms_gen_table *t, unsigned long gen,
			       unsigned int cell, struct ms_cell *out)
{
	if (READ_ONCE(t->gen[cell]) == gen)
		*out = t->table.cell[cell];
	else
		memset(out, 0, sizeof(*out));
}

/* Where a snapshot reads from: the generation now, and a sum as of one. */
struct ms_gen_source {
	unsigned long (*generation)(void *arg);
	void (*sum)(void *arg, unsigned long gen, struct ms_table *snap);
	void *arg;
};

/* Sum SRC into *SNAP, all of one generation, and return that generation. */
static inline unsigned long ms_gen_snapshot(const struct ms_gen_source *src,
					    struct ms_table *snap)
{
	unsigned long gen = src->generation(src->arg), now;

	for (;;) {
		src->sum(src->arg, gen, snap);
		now = src->generation(src->arg);
		if (now == gen)
			return gen;
		gen = now;
	}
}

#endif /* MSEAL_STATS_GENTAB_H */
