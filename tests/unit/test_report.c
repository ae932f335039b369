// SPDX-License-Identifier: GPL-2.0
/*
 * test_report.c - the text and JSON reports (module/report.c, report_text.c,
 * buf.c) from a hand-made snapshot: exact rows, exact histogram lines, the
 * percentiles of a known histogram, rows without calls left out of the text
 * and kept in the JSON, "-" for no data, every text line within 100
 * columns, JSON that parses back to the same numbers, escaping, and the
 * count-then-write buffer.
 */
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include "buf.c"
#include "cell.c"
#include "names.c"
#include "report.c"
#include "report_text.c"
#include "../../scripts/lib/msjson.h"
#include "utap.h"

static struct ms_table t;
static char out[65536], s[256];

static const struct ms_report_probe probes[] = {
	{ "can_modify_vma_madv", "check", "attached", "can_modify_vma_madv", "direct", 0, 0 },
	{ "munmap", "syscall", "attached", "__x64_sys_munmap", "kretprobe", 0, 3 },
	{ "mseal", "syscall", "failed", "__x64_sys_mseal", "-", -22, 0 },
	{ "can_modify_vma", "check", "partial", "can_modify_vma.part.0", "-", 0, 0 },
	{ "can_modify_mm", "check", "absent", "can_modify_mm", "-", 0, 0 },
	{ "brk", "syscall", "off", "__x64_sys_brk", "-", 0, 0 },
	{ "can_modify_mm_madv", "check", "absent", "can_modify_mm_madv", "-", 0, 0 },
	{ "mremap", "syscall", "attached", "__x64_sys_mremap", "kretprobe", 0, 0 },
	{ "mprotect", "syscall", "attached", "__x64_sys_mprotect", "kretprobe", 0, 0 },
};

/*
 * 100 calls of known times: 40 of 200 ns (bucket 7: 128-255), 50 of 300
 * (bucket 8: 256-511), 9 of 600 (bucket 9: 512-1023), 1 of 5000 (bucket
 * 12: 4096-8191).  Total 33400, mean 334.  Percentiles (cell.h):
 *   p50: rank 50, the 10th of 50 in bucket 8: 256 + 255 * 10 / 50 = 307
 *   p90: rank 90, the 50th of 50 in bucket 8: its top, 511
 *   p99: rank 99, the 9th of 9 in bucket 9: its top, 1023
 *   p100: the top of bucket 12 narrowed to max: 5000
 *   p1: rank 1, bucket 7 narrowed to [min 200, 255]: 200 + 55 * 1 / 40 = 201
 */
static void fill_known(struct ms_cell *c)
{
	unsigned int i;

	for (i = 0; i < 40; i++)
		ms_cell_add(c, 200, false, false);
	for (i = 0; i < 50; i++)
		ms_cell_add(c, 300, false, false);
	for (i = 0; i < 9; i++)
		ms_cell_add(c, 600, false, false);
	ms_cell_add(c, 5000, false, false);
}

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
	r->clock = "tsc";
	r->calibration_ns = 100;
	r->calibration_outer_ns = 300;
	r->calib[0] = (struct ms_report_calib){ "direct", 100, 300, 1, "tsc", false };
	r->calib[1] = (struct ms_report_calib){ "kretprobe", 150, 700, 1, "tsc", false };
	r->ncalib = 2;
	r->chk_inner[vm] = 100;
	r->chk_outer[vm] = 300;
	r->sys_need_kprobes = true;
	r->sys_inner = 150;
	r->probes = probes;
	r->nprobes = ARRAY_SIZE(probes);
	r->since_reset_ns = 3723456789012ULL;	/* 1 h 2 min 3.456789012 s */
	r->sys_shown[MS_SYS_munmap] = true;
	r->sys_shown[MS_SYS_mremap] = true;	/* attached, no calls */
	r->sys_shown[MS_SYS_mprotect] = true;
	r->sys_shown[MS_SYS_madvise] = true;
	r->chk_shown[vm] = true;
	r->t = &t;
	ms_table_zero(&t);
	ms_cell_add(&t.cell[MS_CELL_SYS(MS_SYS_munmap)], 1000, false, false);
	ms_cell_add(&t.cell[MS_CELL_SYS(MS_SYS_munmap)], 3000, true, false);
	ms_cell_add(&t.cell[MS_CELL_SYS(MS_SYS_madvise)], 5000, false, false);
	ms_cell_add(&t.cell[MS_CELL_CHK(MS_SYS_madvise, vm)], 200, false, false);
	ms_cell_add(&t.cell[MS_CELL_CHK(MS_SYS_madvise, vm)], 400, true, false);
	ms_cell_add(&t.cell[MS_CELL_CHK(MS_OTHER, vm)], 150, false, false);
	ms_cell_add(&t.cell[MS_CELL_CHK(MS_WORKER, vm)], 250, true, false);
	ms_cell_add(&t.cell[MS_CELL_CHK(MS_WORKER, vm)], 350, false, false);
	fill_known(&t.cell[MS_CELL_SYS(MS_SYS_mprotect)]);
}

/* The widest line of TEXT, in bytes (the report is ASCII). */
static size_t widest(const char *text)
{
	size_t w = 0, n;

	for (; *text; text += n + (text[n] == '\n')) {
		n = strcspn(text, "\n");
		if (n > w)
			w = n;
	}
	return w;
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
	if (!json) {
		utap_ok(widest(out) <= MS_REPORT_COLS, "text: every line within %d columns (widest %zu)",
			MS_REPORT_COLS, widest(out));
		if (widest(out) > MS_REPORT_COLS)
			printf("# report was:\n%s", out);
	}
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

/* Lines in a row, named by the first. */
#define BLOCK(text, name, lines) do {					\
	utap_ok(has_line(text, lines), "text block: %s", name);		\
	if (!has_line(text, lines))					\
		printf("# report was:\n%s", text);			\
} while (0)

#define LINE(text, line) do {						\
	utap_ok(has_line(text, line), "text line: %s", line);		\
	if (!has_line(text, line))					\
		printf("# report was:\n%s", text);			\
} while (0)

static void test_text(const struct ms_report *r)
{
	render(r, false);
	LINE(out, "mseal_stats: kernel 6.12.0-test");
	LINE(out, "version: 0.1 (JSON schema 5)");
	LINE(out, "since load or reset: 3723.456 s (1:02:03)");
	LINE(out, "mseal supported: yes");
	LINE(out, "backend: direct (maxactive 64), syscalls and checks probed");
	LINE(out, "syscall backend: kretprobe");
	LINE(out, "filter: tgid 0 (all), comm \"a\\\"b\\\\c\\u0001\\u00e9\"");
	LINE(out, "clocksource: tsc");
	LINE(out, "timed with: tsc");
	LINE(out, "calibration: 100 ns inside each timed call (subtracted for net), 300 ns per probed call in all");
	LINE(out, "calibration of direct (CPU 1): 100 ns inside, 300 ns in all");
	LINE(out, "calibration of kretprobe (CPU 1): 150 ns inside, 700 ns in all");
	LINE(out, "commands: reset, calibrate into /sys/module/mseal_stats/parameters/command");
	LINE(out, "kprobes: enabled");
	/* Probes: a row each attached, failed or partial; absent and off one line each. */
	LINE(out, "  name                kind    state    backend      missed  symbol");
	LINE(out, "  can_modify_vma_madv check   attached direct            0  can_modify_vma_madv");
	LINE(out, "  munmap              syscall attached kretprobe         3  __x64_sys_munmap");
	LINE(out, "  mseal               syscall failed   -                 -  __x64_sys_mseal (error -22)");
	LINE(out, "  can_modify_vma      check   partial  -                 -  can_modify_vma.part.0");
	LINE(out, "absent: can_modify_mm can_modify_mm_madv");
	LINE(out, "off: brk");
	utap_ok(!strstr(out, "  can_modify_mm ") && !strstr(out, "  brk "),
		"text: no row for an absent or an off probe");
	LINE(out, "missed in all: 3");
	/* Syscalls: mprotect's percentiles from fill_known(); mremap has no calls: no row. */
	LINE(out, "  syscall            count  eperm errors      mean       p50       p90       p99        max");
	LINE(out, "  munmap                 2      1      0      2000      1023      3000      3000       3000");
	LINE(out, "  mprotect             100      0      0       334       307       511      1023       5000");
	LINE(out, "  madvise                1      0      0      5000      5000      5000      5000       5000");
	utap_ok(!strstr(out, "\n  mremap ") || strstr(out, "\n  mremap ") < strstr(out, "\nsyscalls"),
		"text: an attached syscall with no calls: no row");
	LINE(out, "  syscall         check                  count refused     mean      p50      p90      p99       max");
	LINE(out, "  madvise         can_modify_vma_madv        2       1      300      255      400      400       400");
	LINE(out, "  other           can_modify_vma_madv        1       0      150      150      150      150       150");
	LINE(out, "  worker          can_modify_vma_madv        2       1      300      255      350      350       350");
	LINE(out, "  note: munmap missed 3 calls: checks made in them may be in the other rows");
	/*
	 * madvise: net check 600 - 2 * 100 (direct's inside) = 400; net syscall
	 * 5000 - 150 (its own kretprobe's inside) - 2 * 300 (direct's in all) =
	 * 4250; 400/4250 = 9.4%.  Other and worker are in no syscall: "-".
	 */
	LINE(out, "  syscall         check                  count         total           net    share");
	LINE(out, "  munmap          (syscall)                  2          4000          3700     0.0%");
	LINE(out, "  mprotect        (syscall)                100         33400         18400     0.0%");
	LINE(out, "  madvise         (syscall)                  1          5000          4250     9.4%");
	LINE(out, "  madvise         can_modify_vma_madv        2           600           400     9.4%");
	LINE(out, "  other           can_modify_vma_madv        1           150            50        -");
	LINE(out, "  worker          can_modify_vma_madv        2           600           400        -");
	/* Histograms: first to last non-empty bucket, the empty ones between kept. */
	BLOCK(out, "mprotect's histogram, buckets 7 to 12, and its closing line",
	      "mprotect: syscall time\n"
		  "     nsecs               : count     distribution\n"
		  "       128 -> 255        : 40       |********************************        |\n"
		  "       256 -> 511        : 50       |****************************************|\n"
		  "       512 -> 1023       : 9        |*******                                 |\n"
		  "      1024 -> 2047       : 0        |                                        |\n"
		  "      2048 -> 4095       : 0        |                                        |\n"
		  "      4096 -> 8191       : 1        |                                        |\n"
		  "avg = 334 ns, total = 33400 ns, count = 100");
	BLOCK(out, "munmap's histogram, buckets 9 to 11, and its closing line",
	      "munmap: syscall time\n"
		  "     nsecs               : count     distribution\n"
		  "       512 -> 1023       : 1        |****************************************|\n"
		  "      1024 -> 2047       : 0        |                                        |\n"
		  "      2048 -> 4095       : 1        |****************************************|\n"
		  "avg = 2000 ns, total = 4000 ns, count = 2");
	LINE(out, "worker: can_modify_vma_madv time (raw)");
	LINE(out, "madvise: can_modify_vma_madv time (raw)");
	LINE(out, "avg = 150 ns, total = 150 ns, count = 1");
	utap_ok(!strstr(out, "0 -> 1 "), "text: no empty bucket before the first non-empty one");
	utap_ok(strlen(out) > 15 && !strcmp(out + strlen(out) - 15, "\nend of report\n"),
		"text: the last line is \"end of report\"");
	utap_ok(!strstr(out, "warning: the clock"), "text: no clock warning with a calibration");
	utap_ok(!strstr(out, "warning: clocksource"), "text: no clocksource warning on the TSC");
	utap_ok(!strstr(out, "mseal: syscall time") && !strstr(out, "mremap: syscall time"),
		"text: no histogram without data");
	utap_ok(strstr(out, "\n  mseal ") && !strstr(strstr(out, "\n  mseal ") + 1, "\n  mseal "),
		"text: a syscall whose probe failed: a probe row, no syscall row");
	utap_ok(!strstr(out, "nan") && !strstr(out, " 0 ns"), "text: no nan, no 0 ns mean");
}

/* Percentiles from fill_known()'s histogram, and the rank without overflow. */
static void test_percentiles(void)
{
	struct ms_cell c;

	memset(&c, 0, sizeof(c));
	utap_eq_u64(ms_cell_percentile(&c, 50), 0, "percentile: no calls: 0 (the text shows -)");
	ms_cell_zero(&c);
	fill_known(&c);
	utap_eq_u64(ms_cell_percentile(&c, 50), 307, "percentile: p50 interpolated in 256-511");
	utap_eq_u64(ms_cell_percentile(&c, 90), 511, "percentile: p90 at the top of its bucket");
	utap_eq_u64(ms_cell_percentile(&c, 99), 1023, "percentile: p99 at the top of its bucket");
	utap_eq_u64(ms_cell_percentile(&c, 100), 5000, "percentile: p100 is max, not 8191");
	utap_eq_u64(ms_cell_percentile(&c, 1), 201, "percentile: p1 from min 200 up, not from 128");
	ms_cell_zero(&c);
	ms_cell_add(&c, 777, false, false);
	utap_eq_u64(ms_cell_percentile(&c, 50), 777, "percentile: one call: its time exactly");
	utap_eq_u64(ms_rank(101, 50), 51, "percentile: rank ceil(101 * 50 / 100) = 51");
	utap_eq_u64(ms_rank(1000, 99), 990, "percentile: rank of p99 of 1000 = 990");
	utap_eq_u64(ms_rank(99, 99), 99, "percentile: rank of p99 of 99 = 99");
	utap_eq_u64(ms_rank(1, 1), 1, "percentile: rank of p1 of 1 = 1");
	utap_eq_u64(ms_rank(1ULL << 62, 99),
		    (u64)(((unsigned __int128)(1ULL << 62) * 99 + 99) / 100),
		    "percentile: rank of 2^62 calls, no overflow");
}

/* Checks only: the syscalls table says why it is empty; long lines wrap. */
static void test_narrow(const struct ms_report *r)
{
	static const struct ms_report_probe all_off[] = {
		{ "mmap", "syscall", "off", "-", "-", 0, 0 },
		{ "munmap", "syscall", "off", "-", "-", 0, 0 },
		{ "mremap", "syscall", "off", "-", "-", 0, 0 },
		{ "mprotect", "syscall", "off", "-", "-", 0, 0 },
		{ "pkey_mprotect", "syscall", "off", "-", "-", 0, 0 },
		{ "madvise", "syscall", "off", "-", "-", 0, 0 },
		{ "process_madvise", "syscall", "off", "-", "-", 0, 0 },
		{ "brk", "syscall", "off", "-", "-", 0, 0 },
		{ "mseal", "syscall", "off", "-", "-", 0, 0 },
		{ "shmdt", "syscall", "off", "-", "-", 0, 0 },
		{ "can_modify_mm", "check", "off", "-", "-", 0, 0 },
		{ "can_modify_mm_madv", "check", "off", "-", "-", 0, 0 },
		{ "can_modify_vma", "check", "off", "-", "-", 0, 0 },
		{ "can_modify_vma_madv", "check", "off", "-", "-", 0, 0 },
	};
	static struct ms_table empty;
	struct ms_report z = *r;

	z.syscalls_probed = false;
	z.t = &empty;
	z.probes = all_off;
	z.nprobes = ARRAY_SIZE(all_off);
	z.filter_comm = "\x01\x02\x03\x04\x05\x06\x07\x08\x0e\x0f\x10\x11\x12\x13\x14";
	z.filter_tgid = 2147483647;
	z.locked_down = true;
	z.kprobes_enabled = false;
	z.chk_uncalibrated[MS_CHK_can_modify_vma_madv] = true;
	z.calibration_ns = 0;
	z.clocksource = "acpi_pm";
	render(&z, false);
	LINE(out, "backend: direct, checks only (syscalls=0)");
	LINE(out, "off: mmap munmap mremap mprotect pkey_mprotect madvise process_madvise brk mseal shmdt can_modify_mm");
	LINE(out, "  can_modify_mm_madv can_modify_vma can_modify_vma_madv");
	LINE(out, "  comm \"\\u0001\\u0002\\u0003\\u0004\\u0005\\u0006\\u0007\\u0008\\u000e\\u000f\\u0010\\u0011\\u0012\\u0013\\u0014\"");
	LINE(out, "warning: kprobes are disabled (/sys/kernel/debug/kprobes/enabled is 0):");
	LINE(out, "filter: tgid 2147483647,");
	LINE(out, "  (not probed: syscalls=0; each check is charged to the syscall it ran in)");
	LINE(out, "lockdown: debugfs is read-only here, the command parameter is not");
	utap_ok(strstr(out, "checks (ns, raw):\n  syscall") &&
		strstr(strstr(out, "checks (ns, raw):"), "max\n  (none counted)\n"),
		"text: no checks: \"(none counted)\"");
	utap_ok(!strstr(out, " time (raw)") && !strstr(out, "avg = "), "text: no calls: no histogram");
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
	utap_eq_u64(msj_int(out, "schema", -1), 5, "json: schema");
	utap_eq_u64(msj_int(out, "since_reset_ns", -1), 3723456789012ULL, "json: since_reset_ns");
	utap_eq_u64(msj_int(out, "syscalls.mremap.count", -1), 0, "json: an attached syscall with no calls is kept");
	utap_eq_u64(msj_int(out, "syscalls.mprotect.ns.hist.12", -1), 1, "json: mprotect's whole histogram");
	utap_eq_str(msj_str(out, "clocksource", s, sizeof(s)), "tsc", "json: clocksource");
	utap_eq_str(msj_str(out, "clock", s, sizeof(s)), "tsc", "json: clock");
	utap_eq_str(msj_str(out, "calibration.kretprobe.clock", s, sizeof(s)), "tsc", "json: calibration.kretprobe.clock");
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
	BLOCK(out, "the clock warning", "warning: the clock did not advance inside a probed call: a coarse clocksource\n"
	      "  (jiffies?) or no calibration; times are not meaningful");
	z.clocksource = "hpet";
	render(&z, false);
	LINE(out, "warning: clocksource hpet: a slow device read (in a VM, an exit) that dominates every figure");
	z.clocksource = "jiffies";
	render(&z, false);
	LINE(out, "warning: clocksource jiffies: ticks, not nanoseconds");
	utap_ok(!strstr(out, "changed clocksource"), "text: one clock, no warning of two");
	/* The kernel left the TSC in this generation (clock.h's name for it). */
	z.clocksource = "hpet";
	z.clock = "tsc, then ktime_get_mono_fast_ns";
	z.clock_switched = true;
	render(&z, false);
	LINE(out, "timed with: tsc, then ktime_get_mono_fast_ns");
	BLOCK(out, "the two-clock warning",
	      "warning: the kernel changed clocksource during these figures: the calls before\n"
	      "  were timed with the counter, the later ones with its clocksource; reset for one clock");
	render(&z, true);
	{
		char s[64];

		utap_eq_str(msj_str(out, "clock", s, sizeof(s)), "tsc, then ktime_get_mono_fast_ns",
			    "json: clock, both");
	}
	/* After a reset: one clock, and a calibration taken with the other. */
	z.clock = "ktime_get_mono_fast_ns";
	z.clock_switched = false;
	z.calib[1].stale = true;
	render(&z, false);
	utap_ok(!strstr(out, "changed clocksource"), "text: after a reset, no warning of two clocks");
	utap_ok(!strstr(out, "calibration of direct was taken"), "text: no warning for a calibration of the clock now");
	BLOCK(out, "the stale calibration's warning",
	      "warning: the calibration of kretprobe was taken with tsc, which no longer times\n"
	      "  the calls: nets are off until calibrate is written to the command parameter");
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
	BLOCK(out, "kprobes warning: no probe fires", "warning: kprobes are disabled (/sys/kernel/debug/kprobes/enabled is 0):\n"
	      "  no probe fires, nothing is counted until 1 is written there");
	utap_ok(!strstr(out, "kprobes: enabled"), "text: kprobes off: no \"kprobes: enabled\" line");
	render(&z, true);
	utap_ok(msj_valid(out) && msj_bool(out, "kprobes_enabled") == 0, "json: kprobes_enabled false");

	z.syscall_backend = "tracepoint";
	z.syscall_span = "raw_syscalls sys_enter to sys_exit";
	z.sys_need_kprobes = false;
	render(&z, false);
	LINE(out, "syscall backend: tracepoint (raw_syscalls sys_enter to sys_exit)");
	z.clock_backwards = 3;
	render(&z, false);
	BLOCK(out, "clock went back: a warning with the count",
	      "warning: 3 calls since load ended before they began on the clock (a task moved\n"
	      "  between CPUs whose counters disagree): each counted, timed as 0 ns");
	render(&z, true);
	utap_eq_u64(msj_int(out, "clock_backwards", -1), 3, "json: clock_backwards");
	z.clock_backwards = 0;
	{
		char s[64];

		utap_eq_str(msj_str(out, "syscall_span", s, sizeof(s)),
			    "raw_syscalls sys_enter to sys_exit", "json: syscall_span");
	}
	render(&z, false);
	BLOCK(out, "kprobes warning: the checks are not counted until 1 is written there", "warning: kprobes are disabled (/sys/kernel/debug/kprobes/enabled is 0):\n"
	      "  the checks are not counted until 1 is written there (the syscalls are)");
	z.chk_need_kprobes = false;
	z.sys_need_kprobes = true;
	z.syscall_backend = "kretprobe";
	render(&z, false);
	BLOCK(out, "kprobes warning: the syscalls are not counted until 1 is written there", "warning: kprobes are disabled (/sys/kernel/debug/kprobes/enabled is 0):\n"
	      "  the syscalls are not counted until 1 is written there (the checks are)");
	z.sys_need_kprobes = false;
	z.syscall_backend = "tracepoint";
	render(&z, false);
	BLOCK(out, "kprobes warning: kretprobes would not fire", "warning: kprobes are disabled (/sys/kernel/debug/kprobes/enabled is 0):\n"
	      "  kretprobes would not fire (these backends do not need them)");
	z.chk_need_kprobes = true;
	z.syscalls_probed = false;
	render(&z, false);
	BLOCK(out, "kprobes warning: no probe fires", "warning: kprobes are disabled (/sys/kernel/debug/kprobes/enabled is 0):\n"
	      "  no probe fires, nothing is counted until 1 is written there");
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
	LINE(out, "  madvise         (syscall)                  1          5000          3600     8.3%");
	LINE(out, "  madvise         can_modify_vma_madv        2           600           300     8.3%");
	utap_ok(!strstr(out, "has no calibration"), "text: a calibrated fallback: no warning");
	{
		struct ms_buf nb = { NULL, 0, 0 };

		ms_col_share(&nb, ~0ULL, 1);
		utap_eq_u64(nb.len, 9, "share: a net far past its syscall's: no overflow, still 8 wide");
	}
	z.chk_uncalibrated[vm] = true;
	z.chk_inner[vm] = 0;
	z.chk_outer[vm] = 0;
	render(&z, false);
	BLOCK(out, "the uncalibrated check's warning",
	      "warning: can_modify_vma_madv has no calibration of its own backend (not calibrated, or\n"
	      "  its symbols on two backends): its net times are not net");
}

/*
 * A cell of COUNT calls: all but one of 300 ns (bucket 8: 256-511), one of
 * MAX (a bucket of its own, far up), set by hand: counting 5e9 calls one
 * by one would take a minute.
 */
static void fill_huge(struct ms_cell *c, u64 count, u64 bad, u64 max)
{
	memset(c, 0, sizeof(*c));
	c->count = count;
	c->bad = bad;
	c->total_ns = (count - 1) * 300 + max;
	c->min_ns = 300;
	c->max_ns = max;
	c->hist[ms_hist_bucket(300)] = count - 1;
	c->hist[ms_hist_bucket(max)] = 1;
}

/*
 * A module loaded for days: 5e9 checks, a max of 7 s, 3e9 missed, a long
 * symbol with an error after it, a name longer than its column.  Every line
 * stays within 100 columns: a table that would pass them keeps its usual
 * widths and shows the figures too wide for them scaled (report_text.c).
 */
static void test_huge(const struct ms_report *r)
{
	static const struct ms_report_probe long_probes[] = {
		{ "can_modify_vma_madv", "check", "attached", "can_modify_vma_madv", "direct", 0, 3000000000ULL },
		{ "a_probe_name_of_thirty_letters", "syscall", "failed",
		  "__x64_sys_a_symbol_as_long_as_a_symbol_may_get_here_0123456789", "-", -2147483647 - 1, 0 },
		{ "munmap", "syscall", "attached",
		  "__x64_sys_munmap.isra.0.constprop.0.part.0.cold.0.llvm.1234567", "kretprobe", 0, 7 },
	};
	static struct ms_table big;
	unsigned int vm = MS_CHK_can_modify_vma_madv;
	struct ms_report z = *r;

	z.t = &big;
	z.probes = long_probes;
	z.nprobes = ARRAY_SIZE(long_probes);
	fill_huge(&big.cell[MS_CELL_SYS(MS_SYS_process_madvise)], 5000000000ULL, 12345678ULL,
		  7000000000ULL);
	big.cell[MS_CELL_SYS(MS_SYS_process_madvise)].errors = 3000000000ULL;
	fill_huge(&big.cell[MS_CELL_CHK(MS_SYS_process_madvise, vm)], 5000000000ULL, 20000000ULL,
		  7000000000ULL);
	fill_known(&big.cell[MS_CELL_SYS(MS_SYS_mprotect)]);
	fill_known(&big.cell[MS_CELL_CHK(MS_WORKER, vm)]);
	render(&z, false);
	/* Probes: missed widened (the symbols take what is left), the long name and the symbols cut. */
	LINE(out, "  name                kind    state    backend        missed  symbol");
	LINE(out, "  can_modify_vma_madv check   attached direct     3000000000  can_modify_vma_madv");
	LINE(out, "  a_probe_name_of_th~ syscall failed   -                   -  __x64_sys_a_symbo~ (error -2147483648)");
	LINE(out, "  munmap              syscall attached kretprobe           7  __x64_sys_munmap.isra.0.constprop.0.p~");
	/* Syscalls: 5e9 and 3e9 need 10 columns, 7e9 fits max's: the table grows to 99. */
	LINE(out, "  syscall              count    eperm     errors      mean       p50       p90       p99        max");
	LINE(out, "  mprotect               100        0          0       334       307       511      1023       5000");
	LINE(out, "  process_madvise 5000000000 12345678 3000000000       301       405       489       508 7000000000");
	/* Checks: 100 columns as they are: the usual widths, the big figures scaled. */
	LINE(out, "  syscall         check                  count refused     mean      p50      p90      p99       max");
	LINE(out, "  process_madvise can_modify_vma_madv     5.0G   20.0M      301      405      489      508      7.0G");
	LINE(out, "  worker          can_modify_vma_madv      100       0      334      307      511     1023      5000");
	/* Totals: count grows to 10 columns, within 100. */
	LINE(out, "  syscall         check                    count         total           net    share");
	LINE(out, "  process_madvise can_modify_vma_madv 5000000000 1506999999700 1006999999700        -");
	render(&z, true);
	utap_ok(msj_valid(out), "json: huge figures parse");
	utap_eq_u64(msj_int(out, "syscalls.process_madvise.checks.can_modify_vma_madv.count", -1),
		    5000000000ULL, "json: huge figures exact");
}

/* The figures a column shows in place of one too wide for it. */
static void test_scaled(void)
{
	static const struct { u64 v; int w; const char *want; } cases[] = {
		{ 123456789ULL, 8, "   123.4M" },
		{ 999999999ULL, 8, "   999.9M" },
		{ 1000000000ULL, 6, "   1.0G" },
		{ 18446744073709551615ULL, 6, "  18.4E" },
		{ 1234567ULL, 6, "   1.2M" },
	};
	char got[32];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct ms_buf b = { got, sizeof(got), 0 };

		ms_col_scaled(&b, cases[i].w, cases[i].v);
		snprintf(s, sizeof(s), "scaled: %llu in %d columns", cases[i].v, cases[i].w);
		utap_eq_str(got, cases[i].want, s);
	}
}

/* The share column: 8 wide at most, ">999.9%" from 1000% up. */
static void test_share(void)
{
	static const struct { u64 net, of; const char *want; } cases[] = {
		{ 9999, 1000, "   999.9%" },
		{ 10, 1, "  >999.9%" },
		{ ~0ULL, 1, "  >999.9%" },
		{ 1, 3, "    33.3%" },
		{ 5, 0, "        -" },
	};
	char got[32];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct ms_buf b = { got, sizeof(got), 0 };

		ms_col_share(&b, cases[i].net, cases[i].of);
		snprintf(s, sizeof(s), "share: %llu of %llu", cases[i].net, cases[i].of);
		utap_eq_str(got, cases[i].want, s);
	}
}

/* True if FN(ARG) dies of SIGABRT in a child. */
static bool aborts(void (*fn)(u64), u64 arg)
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		/* No core and no sanitizer report for the abort we want. */
		setrlimit(RLIMIT_CORE, &(struct rlimit){ 0, 0 });
		signal(SIGABRT, SIG_DFL);
		fn(arg);
		_exit(0);
	}
	return pid > 0 && waitpid(pid, &status, 0) == pid &&
	       WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT;
}

static volatile u64 sink;

static void div_by(u64 div)
{
	sink = mul_u64_u64_div_u64(~0ULL, 2, div);
}

/* env.h's stand-in aborts where x86's divq traps. */
static void test_divq(void)
{
	utap_ok(aborts(div_by, 0), "mul_u64_u64_div_u64: a zero divisor aborts");
	utap_ok(aborts(div_by, 1), "mul_u64_u64_div_u64: a quotient past 64 bits aborts");
	utap_ok(!aborts(div_by, 2), "mul_u64_u64_div_u64: U64_MAX * 2 / 2 does not");
	utap_eq_u64(mul_u64_u64_div_u64(~0ULL, 3, 3), ~0ULL, "mul_u64_u64_div_u64: exact at U64_MAX");
}

static void test_lockdown(const struct ms_report *r)
{
	struct ms_report z = *r;

	z.locked_down = true;
	render(&z, false);
	LINE(out, "commands: reset, calibrate into /sys/module/mseal_stats/parameters/command");
	LINE(out, "lockdown: debugfs is read-only here, the command parameter is not");
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

	utap_plan(231);	/* render(): one check per call, two for text */
	make_report(&r);
	test_text(&r);
	test_json(&r);
	test_percentiles();
	test_narrow(&r);
	test_coarse_clock(&r);
	test_no_kretprobe(&r);
	test_kprobes_off(&r);
	test_calibration(&r);
	test_lockdown(&r);
	test_huge(&r);
	test_scaled();
	test_share();
	test_divq();
	test_buf();
	return utap_done();
}
