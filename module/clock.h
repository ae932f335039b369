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
 * it, with a 32.32 fixed-point multiplier from the clocksource's own mult
 * and shift (clock.c).
 *
 * Elsewhere they read ktime_get_mono_fast_ns(): the kernel's own
 * clocksource (kvm-clock, the HPET, the ACPI PM timer), through the
 * timekeeper, safe in any context.  Not local_clock(): where the TSC is
 * not the clocksource because the kernel found it unstable, local_clock()
 * is the scheduler's filtered sched_clock, which holds each CPU's clock
 * within a tick of the last one it saw, so when ticks come late (a loaded
 * host under a virtual machine) it stands still and every call reads 0
 * ns.  On the HPET a read costs a microsecond or so, twice per call:
 * correct and dear, where the kernel itself has nothing cheaper.  A
 * negative difference is taken as 0 and counted (ms_clock_backwards).
 *
 * The choice is a static key, set at load before any probe is attached,
 * and taken away when the kernel stops keeping time with the counter
 * (clock.c: a TSC marked unstable makes the kernel change its
 * clocksource).  So that no call is measured with two clocks, each call
 * keeps which clock its start was read with, in the cell word it carries
 * from entry to return (MS_CLOCK_LOCAL), and its end is read with the same.
 */
#ifndef MSEAL_STATS_CLOCK_H
#define MSEAL_STATS_CLOCK_H

#include <linux/compiler.h>
#include <linux/jump_label.h>
#include <linux/math64.h>
#include <linux/timekeeping.h>
#include "mseal_stats_compat.h"

DECLARE_STATIC_KEY_FALSE(ms_clock_counter);
/* ns per counter tick, 32.32 fixed point (clock.c: the clocksource's). */
extern u64 ms_clock_mult;

/*
 * In the cell word of a call whose start was read with the fallback clock
 * (ktime_get_mono_fast_ns()); cells number far fewer (cell.h), so the bit
 * is free.
 */
#define MS_CLOCK_LOCAL	(1U << 31)

static __always_inline bool ms_clock_is_counter(void)
{
	return static_branch_likely(&ms_clock_counter);
}

/* A difference of two counter reads, in ns: any difference, any rate. */
static __always_inline u64 ms_counter_ns(u64 d)
{
	return mul_u64_u64_shr(d, READ_ONCE(ms_clock_mult), 32);
}

/*
 * A call's start: the time now into *T0, and CELL, with the clock's mark,
 * into *CELLP.
 */
static __always_inline void ms_clock_start(u64 *t0, unsigned int *cellp, unsigned int cell)
{
	if (ms_clock_is_counter()) {
		*cellp = cell;
		*t0 = ms_counter_read();
	} else {
		*cellp = cell | MS_CLOCK_LOCAL;
		*t0 = ktime_get_mono_fast_ns();
	}
}

/*
 * Calls whose end read came before their start: a task that moved between
 * CPUs whose counters disagree.  Timed as 0 ns (the call is still
 * counted) and counted here, since load, for the report.
 */
DECLARE_PER_CPU(unsigned long, ms_clock_backwards);
unsigned long ms_clock_backwards_total(void);

/* ns from T0 to T1, both read with the clock CELL's mark names; 0 if T1 < T0. */
static __always_inline u64 ms_clock_ns(u64 t0, u64 t1, unsigned int cell)
{
	s64 d = (s64)(t1 - t0);

	if (unlikely(d <= 0)) {
		if (d)
			this_cpu_inc(ms_clock_backwards);
		return 0;
	}
	if (likely(!(cell & MS_CLOCK_LOCAL)))
		return ms_counter_ns(d);
	return d;
}

/* At load, before the probes: choose the clock (and say which). */
void ms_clock_init(void);
/* At unload, after the probes: stop watching the kernel's clocksource. */
void ms_clock_exit(void);
/*
 * What timed the figures since the last reset: the counter's name ("tsc"),
 * "ktime_get_mono_fast_ns", or both ("tsc, then ktime_get_mono_fast_ns")
 * in the generation in which the kernel left the counter.
 */
const char *ms_clock_name(void);
/* The kernel left the counter since the last reset: two clocks in the figures. */
bool ms_clock_switched(void);

#endif /* MSEAL_STATS_CLOCK_H */
