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
#include "msjson.h"

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

static inline long long ms_get(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static inline long long ms_get(const char *fmt, ...)
{
	char path[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(path, sizeof(path), fmt, ap);
	va_end(ap);
	return msj_int(ms_json, path, -1);
}

/* State of the probe NAME in the last snapshot ("attached", ...). */
static inline const char *ms_probe_state(const char *name)
{
	static char state[32], path[64], s[64];
	int i;

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
	return !strcmp(name, "tracepoint") || !strcmp(name, "kretprobe");
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

/*
 * Every cell of report JSON: each syscall's, and each check's under every
 * syscall, "other" and "worker".  Returns how many are not whole; names
 * the first in WHY.
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

	/* Each object found once, each cell looked up inside its own. */
	for (i = 0; i < sizeof(sys) / sizeof(sys[0]); i++) {
		bool top = i >= 10;	/* "other" and "worker": rows of checks only */

		row = top ? msj_find(json, sys[i]) : syscalls ? msj_find(syscalls, sys[i]) : NULL;
		if (!row)
			continue;
		if (!top && !ms_cell_whole(row) && !bad++)
			snprintf(why, size, "syscalls.%s", sys[i]);
		checks = top ? row : msj_find(row, "checks");
		for (k = 0; checks && k < sizeof(chk) / sizeof(chk[0]); k++) {
			c = msj_find(checks, chk[k]);
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
