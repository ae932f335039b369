// SPDX-License-Identifier: GPL-2.0
/*
 * ms_security - who may read the reports, and what a hostile comm does.
 *
 * The report files are root's alone (owner root, no group or other bits:
 * mseal_stats and mseal_stats.json 0400: read-only, so lockdown serves them), and a
 * process that is not root cannot open either.
 *
 * A comm is the one string in the report that a user chooses (the comm
 * filter; prctl(PR_SET_NAME) sets any bytes but NUL).  A process names
 * itself with quotes, a backslash, printf conversions and control bytes,
 * the comm filter is set to exactly that, and it makes refused (EPERM)
 * operations on sealed memory: they are counted (the filter matched byte
 * for byte), the JSON parses and gives back the exact bytes, and the text
 * report shows the conversions literally (no format string is built from
 * it).
 */
#include <grp.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include "mstest.h"

#define N_EPERM	25
/* 14 bytes (a comm holds 15): " \ %s %n %p, a tab, 0x01, 0x7f, 0xe9. */
static const char hostile[] = "q\"\\%s%n%p\t\x01\x7f\xe9z";
static char text[1 << 18];

static void mode_is(const char *path, unsigned int want)
{
	struct stat st;
	int r = stat(path, &st);

	t_ok(r == 0 && S_ISREG(st.st_mode) && (st.st_mode & 07777) == want &&
	     st.st_uid == 0 && st.st_gid == 0,
	     "%s: mode %04o (want %04o), owner %d:%d", path,
	     r ? 0 : st.st_mode & 07777, want, r ? -1 : (int)st.st_uid, r ? -1 : (int)st.st_gid);
}

/* Open PATH for reading as uid/gid 65534: the errno, 0 if it opened. */
static int open_as_nobody(const char *path)
{
	int st, fd;
	pid_t p = fork();

	if (p == 0) {
		if (setgroups(0, NULL) || setgid(65534) || setuid(65534))
			_exit(254);
		fd = open(path, O_RDONLY);
		_exit(fd >= 0 ? 0 : errno);
	}
	if (waitpid(p, &st, 0) != p || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

int main(void)
{
	long pg = sysconf(_SC_PAGESIZE);
	char comm[32], back[32], param[64];
	int i, err, supported, eperm = 0;
	char *m;

	t_plan(9);
	if (!ms_loaded()) {
		t_ok(0, "mseal_stats is loaded");
		return 1;
	}
	mode_is(MS_TEXT, 0400);
	mode_is(MS_JSON, 0400);
	err = open_as_nobody(MS_TEXT);
	t_ok(err == EACCES, "uid 65534 cannot open mseal_stats: %s", err > 0 ? strerror(err) : "opened!");
	err = open_as_nobody(MS_JSON);
	t_ok(err == EACCES, "uid 65534 cannot open mseal_stats.json: %s", err > 0 ? strerror(err) : "opened!");

	ms_snapshot();
	supported = msj_bool(ms_json, "mseal_supported") == 1;
	m = mmap(NULL, pg, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (supported && syscall(MS_NR_MSEAL, m, pg, 0)) {
		t_ok(0, "mseal one page");
		return 1;
	}
	prctl(PR_SET_NAME, hostile);
	prctl(PR_GET_NAME, comm);
	snprintf(param, sizeof(param), "%s\n", comm);
	if (ms_write(MS_PARAM("tgid"), "0\n") || ms_write(MS_PARAM("comm"), param) || ms_reset()) {
		t_ok(0, "comm filter set to the hostile comm, reset");
		return 1;
	}
	for (i = 0; i < N_EPERM; i++)
		eperm += mprotect(m, pg, PROT_READ | PROT_WRITE) && errno == EPERM;
	ms_snapshot();
	prctl(PR_SET_NAME, "ms_security");

	t_ok(msj_valid(ms_json), "the JSON report parses with the hostile comm in it");
	msj_str(ms_json, "filter.comm", back, sizeof(back));
	t_ok(!strcmp(back, comm) && strlen(comm) == strlen(hostile),
	     "filter.comm gives back the exact bytes of the comm (%zu)", strlen(comm));
	t_ok(ms_get("syscalls.mprotect.count") == N_EPERM &&
	     ms_get("syscalls.mprotect.eperm") == (supported ? N_EPERM : 0) &&
	     eperm == (supported ? N_EPERM : 0),
	     "the hostile comm's calls counted: mprotect %lld, eperm %lld (made %d, %d EPERM)",
	     ms_get("syscalls.mprotect.count"), ms_get("syscalls.mprotect.eperm"), N_EPERM, eperm);
	msj_read_file(MS_TEXT, text, sizeof(text));
	t_ok(strstr(text, "comm \"q\\\"\\\\%s%n%p\\u0009\\u0001\\u007f\\u00e9z\"") != NULL,
	     "text report: the comm escaped, %%s%%n%%p shown literally");
	ms_write(MS_PARAM("comm"), "\n");
	ms_snapshot();
	t_ok(msj_valid(ms_json) && msj_str(ms_json, "filter.comm", back, sizeof(back)) && !back[0],
	     "comm filter cleared");
	return t_exit();
}
