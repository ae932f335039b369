/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The population check: are the seeded layouts (mseal-bench --layout N,
 * the same on both kernels) the layouts users have (ASLR's)?  When DIR's
 * boots ran in seeded layouts and DIR/aslr/ holds boots of the same
 * kernels in ASLR's (`mseal-compare vm --aslr`), then per workload and
 * kernel the per-run figures without the module of the two populations
 * are compared: the two means with their 95 % intervals over layouts and
 * boots (layouts.h), their ratio with its interval, and a two-sample
 * Kolmogorov-Smirnov test of the runs (asymptotic p; the runs of a boot
 * are taken as independent draws, which the layouts are).  Then the
 * headline delta B / A of each: seeded (paired by layout) against ASLR's
 * (unpaired).  Seeded layouts that are the users' population give means
 * within each other's intervals, a ratio whose interval holds 1 and
 * deltas that agree.
 */
#ifndef POPULATION_H
#define POPULATION_H

#include <stdio.h>

#include "records.h"

/*
 * Print the check for the releases A and B of DIR's records recs (their
 * boots ia[], ib[]) to stdout and to txt, when DIR/aslr/ holds boots of
 * both.  Returns 1 when printed, 0 when there is nothing to check, -1
 * (with a line saying why) when DIR/aslr/ cannot serve.
 */
int population_check(const char *dir, const char *rel_a, const char *rel_b,
		     const struct record *recs, const int *ia, int na, const int *ib, int nb,
		     FILE *txt);

#endif
