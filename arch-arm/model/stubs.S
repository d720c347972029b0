/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the kernel objects the model runs take from the rest of the
 * kernel: linked after them, these resolve their calls and data.
 *
 * One CPU, nothing to wait for: the L2C-220's range operations take
 * l2x0_lock (cache-l2x0.c) around each block of lines.
 *
 * For dma-mapping.o (cachemodel --dma-mapping, emu.c sets the data):
 * its lowmem path calls page_address(), which the model carries out at
 * its address (the page's lowmem VA); the highmem path
 * (__kmap_local_page_prot) is not modelled and stops the run; the
 * unmap's set_bit(PG_dcache_clean) changes nothing the model keeps.
 */
	.text
	.arm
	.globl	_raw_spin_lock_irqsave
_raw_spin_lock_irqsave:			@ flags 0
	mov	r0, #0
	mov	pc, lr

	.globl	_raw_spin_unlock_irqrestore
_raw_spin_unlock_irqrestore:
	mov	pc, lr

	.globl	_set_bit
_set_bit:
	mov	pc, lr

	.globl	page_address
page_address:				@ done by the model (emu.c)
	.word	0xe7f000f0		@ udf: stops the run if reached

	.globl	__kmap_local_page_prot
__kmap_local_page_prot:
	.word	0xe7f000f1

	.globl	kunmap_local_indexed
kunmap_local_indexed:
	.word	0xe7f000f2

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
