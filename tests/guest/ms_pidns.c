// SPDX-License-Identifier: GPL-2.0
/*
 * ms_pidns - the tgid filter from inside a PID namespace (a container).
 *
 * A process unshares a new PID namespace; its first child is PID 1 there
 * and forks a worker, PID 2 there, which waits.  PID 1 writes "2" into
 * parameters/tgid: the number as its own namespace gives it.  The worker
 * then makes N munmaps, the rest of the guest goes on as it likes.  The
 * report, read from the initial namespace, counts exactly the worker's N
 * and shows the filter as the worker's PID there; the parameter, read back
 * inside the namespace, says 2.  (Compared as numbers of the initial
 * namespace, "2" would have been kthreadd, and nothing counted.)
 */
#include <sched.h>
#include <signal.h>
#include <sys/wait.h>
#include "mstest.h"

#define N 300

/* PID 2 in the namespace: wait for GO, make N munmaps, stay until QUIT. */
static void worker(int go, int done, int quit)
{
	long pg = sysconf(_SC_PAGESIZE);
	char c;
	int i;

	if (read(go, &c, 1) != 1)
		_exit(1);
	for (i = 0; i < N; i++)
		munmap(NULL, pg);
	if (write(done, "d", 1) != 1)
		_exit(1);
	while (read(quit, &c, 1) > 0)
		;
	_exit(0);
}

/*
 * The child of PARENT, from every /proc/PID/status's PPid: for kernels
 * without CONFIG_PROC_CHILDREN (src-debug's tinyconfig), where
 * /proc/PID/task/PID/children is not there.  0 if none.
 */
static pid_t child_of(pid_t parent)
{
	char path[64], buf[2048], *p;
	pid_t pid;

	for (pid = 2; pid < 32768; pid++) {
		if (pid == parent)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/status", pid);
		if (msj_read_file(path, buf, sizeof(buf)) <= 0)
			continue;
		p = strstr(buf, "\nPPid:");
		if (p && atoi(p + 6) == parent)
			return pid;
	}
	return 0;
}

int main(void)
{
	int go[2], done[2], quit[2], status, ok_inside = 0;
	char c, tgid[32] = "";
	pid_t ns_init, w = 0;

	t_plan(5);
	if (!ms_loaded()) {
		t_ok(0, "mseal_stats is loaded");
		return 1;
	}
	if (pipe(go) || pipe(done) || pipe(quit)) {
		t_ok(0, "pipe: %s", strerror(errno));
		return 1;
	}
	if (unshare(CLONE_NEWPID)) {
		/* EINVAL: a kernel without CONFIG_PID_NS (the source-built debug one). */
		int e = errno;

		if (e != EINVAL) {
			t_ok(0, "unshare(CLONE_NEWPID): %s", strerror(e));
			return 1;
		}
		for (int i = 0; i < 5; i++)
			t_skip("no PID namespaces here (unshare(CLONE_NEWPID): %s)", strerror(e));
		return 0;
	}
	fflush(stdout);
	ns_init = fork();
	if (ns_init == 0) {
		/* PID 1 of the new namespace. */
		pid_t in = fork();

		if (in == 0) {
			close(quit[1]);
			worker(go[0], done[1], quit[0]);
		}
		if (in != 2)
			_exit(10);
		if (ms_write(MS_PARAM("tgid"), "2\n"))
			_exit(11);
		if (msj_read_file(MS_PARAM("tgid"), tgid, sizeof(tgid)) < 0 || strcmp(tgid, "2\n"))
			_exit(12);
		close(quit[1]);
		waitpid(in, &status, 0);
		_exit(WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 13);
	}
	close(quit[0]);
	/* The worker's PID here: the child of ns_init in the initial namespace. */
	for (int tries = 0; tries < 500 && !w; tries++) {
		char path[64], buf[64];
		long child;

		snprintf(path, sizeof(path), "/proc/%d/task/%d/children", ns_init, ns_init);
		if (msj_read_file(path, buf, sizeof(buf)) > 0 && sscanf(buf, "%ld", &child) == 1)
			w = (pid_t)child;
		else if (!(w = child_of(ns_init)))
			usleep(10000);
	}
	/* PID 1 has set the filter once its parameter read says 2: wait for it. */
	for (int tries = 0; tries < 500; tries++) {
		if (msj_read_file(MS_PARAM("tgid"), tgid, sizeof(tgid)) > 0 && atoi(tgid) == w && w) {
			ok_inside = 1;
			break;
		}
		usleep(10000);
	}
	t_ok(w > 0 && ok_inside, "PID 1 of a new namespace wrote \"2\": seen here as the worker, %d (%.*s)",
	     (int)w, (int)strcspn(tgid, "\n"), tgid);
	if (ms_reset()) {
		t_ok(0, "reset");
		return 1;
	}
	if (write(go[1], "g", 1) != 1 || read(done[0], &c, 1) != 1) {
		t_ok(0, "the worker ran");
		return 1;
	}
	ms_snapshot();
	t_eq(ms_get("syscalls.munmap.count"), N, "the worker's munmaps, and only those, counted");
	t_eq(ms_get("filter.tgid"), w, "the report (read here) shows the worker's PID here");
	close(quit[1]);
	waitpid(ns_init, &status, 0);
	t_ok(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	     "inside: the write was taken and the parameter read back \"2\" (exit %d)",
	     WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	ms_set_tgid(0);
	ms_snapshot();
	t_eq(ms_get("filter.tgid"), 0, "filter cleared");
	return t_exit();
}
