// SPDX-License-Identifier: GPL-2.0
/*
 * test_report.c - the text and JSON reports (module/report.c, buf.c) from a
 * hand-made snapshot: exact rows, exact histogram lines, JSON that parses
 * back to the same numbers, escaping, and the count-then-write buffer.
 */
#include "buf.c"
#include "cell.c"
#include "names.c"
#include "report.c"
#include "../guest/msjson.h"
#include "utap.h"

static struct ms_table t;
static char out[65536], s[256];

static const struct ms_report_probe probes[] = {
	{ "can_modify_vma_madv", "check", "attached", "can_modify_vma_madv", "direct", 0, 0 },
	{ "munmap", "syscall", "attached", "__x64_sys_munmap", "kretprobe", 0, 3 },
	{ "mseal", "syscall", "failed", "__x64_sys_mseal", "-", -22, 0 },
	{ "can_modify_vma", "check", "partial", "can_modify_vma.part.0", "-", 0, 0 },
};

static void make_report(struct ms_report *r)
{
	unsigned int vm = MS_CHK_can_modify_vma_madv;

	memset(r, 0, sizeof(*r));
	r->kernel = "6.12.0-test";
	r->mseal_supported = true;
	r->backend = "direct";
	r->syscall_backend = "kretprobe";
	r->syscalls_probed = true;
	r->kprobes_enabled = true;
	r->maxactive = 64;
	r->filter_tgid = 0;
	r->filter_comm = "a\"b\\c\x01\xe9";
	r->version = "0.1";
	r->clocksource = "tsc";
	r->calibration_ns = 100;
	r->calibration_outer_ns = 300;
	r->calib[0] = (struct ms_report_calib){ "direct", 100, 300, 1 };
	r->calib[1] = (struct ms_report_calib){ "kretprobe", 150, 700, 1 };
	r->ncalib = 2;
	r->chk_inner[vm] = 100;
	r->chk_outer[vm] = 300;
	r->sys_need_kprobes = true;
	r->sys_inner = 150;
	r->probes = probes;
	r->nprobes = 4;
	r->sys_shown[MS_SYS_munmap] = true;
	r->sys_shown[MS_SYS_madvise] = true;
	r->chk_shown[vm] = true;
	r->t = &t;
	ms_cell_add(&t.cell[MS_CELL_SYS(MS_SYS_munmap)], 1000, false, false);
	ms_cell_add(&t.cell[MS_CELL_SYS(MS_SYS_munmap)], 3000, true, false);
	ms_cell_add(&t.cell[MS_CELL_SYS(MS_SYS_madvise)], 5000, false, false);
	ms_cell_add(&t.cell[MS_CELL_CHK(MS_SYS_madvise, vm)], 200, false, false);
	ms_cell_add(&t.cell[MS_CELL_CHK(MS_SYS_madvise, vm)], 400, true, false);
	ms_cell_add(&t.cell[MS_CELL_CHK(MS_OTHER, vm)], 150, false, false);
	ms_cell_add(&t.cell[MS_CELL_CHK(MS_WORKER, vm)], 250, true, false);
	ms_cell_add(&t.cell[MS_CELL_CHK(MS_WORKER, vm)], 350, false, false);
}

/* Format twice, as the module does: count, then write. */
static size_t render(const struct ms_report *r, bool json)
{
	struct ms_buf b = { NULL, 0, 0 };
	size_t need;

	json ? ms_report_json(&b, r) : ms_report_text(&b, r);
	need = b.len;
	b.data = out;
	b.cap = need + 1;
	b.len = 0;
	json ? ms_report_json(&b, r) : ms_report_text(&b, r);
	utap_eq_u64(b.len, need, json ? "json: counting pass = writing pass" : "text: counting pass = writing pass");
	return need;
}

static bool has_line(const char *text, const char *line)
{
	size_t n = strlen(line);
	const char *p = text;

	while ((p = strstr(p, line))) {
		if ((p == text || p[-1] == '\n') && (p[n] == '\n' || p[n] == '\0'))
			return true;
		p += n;
	}
	return false;
}

#define LINE(text, line) do {						\
	utap_ok(has_line(text, line), "text line: %s", line);		\
	if (!has_line(text, line))					\
		printf("# report was:\n%s", text);			\
} while (0)

static void test_text(const struct ms_report *r)
{
	render(r, false);
	LINE(out, "mseal_stats: kernel 6.12.0-test");
	LINE(out, "mseal supported: yes");
	LINE(out, "backend: direct (maxactive 64), syscalls and checks probed");
	LINE(out, "syscall backend: kretprobe");
	LINE(out, "filter: tgid 0 (all), comm \"a\\\"b\\\\c\\u0001\\u00e9\"");
	LINE(out, "version: 0.1 (JSON schema 2)");
	LINE(out, "clocksource: tsc");
	LINE(out, "calibration: 100 ns of probe cost inside each timed call (subtracted for net), 300 ns per probed call in all");
	LINE(out, "calibration of direct (CPU 1): 100 ns inside, 300 ns in all");
	LINE(out, "calibration of kretprobe (CPU 1): 150 ns inside, 700 ns in all");
	LINE(out, "commands: reset, calibrate into /sys/module/mseal_stats/parameters/command");
	LINE(out, "  can_modify_vma_madv  check    attached  direct            0  can_modify_vma_madv");
	LINE(out, "  munmap               syscall  attached  kretprobe         3  __x64_sys_munmap");
	LINE(out, "  mseal                syscall  failed    -                 0  __x64_sys_mseal (error -22)");
	LINE(out, "  can_modify_vma       check    partial   -                 0  can_modify_vma.part.0");
	/*
	 * madvise: net check 600 - 2 * 100 (direct's inside) = 400; net syscall
	 * 5000 - 150 (its own kretprobe's inside) - 2 * 300 (direct's in all) =
	 * 4250; 400/4250 = 9.4%
	 */
	LINE(out, "  madvise                  1       0       0      5000      5000        5000         2         600         400     9.4%");
	LINE(out, "  munmap                   2       1       0      2000      1000        3000         0           0           0     0.0%");
	LINE(out, "  madvise          can_modify_vma_madv          2       1       300       200         400         600         400");
	LINE(out, "  other            can_modify_vma_madv          1       0       150       150         150         150          50");
	LINE(out, "  worker           can_modify_vma_madv          2       1       300       250         350         600         400");
	LINE(out, "worker: can_modify_vma_madv time (raw)");
	LINE(out, "munmap: syscall time");
	LINE(out, "     nsecs               : count     distribution");
	LINE(out, "         0 -> 1          : 0        |                                        |");
	LINE(out, "       512 -> 1023       : 1        |****************************************|");
	LINE(out, "      2048 -> 4095       : 1        |****************************************|");
	LINE(out, "madvise: can_modify_vma_madv time (raw)");
	LINE(out, "kprobes: enabled");
	LINE(out, "missed in all: 3");
	utap_ok(strlen(out) > 15 && !strcmp(out + strlen(out) - 15, "\nend of report\n"),
		"text: the last line is \"end of report\"");
	utap_ok(!strstr(out, "warning: the clock"), "text: no clock warning with a calibration");
	utap_ok(!strstr(out, "warning: clocksource"), "text: no clocksource warning on the TSC");
	utap_ok(!strstr(out, "mseal: syscall time"), "text: no histogram without data");
	utap_ok(strstr(out, "\n  mseal ") && !strstr(strstr(out, "\n  mseal ") + 1, "\n  mseal "),
		"text: a syscall whose probe failed: a probe row, no syscall row");
}

static void test_json(const struct ms_report *r)
{
	render(r, true);
	utap_ok(msj_valid(out), "json: parses");
	if (!msj_valid(out))
		printf("# json was:\n%s", out);
	utap_eq_str(msj_str(out, "kernel", s, sizeof(s)), "6.12.0-test", "json: kernel");
	utap_eq_u64(msj_bool(out, "mseal_supported"), 1, "json: mseal_supported");
	utap_eq_str(msj_str(out, "backend", s, sizeof(s)), "direct", "json: backend");
	utap_eq_str(msj_str(out, "syscall_backend", s, sizeof(s)), "kretprobe", "json: syscall_backend");
	utap_ok(msj_bool(out, "syscalls_probed") == 1, "json: syscalls_probed true");
	utap_eq_u64(msj_int(out, "filter.tgid", -1), 0, "json: filter.tgid");
	utap_eq_str(msj_str(out, "filter.comm", s, sizeof(s)), "a\"b\\c\x01\xe9", "json: filter.comm escaped and back");
	utap_eq_u64(msj_int(out, "calibration_ns", -1), 100, "json: calibration_ns");
	utap_eq_str(msj_str(out, "version", s, sizeof(s)), "0.1", "json: version");
	utap_eq_u64(msj_int(out, "schema", -1), 2, "json: schema");
	utap_eq_str(msj_str(out, "clocksource", s, sizeof(s)), "tsc", "json: clocksource");
	utap_eq_u64(msj_int(out, "calibration.direct.ns", -1), 100, "json: calibration.direct.ns");
	utap_eq_u64(msj_int(out, "calibration.kretprobe.ns", -1), 150, "json: calibration.kretprobe.ns");
	utap_eq_u64(msj_int(out, "calibration.kretprobe.outer_ns", -1), 700, "json: calibration.kretprobe.outer_ns");
	utap_eq_u64(msj_int(out, "calibration.kretprobe.cpu", -1), 1, "json: calibration.kretprobe.cpu");
	utap_eq_str(msj_str(out, "probes.2.state", s, sizeof(s)), "failed", "json: probes.2.state");
	utap_eq_str(msj_str(out, "probes.1.kind", s, sizeof(s)), "syscall", "json: probes.1.kind");
	utap_eq_u64(msj_int(out, "probes.1.missed", -1), 3, "json: probes.1.missed");
	utap_eq_str(msj_str(out, "probes.0.backend", s, sizeof(s)), "direct", "json: probes.0.backend");
	utap_eq_str(msj_str(out, "probes.1.backend", s, sizeof(s)), "kretprobe", "json: probes.1.backend");
	utap_eq_str(msj_str(out, "probes.1.symbol", s, sizeof(s)), "__x64_sys_munmap", "json: probes.1.symbol");
	utap_eq_str(msj_str(out, "probes.3.state", s, sizeof(s)), "partial", "json: probes.3.state");
	utap_ok(msj_bool(out, "locked_down") == 0, "json: locked_down false");
	utap_eq_u64(msj_int(out, "missed_total", -1), 3, "json: missed_total");
	utap_ok(msj_bool(out, "kprobes_enabled") == 1, "json: kprobes_enabled true");
	utap_eq_u64(msj_int(out, "syscalls.munmap.count", -1), 2, "json: munmap count");
	utap_eq_u64(msj_int(out, "syscalls.munmap.eperm", -1), 1, "json: munmap eperm");
	utap_eq_u64(msj_int(out, "syscalls.munmap.errors", -1), 0, "json: munmap errors");
	utap_eq_u64(msj_int(out, "syscalls.munmap.ns.total", -1), 4000, "json: munmap ns.total");
	utap_eq_u64(msj_int(out, "syscalls.munmap.ns.min", -1), 1000, "json: munmap ns.min");
	utap_eq_u64(msj_int(out, "syscalls.munmap.ns.max", -1), 3000, "json: munmap ns.max");
	utap_eq_u64(msj_int(out, "syscalls.munmap.ns.hist.9", -1), 1, "json: munmap hist[9] (512..1023)");
	utap_eq_u64(msj_int(out, "syscalls.munmap.ns.hist.11", -1), 1, "json: munmap hist[11] (2048..4095)");
	utap_ok(msj_find(out, "syscalls.munmap.ns.hist.12") == NULL, "json: hist ends at the last non-zero bucket");
	utap_eq_u64(msj_int(out, "syscalls.munmap.checks.can_modify_vma_madv.count", -1), 0, "json: an attached check with no hits is listed");
	utap_eq_u64(msj_int(out, "syscalls.madvise.checks.can_modify_vma_madv.count", -1), 2, "json: madvise check count");
	utap_eq_u64(msj_int(out, "syscalls.madvise.checks.can_modify_vma_madv.refused", -1), 1, "json: madvise check refused");
	utap_eq_u64(msj_int(out, "syscalls.madvise.checks.can_modify_vma_madv.ns.total", -1), 600, "json: madvise check ns.total (raw)");
	utap_eq_u64(msj_int(out, "other.can_modify_vma_madv.count", -1), 1, "json: other check count");
	utap_eq_u64(msj_int(out, "worker.can_modify_vma_madv.count", -1), 2, "json: worker check count");
	utap_eq_u64(msj_int(out, "worker.can_modify_vma_madv.refused", -1), 1, "json: worker check refused");
	utap_ok(msj_find(out, "syscalls.mseal") == NULL, "json: no entry for a syscall whose probe failed");
	utap_ok(msj_find(out, "syscalls.madvise.checks.can_modify_mm") == NULL, "json: no entry for an absent check");
}

static void test_coarse_clock(const struct ms_report *r)
{
	struct ms_report z = *r;

	z.calibration_ns = 0;
	render(&z, false);
	LINE(out, "warning: the clock did not advance inside a probed call: a coarse clocksource (jiffies?) or no calibration; times are not meaningful");
	z.clocksource = "hpet";
	render(&z, false);
	LINE(out, "warning: clocksource hpet: a read is a slow device access (in a VM, an exit), which dominates every figure");
	z.clocksource = "jiffies";
	render(&z, false);
	LINE(out, "warning: clocksource jiffies: ticks, not nanoseconds");
}

static void test_no_kretprobe(const struct ms_report *r)
{
	struct ms_report z = *r;

	/* Only the check: direct, so no kretprobe instances to count. */
	z.nprobes = 1;
	render(&z, false);
	LINE(out, "backend: direct, syscalls and checks probed");
}

static void test_kprobes_off(const struct ms_report *r)
{
	struct ms_report z = *r;

	/* What stops depends on which probes are kretprobes. */
	z.kprobes_enabled = false;
	z.chk_need_kprobes = true;
	render(&z, false);
	LINE(out, "warning: kprobes are disabled (/sys/kernel/debug/kprobes/enabled is 0): no probe fires, nothing is counted until 1 is written there");
	utap_ok(!strstr(out, "kprobes: enabled"), "text: kprobes off: no \"kprobes: enabled\" line");
	render(&z, true);
	utap_ok(msj_valid(out) && msj_bool(out, "kprobes_enabled") == 0, "json: kprobes_enabled false");

	z.syscall_backend = "tracepoint";
	z.sys_need_kprobes = false;
	render(&z, false);
	LINE(out, "syscall backend: tracepoint (raw_syscalls sys_enter to sys_exit)");
	LINE(out, "warning: kprobes are disabled (/sys/kernel/debug/kprobes/enabled is 0): the checks are not counted until 1 is written there (the syscalls are)");
	z.chk_need_kprobes = false;
	z.sys_need_kprobes = true;
	z.syscall_backend = "kretprobe";
	render(&z, false);
	LINE(out, "warning: kprobes are disabled (/sys/kernel/debug/kprobes/enabled is 0): the syscalls are not counted until 1 is written there (the checks are)");
	z.sys_need_kprobes = false;
	z.syscall_backend = "tracepoint";
	render(&z, false);
	LINE(out, "warning: kprobes are disabled (/sys/kernel/debug/kprobes/enabled is 0): kretprobes would not fire (these backends do not need them)");
	z.chk_need_kprobes = true;
	z.syscalls_probed = false;
	render(&z, false);
	LINE(out, "warning: kprobes are disabled (/sys/kernel/debug/kprobes/enabled is 0): no probe fires, nothing is counted until 1 is written there");
	utap_ok(!strstr(out, "syscall backend:"), "text: checks only: no syscall backend line");
	render(&z, true);
	utap_eq_str(msj_str(out, "syscall_backend", s, sizeof(s)), "off", "json: checks only: syscall_backend off");
}

/*
 * A check that fell back to kretprobe is netted with kretprobe's figures;
 * syscalls on the tracepoints subtract nothing of their own; a check with
 * no figures says so.
 */
static void test_calibration(const struct ms_report *r)
{
	unsigned int vm = MS_CHK_can_modify_vma_madv;
	struct ms_report z = *r;

	z.chk_inner[vm] = 150;
	z.chk_outer[vm] = 700;
	z.sys_inner = 0;
	render(&z, false);
	/* check net 600 - 2 * 150 = 300; syscall net 5000 - 2 * 700 = 3600; 300/3600 = 8.3% */
	LINE(out, "  madvise                  1       0       0      5000      5000        5000         2         600         300     8.3%");
	LINE(out, "  madvise          can_modify_vma_madv          2       1       300       200         400         600         300");
	utap_ok(!strstr(out, "has no calibration"), "text: a calibrated fallback: no warning");
	z.chk_uncalibrated[vm] = true;
	z.chk_inner[vm] = 0;
	z.chk_outer[vm] = 0;
	render(&z, false);
	LINE(out, "warning: can_modify_vma_madv has no calibration of its own backend (not calibrated, or its symbols on two backends): its net times are not net");
}

static void test_lockdown(const struct ms_report *r)
{
	struct ms_report z = *r;

	z.locked_down = true;
	render(&z, false);
	LINE(out, "commands: reset, calibrate into /sys/module/mseal_stats/parameters/command (lockdown: debugfs is read-only here, the parameter is not)");
	render(&z, true);
	utap_ok(msj_valid(out) && msj_bool(out, "locked_down") == 1, "json: locked_down true");
}

static void test_buf(void)
{
	char small[8];
	struct ms_buf b = { small, sizeof(small), 0 };

	memset(small, 'x', sizeof(small));
	ms_buf_printf(&b, "%s", "0123456789");
	ms_buf_printf(&b, "%d", 42);
	utap_eq_u64(b.len, 12, "buf: len counts what did not fit");
	utap_eq_str(small, "0123456", "buf: cut output, NUL-terminated in cap");
	b.data = NULL;
	b.len = 0;
	ms_buf_json_string(&b, "\n");
	utap_eq_u64(b.len, 8, "buf: \"\\u000a\" is 8 bytes");
}

int main(void)
{
	struct ms_report r;

	utap_plan(35 + 45 + 6 + 2 + 17 + 6 + 4 + 3);	/* render() checks once per call */
	make_report(&r);
	test_text(&r);
	test_json(&r);
	test_coarse_clock(&r);
	test_no_kretprobe(&r);
	test_kprobes_off(&r);
	test_calibration(&r);
	test_lockdown(&r);
	test_buf();
	return utap_done();
}
