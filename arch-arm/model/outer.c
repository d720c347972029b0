// SPDX-License-Identifier: GPL-2.0
/*
 * The outer cache of cachemodel: an L2C-310 (PL310) between the L1
 * (cache.c) and DRAM, and its line-maintenance registers, which the
 * kernel's compiled cache-l2x0.o writes (an MMIO hook on L2_BASE).
 *
 * Geometry: the Xilinx Zynq-7000's L2C-310 r3p2 (Zynq-7000 TRM, UG585,
 * ch. 3.4: 512 KB, 8-way, 32-byte lines, pseudo-random or round-robin
 * replacement; errata 588369 and 727915 do not apply to r3p2, so Linux
 * uses l2c210_{inv,clean,flush}_range for it). It allocates on read and
 * on write misses, as for Linux's write-back write-allocate memory
 * (SMP). Replacement: a fixed-seed LFSR (pseudo-random), reproducible.
 *
 * Addresses: the model maps virtual = physical, so the PA the kernel
 * writes to a line register is the address the L1 uses.
 *
 * The device writes DRAM directly (no ACP): the L2 is not coherent
 * with it. A register write the model does not know stops the run.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model.h"

#define L2_SIZE		(512u << 10)
#define L2_WAYS		8u
#define L2_LINE		32u

/* arch/arm/include/asm/hardware/cache-l2x0.h */
#define L2X0_CACHE_SYNC			0x730
#define L2X0_INV_LINE_PA		0x770
#define L2X0_CLEAN_LINE_PA		0x7B0
#define L2X0_CLEAN_INV_LINE_PA		0x7F0

const char *const l2_desc =
	"L2C-310 r3p2 of the Xilinx Zynq-7000 (UG585 ch. 3.4): 512 KiB, "
	"8-way, 32-byte lines, pseudo-random, read- and write-allocate";

static struct {
	unsigned int nslots, nsets;
	uint32_t *tag;
	uint8_t *valid, *dirty, *data;
	uint32_t lfsr;
} l2;

void l2_init(void)
{
	l2.nslots = L2_SIZE / L2_LINE;
	l2.nsets = l2.nslots / L2_WAYS;
	l2.tag = calloc(l2.nslots, sizeof(*l2.tag));
	l2.valid = calloc(l2.nslots, 1);
	l2.dirty = calloc(l2.nslots, 1);
	l2.data = calloc(l2.nslots, L2_LINE);
	if (!l2.tag || !l2.valid || !l2.dirty || !l2.data)
		die("out of memory");
	if (m.line != L2_LINE)
		die("--outer needs a core with 32-byte L1 lines (as the L2)");
}

void l2_reset(void)
{
	memset(l2.valid, 0, l2.nslots);
	memset(l2.dirty, 0, l2.nslots);
	l2.lfsr = 0x1d2bu;
	m.c.l2capacity = l2.nslots;
}

static inline unsigned int l2_set(uint32_t a)
{
	return (a / L2_LINE) & (l2.nsets - 1);
}

static int l2_slot(uint32_t a)
{
	unsigned int s = l2_set(a) * L2_WAYS, w;
	uint32_t t = a & ~(L2_LINE - 1);

	for (w = 0; w < L2_WAYS; w++)
		if (l2.valid[s + w] && l2.tag[s + w] == t)
			return s + w;
	return -1;
}

static void l2_writeback(unsigned int s)
{
	memcpy(m.dram + (l2.tag[s] - WIN_BASE), l2.data + s * L2_LINE, L2_LINE);
	l2.dirty[s] = 0;
}

static unsigned int l2_allocate(uint32_t a)
{
	unsigned int s = l2_set(a) * L2_WAYS, w;
	uint32_t t = a & ~(L2_LINE - 1);

	for (w = 0; w < L2_WAYS; w++)
		if (!l2.valid[s + w])
			break;
	if (w == L2_WAYS) {
		l2.lfsr = (l2.lfsr >> 1) |
			  ((((l2.lfsr >> 0) ^ (l2.lfsr >> 2) ^ (l2.lfsr >> 3) ^
			     (l2.lfsr >> 5)) & 1) << 15);
		w = l2.lfsr % L2_WAYS;
		if (l2.dirty[s + w]) {
			l2_writeback(s + w);
			m.c.l2natural++;
		}
	}
	s += w;
	l2.tag[s] = t;
	memcpy(l2.data + s * L2_LINE, m.dram + (t - WIN_BASE), L2_LINE);
	l2.valid[s] = 1;
	l2.dirty[s] = 0;
	return s;
}

/* the L1 reads N bytes at A (within one line): allocates on a miss */
void next_read(uint32_t a, uint8_t *dst, unsigned int n)
{
	int s;

	if (!m.outer) {
		memcpy(dst, m.dram + (a - WIN_BASE), n);
		return;
	}
	s = l2_slot(a);
	if (s < 0)
		s = l2_allocate(a);
	memcpy(dst, l2.data + s * L2_LINE + (a & (L2_LINE - 1)), n);
}

/* the L1 writes N bytes at A back (or through): allocates on a miss */
void next_write(uint32_t a, const uint8_t *src, unsigned int n)
{
	int s;

	if (!m.outer) {
		memcpy(m.dram + (a - WIN_BASE), src, n);
		return;
	}
	s = l2_slot(a);
	if (s < 0)
		s = l2_allocate(a);
	memcpy(l2.data + s * L2_LINE + (a & (L2_LINE - 1)), src, n);
	l2.dirty[s] = 1;
}

/* what a read that misses the L1 returns, changing nothing */
uint8_t next_peek(uint32_t a)
{
	int s = m.outer ? l2_slot(a) : -1;

	return s >= 0 ? l2.data[s * L2_LINE + (a & (L2_LINE - 1))] :
			m.dram[a - WIN_BASE];
}

static void l2_line_op(uint32_t pa, enum lop op)
{
	int s;

	if (pa - WIN_BASE >= WIN_SIZE) {
		fail("L2 line operation at PA 0x%08x, outside the modelled window", pa);
		return;
	}
	if (pa & (L2_LINE - 1))
		m.c.l2unaligned++;
	s = l2_slot(pa);
	switch (op) {
	case L_INV:
		m.c.l2inv++;
		break;
	case L_CLEAN:
		m.c.l2clean++;
		break;
	case L_FLUSH:
		m.c.l2flush++;
		break;
	}
	if (s < 0)
		return;
	if (op != L_INV && l2.dirty[s]) {
		l2_writeback(s);
		m.c.l2wb++;
	}
	if (op != L_CLEAN) {
		if (l2.dirty[s])
			m.c.l2discarded++;
		l2.valid[s] = 0;
		l2.dirty[s] = 0;
	}
}

/* the controller's registers: line operations by PA and sync */
void hook_l2(uc_engine *uc, uc_mem_type type, uint64_t addr, int size,
	     int64_t value, void *u)
{
	uint32_t off = addr - L2_BASE, v = (uint32_t)value;

	if (type == UC_MEM_READ) {
		if (off == L2X0_CACHE_SYNC || off == L2X0_INV_LINE_PA ||
		    off == L2X0_CLEAN_LINE_PA || off == L2X0_CLEAN_INV_LINE_PA) {
			uint32_t zero = 0;	/* operation complete */

			uc_mem_write(uc, addr, &zero, 4);
			return;
		}
		fail("read of L2 register 0x%03x, not modelled", off);
		return;
	}
	if (size != 4) {
		fail("%d-byte write to L2 register 0x%03x", size, off);
		return;
	}
	switch (off) {
	case L2X0_CACHE_SYNC:
		m.c.l2sync++;
		break;
	case L2X0_INV_LINE_PA:
		l2_line_op(v, L_INV);
		break;
	case L2X0_CLEAN_LINE_PA:
		l2_line_op(v, L_CLEAN);
		break;
	case L2X0_CLEAN_INV_LINE_PA:
		l2_line_op(v, L_FLUSH);
		break;
	default:
		fail("write of L2 register 0x%03x, not modelled", off);
	}
}

/* worst case: every dirty L2 line is evicted over the device's data */
void l2_evict_dirty(void)
{
	unsigned int s;

	for (s = 0; s < l2.nslots; s++)
		if (l2.valid[s] && l2.dirty[s]) {
			l2_writeback(s);
			l2.valid[s] = 0;
			m.c.l2evicted++;
		}
}

/* a speculative L1 fill may allocate in the L2 as well (next_read) */
unsigned long l2_dirty_lines_in(uint32_t lo, uint32_t hi)
{
	unsigned int s;
	unsigned long n = 0;

	for (s = 0; s < l2.nslots; s++)
		if (l2.valid[s] && l2.dirty[s] && l2.tag[s] + L2_LINE > lo &&
		    l2.tag[s] < hi)
			n++;
	return n;
}
