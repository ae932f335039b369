// SPDX-License-Identifier: GPL-2.0
/*
 * ms_filter - reset, the tgid and comm filters, and bad input.
 *
 * Needs mseal_stats.ko loaded.  Commands other than "reset" and "calibrate"
 * fail with EINVAL and change nothing; bad tgid and comm values fail with
 * EINVAL and leave the parameter as it was, a tgid no process has with
 * ESRCH; a thread's id selects its process; a tgid filter counts only that
 * process, a comm filter only that command.  And the filter flipped while
 * threads are inside tracked syscalls that sleep (mmap with MAP_POPULATE)
 * leaves no in-flight slot claimed, none missed.
 */
#include <pthread.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include "mstest.h"

#define N 100

static void munmaps(int n)
{
	long pg = sysconf(_SC_PAGESIZE);
	int i;

	for (i = 0; i < n; i++)
		munmap(NULL, pg);	/* nothing there: still a call, returns 0 */
}

static void read_param(const char *name, char *buf, size_t size)
{
	char path[128];

	snprintf(path, sizeof(path), "/sys/module/mseal_stats/parameters/%s", name);
	if (msj_read_file(path, buf, size) < 0)
		snprintf(buf, size, "?");
}

/* Fork a child that names itself COMM, waits for GO, makes N munmaps. */
static pid_t child(const char *comm, int *go)
{
	int fds[2];
	pid_t pid;
	char c;

	if (pipe(fds))
		return -1;
	pid = fork();
	if (pid == 0) {
		close(fds[1]);
		prctl(PR_SET_NAME, comm);
		if (read(fds[0], &c, 1) == 1)
			munmaps(N);
		_exit(0);
	}
	close(fds[0]);
	*go = fds[1];
	return pid;
}

static void run_child(pid_t pid, int go)
{
	if (write(go, "g", 1) != 1)
		return;
	close(go);
	waitpid(pid, NULL, 0);
}

/* A thread that says its id on PIPE[1] and lives until PIPE[0] closes... */
static int tid_pipe[2], hold_pipe[2];

static void *thread_tid(void *arg)
{
	pid_t tid = (pid_t)syscall(SYS_gettid);
	char c;

	(void)arg;
	if (write(tid_pipe[1], &tid, sizeof(tid)) != sizeof(tid))
		return NULL;
	if (read(hold_pipe[0], &c, 1) < 0)
		return NULL;
	return NULL;
}

/* Threads named msf-flip, each in a loop of populated mmaps and munmaps. */
#define FLIP_THREADS	4
#define FLIP_ROUNDS	200
#define FLIP_LEN	(1 << 20)
static volatile int flip_stop;

static void *flip_worker(void *arg)
{
	(void)arg;
	prctl(PR_SET_NAME, "msf-flip");
	while (!flip_stop) {
		void *p = mmap(NULL, FLIP_LEN, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);

		if (p != MAP_FAILED)
			munmap(p, FLIP_LEN);
	}
	return NULL;
}

/*
 * The comm filter flipped between the workers' name and another, FLIP_ROUNDS
 * times, while they run: a syscall let in at its entry and kept out at its
 * exit (or the other way round) must leave nothing claimed.
 */
static void test_flip(void)
{
	pthread_t th[FLIP_THREADS];
	unsigned int i;
	long long mmaps;

	ms_set_tgid(0);
	ms_reset();
	for (i = 0; i < FLIP_THREADS; i++)
		pthread_create(&th[i], NULL, flip_worker, NULL);
	for (i = 0; i < FLIP_ROUNDS; i++) {
		ms_write(MS_PARAM("comm"), i & 1 ? "msf-other\n" : "msf-flip\n");
		sched_yield();
	}
	flip_stop = 1;
	for (i = 0; i < FLIP_THREADS; i++)
		pthread_join(th[i], NULL);
	ms_write(MS_PARAM("comm"), "\n");
	ms_snapshot();
	mmaps = ms_get("syscalls.mmap.count");
	t_ok(mmaps > 0, "flip: the workers' mmaps counted while their name passed (%lld)", mmaps);
	t_eq(ms_get("syscalls_in_flight"), 0, "flip: no in-flight slot left claimed");
	t_eq(ms_get("missed_total"), 0, "flip: nothing missed");
}

static long long munmap_count(void)
{
	ms_snapshot();
	return ms_get("syscalls.munmap.count");
}

int main(void)
{
	static const char *const bad_writes[] = { "bogus\n", "reset now\n", "rese\n", "\n", "resetresetresetreset\n" };
	static const char *const bad_tgids[] = { "abc\n", "-5\n", "99999999999\n", "12x\n", "\n", "4194305\n" };
	char before[64], after[64], s[64];
	unsigned int i;
	int go;
	pid_t pid;

	t_plan(5 + 1 + 1 + 6 + 1 + 1 + 2 + 3 + 4 + 1 + 3);
	if (!ms_loaded()) {
		t_ok(0, "mseal_stats is loaded");
		return 1;
	}

	/* Bad writes: EINVAL, counters unchanged. */
	ms_set_tgid(getpid());
	ms_reset();
	munmaps(N);
	for (i = 0; i < sizeof(bad_writes) / sizeof(bad_writes[0]); i++) {
		int err = ms_write(MS_COMMAND, bad_writes[i]);

		t_ok(err == EINVAL && munmap_count() == N, "write \"%.*s\": %s, munmap count still %d",
		     (int)strcspn(bad_writes[i], "\n"), bad_writes[i], strerror(err), N);
	}
	t_ok(ms_write(MS_COMMAND, "calibrate\n") == 0 && munmap_count() == N, "write \"calibrate\": ok, counters kept");
	t_ok(ms_reset() == 0 && munmap_count() == 0, "write \"reset\": munmap count 0");

	/* Bad tgid values: EINVAL, parameter unchanged (1: init, always there). */
	ms_set_tgid(1);
	read_param("tgid", before, sizeof(before));
	for (i = 0; i < sizeof(bad_tgids) / sizeof(bad_tgids[0]); i++) {
		int err = ms_write(MS_PARAM("tgid"), bad_tgids[i]);

		read_param("tgid", after, sizeof(after));
		t_ok(err == EINVAL && !strcmp(before, after) && !strcmp(after, "1\n"),
		     "tgid=\"%.*s\": %s, still %.*s", (int)strcspn(bad_tgids[i], "\n"), bad_tgids[i],
		     strerror(err), (int)strcspn(after, "\n"), after);
	}
	/* The highest PID (4194304) is never given out in these guests. */
	{
		int err = ms_write(MS_PARAM("tgid"), "4194304\n");

		read_param("tgid", after, sizeof(after));
		t_ok(err == ESRCH && !strcmp(after, "1\n"),
		     "tgid=4194304 (no such process): %s, still %.*s", strerror(err),
		     (int)strcspn(after, "\n"), after);
	}
	/* A thread's id means its process. */
	{
		pthread_t th;
		pid_t tid = 0;
		char want[32];

		if (pipe(tid_pipe) || pipe(hold_pipe))
			return 1;
		pthread_create(&th, NULL, thread_tid, NULL);
		if (read(tid_pipe[0], &tid, sizeof(tid)) != sizeof(tid))
			tid = 0;
		snprintf(want, sizeof(want), "%d\n", getpid());
		ms_set_tgid(tid);
		read_param("tgid", after, sizeof(after));
		close(hold_pipe[1]);
		pthread_join(th, NULL);
		t_ok(tid != getpid() && !strcmp(after, want),
		     "tgid=%d (a thread of pid %d): the filter shows %.*s", tid, getpid(),
		     (int)strcspn(after, "\n"), after);
	}
	/* Bad comm values: too long for a task's comm. */
	ms_write(MS_PARAM("comm"), "keepme\n");
	t_ok(ms_write(MS_PARAM("comm"), "sixteen-chars-xx\n") == EINVAL, "comm of 16 characters: EINVAL");
	read_param("comm", after, sizeof(after));
	t_ok(!strcmp(after, "keepme\n"), "comm unchanged: %.*s", (int)strcspn(after, "\n"), after);
	ms_write(MS_PARAM("comm"), "\n");

	/* tgid filter: only the child's calls count, not ours. */
	pid = child("msf-child", &go);
	ms_set_tgid(pid);
	ms_reset();
	munmaps(N);
	run_child(pid, go);
	ms_snapshot();
	t_eq(ms_get("syscalls.munmap.count"), N, "tgid filter: the child's munmaps only");
	t_eq(ms_get("filter.tgid"), pid, "json filter.tgid");
	t_eq(ms_get("probes.0.missed"), 0, "no misses");

	/* comm filter, tgid 0: only tasks named msf-comm. */
	ms_set_tgid(0);
	t_ok(ms_write(MS_PARAM("comm"), "msf-comm\n") == 0, "comm=msf-comm accepted");
	pid = child("msf-comm", &go);
	ms_reset();
	munmaps(N);
	run_child(pid, go);
	ms_snapshot();
	t_eq(ms_get("syscalls.munmap.count"), N, "comm filter: the msf-comm child's munmaps only");
	t_ok(!strcmp(msj_str(ms_json, "filter.comm", s, sizeof(s)) ?: "", "msf-comm"), "json filter.comm");
	ms_write(MS_PARAM("comm"), "\n");
	read_param("comm", after, sizeof(after));
	t_ok(!strcmp(after, "\n"), "comm cleared");

	/* No filter: both. */
	pid = child("msf-any", &go);
	ms_reset();
	ms_set_tgid(0);
	munmaps(N);
	run_child(pid, go);
	t_ok(munmap_count() >= 2 * N, "no filter: our munmaps and the child's (%lld)", munmap_count());

	test_flip();
	return t_exit();
}
