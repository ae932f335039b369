// SPDX-License-Identifier: GPL-2.0
/*
 * ms_uffd_munmap - a munmap that sleeps until it is killed: the case that
 * holds an unload of the direct syscall side (module/direct.c names such
 * tasks while it waits).
 *
 *   ms_uffd_munmap
 *
 * Opens a userfaultfd with UFFD_FEATURE_EVENT_UNMAP, registers a mapping
 * of 4 pages, and unmaps it: munmap queues the unmap event and waits,
 * killable, until a monitor reads it.  Nobody does.  Prints "asleep" on
 * stdout just before the munmap; exits 1 if anything before it fails, 2 if
 * the munmap returns.
 */
#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(void)
{
	struct uffdio_api api = { .api = UFFD_API, .features = UFFD_FEATURE_EVENT_UNMAP };
	struct uffdio_register reg = { .mode = UFFDIO_REGISTER_MODE_MISSING };
	size_t len = 4 * (size_t)sysconf(_SC_PAGESIZE);
	int uffd = syscall(__NR_userfaultfd, O_CLOEXEC);
	char *p;

	if (uffd < 0 || ioctl(uffd, UFFDIO_API, &api)) {
		perror("ms_uffd_munmap: userfaultfd");
		return 1;
	}
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		perror("ms_uffd_munmap: mmap");
		return 1;
	}
	reg.range.start = (unsigned long)p;
	reg.range.len = len;
	if (ioctl(uffd, UFFDIO_REGISTER, &reg)) {
		perror("ms_uffd_munmap: UFFDIO_REGISTER");
		return 1;
	}
	printf("asleep\n");
	fflush(stdout);
	munmap(p, len);
	fprintf(stderr, "ms_uffd_munmap: munmap returned\n");
	return 2;
}
