/* SPDX-License-Identifier: GPL-2.0 */
/*
 * direct_tramp.S - the direct backend's trampolines, one per slot.  Slot
 * N's trampoline saves the argument registers and asks
 * ms_direct_enter(N, &inst), inst on its frame, whether to time the call.
 * If not, it returns into the body (as samples/ftrace/ftrace-direct-too.c).
 * If so, it calls the body, passes the result to ms_direct_exit() and
 * returns to the caller.  While the body runs its return address is here:
 * direct.c keeps the module until every such call is back.  A syscall
 * slot's trampoline (MS_DIRECT_SYS_TRAMP) is the same with one argument
 * register saved and ms_direct_sys_enter()/ms_direct_sys_exit() called:
 * the entry functions take only the pt_regs.  Each slot has a second
 * trampoline, the same after a fast filter test (filter.h) that returns
 * into the body for a task it keeps out, before any call: direct.c
 * switches the checks' and syscalls' slots to those while a filter is
 * set.  Assembler, not inline asm: x86's unwind annotations are
 * assembler macros.
 */
#include <linux/linkage.h>
#include <linux/objtool.h>
#include "compat_direct.h"
#include "direct.h"

#if IS_ENABLED(CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS)

/*
 * No kprobes here: the frame is one no unwinder or fixup expects.  Each
 * aligned: newer ftrace takes bit 0 of a direct address for a flag.
 */
#ifdef CONFIG_KPROBES
#define MS_NOKPROBE(sym)	.pushsection "_kprobe_blacklist", "aw"; .balign 8; .quad sym; .popsection
#else
#define MS_NOKPROBE(sym)
#endif

#ifdef CONFIG_X86_64
#include <asm/ibt.h>
#include <asm/nospec-branch.h>
#include <asm/unwind_hints.h>

/* Call depth tracking: a call without an accounting prologue counts itself. */
#if defined(CONFIG_MITIGATION_CALL_DEPTH_TRACKING) || defined(CONFIG_CALL_DEPTH_TRACKING)
#define MS_CALL_DEPTH_ACCOUNT	CALL_DEPTH_ACCOUNT
#else
#define MS_CALL_DEPTH_ACCOUNT
#endif

/*
 * The fast filter test: the 8 bytes at off in current's task_struct,
 * masked, against val (struct ms_filter_fast, read through
 * ms_filter_fast_cur).  At a function's entry %rax (no target is
 * variadic), %r10 and %r11 hold nothing.  Kept out: into the body
 * untouched.
 */
#ifdef MS_X86_CURRENT_TASK
#define MS_DIRECT_FAST_FILTER
.macro MS_FILTER_FAST_TEST
	movq	ms_filter_fast_cur(%rip), %r11
	movq	(%r11), %r10
	movq	MS_X86_CURRENT_TASK, %rax
	movq	(%rax,%r10), %rax
	xorq	8(%r11), %rax
	andq	16(%r11), %rax
	jz	4f
	MS_CALL_DEPTH_ACCOUNT
	RET
4:
.endm
#endif /* MS_X86_CURRENT_TASK */

/*
 * The frame, below %rbp: the six argument registers (-8 to -48), then
 * struct ms_inst.  8(%rbp) is the body, 16(%rbp) the caller's return
 * address: a stack trace unwinds through body, function, caller.
 *
 * The body is entered by a call to a label that pushes its address and
 * returns to it (as return_to_handler): under IBT the body has no ENDBR
 * for an indirect call.  The second MS_CALL_DEPTH_ACCOUNT counts that
 * extra return.  The unwind hints: after the body, the state at the call
 * (SAVE, RESTORE); the two RETs off by one word are a function's return.
 */
#define MS_FRAME	(48 + MS_DIRECT_INST_SIZE)


.macro MS_DIRECT_TRAMP slot, name, fast
	MS_NOKPROBE(\name\()_\slot)
	.globl	\name\()_\slot
	.type	\name\()_\slot, @function
	.p2align 4
\name\()_\slot:
	ENDBR
	.if	\fast
	MS_FILTER_FAST_TEST
	.endif
	pushq	%rbp
	movq	%rsp, %rbp
	MS_CALL_DEPTH_ACCOUNT
	subq	$MS_FRAME, %rsp
	movq	%rdi, -8(%rbp)
	movq	%rsi, -16(%rbp)
	movq	%rdx, -24(%rbp)
	movq	%rcx, -32(%rbp)
	movq	%r8, -40(%rbp)
	movq	%r9, -48(%rbp)
	movl	$\slot, %edi
	leaq	-MS_FRAME(%rbp), %rsi
	call	ms_direct_enter
	movq	-8(%rbp), %rdi
	movq	-16(%rbp), %rsi
	movq	-24(%rbp), %rdx
	movq	-32(%rbp), %rcx
	movq	-40(%rbp), %r8
	movq	-48(%rbp), %r9
	testl	%eax, %eax
	jz	2f
	MS_CALL_DEPTH_ACCOUNT
	UNWIND_HINT_SAVE
	ANNOTATE_INTRA_FUNCTION_CALL
	call	3f
	/* The body returned here, its value in %rax (and %rdx). */
	UNWIND_HINT_RESTORE
	movq	%rax, -8(%rbp)
	movq	%rdx, -16(%rbp)
	movq	%rax, %rsi
	leaq	-MS_FRAME(%rbp), %rdi
	call	ms_direct_exit
	movq	-8(%rbp), %rax
	movq	-16(%rbp), %rdx
	leave
	/* Past the body's address: return to the function's caller. */
	addq	$8, %rsp
	UNWIND_HINT_FUNC
	RET
2:	/* Untimed: into the body, as if nothing had happened. */
	leave
	RET
3:	/* [%rsp] is the label above: the body returns there. */
	pushq	8(%rbp)
	UNWIND_HINT_FUNC
	RET
	.size	\name\()_\slot, . - \name\()_\slot
.endm

/*
 * A syscall slot: MS_DIRECT_TRAMP with one argument register, %rdi at -8,
 * then struct ms_inst; the same unwind hints, calls and returns.
 */
#define MS_SYS_FRAME	(8 + MS_DIRECT_INST_SIZE)

.macro MS_DIRECT_SYS_TRAMP slot, name, fast
	MS_NOKPROBE(\name\()_\slot)
	.globl	\name\()_\slot
	.type	\name\()_\slot, @function
	.p2align 4
\name\()_\slot:
	ENDBR
	.if	\fast
	MS_FILTER_FAST_TEST
	.endif
	pushq	%rbp
	movq	%rsp, %rbp
	MS_CALL_DEPTH_ACCOUNT
	subq	$MS_SYS_FRAME, %rsp
	movq	%rdi, -8(%rbp)
	movl	$\slot, %edi
	leaq	-MS_SYS_FRAME(%rbp), %rsi
	call	ms_direct_sys_enter
	movq	-8(%rbp), %rdi
	testl	%eax, %eax
	jz	2f
	MS_CALL_DEPTH_ACCOUNT
	UNWIND_HINT_SAVE
	ANNOTATE_INTRA_FUNCTION_CALL
	call	3f
	UNWIND_HINT_RESTORE
	movq	%rax, -8(%rbp)
	movq	%rax, %rsi
	leaq	-MS_SYS_FRAME(%rbp), %rdi
	call	ms_direct_sys_exit
	movq	-8(%rbp), %rax
	leave
	addq	$8, %rsp
	UNWIND_HINT_FUNC
	RET
2:	leave
	RET
3:	pushq	8(%rbp)
	UNWIND_HINT_FUNC
	RET
	.size	\name\()_\slot, . - \name\()_\slot
.endm

#define MS_PTR	.quad

#endif /* CONFIG_X86_64 */

#ifdef CONFIG_ARM64
/*
 * The fast filter test (as x86's): current is sp_el0; x10-x14 are free
 * at a function's entry.  Kept out: into the body (x30) with the
 * caller's return address back in x30, the return stack as the patch
 * site's bl left it.
 */
#define MS_DIRECT_FAST_FILTER
.macro MS_FILTER_FAST_TEST
	adrp	x10, ms_filter_fast_cur
	ldr	x10, [x10, :lo12:ms_filter_fast_cur]
	ldp	x11, x12, [x10]
	ldr	x13, [x10, #16]
	mrs	x14, sp_el0
	ldr	x11, [x14, x11]
	eor	x11, x11, x12
	tst	x11, x13
	b.eq	4f
	mov	x10, x30
	mov	x30, x9
	ret	x10
4:
.endm

/*
 * Entered from "mov x9, x30; bl" (or ftrace_caller's "br x17": bti c):
 * x30 is the body, x9 the caller's return address, x0-x7 the arguments.
 * Two frame records, caller (x29, x9) and function (x29, x30), as BPF's
 * trampoline builds; below them x0-x8 (x8: indirect result) and struct
 * ms_inst.  The body signs its own return address: pointer
 * authentication needs nothing here.
 */
#define MS_FRAME	(80 + MS_DIRECT_INST_SIZE)

/*
 * Into the body and back to the caller, the return stack balanced: the
 * caller's bl pushed its return, the patch site's bl the body's address.
 * Without BTI: ret into the body (the top entry: predicted), its return
 * to 1: takes the caller's entry (the one misprediction), and br, which
 * pops nothing, goes to the caller.  Under BTI a br there finds no landing
 * pad: bl to a ret into the body (mispredicted), its return takes the
 * patch site's entry (mispredicted), and ret takes the caller's: two, as
 * on x86.  BPF's trampoline enters with ret and leaves with ret: one
 * entry short, every return up to the syscall's exit mispredicted.
 */
#ifdef CONFIG_ARM64_BTI_KERNEL
.macro MS_CALL_BODY
	bl	3f
1:
.endm
.macro MS_RETURN_TO_CALLER
	ret	x9
.endm
.macro MS_BODY_STUB
3:	ret	x10
.endm
#else /* !CONFIG_ARM64_BTI_KERNEL */
.macro MS_CALL_BODY
	adr	x30, 1f
	ret	x10
1:
.endm
.macro MS_RETURN_TO_CALLER
	mov	x30, x9
	br	x9
.endm
.macro MS_BODY_STUB
.endm
#endif /* CONFIG_ARM64_BTI_KERNEL */


.macro MS_DIRECT_TRAMP slot, name, fast
	MS_NOKPROBE(\name\()_\slot)
	.globl	\name\()_\slot
	.type	\name\()_\slot, %function
	.p2align 2
\name\()_\slot:
	hint	34			/* bti c */
	.if	\fast
	MS_FILTER_FAST_TEST
	.endif
	stp	x29, x9, [sp, #-16]!
	mov	x29, sp
	stp	x29, x30, [sp, #-16]!
	mov	x29, sp
	sub	sp, sp, #MS_FRAME
	stp	x0, x1, [sp]
	stp	x2, x3, [sp, #16]
	stp	x4, x5, [sp, #32]
	stp	x6, x7, [sp, #48]
	str	x8, [sp, #64]
	mov	w0, #\slot
	add	x1, sp, #80
	bl	ms_direct_enter
	cbz	w0, 2f
	ldp	x0, x1, [sp]
	ldp	x2, x3, [sp, #16]
	ldp	x4, x5, [sp, #32]
	ldp	x6, x7, [sp, #48]
	ldr	x8, [sp, #64]
	ldr	x10, [x29, #8]		/* the body */
	MS_CALL_BODY
	/* The body returned here, its value in x0 (and x1). */
	stp	x0, x1, [sp]
	mov	x1, x0
	add	x0, sp, #80
	bl	ms_direct_exit
	ldp	x0, x1, [sp]
	add	sp, sp, #MS_FRAME
	ldp	x29, x30, [sp], #16	/* x30: the body, done with */
	ldp	x29, x9, [sp], #16	/* x9: the caller's return address */
	MS_RETURN_TO_CALLER
2:	/* Untimed: into the body with the caller's return address in x30. */
	ldp	x0, x1, [sp]
	ldp	x2, x3, [sp, #16]
	ldp	x4, x5, [sp, #32]
	ldp	x6, x7, [sp, #48]
	ldr	x8, [sp, #64]
	add	sp, sp, #MS_FRAME
	ldp	x29, x10, [sp], #16	/* x10: the body */
	ldp	x29, x30, [sp], #16
	ret	x10
	MS_BODY_STUB
	.size	\name\()_\slot, . - \name\()_\slot
.endm

/*
 * A syscall slot: MS_DIRECT_TRAMP with one argument register, x0 at
 * [sp], struct ms_inst at [sp, #16]; the same frame records and branches.
 */
#define MS_SYS_FRAME	(16 + MS_DIRECT_INST_SIZE)

.macro MS_DIRECT_SYS_TRAMP slot, name, fast
	MS_NOKPROBE(\name\()_\slot)
	.globl	\name\()_\slot
	.type	\name\()_\slot, %function
	.p2align 2
\name\()_\slot:
	hint	34			/* bti c */
	.if	\fast
	MS_FILTER_FAST_TEST
	.endif
	stp	x29, x9, [sp, #-16]!
	mov	x29, sp
	stp	x29, x30, [sp, #-16]!
	mov	x29, sp
	sub	sp, sp, #MS_SYS_FRAME
	str	x0, [sp]
	mov	w0, #\slot
	add	x1, sp, #16
	bl	ms_direct_sys_enter
	cbz	w0, 2f
	ldr	x0, [sp]
	ldr	x10, [x29, #8]		/* the body */
	MS_CALL_BODY
	str	x0, [sp]
	mov	x1, x0
	add	x0, sp, #16
	bl	ms_direct_sys_exit
	ldr	x0, [sp]
	add	sp, sp, #MS_SYS_FRAME
	ldp	x29, x30, [sp], #16
	ldp	x29, x9, [sp], #16
	MS_RETURN_TO_CALLER
2:	ldr	x0, [sp]
	add	sp, sp, #MS_SYS_FRAME
	ldp	x29, x10, [sp], #16	/* x10: the body */
	ldp	x29, x30, [sp], #16
	ret	x10
	MS_BODY_STUB
	.size	\name\()_\slot, . - \name\()_\slot
.endm

#define MS_PTR	.quad

#endif /* CONFIG_ARM64 */

	.text
	.irp	slot, MS_DIRECT_SYS_SLOT_LIST
	MS_DIRECT_SYS_TRAMP \slot, ms_direct_tramp, 0
#ifdef MS_DIRECT_FAST_FILTER
	MS_DIRECT_SYS_TRAMP \slot, ms_direct_ftramp, 1
#endif
	.endr
	.irp	slot, MS_DIRECT_SLOT_LIST
	MS_DIRECT_TRAMP \slot, ms_direct_tramp, 0
#ifdef MS_DIRECT_FAST_FILTER
	MS_DIRECT_TRAMP \slot, ms_direct_ftramp, 1
#endif
	.endr
.Lms_direct_tramps_end:

	.pushsection .rodata, "a"
	.p2align 3
	.globl	ms_direct_tramps
ms_direct_tramps:
	.irp	slot, MS_DIRECT_SYS_SLOT_LIST
	MS_PTR	ms_direct_tramp_\slot
	.endr
	.if	(. - ms_direct_tramps) != 8 * MS_DIRECT_NSYS
	.error	"MS_DIRECT_SYS_SLOT_LIST does not have MS_DIRECT_NSYS slots"
	.endif
	.irp	slot, MS_DIRECT_SLOT_LIST
	MS_PTR	ms_direct_tramp_\slot
	.endr
	.if	(. - ms_direct_tramps) != 8 * MS_DIRECT_NSLOTS
	.error	"the slot lists do not have MS_DIRECT_NSLOTS slots"
	.endif
	.size	ms_direct_tramps, . - ms_direct_tramps
	.globl	ms_direct_ftramps
ms_direct_ftramps:
	.irp	slot, MS_DIRECT_SYS_SLOT_LIST, MS_DIRECT_SLOT_LIST
#ifdef MS_DIRECT_FAST_FILTER
	MS_PTR	ms_direct_ftramp_\slot
#else
	MS_PTR	ms_direct_tramp_\slot
#endif
	.endr
	.if	(. - ms_direct_ftramps) != 8 * MS_DIRECT_NSLOTS
	.error	"the slot lists do not have MS_DIRECT_NSLOTS slots"
	.endif
	.size	ms_direct_ftramps, . - ms_direct_ftramps
	/*
	 * The size of the trampolines' code, from slot 0's on: a constant,
	 * where a pointer to its end would point at no ENDBR.
	 */
	.globl	ms_direct_tramps_size
ms_direct_tramps_size:
	.quad	.Lms_direct_tramps_end - ms_direct_tramp_0
	.size	ms_direct_tramps_size, . - ms_direct_tramps_size
	.popsection

#endif /* IS_ENABLED(CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS) */
