/* SPDX-License-Identifier: GPL-2.0 */
/*
 * systp.h - the syscall side on the raw_syscalls tracepoints (systp.c): its
 * backend table is ms_tracepoint_ops (backend.h); this is what the check
 * handlers ask it.
 */
#ifndef MSEAL_STATS_SYSTP_H
#define MSEAL_STATS_SYSTP_H

#include <linux/jump_label.h>
#include <linux/sched.h>
#include <linux/types.h>
#include "mseal_stats_compat.h"
#include "clock.h"
#include "inflight.h"
#include "names.h"

/*
 * Is the tracepoint side counting?  A static key, on while its probes
 * and its in-flight table are (MS_HAVE_SYSCALL_TP kernels only).
 */
DECLARE_STATIC_KEY_FALSE(ms_systp_on);
extern struct ms_inflight ms_tp_inflight;

static __always_inline bool ms_systp_counting(void)
{
	return static_branch_unlikely(&ms_systp_on);
}

/*
 * The slot the last fast sys_enter on each CPU claimed (systp.c): where a
 * look-up for current tries first, before it hashes.  Only a hint, trusted
 * when the slot names current and its birth, as the hashed look-up's is; a
 * task that slept or moved since its sys_enter finds another's there and
 * hashes.  Never NULL while ms_systp_on: an empty slot of systp.c's own
 * until a claim.
 */
DECLARE_PER_CPU(struct ms_inflight_slot *, ms_tp_last);

/*
 * current's slot (born BIRTH, unmarked) into *SP: this CPU's last claim,
 * else the home slot; false if neither (the caller takes the whole look-up).
 * The hint names a slot a fast sys_enter claimed (a home slot), or
 * calibration's; by the time current looks, that slot may be one current
 * claimed through its window: nothing the whole look-up would not find.
 */
static __always_inline bool ms_systp_find_fast(u64 birth, struct ms_inflight_slot **sp)
{
	struct ms_inflight_slot *s = this_cpu_read(ms_tp_last);

	if (likely(READ_ONCE(s->owner) == (const void *)current && READ_ONCE(s->birth) == birth)) {
		*sp = s;
		return true;
	}
	return ms_inflight_find_home(&ms_tp_inflight, current, birth, sp);
}

/*
 * ms_systp_row()'s whole look-up, out of line (systp.c): the home slot and
 * the window, marked or not; MS_OTHER at once for a task in no tracked
 * syscall.
 */
int ms_systp_row_window(void);

/*
 * The row (names.h) of the syscall current is in, as its own sys_enter
 * recorded it: a listed syscall, or MS_OTHER when it is in none that is
 * counted (or its sys_enter was not seen).  Only while ms_systp_counting().
 */
static __always_inline int ms_systp_row(void)
{
	struct ms_inflight_slot *s;

	if (unlikely(!ms_systp_find_fast(ms_task_birth(current), &s)))
		return ms_systp_row_window();
	/* MS_CELL_SYS(s) is s, the syscall's row; the clock's mark off. */
	return s->cell & ~MS_CLOCK_LOCAL;
}

/*
 * Calibration (calib.c): let current's look-up in ms_systp_row() find a
 * slot, as a check inside a counted syscall finds its syscall's, so that
 * calibration pays what a real check pays; false when the side is not
 * counting (a real check does not look then either).  _end frees it.
 */
bool ms_systp_calib_begin(void);
/* Slots of the in-flight table claimed now (the report; a scan). */
unsigned long ms_systp_in_flight(void);
void ms_systp_calib_end(void);

#endif /* MSEAL_STATS_SYSTP_H */
