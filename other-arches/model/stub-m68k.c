// SPDX-License-Identifier: GPL-2.0
/*
 * What the m68k objects of the model (kernel/dma.o, mm/memory.o) need
 * from the rest of the kernel, compiled with the kernel's own flags.
 * model_setup() sets the CPU as setup_arch() would: 0 a 68040, 1 a
 * 68060 (whose head.S sets CACR.DPI: cpush does not invalidate), 2 a
 * 68030.
 */
#include <linux/mm.h>
#include <asm/setup.h>

void model_setup(unsigned long variant);

unsigned long m68k_cputype;
int m68k_is040or060;
void (*mach_l2_flush)(int enable);
struct page *mem_map;

void model_setup(unsigned long variant)
{
	static const unsigned long cpu[] = { CPU_68040, CPU_68060, CPU_68030 };
	static const int is040or060[] = { 4, 6, 0 };

	m68k_cputype = cpu[variant];
	m68k_is040or060 = is040or060[variant];
}
