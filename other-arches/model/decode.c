// SPDX-License-Identifier: GPL-2.0
/*
 * dmamodel's decoder: the cache instructions of each architecture (MIPS
 * "cache", PowerPC dcbi/dcbf/dcbst, m68k cinv/cpush, ColdFire cpushl and
 * movec to CACR), decoded in a code hook before they run and applied to
 * the modelled cache (cache.c).
 */

#include "dmamodel.h"

/*
 * MIPS "cache op, offset(base)": op bits 1:0 the cache (0 I, 1 D, 2 T,
 * 3 S), bits 4:2 the operation. The modelled cache is the primary data
 * cache (--level 1) or the secondary (--level 2), where the kernel
 * issues secondary operations only (cpu_has_inclusive_pcaches: the
 * primary is a subset of it, which its operations also reach); an
 * operation on the other one stops the run. An index operation names
 * the set in the address bits above the line offset and the way in the
 * bits above the way size (as the kernel's r4k blast loops step).
 */
static void mips_insn(uint32_t insn)
{
	unsigned int op, base, c;
	uint32_t ea, waysize = m.size / m.ways;

	if (insn == 0x0000000f) {	/* sync */
		m.c.barrier++;
		return;
	}
	if (insn >> 26 != 0x2f)
		return;
	base = (insn >> 21) & 31;
	op = (insn >> 16) & 31;
	ea = reg(UC_MIPS_REG_0 + base) + (uint32_t)(int32_t)(int16_t)insn;
	c = op & 3;
	if (c == 0) {
		m.c.icache++;
		return;
	}
	if (c == 3)
		m.c.l2++;
	if (c != (m.level == 2 ? 3 : 1)) {
		fail("MIPS cache op 0x%02x at 0x%08x: a cache not modelled", op, ea);
		return;
	}
	switch (op >> 2) {
	case 0:		/* Index_Writeback_Inv_D, _SD */
		index_op(ea >> m.lshift, ea / waysize, L_FLUSH);
		break;
	case 4:		/* Hit_Invalidate_D, _SD */
		hit_op(ea, m.line, L_INV);
		break;
	case 5:		/* Hit_Writeback_Inv_D, _SD */
		hit_op(ea, m.line, L_FLUSH);
		break;
	case 6:		/* Hit_Writeback_D, _SD */
		hit_op(ea, m.line, L_CLEAN);
		break;
	default:
		fail("MIPS cache op 0x%02x at 0x%08x: not modelled", op, ea);
	}
}

/* PowerPC X-form cache instructions (primary opcode 31) */
static void ppc_insn(uint32_t insn)
{
	unsigned int ra = (insn >> 16) & 31, rb = (insn >> 11) & 31;
	uint32_t ea;

	if (insn >> 26 != 31)
		return;
	ea = (ra ? reg(UC_PPC_REG_0 + ra) : 0) + reg(UC_PPC_REG_0 + rb);
	switch ((insn >> 1) & 0x3ff) {
	case 470:	/* dcbi */
		m.in_cacheop = true;
		hit_op(ea, m.line, L_INV);
		break;
	case 86:	/* dcbf */
		m.in_cacheop = true;
		hit_op(ea, m.line, L_FLUSH);
		break;
	case 54:	/* dcbst */
		m.in_cacheop = true;
		hit_op(ea, m.line, L_CLEAN);
		break;
	case 598:	/* sync */
	case 854:	/* eieio */
		m.c.barrier++;
		break;
	case 982:	/* icbi */
		m.in_cacheop = true;
		m.c.icache++;
		break;
	case 1014:	/* dcbz */
	case 278:	/* dcbt */
	case 246:	/* dcbtst */
		fail("PowerPC cache instruction 0x%08x: not modelled", insn);
		break;
	}
}

/*
 * ColdFire "movec Rn,CACR" (0x4e7b, then A/D, register and control
 * register 0x002): CACR.DCINVA (bit 24) invalidates the whole data
 * cache, without writing anything back.
 */
static void coldfire_movec(uint16_t op, uint16_t ext)
{
	uint32_t v;

	if (op != 0x4e7b || (ext & 0xfff) != 0x002)
		return;
	v = reg((ext & 0x8000 ? UC_M68K_REG_A0 : UC_M68K_REG_D0) + ((ext >> 12) & 7));
	if (v & 0x01000000) {
		count(L_INV);
		all_op(L_INV);
	}
}

/*
 * 68020/68030 "movec Rn,CACR" (the encoding above): CACR.CD (bit 11)
 * clears the whole data cache, without writing anything back (the 030's
 * data cache is write-through); CACR.CI (bit 3) the instruction cache.
 */
static void m030_movec(uint16_t op, uint16_t ext)
{
	uint32_t v;

	if (op != 0x4e7b || (ext & 0xfff) != 0x002)
		return;
	v = reg((ext & 0x8000 ? UC_M68K_REG_A0 : UC_M68K_REG_D0) + ((ext >> 12) & 7));
	if (v & 0x8)
		m.c.icache++;
	if (v & 0x800) {
		count(L_INV);
		all_op(L_INV);
	}
}

/*
 * m68k 040/060 cinv/cpush: 1111 0100 CC S SS R RRR, cache CC (1 data,
 * 2 instruction, 3 both), scope 1 line, 2 page, 3 all, R the address
 * register. cpush writes back and invalidates on the '040; on the '060
 * with CACR.DPI set (as Linux sets it) it only writes back. ColdFire
 * has the line scope only, and its register holds no address but a set
 * (bits 4 and up) and a way (bits 1:0): an index operation; Linux leaves
 * CACR.DDPI clear, so the push also invalidates.
 */
static void m68k_insn(uint16_t op, uint16_t ext)
{
	unsigned int cache = (op >> 6) & 3, scope = (op >> 3) & 3;
	bool push = op & 0x20;
	enum lop lop = push ? (m.push_keeps ? L_CLEAN : L_FLUSH) : L_INV;
	uint32_t ea;

	if (m.coldfire)
		coldfire_movec(op, ext);
	else if (m.m030)
		m030_movec(op, ext);
	if ((op & 0xff00) != 0xf400)
		return;
	if (cache & 2)
		m.c.icache++;
	if (!(cache & 1))
		return;
	ea = reg(UC_M68K_REG_A0 + (op & 7));
	if (m.coldfire && scope == 1) {
		index_op(ea >> m.lshift, ea & 3, lop);
		return;
	}
	switch (scope) {
	case 1:
		hit_op(ea, m.line, lop);
		break;
	case 2:
		m.c.page++;
		hit_op(ea, 4096, lop);
		break;
	case 3:
		count(lop);
		all_op(lop);
		break;
	default:
		fail("m68k cache instruction 0x%04x: not modelled", op);
	}
}

void hook_code(uc_engine *uc, uint64_t pc, uint32_t size, void *u)
{
	uint8_t b[4];

	m.c.insns++;
	m.in_cacheop = false;
	if (uc_mem_read(uc, pc, b, 4))
		return;
	switch (m.arch) {
	case A_MIPS:
		mips_insn(rd32(b));
		break;
	case A_PPC:
		ppc_insn(rd32(b));
		break;
	case A_M68K:
		m68k_insn(rd16(b), rd16(b + 2));
		break;
	case A_OR1K:	/* or1k.c decodes l.mtspr itself */
		break;
	}
}
