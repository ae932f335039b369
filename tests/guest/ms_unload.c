// SPDX-License-Identifier: GPL-2.0
/*
 * ms_unload - rmmod mseal_stats while a task is inside a probed check.
 *
 *   ms_unload CHECK [N]        (N default 100)
 *
 * Needs mseal_stats.ko and the test-only ms_park.ko (tests/kmod/ms_park.c,
 * func=CHECK comm=ms_parked) loaded, and 4 vCPUs or more: the parked task
 * holds CPU 1 with interrupts off, rmmod (CPU 3) may spin in an IPI to it
 * (ftrace's text patching), the test runs on CPU 2: each pinned, since a
 * task whose timer or wakeup is queued on the parked CPU waits for the park
 * to end (so it went on src-debug before they were pinned).
 *
 * A child named ms_parked makes N madvise(MADV_DONTNEED) calls of one page
 * (each runs CHECK once, through mseal_stats' trampoline), then, ms_park
 * armed, one more: it parks inside CHECK's body, in the timed call.  Then:
 *   - the counts read while it is parked: madvise N, CHECK N (the parked
 *     call is in flight: counted when it returns, which it has not);
 *   - rmmod mseal_stats started in a process of its own; 3 s later it has
 *     not returned, and /proc/modules shows the module unloading;
 *   - the parked task let go (armed=0): rmmod returns 0, the parked
 *     madvise returns 0 (the trampoline was still there to return through:
 *     nothing freed early; a freed one is an oops, which vm-run fails), the
 *     module is gone, and ms_park's park ended by the release, not by its
 *     timeout.
 * MS_FTRACE_TOGGLE=1: before all that, while the child makes madvise calls
 * in a loop, /proc/sys/kernel/ftrace_enabled goes 0 and back to 1 five
 * times (every trampoline unpatched and patched again under the load);
 * then the N calls must still be counted exactly.
 */
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include "mstest.h"

#define PARK(p)		"/sys/module/ms_park/parameters/" p
#define FTRACE_ENABLED	"/proc/sys/kernel/ftrace_enabled"
#define NTESTS		11

struct shared {
	atomic_int phase;	/* 1: loop, 2: loop over, 3: N calls, 4: the parked call */
	atomic_int done;	/* the phase the child has finished */
	atomic_long loop_calls;
	atomic_int last_ret, last_errno;
};
static struct shared *sh;

static int park_param(const char *name)
{
	char path[128], buf[32];

	snprintf(path, sizeof(path), PARK("%s"), name);
	if (msj_read_file(path, buf, sizeof(buf)) < 0)
		return -1;
	return atoi(buf);
}

static void wait_phase_done(int phase)
{
	while (atomic_load(&sh->done) < phase)
		usleep(1000);
}

/* Run on CPU only: the parked CPU takes no interrupt, so a task whose
 * timer or wakeup sits there would wait as long as the park (src-debug). */
static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

static void child(int n)
{
	long pg = sysconf(_SC_PAGESIZE);
	char *a = mmap(NULL, pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int i;

	pin(1);		/* parks on CPU 1 */
	prctl(PR_SET_NAME, "ms_parked");
	while (atomic_load(&sh->phase) < 1)
		usleep(1000);
	while (atomic_load(&sh->phase) == 1) {
		madvise(a, pg, MADV_DONTNEED);
		atomic_fetch_add(&sh->loop_calls, 1);
	}
	atomic_store(&sh->done, 2);
	while (atomic_load(&sh->phase) < 3)
		usleep(1000);
	for (i = 0; i < n; i++)
		madvise(a, pg, MADV_DONTNEED);
	atomic_store(&sh->done, 3);
	while (atomic_load(&sh->phase) < 4)
		usleep(1000);
	i = madvise(a, pg, MADV_DONTNEED);
	atomic_store(&sh->last_errno, i ? errno : 0);
	atomic_store(&sh->last_ret, i);
	atomic_store(&sh->done, 4);
	pause();
	_exit(0);
}

/* "mseal_stats SIZE REFS - STATE ..." in /proc/modules, or "" */
static const char *module_state(char *buf, size_t size)
{
	static char mods[1 << 16];
	char *l;

	buf[0] = '\0';
	if (msj_read_file("/proc/modules", mods, sizeof(mods)) < 0)
		return buf;
	for (l = strtok(mods, "\n"); l; l = strtok(NULL, "\n"))
		if (!strncmp(l, "mseal_stats ", 12))
			snprintf(buf, size, "%s", l);
	return buf;
}

static void print_file(const char *path, const char *prefix)
{
	static char buf[1 << 14];
	char *l;

	if (msj_read_file(path, buf, sizeof(buf)) < 0)
		return;
	for (l = strtok(buf, "\n"); l; l = strtok(NULL, "\n"))
		printf("# %s%s\n", prefix, l);
}

int main(int argc, char **argv)
{
	const char *check = argc > 1 ? argv[1] : "can_modify_vma_madv";
	int n = argc > 2 ? atoi(argv[2]) : 100, status = 0, i, toggles = 0, bad_toggle = 0;
	bool toggle = getenv("MS_FTRACE_TOGGLE") && !strcmp(getenv("MS_FTRACE_TOGGLE"), "1");
	char state[256], path[128];
	pid_t kid, rm;
	time_t t0;

	t_plan(toggle ? NTESTS : NTESTS - 1);
	if (!ms_loaded() || park_param("armed") < 0) {
		t_ok(0, "mseal_stats and ms_park are loaded");
		return 1;
	}
	if (sysconf(_SC_NPROCESSORS_ONLN) < 4) {
		t_ok(0, "4 CPUs: the parked one, rmmod's, this test's and one more (%ld online)",
		     sysconf(_SC_NPROCESSORS_ONLN));
		return 1;
	}
	pin(2);		/* this test on CPU 2, rmmod on CPU 3 */
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		return 1;
	fflush(stdout);
	kid = fork();
	if (kid == 0)
		child(n);
	if (ms_set_tgid(kid)) {
		t_ok(0, "set the tgid filter");
		return 1;
	}

	/* Phase 1: the loop, with ftrace_enabled toggled under it. */
	atomic_store(&sh->phase, 1);
	if (toggle) {
		for (i = 0; i < 5; i++) {
			usleep(200000);
			bad_toggle |= ms_write(FTRACE_ENABLED, "0\n") != 0;
			usleep(200000);
			bad_toggle |= ms_write(FTRACE_ENABLED, "1\n") != 0;
			toggles++;
		}
	} else {
		usleep(200000);
	}
	atomic_store(&sh->phase, 2);
	wait_phase_done(2);
	/* Phase 3: N calls, quiet, counted from a reset. */
	ms_reset();
	atomic_store(&sh->phase, 3);
	wait_phase_done(3);
	ms_snapshot();
	if (toggle)
		t_ok(!bad_toggle, "ftrace_enabled 0 and back to 1, %d times, under %ld madvise calls",
		     toggles, atomic_load(&sh->loop_calls));
	t_eq(ms_get("syscalls.madvise.count"), n, "madvise: the N calls counted exactly");
	t_eq(ms_get("syscalls.madvise.checks.%s.count", check), n, "  and the check, once a call");

	/* Park the next call inside the check. */
	ms_write(PARK("armed"), "1\n");
	atomic_store(&sh->phase, 4);
	for (t0 = time(NULL); park_param("parked") < 1 && time(NULL) - t0 < 60;)
		usleep(10000);
	t_eq(park_param("parked"), 1, "a task parked inside the check's body");
	ms_snapshot();
	t_ok(ms_get("syscalls.madvise.count") == n && ms_get("syscalls.madvise.checks.%s.count", check) == n,
	     "counts while it is parked: madvise %lld, check %lld (want %d each: the parked call is in flight)",
	     ms_get("syscalls.madvise.count"), ms_get("syscalls.madvise.checks.%s.count", check), n);

	fflush(stdout);
	rm = fork();
	if (rm == 0) {
		pin(3);
		execlp("rmmod", "rmmod", "mseal_stats", (char *)NULL);
		_exit(127);
	}
	sleep(3);
	t_ok(waitpid(rm, &status, WNOHANG) == 0, "rmmod has not returned 3 s later, the task still parked");
	module_state(state, sizeof(state));
	t_ok(strstr(state, "Unloading") != NULL, "/proc/modules: %s", state[0] ? state : "(no line)");
	snprintf(path, sizeof(path), "/proc/%d/wchan", rm);
	print_file(path, "rmmod's wchan: ");
	snprintf(path, sizeof(path), "/proc/%d/stack", rm);
	print_file(path, "rmmod waits in: ");

	/* Let it go. */
	ms_write(PARK("armed"), "0\n");
	for (t0 = time(NULL); waitpid(rm, &status, WNOHANG) == 0 && time(NULL) - t0 < 600;)
		usleep(10000);
	t_ok(WIFEXITED(status) && WEXITSTATUS(status) == 0, "rmmod returned 0 once the task went on (%ld s)",
	     (long)(time(NULL) - t0));
	wait_phase_done(4);
	t_ok(atomic_load(&sh->last_ret) == 0, "the parked madvise returned 0 (%s)",
	     strerror(atomic_load(&sh->last_errno)));
	t_ok(!module_state(state, sizeof(state))[0], "mseal_stats is gone");
	t_ok(park_param("parks") == 1 && park_param("timeouts") == 0 && park_param("parked") == 0,
	     "one park, ended by the release, not by the timeout (parks %d, timeouts %d, parked %d)",
	     park_param("parks"), park_param("timeouts"), park_param("parked"));
	kill(kid, SIGKILL);
	waitpid(kid, NULL, 0);
	return t_exit();
}
