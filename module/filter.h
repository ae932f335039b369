/* SPDX-License-Identifier: GPL-2.0 */
/*
 * filter.h - which tasks are counted: module parameters tgid and comm.
 */
#ifndef MSEAL_STATS_FILTER_H
#define MSEAL_STATS_FILTER_H

#include <linux/compiler.h>
#include <linux/jump_label.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/types.h>

struct pid;

/*
 * A test the direct backend's syscall trampolines make in assembler
 * before anything else (direct_tramp.S): a task passes on if the 8 bytes
 * at OFF in its task_struct, masked by MASK, are VAL.  The comm's head
 * with a comm filter, else the tgid (tgid= as the initial namespace
 * numbers it: a new process given the number passes on to the whole
 * test, and no further).  A task it keeps out is one the whole filter
 * keeps out; one it passes, the whole filter still decides.  MASK 0: all
 * pass.  The layout is the assembler's.
 */
struct ms_filter_fast {
	unsigned long off, val, mask;
};

/*
 * The filter in force, published with RCU (NULL: none, every task counts).
 * A change makes a new one and frees the old after a grace period, so a
 * handler reads it under preempt_disable with no lock at all: nothing a
 * PREEMPT_RT kernel would turn into a sleeping lock, nothing to retry.
 */
struct ms_filter {
	struct ms_filter_fast fast;
	struct pid *tgid;		/* NULL: every process; else this one */
	char comm[TASK_COMM_LEN];	/* "": every command */
	struct rcu_head rcu;		/* freeing, once replaced */
};

extern struct ms_filter __rcu *ms_filter_cur;
/*
 * The fast test in force, never NULL: the filter's, or one that passes
 * every task.  Freed a tasks-RCU grace period after it is replaced (the
 * trampolines read it without preempt_disable), and an RCU one.
 */
extern struct ms_filter_fast *ms_filter_fast_cur;
/* Is a filter's fast test in force (not the pass-all one)? */
bool ms_filter_fast_on(void);
bool ms_filter_pass_slow(void);
/*
 * On while a filter is set: switched on after the filter is published and
 * off after NULL is (filter.c), and the slow path takes a NULL filter for
 * "every task", so a handler that sees the key and the pointer out of step
 * still decides as the old filter or the new one would.
 */
DECLARE_STATIC_KEY_FALSE(ms_filter_on);

/* Is a filter set?  (The static key: for a caller that asks the slow path itself.) */
static __always_inline bool ms_filter_set(void)
{
	return static_branch_unlikely(&ms_filter_on);
}

/*
 * Does current pass the filter?  Safe in probe handlers.  With no filter
 * set (the common case) the static key alone: a patched-out jump (a load
 * and a test on a kernel without CONFIG_JUMP_LABEL).  A handler racing
 * with a change sees the old filter or the new one.
 */
static __always_inline bool ms_filter_pass(void)
{
	if (!ms_filter_set())
		return true;
	return ms_filter_pass_slow();
}

/*
 * The filter as the report shows it: the tgid as the reader's PID
 * namespace numbers that process (0: none set, or not visible from there),
 * and the comm.
 */
void ms_filter_show(int *tgid, char comm[TASK_COMM_LEN]);
/*
 * Init: put the values given at insmod in force (0, or -ESRCH: that tgid
 * has no process).  Exit, or a failed init: drop the filter; later writes
 * are refused.
 */
int ms_filter_start(void);
void ms_filter_exit(void);

#endif /* MSEAL_STATS_FILTER_H */
