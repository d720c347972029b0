// SPDX-License-Identifier: GPL-2.0
/*
 * The outer cache of cachemodel: an L2 between the L1 (cache.c) and
 * DRAM, and the line operations the kernel's compiled outer-cache code
 * drives. Five controllers, one a run (--outer=TYPE):
 *
 * l2c310    an L2C-310 (PL310), whose line-maintenance registers the
 *           compiled cache-l2x0.o writes (an MMIO hook on L2_BASE);
 * l2c220    an L2C-220, the same registers, cache-l2x0.o's l2c220_*;
 * feroceon  the Feroceon L2 of Kirkwood, maintained by CP15 operations
 *           (cache-feroceon-l2.o: by PA per line, by VA for ranges);
 * tauros2   the Tauros2 L2 of PJ1/PJ4 (cache-tauros2.o: CP15, by PA);
 * xsc3      the L2 of XScale3 (cache-xsc3l2.o: CP15, by MVA).
 *
 * The CP15 operations are decoded in decode.c and arrive here as
 * l2_cp15_line() and l2_cp15_range().
 *
 * Each L2 allocates on read and on write misses (the L2C-310 as for
 * Linux's write-back write-allocate memory; for the others, assumed).
 * Replacement: a fixed-seed LFSR (pseudo-random), reproducible.
 *
 * Addresses: the model maps virtual = physical, so the PA the kernel
 * writes to a line register is the address the L1 uses; the ELF's
 * phys/virt stubs are fixed up for that at load (emu.c).
 *
 * The device writes DRAM directly (no ACP): the L2 is not coherent
 * with it. A register write the model does not know stops the run.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model.h"

/* arch/arm/include/asm/hardware/cache-l2x0.h */
#define L2X0_CACHE_SYNC			0x730
#define L2X0_INV_LINE_PA		0x770
#define L2X0_CLEAN_LINE_PA		0x7B0
#define L2X0_CLEAN_INV_LINE_PA		0x7F0

static const struct l2type l2types[] = {
	{ "l2c310", 512u << 10, 8, 32, true,
	  { "l2c210_inv_range", "l2c210_clean_range", "l2c210_flush_range" },
	  "L2C-310 r3p2 of the Xilinx Zynq-7000 (UG585 ch. 3.4): 512 KiB, "
	  "8-way, 32-byte lines, pseudo-random, read- and write-allocate; "
	  "errata 588369 and 727915 do not apply to r3p2, so Linux uses "
	  "l2c210_{inv,clean,flush}_range" },
	{ "l2c220", 512u << 10, 8, 32, true,
	  { "l2c220_inv_range", "l2c220_clean_range", "l2c220_flush_range" },
	  "L2C-220 (L220) behind an ARM11 MPCore: the same line registers "
	  "as the L2C-310 (cache-l2x0.h), which l2c220_{inv,clean,flush}_range "
	  "write in blocks of 4 KiB under l2x0_lock (one CPU here: the lock is "
	  "a stub, arch-arm/model/stubs.S), waiting on each register; 32-byte "
	  "lines; 512 KiB, 8-way, pseudo-random replacement and read- and "
	  "write-allocation assumed, as the L2C-310 row" },
	{ "feroceon", 256u << 10, 4, 32, false,
	  { "feroceon_l2_inv_range", "feroceon_l2_clean_range",
	    "feroceon_l2_flush_range" },
	  "Feroceon L2 of the Marvell Kirkwood 88F6281: 256 KiB, 4-way "
	  "(7-cpu.com's Kirkwood page), 32-byte lines (cache-feroceon-l2.c "
	  "CACHE_LINE_SIZE), write-back (CONFIG_CACHE_FEROCEON_L2_WRITETHROUGH "
	  "unset); pseudo-random replacement and write allocation assumed" },
	{ "xsc3", 256u << 10, 8, 32, false,
	  { "xsc3_l2_inv_range", "xsc3_l2_clean_range", "xsc3_l2_flush_range" },
	  "L2 of the third-generation XScale (PXA3xx): 256 KiB, 8-way, 32-byte "
	  "lines (as pytorch/cpuinfo's src/arm/cache.c gives it for the PXA3xx, "
	  "from Intel's 31628302.pdf; cache-xsc3l2.c CACHE_LINE_SIZE 32), "
	  "maintained by MVA; pseudo-random replacement and write allocation "
	  "assumed" },
	{ "tauros2", 256u << 10, 8, 32, false,
	  { "tauros2_inv_range", "tauros2_clean_range", "tauros2_flush_range" },
	  "Tauros2 L2 behind a PJ1 (Mohawk) core: 32-byte lines "
	  "(cache-tauros2.c CACHE_LINE_SIZE); 256 KiB, 8-way, pseudo-random "
	  "replacement and write allocation assumed" },
};

const struct l2type *l2type_find(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(l2types); i++)
		if (!strcmp(l2types[i].name, name))
			return &l2types[i];
	return NULL;
}

void l2type_list(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(l2types); i++)
		printf("%s|%s\n", l2types[i].name, l2types[i].desc);
}

static struct {
	unsigned int nslots, nsets, ways, line;
	uint32_t *tag;
	uint8_t *valid, *dirty, *data;
	uint32_t lfsr;
	uint32_t range_start;
	bool range_set;
} l2;

void l2_init(void)
{
	l2.ways = m.l2->ways;
	l2.line = m.l2->line;
	l2.nslots = m.l2->size / l2.line;
	l2.nsets = l2.nslots / l2.ways;
	l2.tag = calloc(l2.nslots, sizeof(*l2.tag));
	l2.valid = calloc(l2.nslots, 1);
	l2.dirty = calloc(l2.nslots, 1);
	l2.data = calloc(l2.nslots, l2.line);
	if (!l2.tag || !l2.valid || !l2.dirty || !l2.data)
		die("out of memory");
	if (m.line != l2.line)
		die("--outer needs a core whose L1 lines are as long as the L2's");
}

void l2_reset(void)
{
	memset(l2.valid, 0, l2.nslots);
	memset(l2.dirty, 0, l2.nslots);
	l2.lfsr = 0x1d2bu;
	l2.range_set = false;
	m.c.l2capacity = l2.nslots;
}

static inline unsigned int l2_set(uint32_t a)
{
	return (a / l2.line) & (l2.nsets - 1);
}

static int l2_slot(uint32_t a)
{
	unsigned int s = l2_set(a) * l2.ways, w;
	uint32_t t = a & ~(l2.line - 1);

	for (w = 0; w < l2.ways; w++)
		if (l2.valid[s + w] && l2.tag[s + w] == t)
			return s + w;
	return -1;
}

static void l2_writeback(unsigned int s)
{
	memcpy(m.dram + (l2.tag[s] - WIN_BASE), l2.data + s * l2.line, l2.line);
	l2.dirty[s] = 0;
}

static unsigned int l2_allocate(uint32_t a)
{
	unsigned int s = l2_set(a) * l2.ways, w;
	uint32_t t = a & ~(l2.line - 1);

	for (w = 0; w < l2.ways; w++)
		if (!l2.valid[s + w])
			break;
	if (w == l2.ways) {
		l2.lfsr = (l2.lfsr >> 1) |
			  ((((l2.lfsr >> 0) ^ (l2.lfsr >> 2) ^ (l2.lfsr >> 3) ^
			     (l2.lfsr >> 5)) & 1) << 15);
		w = l2.lfsr % l2.ways;
		if (l2.dirty[s + w]) {
			l2_writeback(s + w);
			m.c.l2natural++;
		}
	}
	s += w;
	l2.tag[s] = t;
	memcpy(l2.data + s * l2.line, m.dram + (t - WIN_BASE), l2.line);
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
	memcpy(dst, l2.data + s * l2.line + (a & (l2.line - 1)), n);
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
	memcpy(l2.data + s * l2.line + (a & (l2.line - 1)), src, n);
	l2.dirty[s] = 1;
}

/* what a read that misses the L1 returns, changing nothing */
uint8_t next_peek(uint32_t a)
{
	int s = m.outer ? l2_slot(a) : -1;

	return s >= 0 ? l2.data[s * l2.line + (a & (l2.line - 1))] :
			m.dram[a - WIN_BASE];
}

static void l2_line_op(uint32_t pa, enum lop op)
{
	int s;

	if (pa - WIN_BASE >= WIN_SIZE) {
		fail("L2 line operation at PA 0x%08x, outside the modelled window", pa);
		return;
	}
	if (pa & (l2.line - 1))
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

/*
 * A CP15 line operation of the Feroceon L2, the Tauros2 or the XSC3 L2
 * (decode.c): PA, or MVA for "xsc3"; for "feroceon" ranges the VA of
 * the first line (START) and of the last (TOP), which the L2 translates
 * (VA = PA here).
 */
void l2_cp15_line(const char *type, uint32_t pa, enum lop op)
{
	if (!m.outer || strcmp(m.l2->name, type)) {
		fail("%s L2 operation, but the modelled outer cache is %s",
		     type, m.outer ? m.l2->name : "none");
		return;
	}
	l2_line_op(pa, op);
}

void l2_cp15_range(const char *type, uint32_t va, bool top, enum lop op)
{
	uint32_t a;

	if (!m.outer || strcmp(m.l2->name, type)) {
		fail("%s L2 range operation, but the modelled outer cache is %s",
		     type, m.outer ? m.l2->name : "none");
		return;
	}
	if (!top) {
		l2.range_start = va;
		l2.range_set = true;
		return;
	}
	if (!l2.range_set) {
		fail("L2 range top without a range start");
		return;
	}
	l2.range_set = false;
	m.c.l2range++;
	for (a = l2.range_start & ~(l2.line - 1); a <= va; a += l2.line) {
		l2_line_op(a, op);
		if (m.err[0])
			return;
	}
}

/* the controller's registers: line operations by PA and sync */
void hook_l2(uc_engine *uc, uc_mem_type type, uint64_t addr, int size,
	     int64_t value, void *u)
{
	uint32_t off = addr - L2_BASE, v = (uint32_t)value;

	if (!m.l2->regs) {
		fail("access to the L2C-x10's registers, but the modelled outer cache is %s",
		     m.l2->name);
		return;
	}

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
		if (l2.valid[s] && l2.dirty[s] && l2.tag[s] + l2.line > lo &&
		    l2.tag[s] < hi)
			n++;
	return n;
}
