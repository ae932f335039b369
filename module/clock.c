// SPDX-License-Identifier: GPL-2.0
/*
 * clock.c - which clock the hot path reads (clock.h), chosen at load.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/clocksource.h>
#include <linux/printk.h>
#include <linux/time64.h>
#include <linux/timekeeping.h>
#include "clock.h"

DEFINE_STATIC_KEY_FALSE(ms_clock_counter);
struct ms_clock_conv ms_clock_conv __read_mostly;

/*
 * The conversion is exact to the multiplier's precision for any
 * difference: mul_u64_u32_shr() keeps the 96-bit product on 64-bit
 * kernels, so the range clocks_calc_mult_shift() is asked for (an hour)
 * only sets the precision, not a limit.
 */
void ms_clock_init(void)
{
	struct system_time_snapshot snap;
	u64 hz;

	ms_ktime_get_snapshot(&snap);
	hz = ms_counter_hz(&snap);
	if (!hz || hz > U32_MAX) {
		pr_info("clock: local_clock() (the clocksource is not a counter the module reads directly)\n");
		return;
	}
	clocks_calc_mult_shift(&ms_clock_conv.mult, &ms_clock_conv.shift, hz,
			       NSEC_PER_SEC, 3600);
	static_branch_enable(&ms_clock_counter);
	pr_info("clock: %s read directly, %llu Hz\n", MS_COUNTER_NAME, hz);
}

const char *ms_clock_name(void)
{
	return static_key_enabled(&ms_clock_counter) ? MS_COUNTER_NAME : "local_clock";
}
