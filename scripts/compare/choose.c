// SPDX-License-Identifier: GPL-2.0
/* Choosing A and B: see choose.h. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "choose.h"

int choose_is_preseries(const char *release)
{
	const char *p;

	for (p = release; *p; p++)
		if (!strncasecmp(p, "preseries", 9) || !strncasecmp(p, "pre-series", 10))
			return 1;
	return 0;
}

static void releases(const struct record *recs, int n, struct ab_choice *c)
{
	int i, j;

	c->nrel = 0;
	for (i = 0; i < n; i++) {
		for (j = 0; j < c->nrel && strcmp(c->rels[j], recs[i].release); j++)
			;
		if (j == c->nrel)
			c->rels[c->nrel++] = recs[i].release;
	}
}

/* The first release in time order other than NOT (NULL: any), or NULL. */
static const char *first_other(const struct ab_choice *c, const char *not)
{
	int i;

	for (i = 0; i < c->nrel; i++)
		if (!not || strcmp(c->rels[i], not))
			return c->rels[i];
	return NULL;
}

/* The one release named pre-series, other than NOT; NULL when none or several. */
static const char *named_preseries(const struct ab_choice *c, const char *not)
{
	const char *found = NULL;
	int i;

	for (i = 0; i < c->nrel; i++) {
		if ((not && !strcmp(c->rels[i], not)) || !choose_is_preseries(c->rels[i]))
			continue;
		if (found)
			return NULL;
		found = c->rels[i];
	}
	return found;
}

static int has(const struct ab_choice *c, const char *rel)
{
	int i;

	for (i = 0; i < c->nrel; i++)
		if (!strcmp(c->rels[i], rel))
			return 1;
	return 0;
}

int choose_ab(const struct record *recs, int n, const char *want_a, const char *want_b,
	      struct ab_choice *out, char *err, size_t errlen)
{
	releases(recs, n, out);
	out->a = want_a;
	out->b = want_b;
	out->how = AB_GIVEN;
	if (!out->a) {
		out->a = named_preseries(out, out->b);
		out->how = out->a ? AB_NAMED : AB_FIRST;
		if (!out->a)
			out->a = first_other(out, out->b);
	}
	if (!out->b)
		out->b = first_other(out, out->a);
	if (out->nrel < 2 && !(want_a && want_b)) {
		snprintf(err, errlen, "records of one kernel only (%s, %d boots): record the other kernel too",
			 out->rels[0], n);
		return -1;
	}
	if (!strcmp(out->a, out->b)) {
		snprintf(err, errlen, "A and B are both %s: name two releases", out->a);
		return -1;
	}
	if (!has(out, out->a) || !has(out, out->b)) {
		snprintf(err, errlen, "no records of %s", !has(out, out->a) ? out->a : out->b);
		return -1;
	}
	return 0;
}
