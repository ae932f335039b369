// SPDX-License-Identifier: GPL-2.0
/*
 * cell.c - merging statistics cells: how the per-CPU tables are summed into
 * one snapshot.  Pure C: also built into the unit tests.
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

void ms_table_merge(struct ms_table *dst, const struct ms_table *src)
{
	unsigned int i;

	for (i = 0; i < MS_NCELLS; i++)
		ms_cell_merge(&dst->cell[i], &src->cell[i]);
}

u64 ms_cell_mean(const struct ms_cell *c)
{
	return c->count ? c->total_ns / c->count : 0;
}
