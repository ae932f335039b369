/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which release of a folder is A (the pre-series, the baseline) and which
 * is B.  The sign of every delta hangs on it, so the report says how it
 * was chosen whenever the user did not say it.
 */
#ifndef CHOOSE_H
#define CHOOSE_H

#include <stddef.h>

#include "records.h"

enum ab_how {
	AB_GIVEN,	/* --baseline or --a named A */
	AB_NAMED,	/* the one release whose name says pre-series */
	AB_FIRST,	/* the first boot's release: nothing else said which */
};

struct ab_choice {
	const char *a, *b;
	enum ab_how how;
	const char *rels[REC_MAX];	/* every release, in the order of its first boot */
	int nrel;
};

/* A release name that says it is the kernel before the series ("6.12.118-mseal-preseries"). */
int choose_is_preseries(const char *release);

/*
 * Choose A and B among the n records (time order).  want_a (--baseline or
 * --a) and want_b (--b) may be NULL.  A given alone, B is the first other
 * release in time order; B given alone, A is the pre-series-named release,
 * else the first other.  Neither: A is the one release named pre-series,
 * else the first boot's; B the first other.  0, or -1 with a reason.
 */
int choose_ab(const struct record *recs, int n, const char *want_a, const char *want_b,
	      struct ab_choice *out, char *err, size_t errlen);

#endif
