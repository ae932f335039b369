// SPDX-License-Identifier: GPL-2.0
/*
 * ms_iouring - checks made by io_uring's workers are charged to "worker",
 * not to whatever syscall their creator was in.
 *
 * io_uring runs IORING_OP_MADVISE in an io-wq worker thread, always
 * (REQ_F_FORCE_ASYNC).  A worker is a user worker (PF_IO_WORKER): on x86 it
 * starts with a copy of its creator's user registers, so its syscall
 * number is whatever the creator was in when the worker was made (a
 * munmap, if task_work ran on the way out of one); on arm64 they are
 * zeros.  Either way it is no syscall of the worker's own.
 *
 * Through the raw io_uring syscalls (no liburing): SEALED read-only private
 * anonymous pages, each mseal'd, and OPEN writable ones, one VMA each, get
 * one MADV_DONTNEED SQE each.  With the tgid filter on this process (its
 * workers are threads of it) and a reset before the submission:
 *   - every sealed page's CQE is -EPERM, every open one's 0;
 *   - where the kernel has a probed madvise check: one check per SQE,
 *     charged to "worker", refused once per sealed page, and none to any
 *     syscall row or "other";
 *   - the madvise syscall itself was not called.
 * Skips what the kernel lacks (io_uring, mseal, a probed madvise check).
 */
#include <linux/io_uring.h>
#include <stdint.h>
#include "mstest.h"

#define SEALED	24
#define OPEN	16
#define NSQE	(SEALED + OPEN)
#define ENTRIES	64

static const char *const syscalls_list[] = {
	"mmap", "munmap", "mremap", "mprotect", "pkey_mprotect", "madvise",
	"process_madvise", "brk", "mseal", "shmdt",
};

struct ring {
	int fd;
	unsigned int *sq_tail, *sq_mask, *sq_array, *cq_head, *cq_tail, *cq_mask;
	struct io_uring_sqe *sqes;
	struct io_uring_cqe *cqes;
};

static int ring_setup(struct ring *r)
{
	struct io_uring_params p;
	size_t sq_len, cq_len;
	char *sq, *cq;

	memset(&p, 0, sizeof(p));
	r->fd = (int)syscall(__NR_io_uring_setup, ENTRIES, &p);
	if (r->fd < 0)
		return -errno;
	sq_len = p.sq_off.array + p.sq_entries * sizeof(unsigned int);
	cq_len = p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe);
	if (p.features & IORING_FEAT_SINGLE_MMAP)
		sq_len = cq_len = sq_len > cq_len ? sq_len : cq_len;
	sq = mmap(NULL, sq_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE,
		  r->fd, IORING_OFF_SQ_RING);
	if (sq == MAP_FAILED)
		return -errno;
	cq = sq;
	if (!(p.features & IORING_FEAT_SINGLE_MMAP)) {
		cq = mmap(NULL, cq_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE,
			  r->fd, IORING_OFF_CQ_RING);
		if (cq == MAP_FAILED)
			return -errno;
	}
	r->sqes = mmap(NULL, p.sq_entries * sizeof(struct io_uring_sqe),
		       PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, r->fd, IORING_OFF_SQES);
	if (r->sqes == MAP_FAILED)
		return -errno;
	r->sq_tail = (unsigned int *)(sq + p.sq_off.tail);
	r->sq_mask = (unsigned int *)(sq + p.sq_off.ring_mask);
	r->sq_array = (unsigned int *)(sq + p.sq_off.array);
	r->cq_head = (unsigned int *)(cq + p.cq_off.head);
	r->cq_tail = (unsigned int *)(cq + p.cq_off.tail);
	r->cq_mask = (unsigned int *)(cq + p.cq_off.ring_mask);
	r->cqes = (struct io_uring_cqe *)(cq + p.cq_off.cqes);
	return 0;
}

/* Queue MADV_DONTNEED of one page at ADDR, tagged TAG. */
static void queue_madvise(struct ring *r, void *addr, size_t len, uint64_t tag)
{
	unsigned int tail = *r->sq_tail, i = tail & *r->sq_mask;
	struct io_uring_sqe *sqe = &r->sqes[i];

	memset(sqe, 0, sizeof(*sqe));
	sqe->opcode = IORING_OP_MADVISE;
	sqe->addr = (uint64_t)(uintptr_t)addr;
	sqe->len = (uint32_t)len;
	sqe->fadvise_advice = MADV_DONTNEED;
	sqe->user_data = tag;
	r->sq_array[i] = i;
	__atomic_store_n(r->sq_tail, tail + 1, __ATOMIC_RELEASE);
}

int main(void)
{
	long pg = sysconf(_SC_PAGESIZE);
	static char *pages[NSQE], check[32], path[128];
	int res[NSQE] = { 0 }, i, err, got = 0, eperm = 0, zero = 0, other_res = 0;
	long long charged = 0;
	struct ring r = { .fd = -1 };

	t_plan(7);
	if (!ms_loaded()) {
		t_ok(0, "mseal_stats is loaded");
		return 1;
	}
	err = ring_setup(&r);
	if (err && ms_expects("io_uring")) {
		t_ok(0, "io_uring_setup: %s, on a kernel whose config has CONFIG_IO_URING", strerror(-err));
		return 1;
	}
	if (err) {
		for (i = 0; i < 7; i++)
			t_skip("no io_uring here (io_uring_setup: %s)", strerror(-err));
		return 0;
	}
	/* Every mapping first: nothing of ours is counted after the reset. */
	for (i = 0; i < NSQE; i++) {
		pages[i] = mmap(NULL, pg, i < SEALED ? PROT_READ : PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (pages[i] == MAP_FAILED)
			return 1;
		if (i >= SEALED)
			pages[i][0] = 1;
	}
	for (i = 0; i < SEALED; i++) {
		if (syscall(MS_NR_MSEAL, pages[i], pg, 0)) {
			if (errno != ENOSYS) {
				t_ok(0, "mseal of a page: %s (not ENOSYS: the syscall exists)", strerror(errno));
				return 1;
			}
			for (i = 0; i < 7; i++)
				t_skip("no mseal here (%s)", strerror(errno));
			return 0;
		}
	}
	/* The kernel's madvise check (its table or kallsyms, not the module). */
	if (ms_kernel_has("can_modify_vma_madv"))
		strcpy(check, "can_modify_vma_madv");
	else if (ms_kernel_has("can_modify_mm_madv"))
		strcpy(check, "can_modify_mm_madv");
	if (ms_set_tgid(getpid()) || ms_reset()) {
		t_ok(0, "set the tgid filter and reset");
		return 1;
	}

	/* Quiet from here to the snapshot: ring memory only. */
	for (i = 0; i < NSQE; i++)
		queue_madvise(&r, pages[i], pg, i);
	err = (int)syscall(__NR_io_uring_enter, r.fd, NSQE, NSQE, IORING_ENTER_GETEVENTS, NULL, 0);
	while (got < NSQE) {
		unsigned int head = *r.cq_head;

		if (head == __atomic_load_n(r.cq_tail, __ATOMIC_ACQUIRE)) {
			syscall(__NR_io_uring_enter, r.fd, 0, 1, IORING_ENTER_GETEVENTS, NULL, 0);
			continue;
		}
		struct io_uring_cqe *cqe = &r.cqes[head & *r.cq_mask];

		if (cqe->user_data < NSQE)
			res[cqe->user_data] = cqe->res;
		__atomic_store_n(r.cq_head, head + 1, __ATOMIC_RELEASE);
		got++;
	}
	ms_snapshot();
	/* Quiet no more. */

	for (i = 0; i < NSQE; i++) {
		if (i < SEALED && res[i] == -EPERM)
			eperm++;
		else if (i >= SEALED && res[i] == 0)
			zero++;
		else
			other_res++;
	}
	t_ok(err == NSQE, "io_uring_enter submitted %d MADV_DONTNEED (want %d)", err, NSQE);
	t_ok(eperm == SEALED && zero == OPEN && !other_res,
	     "CQEs: %d of %d sealed pages EPERM, %d of %d open ones 0, %d other", eperm, SEALED,
	     zero, OPEN, other_res);
	t_eq(ms_get("syscalls.madvise.count"), 0, "no madvise syscall made");
	if (!check[0]) {
		for (i = 0; i < 4; i++)
			t_skip("no madvise seal check in this kernel");
		ms_set_tgid(0);
		return t_exit();
	}
	snprintf(path, sizeof(path), "worker.%s.count", check);
	t_eq(ms_get("%s", path), NSQE, "one check per SQE, charged to worker");
	snprintf(path, sizeof(path), "worker.%s.refused", check);
	t_eq(ms_get("%s", path), SEALED, "  refused once per sealed page");
	for (i = 0; i < (int)(sizeof(syscalls_list) / sizeof(syscalls_list[0])); i++) {
		long long n = ms_get("syscalls.%s.checks.%s.count", syscalls_list[i], check);

		charged += n > 0 ? n : 0;
	}
	t_eq(charged, 0, "none charged to a syscall (munmap, mmap, or any other)");
	t_eq(ms_get("other.%s.count", check), 0, "none charged to other");
	ms_set_tgid(0);
	return t_exit();
}
