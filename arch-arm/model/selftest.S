/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Known instruction sequences for cachemodel's self-tests: the decode
 * table, condition handling (ARM and Thumb-2 IT blocks), set/way and
 * range operations, and synthetic map/unmap pairs (32-byte lines) for
 * the eviction and speculation tests.
 */
	.syntax	unified
	.equ	LINE, 32

	.text
	.arm
	.globl	st_decode		@ r0 = line 0, r1 = line 1
st_decode:
	mcr	p15, 0, r0, c7, c6, 1	@ inv: line 0 dirty, discarded
	mcr	p15, 0, r1, c7, c10, 1	@ clean: line 1 written back
	mcr	p15, 0, r1, c7, c14, 1	@ flush line 1
	sub	r3, r1, r0
	add	r2, r1, r3
	mcr	p15, 0, r2, c7, c11, 1	@ clean: line 2 written back
	mcr	p15, 0, r2, c7, c15, 1	@ flush line 2
	mcr	p15, 0, r0, c7, c7, 1	@ inv line 0 again: nothing to discard
	mcr	p15, 0, r0, c7, c10, 4	@ barrier
	mcr	p15, 0, r0, c7, c5, 0	@ I-cache
	cmp	r0, r0
	mcrne	p15, 0, r1, c7, c6, 1	@ condition fails: must not count
	mcrne	p15, 0, r1, c7, c6, 1
	mrc	p15, 0, r1, c0, c0, 1	@ CTR
	bx	lr

	.globl	st_range		@ r0 = start, r1 = top (inclusive)
st_range:
	mcr	p15, 5, r0, c15, c15, 0
	mcr	p15, 5, r1, c15, c15, 1
	bx	lr

	.globl	st_test_clean
st_test_clean:
1:	mrc	p15, 0, APSR_nzcv, c7, c14, 3
	bne	1b
	bx	lr

	.globl	st_setway		@ r0 = line size, r1 = sets
st_setway:
	mov	r2, #0
1:	mcr	p15, 0, r2, c7, c14, 2
	add	r2, r2, r0
	subs	r1, r1, #1
	bne	1b
	bx	lr

	.globl	st_unknown
st_unknown:
	mcr	p15, 0, r0, c7, c3, 7	@ no backend uses this
	bx	lr

	.globl	st_unknown_cond
st_unknown_cond:
	cmp	r0, r0
	mcrne	p15, 0, r0, c7, c3, 7	@ unknown, and its condition fails
	bx	lr

	.globl	st_mcr2
st_mcr2:
	.inst	0xfe070f36		@ mcr2 p15, 0, r0, c7, c6, 1
	bx	lr

	.globl	st_other_cp
st_other_cp:
	mrc	p14, 0, r0, c1, c0, 0
	bx	lr

	.globl	st_mem
st_mem:
	mov	r1, #0x5a
	strb	r1, [r0, #4]
	ldrb	r2, [r0, #4]
	bx	lr

	.macro	range_loop, name, crm
	.globl	\name
\name:
	add	r1, r1, r0
	bic	r0, r0, #LINE - 1
1:	mcr	p15, 0, r0, c7, \crm, 1
	add	r0, r0, #LINE
	cmp	r0, r1
	blo	1b
	bx	lr
	.endm

	range_loop st_inv, c6
	range_loop st_clean, c10
	range_loop st_flush, c14

	.globl	st_nothing
st_nothing:
	bx	lr

	.thumb
	.globl	st_thumb_it
	.thumb_func
st_thumb_it:
	mrc	p15, 0, r1, c0, c0, 1
	cmp	r0, r0
	ite	ne
	mcrne	p15, 0, r0, c7, c6, 1	@ condition fails
	mcreq	p15, 0, r0, c7, c14, 1
	bx	lr

	.globl	st_thumb_it_unknown
	.thumb_func
st_thumb_it_unknown:
	cmp	r0, r0
	ite	ne
	mcrne	p15, 0, r0, c7, c3, 7	@ unknown, condition fails
	moveq	r1, #0
	bx	lr

	.globl	st_scb			@ v7-M: r0 = line 0
	.thumb_func
st_scb:
	ldr	r3, =0xe000ed7c		@ CTR
	ldr	r1, [r3]
	ldr	r3, =0xe000ef5c		@ DCIMVAC
	str	r0, [r3]
	str	r0, [r3, #0xc]		@ DCCMVAC
	str	r0, [r3, #0x14]		@ DCCIMVAC
	bx	lr

	.globl	st_scb_unknown
	.thumb_func
st_scb_unknown:
	ldr	r3, =0xe000ef7c		@ past the cache maintenance registers
	str	r0, [r3]
	bx	lr
	.ltorg
