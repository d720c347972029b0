// SPDX-License-Identifier: GPL-2.0
/*
 * dmamodel's data cache: one line per line of the modelled window, over
 * a separate DRAM array, write-back or (--write-through) write-through
 * without allocation on a store; hit, index and whole-cache operations,
 * and the CPU's loads and stores through it.
 */

#include <string.h>
#include "dmamodel.h"

void l_fill(unsigned int i)
{
	memcpy(m.cdata + i * m.line, m.dram + i * m.line, m.line);
	m.valid[i] = 1;
	m.dirty[i] = 0;
}

static void l_clean(unsigned int i)
{
	if (m.valid[i] && m.dirty[i]) {
		memcpy(m.dram + i * m.line, m.cdata + i * m.line, m.line);
		m.dirty[i] = 0;
		m.c.wb++;
	}
}

static void l_inv(unsigned int i)
{
	if (m.valid[i] && m.dirty[i])
		m.c.discarded++;
	m.valid[i] = 0;
	m.dirty[i] = 0;
}


static void l_op(unsigned int i, enum lop op)
{
	if (op != L_INV)
		l_clean(i);
	if (op != L_CLEAN)
		l_inv(i);
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

/* a hit operation on the line of A (LEN bytes from its aligned start) */
void hit_op(uint32_t a, unsigned int len, enum lop op)
{
	uint32_t lo = a & ~(len - 1), x;

	if (a - m.win >= WIN_SIZE) {
		fail("cache operation on 0x%08x, outside the modelled window", a);
		return;
	}
	if (!m.have_last || a < m.last)
		m.c.passes++;
	m.have_last = true;
	m.last = a;
	count(op);
	for (x = lo; x < lo + len; x += m.line)
		if (x - m.win < WIN_SIZE)
			l_op((x - m.win) >> m.lshift, op);
}

/* an index operation: every modelled line of that set */
void index_op(uint32_t a, unsigned int sets, unsigned int line,
		     enum lop op)
{
	unsigned int set = (a / line) & (sets - 1), i;
	uint32_t x;

	m.c.index++;
	if (set == 0)
		m.c.passes++;
	for (x = m.win + set * line; x - m.win < WIN_SIZE; x += sets * line)
		for (i = 0; i < line; i += m.line)
			l_op((x + i - m.win) >> m.lshift, op);
}

void all_op(enum lop op)
{
	unsigned int i;

	m.c.all++;
	m.c.passes++;
	for (i = 0; i < m.nlines; i++)
		l_op(i, op);
}

void cpu_write(uint32_t a, uint8_t v)
{
	unsigned int i = (a - m.win) >> m.lshift;

	if (m.wt) {
		if (m.valid[i])
			m.cdata[a - m.win] = v;
		m.dram[a - m.win] = v;
		return;
	}
	if (!m.valid[i])
		l_fill(i);
	m.cdata[a - m.win] = v;
	m.dirty[i] = 1;
}

void cpu_touch(uint32_t a)
{
	unsigned int i = (a - m.win) >> m.lshift;

	if (!m.valid[i])
		l_fill(i);
}

uint8_t cpu_read(uint32_t a)
{
	unsigned int i = (a - m.win) >> m.lshift;

	return m.valid[i] ? m.cdata[a - m.win] : m.dram[a - m.win];
}

void model_reset(void)
{
	uint32_t a;

	memset(m.valid, 0, m.nlines);
	memset(m.dirty, 0, m.nlines);
	for (a = 0; a < WIN_SIZE; a++)
		m.dram[a] = stale(m.win + a);
	memset(&m.c, 0, sizeof(m.c));
}
