// SPDX-License-Identifier: GPL-2.0
/*
 * debugfs.c - the report files.
 *
 *   /sys/kernel/debug/mseal_stats       (0600) the text report;
 *        `echo reset` zeroes all counters, `echo calibrate` measures the
 *        probe cost again (-EAGAIN when it cannot: calib.c).
 *   /sys/kernel/debug/mseal_stats.json  (0400) the same data as JSON.
 * Root only: the report shows what every process did (and the filter).
 *
 * A command is one write(2) at offset 0 of at most 15 bytes: the word, an
 * optional newline, no NUL.  Anything else (empty, too long, a NUL inside,
 * a command split over writes, pwrite at an offset, an unknown word) is
 * -EINVAL and changes nothing.  The offset is not advanced, so the same
 * descriptor can send the next command.
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
#include "filter.h"
#include "mseal_stats.h"
#include "plan.h"
#include "report.h"
#include "stats.h"

struct ms_text {
	size_t len;
	char data[];
};

static struct dentry *ms_text_file, *ms_json_file;

static void ms_fill_report(struct ms_report *r, struct ms_report_probe *probes,
			   struct ms_filter *f, const struct ms_table *snap)
{
	unsigned int i;

	memset(r, 0, sizeof(*r));
	ms_filter_get(f);
	r->kernel = init_utsname()->release;
	r->mseal_supported = ms_plan_mseal_supported();
	r->backend = ms_backend_name(ms_backend());
	r->syscall_backend = ms_backend_name(ms_syscall_backend());
	r->syscalls_probed = ms_syscalls_probed();
	r->kprobes_enabled = ms_kprobes_enabled();
	r->maxactive = ms_maxactive();
	r->filter_tgid = f->tgid;
	r->filter_comm = f->comm;
	r->calibration_ns = ms_calib_ns();
	r->calibration_outer_ns = ms_calib_outer_ns();
	r->t = snap;
	r->probes = probes;
	r->nprobes = MS_NTARGETS;
	for (i = 0; i < MS_NTARGETS; i++) {
		const struct ms_target *t = ms_plan_target(i);
		struct ms_report_probe *p = &probes[i];

		p->name = t->name;
		p->kind = ms_kind_name(t->kind);
		p->state = ms_state_name(t->state);
		p->symbol = t->symbol;
		p->err = t->err;
		p->missed = t->state == MS_STATE_ATTACHED ?
			    ms_target_missed(t) : 0;
		if (t->kind == MS_KIND_SYSCALL)
			r->sys_shown[t->index] = t->state == MS_STATE_ATTACHED;
		else
			r->chk_shown[t->index] = t->state == MS_STATE_ATTACHED;
	}
}

/*
 * What one report is made from, on the heap: on the stack it is over 1 KiB
 * with KASAN's redzones (src-debug's FRAME_WARN).
 */
struct ms_gen {
	struct ms_report r;
	struct ms_report_probe probes[MS_NTARGETS];
	struct ms_filter f;
	struct ms_table snap;
};

static struct ms_text *ms_generate(bool json)
{
	struct ms_text *txt = NULL;
	struct ms_buf b = { NULL, 0, 0 };
	struct ms_gen *g;

	g = kvzalloc(sizeof(*g), GFP_KERNEL);
	if (!g)
		return NULL;
	ms_stats_snapshot(&g->snap);
	ms_fill_report(&g->r, g->probes, &g->f, &g->snap);
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

static int ms_open(struct inode *inode, struct file *file)
{
	struct ms_text *txt = ms_generate(inode->i_private != NULL);

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
	char cmd[16];
	int err;

	if (*ppos != 0 || count == 0 || count >= sizeof(cmd))
		return -EINVAL;
	if (copy_from_user(cmd, ubuf, count))
		return -EFAULT;
	/* sysfs_streq() would stop at a NUL: "reset\0junk" is not "reset". */
	if (memchr(cmd, '\0', count))
		return -EINVAL;
	cmd[count] = '\0';
	if (sysfs_streq(cmd, "reset")) {
		ms_stats_reset();
	} else if (sysfs_streq(cmd, "calibrate")) {
		err = ms_calib_run(ms_maxactive());
		if (err)
			return err;
	} else {
		return -EINVAL;
	}
	return count;
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

static const struct file_operations ms_json_fops = {
	.owner = THIS_MODULE,
	.open = ms_open,
	.read = ms_read,
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

	ms_text_file = debugfs_create_file("mseal_stats", 0600, NULL, NULL, &ms_fops);
	if (IS_ERR_OR_NULL(ms_text_file))
		return ms_debugfs_refuse("mseal_stats", ms_text_file);
	ms_json_file = debugfs_create_file("mseal_stats.json", 0400, NULL,
					   &json_tag, &ms_json_fops);
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
