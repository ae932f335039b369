// SPDX-License-Identifier: GPL-2.0
/*
 * test_inflight.c - the in-flight table of the tracepoint syscall side
 * (module/inflight.h): put and take by owner, collisions within a window,
 * a full window is a miss, a task that put nothing takes nothing, and
 * threads hammering one small table mix up nothing and leave nothing
 * claimed (a put may still miss there: a scan can see every slot taken one
 * at a time while owners come and go; the count is printed).
 */
#include <pthread.h>
#include <stdlib.h>
#include "inflight.h"
#include "utap.h"

#define BITS	6
static struct ms_inflight_slot slots[1 << BITS];
static struct ms_inflight tab = { .slot = slots, .bits = BITS, .shift = 64 - BITS };

/* Owners whose home is slot H: fake task pointers, found by search. */
static const void *owner_at(unsigned int h, unsigned int skip)
{
	unsigned long p;

	for (p = 0x1000; ; p += 64)
		if (ms_inflight_home(&tab, (const void *)p) == h && !skip--)
			return (const void *)p;
}

static void test_one(void)
{
	const void *a = owner_at(5, 0);
	unsigned int cell;
	u64 t0;

	utap_ok(ms_inflight_put(&tab, a, 1, 111, 7), "put: a free home slot");
	utap_ok(slots[5].owner == a, "put: the home slot holds the owner");
	utap_ok(!ms_inflight_take(&tab, owner_at(5, 1), 1, &t0, &cell),
		"take: another owner with the same home finds nothing");
	utap_ok(ms_inflight_take(&tab, a, 1, &t0, &cell) && t0 == 111 && cell == 7,
		"take: the owner gets its t0 and cell back");
	utap_ok(slots[5].owner == NULL, "take: the slot is free again");
	utap_ok(!ms_inflight_take(&tab, a, 1, &t0, &cell), "take: a second take finds nothing");
}

/* The home slot is the fast path: taken first, and again after a collision ends. */
static void test_home(void)
{
	const void *a = owner_at(40, 0), *b = owner_at(40, 1);
	unsigned int cell;
	u64 t0;

	utap_ok(ms_inflight_put(&tab, b, 1, 1, 1) && slots[40].owner == b, "home: b in its home slot");
	utap_ok(ms_inflight_put(&tab, a, 1, 2, 2) && slots[41].owner == a, "home: a, same home, next in the window");
	utap_ok(ms_inflight_take(&tab, b, 1, &t0, &cell) && slots[40].owner == NULL, "home: b leaves");
	utap_ok(ms_inflight_take(&tab, a, 1, &t0, &cell) && t0 == 2, "home: a found in the window past a free home");
	utap_ok(ms_inflight_put(&tab, a, 1, 3, 3) && slots[40].owner == a, "home: a's next syscall takes its home slot");
	utap_ok(ms_inflight_take(&tab, a, 1, &t0, &cell) && t0 == 3, "home: and gives it back");
}

/* The fast paths alone (systp.c): the home slot, or false for the caller's slow path. */
static void test_home_fast(void)
{
	const void *a = owner_at(50, 0), *b = owner_at(50, 1);
	struct ms_inflight_slot *s;
	unsigned int cell;
	u64 t0;

	utap_ok(ms_inflight_claim_home(&tab, a, 7, &s) && s == &slots[50] && s->owner == a && s->birth == 7,
		"home fast: a free home slot is claimed, its birth written");
	s->cell = 4;
	s->t0 = 44;
	utap_ok(ms_inflight_claim_home(&tab, a, 7, &s) && s == &slots[50],
		"home fast: a slot already the owner's is the owner's");
	utap_ok(!ms_inflight_claim_home(&tab, b, 1, &s) && slots[50].owner == a,
		"home fast: another task's home slot: false, nothing written");
	utap_ok(ms_inflight_find_home(&tab, a, 7, &s) && s == &slots[50] && s->cell == 4,
		"home fast: the owner finds its home slot");
	utap_ok(!ms_inflight_find_home(&tab, a, 8, &s), "home fast: not with another birth");
	utap_ok(!ms_inflight_find_home(&tab, b, 1, &s), "home fast: nor another task");
	utap_ok(ms_inflight_take(&tab, a, 7, &t0, &cell) && t0 == 44 && cell == 4 && slots[50].owner == NULL,
		"home fast: the slow path's take gives it back");
	/* A start on the fallback clock marks the birth (systp.c). */
	utap_ok(ms_inflight_claim_home(&tab, a, 7, &s) && s == &slots[50], "marked: claimed");
	s->birth |= MS_INFLIGHT_BIRTH_MARK;
	s->cell = 5;
	s->t0 = 55;
	utap_ok(!ms_inflight_find_home(&tab, a, 7, &s), "marked: the fast look-up misses it");
	utap_ok(ms_inflight_peek(&tab, a, 7, &cell) && cell == 5, "marked: the whole look-up finds it");
	utap_ok(ms_inflight_claim_home(&tab, a, 7, &s) && s->birth == 7 && s == &slots[50],
		"marked: a new claim by its owner unmarks it");
	s->birth |= MS_INFLIGHT_BIRTH_MARK;
	utap_ok(ms_inflight_take(&tab, a, 7, &t0, &cell) && t0 == 55 && cell == 5 && slots[50].owner == NULL,
		"marked: the take gives it back");
}

static void test_window(void)
{
	const void *o[MS_INFLIGHT_WINDOW + 1];
	unsigned int i, cell, ok = 0;
	u64 t0;

	for (i = 0; i <= MS_INFLIGHT_WINDOW; i++)
		o[i] = owner_at(62, i);
	for (i = 0; i < MS_INFLIGHT_WINDOW; i++)
		ok += ms_inflight_put(&tab, o[i], 1, 1000 + i, i);
	utap_eq_u64(ok, MS_INFLIGHT_WINDOW, "window: as many owners of one home as the window holds");
	utap_ok(slots[1].owner == o[3], "window: it wraps around the table's end");
	utap_ok(!ms_inflight_put(&tab, o[MS_INFLIGHT_WINDOW], 1, 1, 1),
		"window: one more is a miss");
	utap_ok(ms_inflight_take(&tab, o[4], 1, &t0, &cell) && t0 == 1004 && cell == 4,
		"window: the fifth owner takes its own back");
	utap_ok(ms_inflight_put(&tab, o[MS_INFLIGHT_WINDOW], 1, 2, 9),
		"window: the freed slot is used again");
	for (i = 0, ok = 0; i <= MS_INFLIGHT_WINDOW; i++)
		ok += i != 4 && ms_inflight_take(&tab, o[i], 1, &t0, &cell) &&
		      t0 == (i == MS_INFLIGHT_WINDOW ? 2 : 1000 + i);
	utap_eq_u64(ok, MS_INFLIGHT_WINDOW, "window: every owner gets its own entry back");
	for (i = 0, ok = 0; i < (1U << BITS); i++)
		ok += slots[i].owner == NULL;
	utap_eq_u64(ok, 1U << BITS, "window: the table is empty after");
	utap_eq_u64(atomic_long_read(&tab.window), 0, "window: no claim past a home slot counted after");
}

/*
 * The window's count: up while a slot past a home slot is claimed, and a
 * look-up that misses the home slot scans the window only then.
 */
static void test_window_count(void)
{
	const void *a = owner_at(30, 0), *b = owner_at(30, 1);
	unsigned int cell;
	u64 t0;

	utap_ok(ms_inflight_put(&tab, a, 1, 10, 1), "count: a in its home slot");
	utap_eq_u64(atomic_long_read(&tab.window), 0, "count: a home claim is not counted");
	utap_ok(ms_inflight_put(&tab, b, 1, 20, 2) && slots[31].owner == b, "count: b past it");
	utap_eq_u64(atomic_long_read(&tab.window), 1, "count: a claim past a home slot is");
	atomic_long_set(&tab.window, 0);
	utap_ok(!ms_inflight_peek(&tab, b, 1, &cell), "count: at 0 the window is not scanned");
	atomic_long_set(&tab.window, 1);
	utap_ok(ms_inflight_take(&tab, b, 1, &t0, &cell) && t0 == 20, "count: b takes its slot back");
	utap_eq_u64(atomic_long_read(&tab.window), 0, "count: and leaves the count");
	utap_ok(ms_inflight_take(&tab, a, 1, &t0, &cell) && t0 == 10, "count: a takes its own");
	utap_eq_u64(atomic_long_read(&tab.window), 0, "count: a home slot's free leaves it as it was");
}

/*
 * A task dies inside a syscall: its slot stays claimed.  A new task comes
 * at the same address (born later): it must not find the dead one's entry,
 * and its put takes the stale slot over instead of claiming a second one.
 */
static void test_dead(void)
{
	const void *a = owner_at(20, 0), *b = owner_at(20, 1);
	unsigned int cell, i, busy = 0;
	u64 t0;

	utap_ok(ms_inflight_put(&tab, a, 100, 5000, 3), "dead: the first task's sys_enter");
	utap_ok(!ms_inflight_peek(&tab, a, 200, &cell),
		"dead: a new task at the same address sees no syscall in flight");
	utap_ok(!ms_inflight_take(&tab, a, 200, &t0, &cell),
		"dead: and takes nothing at a sys_exit without its sys_enter");
	utap_ok(ms_inflight_put(&tab, b, 1, 7000, 4), "dead: another task shares the window");
	utap_ok(ms_inflight_put(&tab, a, 200, 6000, 8) && slots[20].owner == a && slots[20].birth == 200,
		"dead: the new task's sys_enter takes the dead task's slot over");
	for (i = 0; i < (1U << BITS); i++)
		busy += slots[i].owner != NULL;
	utap_eq_u64(busy, 2, "dead: two slots claimed, not three");
	utap_ok(ms_inflight_peek(&tab, a, 200, &cell) && cell == 8, "dead: peek gives the new cell");
	utap_ok(ms_inflight_take(&tab, a, 200, &t0, &cell) && t0 == 6000 && cell == 8,
		"dead: the new task gets its own t0 and cell back");
	utap_ok(!ms_inflight_take(&tab, a, 100, &t0, &cell), "dead: nothing is left of the dead task");
	utap_ok(ms_inflight_take(&tab, b, 1, &t0, &cell) && t0 == 7000, "dead: the other task is unharmed");
}

/* Threads, each an owner, put and take in a loop on one table. */
#define NTHREADS	8
#define ROUNDS		200000
static struct ms_inflight small_tab;
static struct ms_inflight_slot small_slots[1 << 5];
static unsigned long bad[NTHREADS], misses[NTHREADS];

static void *hammer(void *arg)
{
	unsigned long me = (unsigned long)arg, r;
	const void *owner = &bad[me];
	unsigned int cell;
	u64 t0;

	for (r = 0; r < ROUNDS; r++) {
		if (!ms_inflight_put(&small_tab, owner, 1, r * NTHREADS + me, me)) {
			misses[me]++;
			continue;
		}
		if (!ms_inflight_take(&small_tab, owner, 1, &t0, &cell) ||
		    t0 != r * NTHREADS + me || cell != me)
			bad[me]++;
	}
	return NULL;
}

static void test_threads(void)
{
	pthread_t th[NTHREADS];
	unsigned long i, nbad = 0, nmiss = 0, busy = 0;

	ms_inflight_set(&small_tab, small_slots, 5);
	for (i = 0; i < NTHREADS; i++)
		pthread_create(&th[i], NULL, hammer, (void *)i);
	for (i = 0; i < NTHREADS; i++)
		pthread_join(th[i], NULL);
	for (i = 0; i < NTHREADS; i++) {
		nbad += bad[i];
		nmiss += misses[i];
	}
	for (i = 0; i < 32; i++)
		busy += small_slots[i].owner != NULL;
	printf("# %d threads x %d rounds on 32 slots: %lu misses\n", NTHREADS, ROUNDS, nmiss);
	utap_eq_u64(nbad, 0, "threads: every take gets its own put back");
	utap_eq_u64(busy, 0, "threads: no slot left claimed");
	utap_eq_u64(atomic_long_read(&small_tab.window), 0, "threads: the window count back to 0");
}

int main(void)
{
	utap_plan(6 + 7 + (7 + 5) + 10 + 3 + 6 + 1 + 9);
	test_one();
	test_home();
	test_home_fast();
	test_window();
	test_window_count();
	test_dead();
	test_threads();
	return utap_done();
}
