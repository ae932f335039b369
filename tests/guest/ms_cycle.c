// SPDX-License-Identifier: GPL-2.0
/*
 * ms_cycle - load, run, unload, under load: rmmod while threads hammer every
 * probed syscall must never oops, warn or leak.
 *
 *   ms_cycle [CYCLES] [THREADS] [READER]   (20, 4 and 1 by default)
 *   ms_cycle hammer SECONDS [THREADS]       only the threads, for SECONDS
 *
 * MS_INSMOD_ARGS in the environment is added to each insmod (for instance
 * "backend=kretprobe"); with MS_BACKEND set, each cycle's report must name
 * that backend.
 *
 * The threads mmap, mprotect, madvise, mremap and munmap in a loop for the
 * whole run, and one more reads both report files in a loop (open fails
 * while the module is out); each cycle loads /mseal_stats.ko, reads the
 * reports, writes "reset", and unloads (retrying while a reader holds a file
 * open: rmmod then says EAGAIN).  vm-run fails the boot on any oops or
 * WARNING in dmesg.
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include "mstest.h"

static atomic_int stop;
static atomic_long ops;

static void *hammer(void *arg)
{
	long pg = sysconf(_SC_PAGESIZE);

	(void)arg;
	while (!atomic_load(&stop)) {
		char *p = mmap(NULL, 4 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED)
			continue;
		p[0] = 1;
		mprotect(p + pg, pg, PROT_READ);
		madvise(p, 4 * pg, MADV_DONTNEED);
		/*
		 * Unmap only what is left: the 2 pages the shrink gave back may
		 * already be another thread's new mapping, and unmapping them
		 * made that thread's first store fault (a SIGSEGV, once, on
		 * debian-6.12-rt, 2026-12-05).
		 */
		if (mremap(p, 4 * pg, 2 * pg, 0) == MAP_FAILED)
			munmap(p, 4 * pg);
		else
			munmap(p, 2 * pg);
		atomic_fetch_add(&ops, 1);
	}
	return NULL;
}

/*
 * No open() of a report file by the reader while an rmmod runs; reads, and
 * files held open across an rmmod (rmmod then fails with EAGAIN and is
 * retried: the retries are counted and printed), are still allowed.  The
 * main thread's own opens run in sequence with its rmmod and need no gate.
 * delete_module drops the module's count to zero and only then marks it
 * going: an open() between the two finds a live module it cannot take a
 * reference on, and debugfs WARNs "file owner did not clean up at exit"
 * (seen once, debian-newest 7.3.4, 2026-12-06; docs/testbed-limits.md).  That
 * race is the kernel's, not the module's, whose code that open never
 * reaches.
 */
static pthread_rwlock_t gate = PTHREAD_RWLOCK_INITIALIZER;

static void read_report(const char *path, char *buf, size_t len)
{
	int fd;

	pthread_rwlock_rdlock(&gate);
	fd = open(path, O_RDONLY);
	pthread_rwlock_unlock(&gate);
	if (fd < 0)
		return;		/* the module is out */
	while (read(fd, buf, len) > 0)
		;
	close(fd);
}

static void *reader(void *arg)
{
	static char buf[1 << 16];

	(void)arg;
	while (!atomic_load(&stop)) {
		read_report(MS_JSON, buf, sizeof(buf));
		read_report(MS_TEXT, buf, sizeof(buf));
		usleep(1000);
	}
	return NULL;
}

static long unload_retries;

static int unload(void)
{
	int i, rc;

	for (i = 0; i < 200; i++) {
		pthread_rwlock_wrlock(&gate);
		rc = system("rmmod mseal_stats 2>/dev/null");
		pthread_rwlock_unlock(&gate);
		if (rc == 0)
			return 0;
		unload_retries++;
		usleep(10000);
	}
	return -1;
}

static int run(const char *cmd)
{
	return system(cmd);
}

int main(int argc, char **argv)
{
	int cycles = argc > 1 ? atoi(argv[1]) : 20;
	int threads = argc > 2 ? atoi(argv[2]) : 4;
	int readers = argc > 3 ? !!atoi(argv[3]) : 1;
	pthread_t tid[65];
	static char text[1 << 16], insmod[256], backend[32];
	const char *args = getenv("MS_INSMOD_ARGS"), *want = getenv("MS_BACKEND");
	int i, ok;

	if (argc > 2 && !strcmp(argv[1], "hammer")) {
		threads = argc > 3 ? atoi(argv[3]) : 4;
		for (i = 0; i < threads && i < 64; i++)
			pthread_create(&tid[i], NULL, hammer, NULL);
		sleep(atoi(argv[2]));
		atomic_store(&stop, 1);
		for (i = 0; i < threads && i < 64; i++)
			pthread_join(tid[i], NULL);
		printf("# hammer: %ld iterations\n", atomic_load(&ops));
		return 0;
	}
	if (threads > 64)
		threads = 64;
	snprintf(insmod, sizeof(insmod), "insmod /mseal_stats.ko %s", args ? args : "");
	t_plan(cycles + 2);
	for (i = 0; i < threads; i++)
		pthread_create(&tid[i], NULL, hammer, NULL);
	if (readers)
		pthread_create(&tid[threads], NULL, reader, NULL);
	for (i = 0; i < cycles; i++) {
		long before = atomic_load(&ops);

		ok = run(insmod) == 0;
		usleep(50000);
		ok = ok && msj_read_file(MS_TEXT, text, sizeof(text)) > 0;
		ok = ok && msj_valid(ms_snapshot());
		if (!msj_str(ms_json, "backend", backend, sizeof(backend)))
			strcpy(backend, "?");
		ok = ok && (!want || !strcmp(backend, want));
		ok = ok && ms_write(MS_COMMAND, "reset\n") == 0;
		ok = ok && unload() == 0;
		ok = ok && !ms_loaded();
		t_ok(ok, "cycle %d (%s): load, read, reset, unload under %d threads and a reader (%ld ops)",
		     i + 1, backend, threads, atomic_load(&ops) - before);
	}
	atomic_store(&stop, 1);
	for (i = 0; i < threads + readers; i++)
		pthread_join(tid[i], NULL);
	printf("# rmmod retried %ld times (a report file open)\n", unload_retries);
	t_ok(atomic_load(&ops) > 0, "the threads ran: %ld iterations", atomic_load(&ops));
	t_ok(run("lsmod | grep -q mseal_stats") != 0, "mseal_stats unloaded at the end");
	return t_exit();
}
