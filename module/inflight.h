/* SPDX-License-Identifier: GPL-2.0 */
/*
 * inflight.h - the entry time of syscalls in flight, per task, from
 * sys_enter to sys_exit (systp.c): the task may sleep and migrate between.
 *
 * Open addressing over cache-line slots: a task's home slot, then the
 * first free one of MS_INFLIGHT_WINDOW.  A claim is a cmpxchg on the slot,
 * a free a release store by its owner; only the owner writes a claimed
 * slot.  No lock.  A full window is a miss.  Pure C (unit-tested).
 */
#ifndef MSEAL_STATS_INFLIGHT_H
#define MSEAL_STATS_INFLIGHT_H

#include "env.h"

/* Scanned only on a collision at the home slot, so it can be wide. */
#define MS_INFLIGHT_WINDOW	32

/*
 * OWNER is the task, BIRTH its start time: a task that died in a syscall
 * (an oops) leaves its slot claimed, and its task_struct can be reused.
 *
 * The mark in BIRTH: timed with the fallback clock.  Start times never
 * have the bit; ms_inflight_find_home() compares births whole, so a
 * marked slot goes to the slow path with no test of its own.
 */
#define MS_INFLIGHT_BIRTH_MARK	(1ULL << 63)

struct ms_inflight_slot {
	const void *owner;	/* the task; NULL: free */
	u64 birth;		/* the owner's start time, maybe marked */
	u64 t0;
	unsigned int cell;
} __aligned(64);

struct ms_inflight {
	struct ms_inflight_slot *slot;
	unsigned int bits;	/* 1 << bits slots */
	unsigned int shift;	/* 64 - bits: the hash's, kept, not computed per call */
	/*
	 * At least the slots claimed past their home slot: up before such a
	 * claim, down at its free.  While 0, a home-slot miss is final.
	 */
	atomic_long_t window;
};

/*
 * A table of 1 << BITS slots at SLOT (5 <= BITS <= 31: the window of 32
 * must not wrap onto the home slot, which a free would not count).
 */
static __always_inline void ms_inflight_set(struct ms_inflight *f, struct ms_inflight_slot *slot,
					    unsigned int bits)
{
	f->slot = slot;
	f->bits = bits;
	f->shift = 64 - bits;
	atomic_long_set(&f->window, 0);
}

/* OWNER's home slot, an unsigned long: indexing needs no extension. */
static __always_inline unsigned long ms_inflight_home(const struct ms_inflight *f,
						      const void *owner)
{
	return ((u64)(unsigned long)owner * 0x9e3779b97f4a7c15ULL) >> f->shift;
}

/* OWNER's home slot: the hash is below the table's size, no mask needed. */
static __always_inline struct ms_inflight_slot *ms_inflight_home_slot(struct ms_inflight *f,
								      const void *owner)
{
	return &f->slot[ms_inflight_home(f, owner)];
}

static __always_inline struct ms_inflight_slot *ms_inflight_at(struct ms_inflight *f,
							       const void *owner, unsigned int i)
{
	return &f->slot[(ms_inflight_home(f, owner) + i) & ((1U << f->bits) - 1)];
}

/* The window scan of ms_inflight_claim(), past a home slot that is taken. */
static __always_inline struct ms_inflight_slot *ms_inflight_claim_window(struct ms_inflight *f,
									 const void *owner)
{
	struct ms_inflight_slot *s;
	unsigned int i;

	for (i = 1; i < MS_INFLIGHT_WINDOW; i++) {
		s = ms_inflight_at(f, owner, i);
		if (READ_ONCE(s->owner) == owner)
			return s;
	}
	/* Counted before the claim: the count is never below the slots. */
	atomic_long_inc(&f->window);
	for (i = 1; i < MS_INFLIGHT_WINDOW; i++) {
		s = ms_inflight_at(f, owner, i);
		if (!READ_ONCE(s->owner) && !cmpxchg(&s->owner, NULL, owner))
			return s;
	}
	atomic_long_dec(&f->window);
	return NULL;
}

/*
 * Claim a slot for OWNER charged to CELL; NULL when the window is full.
 * The caller writes t0 last, so the claim is outside the time measured.
 * A slot holding OWNER with another birth (a dead task's) is taken over.
 * A task may hold two slots (home and window): look-ups try home first.
 */
static __always_inline struct ms_inflight_slot *ms_inflight_claim(struct ms_inflight *f,
								  const void *owner, u64 birth,
								  unsigned int cell)
{
	struct ms_inflight_slot *s = ms_inflight_home_slot(f, owner);
	const void *o = READ_ONCE(s->owner);

	if (likely(o == owner || (!o && !cmpxchg(&s->owner, NULL, owner))))
		goto claimed;
	s = ms_inflight_claim_window(f, owner);
	if (!s)
		return NULL;
claimed:
	WRITE_ONCE(s->birth, birth);
	s->cell = cell;
	return s;
}

/*
 * ms_inflight_claim()'s home-slot step: true with the slot in *SP (birth
 * written; the caller writes cell and t0), false to take the whole claim.
 */
static __always_inline bool ms_inflight_claim_home(struct ms_inflight *f, const void *owner,
						   u64 birth, struct ms_inflight_slot **sp)
{
	struct ms_inflight_slot *s = ms_inflight_home_slot(f, owner);
	const void *o = READ_ONCE(s->owner);

	/* Free is the likely case: a sys_exit frees the slot. */
	if (likely(!o)) {
		if (unlikely(!try_cmpxchg(&s->owner, &o, owner)))
			return false;
	} else if (o != owner) {
		return false;
	}
	WRITE_ONCE(s->birth, birth);
	*sp = s;
	return true;
}

/* ms_inflight_find()'s home-slot step, for unmarked slots only. */
static __always_inline bool ms_inflight_find_home(struct ms_inflight *f, const void *owner,
						  u64 birth, struct ms_inflight_slot **sp)
{
	struct ms_inflight_slot *s = ms_inflight_home_slot(f, owner);

	*sp = s;
	return READ_ONCE(s->owner) == owner && READ_ONCE(s->birth) == birth;
}

/* Claim and fill in one step, T0 known beforehand (the unit tests). */
static __always_inline bool ms_inflight_put(struct ms_inflight *f, const void *owner,
					    u64 birth, u64 t0, unsigned int cell)
{
	struct ms_inflight_slot *s = ms_inflight_claim(f, owner, birth, cell);

	if (s)
		s->t0 = t0;
	return s;
}

/* OWNER's slot, marked or not, or NULL: home, then the window. */
static __always_inline struct ms_inflight_slot *ms_inflight_find(struct ms_inflight *f,
								 const void *owner, u64 birth)
{
	struct ms_inflight_slot *s = ms_inflight_home_slot(f, owner);
	unsigned int i;

	if (likely(READ_ONCE(s->owner) == owner &&
		   (READ_ONCE(s->birth) & ~MS_INFLIGHT_BIRTH_MARK) == birth))
		return s;
	if (likely(!atomic_long_read(&f->window)))
		return NULL;
	for (i = 1; i < MS_INFLIGHT_WINDOW; i++) {
		s = ms_inflight_at(f, owner, i);
		if (READ_ONCE(s->owner) == owner &&
		    (READ_ONCE(s->birth) & ~MS_INFLIGHT_BIRTH_MARK) == birth)
			return s;
	}
	return NULL;
}

/* The release orders the owner's reads before the next owner's writes. */
static __always_inline void ms_inflight_free(struct ms_inflight *f, const void *owner,
					     struct ms_inflight_slot *s)
{
	if (s != ms_inflight_home_slot(f, owner))
		atomic_long_dec(&f->window);
	/* Pairs with the next claim's cmpxchg: our reads of the slot first. */
	smp_store_release(&s->owner, NULL);
}

/* Take back what OWNER put and free its slot; false if it put nothing. */
static __always_inline bool ms_inflight_take(struct ms_inflight *f, const void *owner,
					     u64 birth, u64 *t0, unsigned int *cell)
{
	struct ms_inflight_slot *s = ms_inflight_find(f, owner, birth);

	if (!s)
		return false;
	*t0 = s->t0;
	*cell = s->cell;
	ms_inflight_free(f, owner, s);
	return true;
}

/* Slots claimed now (the report; a scan of the whole table). */
static inline unsigned long ms_inflight_claimed(const struct ms_inflight *f)
{
	unsigned long i, n = 0;

	if (!f->slot)
		return 0;
	for (i = 0; i < 1UL << f->bits; i++)
		n += !!READ_ONCE(f->slot[i].owner);
	return n;
}

/* The cell OWNER's syscall in flight is charged to, without taking it. */
static __always_inline bool ms_inflight_peek(struct ms_inflight *f, const void *owner,
					     u64 birth, unsigned int *cell)
{
	struct ms_inflight_slot *s = ms_inflight_find(f, owner, birth);

	if (!s)
		return false;
	*cell = s->cell;
	return true;
}

#endif /* MSEAL_STATS_INFLIGHT_H */
