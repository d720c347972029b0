// SPDX-License-Identifier: GPL-2.0
/*
 * cachemodel: execute a 32-bit ARM cache backend's compiled
 * dma_map_area/dma_unmap_area in Unicorn against the finite L1 data
 * cache of a modelled core (cache.c), backed by a separate DRAM array.
 * Scenarios put dirty or clean data in the cache, call
 * map(FROM_DEVICE), let the "device" write DRAM, call unmap and compare
 * what the CPU then reads with what it should read.
 *
 * Output: one line per scenario, "name key=value ...". main.c has the
 * options.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model.h"

struct model m;

/*
 * With --outer, map and unmap are sequences (--map-seq, --unmap-seq) of
 * "inner" (the backend's map or unmap area routine) and "outer_inv",
 * "outer_clean", "outer_flush" (the outer cache's compiled range
 * operations, outer.c names them): the order of __dma_page_cpu_to_dev() and
 * __dma_page_dev_to_cpu() in arch/arm/mm/dma-mapping.c, which
 * arch-arm/model/dmaseq.py reads from the tree's source. With
 * --dma-mapping, the ELF's compiled arch_sync_dma_for_device() and
 * arch_sync_dma_for_cpu() (dma-mapping.o) run them instead (dmamapping.c).
 */
#define MAX_SEQ	8
static const char *map_seq[MAX_SEQ], *unmap_seq[MAX_SEQ];
static unsigned int n_map_seq, n_unmap_seq;

static unsigned int parse_seq(char *arg, const char **seq)
{
	unsigned int n = 0;
	char *t;

	for (t = strtok(arg, ","); t; t = strtok(NULL, ",")) {
		if (n == MAX_SEQ)
			die("sequence too long");
		if (strcmp(t, "inner") && strcmp(t, "outer_inv") &&
		    strcmp(t, "outer_clean") && strcmp(t, "outer_flush"))
			die("unknown step in a sequence");
		seq[n++] = t;
	}
	return n;
}

/* --map-seq (UNMAP false) and --unmap-seq */
void set_seq(bool unmap, char *arg)
{
	if (unmap)
		n_unmap_seq = parse_seq(arg, unmap_seq);
	else
		n_map_seq = parse_seq(arg, map_seq);
}

bool have_seqs(void)
{
	return n_map_seq && n_unmap_seq;
}

/* run SEQ on [lo, lo + size): INNER is the backend's routine */
static bool run_seq(const char **seq, unsigned int n, uint32_t inner,
		    uint32_t lo, uint32_t size)
{
	unsigned int i;
	uint32_t a, fn;

	for (i = 0; i < n; i++) {
		if (!strcmp(seq[i], "inner"))
			fn = inner;
		else if (!strcmp(seq[i], "outer_inv"))
			fn = sym(m.l2->fn[0]);
		else if (!strcmp(seq[i], "outer_clean"))
			fn = sym(m.l2->fn[1]);
		else
			fn = sym(m.l2->fn[2]);
		if (fn == inner) {
			if (!call(fn, lo, size, DMA_FROM_DEVICE))
				return false;
		} else if (!call(fn, lo, lo + size, 0)) {
			return false;
		}
		/* the CPU may allocate lines between any two steps */
		if (m.spec && i + 1 < n)
			for (a = lo & ~(m.line - 1); a < lo + size; a += m.line)
				spec_fill(a);
	}
	return true;
}

/* ---------------------------------------------------------------- */
/* Scenarios                                                        */


/*
 * "warm": the buffer's lines were in the cache when the CPU wrote it
 * (read before, as a buffer that is reused), which a read-allocate cache
 * needs for a write to dirty a line at all.
 */
static const struct scenario scenarios[] = {
	{ "maponly", 0, 409600, true, false, 0, 0, 0, true },
	{ "short", 0, 409600, true, false, 1024, 600, 0, true },
	{ "unaligned", 13, 8152, true, true, 1024, 600, 0, true },
	{ "rt256", 0, 256, true, false, 0, 0, 0, true },
	{ "rt1m", 0, 1u << 20, true, false, 0, 0, 0, true },
	{ "rt1mclean", 0, 1u << 20, false, false, 0, 0, 0, true },
	/* the boards' test: 100 buffers of 4,096 bytes, each written, mapped */
	{ "boards100", 0, 4096, true, false, 0, 0, 100, false },
	{ "boards100warm", 0, 4096, true, false, 0, 0, 100, true },
};

static void print_counts(const char *name)
{
	const struct counts *c = &m.c;

	printf("%s lost=%lu exposed=%lu devwrong=%lu neigh=%lu inv=%lu clean=%lu flush=%lu whole=%lu setway=%lu range=%lu test=%lu barrier=%lu icache=%lu mem=%lu wb=%lu evicted=%lu discarded=%lu specfill=%lu insns=%lu passes=%lu natural=%lu dirtymap=%lu capacity=%lu\n",
	       name, c->lost, c->exposed, c->devwrong, c->neigh, c->inv,
	       c->clean, c->flush, c->whole, c->setway, c->range, c->test,
	       c->barrier, c->icache, c->mem, c->wb, c->evicted,
	       c->discarded, c->specfill, c->insns, c->passes, c->natural,
	       c->dirtymap, c->capacity);
	if (m.outer)
		printf("%s l2inv=%lu l2clean=%lu l2flush=%lu l2sync=%lu l2wb=%lu l2discarded=%lu l2natural=%lu l2evicted=%lu l2unaligned=%lu l2dirtymap=%lu l2capacity=%lu l2range=%lu\n",
		       name, c->l2inv, c->l2clean, c->l2flush, c->l2sync,
		       c->l2wb, c->l2discarded, c->l2natural, c->l2evicted,
		       c->l2unaligned, c->l2dirtymap, c->l2capacity,
		       c->l2range);
}

static bool run_one(const struct scenario *s, uint32_t lo, uint32_t map,
		    uint32_t unmap, uint8_t *want)
{
	struct dma_check k = dma_check(s, lo, m.line);
	uint32_t hi = k.hi, a;
	unsigned int sl;
	bool ok;

	dma_write_neighbours(&k, cpu_write);
	if (s->warm)
		for (a = lo; a < hi; a++)
			cpu_load(a);
	for (a = lo; a < hi; a++) {
		if (s->dirty)
			cpu_write(a, SENTINEL);
		else
			cpu_touch(a);
	}
	for (a = lo; a < hi; a++)
		want[a - WIN_BASE] = cpu_peek(a);
	m.c.dirtymap += dirty_lines_in(lo, hi);
	if (m.outer)
		m.c.l2dirtymap += l2_dirty_lines_in(lo, hi);

	m.in_map = true;
	m.span_lo = lo;
	m.span_size = s->size;
	m.step_seen = false;
	if (m.dma_mapping)
		ok = call(sym("arch_sync_dma_for_device"), lo, s->size, DMA_FROM_DEVICE);
	else if (m.outer)
		ok = run_seq(map_seq, n_map_seq, map, lo, s->size);
	else
		ok = call(map, lo, s->size, DMA_FROM_DEVICE);
	m.in_map = false;
	if (!ok)
		return false;
	/* the worst point: the CPU allocates (clean) lines before the device writes */
	if (m.spec)
		for (a = lo & ~(m.line - 1); a < hi; a += m.line)
			spec_fill(a);
	for (a = lo; a < hi; a++)
		if (dev_wrote(&k, a))
			m.dram[a - WIN_BASE] = devdata(a);
	/* worst case: every dirty line is evicted after the device wrote */
	if (m.evict)
		for (sl = 0; sl < m.nslots; sl++)
			if (m.valid[sl] && m.dirty[sl]) {
				next_write(m.tag[sl], m.cdata + sl * m.line, m.line);
				m.dirty[sl] = 0;
				m.valid[sl] = 0;
				m.c.evicted++;
			}
	/* and the L2's, the L1's among them, after them */
	if (m.evict && m.outer)
		l2_evict_dirty();
	m.step_seen = false;
	if (m.dma_mapping)
		ok = call(sym("arch_sync_dma_for_cpu"), lo, s->size, DMA_FROM_DEVICE);
	else if (m.outer)
		ok = run_seq(unmap_seq, n_unmap_seq, unmap, lo, s->size);
	else
		ok = call(unmap, lo, s->size, DMA_FROM_DEVICE);
	if (!ok)
		return false;

	for (a = k.nlo; a < k.nhi; a++)
		dma_count(dma_verdict(&k, a, cpu_peek(a), want + (lo - WIN_BASE)),
			  &m.c.lost, &m.c.exposed, &m.c.devwrong, &m.c.neigh);
	return true;
}

bool run(const struct scenario *s, uint32_t map, uint32_t unmap)
{
	uint8_t *want = malloc(WIN_SIZE);
	unsigned int k, reps = s->reps ? s->reps : 1;
	bool ok = true;

	if (!want)
		die("out of memory");
	if (s->off + reps * s->size + BUF_BASE - WIN_BASE + 256 > WIN_SIZE)
		die("scenario does not fit in the modelled window");
	cache_reset();
	if (m.outer)
		l2_reset();
	for (k = 0; k < reps && ok; k++)
		ok = run_one(s, BUF_BASE + s->off + k * s->size, map, unmap, want);
	free(want);
	return dma_result(ok, s->name, m.err, print_counts);
}

/* every scenario, or those named in ONLY, with the routines MAP, UNMAP */
bool run_scenarios(uint32_t map, uint32_t unmap, const char *const *only,
		   int nonly)
{
	unsigned int i;
	bool ok = true;

	for (i = 0; i < ARRAY_SIZE(scenarios); i++) {
		int j;
		bool want = !nonly;

		for (j = 0; j < nonly; j++)
			if (!strcmp(only[j], scenarios[i].name))
				want = true;
		if (want && !run(&scenarios[i], map, unmap))
			ok = false;
	}
	return ok;
}
