// SPDX-License-Identifier: GPL-2.0
/*
 * What the MIPS objects of the model (dma-noncoherent.o, c-r4k.o) need
 * from the rest of the kernel, compiled with the kernel's own flags for
 * the configuration so that struct layouts match. model_setup() fills
 * in the boot CPU as cpu_probe() and r4k_cache_init() would for the CPU
 * class the model runs:
 *   0: a CPU that does not speculate (24K): no post-DMA invalidate
 *   1: a CPU with MAARs (speculates): cpu_needs_post_dma_flush()
 *   2: as 0, with an inclusive secondary cache (cpu_has_inclusive_pcaches)
 * Caches: 32 KiB 4-way primary data cache with 32-byte lines, 256 KiB
 * 8-way secondary cache with 32-byte lines.
 */
#include <linux/mm.h>
#include <linux/smp.h>
#include <asm/bcache.h>
#include <asm/cpu.h>
#include <asm/cpu-info.h>
#include <asm/mips-cps.h>

void model_setup(unsigned long variant);

struct cpuinfo_mips cpu_data[NR_CPUS];
struct page *mem_map;
cpumask_t cpu_foreign_map[NR_CPUS];
void __iomem *mips_gcr_base;
unsigned long __stack_chk_guard;
void (*_dma_cache_wback_inv)(unsigned long start, unsigned long size);
void (*_dma_cache_wback)(unsigned long start, unsigned long size);
void (*_dma_cache_inv)(unsigned long start, unsigned long size);

static void model_bc_void(void)
{
}

static void model_bc_range(unsigned long page, unsigned long size)
{
}

static struct bcache_ops model_bcops = {
	.bc_enable = model_bc_void,
	.bc_disable = model_bc_void,
	.bc_wback_inv = model_bc_range,
	.bc_inv = model_bc_range,
};

struct bcache_ops *bcops = &model_bcops;

void model_setup(unsigned long variant)
{
	struct cpuinfo_mips *c = &cpu_data[0];

	c->cputype = variant == 1 ? CPU_P5600 : CPU_24K;
	c->options = MIPS_CPU_TLB | MIPS_CPU_4KEX | MIPS_CPU_4K_CACHE;
	if (variant == 1)
		c->options |= MIPS_CPU_MAAR;
	if (variant == 2)
		c->options |= MIPS_CPU_INCLUSIVE_CACHES;
	c->dcache.linesz = 32;
	c->dcache.ways = 4;
	c->dcache.sets = 256;
	c->dcache.waysize = 8192;
	c->dcache.waybit = 13;
	c->scache.linesz = 32;
	c->scache.ways = 8;
	c->scache.sets = 1024;
	c->scache.waysize = 32768;
	c->scache.waybit = 15;
	if (variant != 2)
		c->scache.flags = MIPS_CACHE_NOT_PRESENT;
}
