// SPDX-License-Identifier: GPL-2.0
/*
 * dmamodel's scenarios (those of the ARM model, arch-arm/model/
 * cachemodel.c, with its checks from tools/include/dmacheck.h) and its
 * self-tests of the decoding of each cache instruction.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dmamodel.h"

static const struct scenario scenarios[] = {
	{ "maponly", 0, 409600, true, false, 0, 0, 0, false },
	{ "short", 0, 409600, true, false, 1024, 600, 0, false },
	{ "unaligned", 13, 8152, true, true, 1024, 600, 0, false },
	/* the device writes all of it: a line the map missed shows */
	{ "unalignedfull", 13, 8152, true, true, 1024, 1024, 0, false },
	{ "rt256", 0, 256, true, false, 0, 0, 0, false },
	{ "rt1m", 0, 1u << 20, true, false, 0, 0, 0, false },
	{ "rt1mclean", 0, 1u << 20, false, false, 0, 0, 0, false },
	{ "boards100", 0, 4096, true, false, 0, 0, 100, false },
	/* sizes below the MIPS data cache, where r4k uses hit operations */
	{ "short4k", 0, 4096, true, false, 1024, 600, 0, false },
	/* with rt1m, the sizes of the cost table */
	{ "rt4k", 0, 4096, true, false, 0, 0, 0, false },
	{ "rt64k", 0, 65536, true, false, 0, 0, 0, false },
	/*
	 * 4 KiB from the middle of an 8 KiB block: its sets wrap round the
	 * end of one way of a ColdFire's 32 KiB cache
	 */
	{ "short4kwrap", 6144, 4096, true, true, 1024, 600, 0, false },
	/*
	 * DMA_BIDIRECTIONAL (the names that start with "bidir"): the
	 * device reads the buffer and writes part of it. bidir: the CPU
	 * wrote it; the device must read the CPU's bytes at map (devstale
	 * counts those it would not), and after unmap the CPU must see the
	 * device's bytes where it wrote and its own elsewhere. bidirstale:
	 * the CPU read it (clean lines), the device writes all of it: a
	 * line left valid after map is read instead of the device's data
	 * (devwrong).
	 */
	{ "bidir", 0, 4096, true, true, 1024, 600, 0, false },
	{ "bidirstale", 0, 4096, false, true, 1024, 1024, 0, false },
	/*
	 * DMA_TO_DEVICE (the names that start with "to"): the CPU wrote the
	 * buffer, the device reads it at map (devstale counts the bytes it
	 * would not read as the CPU wrote them) and writes nothing
	 */
	{ "to256", 0, 256, true, false, 0, 0, 0, false },
	{ "to4k", 0, 4096, true, false, 0, 0, 0, false },
	{ "to64k", 0, 65536, true, false, 0, 0, 0, false },
};

#define DMA_BIDIRECTIONAL	0
#define DMA_TO_DEVICE		1

static unsigned int dir_of(const struct scenario *s)
{
	if (!strncmp(s->name, "to", 2))
		return DMA_TO_DEVICE;
	return strncmp(s->name, "bidir", 5) ? DMA_FROM_DEVICE : DMA_BIDIRECTIONAL;
}

static void print_counts(const char *name)
{
	const struct counts *c = &m.c;

	printf("%s lost=%lu exposed=%lu devwrong=%lu neigh=%lu", name, c->lost,
	       c->exposed, c->devwrong, c->neigh);
	printf(" inv=%lu clean=%lu flush=%lu index=%lu page=%lu all=%lu l2=%lu",
	       c->inv, c->clean, c->flush, c->index, c->page, c->all, c->l2);
	printf(" barrier=%lu icache=%lu mem=%lu wb=%lu evicted=%lu discarded=%lu",
	       c->barrier, c->icache, c->mem, c->wb, c->evicted, c->discarded);
	printf(" specfill=%lu insns=%lu passes=%lu natural=%lu", c->specfill,
	       c->insns, c->passes, c->natural);
	printf(" dirtymap=%lu maplost=%lu mapwb=%lu capacity=%u devstale=%lu\n",
	       c->dirtymap, c->maplost, c->mapwb, m.nslots * m.line, c->devstale);
}

static void most(unsigned long *max, unsigned long v)
{
	if (v > *max)
		*max = v;
}

/*
 * One buffer of scenario S at LO: the CPU writes it (or reads it), the
 * code maps it, the device writes its part, dirty lines are evicted over
 * it (the worst case), the code unmaps it, and each byte is judged.
 */
static bool run_one(const struct scenario *s, uint32_t lo, uint32_t map,
		    uint32_t unmap, uint8_t *want, unsigned int dir)
{
	struct dma_check k = dma_check(s, lo, m.line);
	unsigned long lost = m.c.lost, wb;
	uint32_t hi = k.hi, a;

	dma_write_neighbours(&k, cpu_write);
	for (a = lo; a < hi; a++) {
		if (s->dirty)
			cpu_write(a, SENTINEL);
		else
			cpu_load(a);
		want[a - m.win] = cpu_peek(a);
	}
	most(&m.c.dirtymap, dirty_lines_in(lo, hi));
	wb = m.c.wb;
	if (!call(map, lo - m.arg_off, s->size, dir))
		return false;
	/* what the device reads: memory, which must hold the CPU's bytes */
	if (dir != DMA_FROM_DEVICE)
		for (a = lo; a < hi; a++)
			m.c.devstale += m.dram[a - m.win] != want[a - m.win];
	if (m.spec)
		for (a = lo & ~(m.line - 1); a < hi; a += m.line)
			spec_fill(a);
	for (a = lo; a < hi; a++)
		if (dev_wrote(&k, a))
			m.dram[a - m.win] = devdata(a);
	if (m.evict)
		evict_all();
	if (unmap && !call(unmap, lo - m.arg_off, s->size, dir))
		return false;
	most(&m.c.mapwb, m.c.wb - wb);
	for (a = k.nlo; a < k.nhi; a++)
		dma_count(dma_verdict(&k, a, cpu_peek(a), want + (lo - m.win)),
			  &m.c.lost, &m.c.exposed, &m.c.devwrong, &m.c.neigh);
	most(&m.c.maplost, m.c.lost - lost);
	return true;
}

static bool run(const struct scenario *s, uint32_t map, uint32_t unmap,
		unsigned int dir)
{
	uint8_t *want = malloc(WIN_SIZE);
	unsigned int k, reps = s->reps ? s->reps : 1;
	bool ok = true;

	if (!want)
		die("out of memory");
	if (s->off + reps * s->size + BUF_OFF + 256 > WIN_SIZE)
		die("scenario does not fit in the modelled window");
	cache_reset();
	for (k = 0; k < reps && ok; k++)
		ok = run_one(s, m.win + BUF_OFF + s->off + k * s->size, map, unmap, want,
			     dir);
	free(want);
	return dma_result(ok, s->name, m.err, print_counts);
}

/* every scenario, or those named in ONLY, with the functions MAP, UNMAP */
bool run_scenarios(const char *map, const char *unmap,
		   const char *const *only, unsigned int nonly)
{
	unsigned int i, j;
	bool ok = true;

	for (i = 0; i < ARRAY_SIZE(scenarios); i++) {
		bool want = !nonly;

		for (j = 0; j < nonly; j++)
			if (!strcmp(only[j], scenarios[i].name))
				want = true;
		if (want && !run(&scenarios[i], sym(map), unmap ? sym(unmap) : 0,
				 dir_of(&scenarios[i])))
			ok = false;
	}
	return ok;
}

/*
 * Self-test: the CPU dirties 2 * N lines (N = 4; with WHAT_page, N lines
 * a page: 2 pages), FN(addr, N lines, DIR) is called on the first N
 * (addr is the window address minus --arg-off, or the window address
 * itself with "va:"), and each line is checked: "inv" gone and its data
 * discarded, "flush" written back and gone, "clean" written back and
 * still there; the other N untouched (with WHAT_all, the operation must
 * reach all 2 * N). Where the cache holds fewer than 2 * N lines, only
 * the last half of it before the end of the first N and the first half
 * after it are dirtied: the cache holds them all, the edge is checked.
 */
bool selftest(const char *spec)
{
	char what[16], fn[128];
	unsigned int dir = 0, i, n = 4, k, bad = 0;
	uint32_t lo, a, arg;
	bool va = false, all = false;
	int s;

	if (sscanf(spec, "%15[^:]:%127[^:]:%u", what, fn, &dir) < 2)
		die("--selftest wants WHAT:FUNCTION[:DIR]");
	if (!strncmp(fn, "va=", 3)) {
		va = true;
		memmove(fn, fn + 3, strlen(fn + 2));
	}
	cache_reset();
	lo = m.win + BUF_OFF + 8192;
	if (strstr(what, "_page")) {
		n = 4096 / m.line;
		*strstr(what, "_page") = 0;
	}
	if (strstr(what, "_all")) {
		all = true;
		*strstr(what, "_all") = 0;
	}
	k = n < m.nslots / 2 ? n : m.nslots / 2;
	for (a = lo + (n - k) * m.line; a < lo + (n + k) * m.line; a++)
		cpu_write(a, SENTINEL);
	arg = va ? lo : lo - m.arg_off;
	if (!call(sym(fn), arg, n * m.line, dir)) {
		printf("not ok selftest_%s_%s # %s\n", what, fn, m.err);
		m.err[0] = 0;
		return false;
	}
	for (i = n - k; i < n + k; i++) {
		bool in = all || i < n, ok;

		a = lo + i * m.line;
		s = slot_of(a);
		if (!in || !strcmp(what, "none"))
			ok = s >= 0 && m.dirty[s];
		else if (!strcmp(what, "inv"))
			ok = s < 0 && m.dram[a - m.win] == stale(a);
		else if (!strcmp(what, "clean"))
			ok = s >= 0 && !m.dirty[s] && m.dram[a - m.win] == SENTINEL;
		else	/* flush */
			ok = s < 0 && m.dram[a - m.win] == SENTINEL;
		bad += !ok;
	}
	printf("%sok selftest_%s%s_%s # %u of %u lines wrong\n", bad ? "not " : "",
	       what, all ? "_all" : "", fn, bad, 2 * k);
	return !bad;
}
