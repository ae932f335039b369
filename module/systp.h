/* SPDX-License-Identifier: GPL-2.0 */
/*
 * systp.h - the syscall side on the raw_syscalls tracepoints (systp.c).
 */
#ifndef MSEAL_STATS_SYSTP_H
#define MSEAL_STATS_SYSTP_H

#include <linux/types.h>
#include "names.h"

/* Does this kernel have the sys_enter and sys_exit tracepoints? */
bool ms_systp_available(void);
/* Count and time the syscalls ON[] says; 0 or a negative errno. */
int ms_systp_attach(const bool on[MS_NSYS]);
/* Returns when no probe of ours runs any more, nor ever will. */
void ms_systp_detach(void);
/* sys_enter of syscall SYS that found the in-flight table full. */
unsigned long ms_systp_missed(unsigned int sys);

#endif /* MSEAL_STATS_SYSTP_H */
