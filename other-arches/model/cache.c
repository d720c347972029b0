// SPDX-License-Identifier: GPL-2.0
/*
 * dmamodel's data cache: finite, with the geometry of the modelled core
 * (--size, --ways, --line: tables.py's CACHES, with its sources), over a
 * separate array for the memory of the modelled window.
 *
 * A read miss allocates a line; a write miss allocates one in a
 * write-back cache that allocates on writes (--alloc write), and goes
 * to memory otherwise, as every store does in a write-through cache
 * (--write-through). Allocating into a full set takes the way the
 * core's replacement picks (--repl: LRU, pseudo-random, round-robin),
 * after any invalid way; a dirty victim is written back (counted as
 * natural), not lost. So the cache holds at most SIZE bytes of what the
 * CPU wrote, and a map can only lose what it holds. Operations by
 * address act on the line if it is present, by set and way on that
 * slot, on the whole cache on every line.
 */

#include <stdlib.h>
#include <string.h>
#include "victim.h"
#include "dmamodel.h"

void cache_init(void)
{
	m.nslots = m.size / m.line;
	m.nsets = m.ways ? m.nslots / m.ways : 0;
	m.lshift = __builtin_ctz(m.line);
	if (!m.nsets || (m.nsets & (m.nsets - 1)) || m.nsets * m.ways * m.line != m.size ||
	    m.nslots > MAX_SLOTS)
		die("cache geometry: SIZE / (WAYS * LINE) sets, a power of two");
	m.tag = calloc(m.nslots, sizeof(*m.tag));
	m.valid = calloc(m.nslots, 1);
	m.dirty = calloc(m.nslots, 1);
	m.cdata = calloc(m.nslots, m.line);
	m.stamp = calloc(m.nslots, sizeof(*m.stamp));
	m.dram = calloc(WIN_SIZE, 1);
	if (!m.tag || !m.valid || !m.dirty || !m.cdata || !m.stamp || !m.dram)
		die("out of memory");
}

/* an empty cache over memory that holds stale data, and no counts */
void cache_reset(void)
{
	uint32_t a;

	memset(m.valid, 0, m.nslots);
	memset(m.dirty, 0, m.nslots);
	memset(m.stamp, 0, m.nslots * sizeof(*m.stamp));
	m.tick = 0;
	m.rr = 0;
	m.lfsr = 0xace1u;	/* fixed seed: runs are reproducible */
	for (a = 0; a < WIN_SIZE; a++)
		m.dram[a] = stale(m.win + a);
	memset(&m.c, 0, sizeof(m.c));
}

static inline uint32_t line_addr(uint32_t a)
{
	return a & ~(m.line - 1);
}

static inline unsigned int set_of(uint32_t a)
{
	return (a >> m.lshift) & (m.nsets - 1);
}

static inline uint8_t *mem(uint32_t a)
{
	return m.dram + (a - m.win);
}

/* the slot that holds A's line, or -1 */
int slot_of(uint32_t a)
{
	unsigned int s = set_of(a) * m.ways, w;

	for (w = 0; w < m.ways; w++)
		if (m.valid[s + w] && m.tag[s + w] == line_addr(a))
			return s + w;
	return -1;
}

static void writeback(unsigned int s)
{
	memcpy(mem(m.tag[s]), m.cdata + s * m.line, m.line);
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
		/* one pointer for the cache, advanced on each replacement */
		w = m.rr;
		m.rr = (w + 1) % m.ways;
		return s + w;
	case R_RANDOM:
		m.lfsr = lfsr16_next(m.lfsr);
		return s + m.lfsr % m.ways;
	case R_LRU:
		return s + lru_way(m.stamp + s, m.ways);
	}
	return s;
}

/* allocate the line of A (not present): a dirty victim is written back */
static unsigned int allocate(uint32_t a)
{
	unsigned int s = victim(set_of(a));

	if (m.valid[s] && m.dirty[s]) {
		writeback(s);
		m.c.natural++;
	}
	m.tag[s] = line_addr(a);
	memcpy(m.cdata + s * m.line, mem(line_addr(a)), m.line);
	m.valid[s] = 1;
	m.dirty[s] = 0;
	return s;
}

static inline void touch(unsigned int s)
{
	m.stamp[s] = ++m.tick;
}

static void slot_op(unsigned int s, enum lop op)
{
	if (!m.valid[s])
		return;
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

void count(enum lop op)
{
	if (op == L_INV)
		m.c.inv++;
	else if (op == L_CLEAN)
		m.c.clean++;
	else
		m.c.flush++;
}

/* a hit operation on the lines of A's LEN-byte aligned block */
void hit_op(uint32_t a, unsigned int len, enum lop op)
{
	uint32_t lo = a & ~(len - 1), x;
	int s;

	if (a - m.win >= WIN_SIZE) {
		fail("cache operation on 0x%08x, outside the modelled window", a);
		return;
	}
	if (!m.have_last || a < m.last)
		m.c.passes++;
	m.have_last = true;
	m.last = a;
	count(op);
	for (x = lo; x < lo + len; x += m.line) {
		s = x - m.win < WIN_SIZE ? slot_of(x) : -1;
		if (s >= 0)
			slot_op(s, op);
	}
}

/* an index operation: the line in WAY of SET, whatever it holds */
void index_op(unsigned int set, unsigned int way, enum lop op)
{
	m.c.index++;
	if (set == 0 && way == 0)
		m.c.passes++;
	slot_op((set & (m.nsets - 1)) * m.ways + (way & (m.ways - 1)), op);
}

void all_op(enum lop op)
{
	unsigned int s;

	m.c.all++;
	m.c.passes++;
	for (s = 0; s < m.nslots; s++)
		slot_op(s, op);
}

void cpu_write(uint32_t a, uint8_t v)
{
	int s = slot_of(a);

	if (m.wt || (s < 0 && !m.walloc)) {
		if (s >= 0)
			m.cdata[s * m.line + (a & (m.line - 1))] = v;
		*mem(a) = v;
		return;
	}
	if (s < 0)
		s = allocate(a);
	touch(s);
	m.cdata[s * m.line + (a & (m.line - 1))] = v;
	m.dirty[s] = 1;
}

/* a CPU load: allocates on a miss */
uint8_t cpu_load(uint32_t a)
{
	int s = slot_of(a);

	if (s < 0)
		s = allocate(a);
	touch(s);
	return m.cdata[s * m.line + (a & (m.line - 1))];
}

/* what a CPU load returns, without changing the cache */
uint8_t cpu_peek(uint32_t a)
{
	int s = slot_of(a);

	return s >= 0 ? m.cdata[s * m.line + (a & (m.line - 1))] : *mem(a);
}

/*
 * A speculative fill of A's line if absent, into a free way only: the
 * adversary's choice, since a fill that evicted a dirty line would write
 * it back and could only hide a loss.
 */
void spec_fill(uint32_t a)
{
	unsigned int s = set_of(a) * m.ways, w;

	if (slot_of(a) >= 0)
		return;
	for (w = 0; w < m.ways; w++)
		if (!m.valid[s + w])
			break;
	if (w == m.ways)
		return;
	touch(allocate(a));
	m.c.specfill++;
}

/* every dirty line evicted, written back over what is in memory */
void evict_all(void)
{
	unsigned int s;

	for (s = 0; s < m.nslots; s++)
		if (m.valid[s] && m.dirty[s]) {
			writeback(s);
			m.valid[s] = 0;
			m.c.evicted++;
		}
}

/* the dirty lines of [LO, HI) in the cache */
unsigned long dirty_lines_in(uint32_t lo, uint32_t hi)
{
	unsigned long n = 0;
	unsigned int s;

	for (s = 0; s < m.nslots; s++)
		n += m.valid[s] && m.dirty[s] && m.tag[s] + m.line > lo && m.tag[s] < hi;
	return n;
}
