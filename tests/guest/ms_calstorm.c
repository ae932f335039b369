// SPDX-License-Identifier: GPL-2.0
/*
 * ms_calstorm - calibrate and reset while checks run without pause on every
 * CPU: every command returns, none fails, the calibration is whole after.
 *
 *   ms_calstorm [ROUNDS [TIMEOUT]]     (defaults 50 rounds, 300 s a command)
 *
 * One process per online CPU, pinned there, makes madvise(MADV_DONTNEED)
 * on a page of its own in a loop (processes, not threads: no mmap lock
 * shared between CPUs, which multi-threaded TCG on a busy host turns into
 * spinning): a discard, so the seal check runs every
 * time (can_modify_vma_madv from 6.12, can_modify_mm_madv on the pre-series
 * kernels), through the check's direct trampoline.  Meanwhile the main
 * thread writes "calibrate" ROUNDS times into the command parameter, with
 * "reset" in between.  calibrate once detached its own probe and waited for
 * the calls in flight (for every slot's, which the busy checks seldom let
 * read 0, with the command lock held, so reset and rmmod hung behind it);
 * since issue 28 its probes stay attached from load to unload and it only
 * measures, so it patches no text either, and multi-threaded TCG may run
 * it under the load.  A watchdog thread fails the test when one command
 * takes longer than TIMEOUT seconds (the command cannot be interrupted: the
 * guest then hangs and the suite's timeout ends it, after this line).
 *
 * Skips where the kernel has no madvise seal check (6.1, 6.17 on:
 * ms_kernel_has, from the test bed's table or kallsyms); fails where it has
 * one and the module did not attach it on a direct call.
 */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <sys/wait.h>
#include <time.h>
#include "mstest.h"

/* Shared with the hammer processes. */
struct shared {
	atomic_int stop;
	atomic_long checks;
};

static struct shared *sh;
static atomic_int stop, cmd_seq;	/* the watchdog's */
static int timeout_s = 300;

static void hammer(long cpu)
{
	cpu_set_t set;
	long n = 0;
	char *p;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
	p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		_exit(1);
	while (!atomic_load(&sh->stop)) {
		p[0] = 1;
		madvise(p, 4096, MADV_DONTNEED);
		n++;
	}
	atomic_fetch_add(&sh->checks, n);
	_exit(0);
}

/* Fails the test when the command under way has not returned in time. */
static void *watchdog(void *arg)
{
	int seen = -1, same = 0;

	(void)arg;
	while (!atomic_load(&stop)) {
		int now = atomic_load(&cmd_seq);

		same = now == seen ? same + 1 : 0;
		seen = now;
		if (same >= timeout_s) {
			printf("not ok %d - command %d (%s) has not returned in %d s: hung\n",
			       t_n + 1, now / 2 + 1, now % 2 ? "reset" : "calibrate", timeout_s);
			fflush(stdout);
			_exit(1);
		}
		sleep(1);
	}
	return NULL;
}

static void calibrate(int *first_err)
{
	int err = ms_write(MS_COMMAND, "calibrate\n");

	if (err && !*first_err)
		*first_err = err;
}

static bool check_on_direct(void)
{
	static const char *const names[] = { "can_modify_vma_madv", "can_modify_mm_madv" };
	char path[64], s[64];
	unsigned int i;
	int k;

	ms_snapshot();
	for (k = 0; k < 64; k++) {
		snprintf(path, sizeof(path), "probes.%d.name", k);
		if (!msj_str(ms_json, path, s, sizeof(s)))
			break;
		for (i = 0; i < 2; i++) {
			if (strcmp(s, names[i]) || !ms_attached(names[i]))
				continue;
			snprintf(path, sizeof(path), "probes.%d.backend", k);
			return msj_str(ms_json, path, s, sizeof(s)) && !strcmp(s, "direct");
		}
	}
	return false;
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 50;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN), i;
	int cal_err = 0, reset_err = 0, err;
	pid_t pid[64];
	pthread_t wd;
	time_t start = time(NULL);

	if (argc > 2)
		timeout_s = atoi(argv[2]);
	t_plan(3);
	/* Whether there is a check to run: the kernel says, not the module. */
	if (!ms_kernel_has("can_modify_vma_madv") && !ms_kernel_has("can_modify_mm_madv")) {
		t_skip("no madvise seal check in this kernel");
		t_skip("no checks to run");
		t_skip("no calibration to read");
		return 0;
	}
	if (!check_on_direct()) {
		t_ok(0, "the kernel's madvise seal check is attached on a direct call");
		t_ok(0, "no checks to run");
		t_ok(0, "no calibration to read");
		return 1;
	}
	if (ncpu > 64)
		ncpu = 64;
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		return 1;
	fflush(stdout);
	for (i = 0; i < ncpu; i++) {
		pid[i] = fork();
		if (pid[i] == 0)
			hammer(i);
	}
	pthread_create(&wd, NULL, watchdog, NULL);
	for (i = 0; i < rounds; i++) {
		/* Progress on the console: a slow guest is told from a hung one. */
		if (i % 10 == 0) {
			printf("# round %ld of %d, %ld s in\n", i + 1, rounds, (long)(time(NULL) - start));
			fflush(stdout);
		}
		calibrate(&cal_err);
		atomic_fetch_add(&cmd_seq, 1);
		err = ms_reset();
		if (err && !reset_err)
			reset_err = err;
		atomic_fetch_add(&cmd_seq, 1);
	}
	atomic_store(&sh->stop, 1);
	for (i = 0; i < ncpu; i++)
		if (pid[i] > 0)
			waitpid(pid[i], NULL, 0);
	atomic_store(&stop, 1);
	pthread_join(wd, NULL);
	t_ok(!cal_err && !reset_err,
	     "%d calibrates and %d resets returned under the load, each within %d s, all in %ld s (first errors: calibrate %s, reset %s)",
	     rounds, rounds, timeout_s,
	     (long)(time(NULL) - start),
	     cal_err ? strerror(cal_err) : "none", reset_err ? strerror(reset_err) : "none");
	t_ok(atomic_load(&sh->checks) > 0, "%ld checks made meanwhile on %ld CPUs",
	     atomic_load(&sh->checks), ncpu);
	ms_snapshot();
	t_ok(ms_get("calibration.direct.ns") > 0 && ms_get("calibration.direct.outer_ns") > 0,
	     "the calibration after it: direct %lld ns inside, %lld in all, on CPU %lld",
	     ms_get("calibration.direct.ns"), ms_get("calibration.direct.outer_ns"),
	     ms_get("calibration.direct.cpu"));
	return t_exit();
}
