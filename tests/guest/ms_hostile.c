// SPDX-License-Identifier: GPL-2.0
/*
 * ms_hostile - hostile writes into the module's files: a clear error, no
 * state change, no crash.
 *
 * The state a bad write could change: the counters (a write taken as
 * "reset" zeroes them) and the parameters.  So the test makes a known
 * number of pkey_mprotect calls (glibc makes none of its own, not even for
 * a thread's stack) under a tgid filter on itself, and after each group of
 * bad writes checks that the count and every writable parameter are what
 * they were.
 *
 * parameters/command takes "reset" or "calibrate", one trailing newline
 * allowed: random bytes, near misses, a command split over two writes, a
 * huge write and a bad buffer, and many threads doing that at once must
 * each fail (EINVAL; E2BIG past sysfs' page; EFAULT for the bad buffer).
 * The report files take no write at all (EOPNOTSUPP, for root too).
 *
 * /sys/module/mseal_stats/parameters/: tgid and comm refuse what is not a
 * valid value (EINVAL, E2BIG past sysfs' page); maxactive, backend and
 * syscalls are read-only (EACCES).  What sysfs decides before the module
 * sees a write, and the module cannot refuse, is checked as what it is: an
 * empty write is a no-op that succeeds, the module gets a C string, so
 * bytes after a NUL never reach it ("reset\0junk" is "reset"), and the
 * offset of a write is not the module's to see.
 */
#include <pthread.h>
#include <stdatomic.h>
#include "mstest.h"

#define N_PKEY		37
#define N_RANDOM	300
#define N_THREADS	8
#define N_PER_THREAD	200

static char *page;
static long pg;
static char tgid_before[32], comm_before[64];
static char big[1 << 20];

static void param_read(const char *name, char *buf, size_t size)
{
	char path[128];

	snprintf(path, sizeof(path), MS_PARAM("%s"), name);
	if (msj_read_file(path, buf, size) < 0)
		snprintf(buf, size, "(unreadable)");
}

/* write(2) of LEN bytes at BUF into PATH (pwrite at OFF when OFF >= 0). */
static int raw_write(const char *path, const void *buf, size_t len, off_t off)
{
	int fd = open(path, O_WRONLY), err = 0;
	ssize_t r;

	if (fd < 0)
		return errno;
	r = off >= 0 ? pwrite(fd, buf, len, off) : write(fd, buf, len);
	if (r < 0)
		err = errno;
	else if ((size_t)r != len)
		err = -1;	/* a short write: accepted in part */
	close(fd);
	return err;
}

/* The counters and the writable parameters are as the test left them. */
static void unchanged(const char *what)
{
	char tgid[32], comm[64];

	ms_snapshot();
	param_read("tgid", tgid, sizeof(tgid));
	param_read("comm", comm, sizeof(comm));
	t_ok(msj_valid(ms_json) && ms_get("syscalls.pkey_mprotect.count") == N_PKEY &&
	     !strcmp(tgid, tgid_before) && !strcmp(comm, comm_before),
	     "%s: nothing changed (pkey_mprotect count %lld, want %d; tgid %.*s; comm \"%.*s\")",
	     what, ms_get("syscalls.pkey_mprotect.count"), N_PKEY,
	     (int)strcspn(tgid, "\n"), tgid,
	     (int)strcspn(comm, "\n"), comm);
}

/* Would the module take these bytes for a command?  It sees them up to a NUL. */
static int is_command(const unsigned char *b, size_t n)
{
	char s[32];

	if (n >= sizeof(s))
		return 0;
	memcpy(s, b, n);
	s[n] = '\0';
	return !strcmp(s, "reset") || !strcmp(s, "reset\n") ||
	       !strcmp(s, "calibrate") || !strcmp(s, "calibrate\n");
}

/* The pkey_mprotect count again, after a write that did reset. */
static void recount(void)
{
	int i;

	for (i = 0; i < N_PKEY; i++)
		syscall(SYS_pkey_mprotect, page, pg, PROT_READ | PROT_WRITE, -1);
}

static void command_cases(void)
{
	static const char *const bad_words[] = {
		"\n", "rese", "resett", " reset", "reset ", "reset\n\n", "RESET",
		"calibrat", "reset;calibrate", "reset\r\n", "-1", "%s%n%p",
	};
	unsigned char rnd[16];
	int i, err, all = 1, first = -1;
	unsigned int seed = 12345;
	size_t n;

	for (i = 0; i < (int)(sizeof(bad_words) / sizeof(bad_words[0])); i++) {
		err = raw_write(MS_COMMAND, bad_words[i], strlen(bad_words[i]), -1);
		if (err != EINVAL && first < 0)
			first = i;
	}
	t_ok(first < 0, "%zu bad words (near misses, extra bytes): each EINVAL%s%s",
	     sizeof(bad_words) / sizeof(bad_words[0]), first < 0 ? "" : "; not: ",
	     first < 0 ? "" : bad_words[first]);
	unchanged("bad words");

	all = 1;
	for (i = 0; i < N_RANDOM; i++) {
		n = 1 + rand_r(&seed) % sizeof(rnd);
		for (size_t k = 0; k < n; k++)
			rnd[k] = (unsigned char)rand_r(&seed);
		if (is_command(rnd, strnlen((char *)rnd, n)))
			continue;
		err = raw_write(MS_COMMAND, rnd, n, -1);
		all &= err == EINVAL;
	}
	t_ok(all, "%d writes of 1 to 16 random bytes: each EINVAL", N_RANDOM);
	unchanged("random bytes");

	memset(big, 'r', sizeof(big));
	memcpy(big, "reset\n", 6);
	err = raw_write(MS_COMMAND, big, sizeof(big), -1);
	t_eq(err, EINVAL, "a 1 MiB write starting with \"reset\\n\": sysfs passes one page, EINVAL");
	err = raw_write(MS_COMMAND, NULL, 6, -1);
	t_eq(err, EFAULT, "a NULL buffer: EFAULT");
	err = raw_write(MS_COMMAND, "", 0, -1);
	t_eq(err, 0, "a zero-length write: sysfs' no-op");
	{
		int fd = open(MS_COMMAND, O_WRONLY);
		int e1 = write(fd, "res", 3) < 0 ? errno : 0;
		int e2 = write(fd, "et\n", 3) < 0 ? errno : 0;

		close(fd);
		t_ok(e1 == EINVAL && e2 == EINVAL,
		     "\"reset\" split over two writes: each part EINVAL (%d, %d)", e1, e2);
	}
	unchanged("a huge, a bad, an empty and a split write");

	/* What sysfs hands over, the module takes: each of these is a reset. */
	err = raw_write(MS_COMMAND, "reset\0junk", 10, -1);
	ms_snapshot();
	t_ok(err == 0 && ms_get("syscalls.pkey_mprotect.count") == 0,
	     "\"reset\\0junk\": sysfs passes \"reset\", the counters are reset (errno %d)", err);
	recount();
	err = raw_write(MS_COMMAND, "reset\n", 6, 1);
	ms_snapshot();
	t_ok(err == 0 && ms_get("syscalls.pkey_mprotect.count") == 0,
	     "pwrite(\"reset\\n\") at offset 1: sysfs ignores the offset, a reset (errno %d)", err);
	recount();
	/* sysfs reads one page of a longer write: here "reset\n" and a NUL. */
	memset(big, 0, 8192);
	memcpy(big, "reset\n", 6);
	{
		volatile size_t huge = (size_t)1 << 30;	/* past big: sysfs reads a page */
		int fd = open(MS_COMMAND, O_WRONLY);
		ssize_t r = write(fd, big, huge);

		close(fd);
		ms_snapshot();
		t_ok(r == pg && ms_get("syscalls.pkey_mprotect.count") == 0,
		     "a 1 GiB length: sysfs takes one page (wrote %zd, want %ld), a reset", r, pg);
	}
	recount();
	unchanged("counted again");
}

/* The reports take no command, whatever the mode lets root open. */
static void report_cases(void)
{
	int err = raw_write(MS_TEXT, "reset\n", 6, -1);

	t_eq(err, EOPNOTSUPP, "a write to mseal_stats: EOPNOTSUPP");
	err = raw_write(MS_JSON, "reset\n", 6, -1);
	t_eq(err, EOPNOTSUPP, "a write to mseal_stats.json: EOPNOTSUPP");
	unchanged("writes to the report files");
}

static atomic_int accepted;

static void *hostile_thread(void *arg)
{
	unsigned int seed = (unsigned int)(long)arg;
	static const char *const words[] = { "rese", "resetx", "calibrat", "x" };
	unsigned char rnd[24];
	char tgid[32];
	int i;

	for (i = 0; i < N_PER_THREAD; i++) {
		size_t n = 1 + rand_r(&seed) % sizeof(rnd);
		const char *w = words[i % 4];

		for (size_t k = 0; k < n; k++)
			rnd[k] = (unsigned char)rand_r(&seed);
		if (!is_command(rnd, strnlen((char *)rnd, n)) && rnd[0] &&
		    raw_write(MS_COMMAND, rnd, n, -1) != EINVAL)
			atomic_fetch_add(&accepted, 1);
		if (raw_write(MS_COMMAND, w, strlen(w), -1) != EINVAL)
			atomic_fetch_add(&accepted, 1);
		snprintf(tgid, sizeof(tgid), "%d%c", i, "x-. "[i % 4]);
		if (raw_write(MS_PARAM("tgid"), tgid, strlen(tgid), -1) != EINVAL)
			atomic_fetch_add(&accepted, 1);
		if (raw_write(MS_PARAM("comm"), "0123456789abcdefXYZ", 16 + i % 4, -1) != EINVAL)
			atomic_fetch_add(&accepted, 1);
	}
	return NULL;
}

static void concurrent_cases(void)
{
	pthread_t th[N_THREADS];
	int i;

	for (i = 0; i < N_THREADS; i++)
		pthread_create(&th[i], NULL, hostile_thread, (void *)(long)(i + 1));
	for (i = 0; i < N_THREADS; i++)
		pthread_join(th[i], NULL);
	t_eq(atomic_load(&accepted), 0,
	     "8 threads x 200 rounds of bad writes to command, tgid and comm at once: none accepted");
	unchanged("concurrent bad writers");
}

static void param_cases(void)
{
	static const char *const bad_tgid[] = {
		"abc", "-1", "4194305", "99999999999", "12abc", "0x10", " 5", "5 5", "%n",
	};
	static const char *const ro[] = { "maxactive", "backend", "syscalls" };
	char before[64], after[64], path[128];
	unsigned int seed = 777;
	unsigned char rnd[64];
	int i, err, all = 1, first = -1;

	for (i = 0; i < (int)(sizeof(bad_tgid) / sizeof(bad_tgid[0])); i++) {
		err = raw_write(MS_PARAM("tgid"), bad_tgid[i], strlen(bad_tgid[i]), -1);
		if (err != EINVAL && first < 0)
			first = i;
	}
	t_ok(first < 0, "%zu bad tgid values: each EINVAL%s%s",
	     sizeof(bad_tgid) / sizeof(bad_tgid[0]), first < 0 ? "" : "; not: ",
	     first < 0 ? "" : bad_tgid[first]);
	err = raw_write(MS_PARAM("comm"), "sixteen-chars-xx", 16, -1);
	t_eq(err, EINVAL, "comm of 16 characters: EINVAL");
	err = raw_write(MS_PARAM("comm"), "a\nb", 3, -1);
	t_eq(err, EINVAL, "comm with a newline inside: EINVAL");
	all = 1;
	for (i = 0; i < N_RANDOM; i++) {
		size_t n = 16 + rand_r(&seed) % (sizeof(rnd) - 16);

		/* No NUL (sysfs would cut there), no newline (a trailing one is allowed). */
		for (size_t k = 0; k < n; k++) {
			rnd[k] = (unsigned char)(1 + rand_r(&seed) % 255);
			if (rnd[k] == '\n')
				rnd[k] = 'n';
		}
		all &= raw_write(MS_PARAM("comm"), rnd, n, -1) == EINVAL;
		all &= raw_write(MS_PARAM("tgid"), rnd, n, -1) == EINVAL;
	}
	t_ok(all, "%d random writes of 16 to 63 bytes into comm and tgid: each EINVAL", N_RANDOM);
	memset(big, '7', 8192);
	err = raw_write(MS_PARAM("tgid"), big, 8192, -1);
	t_ok(err != 0, "tgid: an 8 KiB write refused (errno %d: %s)", err, strerror(err > 0 ? err : 0));
	err = raw_write(MS_PARAM("tgid"), NULL, 4, -1);
	t_eq(err, EFAULT, "tgid: a NULL buffer: EFAULT");
	unchanged("bad parameter values");

	for (i = 0; i < 3; i++) {
		param_read(ro[i], before, sizeof(before));
		snprintf(path, sizeof(path), MS_PARAM("%s"), ro[i]);
		err = raw_write(path, "1\n", 2, -1);
		param_read(ro[i], after, sizeof(after));
		t_ok(err == EACCES && !strcmp(before, after),
		     "%s is read-only: EACCES (got %d), unchanged", ro[i], err);
	}

	err = raw_write(MS_PARAM("tgid"), "", 0, -1);
	t_eq(err, 0, "tgid: an empty write is sysfs' no-op, accepted");
	unchanged("empty parameter write");
	/*
	 * sysfs hands the module a C string: the bytes after a NUL never reach
	 * it.  "1\0x" is then tgid 1 (init), not an error; the filter is put
	 * back at once (unchanged() checks it is).
	 */
	err = raw_write(MS_PARAM("tgid"), "1\0x", 3, -1);
	param_read("tgid", after, sizeof(after));
	t_ok(err == 0 && !strcmp(after, "1\n"),
	     "tgid \"1\\0x\": the module sees \"1\" (write %d, tgid now %.*s)", err,
	     (int)strcspn(after, "\n"), after);
	ms_set_tgid(getpid());
}

int main(void)
{
	int i;

	pg = sysconf(_SC_PAGESIZE);
	t_plan(34);
	if (!ms_loaded()) {
		t_ok(0, "mseal_stats is loaded");
		return 1;
	}
	page = mmap(NULL, pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (ms_set_tgid(getpid()) || ms_write(MS_PARAM("comm"), "\n") || ms_reset()) {
		t_ok(0, "set the tgid filter and reset");
		return 1;
	}
	for (i = 0; i < N_PKEY; i++)
		syscall(SYS_pkey_mprotect, page, pg, PROT_READ | PROT_WRITE, -1);
	param_read("tgid", tgid_before, sizeof(tgid_before));
	param_read("comm", comm_before, sizeof(comm_before));
	unchanged("before any bad write");

	command_cases();
	report_cases();
	param_cases();
	concurrent_cases();

	t_eq(ms_reset(), 0, "a plain \"reset\\n\" still works after all that");
	ms_snapshot();
	t_eq(ms_get("syscalls.pkey_mprotect.count"), 0, "  and zeroes the counts");
	ms_set_tgid(0);
	return t_exit();
}
