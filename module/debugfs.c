// SPDX-License-Identifier: GPL-2.0
/*
 * debugfs.c - the report files.
 *
 *   /sys/kernel/debug/mseal_stats       (0400) the text report
 *   /sys/kernel/debug/mseal_stats.json  (0400) the same data as JSON
 *
 * Root only: the report shows what every process did (and the filter).
 * Read-only, so that a kernel in lockdown (Secure Boot: lockdown=integrity,
 * where debugfs opens only files with no write bit) serves them too.  The
 * commands are a module parameter (control.c); a write here, which only
 * root's CAP_DAC_OVERRIDE can even open, is refused with -EOPNOTSUPP and a
 * line in dmesg that says where they went.
 *
 * The whole report is generated at open, from one snapshot, into one
 * kvmalloc'd block that read() serves and release() frees: however a reader
 * splits its reads, and whatever resets or filter changes run meanwhile,
 * it reads one consistent report, ending with the line "end of report".
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/printk.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/utsname.h>
#include "mseal_stats_compat.h"
#include "backend.h"
#include "clock.h"
#include "filter.h"
#include "mseal_stats.h"
#include "plan.h"
#include "report.h"
#include "stats.h"
#include "systp.h"

#define MS_CLOCKSOURCE_LEN	32

struct ms_text {
	size_t len;
	char data[];
};

static struct dentry *ms_text_file, *ms_json_file;
static bool ms_locked;

/* Lockdown only ever goes up: once seen, remembered, and said once. */
bool ms_locked_down(void)
{
	if (!READ_ONCE(ms_locked) && ms_debugfs_locked_down())
		WRITE_ONCE(ms_locked, true);
	return READ_ONCE(ms_locked);
}

/*
 * The kernel's current clocksource into CS: the one a time snapshot
 * read, by its id (mseal_stats_compat.h), or "unknown" where the id names
 * none (CSID_GENERIC: HPET, acpi_pm, jiffies) or the kernel has no ids.
 * No path is opened: the name in sysfs is for userspace to read (mseal-stats
 * record does, in its own namespace).
 */
static void ms_clocksource(char *cs, size_t len)
{
	struct system_time_snapshot snap;
	const char *name;

	ms_ktime_get_snapshot(&snap);
	name = ms_clocksource_name(&snap);
	strscpy(cs, name ?: "unknown", len);
}

/* The checks' backend and their own backends: the figures that net each check. */
static void ms_fill_calibration(struct ms_report *r)
{
	const struct ms_backend_ops *ops, *chk_ops[MS_NCHK] = { NULL };
	bool mixed[MS_NCHK] = { false };
	struct ms_calib c;
	unsigned int i;

	for (i = 0; (ops = ms_backend_at(i)) && r->ncalib < MS_REPORT_NCALIB; i++) {
		if (!ms_calib_get(ops, &c))
			continue;
		r->calib[r->ncalib++] = (struct ms_report_calib){
			ops->name, c.inner_ns, c.outer_ns, c.cpu,
			c.counter ? MS_COUNTER_NAME : "ktime_get_mono_fast_ns",
			c.counter != ms_clock_is_counter(),
		};
		if (ops == ms_backend_checks()) {
			r->calibration_ns = c.inner_ns;
			r->calibration_outer_ns = c.outer_ns;
		}
		if (ops == ms_backend_syscalls())
			r->sys_inner = c.inner_ns;
	}
	for (i = 0; i < ms_plan_count(); i++) {
		const struct ms_target *t = ms_plan_target(i);

		if (t->kind != MS_KIND_CHECK || t->state != MS_STATE_ATTACHED)
			continue;
		mixed[t->index] |= chk_ops[t->index] && chk_ops[t->index] != t->ops;
		chk_ops[t->index] = t->ops;
	}
	for (i = 0; i < MS_NCHK; i++) {
		if (!chk_ops[i])
			continue;
		if (mixed[i] || !ms_calib_get(chk_ops[i], &c)) {
			r->chk_uncalibrated[i] = true;
			continue;
		}
		r->chk_inner[i] = c.inner_ns;
		r->chk_outer[i] = c.outer_ns;
	}
}

static void ms_fill_report(struct ms_report *r, struct ms_report_probe *probes,
			   char *comm, char *cs, const struct ms_table *snap)
{
	const struct ms_backend_ops *sys = ms_backend_syscalls();
	unsigned int i;

	memset(r, 0, sizeof(*r));
	ms_filter_show(&r->filter_tgid, comm);
	ms_clocksource(cs, MS_CLOCKSOURCE_LEN);
	r->version = MS_VERSION;
	r->clocksource = cs;
	r->clock = ms_clock_name();
	r->clock_switched = ms_clock_switched();
	r->clock_backwards = ms_clock_backwards_total();
	r->kernel = init_utsname()->release;
	r->mseal_supported = ms_plan_mseal_supported();
	r->backend = ms_backend_checks()->name;
	r->syscall_backend = sys ? sys->name : "off";
	r->syscalls_probed = sys;
	r->syscall_span = sys ? sys->span : NULL;
	r->sys_in_flight = ms_systp_in_flight();
	r->kprobes_enabled = ms_kprobes_enabled();
	r->locked_down = ms_locked_down();
	r->maxactive = ms_maxactive();
	r->filter_comm = comm;
	ms_fill_calibration(r);
	r->t = snap;
	r->probes = probes;
	r->nprobes = ms_plan_count();
	for (i = 0; i < r->nprobes; i++) {
		const struct ms_target *t = ms_plan_target(i);
		struct ms_report_probe *p = &probes[i];
		bool on = t->state == MS_STATE_ATTACHED;

		p->name = t->name;
		p->kind = ms_kind_name(t->kind);
		p->state = ms_state_name(t->state);
		p->symbol = t->symbol;
		p->backend = on ? t->ops->name : "-";
		p->err = t->err;
		p->missed = ms_target_missed(t);
		if (t->kind == MS_KIND_SYSCALL) {
			r->sys_shown[t->index] |= on;
			r->sys_need_kprobes |= on && t->ops->needs_kprobes;
		} else {
			r->chk_shown[t->index] |= on;
			r->chk_need_kprobes |= on && t->ops->needs_kprobes;
		}
	}
}

/*
 * What one report is made from, on the heap: on the stack it is over 1 KiB
 * with KASAN's redzones (src-debug's FRAME_WARN).
 */
struct ms_gen {
	struct ms_report r;
	struct ms_report_probe probes[MS_NTARGETS];
	char comm[TASK_COMM_LEN];
	char cs[MS_CLOCKSOURCE_LEN];
	struct ms_table snap;
};

static struct ms_text *ms_generate(bool json)
{
	struct ms_text *txt = NULL;
	struct ms_buf b = { NULL, 0, 0 };
	struct ms_gen *g;
	unsigned long gen;
	u64 since_ns;

	g = kvzalloc(sizeof(*g), GFP_KERNEL);
	if (!g)
		return NULL;
	/*
	 * The probes' missed counts of the snapshot's generation: a reset
	 * moves the generation first and the missed counts' base after
	 * (control.c), so a generation unchanged after they were read means
	 * they are that generation's.  A reset meanwhile: again.
	 */
	do {
		gen = ms_stats_generation();
		ms_stats_snapshot(&g->snap, &since_ns);
		ms_fill_report(&g->r, g->probes, g->comm, g->cs, &g->snap);
		/*
		 * The missed counts ms_fill_report() read before the
		 * generation's second read: a reset writes the generation,
		 * then write_seqcount_end()'s smp_wmb(), then control.c
		 * resets the missed counts (ms_plan_reset_missed()).
		 */
		smp_rmb();
	} while (ms_stats_generation() != gen);
	g->r.since_reset_ns = since_ns;
	/* Once to measure, once to write. */
	if (json)
		ms_report_json(&b, &g->r);
	else
		ms_report_text(&b, &g->r);
	txt = kvmalloc(sizeof(*txt) + b.len + 1, GFP_KERNEL);
	if (txt) {
		b.data = txt->data;
		b.cap = b.len + 1;
		b.len = 0;
		if (json)
			ms_report_json(&b, &g->r);
		else
			ms_report_text(&b, &g->r);
		txt->len = min(b.len, b.cap - 1);
	}
	kvfree(g);
	return txt;
}

/* A report is made only for a reader: a write-only open gets none. */
static int ms_open(struct inode *inode, struct file *file)
{
	struct ms_text *txt;

	if (!(file->f_mode & FMODE_READ))
		return 0;
	txt = ms_generate(inode->i_private);
	if (!txt)
		return -ENOMEM;
	file->private_data = txt;
	return 0;
}

static ssize_t ms_read(struct file *file, char __user *ubuf, size_t count,
		       loff_t *ppos)
{
	struct ms_text *txt = file->private_data;

	return simple_read_from_buffer(ubuf, count, ppos, txt->data, txt->len);
}

static ssize_t ms_write(struct file *file, const char __user *ubuf,
			size_t count, loff_t *ppos)
{
	pr_notice_once("the report files take no commands: write reset or calibrate into " MS_COMMAND_PARAM "\n");
	return -EOPNOTSUPP;
}

static int ms_release(struct inode *inode, struct file *file)
{
	kvfree(file->private_data);
	return 0;
}

static const struct file_operations ms_fops = {
	.owner = THIS_MODULE,
	.open = ms_open,
	.read = ms_read,
	.write = ms_write,
	.release = ms_release,
	.llseek = default_llseek,
};

/*
 * Without its files the module would count into the void: refuse to load,
 * and say why.  What debugfs_create_file() returns: -ENODEV, the stub
 * without CONFIG_DEBUG_FS; -EPERM for debugfs=off, and on 7.x for
 * debugfs=no-mount too; -ENOENT for debugfs=no-mount on 6.12 (debugfs never
 * registered).  So the cmdline cases share one message.  NULL: kernels
 * before 5.x.  insmod gets -ENODEV in every case: -ENOENT would read
 * "unknown symbol in module".
 */
static int ms_debugfs_refuse(const char *name, struct dentry *d)
{
	int err = d ? PTR_ERR(d) : -ENODEV;
	const char *why;

	switch (err) {
	case -ENODEV:
		why = "debugfs is not in this kernel (CONFIG_DEBUG_FS is not set)";
		break;
	case -EPERM:
	case -ENOENT:
		why = "debugfs is not available (debugfs=off or debugfs=no-mount on the kernel command line)";
		break;
	default:
		why = "debugfs refused the file";
		break;
	}
	pr_err("cannot create /sys/kernel/debug/%s: %s (error %d); the report needs debugfs, not loading\n",
	       name, why, err);
	return -ENODEV;
}

int ms_debugfs_init(void)
{
	/* i_private: non-NULL selects JSON. */
	static int json_tag;

	ms_text_file = debugfs_create_file("mseal_stats", 0400, NULL, NULL, &ms_fops);
	if (IS_ERR_OR_NULL(ms_text_file))
		return ms_debugfs_refuse("mseal_stats", ms_text_file);
	ms_json_file = debugfs_create_file("mseal_stats.json", 0400, NULL,
					   &json_tag, &ms_fops);
	if (IS_ERR_OR_NULL(ms_json_file)) {
		debugfs_remove(ms_text_file);
		return ms_debugfs_refuse("mseal_stats.json", ms_json_file);
	}
	return 0;
}

void ms_debugfs_exit(void)
{
	debugfs_remove(ms_json_file);
	debugfs_remove(ms_text_file);
}
