// SPDX-License-Identifier: GPL-2.0
/*
 * filter.c - which tasks are counted: the parameters tgid and comm.
 *
 *   tgid=N       count only the process N (0, the default: all)
 *   comm=NAME    count only tasks whose comm is NAME (empty, the default: all)
 *
 * tgid and comm can be changed at run time in /sys/module/mseal_stats/
 * parameters/.  A bad value is refused with -EINVAL and changes nothing.
 *
 * tgid names a process as the writer's PID namespace numbers it (a PID
 * written from inside a container means that container's process), and a
 * thread's id means its whole process.  The filter keeps the process's
 * struct pid, not the number: it matches that process, whatever namespace
 * its tasks are seen from, and nothing else once it has exited, even when
 * the number is given to a new process.  A number no process has: -ESRCH.
 *
 * The handlers read the filter under RCU (filter.h), behind a static key
 * that is on only while a filter is set; a writer publishes a new one and
 * hands the old to call_rcu(), then to tasks-RCU (the direct backend's
 * trampolines read its fast test preemptible): it runs under
 * kernel_param_lock, which every parameter's reader and rmmod wait for,
 * so it waits for no grace period.  The callbacks are queued under
 * ms_filter_lock, and the exit's barriers come after it closes the
 * filter: none outlives the module.  After each change the direct
 * backend switches its trampolines to the ones that make the fast
 * test, or back (ms_direct_filter_changed(): no grace period either).
 *
 * Values given at insmod are parsed before init runs, and a load can still
 * fail after that (a later bad parameter, a backend this kernel lacks)
 * without init or exit ever running: so until ms_filter_start() they are
 * only kept as written (no allocation, no reference), and init resolves
 * them in the context of the insmod that gave them.  After
 * ms_filter_exit() a late write is refused (-ENODEV).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/printk.h>
#include <linux/rcupdate.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/stddef.h>
#include <linux/threads.h>
#include "direct.h"
#include "filter.h"
#include "mseal_stats_compat.h"

struct ms_filter __rcu *ms_filter_cur;
static struct ms_filter_fast ms_filter_fast_all;	/* mask 0: every task passes */
struct ms_filter_fast *ms_filter_fast_cur = &ms_filter_fast_all;
DEFINE_STATIC_KEY_FALSE(ms_filter_on);
static DEFINE_MUTEX(ms_filter_lock);	/* writers, and the three below */
static enum { MS_FILTER_LOADING, MS_FILTER_LIVE, MS_FILTER_CLOSED } ms_filter_state;
static int ms_pending_tgid;			/* LOADING: as given at insmod */
static bool ms_filter_replaced;			/* a filter went to call_rcu() */
static char ms_pending_comm[TASK_COMM_LEN];

static void ms_filter_free_rcu_tasks(struct rcu_head *head)
{
	struct ms_filter *f = container_of(head, struct ms_filter, rcu);

	put_pid(f->tgid);
	kfree(f);
}

/*
 * A replaced filter, after an RCU grace period (the handlers): then after
 * a tasks-RCU one (the trampolines' fast test, ms_filter_fast_cur).
 */
static void ms_filter_free_rcu(struct rcu_head *head)
{
	call_rcu_tasks(head, ms_filter_free_rcu_tasks);
}

bool ms_filter_fast_on(void)
{
	return READ_ONCE(ms_filter_fast_cur) != &ms_filter_fast_all;
}

/* F's fast test (filter.h): its comm's head if it has a comm, else its tgid. */
static void ms_filter_make_fast(struct ms_filter *f)
{
	u32 nr, ones = ~0U;

	f->fast.val = 0;
	f->fast.mask = 0;
	if (f->comm[0]) {
		/* Its first 8 bytes up to and with its NUL, in memory order. */
		char mask[sizeof(f->fast.mask)] = {};

		memset(mask, 0xff, min(strnlen(f->comm, TASK_COMM_LEN) + 1, sizeof(mask)));
		memcpy(&f->fast.mask, mask, sizeof(mask));
		memcpy(&f->fast.val, f->comm, sizeof(f->fast.val));
		f->fast.val &= f->fast.mask;
		f->fast.off = offsetof(struct task_struct, comm);
		return;
	}
	/* The pid_t's bytes of the 8 at tgid, whatever the byte order. */
	BUILD_BUG_ON(sizeof(current->tgid) != sizeof(nr));
	nr = pid_nr(f->tgid);
	f->fast.off = offsetof(struct task_struct, tgid);
	memcpy(&f->fast.val, &nr, sizeof(nr));
	memcpy(&f->fast.mask, &ones, sizeof(ones));
}

/*
 * Does COMM differ from F's comm?  Its head first, with F's fast test
 * (a comm's, when F has one): most tasks a filter keeps out differ
 * there, with no strncmp().
 */
static __always_inline bool ms_filter_comm_differs(const struct ms_filter *f, const char *comm)
{
	unsigned long head;

	memcpy(&head, comm, sizeof(head));
	if ((head & f->fast.mask) != f->fast.val)
		return true;
	return strncmp(f->comm, comm, TASK_COMM_LEN) != 0;
}

notrace bool ms_filter_pass_slow(void)
{
	const struct ms_filter *f;
	bool pass = true;

	preempt_disable_notrace();
	f = rcu_dereference_sched(ms_filter_cur);
	if (f && f->tgid && f->tgid != task_tgid(current))
		pass = false;
	else if (f && f->comm[0] && ms_filter_comm_differs(f, current->comm))
		pass = false;
	preempt_enable_notrace();
	return pass;
}
NOKPROBE_SYMBOL(ms_filter_pass_slow);

/*
 * Replace the filter: TGID (a reference, handed over; NULL: none) when
 * SET_TGID, COMM when SET_COMM, the other part as it was.  Called with
 * ms_filter_lock held; drops it.
 */
static int ms_filter_update_locked(bool set_tgid, struct pid *tgid, bool set_comm,
				   const char *comm, size_t len)
{
	struct ms_filter *old, *f = kzalloc(sizeof(*f), GFP_KERNEL);

	if (!f) {
		mutex_unlock(&ms_filter_lock);
		put_pid(tgid);
		return -ENOMEM;
	}
	old = rcu_dereference_protected(ms_filter_cur, lockdep_is_held(&ms_filter_lock));
	if (old)
		*f = *old;
	if (set_tgid)
		f->tgid = tgid;
	else
		f->tgid = get_pid(f->tgid);
	if (set_comm) {
		memset(f->comm, 0, sizeof(f->comm));
		memcpy(f->comm, comm, len);
	}
	if (!f->tgid && !f->comm[0]) {
		kfree(f);
		f = NULL;
	} else {
		ms_filter_make_fast(f);
	}
	rcu_assign_pointer(ms_filter_cur, f);
	/* Address-dependent loads in the trampolines: a release is enough. */
	smp_store_release(&ms_filter_fast_cur, f ? &f->fast : &ms_filter_fast_all);
	/* After the pointer, both ways (filter.h); idempotent. */
	if (f)
		static_branch_enable(&ms_filter_on);
	else
		static_branch_disable(&ms_filter_on);
	/* Under the lock: before ms_filter_exit()'s barriers. */
	if (old) {
		ms_filter_replaced = true;
		call_rcu(&old->rcu, ms_filter_free_rcu);
	}
	mutex_unlock(&ms_filter_lock);
	/* Outside the lock: the direct trampolines follow the filter in force. */
	ms_direct_filter_changed();
	return 0;
}

/* The process (thread group) of the task that NR names in current's namespace. */
static struct pid *ms_tgid_of(int nr)
{
	struct task_struct *task;
	struct pid *tg = NULL;

	rcu_read_lock();
	task = pid_task(find_vpid(nr), PIDTYPE_PID);
	if (task)
		tg = get_pid(task_tgid(task));
	rcu_read_unlock();
	return tg;
}

int ms_filter_start(void)
{
	struct pid *tg = NULL;

	mutex_lock(&ms_filter_lock);
	ms_filter_state = MS_FILTER_LIVE;
	if (ms_pending_tgid) {
		tg = ms_tgid_of(ms_pending_tgid);
		if (!tg) {
			ms_filter_state = MS_FILTER_CLOSED;
			mutex_unlock(&ms_filter_lock);
			pr_err("tgid=%d: no such process\n", ms_pending_tgid);
			return -ESRCH;
		}
	}
	if (!tg && !ms_pending_comm[0]) {
		mutex_unlock(&ms_filter_lock);
		return 0;
	}
	return ms_filter_update_locked(true, tg, true, ms_pending_comm,
				       strnlen(ms_pending_comm, TASK_COMM_LEN));
}

/* No allocation on the way out: the old filter and its pid always go. */
void ms_filter_exit(void)
{
	struct ms_filter *old;

	mutex_lock(&ms_filter_lock);
	ms_filter_state = MS_FILTER_CLOSED;
	old = rcu_replace_pointer(ms_filter_cur, NULL, lockdep_is_held(&ms_filter_lock));
	smp_store_release(&ms_filter_fast_cur, &ms_filter_fast_all);
	static_branch_disable(&ms_filter_on);
	if (old) {
		ms_filter_replaced = true;
		call_rcu(&old->rcu, ms_filter_free_rcu);
	}
	mutex_unlock(&ms_filter_lock);
	/* Every filter replaced so far is freed before the module goes. */
	rcu_barrier();
	/* Only after a filter was replaced: the barrier is a grace period. */
	if (ms_filter_replaced)
		ms_rcu_barrier_tasks();
}

void ms_filter_show(int *tgid, char comm[TASK_COMM_LEN])
{
	const struct ms_filter *f;

	if (READ_ONCE(ms_filter_state) == MS_FILTER_LOADING) {
		*tgid = READ_ONCE(ms_pending_tgid);
		memcpy(comm, ms_pending_comm, TASK_COMM_LEN);
		return;
	}
	rcu_read_lock();
	f = rcu_dereference(ms_filter_cur);
	*tgid = f && f->tgid ? pid_vnr(f->tgid) : 0;
	memset(comm, 0, TASK_COMM_LEN);
	if (f)
		memcpy(comm, f->comm, TASK_COMM_LEN);
	rcu_read_unlock();
}

static int ms_tgid_set(const char *val, const struct kernel_param *kp)
{
	struct pid *tg = NULL;
	int nr;

	if (kstrtoint(val, 10, &nr) || nr < 0 || nr > PID_MAX_LIMIT)
		return -EINVAL;
	mutex_lock(&ms_filter_lock);
	if (ms_filter_state != MS_FILTER_LIVE) {
		if (ms_filter_state == MS_FILTER_LOADING)
			ms_pending_tgid = nr;
		mutex_unlock(&ms_filter_lock);
		return ms_filter_state == MS_FILTER_LOADING ? 0 : -ENODEV;
	}
	if (nr) {
		tg = ms_tgid_of(nr);
		if (!tg) {
			mutex_unlock(&ms_filter_lock);
			return -ESRCH;
		}
	}
	return ms_filter_update_locked(true, tg, false, NULL, 0);
}

static int ms_tgid_get(char *buf, const struct kernel_param *kp)
{
	char comm[TASK_COMM_LEN];
	int tgid;

	ms_filter_show(&tgid, comm);
	return scnprintf(buf, PAGE_SIZE, "%d\n", tgid);
}

static int ms_comm_set(const char *val, const struct kernel_param *kp)
{
	size_t len = strlen(val);

	if (len && val[len - 1] == '\n')
		len--;
	if (len >= TASK_COMM_LEN || memchr(val, '\n', len))
		return -EINVAL;
	mutex_lock(&ms_filter_lock);
	if (ms_filter_state != MS_FILTER_LIVE) {
		if (ms_filter_state == MS_FILTER_LOADING) {
			memset(ms_pending_comm, 0, sizeof(ms_pending_comm));
			memcpy(ms_pending_comm, val, len);
		}
		mutex_unlock(&ms_filter_lock);
		return ms_filter_state == MS_FILTER_LOADING ? 0 : -ENODEV;
	}
	return ms_filter_update_locked(false, NULL, true, val, len);
}

static int ms_comm_get(char *buf, const struct kernel_param *kp)
{
	char comm[TASK_COMM_LEN];
	int tgid;

	ms_filter_show(&tgid, comm);
	return scnprintf(buf, PAGE_SIZE, "%s\n", comm);
}

static const struct kernel_param_ops ms_tgid_ops = {
	.set = ms_tgid_set,
	.get = ms_tgid_get,
};

static const struct kernel_param_ops ms_comm_ops = {
	.set = ms_comm_set,
	.get = ms_comm_get,
};

module_param_cb(tgid, &ms_tgid_ops, NULL, 0644);
MODULE_PARM_DESC(tgid, "count only this process (its PID in the writer's namespace); 0: all");
module_param_cb(comm, &ms_comm_ops, NULL, 0644);
MODULE_PARM_DESC(comm, "count only tasks with this comm; empty: all");
