/* SPDX-License-Identifier: GPL-2.0 */
/*
 * env.h - what the statistics, histogram and report code needs from its
 * environment, so that those files compile both into the module and into
 * the userspace unit tests (tests/unit/).  Kernel-version differences do not
 * belong here: they live in mseal_stats_compat.h.
 */
#ifndef MSEAL_STATS_ENV_H
#define MSEAL_STATS_ENV_H

#ifdef __KERNEL__
#include <linux/types.h>
#include <linux/bitops.h>
#include <linux/kernel.h>
#include <linux/limits.h>
#include <linux/math64.h>
#include <linux/string.h>
#include <linux/atomic.h>
#include <linux/bug.h>
#include <asm/barrier.h>
#else /* !__KERNEL__ */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef unsigned long long u64;
typedef unsigned int u32;
typedef unsigned char u8;

#define U64_MAX		(~0ULL)
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define __printf(a, b)	__attribute__((format(printf, a, b)))

#define notrace
#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)
/* A kernel warning is a unit test's failure. */
#define WARN_ON_ONCE(c)	({ if (c) abort(); false; })

/* The kernel's primitives the lock-free code uses, for one thread or many. */
#define READ_ONCE(x)		__atomic_load_n(&(x), __ATOMIC_RELAXED)
#define WRITE_ONCE(x, v)	__atomic_store_n(&(x), (v), __ATOMIC_RELAXED)
#define smp_store_release(p, v)	__atomic_store_n((p), (v), __ATOMIC_RELEASE)
#define cmpxchg(p, old, new)	__sync_val_compare_and_swap((p), (old), (new))
/* The kernel's: true if *P was *OLDP and is now NEW; else *OLDP := *P. */
#define try_cmpxchg(p, oldp, new)					\
	__atomic_compare_exchange_n((p), (oldp), (new), false,		\
				    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)

/* linux/atomic.h's long counter, for the in-flight table's window count. */
typedef struct {
	long counter;
} atomic_long_t;
#define atomic_long_set(v, i)	__atomic_store_n(&(v)->counter, (i), __ATOMIC_RELAXED)
#define atomic_long_read(v)	__atomic_load_n(&(v)->counter, __ATOMIC_RELAXED)
#define atomic_long_inc(v)	((void)__atomic_fetch_add(&(v)->counter, 1, __ATOMIC_SEQ_CST))
#define atomic_long_dec(v)	((void)__atomic_fetch_sub(&(v)->counter, 1, __ATOMIC_SEQ_CST))

static inline int fls64(u64 x)
{
	return x ? 64 - __builtin_clzll(x) : 0;
}

/* linux/compiler_types.h (glibc's sys/cdefs.h has it too, not by promise). */
#ifndef __always_inline
#define __always_inline inline __attribute__((__always_inline__))
#endif
#ifndef __aligned
#define __aligned(x)	__attribute__((__aligned__(x)))
#endif

/* linux/compiler.h: the compiler forgets what it knew of VAR. */
#define OPTIMIZER_HIDE_VAR(var)	__asm__ ("" : "=r" (var) : "0" (var))

/* The last set bit of X, which must not be 0 (linux/bitops.h). */
static inline unsigned long __fls(unsigned long x)
{
	return 63 - __builtin_clzll(x);
}

/* linux/math64.h: a 64-bit division is a call on 32-bit kernels. */
static inline u64 div64_u64(u64 a, u64 b)
{
	return a / b;
}

static inline u64 div_u64_rem(u64 a, u32 b, u32 *rem)
{
	*rem = (u32)(a % b);
	return a / b;
}

/*
 * x86's divq traps (an oops in the module) on a zero divisor and on a
 * quotient past 64 bits: abort() on both, so such a call site fails the
 * unit tests instead of being truncated here.
 */
static inline u64 mul_u64_u64_div_u64(u64 a, u64 mul, u64 div)
{
	unsigned __int128 q;

	if (!div)
		abort();
	q = (unsigned __int128)a * mul / div;
	if (q > U64_MAX)
		abort();
	return (u64)q;
}
#endif /* !__KERNEL__ */

#endif /* MSEAL_STATS_ENV_H */
