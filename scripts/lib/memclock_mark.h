/* SPDX-License-Identifier: GPL-2.0 */
/*
 * memclock_mark.h - the marks a guest program leaves for the test bed's
 * memory clock (testbed/memclock: a QEMU TCG plugin that models caches).
 *
 * A mark is a no-op instruction with a number in it that compilers never
 * emit: on x86_64 `nopl 0x6d63000K(%rax)` (0f 1f 80 0K 00 63 6d), on arm64
 * `movz xzr, #0x6d0K` (a write to the zero register).  On a CPU, and in
 * QEMU without the plugin, it does nothing.  The plugin sees it when it
 * translates the code, so the rest of the guest runs uninstrumented until
 * a program asks:
 *   MC_MARK_ON     model from here (the plugin instruments every
 *                  instruction and access from its next translation);
 *   MC_MARK_BEGIN  count from here: the caches are warm by now;
 *   MC_MARK_END    print what was counted since MC_MARK_BEGIN (the
 *                  model stays on to the boot's end: plugin.c says why).
 * Everything the vCPU runs between BEGIN and END is counted, the kernel
 * and other tasks too, as the instruction clock counts it.
 */
#ifndef MEMCLOCK_MARK_H
#define MEMCLOCK_MARK_H

#define MC_MARK_ON	1
#define MC_MARK_BEGIN	2
#define MC_MARK_END	3

/* The marks' encodings, for the plugin. */
#define MC_MARK_X86_PREFIX	0x0f, 0x1f, 0x80	/* nopl disp32(%rax) */
#define MC_MARK_X86_SUFFIX	0x00, 0x63, 0x6d	/* disp32's upper bytes */
#define MC_MARK_ARM64(k)	(0xd2800000u | ((0x6d00u | (k)) << 5) | 31u)

#if defined(__x86_64__)
#define MC_MARK_INSN(k) ".byte 0x0f, 0x1f, 0x80, " #k ", 0x00, 0x63, 0x6d"
#elif defined(__aarch64__)
/* MC_MARK_ARM64(1), (2), (3) */
#define MC_MARK_INSN_1 ".inst 0xd28da03f"
#define MC_MARK_INSN_2 ".inst 0xd28da05f"
#define MC_MARK_INSN_3 ".inst 0xd28da07f"
#define MC_MARK_INSN(k) MC_MARK_INSN_##k
#endif

#ifdef MC_MARK_INSN
#define mc_mark(k) __asm__ volatile(MC_MARK_INSN(k) ::: "memory")
#else
#define mc_mark(k) do { } while (0)
#endif

#endif /* MEMCLOCK_MARK_H */
