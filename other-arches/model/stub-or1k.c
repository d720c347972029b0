// SPDX-License-Identifier: GPL-2.0
/*
 * What the openrisc object of the model (kernel/dma.o) needs from the
 * rest of the kernel, compiled with the kernel's own flags: the CPU's
 * data cache geometry, as setup_cpuinfo() reads it from the device
 * tree (16-byte blocks, as or1ksim's default configuration has).
 */
#include <linux/types.h>
#include <linux/threads.h>
#include <asm/cpuinfo.h>

struct cpuinfo_or1k cpuinfo_or1k[NR_CPUS] = {
	[0 ... NR_CPUS - 1] = {
		.dcache_size = 8192,
		.dcache_block_size = 16,
		.dcache_ways = 1,
	},
};
