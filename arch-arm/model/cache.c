// SPDX-License-Identifier: GPL-2.0
/*
 * The finite L1 data cache of cachemodel: sets x ways x lines with the
 * geometry, replacement and allocation policy of one modelled core.
 *
 * A line is allocated on a read miss, and on a write miss only where
 * the core and the kernel's memory type allocate on writes; a write that
 * misses a read-allocate cache goes to memory. Allocating into a full
 * set evicts the victim the core's replacement picks, and a dirty
 * victim is written back (natural eviction, counted as "natural").
 * Maintenance by address acts on the line if it is present; set/way
 * operations on the one line they name; whole-cache operations on all.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model.h"

/*
 * Geometry per core. Sizes that a core's integration chooses are the
 * ones stated; "assumed" marks a value the kernel source does not fix
 * and no manual here states. The allocation column is the kernel's
 * default memory type: ARMv4/v5 caches allocate on reads only; on
 * ARMv6/v7 the kernel maps memory write-back write-allocate when SMP
 * (PMD_FLAGS_SMP = PMD_SECT_WBWA in proc-v6.S, proc-v7-2level.S,
 * proc-v7-3level.S) and write-back read-allocate when UP (PMD_SECT_WB):
 * tools/model passes --alloc from each build's CONFIG_SMP (read on the
 * cores without multiprocessing extensions, read-allocate here).
 * Documentation/results/BASE/model.md ("Modelled cores") carries this
 * table with its sources.
 */
static const struct core cores[] = {
	{ "sa1100", 8192, 32, 32, R_RR, AL_READ, 0, 0,
	  "SA-1100 Developer's Manual (Intel 278088), ch. 6: 8 KB, 32-way, 32-byte lines, round-robin, read-allocate; the 512-byte minicache is not modelled" },
	{ "sa110", 16384, 32, 32, R_RR, AL_READ, 0, 0,
	  "SA-110: 16 KB and 32-byte lines (cache-v4wb.S: CACHE_DSIZE 16384 with CONFIG_CPU_SA110, CACHE_DLINESIZE 32); 32-way, round-robin and read-allocate assumed as the SA-1100's (the same StrongARM core)" },
	{ "fa526", 16384, 2, 16, R_RR, AL_READ, 0, 0,
	  "cache-fa.S: CACHE_DSIZE 16384 (8192 on Gemini), CACHE_DLINESIZE 16; 2-way, round-robin and read-allocate assumed" },
	{ "arm920t", 16384, 64, 32, R_RANDOM, AL_READ, 0, 0,
	  "ARM920T TRM (ARM DDI 0151C) ch. 4: 16 KB, 64-way, 8 segments, 32-byte lines, pseudo-random or round-robin (CP15 c1 RR), read-allocate; proc-arm920.S: 8 segments x 64 entries" },
	{ "arm922t", 8192, 64, 32, R_RANDOM, AL_READ, 0, 0,
	  "ARM922T TRM (ARM DDI 0184B): 8 KB, 64-way, 4 segments, 32-byte lines, read-allocate; proc-arm922.S: 4 x 64" },
	{ "arm925t", 8192, 2, 16, R_RR, AL_READ, 0, 0,
	  "proc-arm925.S (TI OMAP1510): 2 segments x 256 entries x 16 bytes; round-robin and read-allocate assumed" },
	{ "arm926ejs", 32768, 4, 32, R_RANDOM, AL_READ, 0, 0,
	  "ARM926EJ-S TRM (ARM DDI 0198E) ch. 4: 4-128 KB, 4-way, 32-byte lines, pseudo-random or round-robin (CONFIG_CPU_CACHE_ROUND_ROBIN), read-allocate only; 32 KB as on the SAM9X75" },
	{ "arm940t", 4096, 64, 16, R_RANDOM, AL_READ, 0, 0,
	  "ARM940T TRM (ARM DDI 0144B): 4 KB, 64-way, 4 segments, 16-byte lines, read-allocate; proc-arm940.S: 4 x 64" },
	{ "arm946es", 8192, 4, 32, R_RANDOM, AL_READ, 0, 0,
	  "ARM946E-S TRM (ARM DDI 0201): 4-way, 32-byte lines, size configured (proc-arm946.S CONFIG_CPU_DCACHE_SIZE: 8 KB in this build), read-allocate" },
	{ "arm1020e", 32768, 64, 32, R_RR, AL_READ, 0, 0,
	  "ARM1020E TRM (ARM DDI 0177): 32 KB, 64-way, 16 segments, 32-byte lines; proc-arm1020.S: 16 x 64; round-robin and read-allocate assumed" },
	{ "arm1022e", 16384, 64, 32, R_RR, AL_READ, 0, 0,
	  "ARM1022E TRM (ARM DDI 0237): 16 KB, 64-way, 32-byte lines (proc-arm1022.S copies ARM1020E's 16 x 64); round-robin and read-allocate assumed" },
	{ "arm1026ejs", 32768, 4, 32, R_RR, AL_READ, 0, 0,
	  "ARM1026EJ-S TRM (ARM DDI 0244): 4-128 KB, 4-way, 32-byte lines; 32 KB chosen; round-robin and read-allocate assumed" },
	{ "xscale", 32768, 32, 32, R_RR, AL_READ, 0, 0,
	  "Intel XScale Core Developer's Manual (273473) ch. 6: 32 KB, 32-way, 32-byte lines, round-robin, read-allocate for Linux's default write-back memory type; the 2 KB mini-data cache is not modelled; proc-xscale.S CACHESIZE 32768" },
	{ "xsc3", 32768, 4, 32, R_RR, AL_READ, 0, 0,
	  "third-generation XScale (proc-xsc3.S CACHESIZE 32768): 32 KB, 32-byte lines; 4-way, round-robin and read-allocate assumed; its L2 is not modelled" },
	{ "mohawk", 32768, 4, 32, R_RR, AL_READ, 0, 0,
	  "Marvell PJ1 (proc-mohawk.S CACHE_DLIMIT 32768, 32-byte lines): 32 KB; 4-way, round-robin and read-allocate assumed" },
	{ "feroceon", 16384, 4, 32, R_RR, AL_READ, 0, 0,
	  "Marvell Feroceon 88FR131 (Kirkwood): 16 KB, 4-way, 32-byte lines (proc-feroceon.S reads the geometry at boot); round-robin and read-allocate assumed" },
	{ "arm11mpcore", 32768, 4, 32, R_RANDOM, AL_WRITE, 0, 0,
	  "ARM11 MPCore TRM (ARM DDI 0360F): 16, 32 or 64 KB, 4-way, 32-byte lines; 32 KB chosen; write-allocate with the SMP memory type; replacement assumed pseudo-random" },
	{ "arm1176", 16384, 4, 32, R_RANDOM, AL_READ, 0, 0,
	  "ARM1176JZF-S TRM (ARM DDI 0301) ch. 7: 4-64 KB, 4-way, 8-word lines, pseudo-random or round-robin (CP15 c1 RR), read allocation only; 16 KB chosen (as on the Raspberry Pi 1's BCM2835)" },
	{ "arm1136", 16384, 4, 32, R_RANDOM, AL_READ, 0, 0,
	  "ARM1136JF-S: 4-64 KB, 4-way, 8-word lines (as pytorch/cpuinfo's src/arm/cache.c lists ARM11); 16 KB chosen (as on NXP's i.MX31); UP only, so the kernel's memory type is PMD_SECT_WB (read-allocate); replacement assumed pseudo-random; the ARM1176 row's geometry" },
	{ "cortex-a5", 32768, 4, 32, R_RANDOM, AL_WRITE, 0, 0,
	  "Cortex-A5 TRM (ARM DDI 0433) 7.1.1, as pytorch/cpuinfo's src/arm/cache.c quotes it: 4-way data cache, eight-word lines, 4-64 KB; 32 KB chosen; write-allocate with the SMP memory type (a Cortex-A5 MPCore); CTR built from the line length (DminLine 32 bytes); replacement assumed pseudo-random; its write streaming is not modelled (Notes); the Cortex-A9 row's geometry" },
	{ "cortex-a7", 32768, 4, 64, R_RANDOM, AL_WRITE, 0x84448003, 0x700fe01a,
	  "Cortex-A7 MPCore TRM (ARM DDI 0464D) 6.6.1: 4-way, 64-byte lines (set index from bit 6), size configured; 32 KB chosen; CTR 0x84448003 (as QEMU's cortex-a7 reports it, DminLine 64 bytes); CCSIDR computed from this geometry; replacement assumed pseudo-random" },
	{ "cortex-a8", 32768, 4, 64, R_RANDOM, AL_READ, 0x80048004, 0x700fe01a,
	  "Cortex-A8 TRM (ARM DDI 0344B) 3.2.3: CTR 0x80048004, 64-byte L1 data lines; 16 or 32 KB, 4-way, 32 KB chosen; CCSIDR computed from this geometry; replacement assumed pseudo-random; its integrated L2 (inner, cleaned by the same by-VA operations to PoC) is not modelled" },
	{ "cortex-a15", 32768, 2, 64, R_LRU, AL_WRITE, 0x8444c004, 0x701fe00a,
	  "Cortex-A15 MPCore TRM (ARM DDI 0438): 32 KB, 2-way, 64-byte lines, LRU; CTR 0x8444C004, CCSIDR 0x701FE00A" },
	{ "cortex-a9", 32768, 4, 32, R_RANDOM, AL_WRITE, 0x83338003, 0x701fe019,
	  "Cortex-A9 TRM (ARM DDI 0388): 16, 32 or 64 KB, 4-way, 32-byte lines, pseudo-random or round-robin; 32 KB chosen; CTR 0x83338003; CCSIDR 0x701FE019 encodes this size (it depends on the configured size)" },
	{ "cortex-a72", 32768, 2, 64, R_LRU, AL_WRITE, 0x8444c004, 0x701fe00a,
	  "Cortex-A72 MPCore TRM (ARM 100095): 32 KB, 2-way, 64-byte lines, LRU; CTR 0x8444C004, CCSIDR 0x701FE00A" },
	{ "cortex-m7", 16384, 4, 32, R_RANDOM, AL_WRITE, 0x8303c003, 0xf00fe019,
	  "Cortex-M7 TRM (ARM DDI 0489): 4-64 KB, 4-way, 32-byte lines; 16 KB chosen; write-allocate in the SRAM region's default memory map; CTR 0x8303C003, CCSIDR 0xF00FE019; replacement assumed pseudo-random" },
};

const struct core *core_find(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(cores) / sizeof(cores[0]); i++)
		if (!strcmp(cores[i].name, name))
			return &cores[i];
	return NULL;
}

void core_list(void)
{
	static const char *const repl[] = { "round-robin", "pseudo-random", "LRU" };
	size_t i;

	for (i = 0; i < sizeof(cores) / sizeof(cores[0]); i++) {
		const struct core *c = &cores[i];

		printf("%s|%u|%u|%u|%s|%s|%s|%s%s%s\n", c->name, c->size, c->ways,
		       c->line, repl[c->repl],
		       c->alloc == AL_WRITE ? "write" : "read",
		       c->ctr ? "yes" : "-", c->source,
		       stream_source(c->name) ? "; write streaming: " : "",
		       stream_source(c->name) ?: "");
	}
}

void cache_init(void)
{
	m.nslots = m.core->size / m.line;
	m.ways = m.core->ways;
	m.nsets = m.nslots / m.ways;
	if (!m.nsets || (m.nsets & (m.nsets - 1)) || m.nsets * m.ways * m.line != m.core->size)
		die("cache geometry: sets must be a power of two");
	m.tag = calloc(m.nslots, sizeof(*m.tag));
	m.valid = calloc(m.nslots, 1);
	m.dirty = calloc(m.nslots, 1);
	m.cdata = calloc(m.nslots, m.line);
	m.stamp = calloc(m.nslots, sizeof(*m.stamp));
	m.rr = calloc(m.nsets, sizeof(*m.rr));
	m.dram = calloc(WIN_SIZE, 1);
	if (!m.tag || !m.valid || !m.dirty || !m.cdata || !m.stamp || !m.rr || !m.dram)
		die("out of memory");
}

void cache_reset(void)
{
	uint32_t a;

	memset(m.valid, 0, m.nslots);
	memset(m.dirty, 0, m.nslots);
	memset(m.stamp, 0, m.nslots * sizeof(*m.stamp));
	memset(m.rr, 0, m.nsets * sizeof(*m.rr));
	m.tick = 0;
	m.lfsr = 0xace1u;	/* fixed seed: runs are reproducible */
	for (a = 0; a < WIN_SIZE; a++)
		m.dram[a] = stale(WIN_BASE + a);
	memset(&m.c, 0, sizeof(m.c));
	m.c.capacity = m.nslots;
	m.range_set = false;
	stream_reset();
}

static inline uint32_t line_addr(uint32_t a)
{
	return a & ~(m.line - 1);
}

static inline unsigned int set_of(uint32_t a)
{
	return (a >> m.lshift) & (m.nsets - 1);
}

int slot_of(uint32_t a)
{
	static unsigned int last;	/* checked on every use: no staleness */
	unsigned int s = set_of(a) * m.ways, w;
	uint32_t t = line_addr(a);

	if (last < m.nslots && m.valid[last] && m.tag[last] == t)
		return last;
	for (w = 0; w < m.ways; w++)
		if (m.valid[s + w] && m.tag[s + w] == t)
			return last = s + w;
	return -1;
}

static bool in_window(uint32_t a)
{
	if (a - WIN_BASE >= WIN_SIZE) {
		fail("memory access at 0x%08x, outside the modelled window", a);
		return false;
	}
	return true;
}

static void writeback(unsigned int s)
{
	next_write(m.tag[s], m.cdata + s * m.line, m.line);
	m.dirty[s] = 0;
}

static unsigned int victim(unsigned int set)
{
	unsigned int s = set * m.ways, w, best;

	for (w = 0; w < m.ways; w++)
		if (!m.valid[s + w])
			return s + w;
	switch (m.repl) {
	case R_RR:
		w = m.rr[set];
		m.rr[set] = (w + 1) % m.ways;
		return s + w;
	case R_RANDOM:
		/* 16-bit Fibonacci LFSR, taps 16 14 13 11 */
		m.lfsr = (m.lfsr >> 1) |
			 ((((m.lfsr >> 0) ^ (m.lfsr >> 2) ^ (m.lfsr >> 3) ^
			    (m.lfsr >> 5)) & 1) << 15);
		return s + m.lfsr % m.ways;
	case R_LRU:
		best = 0;
		for (w = 1; w < m.ways; w++)
			if (m.stamp[s + w] < m.stamp[s + best])
				best = w;
		return s + best;
	}
	return s;
}

/* allocate the line of A (not present), evicting a victim */
static unsigned int allocate(uint32_t a)
{
	unsigned int s = victim(set_of(a));

	if (m.valid[s] && m.dirty[s]) {
		writeback(s);
		m.c.natural++;
	}
	m.tag[s] = line_addr(a);
	next_read(line_addr(a), m.cdata + s * m.line, m.line);
	m.valid[s] = 1;
	m.dirty[s] = 0;
	return s;
}

static inline void touch(unsigned int s)
{
	m.stamp[s] = ++m.tick;
}

void slot_op(unsigned int s, enum lop op)
{
	if (!m.valid[s])
		return;
	if (op == L_INV && m.inv_as_flush)
		op = L_FLUSH;
	if (op != L_INV && m.dirty[s]) {
		writeback(s);
		m.c.wb++;
	}
	if (op != L_CLEAN) {
		if (m.dirty[s])
			m.c.discarded++;
		m.valid[s] = 0;
		m.dirty[s] = 0;
	}
}

void mva_op(uint32_t a, enum lop op)
{
	int s;

	if (!m.have_mva || a < m.last_mva)
		m.c.passes++;
	m.have_mva = true;
	m.last_mva = a;
	if (!in_window(a))
		return;
	s = slot_of(a);
	if (s >= 0)
		slot_op(s, op);
	/* the CPU may allocate the line again at once (speculation) */
	if (m.spec && m.in_map)
		spec_fill(a);
}

void all_op(enum lop op)
{
	unsigned int s;

	m.c.passes++;
	for (s = 0; s < m.nslots; s++)
		slot_op(s, op);
}

/* set/way format: set at the line offset, way in the top log2(ways) bits */
void set_op(uint32_t rt, enum lop op)
{
	unsigned int set = (rt >> m.lshift) & (m.nsets - 1), way = 0;

	if (!m.seen_sw)
		m.c.passes++;
	m.seen_sw = true;
	if (m.ways > 1)
		way = rt >> (32 - __builtin_ctz(m.ways));
	slot_op(set * m.ways + way, op);
}

void range_op(uint32_t lo, uint32_t top, enum lop op)
{
	uint32_t a;
	int s;

	if (!m.range_set) {
		fail("Feroceon range top without a range start");
		return;
	}
	m.range_set = false;
	m.c.passes++;
	m.have_mva = false;
	for (a = lo & ~(m.line - 1); a <= top; a += m.line) {
		if (!in_window(a))
			return;
		s = slot_of(a);
		if (s >= 0)
			slot_op(s, op);
	}
}

/* the first dirty line, for the test-and-clean loops */
int first_dirty(void)
{
	unsigned int s;

	for (s = 0; s < m.nslots; s++)
		if (m.valid[s] && m.dirty[s])
			return s;
	return -1;
}

void cpu_write(uint32_t a, uint8_t v)
{
	int s;

	if (!in_window(a))
		return;
	if (m.pol == P_NONE) {
		next_write(a, &v, 1);
		return;
	}
	s = slot_of(a);
	if (m.pol == P_WT) {
		next_write(a, &v, 1);
		if (s >= 0)
			m.cdata[s * m.line + (a & (m.line - 1))] = v;
		return;
	}
	/* a write miss goes to memory without write-allocate, or streaming */
	if (s < 0 && (m.alloc == AL_READ || stream_write_miss(a))) {
		stream_store(a);
		next_write(a, &v, 1);
		return;
	}
	stream_store(a);
	if (s < 0)
		s = allocate(a);
	touch(s);
	m.cdata[s * m.line + (a & (m.line - 1))] = v;
	m.dirty[s] = 1;
}

/* a CPU read: allocates on a miss */
uint8_t cpu_load(uint32_t a)
{
	int s;

	if (!in_window(a))
		return 0;
	if (m.pol == P_NONE)
		return next_peek(a);
	stream_load(a);
	s = slot_of(a);
	if (s < 0)
		s = allocate(a);
	touch(s);
	return m.cdata[s * m.line + (a & (m.line - 1))];
}

void cpu_touch(uint32_t a)
{
	cpu_load(a);
}

/* what a CPU read returns, without changing the cache */
uint8_t cpu_peek(uint32_t a)
{
	int s = slot_of(a);

	return s >= 0 ? m.cdata[s * m.line + (a & (m.line - 1))] :
			next_peek(a);
}

/*
 * A speculative fill of A's line if absent, into a free way only: the
 * adversary's choice, since a fill that evicted a dirty line would write
 * its data back and hide a loss.
 */
void spec_fill(uint32_t a)
{
	unsigned int s, w;

	if (m.pol == P_NONE || a - WIN_BASE >= WIN_SIZE || slot_of(a) >= 0)
		return;
	s = set_of(a) * m.ways;
	for (w = 0; w < m.ways; w++)
		if (!m.valid[s + w])
			break;
	if (w == m.ways)
		return;
	touch(allocate(a));
	m.c.specfill++;
}

unsigned int valid_lines(void)
{
	unsigned int s, n = 0;

	for (s = 0; s < m.nslots; s++)
		n += m.valid[s];
	return n;
}

unsigned long dirty_lines_in(uint32_t lo, uint32_t hi)
{
	unsigned int s;
	unsigned long n = 0;

	for (s = 0; s < m.nslots; s++)
		if (m.valid[s] && m.dirty[s] && m.tag[s] + m.line > lo &&
		    m.tag[s] < hi)
			n++;
	return n;
}
