/* SPDX-License-Identifier: GPL-2.0 */
/*
 * clock.h - the clock of the hot path: two reads per timed call.
 *
 * ktime_get_ns() costs a sequence-count loop around an indirect call of
 * the clocksource's read, a subtraction, a multiply and a shift, and the
 * same again at the return: half the instrument.  Where the kernel keeps
 * time with the CPU's own counter (the TSC on x86_64, the architected
 * counter on arm64; mseal_stats_compat.h says when), the handlers read
 * that counter directly and convert the difference to ns when they record
 * it, with a multiplier and shift computed once at load.  Elsewhere they
 * read local_clock() (ns already): per-CPU, so a call that migrates can
 * measure a little off, and a negative difference is taken as 0.  The
 * choice is made at load, before any probe is attached, and never changes
 * while they are (a static key: no test on the hot path).
 */
#ifndef MSEAL_STATS_CLOCK_H
#define MSEAL_STATS_CLOCK_H

#include <linux/jump_label.h>
#include <linux/math64.h>
#include <linux/sched/clock.h>
#include "mseal_stats_compat.h"

DECLARE_STATIC_KEY_FALSE(ms_clock_counter);

struct ms_clock_conv {
	u32 mult;
	u32 shift;
};
extern struct ms_clock_conv ms_clock_conv;

/* Now, in the clock's own units: compare only with ms_clock_ns(). */
static __always_inline u64 ms_clock_read(void)
{
	if (static_branch_likely(&ms_clock_counter))
		return ms_counter_read();
	return local_clock();
}

/* Nanoseconds from T0 to T1 (two ms_clock_read()s); 0 if T1 is before T0. */
static __always_inline u64 ms_clock_ns(u64 t0, u64 t1)
{
	s64 d = (s64)(t1 - t0);

	if (unlikely(d < 0))
		return 0;
	if (static_branch_likely(&ms_clock_counter))
		return mul_u64_u32_shr(d, ms_clock_conv.mult, ms_clock_conv.shift);
	return d;
}

/* At load, before the probes: choose the clock (and say which). */
void ms_clock_init(void);
/* Its name for the report: the counter's ("tsc") or "local_clock". */
const char *ms_clock_name(void);

#endif /* MSEAL_STATS_CLOCK_H */
