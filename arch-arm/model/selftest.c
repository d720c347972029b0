// SPDX-License-Identifier: GPL-2.0
/*
 * cachemodel's self-tests: the decoder on known sequences (selftest.S),
 * eviction and speculation on synthetic map/unmap pairs, and each core's
 * CTR/CCSIDR against its geometry. "ok N name" lines.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model.h"

/* ---------------------------------------------------------------- */
/* Self-tests of the model itself                                   */

static int st_num;
bool st_ok = true;

static void st(bool ok, const char *name)
{
	printf("%s %d %s\n", ok ? "ok" : "not ok", ++st_num, name);
	if (!ok)
		st_ok = false;
}


static void dirty_range(uint32_t lo, uint32_t n)
{
	uint32_t a;

	for (a = lo; a < lo + n; a++) {
		cpu_load(a);	/* allocated on read-allocate cores too */
		cpu_write(a, SENTINEL);
	}
}

void selftest_arm(void)
{
	bool ok;

	cache_reset();
	dirty_range(BUF_BASE, 4 * m.line);
	ok = call(sym("st_decode"), BUF_BASE, BUF_BASE + m.line, 0);
	st(ok && m.c.inv == 2 && m.c.clean == 2 && m.c.flush == 2 &&
	   m.c.barrier == 1 && m.c.icache == 1 && m.c.wb == 2 &&
	   m.c.discarded == 1, "decode_mva_ops_and_condition");
	st(ok && reg(UC_ARM_REG_R1) == m.ctr, "decode_ctr_read");

	cache_reset();
	dirty_range(BUF_BASE, 4 * m.line);
	ok = call(sym("st_range"), BUF_BASE, BUF_BASE + 2 * m.line - 1, 0);
	st(ok && m.c.range == 1 && m.c.wb == 2 && slot_of(BUF_BASE) < 0 &&
	   slot_of(BUF_BASE + 2 * m.line) >= 0 && m.dirty[slot_of(BUF_BASE + 2 * m.line)], "decode_feroceon_range");

	cache_reset();
	dirty_range(BUF_BASE, 5 * m.line);
	ok = call(sym("st_test_clean"), 0, 0, 0);
	if (!ok || m.c.test != 6)
		printf("# test=%lu wb=%lu err=%s\n", m.c.test, m.c.wb, m.err);
	st(ok && m.c.test == 6 && m.c.wb == 5 && first_dirty() < 0 &&
	   valid_lines() == 0, "decode_test_clean_invalidate_loop");

	cache_reset();
	dirty_range(BUF_BASE, 4 * m.line);
	ok = call(sym("st_setway"), m.line, m.nsets, 0);
	st(ok && m.c.setway == m.nsets && m.c.wb == 4 && first_dirty() < 0 &&
	   valid_lines() == 0, "decode_set_way_traversal");

	cache_reset();
	ok = call(sym("st_unknown"), BUF_BASE, 0, 0);
	st(!ok && strstr(m.err, "unknown cache operation"),
	   "unknown_cache_op_fails_loudly");
	m.err[0] = 0;

	cache_reset();
	ok = call(sym("st_other_cp"), BUF_BASE, 0, 0);
	st(!ok && strstr(m.err, "not modelled"), "unknown_coprocessor_fails_loudly");
	m.err[0] = 0;

	cache_reset();
	ok = call(sym("st_unknown_cond"), BUF_BASE, 0, 0);
	st(!ok && strstr(m.err, "unknown cache operation"),
	   "unknown_cache_op_fails_loudly_when_condition_fails");
	m.err[0] = 0;

	cache_reset();
	ok = call(sym("st_mcr2"), BUF_BASE, 0, 0);
	st(!ok && strstr(m.err, "unconditional coprocessor"),
	   "unconditional_mcr2_fails_loudly");
	m.err[0] = 0;

	cache_reset();
	cpu_load(BUF_BASE);	/* the line is present: the store hits */
	ok = call(sym("st_mem"), BUF_BASE, 0, 0);
	st(ok && cpu_peek(BUF_BASE + 4) == 0x5a && slot_of(BUF_BASE) >= 0 && m.dirty[slot_of(BUF_BASE)] &&
	   m.c.mem == 2, "kernel_loads_and_stores_go_through_the_cache");
}

void selftest_thumb(void)
{
	bool ok;

	cache_reset();
	dirty_range(BUF_BASE, 4 * m.line);
	ok = call(sym("st_thumb_it"), BUF_BASE, 0, 0);
	if (!ok || m.c.flush != 1)
		printf("# inv=%lu flush=%lu wb=%lu r1=%x err=%s\n", m.c.inv, m.c.flush, m.c.wb, reg(UC_ARM_REG_R1), m.err);
	st(ok && m.c.inv == 0 && m.c.flush == 1 && m.c.wb == 1 &&
	   reg(UC_ARM_REG_R1) == m.ctr, "thumb_it_block_condition_and_ctr");

	cache_reset();
	ok = call(sym("st_thumb_it_unknown"), BUF_BASE, 0, 0);
	st(!ok && strstr(m.err, "unknown cache operation"),
	   "thumb_unknown_cache_op_in_failing_it_slot_fails_loudly");
	m.err[0] = 0;
}

void selftest_v7m(void)
{
	bool ok;

	cache_reset();
	dirty_range(BUF_BASE, 4 * m.line);
	ok = call(sym("st_scb"), BUF_BASE, 0, 0);
	st(ok && m.c.inv == 1 && m.c.clean == 1 && m.c.flush == 1 &&
	   m.c.discarded == 1 && m.c.wb == 0 && reg(UC_ARM_REG_R1) == m.ctr,
	   "decode_v7m_scb_registers_and_ctr");

	cache_reset();
	ok = call(sym("st_scb_unknown"), BUF_BASE, 0, 0);
	st(!ok && strstr(m.err, "SCB register"), "unknown_scb_write_fails_loudly");
	m.err[0] = 0;
}

/* eviction and speculation on synthetic map/unmap code */
void selftest_model(void)
{
	static const struct scenario s = { "st", 0, 4096, true, false, 1024, 600, 0, true };
	bool spec = m.spec, evict = m.evict;

	/* map cleans only, unmap does nothing: stale clean lines hide the data */
	m.spec = false;
	m.evict = false;
	run(&s, sym("st_clean"), sym("st_nothing"));
	st(m.c.devwrong > 0 && m.c.lost == 0, "stale_clean_lines_are_read");

	/* map flushes, unmap does nothing: only speculation can catch it */
	run(&s, sym("st_flush"), sym("st_nothing"));
	st(m.c.devwrong == 0 && m.c.lost == 0, "flush_then_nothing_ok_without_speculation");
	m.spec = true;
	run(&s, sym("st_flush"), sym("st_nothing"));
	st(m.c.devwrong > 0 && m.c.specfill > 0, "speculation_catches_missing_unmap_invalidate");

	/* map does nothing, unmap invalidates: eviction overwrites device data */
	m.spec = false;
	run(&s, sym("st_nothing"), sym("st_inv"));
	st(m.c.devwrong == 0 && m.c.lost > 0, "dirty_lines_discarded_without_eviction");
	m.evict = true;
	run(&s, sym("st_nothing"), sym("st_inv"));
	st(m.c.devwrong > 0 && m.c.evicted > 0, "eviction_writes_dirty_lines_over_device_data");

	/* the correct pairing passes with both on */
	m.spec = true;
	run(&s, sym("st_clean"), sym("st_inv"));
	st(m.c.devwrong == 0 && m.c.lost == 0 && m.c.exposed == 0,
	   "clean_then_invalidate_is_correct");
	run(&s, sym("st_inv"), sym("st_inv"));
	st(m.c.lost > 0 && m.c.exposed > 0, "invalidate_at_map_loses_and_exposes");
	m.spec = spec;
	m.evict = evict;
}

/* ---------------------------------------------------------------- */

/* each core's CTR and CCSIDR say the geometry the model gives it */
void selftest_cores(void)
{
	static const char *const names[] = {
		"cortex-a15", "cortex-a9", "cortex-a72", "cortex-m7",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		const struct core *c = core_find(names[i]);
		char name[80];
		bool ok;

		ok = c && (4u << (c->ctr >> 16 & 0xf)) == c->line &&
		     (1u << ((c->ccsidr & 7) + 4)) == c->line &&
		     (c->ccsidr >> 3 & 0x3ff) + 1 == c->ways &&
		     (c->ccsidr >> 13 & 0x7fff) + 1 == c->size / c->ways / c->line;
		snprintf(name, sizeof(name), "%s_ctr_ccsidr_match_geometry", names[i]);
		st(ok, name);
	}
}
