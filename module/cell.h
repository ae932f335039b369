/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cell.h - one statistics cell and the per-CPU table of cells.  Bucket k
 * holds [2^k, 2^(k+1) - 1] ns, bucket 0 also 0 (bcc's funclatency rows);
 * one bucket per bit of a u64, so the hot path needs no clamp.
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

/* One cell per syscall, per (row, check), and one for calibration. */
#define MS_CELL_SYS(s)		(s)
#define MS_CELL_CHK(r, c)	(MS_NSYS + (r) * MS_NCHK + (c))
#define MS_CELL_CALIB		(MS_NSYS + MS_NROWS * MS_NCHK)
#define MS_NCELLS		(MS_CELL_CALIB + 1)

struct ms_table {
	struct ms_cell cell[MS_NCELLS];
};

/* NS's bucket: its highest bit (ns | 1: no zero test); unsigned long: no extension. */
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
 * An empty cell, min seeded so that ms_cell_add() needs no first-call
 * test.  Every writer's cell is zeroed by this, never a bare memset.
 */
static __always_inline void ms_cell_zero(struct ms_cell *c)
{
	memset(c, 0, sizeof(*c));
	c->min_ns = U64_MAX;
}

/* Every cell of T, as ms_cell_zero(). */
void ms_table_zero(struct ms_table *t);

/* Account one call into C, which the caller keeps to itself. */
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
 * The PCT-th percentile (1..100) from the histogram: the call of rank
 * ceil(PCT * count / 100), j-th of n in its bucket, is lo + (hi - lo) * j
 * / n, [lo, hi] the bucket narrowed to [min, max].  Never outside [min,
 * max], exact for one value, within a factor of 2.  0 when count is 0.
 */
u64 ms_cell_percentile(const struct ms_cell *c, unsigned int pct);
/* The median of N > 0 values in V (sorted in place), rounded down. */
u64 ms_median(u64 *v, unsigned int n);

#endif /* MSEAL_STATS_CELL_H */
