/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Boots paired by seed.  On the instruction clock a boot is a function of
 * its inputs, QEMU's -seed among them (the address-space layout the kernel
 * draws, which moves mmap1 by up to 25 %).  When the same seeds
 * were booted on A and on B, a seed's A and B boots make a pair, and the
 * report resamples pairs rather than boots (cmpstats.h,
 * cmp_bootstrap_delta_paired): what a seed does to both kernels alike
 * cancels.  A seed booted more than once on a kernel counts as the median
 * of its boots there; seeds booted on one kernel only are left out of the
 * pairs (the unpaired headline keeps them).
 */
#ifndef SEEDS_H
#define SEEDS_H

#include <stddef.h>

#include "records.h"

/* The distinct seeds of the boots idx[], ascending, into out; how many. */
int seeds_distinct(const struct record *recs, const int *idx, int n, long long *out);

/* The seeds in both sorted lists, into out; how many. */
int seeds_common(const long long *sa, int na, const long long *sb, int nb, long long *out);

/*
 * Per seed: out[i] is the median of the values v[] whose seed_of[] is
 * seeds[i] (NaN values skipped; NaN when there is none).
 */
void seeds_medians(const double *v, const long long *seed_of, size_t n,
		   const long long *seeds, int ns, double *out);

#endif
