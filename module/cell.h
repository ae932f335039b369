/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cell.h - one statistics cell (count, refused, errors, total/min/max ns and
 * a log2 histogram) and the table of cells kept per CPU.
 *
 * Histogram bucket k holds durations in [2^k, 2^(k+1) - 1] ns; bucket 0 also
 * holds 0.  These are the rows of bcc's funclatency: 0 -> 1, 2 -> 3, 4 ->
 * 7, ...  One bucket per bit of a u64 (64-bit kernels only), so that
 * every value has its own and the hot path needs no clamp (a compare, a
 * move and a cmov fewer a record); the last is open-ended only in name.
 */
#ifndef MSEAL_STATS_CELL_H
#define MSEAL_STATS_CELL_H

#include "env.h"
#include "names.h"

#define MS_HIST_BUCKETS	64

struct ms_cell {
	u64 count;	/* calls (syscalls) or checks made */
	u64 bad;	/* syscalls: returned -EPERM; checks: refused */
	u64 errors;	/* syscalls: other errors; checks: unused */
	u64 total_ns;
	u64 min_ns;	/* meaningful only when count > 0 (U64_MAX or 0 when not) */
	u64 max_ns;
	u64 hist[MS_HIST_BUCKETS];
};

/*
 * The cells, flat: one per syscall, one per (row, check) where a row is a
 * syscall, "other" or "worker" (names.h), and one for the calibration probe.
 */
#define MS_CELL_SYS(s)		(s)
#define MS_CELL_CHK(r, c)	(MS_NSYS + (r) * MS_NCHK + (c))
#define MS_CELL_CALIB		(MS_NSYS + MS_NROWS * MS_NCHK)
#define MS_NCELLS		(MS_CELL_CALIB + 1)

struct ms_table {
	struct ms_cell cell[MS_NCELLS];
};

/*
 * The bucket of NS: 0 and 1 in bucket 0 (ns | 1: no zero test), then the
 * index of its highest bit, below 64 = MS_HIST_BUCKETS.  Kept an unsigned
 * long, as __fls() gives it, so that indexing needs no zero-extension.
 */
_Static_assert(MS_HIST_BUCKETS == 8 * sizeof(unsigned long),
	       "ms_hist_bucket() has no clamp: __fls() is below BITS_PER_LONG");

static __always_inline unsigned long ms_hist_bucket(u64 ns)
{
	return __fls(ns | 1);
}

/* Lowest and highest value of bucket B (U64_MAX: open-ended). */
static inline u64 ms_hist_low(unsigned int b)
{
	return b == 0 ? 0 : 1ULL << b;
}

static inline u64 ms_hist_high(unsigned int b)
{
	return b >= MS_HIST_BUCKETS - 1 ? U64_MAX : (2ULL << b) - 1;
}

/*
 * An empty cell, its minimum seeded with the largest value, so that
 * ms_cell_add() needs no "is this the first call" test.  Every writer's
 * cell is zeroed by this (gentab.h, at its first update in a generation),
 * never by a bare memset; a reader's copy of an empty cell may be all
 * zeros (count 0: its min means nothing).
 */
static __always_inline void ms_cell_zero(struct ms_cell *c)
{
	memset(c, 0, sizeof(*c));
	c->min_ns = U64_MAX;
}

/* Every cell of T, as ms_cell_zero(). */
void ms_table_zero(struct ms_table *t);

/*
 * Account one call of NS nanoseconds into C, zeroed by ms_cell_zero().
 * Callers keep C to themselves.
 */
static __always_inline void ms_cell_add(struct ms_cell *c, u64 ns, bool bad, bool error)
{
	if (ns < c->min_ns)
		c->min_ns = ns;
	if (ns > c->max_ns)
		c->max_ns = ns;
	c->count++;
	c->bad += bad;
	c->errors += error;
	c->total_ns += ns;
	c->hist[ms_hist_bucket(ns)]++;
}

void ms_cell_merge(struct ms_cell *dst, const struct ms_cell *src);
void ms_table_merge(struct ms_table *dst, const struct ms_table *src);
/* The mean ns of C's calls, rounded down; 0 when there are none. */
u64 ms_cell_mean(const struct ms_cell *c);
/*
 * The PCT-th percentile (PCT in 1..100) of C's call times, estimated from
 * its log2 histogram: the call of nearest rank ceil(PCT * count / 100) lies
 * in bucket b, as the j-th of the n calls there; its estimate is
 * lo + (hi - lo) * j / n (rounded down), linear interpolation across the
 * bucket, where [lo, hi] is the bucket's range [2^b, 2^(b+1) - 1] narrowed
 * to the cell's exact [min, max].  So it never leaves [min, max], is exact
 * for a cell of one value, is the bucket's upper bound (or max) for the
 * last call of a bucket, and is within the bucket's width (a factor of 2)
 * of the true value otherwise.  0 when count is 0.
 */
u64 ms_cell_percentile(const struct ms_cell *c, unsigned int pct);
/*
 * The median of the N > 0 values in V (sorted in place); of an even N,
 * the mean of the two middle ones, rounded down.
 */
u64 ms_median(u64 *v, unsigned int n);

#endif /* MSEAL_STATS_CELL_H */
