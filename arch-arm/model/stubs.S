/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel functions that the outer-cache code calls and the model
 * does not run: linked after the kernel objects, they resolve those
 * calls. One CPU, nothing to wait for: the L2C-220's range operations
 * take l2x0_lock (cache-l2x0.c) around each block of lines.
 *
 * unsigned long _raw_spin_lock_irqsave(raw_spinlock_t *lock): flags 0
 * void _raw_spin_unlock_irqrestore(raw_spinlock_t *lock, unsigned long flags)
 */
	.text
	.arm
	.globl	_raw_spin_lock_irqsave
_raw_spin_lock_irqsave:
	mov	r0, #0
	mov	pc, lr

	.globl	_raw_spin_unlock_irqrestore
_raw_spin_unlock_irqrestore:
	mov	pc, lr
