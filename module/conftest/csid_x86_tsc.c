// SPDX-License-Identifier: GPL-2.0
/*
 * Compile test (Kbuild): a time snapshot names the clocksource it read
 * (system_time_snapshot.cs_id) and x86's TSC has an id of its own,
 * CSID_X86_TSC (Linux 6.10 on).  MS_HAVE_CSID_X86_TSC.
 */
/*
 * The ids are one enum on every architecture, so the id alone would pass
 * on any architecture's kernel: the test is for x86_64 kernels only.
 */
#ifndef CONFIG_X86_64
#error "not x86_64"
#endif /* !CONFIG_X86_64 */
#include <linux/timekeeping.h>
#include <linux/clocksource_ids.h>

int ms_conftest(void);
int ms_conftest(void)
{
	struct system_time_snapshot s = { 0 };

	return s.cs_id == CSID_X86_TSC || s.cs_id == CSID_X86_TSC_EARLY ||
	       s.cs_id == CSID_X86_KVM_CLK;
}
