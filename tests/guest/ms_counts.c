// SPDX-License-Identifier: GPL-2.0
/*
 * ms_counts - mseal_stats counts every syscall exactly, for this process.
 *
 * Needs mseal_stats.ko loaded.  Sets the tgid filter to itself, resets, makes
 * N calls of each probed syscall without any other mapping change of its own,
 * then checks count, eperm and errors against what it made and saw.  Also:
 * mseal supported or not as the syscall itself says (and the text report
 * saying so), the backend in
 * use named (MS_BACKEND=NAME in the environment: it must be NAME; else the
 * one the backend parameter shows), every check named
 * with its state, no missed hits, and on kernels where can_modify_vma_madv
 * can be probed (6.12 to 6.16), one check per madvise and process_madvise
 * call of one VMA, charged to that syscall.  Which checks the kernel has
 * comes from the kernel (MS_EXPECT_CHECKS, the test bed's table, checked
 * against /proc/kallsyms here; see ms_kernel_has in mstest.h), never from
 * the module: a check the kernel has and the module did not attach fails.
 */
#include <sys/shm.h>
#include <sys/uio.h>
#include "mstest.h"

#define N 1000

enum { MMAP, MUNMAP, MREMAP, MPROTECT, PKEY_MPROTECT, MADVISE, PROCESS_MADVISE, BRK, MSEAL, SHMDT, NSYS };
static const char *const names[NSYS] = {
	"mmap", "munmap", "mremap", "mprotect", "pkey_mprotect", "madvise",
	"process_madvise", "brk", "mseal", "shmdt",
};
static const char *const checks[] = {
	"can_modify_mm", "can_modify_mm_madv", "can_modify_vma", "can_modify_vma_madv",
};
static long made[NSYS], eperm[NSYS], errs[NSYS];
static void *maps[N];
static char text[1 << 16], clocksource[64];

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
	struct iovec iov;
	int pidfd, supported, i, s, k;
	char *a, *m = NULL;

	t_plan(3 * NSYS + 5 + 1 + 4 + 3);
	if (!ms_loaded()) {
		t_ok(0, "mseal_stats is loaded");
		return 1;
	}
	/* Everything that allocates, before the reset. */
	ms_kernel_checks();
	a = mmap(NULL, pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	pidfd = syscall(SYS_pidfd_open, getpid(), 0);
	iov.iov_base = a;
	iov.iov_len = pg;
	/* The kernel's answer, not the module's: mseal of an empty range is
	 * 0 where the syscall exists and ENOSYS where it does not. */
	supported = syscall(MS_NR_MSEAL, 0, 0, 0) == 0;
	ms_snapshot();
	if (supported)
		m = mmap(NULL, pg, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (ms_set_tgid(getpid()) || ms_reset()) {
		t_ok(0, "set tgid filter and reset");
		return 1;
	}

	/* Quiet from here to the snapshot: only the calls counted. */
	for (i = 0; i < N; i++) {
		maps[i] = mmap(NULL, pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		seen(MMAP, maps[i] == MAP_FAILED);
	}
	for (i = 0; i < N; i++)
		seen(MUNMAP, munmap(maps[i], pg));
	for (i = 0; i < N; i++)
		seen(MREMAP, mremap(a, pg, pg, 0) == MAP_FAILED);
	for (i = 0; i < N; i++)
		seen(MPROTECT, mprotect(a, pg, PROT_READ | PROT_WRITE));
	for (i = 0; i < N; i++)
		seen(PKEY_MPROTECT, syscall(SYS_pkey_mprotect, a, pg, PROT_READ | PROT_WRITE, -1));
	for (i = 0; i < N; i++)
		seen(MADVISE, madvise(a, pg, MADV_DONTNEED));
	for (i = 0; i < N; i++)
		seen(PROCESS_MADVISE, syscall(SYS_process_madvise, pidfd, &iov, 1, MADV_COLD, 0) < 0);
	for (i = 0; i < N; i++)
		seen(BRK, syscall(SYS_brk, 0) == -1);	/* brk(0) never fails */
	for (i = 0; supported && i < N; i++)
		seen(MSEAL, syscall(MS_NR_MSEAL, m, pg, 0));
	for (i = 0; i < N; i++)
		seen(SHMDT, shmdt((void *)pg));		/* nothing attached: EINVAL */
	ms_snapshot();
	/* Quiet no more. */

	for (s = 0; s < NSYS; s++) {
		if (s == MSEAL && !supported) {
			t_ok(!strcmp(ms_probe_state("mseal"), "absent"),
			     "mseal: no mseal syscall, probe %s", ms_probe_state("mseal"));
			msj_read_file(MS_TEXT, text, sizeof(text));
			t_ok(strstr(text, "mseal not supported") != NULL, "text report says \"mseal not supported\"");
			t_ok(ms_get("syscalls.mseal.count") == -1, "no mseal entry in syscalls");
			continue;
		}
		t_eq(ms_get("syscalls.%s.count", names[s]), made[s], names[s]);
		t_eq(ms_get("syscalls.%s.eperm", names[s]), eperm[s], "  eperm, as the calls saw");
		t_eq(ms_get("syscalls.%s.errors", names[s]), errs[s], "  other errors, as the calls saw");
	}
	t_eq(msj_bool(ms_json, "mseal_supported"), supported,
	     supported ? "mseal_supported is the kernel's (mseal of nothing: 0)" :
			 "mseal_supported is the kernel's (mseal of nothing: ENOSYS)");
	t_eq(ms_missed_total(), 0, "no probe missed a hit");
	t_eq(msj_int(ms_json, "filter.tgid", -1), getpid(), "filter.tgid is this process");
	ms_expect_backend(text, sizeof(text));
	if (msj_read_file("/sys/devices/system/clocksource/clocksource0/current_clocksource",
			  clocksource, sizeof(clocksource)) < 0)
		strcpy(clocksource, "?");
	clocksource[strcspn(clocksource, "\n")] = '\0';
	t_ok(ms_get("calibration_ns") > 0 && !strstr(clocksource, "jiffies"),
	     "a clock that times calls: calibration_ns %lld, clocksource %s",
	     ms_get("calibration_ns"), clocksource);
	ms_expect_table_is_kallsyms();
	for (k = 0; k < 4; k++)
		ms_expect_check(checks[k]);
	if (ms_kernel_has("can_modify_vma_madv")) {
		t_eq(ms_get("syscalls.madvise.checks.can_modify_vma_madv.count"), N,
		     "can_modify_vma_madv: one per madvise of one VMA");
		t_eq(ms_get("syscalls.process_madvise.checks.can_modify_vma_madv.count"), N,
		     "can_modify_vma_madv: one per process_madvise of one VMA");
		t_eq(ms_get("other.can_modify_vma_madv.count"), 0, "can_modify_vma_madv: none outside a syscall");
	} else {
		t_skip("no can_modify_vma_madv in this kernel: per-madvise check count");
		t_skip("no can_modify_vma_madv in this kernel: per-process_madvise check count");
		t_skip("no can_modify_vma_madv in this kernel: checks outside a syscall");
	}
	ms_set_tgid(0);
	return t_exit();
}
