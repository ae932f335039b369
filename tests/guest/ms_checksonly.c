// SPDX-License-Identifier: GPL-2.0
/*
 * ms_checksonly - mseal_stats loaded with syscalls=0: no syscall is probed
 * (every syscall probe "off", no syscall counted), yet every check is
 * counted and charged to the syscall that made it.
 *
 * Needs mseal_stats.ko loaded with syscalls=0.  Makes N madvise,
 * process_madvise, munmap and mprotect calls of one VMA each, quietly, then:
 *   syscalls_probed false, the text report says "checks only";
 *   every syscall's count 0 or no entry;
 *   can_modify_vma_madv (6.12 to 6.16): one per madvise and process_madvise;
 *   can_modify_mm / can_modify_mm_madv (pre-series): one per munmap and
 *   mprotect / per madvise and process_madvise;
 *   none charged to "other"; mseal_supported as the mseal syscall answers.
 * Which checks the kernel has: ms_kernel_has (the test bed's table or
 * kallsyms), never the module's report.
 */
#include <sys/uio.h>
#include "mstest.h"

#define N 500

static const char *const names[] = {
	"mmap", "munmap", "mremap", "mprotect", "pkey_mprotect", "madvise",
	"process_madvise", "brk", "mseal", "shmdt",
};
#define NSYS ((int)(sizeof(names) / sizeof(names[0])))
static void *maps[N];
static char text[1 << 16];

static long long chk(const char *sys, const char *check)
{
	return ms_get("syscalls.%s.checks.%s.count", sys, check);
}

int main(void)
{
	long pg = sysconf(_SC_PAGESIZE);
	int pidfd, i, s, off = 0, counted = 0, has_mseal;
	struct iovec iov;
	char *a;

	t_plan(7 + 3);
	if (!ms_loaded()) {
		t_ok(0, "mseal_stats is loaded");
		return 1;
	}
	ms_kernel_checks();	/* the kernel's checks, before the quiet part */
	a = mmap(NULL, pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	for (i = 0; i < N; i++)
		maps[i] = mmap(NULL, pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	pidfd = syscall(SYS_pidfd_open, getpid(), 0);
	iov.iov_base = a;
	iov.iov_len = pg;
	has_mseal = !(syscall(MS_NR_MSEAL, 0, 0, 0) < 0 && errno == ENOSYS);
	if (ms_set_tgid(getpid()) || ms_reset()) {
		t_ok(0, "set tgid filter and reset");
		return 1;
	}
	/* Quiet from here to the snapshot. */
	for (i = 0; i < N; i++)
		madvise(a, pg, MADV_DONTNEED);
	for (i = 0; i < N; i++)
		syscall(SYS_process_madvise, pidfd, &iov, 1, MADV_COLD, 0);
	for (i = 0; i < N; i++)
		munmap(maps[i], pg);
	for (i = 0; i < N; i++)
		mprotect(a, pg, PROT_READ | PROT_WRITE);
	ms_snapshot();
	/* Quiet no more. */

	t_eq(msj_bool(ms_json, "syscalls_probed"), 0, "syscalls_probed false");
	msj_read_file(MS_TEXT, text, sizeof(text));
	t_ok(strstr(text, "checks only") != NULL, "text report says \"checks only\"");
	for (s = 0; s < NSYS; s++) {
		off += !strcmp(ms_probe_state(names[s]), "off");
		counted += ms_get("syscalls.%s.count", names[s]) > 0;
	}
	t_eq(off, NSYS, "every syscall probe is off");
	t_eq(counted, 0, "no syscall counted");
	t_eq(msj_bool(ms_json, "mseal_supported"), has_mseal, "mseal_supported as the mseal syscall answers");
	t_eq(ms_missed_total(), 0, "no probe missed a hit");
	ms_expect_backend(text, sizeof(text));
	if (ms_kernel_has("can_modify_vma_madv")) {
		t_eq(chk("madvise", "can_modify_vma_madv"), N, "can_modify_vma_madv: one per madvise, charged to madvise");
		t_eq(chk("process_madvise", "can_modify_vma_madv"), N, "can_modify_vma_madv: one per process_madvise");
		t_eq(ms_get("other.can_modify_vma_madv.count"), 0, "can_modify_vma_madv: none to other");
	} else if (ms_kernel_has("can_modify_mm") || ms_kernel_has("can_modify_mm_madv")) {
		t_eq(chk("munmap", "can_modify_mm") + chk("mprotect", "can_modify_mm"), 2 * N,
		     "can_modify_mm: one per munmap and per mprotect, charged to them");
		t_eq(chk("madvise", "can_modify_mm_madv") + chk("process_madvise", "can_modify_mm_madv"), 2 * N,
		     "can_modify_mm_madv: one per madvise and process_madvise");
		t_eq(ms_get("other.can_modify_mm.count") + ms_get("other.can_modify_mm_madv.count"), 0,
		     "can_modify_mm*: none to other");
	} else {
		t_skip("no seal check in this kernel: attribution");
		t_skip("no seal check in this kernel: attribution");
		t_skip("no seal check in this kernel: other");
	}
	ms_set_tgid(0);
	return t_exit();
}
