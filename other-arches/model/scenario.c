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
};

static void print_counts(const char *name)
{
	const struct counts *c = &m.c;

	printf("%s lost=%lu exposed=%lu devwrong=%lu neigh=%lu inv=%lu clean=%lu flush=%lu index=%lu page=%lu all=%lu l2=%lu barrier=%lu icache=%lu mem=%lu wb=%lu evicted=%lu discarded=%lu specfill=%lu insns=%lu passes=%lu\n",
	       name, c->lost, c->exposed, c->devwrong, c->neigh, c->inv,
	       c->clean, c->flush, c->index, c->page, c->all, c->l2,
	       c->barrier, c->icache, c->mem, c->wb, c->evicted,
	       c->discarded, c->specfill, c->insns, c->passes);
}

static bool run_one(const struct scenario *s, uint32_t lo, uint32_t map,
		    uint32_t unmap, uint8_t *want)
{
	struct dma_check k = dma_check(s, lo, m.line);
	uint32_t hi = k.hi, a;
	unsigned int i;

	dma_write_neighbours(&k, cpu_write);
	for (a = lo; a < hi; a++) {
		if (s->dirty)
			cpu_write(a, SENTINEL);
		else
			cpu_touch(a);
		want[a - m.win] = cpu_read(a);
	}
	if (!call(map, lo - m.arg_off, s->size, DMA_FROM_DEVICE))
		return false;
	if (m.spec)
		for (i = (lo - m.win) >> m.lshift; i <= (hi - 1 - m.win) >> m.lshift; i++)
			if (!m.valid[i]) {
				l_fill(i);
				m.c.specfill++;
			}
	for (a = lo; a < hi; a++)
		if (dev_wrote(&k, a))
			m.dram[a - m.win] = devdata(a);
	if (m.evict)
		for (i = 0; i < m.nlines; i++)
			if (m.valid[i] && m.dirty[i]) {
				memcpy(m.dram + i * m.line, m.cdata + i * m.line, m.line);
				m.dirty[i] = 0;
				m.valid[i] = 0;
				m.c.evicted++;
			}
	if (unmap && !call(unmap, lo - m.arg_off, s->size, DMA_FROM_DEVICE))
		return false;
	for (a = k.nlo; a < k.nhi; a++)
		dma_count(dma_verdict(&k, a, cpu_read(a), want + (lo - m.win)),
			  &m.c.lost, &m.c.exposed, &m.c.devwrong, &m.c.neigh);
	return true;
}

static bool run(const struct scenario *s, uint32_t map, uint32_t unmap)
{
	uint8_t *want = malloc(WIN_SIZE);
	unsigned int k, reps = s->reps ? s->reps : 1;
	bool ok = true;

	if (!want)
		die("out of memory");
	if (s->off + reps * s->size + BUF_OFF + 256 > WIN_SIZE)
		die("scenario does not fit in the modelled window");
	model_reset();
	for (k = 0; k < reps && ok; k++)
		ok = run_one(s, m.win + BUF_OFF + s->off + k * s->size, map, unmap, want);
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
		if (want && !run(&scenarios[i], sym(map), unmap ? sym(unmap) : 0))
			ok = false;
	}
	return ok;
}

/*
 * Self-test: dirty 8 lines, call FN(addr, 4 lines, DIR) on the first 4
 * (with WHAT_page, a page: 2 pages dirtied, FN called on the first;
 * with WHAT_all, the operation must reach all 8 lines)
 * (addr is the window address minus --arg-off, or the window address
 * itself with "va:"), and check what the cache then holds: "inv" lines
 * invalid and their data discarded, "flush" written back and invalid,
 * "clean" written back and still valid; the other 4 lines untouched.
 */
bool selftest(const char *spec)
{
	char what[16], fn[128];
	unsigned int dir = 0, i, first, n = 4, bad = 0;
	uint32_t lo, a, arg;
	bool va = false, all = false;

	if (sscanf(spec, "%15[^:]:%127[^:]:%u", what, fn, &dir) < 2)
		die("--selftest wants WHAT:FUNCTION[:DIR]");
	if (!strncmp(fn, "va=", 3)) {
		va = true;
		memmove(fn, fn + 3, strlen(fn + 2));
	}
	model_reset();
	lo = m.win + BUF_OFF + 8192;
	if (strstr(what, "_page")) {
		n = 4096 / m.line;
		*strstr(what, "_page") = 0;
	}
	if (strstr(what, "_all")) {
		all = true;
		*strstr(what, "_all") = 0;
	}
	for (a = lo; a < lo + 2 * n * m.line; a++)
		cpu_write(a, SENTINEL);
	arg = va ? lo : lo - m.arg_off;
	if (!call(sym(fn), arg, n * m.line, dir)) {
		printf("not ok selftest_%s_%s # %s\n", what, fn, m.err);
		m.err[0] = 0;
		return false;
	}
	first = (lo - m.win) >> m.lshift;
	for (i = first; i < first + 2 * n; i++) {
		bool in = all || i < first + n, ok;

		if (!in || !strcmp(what, "none"))
			ok = m.valid[i] && m.dirty[i];
		else if (!strcmp(what, "inv"))
			ok = !m.valid[i] && m.dram[i * m.line] == stale(m.win + i * m.line);
		else if (!strcmp(what, "clean"))
			ok = m.valid[i] && !m.dirty[i] && m.dram[i * m.line] == SENTINEL;
		else	/* flush */
			ok = !m.valid[i] && m.dram[i * m.line] == SENTINEL;
		bad += !ok;
	}
	printf("%sok selftest_%s%s_%s # %u of %u lines wrong\n", bad ? "not " : "",
	       what, all ? "_all" : "", fn, bad, 2 * n);
	return !bad;
}
