// SPDX-License-Identifier: GPL-2.0
/*
 * ms_misses - more calls in flight than the probe has instances for.
 *
 *   ms_misses [TASKS]        (default 16)
 *
 * TASKS threads each call madvise(MADV_POPULATE_READ) on their own page of
 * a userfaultfd-registered region: each blocks inside the madvise syscall
 * in the fault, until this program has read all TASKS fault events (then
 * all TASKS calls are in flight at once) and resolves them.  A kretprobe
 * has maxactive instances for calls in flight; the calls beyond it are
 * missed, not counted.  Expected, with M the maxactive the module was
 * loaded with (MS_MAXACTIVE=M as given to insmod; unset: the default
 * sizing, max(64, 8 * possible CPUs)), which the report must name:
 * madvise counted min(TASKS, M), its probe missed TASKS - that, and the
 * text report's "missed in all" line and the JSON's missed_total show it.
 * Loaded with the default sizing, that is 16 counted and 0 missed.
 *
 * Prints "# 16 in flight, maxactive 1: counted 1, missed 15".
 * Needs userfaultfd (CONFIG_USERFAULTFD): skipped without it.
 */
#include <linux/userfaultfd.h>
#include <poll.h>
#include <pthread.h>
#include <sys/ioctl.h>
#include "mstest.h"

#define MAX_TASKS	64

static char *region;
static long pg;
static int ntasks = 16, go_pipe[2], done_pipe[2], quit_pipe[2];
static char text[1 << 18];
static int task_errno[MAX_TASKS];

static void *task(void *arg)
{
	long i = (long)arg;
	char c;

	if (read(go_pipe[0], &c, 1) != 1)
		return NULL;
	c = '.';
	if (madvise(region + i * pg, pg, MADV_POPULATE_READ)) {
		task_errno[i] = errno;
		c = 'x';
	}
	if (write(done_pipe[1], &c, 1) != 1)
		return NULL;
	/* Alive until the snapshot: a thread's exit makes a madvise. */
	while (read(quit_pipe[0], &c, 1) > 0)
		;
	return NULL;
}

/*
 * The maxactive the module must use, from what the test loaded it with, not
 * from its report: MS_MAXACTIVE=N as given to insmod (maxactive=N); unset or
 * 0, the default sizing documented in module/kretprobe.c: max(64, 8 * possible
 * CPUs), the CPUs counted from /sys/devices/system/cpu/possible ("0-3").
 */
static int maxactive_loaded(void)
{
	const char *env = getenv("MS_MAXACTIVE");
	char buf[64], *p;
	int n = 0, a, b;

	if (env && atoi(env) > 0)
		return atoi(env);
	if (msj_read_file("/sys/devices/system/cpu/possible", buf, sizeof(buf)) < 0)
		return -1;
	for (p = strtok(buf, ",\n"); p; p = strtok(NULL, ",\n")) {
		if (sscanf(p, "%d-%d", &a, &b) == 2)
			n += b - a + 1;
		else if (sscanf(p, "%d", &a) == 1)
			n++;
	}
	return n ? (8 * n > 64 ? 8 * n : 64) : -1;
}

/* The madvise probe's entry in the last snapshot's probes list. */
static long long madvise_missed(void)
{
	char path[64], s[64];
	int i;

	for (i = 0; i < 64; i++) {
		snprintf(path, sizeof(path), "probes.%d.name", i);
		if (!msj_str(ms_json, path, s, sizeof(s)))
			break;
		if (!strcmp(s, "madvise")) {
			snprintf(path, sizeof(path), "probes.%d.missed", i);
			return msj_int(ms_json, path, -1);
		}
	}
	return -1;
}

int main(int argc, char **argv)
{
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg;
	pthread_t th[MAX_TASKS];
	int uffd, uerr, i, faults = 0, bad = 0, maxactive = -1, want_maxactive;
	long long counted, missed, total, want_counted;
	const char *p;
	char c;

	if (argc > 1)
		ntasks = atoi(argv[1]);
	if (ntasks < 1 || ntasks > MAX_TASKS)
		ntasks = 16;
	pg = sysconf(_SC_PAGESIZE);
	t_plan(6);
	if (!ms_loaded()) {
		t_ok(0, "mseal_stats is loaded");
		return 1;
	}
	uffd = syscall(SYS_userfaultfd, O_CLOEXEC);
	uerr = uffd < 0 || ioctl(uffd, UFFDIO_API, &api) ? errno : 0;
	if (uerr && ms_expects("userfaultfd")) {
		t_ok(0, "userfaultfd: %s, on a kernel whose config has CONFIG_USERFAULTFD", strerror(uerr));
		return 1;
	}
	if (uerr) {
		for (i = 0; i < 6; i++)
			t_skip("no userfaultfd here (%s): cannot hold calls in flight", strerror(uerr));
		return 0;
	}
	region = mmap(NULL, ntasks * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	reg.range.start = (unsigned long)region;
	reg.range.len = ntasks * pg;
	reg.mode = UFFDIO_REGISTER_MODE_MISSING;
	if (region == MAP_FAILED || ioctl(uffd, UFFDIO_REGISTER, &reg) ||
	    pipe(go_pipe) || pipe(done_pipe) || pipe(quit_pipe)) {
		t_ok(0, "userfaultfd region: %s", strerror(errno));
		return 1;
	}
	msj_read_file(MS_TEXT, text, sizeof(text));
	p = strstr(text, "(maxactive ");
	if (p)
		maxactive = atoi(p + 11);
	want_maxactive = maxactive_loaded();
	for (i = 0; i < ntasks; i++)
		pthread_create(&th[i], NULL, task, (void *)(long)i);
	if (ms_set_tgid(getpid()) || ms_reset()) {
		t_ok(0, "set the tgid filter and reset");
		return 1;
	}

	/* Quiet from here to the snapshot. */
	for (i = 0; i < ntasks; i++)
		bad |= write(go_pipe[1], "g", 1) != 1;
	/* Each fault event is one task blocked inside madvise. */
	while (faults < ntasks) {
		struct pollfd pfd = { .fd = uffd, .events = POLLIN };
		struct uffd_msg msg;

		if (poll(&pfd, 1, 60000) != 1 || read(uffd, &msg, sizeof(msg)) != sizeof(msg))
			break;
		if (msg.event == UFFD_EVENT_PAGEFAULT)
			faults++;
	}
	/* All in flight: let them finish, one page each. */
	for (i = 0; i < ntasks; i++) {
		struct uffdio_zeropage zp = {
			.range = { .start = (unsigned long)(region + i * pg), .len = pg },
		};

		if (ioctl(uffd, UFFDIO_ZEROPAGE, &zp) && errno != EEXIST)
			bad |= 1;
	}
	for (i = 0; i < ntasks; i++) {
		if (read(done_pipe[0], &c, 1) != 1 || c != '.')
			bad |= 2;
	}
	ms_snapshot();
	msj_read_file(MS_TEXT, text, sizeof(text));
	/* Quiet no more. */
	close(quit_pipe[1]);
	for (i = 0; i < ntasks; i++)
		pthread_join(th[i], NULL);

	counted = ms_get("syscalls.madvise.count");
	missed = madvise_missed();
	total = msj_int(ms_json, "missed_total", -1);
	want_counted = want_maxactive > 0 && want_maxactive < ntasks ? want_maxactive : ntasks;
	for (i = 0; i < ntasks && !task_errno[i]; i++)
		;
	t_ok(faults == ntasks && !bad,
	     "%d tasks blocked in madvise at once (%d fault events), all finished (%s%s%s)",
	     ntasks, faults, bad & 1 ? "zeropage failed; " : "", bad & 2 ? "a madvise failed: " : "",
	     i < ntasks ? strerror(task_errno[i]) : "ok");
	t_ok(maxactive > 0 && maxactive == want_maxactive,
	     "the report names maxactive %d (loaded with %d)", maxactive, want_maxactive);
	t_eq(counted, want_counted, "madvise calls counted: min(tasks, maxactive)");
	t_eq(missed, ntasks - want_counted, "madvise probe missed the rest");
	t_ok(total >= missed && missed >= 0, "missed_total %lld includes them", total);
	{
		char line[64];

		snprintf(line, sizeof(line), "\nmissed in all: %lld\n", total);
		t_ok(strstr(text, line) != NULL, "text report: \"missed in all: %lld\"", total);
	}
	printf("# %d in flight, maxactive %d: counted %lld, missed %lld\n",
	       ntasks, maxactive, counted, missed);
	ms_set_tgid(0);
	return t_exit();
}
