// SPDX-License-Identifier: GPL-2.0
/*
 * Compile test (Kbuild): ktime_get_snapshot_id(clock, snap), which took
 * the place of ktime_get_snapshot(snap) in Linux 7.x (Debian's 7.3 has
 * only the former).  MS_HAVE_KTIME_GET_SNAPSHOT_ID.
 */
#include <linux/time.h>
#include <linux/timekeeping.h>

int ms_conftest(void);
int ms_conftest(void)
{
	struct system_time_snapshot s;

	ktime_get_snapshot_id(CLOCK_REALTIME, &s);
	return s.valid;
}
