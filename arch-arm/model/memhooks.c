// SPDX-License-Identifier: GPL-2.0
/*
 * cachemodel's memory hooks: v7-M's memory-mapped SCB cache maintenance
 * registers, turned into cache operations (cache.c) as decode.c does for
 * coprocessor instructions, and the kernel code's loads and stores to the
 * buffer, which go through the modelled cache. A write to an SCB register
 * that is not modelled stops the run with an error.
 */

#include "model.h"

/* v7-M: the SCB's memory-mapped cache maintenance registers */
void hook_scb(uc_engine *uc, uc_mem_type type, uint64_t addr,
		     int size, int64_t value, void *u)
{
	uint32_t v = (uint32_t)value;

	if (type == UC_MEM_READ) {
		if (addr == SCB_CTR)
			uc_mem_write(uc, addr, &m.ctr, 4);
		else if (addr == SCB_CCSIDR)
			uc_mem_write(uc, addr, &m.core->ccsidr, 4);
		return;
	}
	switch (addr) {
	case 0xe000ef50: case 0xe000ef58: case 0xe000ef78:
		m.c.icache++;
		break;
	case 0xe000ef5c:
		m.c.inv++;
		mva_op(v, L_INV);
		break;
	case 0xe000ef60:
		m.c.setway++;
		set_op(v, L_INV);
		break;
	case 0xe000ef64: case 0xe000ef68:
		m.c.clean++;
		mva_op(v, L_CLEAN);
		break;
	case 0xe000ef6c:
		m.c.setway++;
		set_op(v, L_CLEAN);
		break;
	case 0xe000ef70:
		m.c.flush++;
		mva_op(v, L_FLUSH);
		break;
	case 0xe000ef74:
		m.c.setway++;
		set_op(v, L_FLUSH);
		break;
	case SCB_CSSELR:
		break;
	default:
		fail("write of 0x%08x to SCB register 0x%08lx: not modelled",
		     v, (unsigned long)addr);
	}
}

/* Loads and stores by the kernel code to the buffer go through the cache. */
void hook_win(uc_engine *uc, uc_mem_type type, uint64_t addr,
		     int size, int64_t value, void *u)
{
	uint8_t b[8];
	int i;

	m.c.mem++;
	for (i = 0; i < size && i < 8; i++) {
		if (type == UC_MEM_READ)
			b[i] = cpu_load(addr + i);
		else
			cpu_write(addr + i, (uint8_t)(value >> (8 * i)));
	}
	if (type == UC_MEM_READ)
		uc_mem_write(uc, addr, b, size);
}
