// SPDX-License-Identifier: GPL-2.0
/*
 * The finite L1 data cache of cachemodel: sets x ways x lines with the
 * geometry, replacement and allocation policy of one modelled core
 * (cores.c).
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
#include "victim.h"
#include "model.h"

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
	unsigned int s = set * m.ways, w;
	int free = first_invalid_way(m.valid + s, m.ways);

	if (free >= 0)
		return s + free;
	switch (m.repl) {
	case R_RR:
		w = m.rr[set];
		m.rr[set] = (w + 1) % m.ways;
		return s + w;
	case R_RANDOM:
		m.lfsr = lfsr16_next(m.lfsr);
		return s + m.lfsr % m.ways;
	case R_LRU:
		return s + lru_way(m.stamp + s, m.ways);
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
		/* a map's invalidate of data that is not the buffer's */
		if (m.dirty[s] && m.in_map && (m.tag[s] + m.line <= m.span_lo ||
					       m.tag[s] >= m.span_lo + m.span_size))
			m.c.foreign++;
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
