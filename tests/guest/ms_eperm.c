// SPDX-License-Identifier: GPL-2.0
/*
 * ms_eperm - refused operations on sealed memory: every EPERM counted.
 *
 * Needs mseal_stats.ko loaded and a kernel with mseal (else: one skip, the
 * kernel saying ENOSYS).
 * Seals mappings, then makes N calls each of munmap, mprotect,
 * pkey_mprotect, mremap, mmap MAP_FIXED and a discarding madvise on them,
 * and checks the module's eperm count against the EPERMs the calls saw
 * (and that they saw N).  Where the kernel has can_modify_vma_madv (6.12 to
 * 6.16; MS_EXPECT_CHECKS or kallsyms, see ms_kernel_has; never the
 * module's report):
 * refused once per refused madvise, and one check per VMA advised (an
 * unsealed range of 4 VMAs, M calls: 4 * M checks, none refused).
 */
#include "mstest.h"

#define N 200
#define M 100
#define VMAS 4

enum { MMAP, MUNMAP, MREMAP, MPROTECT, PKEY_MPROTECT, MADVISE, NSYS };
static const char *const names[NSYS] = {
	"mmap", "munmap", "mremap", "mprotect", "pkey_mprotect", "madvise",
};
static long made[NSYS], eperm[NSYS], errs[NSYS];

static void seen(int s, long failed)
{
	made[s]++;
	if (failed && errno == EPERM)
		eperm[s]++;
	else if (failed)
		errs[s]++;
}

int main(void)
{
	long pg = sysconf(_SC_PAGESIZE);
	char *p, *q, *v;
	int i, s, madv_eperm;

	/* Whether there is mseal: the kernel says (ENOSYS), not the module. */
	if (syscall(MS_NR_MSEAL, 0, 0, 0) < 0 && errno == ENOSYS) {
		t_plan(1);
		t_skip("this kernel has no mseal (ENOSYS)");
		return 0;
	}
	/* The plan before any work: a crash after it is a short plan. */
	t_plan(3 * NSYS + 5 + 4);
	if (!ms_loaded()) {
		t_ok(0, "mseal_stats is loaded");
		return 1;
	}
	ms_kernel_checks();

	/* p: 2 pages RW, sealed; q: a read-only private anonymous page, sealed
	 * (discarding madvise refused); v: 4 VMAs, not sealed. */
	p = mmap(NULL, 2 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	q = mmap(NULL, pg, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	v = mmap(NULL, VMAS * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	for (i = 1; i < VMAS; i += 2)
		mprotect(v + i * pg, pg, PROT_READ);
	if (p == MAP_FAILED || q == MAP_FAILED || v == MAP_FAILED ||
	    syscall(MS_NR_MSEAL, p, 2 * pg, 0) || syscall(MS_NR_MSEAL, q, pg, 0)) {
		t_ok(0, "set up sealed mappings: %s", strerror(errno));
		return 1;
	}
	if (ms_set_tgid(getpid()) || ms_reset()) {
		t_ok(0, "set tgid filter and reset");
		return 1;
	}

	/* Quiet from here to the snapshot. */
	for (i = 0; i < N; i++)
		seen(MUNMAP, munmap(p, pg));
	for (i = 0; i < N; i++)
		seen(MPROTECT, mprotect(p, pg, PROT_READ));
	for (i = 0; i < N; i++)
		seen(PKEY_MPROTECT, syscall(SYS_pkey_mprotect, p, pg, PROT_READ, -1));
	for (i = 0; i < N; i++)
		seen(MREMAP, mremap(p, 2 * pg, pg, 0) == MAP_FAILED);
	for (i = 0; i < N; i++)
		seen(MMAP, mmap(p, pg, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED);
	for (i = 0; i < N; i++)
		seen(MADVISE, madvise(q, pg, MADV_DONTNEED));
	madv_eperm = eperm[MADVISE];
	for (i = 0; i < M; i++)
		seen(MADVISE, madvise(v, VMAS * pg, MADV_DONTNEED));
	ms_snapshot();
	/* Quiet no more. */

	for (s = 0; s < NSYS; s++) {
		t_eq(ms_get("syscalls.%s.count", names[s]), made[s], names[s]);
		t_eq(ms_get("syscalls.%s.eperm", names[s]), eperm[s], "  eperm, as the calls saw");
		t_eq(ms_get("syscalls.%s.errors", names[s]), errs[s], "  other errors, as the calls saw");
	}
	t_eq(eperm[MUNMAP], N, "munmap of sealed memory: all EPERM");
	t_eq(eperm[MPROTECT], N, "mprotect of sealed memory: all EPERM");
	t_eq(eperm[PKEY_MPROTECT], N, "pkey_mprotect of sealed memory: all EPERM");
	t_eq(eperm[MREMAP], N, "mremap of sealed memory: all EPERM");
	t_eq(madv_eperm, N, "MADV_DONTNEED on sealed read-only anonymous memory: all EPERM");
	if (ms_kernel_has("can_modify_vma_madv")) {
		t_eq(ms_get("syscalls.madvise.checks.can_modify_vma_madv.count"), N + VMAS * M,
		     "can_modify_vma_madv: one per VMA advised");
		t_eq(ms_get("syscalls.madvise.checks.can_modify_vma_madv.refused"), madv_eperm,
		     "can_modify_vma_madv: refused = EPERMs seen");
		t_eq(ms_get("other.can_modify_vma_madv.count"), 0, "can_modify_vma_madv: none outside a syscall");
	} else {
		t_skip("no can_modify_vma_madv in this kernel: one per VMA advised");
		t_skip("no can_modify_vma_madv in this kernel: refused = EPERMs seen");
		t_skip("no can_modify_vma_madv in this kernel: none outside a syscall");
	}
	t_eq(ms_missed_total(), 0, "no probe missed a hit");
	ms_set_tgid(0);
	return t_exit();
}
