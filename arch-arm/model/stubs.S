/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the kernel objects the model runs take from the rest of the
 * kernel: linked after them, these resolve their calls and data.
 *
 * One CPU, nothing to wait for: the L2C-220's range operations take
 * l2x0_lock (cache-l2x0.c) around each block of lines.
 *
 * For dma-mapping.o (cachemodel --dma-mapping, dmamapping.c sets the data):
 * its lowmem path calls page_address(), which the model carries out at
 * its address (the page's lowmem VA); the highmem path
 * (__kmap_local_page_prot) is not modelled and stops the run; the
 * unmap's set_bit(PG_dcache_clean) changes nothing the model keeps
 * (cachemodel --suite links the kernel's own _set_bit instead).
 *
 * Assembled by arch-arm/model/Makefile (ARMv4), and for cachemodel --suite
 * with each configuration's recorded kbuild command (its ABI; Thumb only
 * on v7-M, where kconfig.h gives CONFIG_CPU_V7M).
 */
	.text
#ifdef CONFIG_CPU_V7M
	/* assembled for a v7-M build (cachemodel --suite): Thumb only */
	.syntax	unified
	.thumb
#define RET	bx	lr
#define UDF(n)	udf	n
#else
	.arm
#define RET	mov	pc, lr
#define UDF(n)	.word	0xe7f000f0 + n
#endif
	.globl	_raw_spin_lock_irqsave
	.type	_raw_spin_lock_irqsave, %function
_raw_spin_lock_irqsave:			@ flags 0
	mov	r0, #0
	RET

	.globl	_raw_spin_unlock_irqrestore
	.type	_raw_spin_unlock_irqrestore, %function
_raw_spin_unlock_irqrestore:
	RET

	.weak	_set_bit			@ the suite links the kernel's (setbit.S)
	.type	_set_bit, %function
_set_bit:
	RET

	.globl	page_address
	.type	page_address, %function
page_address:				@ done by the model (dmamapping.c)
	UDF(0)				@ stops the run if reached

	.globl	__kmap_local_page_prot
	.type	__kmap_local_page_prot, %function
__kmap_local_page_prot:
	UDF(1)

	.globl	kunmap_local_indexed
	.type	kunmap_local_indexed, %function
kunmap_local_indexed:
	UDF(2)

	.data
	.align	2
	.globl	mem_map, __pv_phys_pfn_offset, cacheid, movable_zone
	.globl	pgprot_kernel, cpu_cache, outer_cache
mem_map:
	.word	0
__pv_phys_pfn_offset:
	.word	0
cacheid:
	.word	0
movable_zone:
	.word	0
pgprot_kernel:
	.word	0
cpu_cache:				@ struct cpu_cache_fns
	.space	64
outer_cache:				@ struct outer_cache_fns
	.space	64
