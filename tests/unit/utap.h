/* SPDX-License-Identifier: GPL-2.0 */
/* utap.h - the smallest TAP producer, for the unit tests. */
#ifndef MS_UTAP_H
#define MS_UTAP_H

#include <stdio.h>
#include <string.h>

static int utap_n, utap_failed;

#define utap_plan(n) printf("1..%d\n", (n))

#define utap_ok(cond, ...) do {						\
	int ok_ = !!(cond);						\
	printf("%sok %d - ", ok_ ? "" : "not ", ++utap_n);		\
	printf(__VA_ARGS__);						\
	printf("\n");							\
	if (!ok_) {							\
		utap_failed++;						\
		printf("#   failed at %s:%d: %s\n", __FILE__, __LINE__, #cond); \
	}								\
} while (0)

#define utap_eq_u64(got, want, name) do {				\
	unsigned long long g_ = (got), w_ = (want);			\
	utap_ok(g_ == w_, "%s", name);					\
	if (g_ != w_)							\
		printf("#   got %llu, want %llu\n", g_, w_);		\
} while (0)

#define utap_eq_str(got, want, name) do {				\
	const char *g_ = (got), *w_ = (want);				\
	utap_ok(strcmp(g_, w_) == 0, "%s", name);			\
	if (strcmp(g_, w_))						\
		printf("#   got  '%s'\n#   want '%s'\n", g_, w_);	\
} while (0)

#define utap_done() (utap_failed ? 1 : 0)

#endif /* MS_UTAP_H */
