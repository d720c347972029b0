// SPDX-License-Identifier: GPL-2.0
/*
 * cachemodel's decoder: every coprocessor instruction the kernel code
 * executes (MCR/MRC p15 c7, Feroceon range operations, test-and-clean,
 * the Feroceon L2's, Tauros2's and XSC3 L2's line and range operations,
 * ARM and Thumb-2, conditions and IT blocks), turned into cache
 * operations (cache.c); v7-M's memory-mapped ones are in memhooks.c.
 * An encoding outside the table stops the run with an error.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model.h"

/* ---------------------------------------------------------------- */
/* Decoding coprocessor instructions                                */

enum action {
	A_UNKNOWN, A_INV, A_CLEAN, A_FLUSH, A_INV_ALL, A_CLEAN_ALL,
	A_FLUSH_ALL, A_INV_SW, A_CLEAN_SW, A_FLUSH_SW, A_BARRIER, A_ICACHE,
	A_RANGE_START, A_RANGE_INV, A_RANGE_CLEAN, A_RANGE_FLUSH,
	A_TEST_CLEAN, A_TEST_FLUSH, A_CTR, A_READ_ZERO, A_CURRENT,
	A_FL2_INV, A_FL2_CLEAN, A_FL2_FLUSH, A_FL2_START_CLEAN,
	A_FL2_TOP_CLEAN, A_FL2_START_INV, A_FL2_TOP_INV,
	A_TL2_INV, A_TL2_CLEAN, A_TL2_FLUSH, A_XL2_INV, A_XL2_CLEAN,
};

struct cpop {
	unsigned char l, opc1, crn, crm, opc2;
	enum action act;
	bool skip;		/* not implemented by Unicorn: emulate it here */
	const char *what;
};

static const struct cpop cpops[] = {
	{ 0, 0, 7, 5, 0, A_ICACHE, false, "invalidate I-cache" },
	{ 0, 0, 7, 5, 1, A_ICACHE, false, "invalidate I line" },
	{ 0, 0, 7, 5, 4, A_BARRIER, false, "flush prefetch buffer / ISB" },
	{ 0, 0, 7, 5, 6, A_ICACHE, false, "invalidate BTB" },
	{ 0, 0, 7, 6, 0, A_INV_ALL, false, "invalidate D-cache" },
	{ 0, 0, 7, 6, 1, A_INV, false, "invalidate D line (MVA)" },
	{ 0, 0, 7, 6, 2, A_INV_SW, false, "invalidate D line (set/way)" },
	{ 0, 0, 7, 7, 0, A_INV_ALL, false, "invalidate I+D caches" },
	{ 0, 0, 7, 7, 1, A_INV, false, "invalidate unified line (MVA)" },
	{ 0, 0, 7, 10, 0, A_CLEAN_ALL, false, "clean D-cache" },
	{ 0, 0, 7, 10, 1, A_CLEAN, false, "clean D line (MVA)" },
	{ 0, 0, 7, 10, 2, A_CLEAN_SW, false, "clean D line (set/way)" },
	{ 0, 0, 7, 10, 4, A_BARRIER, false, "drain write buffer / DSB" },
	{ 0, 0, 7, 10, 5, A_BARRIER, false, "DMB" },
	{ 0, 0, 7, 11, 1, A_CLEAN, false, "clean unified line (MVA)" },
	{ 0, 0, 7, 14, 0, A_FLUSH_ALL, false, "clean+invalidate D-cache" },
	{ 0, 0, 7, 14, 1, A_FLUSH, false, "clean+invalidate D line (MVA)" },
	{ 0, 0, 7, 14, 2, A_FLUSH_SW, false, "clean+invalidate D line (set/way)" },
	{ 0, 0, 7, 15, 1, A_FLUSH, false, "clean+invalidate unified line" },
	/* cache-xsc3l2.c: by MVA */
	{ 0, 1, 7, 7, 1, A_XL2_INV, true, "XSC3 invalidate L2 line (MVA)" },
	{ 0, 1, 7, 11, 1, A_XL2_CLEAN, true, "XSC3 clean L2 line (MVA)" },
	{ 0, 5, 15, 15, 0, A_RANGE_START, true, "Feroceon clean+inv range start" },
	{ 0, 5, 15, 15, 1, A_RANGE_FLUSH, true, "Feroceon clean+inv range top" },
	{ 0, 5, 15, 14, 0, A_RANGE_START, true, "Feroceon inv range start" },
	{ 0, 5, 15, 14, 1, A_RANGE_INV, true, "Feroceon inv range top" },
	{ 0, 5, 15, 13, 0, A_RANGE_START, true, "Feroceon clean range start" },
	{ 0, 5, 15, 13, 1, A_RANGE_CLEAN, true, "Feroceon clean range top" },
	/* cache-feroceon-l2.c: by PA; ranges by VA, start then top */
	{ 0, 1, 15, 9, 3, A_FL2_CLEAN, true, "Feroceon L2 clean line (PA)" },
	{ 0, 1, 15, 10, 3, A_FL2_FLUSH, true, "Feroceon L2 clean+inv line (PA)" },
	{ 0, 1, 15, 11, 3, A_FL2_INV, true, "Feroceon L2 inv line (PA)" },
	{ 0, 1, 15, 9, 4, A_FL2_START_CLEAN, true, "Feroceon L2 clean range start" },
	{ 0, 1, 15, 9, 5, A_FL2_TOP_CLEAN, true, "Feroceon L2 clean range top" },
	{ 0, 1, 15, 11, 4, A_FL2_START_INV, true, "Feroceon L2 inv range start" },
	{ 0, 1, 15, 11, 5, A_FL2_TOP_INV, true, "Feroceon L2 inv range top" },
	/* cache-tauros2.c: by PA */
	{ 0, 1, 7, 11, 3, A_TL2_CLEAN, true, "Tauros2 clean line (PA)" },
	{ 0, 1, 7, 15, 3, A_TL2_FLUSH, true, "Tauros2 clean+inv line (PA)" },
	{ 0, 1, 7, 7, 3, A_TL2_INV, true, "Tauros2 inv line (PA)" },
	{ 1, 0, 7, 10, 3, A_TEST_CLEAN, true, "test and clean" },
	{ 1, 0, 7, 14, 3, A_TEST_FLUSH, true, "test, clean and invalidate" },
	{ 1, 0, 0, 0, 1, A_CTR, true, "read CTR" },
	{ 1, 0, 2, 0, 0, A_READ_ZERO, true, "read TTBR (XScale cpwait)" },
	{ 1, 0, 13, 0, 3, A_CURRENT, true, "read TPIDRURO (current)" },
};

static const struct cpop *decode(unsigned int l, unsigned int opc1,
				 unsigned int crn, unsigned int crm,
				 unsigned int opc2)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cpops); i++) {
		const struct cpop *p = &cpops[i];

		if (p->l == l && p->opc1 == opc1 && p->crn == crn &&
		    p->crm == crm && p->opc2 == opc2)
			return p;
	}
	return NULL;
}

/*
 * The table entry for an MCR/MRC (ARM or Thumb-2 encoding, cond/prefix
 * bits ignored), or NULL with the run failed. Called for every
 * coprocessor instruction whether or not its condition passes.
 */
static const struct cpop *lookup(uint32_t insn, uint64_t pc)
{
	unsigned int cp = insn >> 8 & 0xf, opc1 = insn >> 21 & 7;
	unsigned int l = insn >> 20 & 1, crn = insn >> 16 & 0xf;
	unsigned int rt = insn >> 12 & 0xf, opc2 = insn >> 5 & 7;
	unsigned int crm = insn & 0xf;
	const struct cpop *op;

	if (cp != 15) {
		fail("coprocessor p%u instruction 0x%08x at 0x%08lx: not modelled",
		     cp, insn, (unsigned long)pc);
		return NULL;
	}
	op = decode(l, opc1, crn, crm, opc2);
	if (!op)
		fail("unknown cache operation %s p15, %u, r%u, c%u, c%u, %u at 0x%08lx",
		     l ? "mrc" : "mcr", opc1, rt, crn, crm, opc2,
		     (unsigned long)pc);
	return op;
}

/* Unicorn's id of core register RT: r13 and r14 do not follow r12 */
static int core_reg(unsigned int rt)
{
	return rt == 13 ? UC_ARM_REG_SP : rt == 14 ? UC_ARM_REG_LR :
	       UC_ARM_REG_R0 + (int)rt;
}

static void coproc(uint32_t insn, unsigned int cond, uint64_t pc,
		   unsigned int size, bool in_it)
{
	unsigned int l = insn >> 20 & 1, rt = insn >> 12 & 0xf;
	const struct cpop *op;
	uint32_t v = 0, result = 0;
	int d;

	op = lookup(insn, pc);
	if (!op || !cond_passed(cond))
		return;
	if (!l)
		v = rt == 15 ? 0 : reg(core_reg(rt));

	switch (op->act) {
	case A_INV:
		m.c.inv++;
		mva_op(v, L_INV);
		break;
	case A_CLEAN:
		m.c.clean++;
		mva_op(v, L_CLEAN);
		break;
	case A_FLUSH:
		m.c.flush++;
		mva_op(v, L_FLUSH);
		break;
	case A_INV_ALL:
		m.c.whole++;
		all_op(L_INV);
		break;
	case A_CLEAN_ALL:
		m.c.whole++;
		all_op(L_CLEAN);
		break;
	case A_FLUSH_ALL:
		m.c.whole++;
		all_op(L_FLUSH);
		break;
	case A_INV_SW:
		m.c.setway++;
		set_op(v, L_INV);
		break;
	case A_CLEAN_SW:
		m.c.setway++;
		set_op(v, L_CLEAN);
		break;
	case A_FLUSH_SW:
		m.c.setway++;
		set_op(v, L_FLUSH);
		break;
	case A_BARRIER:
		m.c.barrier++;
		break;
	case A_ICACHE:
		m.c.icache++;
		break;
	case A_RANGE_START:
		m.range_start = v;
		m.range_set = true;
		break;
	case A_RANGE_INV:
		m.c.range++;
		range_op(m.range_start, v, L_INV);
		break;
	case A_RANGE_CLEAN:
		m.c.range++;
		range_op(m.range_start, v, L_CLEAN);
		break;
	case A_RANGE_FLUSH:
		m.c.range++;
		range_op(m.range_start, v, L_FLUSH);
		break;
	case A_TEST_CLEAN:
	case A_TEST_FLUSH:
		m.c.test++;
		/* one dirty line per test; Z once none was left */
		if (!m.seen_test)
			m.c.passes++;
		m.seen_test = true;
		d = first_dirty();
		if (d >= 0)
			slot_op(d, op->act == A_TEST_CLEAN ? L_CLEAN : L_FLUSH);
		else if (op->act == A_TEST_FLUSH)
			all_op(L_INV);
		result = d < 0 ? 1u << 30 : 0;
		break;
	case A_CTR:
		result = m.ctr;
		break;
	case A_READ_ZERO:
		result = 0;
		break;
	case A_CURRENT:
		result = m.current;
		break;
	case A_FL2_INV:
		l2_cp15_line("feroceon", v, L_INV);
		break;
	case A_FL2_CLEAN:
		l2_cp15_line("feroceon", v, L_CLEAN);
		break;
	case A_FL2_FLUSH:
		l2_cp15_line("feroceon", v, L_FLUSH);
		break;
	case A_FL2_START_CLEAN:
	case A_FL2_START_INV:
		l2_cp15_range("feroceon", v, false, L_INV);
		break;
	case A_FL2_TOP_CLEAN:
		l2_cp15_range("feroceon", v, true, L_CLEAN);
		break;
	case A_FL2_TOP_INV:
		l2_cp15_range("feroceon", v, true, L_INV);
		break;
	case A_TL2_INV:
		l2_cp15_line("tauros2", v, L_INV);
		break;
	case A_TL2_CLEAN:
		l2_cp15_line("tauros2", v, L_CLEAN);
		break;
	case A_TL2_FLUSH:
		l2_cp15_line("tauros2", v, L_FLUSH);
		break;
	case A_XL2_INV:
		l2_cp15_line("xsc3", v, L_INV);
		break;
	case A_XL2_CLEAN:
		l2_cp15_line("xsc3", v, L_CLEAN);
		break;
	case A_UNKNOWN:
		break;
	}
	if (!op->skip)
		return;
	if (in_it) {
		fail("cannot emulate '%s' inside an IT block at 0x%08lx",
		     op->what, (unsigned long)pc);
		return;
	}
	if (l && rt == 15)
		set_reg(UC_ARM_REG_CPSR,
			(reg(UC_ARM_REG_CPSR) & 0x0fffffff) | (result & 0xf0000000));
	else if (l)
		set_reg(core_reg(rt), result);
	set_reg(UC_ARM_REG_PC, (uint32_t)(pc + size) | (m.thumb ? 1 : 0));
}

/* a Thumb-2 coprocessor instruction at A: MCR/MRC p15 in the table, or fail */
static uint32_t thumb_cp_check(uc_engine *uc, uint64_t a)
{
	uint16_t hw[2];
	uint32_t insn;

	uc_mem_read(uc, a, hw, 4);
	insn = (uint32_t)hw[0] << 16 | hw[1];
	if ((insn & 0xff000010) != 0xee000010)
		fail("coprocessor instruction 0x%08x at 0x%08lx: not modelled",
		     insn, (unsigned long)a);
	else
		lookup(insn, a);
	return insn;
}

static void it_layout(uc_engine *uc, uint64_t pc, unsigned int itstate)
{
	uint64_t a = pc + 2;
	uint16_t hw;

	m.it_n = 0;
	while (itstate & 0xf) {
		m.it_pc[m.it_n] = a;
		m.it_cond[m.it_n++] = itstate >> 4;
		uc_mem_read(uc, a, &hw, 2);
		/*
		 * The hook does not see the slots whose condition fails:
		 * check their coprocessor instructions here.
		 */
		if ((hw & 0xec00) == 0xec00)
			thumb_cp_check(uc, a);
		a += (hw & 0xf800) >= 0xe800 ? 4 : 2;
		if ((itstate & 7) == 0)
			itstate = 0;
		else
			itstate = (itstate & 0xe0) | ((itstate << 1) & 0x1f);
	}
}

void hook_code(uc_engine *uc, uint64_t pc, uint32_t size, void *u)
{
	uint32_t insn;
	uint16_t hw[2];
	unsigned int cond = 0xe, i;
	bool in_it;

	m.c.insns++;
	if (m.dma_mapping && dma_mapping_hook(pc))
		return;
	if (m.trace)
		fprintf(stderr, "pc %08lx\n", (unsigned long)pc);
	if (!m.thumb) {
		uc_mem_read(uc, pc, &insn, 4);
		cond = insn >> 28;
		/* outside coprocessor space, or SVC */
		if ((insn & 0x0c000000) != 0x0c000000 ||
		    (cond != 0xf && (insn & 0x0f000000) == 0x0f000000))
			return;
		/* cond 0xf: MCR2/MRC2/MCRR2/LDC2/STC2/CDP2 */
		if (cond == 0xf) {
			fail("unconditional coprocessor instruction 0x%08x at 0x%08lx: not modelled",
			     insn, (unsigned long)pc);
			return;
		}
		if ((insn & 0x0f000010) != 0x0e000010) {
			fail("coprocessor instruction 0x%08x at 0x%08lx: not modelled",
			     insn, (unsigned long)pc);
			return;
		}
		coproc(insn, cond, pc, 4, false);
		return;
	}

	/*
	 * Unicorn calls this hook for the instructions of an IT block whose
	 * condition passes only, so the block is laid out here, by address,
	 * when the IT instruction itself is seen.
	 */
	uc_mem_read(uc, pc, hw, 2);
	in_it = false;
	for (i = 0; i < m.it_n; i++)
		if (m.it_pc[i] == pc) {
			in_it = true;
			cond = m.it_cond[i];
		}
	if (!in_it)
		m.it_n = 0;
	if ((hw[0] & 0xf800) < 0xe800) {
		if ((hw[0] & 0xff00) == 0xbf00 && (hw[0] & 0xf))
			it_layout(uc, pc, hw[0] & 0xff);
		return;
	}
	if ((hw[0] & 0xec00) != 0xec00)
		return;
	insn = thumb_cp_check(uc, pc);
	if (m.err[0])
		return;
	coproc(insn, cond, pc, 4, in_it);
}
