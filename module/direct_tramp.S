/* SPDX-License-Identifier: GPL-2.0 */
/*
 * direct_tramp.S - the direct backend's trampolines, one per slot
 * (direct.h), for x86_64 and arm64.
 *
 * ftrace patches a traced function's entry (its fentry call on x86, the
 * "mov x9, x30; bl" pair on arm64) to call slot N's trampoline, which
 *
 *   1. saves the argument registers and asks ms_direct_enter(N, &inst)
 *      whether to time this call (the filter; the entry time and the cell
 *      go into inst, on this trampoline's stack frame: nothing to allocate,
 *      nothing to run out of);
 *   2. if not: restores them and returns into the function's body, like
 *      the kernel's entry-only sample (samples/ftrace/ftrace-direct-too.c);
 *   3. if so: calls the body itself with the arguments restored, so the
 *      body returns to the trampoline (the BPF trampoline's
 *      BPF_TRAMP_F_CALL_ORIG), hands the return value to
 *      ms_direct_exit(&inst, ret) and returns to the function's caller with
 *      that value: no int3, no register dump, no return-address hijack.
 *
 * While the body runs, a task has its return address in this code: the
 * module must not go until every such call is back.  direct.c counts them.
 *
 * Written as assembler, not C inline asm: the objtool and unwinder
 * annotations x86 needs (UNWIND_HINT_FUNC, ANNOTATE_INTRA_FUNCTION_CALL)
 * are assembler macros in every kernel from 6.1 to 7.x.
 */
#include <linux/linkage.h>
#include <linux/objtool.h>
#include "direct.h"

#if IS_ENABLED(CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS)

/*
 * Not for kprobes: a kprobe single-stepping the body's call sequence would
 * run on a frame no unwinder or fixup expects (the kernel keeps its own
 * trampolines out the same way).  Aligned, each (.p2align below): ftrace
 * takes bit 0 of a direct address for a mode flag on newer kernels (7.x).
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

/*
 * Call depth tracking (RSB stuffing, Linux 6.2 on) counts calls in the
 * callee and returns in the return thunk; a call that does not go through
 * a function's accounting prologue must count itself, as the kernel's
 * samples do.
 */
#if defined(CONFIG_MITIGATION_CALL_DEPTH_TRACKING) || defined(CONFIG_CALL_DEPTH_TRACKING)
#define MS_CALL_DEPTH_ACCOUNT	CALL_DEPTH_ACCOUNT
#else
#define MS_CALL_DEPTH_ACCOUNT
#endif

/*
 * The frame, below %rbp: the six argument registers (-8 to -48), then
 * struct ms_inst (-64).  Above it the fentry call's return address (the
 * function's body, 8(%rbp)) and the function's own return address into
 * its caller (16(%rbp)).  A stack trace from inside the body unwinds
 * through this frame to the body's address, which ORC knows as the
 * function's entry state, and on to the caller.
 *
 * The body is called with the kernel's retpoline-style sequence (as in
 * return_to_handler): a call to a local label that pushes the body's
 * address and returns to it.  An indirect call would need an ENDBR at the
 * target under IBT, which the body, past the fentry site, does not have;
 * BPF's trampoline makes a direct call, which a trampoline shared by any
 * function cannot (its target is known only at attach).  The price, on
 * hardware: the RET into the body and the body's own RET are mispredicted
 * (the return stack holds the label, then the fentry call's return), two
 * mispredictions a timed call, 15 to 20 cycles each on current cores
 * (Agner Fog's microarchitecture manual); BPF's trampoline has one, its
 * last RET past the fentry return.  The return stack is balanced after the
 * body's RET: the trampoline's last RET is predicted.
 * Every RET goes through the return thunk; the one extra return (into the
 * body) is counted by the second MS_CALL_DEPTH_ACCOUNT.  The unwind hints
 * say what objtool cannot see: the state after the body returns is the one
 * at the call (SAVE, RESTORE), and the two RETs that leave with one word
 * less or more on the stack than at entry are a function's return.
 */
#define MS_FRAME	(48 + MS_DIRECT_INST_SIZE)


.macro MS_DIRECT_TRAMP slot
	MS_NOKPROBE(ms_direct_tramp_\slot)
	.globl	ms_direct_tramp_\slot
	.type	ms_direct_tramp_\slot, @function
	.p2align 4
ms_direct_tramp_\slot:
	ENDBR
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
	/*
	 * The body returned here, its value in %rax (and %rdx).  objtool
	 * takes an intra-function call for a jump that never comes back:
	 * RESTORE tells it this is reached, in the state SAVE recorded at
	 * the call.
	 */
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
	.size	ms_direct_tramp_\slot, . - ms_direct_tramp_\slot
.endm

#define MS_PTR	.quad

#endif /* CONFIG_X86_64 */

#ifdef CONFIG_ARM64
/*
 * Entered from the function's "mov x9, x30; bl" (or, when this module is
 * out of bl range, from ftrace_caller's "br x17", which lands on bti c):
 * x30 is the function's body, x9 the function's return address into its
 * caller, x0-x7 its arguments.  The trampoline builds two frame records,
 * as the BPF trampoline does: one for the caller (x29, x9) and one for the
 * traced function (x29, x30), so a stack trace from inside the body reads
 * body, function, caller.  Below them: x0-x7 and x8 (the indirect result
 * register, kept as ftrace_caller keeps it; 80 bytes) and struct ms_inst.
 *
 * The body is entered as BPF's trampoline enters it, with blr: the body's
 * return is predicted (the return stack holds our label), and only the
 * trampoline's last return, past the patch site's bl, is not.  Where the
 * kernel enforces BTI (ARM64_BTI_KERNEL) the body, past the patch site,
 * is no landing pad for blr: there it is entered with ret and x30 set to
 * the label (no landing pad needed; the ret is predicted, from the patch
 * site's bl, the body's return is not).  Pointer authentication needs
 * nothing: the body signs and checks its own return address (our label)
 * against its own stack pointer; the addresses the frame records hold are
 * raw, as they are at the patch site.  Like the kernel's samples, the
 * trampoline returns with "ret x9".
 */
#define MS_FRAME	(80 + MS_DIRECT_INST_SIZE)


.macro MS_DIRECT_TRAMP slot
	MS_NOKPROBE(ms_direct_tramp_\slot)
	.globl	ms_direct_tramp_\slot
	.type	ms_direct_tramp_\slot, %function
	.p2align 2
ms_direct_tramp_\slot:
	hint	34			/* bti c */
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
#ifdef CONFIG_ARM64_BTI_KERNEL
	adr	x30, 1f
	ret	x10
#else /* !CONFIG_ARM64_BTI_KERNEL */
	blr	x10
#endif /* CONFIG_ARM64_BTI_KERNEL */
1:	/* The body returned here, its value in x0 (and x1). */
	stp	x0, x1, [sp]
	mov	x1, x0
	add	x0, sp, #80
	bl	ms_direct_exit
	ldp	x0, x1, [sp]
	add	sp, sp, #MS_FRAME
	ldp	x29, x30, [sp], #16	/* x30: the body, done with */
	ldp	x29, x9, [sp], #16	/* x9: the caller's return address */
	ret	x9
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
	.size	ms_direct_tramp_\slot, . - ms_direct_tramp_\slot
.endm

#define MS_PTR	.quad

#endif /* CONFIG_ARM64 */

	.text
	.irp	slot, MS_DIRECT_SLOT_LIST
	MS_DIRECT_TRAMP \slot
	.endr

	.pushsection .rodata, "a"
	.p2align 3
	.globl	ms_direct_tramps
ms_direct_tramps:
	.irp	slot, MS_DIRECT_SLOT_LIST
	MS_PTR	ms_direct_tramp_\slot
	.endr
	.if	(. - ms_direct_tramps) != 8 * MS_DIRECT_NSLOTS
	.error	"MS_DIRECT_SLOT_LIST does not have MS_DIRECT_NSLOTS slots"
	.endif
	.size	ms_direct_tramps, . - ms_direct_tramps
	.popsection

#endif /* IS_ENABLED(CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS) */
