/* SPDX-License-Identifier: GPL-2.0 */
/*
 * direct.h - what the direct backend's C side (direct.c) and its
 * trampolines (direct_tramp.S) share: the slots, one trampoline each.
 *
 * A slot is a trampoline of its own, so it knows its probe without a
 * look-up: slot N's trampoline passes N to its entry.  One slot per target
 * of the plan (plan.h: MS_NTARGETS) and one for calibration; direct.c
 * checks that the numbers agree.  The first MS_DIRECT_NSYS slots are for
 * the syscalls' entry functions, which take one argument (the pt_regs):
 * their trampolines save that one and return one value.
 */
#ifndef MSEAL_STATS_DIRECT_H
#define MSEAL_STATS_DIRECT_H

#define MS_DIRECT_NSLOTS	27
#define MS_DIRECT_NSYS		10
#define MS_DIRECT_SYS_SLOT_LIST	0, 1, 2, 3, 4, 5, 6, 7, 8, 9
#define MS_DIRECT_SLOT_LIST	10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, \
				21, 22, 23, 24, 25, 26

/* struct ms_inst (handlers.h) as the trampolines lay it out on their stack. */
#define MS_DIRECT_INST_SIZE	16

#ifndef __ASSEMBLY__
#include <linux/types.h>

struct ms_inst;

/* The trampolines' entry points, by slot (direct_tramp.S). */
extern const unsigned long ms_direct_tramps[MS_DIRECT_NSLOTS];
/*
 * The trampolines that first make the filter's fast test (filter.h) and
 * return into the function for a task it keeps out, by slot; where there
 * is no fast test (compat_direct.h), the plain ones.  All in the extent
 * ms_direct_tramps_size gives.
 */
extern const unsigned long ms_direct_ftramps[MS_DIRECT_NSLOTS];
/* Their code's size: slot 0's trampoline is the first. */
extern const unsigned long ms_direct_tramps_size;

/*
 * Called by slot SLOT's trampoline before the function: 1 to time this
 * call (*IN filled, the trampoline calls the function and then
 * ms_direct_exit()), 0 to let it run untimed.  An int, not a bool: the
 * assembler tests the whole register.
 */
int ms_direct_enter(unsigned int slot, struct ms_inst *in);
/* Called by the trampoline after the function returned RET. */
void ms_direct_exit(struct ms_inst *in, unsigned long ret);
/* The same two for a syscall slot's trampoline. */
int ms_direct_sys_enter(unsigned int slot, struct ms_inst *in);
void ms_direct_sys_exit(struct ms_inst *in, unsigned long ret);

/* After every filter change (filter.c): the slots take the trampolines it wants. */
void ms_direct_filter_changed(void);
#endif /* !__ASSEMBLY__ */

#endif /* MSEAL_STATS_DIRECT_H */
