/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What makes a comparison of boot records doubtful, each said with what to
 * do instead: too few boots, records of different machines or CPU
 * settings, boots that did not alternate.  The report still reports.
 */
#ifndef WARN_H
#define WARN_H

#include "records.h"

#define WARN_MAX 8
#define WARN_LEN 512
#define WARN_MIN_BOOTS 5

/* The warnings for the boots ia[] of A and ib[] of B (in time order); how many. */
int compare_warnings(const struct record *recs, const int *ia, int na, const int *ib, int nb,
		     char out[WARN_MAX][WARN_LEN]);

#endif
