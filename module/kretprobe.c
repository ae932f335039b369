// SPDX-License-Identifier: GPL-2.0
/*
 * kretprobe.c - the kretprobe backend: a kretprobe per target.
 *
 * Every kernel has it, so it is the fallback everywhere: for a target whose
 * direct call is taken (direct.c), and on kernels without direct calls.  It
 * costs the most: an int3 or an ftrace trampoline that saves every
 * register on entry, an instance from a pool of maxactive per probe, and a
 * return through the rethook trampoline.  A call that finds the pool empty
 * is missed (counted by the kernel in nmissed, shown in the report).
 *
 * A kretprobe handler runs as a kprobe (kprobe_running() set; a kprobe hit
 * inside it is only counted as missed), with preemption off.
 *
 *   maxactive=N  instances per probe (0, the default: max(64, 8 * possible
 *                CPUs)); read at load only
 */
#include <linux/cpumask.h>
#include <linux/kprobes.h>
#include <linux/minmax.h>
#include <linux/moduleparam.h>
#include <linux/ptrace.h>
#include <linux/slab.h>
#include "mseal_stats_compat.h"
#include "backend.h"
#include "handlers.h"

struct ms_rp_probe {
	struct ms_probe p;
	struct kretprobe rp;
};

static notrace struct ms_rp_probe *ms_rp_of(struct kretprobe_instance *ri)
{
	return container_of(ms_kretprobe_of(ri), struct ms_rp_probe, rp);
}
NOKPROBE_SYMBOL(ms_rp_of);

static notrace int ms_rp_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	return !ms_handler_enter(&ms_rp_of(ri)->p, (struct ms_inst *)ri->data);
}
NOKPROBE_SYMBOL(ms_rp_entry);

static notrace int ms_rp_return(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	const struct ms_inst *in = (struct ms_inst *)ri->data;

	if (ms_handler_exit_in_task(&ms_rp_of(ri)->p, in))
		ms_handler_exit(in, regs_return_value(regs));
	return 0;
}
NOKPROBE_SYMBOL(ms_rp_return);

static bool ms_rp_available(void)
{
	return IS_ENABLED(CONFIG_KRETPROBES);
}

static int ms_rp_attach(struct ms_target *t, const char *symbol, void *addr)
{
	struct ms_rp_probe *p = kzalloc(sizeof(*p), GFP_KERNEL);
	int err;

	if (!p)
		return -ENOMEM;
	p->p.target = t;
	p->rp.maxactive = ms_maxactive();
	p->rp.data_size = sizeof(struct ms_inst);
	p->rp.entry_handler = ms_rp_entry;
	p->rp.handler = ms_rp_return;
	if (symbol)
		p->rp.kp.symbol_name = symbol;
	else
		p->rp.kp.addr = (kprobe_opcode_t *)addr;
	err = register_kretprobe(&p->rp);
	if (err) {
		kfree(p);
		return err;
	}
	t->probe = &p->p;
	return 0;
}

/*
 * unregister_kretprobes() disarms them all, waits one grace period for
 * every running entry handler, and clears each instance pool's link to
 * its kretprobe: a call still in flight returns through the kernel's
 * trampoline without calling our return handler.  So the probes can go.
 */
static void ms_rp_detach(struct ms_target **ts, unsigned int n)
{
	struct kretprobe *rps[MS_NTARGETS + 1];
	unsigned int i;

	for (i = 0; i < n && i < ARRAY_SIZE(rps); i++)
		rps[i] = &container_of(ts[i]->probe, struct ms_rp_probe, p)->rp;
	unregister_kretprobes(rps, i);
	for (i = 0; i < n && i < ARRAY_SIZE(rps); i++) {
		kfree(container_of(rps[i], struct ms_rp_probe, rp));
		ts[i]->probe = NULL;
	}
}

static unsigned long ms_rp_missed(const struct ms_target *t)
{
	return ms_kretprobe_missed(&container_of(t->probe, struct ms_rp_probe, p)->rp);
}

static int ms_maxactive_param;

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

static const struct kernel_param_ops ms_maxactive_ops = {
	.set = ms_maxactive_set,
	.get = ms_maxactive_get,
};

module_param_cb(maxactive, &ms_maxactive_ops, NULL, 0444);
MODULE_PARM_DESC(maxactive, "kretprobe instances per probe; 0: max(64, 8 * possible CPUs)");

const struct ms_backend_ops ms_kretprobe_ops = {
	.name = "kretprobe",
	.span = "the entry function " MS_SYSCALL_PREFIX "NAME",
	.wraps_calls = true,
	.requires = "CONFIG_KRETPROBES",
	.needs_kprobes = true,
	.available = ms_rp_available,
	.attach = ms_rp_attach,
	.detach = ms_rp_detach,
	.missed = ms_rp_missed,
};
