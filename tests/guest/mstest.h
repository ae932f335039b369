/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mstest.h - helpers for the guest tests of mseal_stats.ko: kselftest-style
 * TAP, the module's files and parameters, and the JSON report.
 *
 * Exact counts need a quiet process: between ms_reset() and ms_snapshot()
 * a test makes no call that could allocate (no stdio, no malloc), so that
 * every mmap, munmap and brk counted is one the test made on purpose.
 */
#ifndef MSTEST_H
#define MSTEST_H

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "../../scripts/lib/msjson.h"

#define MS_TEXT		"/sys/kernel/debug/mseal_stats"
#define MS_JSON		"/sys/kernel/debug/mseal_stats.json"
#define MS_PARAM(p)	"/sys/module/mseal_stats/parameters/" p
#define MS_COMMAND	MS_PARAM("command")
#define MS_NR_MSEAL	462

static int t_n, t_fail;
static char ms_json[1 << 20];

static inline void t_plan(int n)
{
	printf("1..%d\n", n);
	fflush(stdout);
}

static inline __attribute__((format(printf, 2, 3))) void t_ok(int ok, const char *fmt, ...)
{
	va_list ap;

	printf("%sok %d - ", ok ? "" : "not ", ++t_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	t_fail += !ok;
}

static inline __attribute__((format(printf, 1, 2))) void t_skip(const char *fmt, ...)
{
	va_list ap;

	printf("ok %d # SKIP ", ++t_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

static inline void t_eq(long long got, long long want, const char *name)
{
	t_ok(got == want, "%s: %lld (want %lld)", name, got, want);
}

static inline int t_exit(void)
{
	return t_fail ? 1 : 0;
}

/* Write S to PATH with one write(2); 0 or the errno. */
static inline int ms_write(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY), err = 0;

	if (fd < 0)
		return errno;
	if (write(fd, s, strlen(s)) < 0)
		err = errno;
	close(fd);
	return err;
}

static inline int ms_set_tgid(long tgid)
{
	char s[32];

	snprintf(s, sizeof(s), "%ld\n", tgid);
	return ms_write(MS_PARAM("tgid"), s);
}

static inline int ms_reset(void)
{
	return ms_write(MS_COMMAND, "reset\n");
}

/* Take the module's snapshot (at open) and read the JSON report. */
static inline const char *ms_snapshot(void)
{
	if (msj_read_file(MS_JSON, ms_json, sizeof(ms_json)) < 0)
		ms_json[0] = '\0';
	return ms_json;
}

/*
 * A fault injected for the tests of the tests (issue 30): with
 * MS_TEST_DROP_CHECK=NAME in the environment, the check NAME reads as if
 * the module had not attached it: its probe "absent", its cells missing.
 * A kernel that has NAME must then fail the tests, not skip them.
 */
static inline bool ms_dropped(const char *name)
{
	const char *drop = getenv("MS_TEST_DROP_CHECK");

	return drop && *drop && !strcmp(drop, name);
}

/*
 * Does the kernel promise FEATURE ("io_uring", "userfaultfd")?  From its
 * config, which the suites pass in MS_EXPECT_FEATURES
 * (tests/lib/kernel-checks.sh): where it is promised, a setup that fails
 * is a failure, never a skip.
 */
static inline bool ms_expects(const char *feature)
{
	const char *have = getenv("MS_EXPECT_FEATURES"), *p = have;
	size_t n = strlen(feature);

	while (p && (p = strstr(p, feature))) {
		if ((p == have || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
			return true;
		p += n;
	}
	return false;
}

/* Does the report path PATH ("syscalls.madvise.checks.NAME.count") name the
 * dropped check as one of its parts? */
static inline bool ms_path_dropped(const char *path)
{
	const char *drop = getenv("MS_TEST_DROP_CHECK"), *p = path;
	size_t n = drop ? strlen(drop) : 0;

	while (n && (p = strstr(p, drop))) {
		if ((p == path || p[-1] == '.') && (p[n] == '.' || p[n] == '\0'))
			return true;
		p += n;
	}
	return false;
}

/*
 * Does this kernel have the seal check NAME, so that the module must attach
 * it?  Never from the module's own report: from the table of the test bed's
 * kernels (tests/lib/kernel-checks.sh), which the suites pass in
 * MS_EXPECT_CHECKS ("can_modify_vma_madv", "can_modify_mm can_modify_mm_madv"
 * or "none"); without it (a test run by hand) from /proc/kallsyms, where a
 * check the module can attach is a function (also as NAME.isra.N and the
 * like).  A check the kernel has and the module did not attach is then a
 * failure, never a skip.  Read before the quiet part of a test (kallsyms
 * through stdio allocates): ms_kernel_checks() does so once.
 */
static inline bool ms_in_kallsyms(const char *name)
{
	char line[512], *sym;
	size_t n = strlen(name);
	bool found = false;
	FILE *f = fopen("/proc/kallsyms", "r");

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		/* "ADDR T NAME" or "ADDR t NAME\t[module]": built-in text only */
		if (strlen(line) < 4 || strchr(line, '['))
			continue;
		sym = strchr(line, ' ');
		if (!sym || (sym[1] != 't' && sym[1] != 'T') || sym[2] != ' ')
			continue;
		sym += 3;
		found = !strncmp(sym, name, n) && (sym[n] == '\0' || sym[n] == '.');
	}
	fclose(f);
	return found;
}

static const char *const ms_check_names[] = {
	"can_modify_mm", "can_modify_mm_madv", "can_modify_vma", "can_modify_vma_madv",
};
#define MS_NCHECKS 4
static int ms_kernel_check[MS_NCHECKS] = { -1, -1, -1, -1 };

/* Fill ms_kernel_check[] (once): 1 when the kernel has the check. */
static inline void ms_kernel_checks(void)
{
	const char *want = getenv("MS_EXPECT_CHECKS"), *p;
	size_t n;
	int i;

	if (ms_kernel_check[0] >= 0)
		return;
	for (i = 0; i < MS_NCHECKS; i++) {
		if (!want) {
			ms_kernel_check[i] = ms_in_kallsyms(ms_check_names[i]);
			continue;
		}
		ms_kernel_check[i] = 0;
		n = strlen(ms_check_names[i]);
		for (p = want; (p = strstr(p, ms_check_names[i])); p += n)
			if ((p == want || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
				ms_kernel_check[i] = 1;
	}
}

static inline bool ms_kernel_has(const char *name)
{
	int i;

	ms_kernel_checks();
	for (i = 0; i < MS_NCHECKS; i++)
		if (!strcmp(name, ms_check_names[i]))
			return ms_kernel_check[i] == 1;
	return false;
}

static inline long long ms_get(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static inline long long ms_get(const char *fmt, ...)
{
	char path[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(path, sizeof(path), fmt, ap);
	va_end(ap);
	if (ms_path_dropped(path))
		return -1;
	return msj_int(ms_json, path, -1);
}

/* State of the probe NAME in the last snapshot ("attached", ...). */
static inline const char *ms_probe_state(const char *name)
{
	static char state[32], path[64], s[64];
	int i;

	if (ms_dropped(name))
		return "absent";
	for (i = 0; i < 64; i++) {
		snprintf(path, sizeof(path), "probes.%d.name", i);
		if (!msj_str(ms_json, path, s, sizeof(s)))
			break;
		if (!strcmp(s, name)) {
			snprintf(path, sizeof(path), "probes.%d.state", i);
			return msj_str(ms_json, path, state, sizeof(state));
		}
	}
	return "missing";
}

static inline int ms_attached(const char *name)
{
	return !strcmp(ms_probe_state(name), "attached");
}

/*
 * One result: the check NAME is attached when the kernel has it (see
 * ms_kernel_has) and "absent" when it has not.
 */
static inline void ms_expect_check(const char *name)
{
	const char *st = ms_probe_state(name);
	bool has = ms_kernel_has(name);

	t_ok(has ? !strcmp(st, "attached") : !strcmp(st, "absent"),
	     "check %s: %s (%s the kernel)", name, st, has ? "in" : "not in");
}

/*
 * One result: the table (MS_EXPECT_CHECKS) names the checks /proc/kallsyms
 * has, no more, no fewer: the table is the kernel's, not a guess.  Without
 * the table, a skip (ms_kernel_has reads kallsyms then).
 */
static inline void ms_expect_table_is_kallsyms(void)
{
	char got[128] = "";
	int i, bad = 0;

	if (!getenv("MS_EXPECT_CHECKS")) {
		t_skip("MS_EXPECT_CHECKS not set: the checks come from /proc/kallsyms");
		return;
	}
	for (i = 0; i < MS_NCHECKS; i++) {
		bool k = ms_in_kallsyms(ms_check_names[i]);

		if (k) {
			strcat(got, " ");
			strcat(got, ms_check_names[i]);
		}
		bad += k != ms_kernel_has(ms_check_names[i]);
	}
	t_ok(!bad, "the kernel's checks in the table (\"%s\") are kallsyms' (\"%s\")",
	     getenv("MS_EXPECT_CHECKS"), got[0] ? got + 1 : "none");
}

/* Sum of "missed" over all probes in the last snapshot. */
static inline long long ms_missed_total(void)
{
	char path[64];
	long long sum = 0, m;
	int i;

	for (i = 0; i < 64; i++) {
		snprintf(path, sizeof(path), "probes.%d.missed", i);
		m = msj_int(ms_json, path, -1);
		if (m < 0)
			break;
		sum += m;
	}
	return sum;
}

/* Is NAME one of the backends the checks (CHK) or the syscalls can be on? */
static inline bool ms_backend_known(const char *name, bool chk)
{
	if (chk)
		return !strcmp(name, "direct") || !strcmp(name, "kretprobe");
	return !strcmp(name, "direct") || !strcmp(name, "tracepoint") || !strcmp(name, "kretprobe");
}

/*
 * One result: the last snapshot's "backend" is $MS_BACKEND when set, else
 * the one /sys/module/mseal_stats/parameters/backend shows (the one in use
 * once loaded), and is one the checks can be on; its "syscall_backend" the
 * same way with $MS_SYSCALL_BACKEND and parameters/syscall_backend; and
 * every attached check probe is on that backend, every attached syscall
 * probe on the syscall backend (none fell back: nothing else holds their
 * functions in these tests).
 */
static inline void ms_expect_backend(char *s, size_t size)
{
	const char *want = getenv("MS_BACKEND");
	const char *swant = getenv("MS_SYSCALL_BACKEND");
	char param[32] = "", sparam[32] = "", sjson[32] = "";
	char path[64], kind[16], state[16], pb[16];
	int i, wrong = 0, probes = 0;
	bool sys_ok, on;

	if (msj_read_file(MS_PARAM("backend"), param, sizeof(param)) < 0)
		strcpy(param, "?");
	param[strcspn(param, "\n")] = '\0';
	if (msj_read_file(MS_PARAM("syscall_backend"), sparam, sizeof(sparam)) < 0)
		strcpy(sparam, "?");
	sparam[strcspn(sparam, "\n")] = '\0';
	if (!want)
		want = param;
	if (!msj_str(ms_json, "backend", s, size))
		snprintf(s, size, "%s", "(missing)");
	if (!msj_str(ms_json, "syscall_backend", sjson, sizeof(sjson)))
		strcpy(sjson, "(missing)");
	/*
	 * The syscall side: "off" in the report with syscalls=0; else what
	 * MS_SYSCALL_BACKEND names (when set), which the parameter must show.
	 */
	on = msj_bool(ms_json, "syscalls_probed") != 0;
	if (!on)
		sys_ok = !strcmp(sjson, "off");
	else
		sys_ok = !strcmp(sjson, swant ? swant : sparam) && !strcmp(sjson, sparam) &&
			 ms_backend_known(sjson, false);
	for (i = 0; i < 64; i++) {
		snprintf(path, sizeof(path), "probes.%d.kind", i);
		if (!msj_str(ms_json, path, kind, sizeof(kind)))
			break;
		snprintf(path, sizeof(path), "probes.%d.state", i);
		msj_str(ms_json, path, state, sizeof(state));
		if (strcmp(state, "attached"))
			continue;
		probes++;
		snprintf(path, sizeof(path), "probes.%d.backend", i);
		if (!msj_str(ms_json, path, pb, sizeof(pb)) ||
		    strcmp(pb, !strcmp(kind, "check") ? s : sjson))
			wrong++;
	}
	t_ok(!strcmp(s, want) && !strcmp(param, want) && ms_backend_known(s, true) &&
	     sys_ok && (probes > 0 || !on) && !wrong,
	     "backend %s (want %s, parameter shows %s), syscall backend %s (want %s, parameter shows %s), %d attached probes, %d on another backend",
	     s, want, param, sjson, swant ? swant : "the parameter's", sparam, probes, wrong);
}

/*
 * Is the statistics cell at CELL (a JSON object: count, ns.min, ns.max,
 * ns.total, ns.hist) whole?  The count is the histogram's sum, and
 * min <= mean <= max with min 0 only when nothing was counted: what a
 * reset racing with a handler halfway through a cell used to break.
 */
static inline bool ms_cell_whole(const char *cell)
{
	long long n = msj_int(cell, "count", -1), h = msj_int_sum(cell, "ns.hist");
	long long min = msj_int(cell, "ns.min", -1), max = msj_int(cell, "ns.max", -1);
	long long total = msj_int(cell, "ns.total", -1);

	if (n < 0 || h < 0 || min < 0 || max < 0 || total < 0 || n != h)
		return false;
	if (n == 0)
		return min == 0 && max == 0 && total == 0;
	return min > 0 && min <= total / n && total / n <= max;
}

/* Is the probe NAME "attached" in report JSON (not the last snapshot)? */
static inline bool ms_attached_in(const char *json, const char *name)
{
	char path[64], s[64];
	int i;

	for (i = 0; i < 64; i++) {
		snprintf(path, sizeof(path), "probes.%d.name", i);
		if (!msj_str(json, path, s, sizeof(s)))
			return false;
		if (!strcmp(s, name)) {
			snprintf(path, sizeof(path), "probes.%d.state", i);
			return msj_str(json, path, s, sizeof(s)) && !strcmp(s, "attached");
		}
	}
	return false;
}

/*
 * Every cell of report JSON: each syscall's, and each check's under every
 * syscall, "other" and "worker".  Returns how many are not whole, or
 * missing: the "syscalls", "other" and "worker" objects, the row of a
 * syscall whose probe is attached, the cell of an attached check in any
 * row present (the module shows those even at 0).  Names the first in WHY.
 */
static inline int ms_cells_whole(const char *json, char *why, size_t size)
{
	static const char *const sys[] = {
		"mmap", "munmap", "mremap", "mprotect", "pkey_mprotect", "madvise",
		"process_madvise", "brk", "mseal", "shmdt", "other", "worker",
	};
	static const char *const chk[] = {
		"can_modify_mm", "can_modify_mm_madv", "can_modify_vma", "can_modify_vma_madv",
	};
	const char *syscalls = msj_find(json, "syscalls"), *row, *checks, *c;
	int bad = 0;
	size_t i, k;

	if (!syscalls && !bad++)
		snprintf(why, size, "no \"syscalls\" object");
	/* Each object found once, each cell looked up inside its own. */
	for (i = 0; i < sizeof(sys) / sizeof(sys[0]); i++) {
		bool top = i >= 10;	/* "other" and "worker": rows of checks only */

		row = top ? msj_find(json, sys[i]) : syscalls ? msj_find(syscalls, sys[i]) : NULL;
		if (!row) {
			if ((top || ms_attached_in(json, sys[i])) && !bad++)
				snprintf(why, size, "%s: no row", sys[i]);
			continue;
		}
		if (!top && !ms_cell_whole(row) && !bad++)
			snprintf(why, size, "syscalls.%s", sys[i]);
		checks = top ? row : msj_find(row, "checks");
		if (!checks && !bad++)
			snprintf(why, size, "%s: no checks object", sys[i]);
		for (k = 0; checks && k < sizeof(chk) / sizeof(chk[0]); k++) {
			c = msj_find(checks, chk[k]);
			if (!c && ms_attached_in(json, chk[k]) && !bad++)
				snprintf(why, size, "%s.%s: no cell", sys[i], chk[k]);
			if (c && !ms_cell_whole(c) && !bad++)
				snprintf(why, size, "%s.%s", sys[i], chk[k]);
		}
	}
	return bad;
}

static inline int ms_loaded(void)
{
	return access(MS_JSON, R_OK) == 0;
}

#endif /* MSTEST_H */
