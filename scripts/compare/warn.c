// SPDX-License-Identifier: GPL-2.0
/* Warnings about a comparison's records: see warn.h. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "warn.h"

/* The first record of all[] whose string at OFF differs from the first's, or -1. */
static int first_different(const struct record *recs, const int *all, int n, size_t off)
{
	const char *first = (const char *)&recs[all[0]] + off;
	int i;

	for (i = 1; i < n; i++)
		if (strcmp((const char *)&recs[all[i]] + off, first))
			return all[i];
	return -1;
}
#define FIRST_DIFFERENT(recs, all, n, field) first_different(recs, all, n, offsetof(struct record, field))

/* Boots of A and B together, in time order (records are sorted by time). */
static int merge(const int *ia, int na, const int *ib, int nb, int *all, char *side)
{
	int i = 0, j = 0, n = 0;

	while (i < na || j < nb) {
		if (j >= nb || (i < na && ia[i] < ib[j])) {
			side[n] = 'A';
			all[n++] = ia[i++];
		} else {
			side[n] = 'B';
			all[n++] = ib[j++];
		}
	}
	return n;
}

int compare_warnings(const struct record *recs, const int *ia, int na, const int *ib, int nb,
		     char out[WARN_MAX][WARN_LEN])
{
	static int all[2 * REC_MAX];
	static char side[2 * REC_MAX + 1];
	int n = merge(ia, na, ib, nb, all, side), k = 0, i, blocks = 1, d;

	if (na < WARN_MIN_BOOTS || nb < WARN_MIN_BOOTS)
		snprintf(out[k++], WARN_LEN,
			 "only %d boot(s) of A and %d of B: with fewer than %d of each the intervals "
			 "are too wide to trust; record at least %d boots of each kernel "
			 "(12 or more for a figure to publish)",
			 na, nb, WARN_MIN_BOOTS, WARN_MIN_BOOTS);
	if ((d = FIRST_DIFFERENT(recs, all, n, cpu)) >= 0)
		snprintf(out[k++], WARN_LEN,
			 "the records come from different machines (CPU \"%s\" in %s, \"%s\" in %s): "
			 "compare boots of one machine only; record both kernels on the same one",
			 recs[all[0]].cpu, recs[all[0]].name, recs[d].cpu, recs[d].name);
	else if ((d = FIRST_DIFFERENT(recs, all, n, machine)) >= 0)
		snprintf(out[k++], WARN_LEN,
			 "the records come from different machines (machine-id hash %.12s in %s, %.12s in %s): "
			 "compare boots of one machine only; record both kernels on the same one",
			 recs[all[0]].machine, recs[all[0]].name, recs[d].machine, recs[d].name);
	if ((d = FIRST_DIFFERENT(recs, all, n, governor)) >= 0 ||
	    (d = FIRST_DIFFERENT(recs, all, n, turbo)) >= 0)
		snprintf(out[k++], WARN_LEN,
			 "the CPU settings differ between boots (governor \"%s\", turbo \"%s\" in %s; "
			 "\"%s\", \"%s\" in %s): fix the governor and turbo before every boot, the same for both kernels",
			 recs[all[0]].governor, recs[all[0]].turbo, recs[all[0]].name,
			 recs[d].governor, recs[d].turbo, recs[d].name);
	for (i = 1; i < n; i++)
		blocks += side[i] != side[i - 1];
	/* One switch from A to B with two or more boots each: no alternation. */
	if (na >= 2 && nb >= 2 && blocks == 2)
		snprintf(out[k++], WARN_LEN,
			 "the boots did not alternate (all of %c, then all of %c): whatever drifts over "
			 "time (temperature, updates, other load) falls on one kernel; reboot in ABBA "
			 "order (A B B A A B B A ...)",
			 side[0], side[n - 1]);
	return k;
}
