// SPDX-License-Identifier: GPL-2.0
/*
 * Compile test (Kbuild): a time snapshot names the clocksource it read
 * (system_time_snapshot.cs_id), and arm64's architected counter has an id,
 * CSID_ARM_ARCH_COUNTER (Linux 5.12 on).  MS_HAVE_CSID_ARM_ARCH_COUNTER.
 */
/*
 * The ids are one enum on every architecture, so the id alone would pass
 * on any architecture's kernel: the test is for arm64 kernels only.
 */
#ifndef CONFIG_ARM64
#error "not arm64"
#endif /* !CONFIG_ARM64 */
#include <linux/timekeeping.h>
#include <linux/clocksource_ids.h>

int ms_conftest(void);
int ms_conftest(void)
{
	struct system_time_snapshot s = { 0 };

	return s.cs_id == CSID_ARM_ARCH_COUNTER;
}
