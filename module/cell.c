// SPDX-License-Identifier: GPL-2.0
/*
 * cell.c - merging statistics cells: how the per-CPU tables are summed into
 * one snapshot; a cell's mean and percentiles (read side only); and the
 * median calibration takes of its batches.  Pure C:
 * also built into the unit tests.
 */
#include "cell.h"

void ms_cell_merge(struct ms_cell *dst, const struct ms_cell *src)
{
	unsigned int b;

	if (src->count == 0)
		return;
	if (dst->count == 0 || src->min_ns < dst->min_ns)
		dst->min_ns = src->min_ns;
	if (src->max_ns > dst->max_ns)
		dst->max_ns = src->max_ns;
	dst->count += src->count;
	dst->bad += src->bad;
	dst->errors += src->errors;
	dst->total_ns += src->total_ns;
	for (b = 0; b < MS_HIST_BUCKETS; b++)
		dst->hist[b] += src->hist[b];
}

void ms_table_zero(struct ms_table *t)
{
	unsigned int i;

	for (i = 0; i < MS_NCELLS; i++)
		ms_cell_zero(&t->cell[i]);
}

void ms_table_merge(struct ms_table *dst, const struct ms_table *src)
{
	unsigned int i;

	for (i = 0; i < MS_NCELLS; i++)
		ms_cell_merge(&dst->cell[i], &src->cell[i]);
}

u64 ms_cell_mean(const struct ms_cell *c)
{
	return c->count ? div64_u64(c->total_ns, c->count) : 0;
}

/*
 * Nearest rank: the call ranked ceil(PCT * count / 100), for PCT in 1..100,
 * without the product (count * 100 may not fit).
 */
static u64 ms_rank(u64 count, unsigned int pct)
{
	u32 rest;
	u64 q = div_u64_rem(count, 100, &rest);

	return q * pct + (rest * pct + 99) / 100;	/* rest * pct below 100 * 100 */
}

u64 ms_cell_percentile(const struct ms_cell *c, unsigned int pct)
{
	u64 rank, below = 0, lo, hi;
	unsigned int b;

	if (!c->count || !pct || pct > 100)
		return 0;
	rank = ms_rank(c->count, pct);
	for (b = 0; b < MS_HIST_BUCKETS; b++) {
		if (below + c->hist[b] >= rank)
			break;
		below += c->hist[b];
	}
	/* A histogram that sums to less than count: not from ms_cell_add(). */
	if (b == MS_HIST_BUCKETS)
		return c->max_ns;
	lo = ms_hist_low(b) > c->min_ns ? ms_hist_low(b) : c->min_ns;
	hi = ms_hist_high(b) < c->max_ns ? ms_hist_high(b) : c->max_ns;
	if (hi <= lo)
		return lo;
	return lo + mul_u64_u64_div_u64(hi - lo, rank - below, c->hist[b]);
}

u64 ms_median(u64 *v, unsigned int n)
{
	unsigned int i, j;
	u64 x;

	/* Insertion sort: a dozen values, no allocation, no recursion. */
	for (i = 1; i < n; i++) {
		x = v[i];
		for (j = i; j > 0 && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
	return n % 2 ? v[n / 2] : v[n / 2 - 1] / 2 + v[n / 2] / 2 +
		(v[n / 2 - 1] % 2 + v[n / 2] % 2) / 2;
}
