// SPDX-License-Identifier: GPL-2.0
/*
 * seal_semantics: what a sealed mapping refuses, as TAP.
 *
 *   seal_semantics
 *
 * Every operation mseal(2) blocks is tried on a freshly sealed mapping and
 * must fail with EPERM, leaving the mapping as it was (same VMAs in
 * /proc/self/maps, same contents).  The operations allowed on sealed memory
 * (a discarding madvise on writable memory) must still succeed.  Each test
 * has one exact expected outcome, so the pre-series and the patched kernel
 * of the A/B pair must print the same lines.  On a kernel without mseal
 * (ENOSYS) every test is skipped.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/shm.h>
#include <sys/syscall.h>
#include <unistd.h>

#define SYS_MSEAL 462

#ifndef MADV_DONTNEED_LOCKED
#define MADV_DONTNEED_LOCKED 24
#endif

static long page;
static int test_nr;
static int failed;

static int sys_mseal(void *addr, size_t len)
{
	return syscall(SYS_MSEAL, addr, len, 0UL);
}

static void report(int ok, const char *name)
{
	test_nr++;
	printf("%sok %d - %s\n", ok ? "" : "not ", test_nr, name);
	if (!ok)
		failed++;
}

static void skip(const char *why)
{
	test_nr++;
	printf("ok %d # SKIP %s\n", test_nr, why);
}

/* An anonymous private mapping of @npages pages, page i filled with 'A' + i. */
static char *map_filled(int npages, int prot)
{
	char *p = mmap(NULL, npages * page, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int i;

	if (p == MAP_FAILED) {
		printf("# mmap: %s\n", strerror(errno));
		exit(1);
	}
	for (i = 0; i < npages; i++)
		memset(p + i * page, 'A' + i, page);
	if (prot != (PROT_READ | PROT_WRITE) &&
	    mprotect(p, npages * page, prot)) {
		printf("# mprotect: %s\n", strerror(errno));
		exit(1);
	}
	return p;
}

static char *map_sealed(int npages, int prot)
{
	char *p = map_filled(npages, prot);

	if (sys_mseal(p, npages * page)) {
		printf("# mseal: %s\n", strerror(errno));
		exit(1);
	}
	return p;
}

static int filled(const char *p, int npages)
{
	int i;
	long j;

	for (i = 0; i < npages; i++)
		for (j = 0; j < page; j++)
			if (p[i * page + j] != 'A' + i)
				return 0;
	return 1;
}

/*
 * The lines of /proc/self/maps for VMAs overlapping [start, end), joined,
 * into @buf.  Returns the number of lines.
 */
static int maps_of(const char *start, const char *end, char *buf, size_t size)
{
	unsigned long lo, hi;
	char line[512];
	int n = 0;
	size_t used = 0;
	FILE *f = fopen("/proc/self/maps", "r");

	buf[0] = '\0';
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx", &lo, &hi) != 2)
			continue;
		if (hi <= (unsigned long)start || lo >= (unsigned long)end)
			continue;
		n++;
		if (used + strlen(line) < size) {
			strcpy(buf + used, line);
			used += strlen(line);
		}
	}
	fclose(f);
	return n;
}

/* Print maps_of() lines as TAP comments. */
static void show_maps(const char *when, const char *lines)
{
	const char *l = lines;

	printf("# /proc/self/maps %s:\n", when);
	while (*l) {
		const char *nl = strchr(l, '\n');
		int n = nl ? nl - l : (int)strlen(l);

		printf("#   %.*s\n", n, l);
		l += nl ? n + 1 : n;
	}
}

/* A refused call: returned -1 (or MAP_FAILED) with errno EPERM. */
static int refused(long ret, const char *what)
{
	if (ret == -1 && errno == EPERM)
		return 1;
	if (ret == -1)
		printf("# %s: expected EPERM, got %s\n", what, strerror(errno));
	else
		printf("# %s: expected EPERM, it succeeded (returned %ld)\n", what, ret);
	return 0;
}

static void test_munmap(void)
{
	char *p = map_sealed(2, PROT_READ | PROT_WRITE);

	report(refused(munmap(p, 2 * page), "munmap") && filled(p, 2),
	       "munmap of a sealed mapping: EPERM");
}

static void test_mmap_fixed(void)
{
	char *p = map_sealed(2, PROT_READ | PROT_WRITE);
	void *q = mmap(p, 2 * page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);

	report(refused(q == MAP_FAILED ? -1 : (long)q, "mmap MAP_FIXED") && filled(p, 2),
	       "mmap MAP_FIXED over a sealed mapping: EPERM");
}

static void test_mremap_shrink(void)
{
	char *p = map_sealed(2, PROT_READ | PROT_WRITE);
	void *q = mremap(p, 2 * page, page, 0);

	report(refused(q == MAP_FAILED ? -1 : (long)q, "mremap shrink") && filled(p, 2),
	       "mremap shrinking a sealed mapping: EPERM");
}

static void test_mremap_expand(void)
{
	char *p = map_filled(4, PROT_READ | PROT_WRITE);
	void *q;

	/* Leave room after the mapping, so only the seal can refuse. */
	munmap(p + 2 * page, 2 * page);
	if (sys_mseal(p, 2 * page)) {
		printf("# mseal: %s\n", strerror(errno));
		exit(1);
	}
	q = mremap(p, 2 * page, 4 * page, 0);
	report(refused(q == MAP_FAILED ? -1 : (long)q, "mremap expand") && filled(p, 2),
	       "mremap expanding a sealed mapping: EPERM");
}

static void test_mremap_move(void)
{
	char *p = map_sealed(2, PROT_READ | PROT_WRITE);
	char *dst = map_filled(2, PROT_READ | PROT_WRITE);
	void *q = mremap(p, 2 * page, 2 * page, MREMAP_MAYMOVE | MREMAP_FIXED, dst);

	report(refused(q == MAP_FAILED ? -1 : (long)q, "mremap move") && filled(p, 2),
	       "mremap moving a sealed mapping: EPERM");
}

static void test_mremap_dontunmap(void)
{
	char *p = map_sealed(2, PROT_READ | PROT_WRITE);
	void *q = mremap(p, 2 * page, 2 * page, MREMAP_MAYMOVE | MREMAP_DONTUNMAP);

	report(refused(q == MAP_FAILED ? -1 : (long)q, "mremap dontunmap") && filled(p, 2),
	       "mremap MREMAP_DONTUNMAP of a sealed mapping: EPERM");
}

static void test_mremap_onto(void)
{
	char *src = map_filled(2, PROT_READ | PROT_WRITE);
	char *p = map_sealed(2, PROT_READ | PROT_WRITE);
	void *q = mremap(src, 2 * page, 2 * page, MREMAP_MAYMOVE | MREMAP_FIXED, p);

	report(refused(q == MAP_FAILED ? -1 : (long)q, "mremap onto sealed") && filled(p, 2),
	       "mremap moving onto a sealed mapping: EPERM");
}

static void test_mprotect(void)
{
	char *p = map_sealed(2, PROT_READ | PROT_WRITE);

	report(refused(mprotect(p, 2 * page, PROT_READ), "mprotect") && filled(p, 2),
	       "mprotect of a sealed mapping: EPERM");
}

static void test_pkey_mprotect(void)
{
	char *p = map_sealed(2, PROT_READ | PROT_WRITE);

	/* pkey -1 is plain mprotect through do_mprotect_pkey(). */
	report(refused(syscall(SYS_pkey_mprotect, p, 2 * page, PROT_READ, -1),
		       "pkey_mprotect") && filled(p, 2),
	       "pkey_mprotect (pkey -1) of a sealed mapping: EPERM");
}

static void test_pkey_mprotect_key(void)
{
	char *p = map_sealed(2, PROT_READ | PROT_WRITE);
	long pkey = syscall(SYS_pkey_alloc, 0UL, 0UL);

	if (pkey < 0) {
		skip("pkey_mprotect with an allocated key: no protection keys");
		return;
	}
	report(refused(syscall(SYS_pkey_mprotect, p, 2 * page, PROT_READ | PROT_WRITE, pkey),
		       "pkey_mprotect key") && filled(p, 2),
	       "pkey_mprotect (allocated key) of a sealed mapping: EPERM");
	syscall(SYS_pkey_free, pkey);
}

static const struct {
	int behavior;
	const char *name;
} discards[] = {
	{ MADV_DONTNEED, "MADV_DONTNEED" },
	{ MADV_FREE, "MADV_FREE" },
	{ MADV_DONTNEED_LOCKED, "MADV_DONTNEED_LOCKED" },
	{ MADV_REMOVE, "MADV_REMOVE" },
	{ MADV_DONTFORK, "MADV_DONTFORK" },
	{ MADV_WIPEONFORK, "MADV_WIPEONFORK" },
};

static void test_madvise_ro(void)
{
	char name[128];
	size_t i;

	for (i = 0; i < sizeof(discards) / sizeof(discards[0]); i++) {
		char *p = map_sealed(2, PROT_READ);

		snprintf(name, sizeof(name),
			 "madvise %s on sealed read-only private anonymous memory: EPERM",
			 discards[i].name);
		report(refused(madvise(p, 2 * page, discards[i].behavior), discards[i].name) &&
		       filled(p, 2), name);
	}
}

/* The seal only blocks discarding what the process could not write anyway. */
static void test_madvise_rw(void)
{
	char *p = map_sealed(2, PROT_READ | PROT_WRITE);
	int ret = madvise(p, 2 * page, MADV_DONTNEED);

	if (ret)
		printf("# madvise MADV_DONTNEED on writable sealed memory: %s\n", strerror(errno));
	/* DONTNEED on private anonymous memory reads back zeroes. */
	report(ret == 0 && p[0] == 0 && p[page] == 0,
	       "madvise MADV_DONTNEED on sealed writable memory: allowed");
}

/*
 * Three VMAs, the middle one sealed, between two PROT_NONE guard pages: no
 * neighbour can merge into the first or the last, so a munmap of exactly
 * the three needs no split on any kernel, and /proc/self/maps must show the
 * same three lines after it failed.
 */
static char *map_three_vmas(void)
{
	char *p = map_filled(5, PROT_READ | PROT_WRITE);
	int i;

	if (mprotect(p, page, PROT_NONE) || mprotect(p + 4 * page, page, PROT_NONE)) {
		printf("# mprotect: %s\n", strerror(errno));
		exit(1);
	}
	p += page;
	for (i = 0; i < 3; i++)
		memset(p + i * page, 'A' + i, page);
	if (sys_mseal(p + page, page)) {
		printf("# mseal: %s\n", strerror(errno));
		exit(1);
	}
	return p;
}

static void test_munmap_span(void)
{
	char before[2048], after[2048];
	char *p = map_three_vmas();
	int nb = maps_of(p, p + 3 * page, before, sizeof(before));
	int na, ok;

	ok = refused(munmap(p, 3 * page), "munmap across");
	na = maps_of(p, p + 3 * page, after, sizeof(after));
	if (nb != 3)
		printf("# expected 3 VMAs before munmap, found %d\n", nb);
	if (na != nb || strcmp(before, after)) {
		show_maps("before", before);
		show_maps("after", after);
	}
	report(ok && nb == 3 && na == nb && !strcmp(before, after) && filled(p, 3),
	       "munmap spanning a sealed VMA: EPERM, every VMA of the range in place");
}

/*
 * The same, starting and ending inside the unsealed neighbours.  The kernel
 * may leave them split (6.12 splits before it meets the sealed VMA), so
 * compare what is mapped, page by page, not the VMA lines.
 */
static void test_munmap_span_partial(void)
{
	char before[2048], after[2048];
	char *p = map_filled(5, PROT_READ | PROT_WRITE);
	int ok;

	if (sys_mseal(p + 2 * page, page)) {
		printf("# mseal: %s\n", strerror(errno));
		exit(1);
	}
	maps_of(p, p + 5 * page, before, sizeof(before));
	ok = refused(munmap(p + page, 3 * page), "munmap partial");
	maps_of(p, p + 5 * page, after, sizeof(after));
	/*
	 * Not a verdict, a fact for the caller: 6.11 refused before touching
	 * any VMA, 6.12 splits the first neighbour and then meets the seal.
	 */
	printf("# munmap-partial-split: %s\n",
	       strcmp(before, after) ? "left behind" : "none");
	if (strcmp(before, after)) {
		show_maps("before", before);
		show_maps("after", after);
	}
	/* mincore() fails with ENOMEM on any unmapped page. */
	{
		unsigned char vec[5];

		if (mincore(p, 5 * page, vec)) {
			printf("# mincore: %s\n", strerror(errno));
			ok = 0;
		}
	}
	report(ok && filled(p, 5),
	       "munmap partly over a sealed VMA's neighbours: EPERM, every page still mapped");
}

static void test_brk_shrink(void)
{
	unsigned long b0, b1, b2, lo, hi;

	/* Raw brk: glibc's brk() takes a refused shrink for success. */
	b0 = syscall(SYS_brk, 0UL);
	b1 = syscall(SYS_brk, b0 + 3 * page);
	if (b1 != b0 + 3 * page) {
		skip("brk shrink over a sealed heap: the heap does not grow");
		return;
	}
	lo = (b0 + page - 1) & ~(page - 1);
	hi = (b1 + page - 1) & ~(page - 1);
	if (sys_mseal((void *)lo, hi - lo)) {
		printf("# mseal of the heap: %s\n", strerror(errno));
		report(0, "brk shrink over a sealed heap: refused, brk unchanged");
		return;
	}
	/* brk() reports failure by returning the old break. */
	b2 = syscall(SYS_brk, b0);
	if (b2 != b1)
		printf("# brk(%#lx) returned %#lx, expected %#lx\n", b0, b2, b1);
	report(b2 == b1 && !mincore((void *)lo, hi - lo, (unsigned char[8]){ 0 }),
	       "brk shrink over a sealed heap: refused, brk unchanged");
}

static void test_shmdt(void)
{
	char before[1024], after[1024];
	int id = shmget(IPC_PRIVATE, 2 * page, IPC_CREAT | 0600);
	char *p;
	int ret;

	if (id < 0) {
		skip("shmdt of a sealed segment: no System V shared memory");
		return;
	}
	p = shmat(id, NULL, 0);
	shmctl(id, IPC_RMID, NULL);
	if (p == (void *)-1) {
		printf("# shmat: %s\n", strerror(errno));
		report(0, "shmdt of a sealed segment: returns 0, segment stays mapped");
		return;
	}
	memset(p, 'A', page);
	memset(p + page, 'B', page);
	if (sys_mseal(p, 2 * page)) {
		printf("# mseal: %s\n", strerror(errno));
		report(0, "shmdt of a sealed segment: returns 0, segment stays mapped");
		return;
	}
	maps_of(p, p + 2 * page, before, sizeof(before));
	/* shmdt() ignores the unmap's error: it finds the segment, returns 0. */
	ret = shmdt(p);
	if (ret)
		printf("# shmdt: %s\n", strerror(errno));
	maps_of(p, p + 2 * page, after, sizeof(after));
	if (strcmp(before, after)) {
		show_maps("before", before);
		show_maps("after", after);
	}
	report(ret == 0 && before[0] && !strcmp(before, after) && filled(p, 2),
	       "shmdt of a sealed segment: returns 0, segment stays mapped");
}

#define NTESTS 21

int main(void)
{
	char *probe;
	int i;

	setvbuf(stdout, NULL, _IONBF, 0);
	page = sysconf(_SC_PAGESIZE);
	printf("1..%d\n", NTESTS);

	probe = map_filled(1, PROT_READ);
	if (sys_mseal(probe, page)) {
		if (errno != ENOSYS) {
			printf("# mseal of a fresh mapping: %s\n", strerror(errno));
			return 1;
		}
		for (i = 0; i < NTESTS; i++)
			skip("this kernel has no mseal (ENOSYS)");
		return 0;
	}

	test_munmap();
	test_mmap_fixed();
	test_mremap_shrink();
	test_mremap_expand();
	test_mremap_move();
	test_mremap_dontunmap();
	test_mremap_onto();
	test_mprotect();
	test_pkey_mprotect();
	test_pkey_mprotect_key();
	test_madvise_ro();
	test_madvise_rw();
	test_munmap_span();
	test_munmap_span_partial();
	test_shmdt();
	/* Last: it moves the break behind malloc's back. */
	test_brk_shrink();

	if (test_nr != NTESTS) {
		printf("# ran %d tests, planned %d\n", test_nr, NTESTS);
		return 1;
	}
	return failed ? 1 : 0;
}
