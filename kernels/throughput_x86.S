/* SPDX-License-Identifier: GPL-2.0 */
/*
 * throughput_x86.S - the load loops of the throughput kernel (throughput.c),
 * in assembly so that no compiler decides what is loaded, how often, or
 * with which instructions: every byte of the buffer is loaded once per
 * pass, each load into a register of its own within an iteration, so no
 * load waits for another.
 *
 *	void tp_MIX_WIDTH(const void *buf, size_t bytes, uint64_t passes);
 *
 * MIX is load (loads only), fadd (the loads are the memory operands of
 * FP adds, each into its own accumulator register, as x86-membench
 * measures an instruction reading its operand from memory) or nop (each
 * load followed by a one-byte NOP, which costs front-end and retire
 * slots but no execution unit). WIDTH is sse (128-bit movapd/addpd),
 * avx (256-bit VEX: AVX suffices, no AVX2 instruction is used) or avx512
 * (512-bit EVEX). @buf is aligned to 64 bytes, @bytes a non-zero multiple
 * of 16 loads of the width (1 KiB covers all), @passes at least 1. The
 * caller checks the CPU has the width.
 *
 * Loads per iteration (the last argument of TP_FUNC): 16, so that the
 * loop's add and compare-and-branch are small beside the loads and the
 * fadd mix has sixteen accumulators (an add's latency times the adds a
 * cycle); but the load mix at avx and avx512 loads four vectors an
 * iteration, as likwid-bench's load_avx and load_avx512 do. From L2 a
 * loop reads less the more bytes lie between two taken branches, at L1
 * the same; SSE's 16 loads are four lines, which read more from L2 than
 * four loads do. Documentation/measurements.rst, "The load loop's
 * length", has the measurements.
 */

#if defined(__x86_64__)

/* One load of 16 << \w bytes into register number \i, in the way \kind says. */
.macro TP_OP kind, w, i
.if \w == 0
  .ifc \kind,fadd
	addpd	\i*16(%rax), %xmm\i
  .else
	movapd	\i*16(%rax), %xmm\i
  .endif
.elseif \w == 1
  .ifc \kind,fadd
	vaddpd	\i*32(%rax), %ymm\i, %ymm\i
  .else
	vmovapd	\i*32(%rax), %ymm\i
  .endif
.else
  .ifc \kind,fadd
	vaddpd	\i*64(%rax), %zmm\i, %zmm\i
  .else
	vmovapd	\i*64(%rax), %zmm\i
  .endif
.endif
.ifc \kind,nop
	nop
.endif
.endm

/* Clear the accumulators: adding to 0.0 never makes a denormal. */
.macro TP_ZERO w
.irp i, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15
.if \w == 0
	xorpd	%xmm\i, %xmm\i
.else
	/* a VEX xor of an xmm clears the whole ymm/zmm register */
	vxorpd	%xmm\i, %xmm\i, %xmm\i
.endif
.endr
.endm

.macro TP_FUNC kind, wname, w, n
	.globl	tp_\kind\()_\wname
	.type	tp_\kind\()_\wname, @function
	.p2align 5
tp_\kind\()_\wname:
	test	%rsi, %rsi
	jz	3f
	test	%rdx, %rdx
	jz	3f
	lea	(%rdi,%rsi), %r8		/* end of the buffer */
.ifc \kind,fadd
	TP_ZERO	\w
.endif
1:	mov	%rdi, %rax			/* a pass */
	.p2align 5
2:
.irp i, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15
.if \i < \n
	TP_OP	\kind, \w, \i
.endif
.endr
	add	$(\n * (16 << \w)), %rax
	cmp	%r8, %rax
	jb	2b
	dec	%rdx
	jnz	1b
3:
.if \w
	vzeroupper		/* no penalty for SSE code that follows */
.endif
	ret
	.size	tp_\kind\()_\wname, .-tp_\kind\()_\wname
.endm

	.text
TP_FUNC load, sse, 0, 16
TP_FUNC fadd, sse, 0, 16
TP_FUNC nop, sse, 0, 16
TP_FUNC load, avx, 1, 4
TP_FUNC fadd, avx, 1, 16
TP_FUNC nop, avx, 1, 16
TP_FUNC load, avx512, 2, 4
TP_FUNC fadd, avx512, 2, 16
TP_FUNC nop, avx512, 2, 16

#endif /* __x86_64__ */

/* no executable stack for the objects this is linked with */
	.section .note.GNU-stack, "", @progbits
