/* SPDX-License-Identifier: GPL-2.0 */
/*
 * inflight.h - the entry time of syscalls in flight, kept per task, for the
 * tracepoint syscall side (systp.c).
 *
 * A kretprobe or a direct call carries its per-call data from entry to
 * return itself.  The raw_syscalls tracepoints do not: sys_enter and sys_exit are
 * two calls, the task may sleep and migrate in between.  So the entry time
 * waits here, in a slot owned by the task, found again at sys_exit.
 *
 * An open-addressed table of one-cache-line slots: a task hashes to a home
 * slot and uses the first free one of the MS_INFLIGHT_WINDOW from there.
 * Claiming a slot is a cmpxchg on that slot alone, freeing it a release
 * store by its owner; only the owner writes a claimed slot, so a slot's line
 * moves between CPUs when its task does, when two tasks share a window, or
 * when a CPU's hint (systp.h) names another task's slot and a look-up reads
 * it, only to find it is not its own.  No lock, no shared counter.  A full
 * window is a miss, counted by the caller, as with a kretprobe's exhausted
 * instance pool.
 *
 * Pure C: also built into the unit tests (tests/unit/test_inflight.c).
 */
#ifndef MSEAL_STATS_INFLIGHT_H
#define MSEAL_STATS_INFLIGHT_H

#include "env.h"

/*
 * Slots looked at from a task's home slot when the home slot is another
 * task's.  The home slot alone is the fast path (one line, one compare);
 * the window is only scanned on a collision, so it can be wide: 32 lines
 * hold 32 tasks asleep inside a syscall that hash near each other.
 */
#define MS_INFLIGHT_WINDOW	32

/*
 * A slot is claimed for one task's syscall: OWNER is the task, BIRTH its
 * start time.  The pointer alone is not enough: a task that dies inside a
 * syscall (an oops: a fatal signal still passes sys_exit) never reaches
 * sys_exit and leaves its slot claimed, and its task_struct can come back
 * for a new task.  BIRTH tells that new task from the dead one.
 */
/*
 * In a slot's birth: its call was timed with the fallback clock (clock.h,
 * MS_CLOCK_LOCAL in its cell).  A task's start time (CLOCK_MONOTONIC ns)
 * never has the bit.  The look-ups compare births without it, the
 * home-slot fast look-up (ms_inflight_find_home()) compares them whole: so
 * a slot of the other clock sends the syscall side's exit to its slow path
 * with no test of its own on the fast one.
 */
#define MS_INFLIGHT_BIRTH_MARK	(1ULL << 63)

struct ms_inflight_slot {
	const void *owner;	/* the task; NULL: free */
	u64 birth;		/* the owner's start time, maybe marked */
	u64 t0;
	unsigned int cell;
} __attribute__((aligned(64)));

struct ms_inflight {
	struct ms_inflight_slot *slot;
	unsigned int bits;	/* 1 << bits slots */
	unsigned int shift;	/* 64 - bits: the hash's, kept, not computed per call */
	/*
	 * Slots claimed past their owner's home slot, or more, never fewer:
	 * up before such a claim is visible, down when its owner frees it.
	 * While it is 0 a look-up that misses the home slot is done: a task
	 * with no slot (one the filter keeps out, a sys_exit whose sys_enter
	 * was not seen) pays one line, not the window.  Shared, but written
	 * only on a collision.
	 */
	atomic_long_t window;
};

/* A table of 1 << BITS slots at SLOT (1 <= BITS <= 31). */
static __always_inline void ms_inflight_set(struct ms_inflight *f, struct ms_inflight_slot *slot,
					    unsigned int bits)
{
	f->slot = slot;
	f->bits = bits;
	f->shift = 64 - bits;
	atomic_long_set(&f->window, 0);
}

/*
 * The home slot of OWNER: a multiplicative hash of the pointer.  An
 * unsigned long, so that indexing needs no zero-extension.
 */
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
 * Claim a slot for OWNER (born BIRTH), charged to CELL; NULL when its
 * window is full (a miss).  The caller writes the slot's t0 last: the
 * syscall side reads its clock after the claim, so that the look-up, the
 * cmpxchg and these stores fall outside the time it measures.  The home
 * slot first: OWNER's already, or free (a cmpxchg); only when another task
 * holds it, the window.  A slot that holds OWNER with another birth was
 * left by a dead task whose task_struct OWNER now is: it is taken over,
 * not leaked twice.  Only the task a slot names ever writes it, so that
 * needs no atomic.  A task can hold two slots (its home one and one it
 * left in the window, when a sys_exit was not seen): the look-ups try the
 * home slot first, and a claim in the window takes the one it holds.
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
 * The fast path of ms_inflight_claim() alone, for a caller that keeps the
 * window out of line: OWNER's home slot into *SP if it is OWNER's or free
 * (then claimed, its birth written; the caller writes cell and t0), else
 * false (the caller then takes the whole ms_inflight_claim()).  A bool,
 * not a pointer that could be NULL: the caller needs no NULL test.
 */
static __always_inline bool ms_inflight_claim_home(struct ms_inflight *f, const void *owner,
						   u64 birth, struct ms_inflight_slot **sp)
{
	struct ms_inflight_slot *s = ms_inflight_home_slot(f, owner);
	const void *o = READ_ONCE(s->owner);

	/*
	 * Free first: a sys_exit frees the slot, so a syscall finds its home
	 * slot free, not still its own (that is a sys_exit not seen).
	 */
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

/*
 * The fast path of ms_inflight_find(): true, and OWNER's home slot in *SP,
 * if it holds OWNER (born BIRTH) unmarked; else false (the caller then
 * takes the whole look-up, which finds a marked slot too).
 */
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

/*
 * OWNER's slot (born BIRTH, marked or not), or NULL: the home slot, then
 * the window.
 */
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

/*
 * Free OWNER's slot S.  The release orders the owner's reads of the slot
 * before the next owner's writes; a slot past the home slot leaves the
 * window's count.
 */
static __always_inline void ms_inflight_free(struct ms_inflight *f, const void *owner,
					     struct ms_inflight_slot *s)
{
	if (s != ms_inflight_home_slot(f, owner))
		atomic_long_dec(&f->window);
	smp_store_release(&s->owner, NULL);
}

/*
 * Take back what OWNER put and free its slot; false when it put nothing
 * (its sys_enter came before the probes, or was a miss).
 */
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
		n += READ_ONCE(f->slot[i].owner) != NULL;
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
