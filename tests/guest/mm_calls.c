// SPDX-License-Identifier: GPL-2.0
/*
 * mm_calls N [--stop]: exactly N calls of each syscall mseal_stats counts
 * (mmap, munmap, mremap, mprotect, pkey_mprotect, madvise,
 * process_madvise, brk, mseal, shmdt), then exit 0.  A known workload for
 * tracers that need no module (the bpftrace scripts' test).
 *
 * --stop: stop (SIGSTOP) after the setup and before the first counted call,
 * so a tracer given this PID can attach and then SIGCONT it: from there on
 * the process makes no other mm syscall, not even at exit.
 *
 * Where mseal exists, the N mprotect calls meet a sealed VMA: N EPERMs; the
 * N mseal calls seal that VMA again (allowed).  Elsewhere (before 6.10)
 * mseal fails with ENOSYS and mprotect succeeds.  madvise and
 * process_madvise each touch one VMA: one seal check per call on 6.12 to
 * 6.16 (can_modify_vma_madv), none refused.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/shm.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#ifndef SYS_mseal
#define SYS_mseal 462
#endif

int main(int argc, char **argv)
{
	long pg = sysconf(_SC_PAGESIZE), n, i;
	struct iovec iov;
	char *a, *m, *p;
	int pidfd;

	if (argc < 2 || argc > 3 || (argc == 3 && strcmp(argv[2], "--stop"))) {
		fprintf(stderr, "usage: mm_calls N [--stop]\n");
		return 2;
	}
	n = atol(argv[1]);
	a = mmap(NULL, pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	m = mmap(NULL, pg, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	pidfd = syscall(SYS_pidfd_open, getpid(), 0);
	if (a == MAP_FAILED || m == MAP_FAILED || pidfd < 0) {
		perror("mm_calls: setup");
		return 1;
	}
	iov.iov_base = a;
	iov.iov_len = pg;
	/* Sealed once here so every counted mprotect meets a seal. */
	syscall(SYS_mseal, m, pg, 0);
	if (argc == 3)
		raise(SIGSTOP);

	/* Counted from here: nothing but these calls, results unchecked. */
	for (i = 0; i < n; i++) {
		p = mmap(NULL, pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		mremap(p, pg, pg, 0);
		munmap(p, pg);
		mprotect(m, pg, PROT_READ);
		syscall(SYS_pkey_mprotect, a, pg, PROT_READ | PROT_WRITE, -1);
		madvise(a, pg, MADV_DONTNEED);
		syscall(SYS_process_madvise, pidfd, &iov, 1, MADV_COLD, 0);
		syscall(SYS_brk, 0);			/* brk(0): the break, unchanged */
		syscall(SYS_mseal, m, pg, 0);
		shmdt((void *)pg);			/* nothing attached: EINVAL */
	}
	/* _exit: no stdio flush, no atexit, no mm syscall on the way out. */
	_exit(0);
}
