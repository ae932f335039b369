// SPDX-License-Identifier: GPL-2.0
/* Warnings about a comparison's records: see warn.h. */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "warn.h"

/* The boots of A and B in time order, and the warnings said so far. */
struct scan {
	const struct record *recs;
	int all[2 * REC_MAX], n;
	char side[2 * REC_MAX + 1];
	char (*out)[WARN_LEN];
	int k;
};

static void say(struct scan *s, const char *fmt, ...)
{
	va_list ap;

	if (s->k == WARN_MAX)
		return;
	va_start(ap, fmt);
	vsnprintf(s->out[s->k++], WARN_LEN, fmt, ap);
	va_end(ap);
}

#define REC(s, i) (&(s)->recs[(s)->all[i]])

/* The first record whose string at OFF differs from the first's, or -1. */
static int first_different(const struct scan *s, size_t off)
{
	const char *first = (const char *)REC(s, 0) + off;
	int i;

	for (i = 1; i < s->n; i++)
		if (strcmp((const char *)REC(s, i) + off, first))
			return i;
	return -1;
}
#define FIRST_DIFFERENT(s, field) first_different(s, offsetof(struct record, field))

/* Boots of A and B together, in time order (records are sorted by time). */
static void merge(struct scan *s, const int *ia, int na, const int *ib, int nb)
{
	int i = 0, j = 0;

	s->n = 0;
	while (i < na || j < nb) {
		if (j >= nb || (i < na && ia[i] < ib[j])) {
			s->side[s->n] = 'A';
			s->all[s->n++] = ia[i++];
		} else {
			s->side[s->n] = 'B';
			s->all[s->n++] = ib[j++];
		}
	}
}

int warn_busy(const struct record *r)
{
	return r->cpus > 0 && r->load1 > WARN_BUSY_PER_CPU * r->cpus;
}

/* Where the machine exposes a governor ("" in guests and most VMs). */
int warn_governor_other(const struct record *r)
{
	return r->governor[0] && strcmp(r->governor, "performance");
}

int warn_turbo_on(const struct record *r)
{
	return !strcmp(r->turbo, "on");
}

int warn_options_differ(const struct record *first, const struct record *r)
{
	return strcmp(first->options, r->options) != 0;
}

/* How many boots meet cond, and the first of them (-1: none). */
static int count(const struct scan *s, int (*cond)(const struct record *), int *first)
{
	int i, n = 0;

	*first = -1;
	for (i = 0; i < s->n; i++)
		if (cond(REC(s, i)) && n++ == 0)
			*first = i;
	return n;
}

/*
 * Not on the instruction clock: there a boot repeats to 0.1 % and the
 * spread is the seeds' (the kernel's layout), which each workload's stop
 * rule weighs; five boots is a rule for the wall clock's noise.
 */
static void few_boots(struct scan *s, int na, int nb)
{
	if (s->n && !strcmp(REC(s, 0)->clock, "icount"))
		return;
	if (na < WARN_MIN_BOOTS || nb < WARN_MIN_BOOTS)
		say(s, "only %d boot(s) of A and %d of B: with fewer than %d of each the intervals "
		    "are too wide to trust; record at least %d boots of each kernel "
		    "(12 or more for a figure to publish)",
		    na, nb, WARN_MIN_BOOTS, WARN_MIN_BOOTS);
}

static void machines(struct scan *s)
{
	int d;

	if ((d = FIRST_DIFFERENT(s, cpu)) >= 0)
		say(s, "the records come from different machines (CPU \"%s\" in %s, \"%s\" in %s): "
		    "compare boots of one machine only; record both kernels on the same one",
		    REC(s, 0)->cpu, REC(s, 0)->name, REC(s, d)->cpu, REC(s, d)->name);
	else if ((d = FIRST_DIFFERENT(s, machine)) >= 0)
		say(s, "the records come from different machines (machine-id hash %.12s in %s, %.12s in %s): "
		    "compare boots of one machine only; record both kernels on the same one",
		    REC(s, 0)->machine, REC(s, 0)->name, REC(s, d)->machine, REC(s, d)->name);
}

static void settings_differ(struct scan *s)
{
	int d;

	if ((d = FIRST_DIFFERENT(s, governor)) >= 0 || (d = FIRST_DIFFERENT(s, turbo)) >= 0)
		say(s, "the CPU settings differ between boots (governor \"%s\", turbo \"%s\" in %s; "
		    "\"%s\", \"%s\" in %s): fix the governor and turbo before every boot, the same for both kernels",
		    REC(s, 0)->governor, REC(s, 0)->turbo, REC(s, 0)->name,
		    REC(s, d)->governor, REC(s, d)->turbo, REC(s, d)->name);
}

static void options_differ(struct scan *s)
{
	int d = FIRST_DIFFERENT(s, options);

	if (d >= 0)
		say(s, "the records were made with different options (%s in %s, %s in %s): runs of other "
		    "lengths or workloads do not compare; record every boot with the same record options",
		    REC(s, 0)->options[0] ? REC(s, 0)->options : "none recorded", REC(s, 0)->name,
		    REC(s, d)->options[0] ? REC(s, d)->options : "none recorded", REC(s, d)->name);
}

static void busy(struct scan *s)
{
	int f, n = count(s, warn_busy, &f);

	if (n)
		say(s, "%d boot(s) started busy (first %s: load average %.2f on %d CPU(s), above %.1f a CPU): "
		    "other work shared the machine; record on a quiet machine, nothing else running, "
		    "once the boot has settled",
		    n, REC(s, f)->name, REC(s, f)->load1, REC(s, f)->cpus, WARN_BUSY_PER_CPU);
}

/*
 * What the loop asked of the CPU at record r's boot, for a warning's tail:
 * "; at NAME the loop asked for ... and found ..." where it asked for
 * something, else the advice ADVICE.
 */
/* Whether `loop start --governor/--no-turbo` asked for anything at r's boot. */
static int loop_asked(const struct record *r)
{
	return !strncmp(r->cpu_settings, "asked: ", 7) && strncmp(r->cpu_settings, "asked: nothing", 14);
}

static const char *asked_or(const struct record *r, const char *advice)
{
	static char buf[WARN_LEN];

	if (!loop_asked(r))
		return advice;
	snprintf(buf, sizeof(buf), "; at %s the loop said \"%s\"", r->name, r->cpu_settings);
	return buf;
}

static void governor(struct scan *s)
{
	int f, n = count(s, warn_governor_other, &f);

	if (n)
		say(s, "%d boot(s) ran under the frequency governor \"%s\" (first %s), not performance: "
		    "the clock speed moved under the runs%s",
		    n, REC(s, f)->governor, REC(s, f)->name,
		    asked_or(REC(s, f), "; set the governor to performance before every boot "
			     "(cpupower frequency-set -g performance, or mseal-compare loop start --governor performance)"));
}

static void turbo(struct scan *s)
{
	int f, n = count(s, warn_turbo_on, &f);

	if (n)
		say(s, "%d boot(s) ran with turbo on (first %s): the clock speed follows temperature and load%s",
		    n, REC(s, f)->name,
		    asked_or(REC(s, f), "; switch it off before every boot (1 to /sys/devices/system/cpu/intel_pstate/no_turbo, "
			     "or 0 to /sys/devices/system/cpu/cpufreq/boost, or mseal-compare loop start --no-turbo)"));
}

/* A setting the loop asked for that the kernel refused at that boot. */
int warn_settings_refused(const struct record *r)
{
	return loop_asked(r) && strstr(r->cpu_settings, "refused");
}

static void refused(struct scan *s)
{
	int f, n = count(s, warn_settings_refused, &f);

	if (n)
		say(s, "%d boot(s) ran without the CPU settings the loop asked for: the kernel refused them "
		    "(first %s: \"%s\"); choose a governor the machine has (scaling_available_governors) "
		    "or leave the setting out",
		    n, REC(s, f)->name, REC(s, f)->cpu_settings);
}

/* One switch from A to B with two or more boots each: no alternation. */
static void order(struct scan *s, int na, int nb)
{
	int i, blocks = 1;

	for (i = 1; i < s->n; i++)
		blocks += s->side[i] != s->side[i - 1];
	if (na >= 2 && nb >= 2 && blocks == 2)
		say(s, "the boots did not alternate (all of %c, then all of %c): whatever drifts over "
		    "time (temperature, updates, other load) falls on one kernel; reboot in ABBA "
		    "order (A B B A A B B A ...)",
		    s->side[0], s->side[s->n - 1]);
}

int warn_compare(const struct record *recs, const int *ia, int na, const int *ib, int nb,
		 char out[WARN_MAX][WARN_LEN])
{
	static struct scan s;

	s.recs = recs;
	s.out = out;
	s.k = 0;
	merge(&s, ia, na, ib, nb);
	few_boots(&s, na, nb);
	machines(&s);
	settings_differ(&s);
	options_differ(&s);
	busy(&s);
	governor(&s);
	turbo(&s);
	refused(&s);
	order(&s, na, nb);
	return s.k;
}
