/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gentab.h - a CPU's table of cells under reset generations, and the
 * snapshot of one generation over every CPU's table.
 *
 * A reset writes no table: it starts a new generation.  Each cell keeps
 * the generation it holds; its owner zeroes it at its first update in a
 * newer one, and a reader takes a cell of another generation for zeros.
 * Per cell, not per table: the first update after a reset clears one cell
 * (70 words), not the whole table (33 KB with preemption off, a latency
 * spike on PREEMPT_RT).  The tables start as zeros at generation 0, which
 * no snapshot reads: the first generation is 1 (stats.c), so every cell
 * is zeroed the ms_cell_zero() way, its minimum seeded, before its first
 * call is added.
 *
 * A snapshot sums the tables as of one generation.  If a reset comes in
 * the middle, the cells already rolled over read as zeros while the others
 * still hold the old generation: a mix of two.  So the snapshot reads the
 * generation again after the sum and starts over in the new one when it
 * moved.  Resets are root's commands, one at a time (control.c): a
 * snapshot starts over once per reset made while it sums.
 *
 * Pure C: also built into the unit tests (tests/unit/test_gentab.c).  The
 * caller keeps a writer and the readers of a table apart (stats.c: a
 * seqcount per CPU).
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
