// SPDX-License-Identifier: GPL-2.0
/*
 * dmamodel's OpenRISC 1000: Unicorn 2.0.1 has no or1k CPU, so this file
 * interprets the compiled or1k code itself, the ORBIS32 instructions
 * that integer kernel C compiles to; any other instruction stops the
 * run with an error. The code and data stay in Unicorn's memory (opened
 * as a big-endian 32-bit machine that is never started); loads and
 * stores to the modelled window go through the cache (cache.c), and
 * l.mtspr to the data cache block registers is the cache instruction:
 * DCBFR flushes, DCBIR invalidates, DCBWR writes back the line of the
 * address written. l.mfspr reads the unit present register only: the
 * kernel's cache loops run if it says there is a data cache.
 */

#include <stdio.h>
#include "dmamodel.h"

#define SPR_UPR		0x0001
#define SPR_UPR_UP	0x00000001
#define SPR_UPR_DCP	0x00000002
#define SPR_UPR_ICP	0x00000004
#define SPR_DCBFR	0x1802
#define SPR_DCBIR	0x1803
#define SPR_DCBWR	0x1804
#define SPR_ICBIR	0x2002

static uint32_t r[32];
static bool flag;

static int32_t sext(uint32_t v, unsigned int bits)
{
	return (int32_t)(v << (32 - bits)) >> (32 - bits);
}

static uint32_t load(uint32_t a, unsigned int size)
{
	uint8_t b[4];
	uint32_t v = 0;
	unsigned int i;

	if (a & (size - 1))
		fail("or1k: unaligned %u-byte read of 0x%08x", size, a);
	for (i = 0; i < size; i++) {
		if (a + i - m.win < WIN_SIZE)
			b[i] = cpu_load(a + i);
		else if (uc_mem_read(m.uc, a + i, b + i, 1))
			fail("or1k: nothing mapped at 0x%08x (a read)", a + i);
		v = v << 8 | b[i];
	}
	if (a - m.win < WIN_SIZE)
		m.c.mem++;
	return v;
}

static void store(uint32_t a, uint32_t v, unsigned int size)
{
	unsigned int i;

	if (a & (size - 1))
		fail("or1k: unaligned %u-byte write to 0x%08x", size, a);
	for (i = 0; i < size; i++) {
		uint8_t b = v >> (8 * (size - 1 - i));

		if (a + i - m.win < WIN_SIZE)
			cpu_write(a + i, b);
		else if (uc_mem_write(m.uc, a + i, &b, 1))
			fail("or1k: nothing mapped at 0x%08x (a write)", a + i);
	}
	if (a - m.win < WIN_SIZE)
		m.c.mem++;
}

static bool compare(unsigned int cond, uint32_t a, uint32_t b)
{
	switch (cond) {
	case 0x0:
		return a == b;
	case 0x1:
		return a != b;
	case 0x2:
		return a > b;
	case 0x3:
		return a >= b;
	case 0x4:
		return a < b;
	case 0x5:
		return a <= b;
	case 0xa:
		return (int32_t)a > (int32_t)b;
	case 0xb:
		return (int32_t)a >= (int32_t)b;
	case 0xc:
		return (int32_t)a < (int32_t)b;
	case 0xd:
		return (int32_t)a <= (int32_t)b;
	}
	fail("or1k: set-flag condition 0x%x not modelled", cond);
	return false;
}

static uint32_t shift(unsigned int kind, uint32_t a, unsigned int n)
{
	n &= 31;
	switch (kind) {
	case 0:
		return a << n;
	case 1:
		return a >> n;
	case 2:
		return (uint32_t)((int32_t)a >> n);
	default:
		return n ? a >> n | a << (32 - n) : a;
	}
}

static void mtspr(uint32_t spr, uint32_t ea)
{
	switch (spr) {
	case SPR_DCBFR:
		hit_op(ea, m.line, L_FLUSH);
		break;
	case SPR_DCBIR:
		hit_op(ea, m.line, L_INV);
		break;
	case SPR_DCBWR:
		hit_op(ea, m.line, L_CLEAN);
		break;
	case SPR_ICBIR:
		m.c.icache++;
		break;
	default:
		fail("or1k: SPR 0x%04x written: not modelled", spr);
	}
}

static uint32_t mfspr(uint32_t spr)
{
	switch (spr) {
	case SPR_UPR:
		/* a data cache (--size, --line) and an instruction cache */
		return SPR_UPR_UP | SPR_UPR_DCP | SPR_UPR_ICP;
	}
	fail("or1k: SPR 0x%04x read: not modelled", spr);
	return 0;
}

/* the ALU group, opcode 0x38 */
static void alu(uint32_t insn, unsigned int d, uint32_t a, uint32_t b)
{
	switch (insn & 0x3cf) {
	case 0x000:
		r[d] = a + b;
		return;
	case 0x002:
		r[d] = a - b;
		return;
	case 0x003:
		r[d] = a & b;
		return;
	case 0x004:
		r[d] = a | b;
		return;
	case 0x005:
		r[d] = a ^ b;
		return;
	case 0x306:
		r[d] = a * b;
		return;
	case 0x30b:
		r[d] = a * b;
		return;
	case 0x008:
	case 0x048:
	case 0x088:
		r[d] = shift((insn >> 6) & 3, a, b);
		return;
	case 0x00e:
		r[d] = flag ? a : b;
		return;
	}
	fail("or1k: ALU instruction 0x%08x not modelled", insn);
}

/*
 * Execute INSN at PC; a jump or branch sets *TARGET and returns true
 * (its delay slot runs before the jump).
 */
static bool step(uint32_t insn, uint32_t pc, uint32_t *target)
{
	unsigned int op = insn >> 26, d = (insn >> 21) & 31;
	unsigned int a = (insn >> 16) & 31, b = (insn >> 11) & 31;
	uint32_t ra = r[a], rb = r[b], imm = insn & 0xffff;
	uint32_t simm = sext(imm, 16);
	uint32_t soff = sext((insn >> 10 & 0xf800) | (insn & 0x7ff), 16);

	switch (op) {
	case 0x00:	/* l.j */
	case 0x01:	/* l.jal */
		if (op == 0x01)
			r[9] = pc + 8;
		*target = pc + (sext(insn & 0x3ffffff, 26) << 2);
		return true;
	case 0x03:	/* l.bnf */
	case 0x04:	/* l.bf */
		*target = flag == (op == 0x04) ?
			pc + (sext(insn & 0x3ffffff, 26) << 2) : pc + 8;
		return true;
	case 0x05:	/* l.nop */
		break;
	case 0x06:	/* l.movhi */
		if (insn & 0x10000)
			goto unknown;
		r[d] = imm << 16;
		break;
	case 0x11:	/* l.jr */
	case 0x12:	/* l.jalr */
		if (op == 0x12)
			r[9] = pc + 8;
		*target = rb;
		return true;
	case 0x21:	/* l.lwz */
	case 0x22:	/* l.lws */
		r[d] = load(ra + simm, 4);
		break;
	case 0x23:	/* l.lbz */
		r[d] = load(ra + simm, 1);
		break;
	case 0x24:	/* l.lbs */
		r[d] = sext(load(ra + simm, 1), 8);
		break;
	case 0x25:	/* l.lhz */
		r[d] = load(ra + simm, 2);
		break;
	case 0x26:	/* l.lhs */
		r[d] = sext(load(ra + simm, 2), 16);
		break;
	case 0x27:	/* l.addi */
		r[d] = ra + simm;
		break;
	case 0x29:	/* l.andi */
		r[d] = ra & imm;
		break;
	case 0x2a:	/* l.ori */
		r[d] = ra | imm;
		break;
	case 0x2b:	/* l.xori */
		r[d] = ra ^ simm;
		break;
	case 0x2c:	/* l.muli */
		r[d] = ra * simm;
		break;
	case 0x2d:	/* l.mfspr */
		r[d] = mfspr(ra | imm);
		break;
	case 0x2e:	/* l.slli, l.srli, l.srai, l.rori */
		r[d] = shift((insn >> 6) & 3, ra, insn & 63);
		break;
	case 0x2f:	/* l.sf*i */
		flag = compare(d, ra, simm);
		break;
	case 0x30:	/* l.mtspr */
		mtspr(ra | ((insn >> 10 & 0xf800) | (insn & 0x7ff)), rb);
		break;
	case 0x35:	/* l.sw */
		store(ra + soff, rb, 4);
		break;
	case 0x36:	/* l.sb */
		store(ra + soff, rb, 1);
		break;
	case 0x37:	/* l.sh */
		store(ra + soff, rb, 2);
		break;
	case 0x38:
		alu(insn, d, ra, rb);
		break;
	case 0x39:	/* l.sf* */
		flag = compare(d, ra, rb);
		break;
	default:
unknown:
		fail("or1k: instruction 0x%08x at 0x%08x not modelled", insn, pc);
	}
	r[0] = 0;
	return false;
}

/* call FN(a0, a1, a2) with the or1k calling convention */
bool or1k_call(uint32_t fn, uint32_t a0, uint32_t a1, uint32_t a2)
{
	uint32_t pc = fn, target = 0, next;
	bool jump = false;
	unsigned long n;

	for (n = 0; n < 32; n++)
		r[n] = 0;
	r[1] = STACK_TOP - 256;
	r[3] = a0;
	r[4] = a1;
	r[5] = a2;
	r[9] = RET_ADDR;
	for (n = 0; n < MAX_INSNS && !m.err[0]; n++) {
		uint8_t b[4];
		bool was_jump = jump;

		if (pc == RET_ADDR)
			return true;
		if (uc_mem_read(m.uc, pc, b, 4)) {
			fail("or1k: no code at 0x%08x", pc);
			break;
		}
		m.c.insns++;
		next = target;
		jump = step(rd32(b), pc, &target);
		if (was_jump && jump)
			fail("or1k: jump in a delay slot at 0x%08x", pc);
		pc = was_jump ? next : pc + 4;
	}
	if (!m.err[0])
		snprintf(m.err, sizeof(m.err), "or1k: did not return (pc 0x%08x)", pc);
	return false;
}
