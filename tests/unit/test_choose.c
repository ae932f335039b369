// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of choosing A and B (scripts/compare/choose.c): the sign of
 * every delta of the report hangs on it.
 */
#include "../../scripts/compare/choose.c"
#include "utap.h"

static struct record recs[4];
static struct ab_choice c;
static char err[256];

/* Records of these releases, in time order. */
static int set(const char *r0, const char *r1, const char *r2, const char *r3)
{
	const char *r[4] = { r0, r1, r2, r3 };
	int i;

	for (i = 0; i < 4 && r[i]; i++)
		snprintf(recs[i].release, sizeof(recs[i].release), "%s", r[i]);
	return i;
}

static int pick(int n, const char *a, const char *b)
{
	err[0] = '\0';
	return choose_ab(recs, n, a, b, &c, err, sizeof(err));
}

int main(void)
{
	int n;

	utap_plan(15);

	utap_ok(choose_is_preseries("6.12.118-mseal-preseries"), "the test bed's pre-series release is named so");
	utap_ok(choose_is_preseries("6.12.0-Pre-Series+"), "pre-series, any case");
	utap_ok(!choose_is_preseries("6.12.118-mseal-patched") && !choose_is_preseries("6.1.0-28-amd64"),
		"the patched one and a distribution's are not");

	n = set("6.12-mseal-patched", "6.12-mseal-preseries", "6.12-mseal-preseries", "6.12-mseal-patched");
	utap_ok(!pick(n, NULL, NULL) && !strcmp(c.a, "6.12-mseal-preseries") && !strcmp(c.b, "6.12-mseal-patched") &&
		c.how == AB_NAMED, "patched booted first: A is the release named preseries (AB_NAMED)");
	utap_ok(!pick(n, "6.12-mseal-patched", NULL) && !strcmp(c.a, "6.12-mseal-patched") &&
		!strcmp(c.b, "6.12-mseal-preseries") && c.how == AB_GIVEN, "--baseline wins over the name");
	utap_ok(!pick(n, NULL, "6.12-mseal-preseries") && !strcmp(c.a, "6.12-mseal-patched") && c.how == AB_FIRST,
		"--b names the pre-series one: A is the other, said as the first boot's");
	utap_ok(c.nrel == 2 && !strcmp(c.rels[0], "6.12-mseal-patched"), "releases in the order of their first boot");

	n = set("rel-B", "rel-A", "rel-A", "rel-B");
	utap_ok(!pick(n, NULL, NULL) && !strcmp(c.a, "rel-B") && !strcmp(c.b, "rel-A") && c.how == AB_FIRST,
		"no name says pre-series: A is the first boot's (AB_FIRST, which the report says)");

	n = set("x-preseries", "y-preseries", "z", NULL);
	utap_ok(!pick(n, NULL, NULL) && !strcmp(c.a, "x-preseries") && !strcmp(c.b, "y-preseries") && c.how == AB_FIRST,
		"two releases named preseries: neither is taken by name");
	utap_ok(!pick(n, NULL, "z") && !strcmp(c.a, "x-preseries") && c.how == AB_FIRST,
		"nor with --b");
	utap_ok(!pick(n, "z", NULL) && !strcmp(c.b, "x-preseries"), "--baseline z: B is the first other release");

	utap_ok(pick(n, "nosuch", NULL) && strstr(err, "no records of nosuch"), "--baseline of no record: refused, saying so");
	utap_ok(pick(n, "z", "z") && strstr(err, "A and B are both z"), "the same release twice: refused");
	n = set("only", "only", NULL, NULL);
	utap_ok(pick(n, NULL, NULL) && strstr(err, "records of one kernel only (only, 2 boots)"), "one kernel: refused");
	utap_ok(pick(n, "only", NULL) && strstr(err, "records of one kernel only"), "one kernel with --baseline: refused");
	return utap_done();
}
