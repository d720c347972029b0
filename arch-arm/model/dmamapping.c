// SPDX-License-Identifier: GPL-2.0
/*
 * cachemodel --dma-mapping: the compiled dma-mapping.o runs the steps of
 * a map and an unmap. What the kernel sets up before it runs, and what
 * happens at each instruction: page_address() carried out, the CPU's
 * speculative fills between the steps, and the KUnit suite's own hook
 * (suite.c) when it runs.
 */

#include <stdlib.h>
#include "model.h"

/* current: a zeroed struct task_struct of the configuration's size */
static void current_open(void)
{
	uint32_t size = (read32(sym("model_task_size")) + 0xfffu) & ~0xfffu;
	uint8_t *zero = calloc(1, size);

	if (!size || !zero ||
	    uc_mem_map(m.uc, CURRENT_TASK, size, UC_PROT_READ | UC_PROT_WRITE) ||
	    uc_mem_write(m.uc, CURRENT_TASK, zero, size))
		die("cannot map current's task_struct");
	free(zero);
	m.current = CURRENT_TASK;
}

/*
 * What the kernel sets up before dma-mapping.o runs, with the layout
 * probe.c read from the configuration's headers: mem_map (zeroed
 * struct pages, lowmem, for the modelled window's page frames) and
 * __pv_phys_pfn_offset; cpu_cache's dma_map_area and dma_unmap_area
 * (the backend's routines MAP and UNMAP); outer_cache's range
 * operations when an outer cache is modelled; and current (zeroed, with
 * the size of the configuration's struct task_struct), which TPIDRURO
 * holds where the build keeps it there (CURRENT_POINTER_IN_TPIDRURO):
 * the stack canary of -mstack-protector-guard=tls code is read from it
 * (STACKPROTECTOR_PER_TASK; 0 is as good a canary as any here). The
 * steps of a map or an unmap are the calls of these routines: the CPU
 * may allocate lines before each but the first (dma_mapping_hook()).
 */
void dma_mapping_open(uint32_t map, uint32_t unmap)
{
	static uint8_t zero[MEM_MAP_SIZE];
	uint32_t cc = sym("cpu_cache"), oc = sym("outer_cache");

	m.page_size = read32(sym("model_page_size"));
	if (!m.page_size || (WIN_SIZE >> 12) * m.page_size > MEM_MAP_SIZE)
		die("struct page does not fit the modelled mem_map");
	if (uc_mem_map(m.uc, MEM_MAP, MEM_MAP_SIZE, UC_PROT_READ | UC_PROT_WRITE) ||
	    uc_mem_write(m.uc, MEM_MAP, zero, sizeof(zero)))
		die("cannot map mem_map");
	write32(sym("mem_map"), MEM_MAP);
	current_open();
	write32(sym("__pv_phys_pfn_offset"), WIN_BASE >> 12);
	write32(cc + read32(sym("model_dma_map_area")), map);
	write32(cc + read32(sym("model_dma_unmap_area")), unmap);
	/* the steps and page_address() are compared with the PC: no Thumb bit */
	m.steps[0] = map & ~1u;
	m.steps[1] = unmap & ~1u;
	if (m.outer) {
		write32(oc + read32(sym("model_outer_inv_range")), sym(m.l2->fn[0]));
		write32(oc + read32(sym("model_outer_clean_range")), sym(m.l2->fn[1]));
		write32(oc + read32(sym("model_outer_flush_range")), sym(m.l2->fn[2]));
		m.steps[2] = sym(m.l2->fn[0]) & ~1u;
		m.steps[3] = sym(m.l2->fn[1]) & ~1u;
		m.steps[4] = sym(m.l2->fn[2]) & ~1u;
	}
	m.page_address_at = sym("page_address") & ~1u;
}

/*
 * Called by hook_code for every instruction of a --dma-mapping run:
 * page_address() of a lowmem page, carried out here (its VA, which is
 * its PA); and at the entry of a step after the first, the CPU's
 * speculative fills of the buffer. True when PC was changed.
 */
bool dma_mapping_hook(uint64_t pc)
{
	uint32_t page, a, i;

	if (m.suite)
		suite_hook(pc);
	if (pc == m.page_address_at) {
		page = reg(UC_ARM_REG_R0);
		if (page < MEM_MAP || (page - MEM_MAP) % m.page_size ||
		    (page - MEM_MAP) / m.page_size >= WIN_SIZE >> 12) {
			fail("page_address() of 0x%08x, not a page of the modelled window", page);
			return false;
		}
		set_reg(UC_ARM_REG_R0, WIN_BASE + ((page - MEM_MAP) / m.page_size << 12));
		set_reg(UC_ARM_REG_PC, reg(UC_ARM_REG_LR));
		return true;
	}
	for (i = 0; i < ARRAY_SIZE(m.steps); i++) {
		if (!m.steps[i] || pc != m.steps[i])
			continue;
		if (m.step_seen && m.spec)
			for (a = m.span_lo & ~(m.line - 1); a < m.span_lo + m.span_size;
			     a += m.line)
				spec_fill(a);
		m.step_seen = true;
	}
	return false;
}
