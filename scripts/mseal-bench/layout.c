// SPDX-License-Identifier: GPL-2.0
/*
 * mseal-bench --layout N: run in the N-th of a seeded family of user
 * address-space layouts, the same on every kernel and every boot.
 *
 * Why: with ASLR on, every process gets its own layout, and the layout
 * alone moves mmap1 by tens of percent on one kernel (docs/comparison.md,
 * "Layouts").  Two kernels compared over unrelated layouts need hundreds of
 * them for a narrow interval; compared over the same layouts, what a layout
 * does to both cancels.  ASLR cannot be made to repeat across kernels (its
 * random numbers come from the kernel's CRNG), so this draws the one part
 * of it that places the mmap area, the way the kernel would, and turns the
 * kernel's own randomisation off:
 *
 *   mmap_base = PAGE_ALIGN(TASK_SIZE - gap - rnd)    (mm/util.c, arch/x86/mm/mmap.c)
 *   gap = RLIMIT_STACK + stack_maxrandom_size + stack_guard_gap, at least 128 MiB
 *   rnd = (random & ((1 << mmap_rnd_bits) - 1)) pages
 *
 * Under ASLR stack_maxrandom_size is 16 GiB - 4 KiB (x86_64) or 1 GiB -
 * 4 KiB (arm64, 4 KiB pages) and rnd is uniform over 2^mmap_rnd_bits
 * pages.  Without PF_RANDOMIZE both are 0, so an RLIMIT_STACK of
 * 8 MiB + stack_maxrandom_size + rnd puts mmap_base exactly where ASLR
 * would have put it with that rnd; rnd is drawn from N (layout_draw.c:
 * spread evenly over what moves the figures).  The process then
 * re-executes itself with personality(ADDR_NO_RANDOMIZE) and that limit, so
 * the kernel lays it out afresh (the layout is fixed at exec).  Everything
 * in the mmap area (the vDSO, every mapping the workloads make) moves with
 * mmap_base, as under ASLR.
 *
 * The brk heap: under ASLR (randomize_va_space 2) load_elf_binary puts it
 * a page and more above the program (arch_randomize_brk: randomize_page(
 * brk + PAGE_SIZE, 1 GiB), on x86_64 and in the generic mm/util.c arm64
 * takes alike), so a hole lies between the program's last page and the
 * heap; without randomisation the heap starts at the program's last page,
 * and the VMA tree holds one entry less.  That entry, not the heap's
 * address, is what moved pagemove by 26 % and every mmap by 445
 * instructions (docs/comparison.md, "Layouts").  The heap cannot be drawn
 * afresh after exec: a static glibc puts its TLS block and its first
 * malloc arena on it before main, and prctl(PR_SET_MM_BRK) would only move
 * where it grows next (a VMA more).  So the program ends in a page of its
 * own, .brk_gap, linked 256 MiB above the rest (the Makefile's
 * --section-start): the kernel starts the heap after that page, and
 * bench_layout_gap() unmaps it before main, in every run, with --layout or
 * not.  Every process then has ASLR's shape: the program, a hole, the
 * heap, in every layout; what ASLR draws and this does not is the hole's
 * size (here 256 MiB and a little, under ASLR that plus up to 1 GiB).
 *
 * Not drawn: the stack's own randomisation (here the stack stays at the
 * top, at least 16 GiB above the mmap area, as under ASLR but for a
 * 1-in-1000 chance that the two share a 1 GiB region).  Its place moves
 * no figure: in ASLR's layouts with the stack drawn and the heap not
 * (randomize_va_space 1), mmap1's munmap sits on the seeded layouts' fit
 * to 8 instructions of about 10 000, standard error 17
 * (docs/results/layouts).  Nor the load base: mseal-bench is a static,
 * non-PIE program, which ASLR does not move either.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/personality.h>
#include <sys/resource.h>
#include <unistd.h>

#include "bench.h"

#define LAYOUT_ENV "MSEAL_BENCH_LAYOUT_APPLIED"

#if defined(__x86_64__)
#define STACK_RND_PAGES 0x3fffffULL	/* __STACK_RND_MASK(0) */
#define RND_BITS_DEFAULT 28		/* CONFIG_ARCH_MMAP_RND_BITS_MIN */
#elif defined(__aarch64__)
#define STACK_RND_PAGES (0x3ffffULL >> (PAGE_SHIFT_OF(sysconf(_SC_PAGESIZE)) - 12))	/* STACK_RND_MASK */
#define RND_BITS_DEFAULT (30 - PAGE_SHIFT_OF(sysconf(_SC_PAGESIZE)))	/* ARCH_MMAP_RND_BITS_MIN: 18, 16, 14 */
#else
#define STACK_RND_PAGES 0ULL		/* unknown here: bench_layout_apply refuses */
#define RND_BITS_DEFAULT 0
#endif /* __x86_64__ / __aarch64__ */

#define PAGE_SHIFT_OF(size) (__builtin_ctzl((unsigned long)(size)))

/* Debian's and the kernel's default RLIMIT_STACK. */
#define STACK_RLIMIT_DEFAULT (8ULL << 20)

/*
 * The program's last page (64 KiB: a page on every arm64 page size),
 * NOBITS, so it costs the file nothing.  Linked apart (--section-start),
 * it is the highest thing the ELF maps and the heap starts right above it.
 */
#define BRK_GAP_SIZE 65536
__asm__(".pushsection .brk_gap,\"aw\",@nobits\n"
	".balign 65536\n"
	".globl bench_brk_gap\n"
	"bench_brk_gap: .zero 65536\n"
	".popsection\n");
extern char bench_brk_gap[], _end[];

/*
 * Before main: the hole below the heap, where .brk_gap is the program's
 * last page (linked apart above _end, or, aligned as it is, last after
 * .bss).  Elsewhere it lies inside .bss and stays.
 */
__attribute__((constructor)) static void bench_layout_gap(void)
{
	if ((unsigned long)bench_brk_gap + BRK_GAP_SIZE >= (unsigned long)_end)
		munmap(bench_brk_gap, BRK_GAP_SIZE);
}

/* The kernel's mmap_rnd_bits (root may read it), else the default. */
static unsigned int rnd_bits(void)
{
	FILE *f = fopen("/proc/sys/vm/mmap_rnd_bits", "r");
	unsigned int bits = RND_BITS_DEFAULT;

	if (f) {
		if (fscanf(f, "%u", &bits) != 1 || bits < 8 || bits > 40)
			bits = RND_BITS_DEFAULT;
		fclose(f);
	}
	return bits;
}

/*
 * Which layout this process runs in: the marker the re-exec left, and only
 * if the kernel did lay it out without randomisation (a marker inherited
 * by some other process means nothing).
 */
int bench_layout_applied(unsigned long long *n, unsigned long long *rnd_pages)
{
	const char *s = getenv(LAYOUT_ENV);
	unsigned long long stack;
	int pers = personality(0xffffffff);

	if (!s || pers == -1 || !(pers & ADDR_NO_RANDOMIZE) ||
	    sscanf(s, "%llu:%llu:%llu", n, rnd_pages, &stack) != 3) {
		*n = *rnd_pages = 0;
		return 0;
	}
	return 1;
}

/*
 * After the re-exec: the stack limit back to what it was.  The mmap area
 * was placed at exec and stays; a 16 GiB limit would otherwise size every
 * thread's default stack (glibc takes it from RLIMIT_STACK) and --threads
 * would fail.
 */
static void restore_stack_limit(void)
{
	const char *s = getenv(LAYOUT_ENV);
	unsigned long long n, rnd, stack;
	struct rlimit rl;

	if (!s || sscanf(s, "%llu:%llu:%llu", &n, &rnd, &stack) != 3 || getrlimit(RLIMIT_STACK, &rl))
		return;
	rl.rlim_cur = stack;
	setrlimit(RLIMIT_STACK, &rl);
}

int bench_layout_apply(unsigned long long n, char **argv)
{
	unsigned long long applied, rnd, page = (unsigned long long)sysconf(_SC_PAGESIZE);
	unsigned int bits = rnd_bits();
	char val[96], exe[4096];
	struct rlimit rl;
	ssize_t len;

	/* After the exec: the layout is in place; only the stack limit to restore. */
	if (bench_layout_applied(&applied, &rnd) && applied == n) {
		restore_stack_limit();
		return 0;
	}
	if (!bits) {
		errno = ENOSYS;	/* not an architecture whose ASLR formula is known here */
		return -1;
	}
	rnd = bench_layout_rnd_pages(n, bits, PAGE_SHIFT_OF(page));
	if (getrlimit(RLIMIT_STACK, &rl))
		return -1;
	snprintf(val, sizeof(val), "%llu:%llu:%llu", n, rnd, (unsigned long long)rl.rlim_cur);
	rl.rlim_cur = STACK_RLIMIT_DEFAULT + (STACK_RND_PAGES + rnd) * page;
	if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < rl.rlim_cur) {
		errno = EPERM;	/* a hard limit below it: the layout cannot be made */
		return -1;
	}
	if (setrlimit(RLIMIT_STACK, &rl))
		return -1;
	if (personality(PER_LINUX | ADDR_NO_RANDOMIZE) == -1)
		return -1;
	if (setenv(LAYOUT_ENV, val, 1))
		return -1;
	/*
	 * The binary's own path (what /proc/self/exe links to), not the
	 * link: the task's comm is the last part of the path exec'd, and the
	 * module's comm= filter and record look for mseal-bench.
	 */
	len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (len <= 0)
		return -1;
	exe[len] = '\0';
	execv(exe, argv);
	return -1;
}
