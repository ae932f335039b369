// SPDX-License-Identifier: GPL-2.0
/*
 * ms_preseries - on a kernel with the pre-series checks (6.10/6.11, or
 * src-preseries: 6.12 with them restored), can_modify_mm and
 * can_modify_mm_madv are charged to the right syscalls, and refused counts
 * equal the EPERMs the workload saw.
 *
 * Needs mseal_stats.ko loaded; every result skipped when the kernel has no
 * can_modify_mm (ms_kernel_has: the test bed's table or kallsyms, never the
 * module's report; where the kernel has them, both must be attached).
 * Expected, from the pre-series call sites (the reviewed patch's "Expected
 * calls per syscall", shared/kernel-facts.md):
 *   munmap, mprotect, pkey_mprotect: one can_modify_mm per call;
 *   mmap (not fixed): one per call (mmap_region through the munmap core);
 *   mremap in place (same size): one per call (the mremap body);
 *   madvise, process_madvise: one can_modify_mm_madv per call;
 *   refused (sealed memory): refused checks = EPERMs seen, per syscall.
 */
#include <sys/uio.h>
#include "mstest.h"

#define N 200

static void *maps[N];

static long long chk(const char *sys, const char *check, const char *field)
{
	return ms_get("syscalls.%s.checks.%s.%s", sys, check, field);
}

int main(void)
{
	long pg = sysconf(_SC_PAGESIZE);
	long eperm_munmap = 0, eperm_mprotect = 0, eperm_madvise = 0;
	struct iovec iov;
	char *a, *p, *q;
	int i, pidfd;

	/* The plan first: a crash before any result is a short plan. */
	t_plan(18);
	if (!ms_loaded()) {
		t_ok(0, "mseal_stats is loaded");
		return 1;
	}
	/* A pre-series kernel or not: the kernel says, not the module. */
	if (!ms_kernel_has("can_modify_mm") || !ms_kernel_has("can_modify_mm_madv")) {
		for (i = 0; i < 18; i++)
			t_skip("no can_modify_mm and can_modify_mm_madv in this kernel: not a pre-series kernel");
		return 0;
	}
	ms_snapshot();
	ms_expect_check("can_modify_mm");
	ms_expect_check("can_modify_mm_madv");
	a = mmap(NULL, pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	p = mmap(NULL, pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	q = mmap(NULL, pg, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	for (i = 0; i < N; i++)
		maps[i] = mmap(NULL, pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	pidfd = syscall(SYS_pidfd_open, getpid(), 0);
	iov.iov_base = a;
	iov.iov_len = pg;
	if (syscall(MS_NR_MSEAL, p, pg, 0) || syscall(MS_NR_MSEAL, q, pg, 0) ||
	    ms_set_tgid(getpid()) || ms_reset()) {
		t_ok(0, "set up: %s", strerror(errno));
		return 1;
	}

	/* Quiet from here to the snapshot. */
	for (i = 0; i < N; i++)
		munmap(maps[i], pg);
	for (i = 0; i < N; i++)
		mprotect(a, pg, PROT_READ | PROT_WRITE);
	for (i = 0; i < N; i++)
		syscall(SYS_pkey_mprotect, a, pg, PROT_READ | PROT_WRITE, -1);
	for (i = 0; i < N; i++)
		maps[i] = mmap(NULL, pg, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	for (i = 0; i < N; i++)
		mremap(a, pg, pg, 0);
	for (i = 0; i < N; i++)
		madvise(a, pg, MADV_DONTNEED);
	for (i = 0; i < N; i++)
		syscall(SYS_process_madvise, pidfd, &iov, 1, MADV_COLD, 0);
	for (i = 0; i < N; i++)
		eperm_munmap += munmap(p, pg) && errno == EPERM;
	for (i = 0; i < N; i++)
		eperm_mprotect += mprotect(p, pg, PROT_READ) && errno == EPERM;
	for (i = 0; i < N; i++)
		eperm_madvise += madvise(q, pg, MADV_DONTNEED) && errno == EPERM;
	ms_snapshot();
	/* Quiet no more. */

	t_eq(chk("munmap", "can_modify_mm", "count"), 2 * N, "can_modify_mm: one per munmap");
	t_eq(chk("mprotect", "can_modify_mm", "count"), 2 * N, "can_modify_mm: one per mprotect");
	t_eq(chk("pkey_mprotect", "can_modify_mm", "count"), N, "can_modify_mm: one per pkey_mprotect");
	t_eq(chk("mmap", "can_modify_mm", "count"), N, "can_modify_mm: one per mmap (mmap_region)");
	t_eq(chk("mremap", "can_modify_mm", "count"), N, "can_modify_mm: one per mremap in place");
	t_eq(chk("madvise", "can_modify_mm_madv", "count"), 2 * N, "can_modify_mm_madv: one per madvise");
	t_eq(chk("process_madvise", "can_modify_mm_madv", "count"), N, "can_modify_mm_madv: one per process_madvise");
	t_eq(eperm_munmap, N, "munmap of sealed memory: EPERM each time");
	t_eq(chk("munmap", "can_modify_mm", "refused"), eperm_munmap, "munmap: refused = EPERMs seen");
	t_eq(ms_get("syscalls.munmap.eperm"), eperm_munmap, "munmap: eperm = EPERMs seen");
	t_eq(eperm_mprotect, N, "mprotect of sealed memory: EPERM each time");
	t_eq(chk("mprotect", "can_modify_mm", "refused"), eperm_mprotect, "mprotect: refused = EPERMs seen");
	t_eq(eperm_madvise, N, "discarding madvise of sealed read-only memory: EPERM each time");
	t_eq(chk("madvise", "can_modify_mm_madv", "refused"), eperm_madvise, "madvise: refused = EPERMs seen");
	t_eq(ms_get("syscalls.munmap.count"), 2 * N, "munmap count");
	t_eq(ms_missed_total(), 0, "no probe missed a hit");
	ms_set_tgid(0);
	return t_exit();
}
