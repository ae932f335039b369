// SPDX-License-Identifier: GPL-2.0
/*
 * plugin.c - the memory clock: a QEMU TCG plugin that counts, between two
 * marks a guest program leaves (scripts/lib/memclock_mark.h), the guest's
 * instructions and its instruction and data accesses through a modelled
 * cache hierarchy (cache.h), and prints the counts at the end mark.
 *
 *   qemu-system-... -accel tcg,thread=single -icount shift=0,... \
 *     -plugin memclock.so,l1i=32K:8,l1d=48K:12,l2=2M:16,llc=32M:16 \
 *     -d plugin -D memclock.log
 *
 * Two modes:
 *   off: the translator only looks for marks; no callback anywhere else,
 *        so the boot runs at TCG's usual speed;
 *   on:  every instruction adds 1 to the count inline, the first
 *        instruction of each 64-byte line of a block calls the L1I model,
 *        every memory access calls the L1D model.
 * The first ON switches on with qemu_plugin_reset(), which drops every
 * callback and translated block, so the next translation is instrumented;
 * BEGIN snapshots the counts; END prints the difference as one line.  The
 * model then stays on for the rest of the boot: a second reset, back to
 * off, makes QEMU 7.2 abort (plugins/core.c:473, "code should not be
 * reached": a vCPU's memory-callback list, left set by a block that ended
 * in an exception, is read after the reset has dropped what it held).
 *
 * Data lines are tagged with their guest-physical address.  QEMU 7.2's
 * API gives no physical address for an instruction, so instruction lines
 * are tagged with their host address (guest RAM is one host mapping, so
 * lines and sets fall as physical ones would, in an address space of
 * their own): code never shares a line with data here, and competes with
 * it for L2 and LLC space as on hardware.
 *
 * fn=ADDR (up to 8) names functions whose cost is counted apart as well:
 * from an execution of the instruction at ADDR until the return that
 * balances it (calls and returns counted from then on, so what the
 * function calls, and a tail call's target, are inside; an interrupt
 * taken inside is too).  What breaks the balance: a task switch inside
 * (6.12's __switch_to_asm fills the return stack buffer with calls that
 * never return), srso_return_thunk and call_depth_return_thunk (not
 * chosen for QEMU's max CPU, where the kernel patches its returns back to
 * a plain ret).  A one-task benchmark over checks that do not sleep meets
 * none of them; BEGIN and END, in user mode, find the depth 0 or say so.
 *
 * Accesses to I/O (MMIO) are counted apart and not cached, as are the
 * few whose physical address QEMU cannot give (unknown).  One TCG thread
 * is assumed (the instruction clock has one): the counts are plain
 * variables.
 *
 * What it does not see: page-table walks (QEMU's softmmu does them in C),
 * arm64's DC ZVA (clear_page, large memsets: QEMU clears host memory
 * directly, no memory callback).  What it counts as TCG runs it: an
 * instruction that faults is counted, then again when it restarts (the
 * instruction clock counts it once); x86 `rep` string instructions count
 * an instruction and a fetch per element, as the instruction clock does.
 * Every flush of the translated blocks while the model is on frees the
 * callback lists too: no abort was seen in any run, but the second-reset
 * abort above is of that kind.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <qemu-plugin.h>

#include "cache.h"
#include "../../scripts/lib/memclock_mark.h"

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

#define MC_LINE 64

static qemu_plugin_id_t self;
static int arm64;
static struct mc_cpu *cpus;
static unsigned int ncpus;
static struct mc_cache llc;

#define MC_MAX_FNS 8

/* What a window prints: insns counted inline, the rest in the callbacks. */
struct mc_counts {
	uint64_t insns, io, unknown;
	/* inside the fn= functions: entries, instructions, misses by level */
	uint64_t fn_calls, fn_insns, fn_l1_miss, fn_l2_miss, fn_llc_miss;
};
static struct mc_counts now, begin;
static uint64_t fns[MC_MAX_FNS];
static unsigned int nfns;
/* Per vCPU: call depth inside a fn= function (0: outside), insns at entry. */
static unsigned int *depth;
static uint64_t *entered_at;
static uint64_t begin_cache[4][2];	/* L1I, L1D, L2, LLC: accesses, misses */
static int on, switching, counting;	/* on: from the first ON to the end */
static unsigned int window;

static int mark_of(const struct qemu_plugin_insn *insn)
{
	static const unsigned char pre[] = { MC_MARK_X86_PREFIX }, suf[] = { MC_MARK_X86_SUFFIX };
	const unsigned char *b = qemu_plugin_insn_data(insn);
	size_t n = qemu_plugin_insn_size(insn);
	uint32_t w;
	int k;

	if (arm64) {
		if (n != 4)
			return 0;
		memcpy(&w, b, 4);
		for (k = MC_MARK_ON; k <= MC_MARK_END; k++)
			if (w == MC_MARK_ARM64(k))
				return k;
		return 0;
	}
	if (n != 7 || memcmp(b, pre, 3) || memcmp(b + 4, suf, 3))
		return 0;
	return b[3] >= MC_MARK_ON && b[3] <= MC_MARK_END ? b[3] : 0;
}

static void sum_caches(uint64_t out[4][2])
{
	unsigned int i;

	memset(out, 0, sizeof(uint64_t) * 8);
	for (i = 0; i < ncpus; i++) {
		out[0][0] += cpus[i].l1i.accesses; out[0][1] += cpus[i].l1i.misses;
		out[1][0] += cpus[i].l1d.accesses; out[1][1] += cpus[i].l1d.misses;
		out[2][0] += cpus[i].l2.accesses; out[2][1] += cpus[i].l2.misses;
	}
	out[3][0] = llc.accesses;
	out[3][1] = llc.misses;
}

/* An access served from LEVEL, charged to the fn= functions when inside. */
static void charge(unsigned int vcpu, enum mc_level level)
{
	if (!depth[vcpu] || level == MC_L1)
		return;
	now.fn_l1_miss++;
	if (level == MC_L2)
		return;
	now.fn_l2_miss++;
	if (level == MC_MEM)
		now.fn_llc_miss++;
}

static void insn_line(unsigned int vcpu, void *line)
{
	if (vcpu < ncpus)
		charge(vcpu, mc_access(&cpus[vcpu], true, (uint64_t)(uintptr_t)line));
}

static void data_access(unsigned int vcpu, qemu_plugin_meminfo_t info, uint64_t vaddr, void *u)
{
	struct qemu_plugin_hwaddr *hw = qemu_plugin_get_hwaddr(info, vaddr);
	uint64_t pa, size = 1ull << qemu_plugin_mem_size_shift(info);

	(void)u;
	if (!hw || vcpu >= ncpus) {
		now.unknown++;
		return;
	}
	if (qemu_plugin_hwaddr_is_io(hw)) {
		now.io++;
		return;
	}
	pa = qemu_plugin_hwaddr_phys_addr(hw);
	charge(vcpu, mc_access(&cpus[vcpu], false, pa));
	/* An access across a line boundary touches both lines. */
	if ((pa & (MC_LINE - 1)) + size > MC_LINE)
		charge(vcpu, mc_access(&cpus[vcpu], false, pa + size - 1));
}

/* The instruction at a fn= address: entered, unless already inside. */
static void fn_entry(unsigned int vcpu, void *u)
{
	(void)u;
	if (vcpu >= ncpus || depth[vcpu])
		return;
	depth[vcpu] = 1;
	entered_at[vcpu] = now.insns;
	now.fn_calls++;
}

static void fn_call(unsigned int vcpu, void *u)
{
	(void)u;
	if (vcpu < ncpus && depth[vcpu])
		depth[vcpu]++;
}

static void fn_ret(unsigned int vcpu, void *u)
{
	(void)u;
	if (vcpu >= ncpus || !depth[vcpu])
		return;
	/*
	 * QEMU runs an instruction's callbacks before its inline adds: the
	 * count at entry left the entry out, the count here leaves this
	 * return out, hence the 1.
	 */
	if (--depth[vcpu] == 0)
		now.fn_insns += now.insns - entered_at[vcpu] + 1;
}

enum flow { FLOW_NONE, FLOW_CALL, FLOW_RET };

/* Whether an instruction is a call or a return, from its bytes. */
static enum flow flow_of(const struct qemu_plugin_insn *insn)
{
	const unsigned char *b = qemu_plugin_insn_data(insn);
	size_t n = qemu_plugin_insn_size(insn), i = 0;
	uint32_t w;

	if (arm64) {
		if (n != 4)
			return FLOW_NONE;
		memcpy(&w, b, 4);
		if ((w & 0xfc000000u) == 0x94000000u ||		/* bl */
		    (w & 0xfffffc1fu) == 0xd63f0000u)		/* blr */
			return FLOW_CALL;
		if ((w & 0xfffffc1fu) == 0xd65f0000u ||		/* ret */
		    w == 0xd65f0bffu || w == 0xd65f0fffu)	/* retaa, retab */
			return FLOW_RET;
		return FLOW_NONE;
	}
	/* x86_64: legacy and REX prefixes, then the opcode. */
	while (i < n && (b[i] == 0x66 || b[i] == 0xf2 || b[i] == 0xf3 || b[i] == 0x2e ||
			 b[i] == 0x3e || (b[i] & 0xf0) == 0x40))
		i++;
	if (i >= n)
		return FLOW_NONE;
	if (b[i] == 0xe8 || (b[i] == 0xff && i + 1 < n && ((b[i + 1] >> 3) & 7) == 2))
		return FLOW_CALL;
	if (b[i] == 0xc3 || b[i] == 0xc2)
		return FLOW_RET;
	return FLOW_NONE;
}

static void translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);

static void switched(qemu_plugin_id_t id)
{
	on = 1;
	switching = 0;
	qemu_plugin_register_vcpu_tb_trans_cb(id, translate);
}

/* In user mode no fn= function is running: a depth left over is a bug. */
static void depth_check(const char *at)
{
	unsigned int v;

	for (v = 0; v < ncpus; v++) {
		if (!depth[v])
			continue;
		qemu_plugin_outs(at[0] == 'B' ? "memclock: fn= call depth not 0 at BEGIN (reset)\n"
					      : "memclock: fn= call depth not 0 at END (reset)\n");
		depth[v] = 0;
	}
}

static void mark(unsigned int vcpu, void *kind)
{
	uint64_t c[4][2];
	char line[512];

	(void)vcpu;
	switch ((int)(uintptr_t)kind) {
	case MC_MARK_ON:
		if (!on && !switching) {
			switching = 1;
			qemu_plugin_reset(self, switched);
		}
		break;
	case MC_MARK_BEGIN:
		depth_check("BEGIN");
		if (!on || switching) {
			qemu_plugin_outs("memclock: BEGIN while not modelling (no ON before it, "
					 "or in the same block)\n");
			break;
		}
		begin = now;
		sum_caches(begin_cache);
		counting = 1;
		break;
	case MC_MARK_END:
		depth_check("END");
		if (!counting) {
			qemu_plugin_outs("memclock: END with no BEGIN before it\n");
			break;
		}
		counting = 0;
		sum_caches(c);
		snprintf(line, sizeof(line),
			 "memclock: window %u insns %" PRIu64 " io %" PRIu64
			 " l1i %" PRIu64 " %" PRIu64 " l1d %" PRIu64 " %" PRIu64
			 " l2 %" PRIu64 " %" PRIu64 " llc %" PRIu64 " %" PRIu64
			 " fn %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64
			 " unknown %" PRIu64 "\n",
			 ++window, now.insns - begin.insns, now.io - begin.io,
			 c[0][0] - begin_cache[0][0], c[0][1] - begin_cache[0][1],
			 c[1][0] - begin_cache[1][0], c[1][1] - begin_cache[1][1],
			 c[2][0] - begin_cache[2][0], c[2][1] - begin_cache[2][1],
			 c[3][0] - begin_cache[3][0], c[3][1] - begin_cache[3][1],
			 now.fn_calls - begin.fn_calls, now.fn_insns - begin.fn_insns,
			 now.fn_l1_miss - begin.fn_l1_miss, now.fn_l2_miss - begin.fn_l2_miss,
			 now.fn_llc_miss - begin.fn_llc_miss, now.unknown - begin.unknown);
		qemu_plugin_outs(line);
		break;
	}
}

static void translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t i, n = qemu_plugin_tb_n_insns(tb);
	uintptr_t last = 0;

	(void)id;
	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		int k = mark_of(insn);
		uintptr_t h, end, line;

		if (k)
			qemu_plugin_register_vcpu_insn_exec_cb(insn, mark, QEMU_PLUGIN_CB_NO_REGS,
							       (void *)(uintptr_t)k);
		if (!on)
			continue;
		if (nfns) {
			uint64_t va = qemu_plugin_insn_vaddr(insn);
			unsigned int f;

			for (f = 0; f < nfns; f++)
				if (va == fns[f])
					qemu_plugin_register_vcpu_insn_exec_cb(insn, fn_entry,
									       QEMU_PLUGIN_CB_NO_REGS, NULL);
		}
		qemu_plugin_register_vcpu_insn_exec_inline(insn, QEMU_PLUGIN_INLINE_ADD_U64,
							   &now.insns, 1);
		h = (uintptr_t)qemu_plugin_insn_haddr(insn);
		/*
		 * One fetch per line a block enters; an instruction across two
		 * lines fetches both, within its first page (7.2 gives the host
		 * address of the page an instruction starts on: the next host
		 * page need not be the next guest page).  Code outside RAM has no
		 * host address: 7.2 then gives NULL (or NULL plus an offset).
		 */
		end = h + qemu_plugin_insn_size(insn) - 1;
		if ((end ^ h) & ~(uintptr_t)4095)
			end = h | 4095;
		for (line = h & ~(uintptr_t)(MC_LINE - 1);
		     h >= 4096 && line <= (end & ~(uintptr_t)(MC_LINE - 1));
		     line += MC_LINE) {
			if (line == last)
				continue;
			qemu_plugin_register_vcpu_insn_exec_cb(insn, insn_line, QEMU_PLUGIN_CB_NO_REGS,
							       (void *)line);
			last = line;
		}
		/*
		 * Calls and returns after the fetch, so a check's last ret is
		 * fetched inside it (its stack read, a memory callback, comes
		 * after the instruction: outside).
		 */
		switch (nfns ? flow_of(insn) : FLOW_NONE) {
		case FLOW_CALL:
			qemu_plugin_register_vcpu_insn_exec_cb(insn, fn_call, QEMU_PLUGIN_CB_NO_REGS, NULL);
			break;
		case FLOW_RET:
			qemu_plugin_register_vcpu_insn_exec_cb(insn, fn_ret, QEMU_PLUGIN_CB_NO_REGS, NULL);
			break;
		default:
			break;
		}
		qemu_plugin_register_vcpu_mem_cb(insn, data_access, QEMU_PLUGIN_CB_NO_REGS,
						 QEMU_PLUGIN_MEM_RW, NULL);
	}
}

static int geometry_arg(const char *arg, const char *key, struct mc_geometry *g)
{
	size_t n = strlen(key);

	if (strncmp(arg, key, n) || arg[n] != '=')
		return 0;
	if (mc_geometry_parse(arg + n + 1, g)) {
		fprintf(stderr, "memclock: %s: a geometry is SIZE:WAYS, as 48K:12\n", arg);
		return -1;
	}
	return 1;
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
					   int argc, char **argv)
{
	/* A current x86 server core's (Intel Golden Cove) and a shared LLC. */
	struct mc_geometry l1i = { 32 << 10, 8 }, l1d = { 48 << 10, 12 },
			   l2 = { 2 << 20, 16 }, shared = { 32 << 20, 16 };
	unsigned int i;
	int a;

	for (a = 0; a < argc; a++) {
		int r = geometry_arg(argv[a], "l1i", &l1i);

		if (!r)
			r = geometry_arg(argv[a], "l1d", &l1d);
		if (!r)
			r = geometry_arg(argv[a], "l2", &l2);
		if (!r)
			r = geometry_arg(argv[a], "llc", &shared);
		if (r < 0)
			return -1;
		if (!r && !strncmp(argv[a], "fn=", 3)) {
			char *end;

			if (nfns == MC_MAX_FNS) {
				fprintf(stderr, "memclock: at most %d fn=\n", MC_MAX_FNS);
				return -1;
			}
			fns[nfns] = strtoull(argv[a] + 3, &end, 16);
			if (end == argv[a] + 3 || *end || !fns[nfns]) {
				fprintf(stderr, "memclock: %s: fn= wants an address in hex\n", argv[a]);
				return -1;
			}
			nfns++;
			r = 1;
		}
		if (!r) {
			fprintf(stderr, "memclock: unknown argument %s (l1i=, l1d=, l2=, llc=, fn=)\n", argv[a]);
			return -1;
		}
	}
	if (!info->system_emulation) {
		fprintf(stderr, "memclock: system emulation only (physical addresses)\n");
		return -1;
	}
	arm64 = !strcmp(info->target_name, "aarch64");
	if (!arm64 && strcmp(info->target_name, "x86_64")) {
		fprintf(stderr, "memclock: no marks for %s (x86_64, aarch64)\n", info->target_name);
		return -1;
	}
	ncpus = (unsigned int)info->system.max_vcpus;
	cpus = calloc(ncpus, sizeof(*cpus));
	depth = calloc(ncpus, sizeof(*depth));
	entered_at = calloc(ncpus, sizeof(*entered_at));
	if (!cpus || !depth || !entered_at || mc_cache_init(&llc, &shared, MC_LINE))
		goto nomem;
	for (i = 0; i < ncpus; i++) {
		if (mc_cache_init(&cpus[i].l1i, &l1i, MC_LINE) ||
		    mc_cache_init(&cpus[i].l1d, &l1d, MC_LINE) ||
		    mc_cache_init(&cpus[i].l2, &l2, MC_LINE))
			goto nomem;
		cpus[i].llc = &llc;
	}
	self = id;
	qemu_plugin_register_vcpu_tb_trans_cb(id, translate);
	return 0;
nomem:
	fprintf(stderr, "memclock: a geometry that does not divide into 64-byte lines and whole sets, or no memory\n");
	return -1;
}
