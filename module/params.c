// SPDX-License-Identifier: GPL-2.0
/*
 * params.c - module parameters and the filter they set.
 *
 *   tgid=N       count only the process N (0, the default: all)
 *   comm=NAME    count only tasks whose comm is NAME (empty, the default: all)
 *   maxactive=N  kretprobe instances per probe (0, the default: automatic,
 *                max(64, 8 * possible CPUs)); read at load only
 *
 * tgid and comm can be changed at run time in /sys/module/mseal_stats/
 * parameters/.  A bad value is refused with -EINVAL and changes nothing.
 * The probe handlers read the filter under a seqlock, so they never see half
 * of an update.
 */
#include <linux/cpumask.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/minmax.h>
#include <linux/moduleparam.h>
#include <linux/seqlock.h>
#include <linux/string.h>
#include <linux/threads.h>
#include "filter.h"

static DEFINE_SEQLOCK(ms_filter_lock);
static struct ms_filter ms_filter;
bool ms_filter_active __read_mostly;
static int ms_maxactive_param;

notrace void ms_filter_get(struct ms_filter *f)
{
	unsigned int seq;

	do {
		seq = read_seqbegin(&ms_filter_lock);
		*f = ms_filter;
	} while (read_seqretry(&ms_filter_lock, seq));
}
NOKPROBE_SYMBOL(ms_filter_get);

notrace bool ms_filter_pass_slow(void)
{
	struct ms_filter f;

	ms_filter_get(&f);
	if (f.tgid && f.tgid != current->tgid)
		return false;
	if (f.comm[0] && strncmp(f.comm, current->comm, TASK_COMM_LEN))
		return false;
	return true;
}
NOKPROBE_SYMBOL(ms_filter_pass_slow);

static int ms_tgid_set(const char *val, const struct kernel_param *kp)
{
	int tgid;

	if (kstrtoint(val, 10, &tgid) || tgid < 0 || tgid > PID_MAX_LIMIT)
		return -EINVAL;
	write_seqlock(&ms_filter_lock);
	ms_filter.tgid = tgid;
	WRITE_ONCE(ms_filter_active, ms_filter.tgid || ms_filter.comm[0]);
	write_sequnlock(&ms_filter_lock);
	return 0;
}

static int ms_tgid_get(char *buf, const struct kernel_param *kp)
{
	struct ms_filter f;

	ms_filter_get(&f);
	return scnprintf(buf, PAGE_SIZE, "%d\n", f.tgid);
}

static int ms_comm_set(const char *val, const struct kernel_param *kp)
{
	size_t len = strlen(val);
	size_t i;

	if (len && val[len - 1] == '\n')
		len--;
	if (len >= TASK_COMM_LEN)
		return -EINVAL;
	for (i = 0; i < len; i++)
		if (val[i] == '\0' || val[i] == '\n')
			return -EINVAL;
	write_seqlock(&ms_filter_lock);
	memset(ms_filter.comm, 0, sizeof(ms_filter.comm));
	memcpy(ms_filter.comm, val, len);
	WRITE_ONCE(ms_filter_active, ms_filter.tgid || ms_filter.comm[0]);
	write_sequnlock(&ms_filter_lock);
	return 0;
}

static int ms_comm_get(char *buf, const struct kernel_param *kp)
{
	struct ms_filter f;

	ms_filter_get(&f);
	return scnprintf(buf, PAGE_SIZE, "%s\n", f.comm);
}

static int ms_maxactive_set(const char *val, const struct kernel_param *kp)
{
	int n;

	if (kstrtoint(val, 10, &n) || n < 0 || n > 65536)
		return -EINVAL;
	ms_maxactive_param = n;
	return 0;
}

static int ms_maxactive_get(char *buf, const struct kernel_param *kp)
{
	return scnprintf(buf, PAGE_SIZE, "%d\n", ms_maxactive_param);
}

int ms_maxactive(void)
{
	if (ms_maxactive_param)
		return ms_maxactive_param;
	return max_t(int, 64, 8 * num_possible_cpus());
}

static const struct kernel_param_ops ms_tgid_ops = {
	.set = ms_tgid_set,
	.get = ms_tgid_get,
};

static const struct kernel_param_ops ms_comm_ops = {
	.set = ms_comm_set,
	.get = ms_comm_get,
};

static const struct kernel_param_ops ms_maxactive_ops = {
	.set = ms_maxactive_set,
	.get = ms_maxactive_get,
};

module_param_cb(tgid, &ms_tgid_ops, NULL, 0644);
MODULE_PARM_DESC(tgid, "count only this process (thread group id); 0: all");
module_param_cb(comm, &ms_comm_ops, NULL, 0644);
MODULE_PARM_DESC(comm, "count only tasks with this comm; empty: all");
module_param_cb(maxactive, &ms_maxactive_ops, NULL, 0444);
MODULE_PARM_DESC(maxactive, "kretprobe instances per probe; 0: max(64, 8 * possible CPUs)");
