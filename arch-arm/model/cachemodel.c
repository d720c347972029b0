// SPDX-License-Identifier: GPL-2.0
/*
 * cachemodel: execute a 32-bit ARM cache backend's compiled
 * dma_map_area/dma_unmap_area in Unicorn against a software data cache.
 *
 * The cache is a window of lines with valid, dirty and data per line,
 * backed by a separate DRAM array. Every coprocessor instruction that the
 * kernel code executes is decoded here (MCR/MRC p15 c7, Feroceon range
 * operations, test-and-clean), and v7-M's memory-mapped SCB cache
 * maintenance registers are hooked; an encoding outside the table stops
 * the run with an error. Scenarios put dirty or clean data in the cache,
 * call map(FROM_DEVICE), let the "device" write DRAM, call unmap and
 * compare what the CPU then reads with what it should read.
 *
 * Output: one line per scenario, "name key=value ...".
 */

#include <elf.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model.h"

#define BUF_BASE	(WIN_BASE + 0x10000u)
#define STACK_TOP	0x30010000u
#define RET_ADDR	0x31000000u
#define SCB_PAGE	0xe000e000u
#define SCB_CTR		0xe000ed7cu
#define SCB_CCSIDR	0xe000ed80u
#define SCB_CSSELR	0xe000ed84u
#define MAX_INSNS	50000000u

#define DMA_FROM_DEVICE	2
#define SENTINEL	0x00	/* what the CPU wrote, as usbfs zeroing */
#define NEIGHBOUR	0x4e	/* CPU data next to the buffer */

struct model m;

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

void fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (!m.err[0])
		vsnprintf(m.err, sizeof(m.err), fmt, ap);
	va_end(ap);
	uc_emu_stop(m.uc);
}

void die(const char *msg)
{
	fprintf(stderr, "cachemodel: %s\n", msg);
	exit(2);
}

static inline uint8_t devdata(uint32_t a)
{
	return 0xd0 | ((a >> 4) & 0xf);
}

/* ---------------------------------------------------------------- */
/* Decoding coprocessor instructions                                */

enum action {
	A_UNKNOWN, A_INV, A_CLEAN, A_FLUSH, A_INV_ALL, A_CLEAN_ALL,
	A_FLUSH_ALL, A_INV_SW, A_CLEAN_SW, A_FLUSH_SW, A_BARRIER, A_ICACHE,
	A_L2, A_RANGE_START, A_RANGE_INV, A_RANGE_CLEAN, A_RANGE_FLUSH,
	A_TEST_CLEAN, A_TEST_FLUSH, A_CTR, A_READ_ZERO,
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
	{ 0, 1, 7, 7, 1, A_L2, true, "XSC3 invalidate L2 line" },
	{ 0, 1, 7, 11, 1, A_L2, true, "XSC3 clean L2 line" },
	{ 0, 5, 15, 15, 0, A_RANGE_START, true, "Feroceon clean+inv range start" },
	{ 0, 5, 15, 15, 1, A_RANGE_FLUSH, true, "Feroceon clean+inv range top" },
	{ 0, 5, 15, 14, 0, A_RANGE_START, true, "Feroceon inv range start" },
	{ 0, 5, 15, 14, 1, A_RANGE_INV, true, "Feroceon inv range top" },
	{ 0, 5, 15, 13, 0, A_RANGE_START, true, "Feroceon clean range start" },
	{ 0, 5, 15, 13, 1, A_RANGE_CLEAN, true, "Feroceon clean range top" },
	{ 1, 0, 7, 10, 3, A_TEST_CLEAN, true, "test and clean" },
	{ 1, 0, 7, 14, 3, A_TEST_FLUSH, true, "test, clean and invalidate" },
	{ 1, 0, 0, 0, 1, A_CTR, true, "read CTR" },
	{ 1, 0, 2, 0, 0, A_READ_ZERO, true, "read TTBR (XScale cpwait)" },
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

static uint32_t reg(int r)
{
	uint32_t v;

	uc_reg_read(m.uc, r, &v);
	return v;
}

static void set_reg(int r, uint32_t v)
{
	uc_reg_write(m.uc, r, &v);
}

static bool cond_passed(unsigned int cond)
{
	uint32_t psr = reg(UC_ARM_REG_CPSR);
	bool n = psr >> 31 & 1, z = psr >> 30 & 1;
	bool c = psr >> 29 & 1, v = psr >> 28 & 1, r;

	switch (cond >> 1) {
	case 0:
		r = z;
		break;
	case 1:
		r = c;
		break;
	case 2:
		r = n;
		break;
	case 3:
		r = v;
		break;
	case 4:
		r = c && !z;
		break;
	case 5:
		r = n == v;
		break;
	case 6:
		r = !z && n == v;
		break;
	default:
		return true;
	}
	return (cond & 1) ? !r : r;
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
		v = rt == 15 ? 0 : reg(UC_ARM_REG_R0 + rt);

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
	case A_L2:
		m.c.l2++;
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
		set_reg(UC_ARM_REG_R0 + rt, result);
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

static void hook_code(uc_engine *uc, uint64_t pc, uint32_t size, void *u)
{
	uint32_t insn;
	uint16_t hw[2];
	unsigned int cond = 0xe, i;
	bool in_it;

	m.c.insns++;
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

/* v7-M: the SCB's memory-mapped cache maintenance registers */
static void hook_scb(uc_engine *uc, uc_mem_type type, uint64_t addr,
		     int size, int64_t value, void *u)
{
	uint32_t v = (uint32_t)value;

	if (type == UC_MEM_READ) {
		if (addr == SCB_CTR)
			uc_mem_write(uc, addr, &m.ctr, 4);
		else if (addr == SCB_CCSIDR)
			uc_mem_write(uc, addr, &m.core->ccsidr, 4);
		return;
	}
	switch (addr) {
	case 0xe000ef50: case 0xe000ef58: case 0xe000ef78:
		m.c.icache++;
		break;
	case 0xe000ef5c:
		m.c.inv++;
		mva_op(v, L_INV);
		break;
	case 0xe000ef60:
		m.c.setway++;
		set_op(v, L_INV);
		break;
	case 0xe000ef64: case 0xe000ef68:
		m.c.clean++;
		mva_op(v, L_CLEAN);
		break;
	case 0xe000ef6c:
		m.c.setway++;
		set_op(v, L_CLEAN);
		break;
	case 0xe000ef70:
		m.c.flush++;
		mva_op(v, L_FLUSH);
		break;
	case 0xe000ef74:
		m.c.setway++;
		set_op(v, L_FLUSH);
		break;
	case SCB_CSSELR:
		break;
	default:
		fail("write of 0x%08x to SCB register 0x%08lx: not modelled",
		     v, (unsigned long)addr);
	}
}

/* Loads and stores by the kernel code to the buffer go through the cache. */
static void hook_win(uc_engine *uc, uc_mem_type type, uint64_t addr,
		     int size, int64_t value, void *u)
{
	uint8_t b[8];
	int i;

	m.c.mem++;
	for (i = 0; i < size && i < 8; i++) {
		if (type == UC_MEM_READ)
			b[i] = cpu_load(addr + i);
		else
			cpu_write(addr + i, (uint8_t)(value >> (8 * i)));
	}
	if (type == UC_MEM_READ)
		uc_mem_write(uc, addr, b, size);
}

/* ---------------------------------------------------------------- */
/* ELF loading and calls                                            */

static uint32_t sym(const char *name)
{
	Elf32_Ehdr *eh = (Elf32_Ehdr *)m.elf;
	Elf32_Shdr *sh = (Elf32_Shdr *)(m.elf + eh->e_shoff);
	int i;

	for (i = 0; i < eh->e_shnum; i++) {
		Elf32_Sym *s;
		const char *str;
		size_t n, j;

		if (sh[i].sh_type != SHT_SYMTAB)
			continue;
		s = (Elf32_Sym *)(m.elf + sh[i].sh_offset);
		str = (const char *)m.elf + sh[sh[i].sh_link].sh_offset;
		n = sh[i].sh_size / sizeof(*s);
		for (j = 0; j < n; j++)
			if (s[j].st_shndx != SHN_UNDEF &&
			    !strcmp(str + s[j].st_name, name))
				return s[j].st_value;
	}
	fprintf(stderr, "cachemodel: symbol %s not in the ELF file\n", name);
	exit(2);
}

static void load_elf(const char *path)
{
	FILE *f = fopen(path, "rb");
	Elf32_Ehdr *eh;
	Elf32_Phdr *ph;
	uint32_t lo = ~0u, hi = 0;
	int i;

	if (!f)
		die("cannot open the ELF file");
	fseek(f, 0, SEEK_END);
	m.elf_size = ftell(f);
	rewind(f);
	m.elf = malloc(m.elf_size);
	if (!m.elf || fread(m.elf, 1, m.elf_size, f) != m.elf_size)
		die("cannot read the ELF file");
	fclose(f);
	eh = (Elf32_Ehdr *)m.elf;
	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_machine != EM_ARM)
		die("not an ARM ELF file");
	ph = (Elf32_Phdr *)(m.elf + eh->e_phoff);
	for (i = 0; i < eh->e_phnum; i++) {
		if (ph[i].p_type != PT_LOAD || !ph[i].p_memsz)
			continue;
		if (ph[i].p_vaddr < lo)
			lo = ph[i].p_vaddr;
		if (ph[i].p_vaddr + ph[i].p_memsz > hi)
			hi = ph[i].p_vaddr + ph[i].p_memsz;
	}
	if (lo >= hi)
		die("no loadable segment");
	lo &= ~0xfffu;
	hi = (hi + 0xfff) & ~0xfffu;
	if (uc_mem_map(m.uc, lo, hi - lo, UC_PROT_ALL))
		die("cannot map the code");
	for (i = 0; i < eh->e_phnum; i++)
		if (ph[i].p_type == PT_LOAD && ph[i].p_filesz)
			uc_mem_write(m.uc, ph[i].p_vaddr,
				     m.elf + ph[i].p_offset, ph[i].p_filesz);
}

static void emu_open(void)
{
	uc_hook h;
	uc_mode mode = m.thumb ? UC_MODE_THUMB : UC_MODE_ARM;
	int model;
	static uint8_t zero[4096];

	if (m.kind == K_V7M)
		mode |= UC_MODE_MCLASS;
	if (uc_open(UC_ARCH_ARM, mode, &m.uc))
		die("uc_open failed");
	switch (m.kind) {
	case K_LEGACY:
		model = UC_CPU_ARM_926;
		break;
	case K_V6:
		model = UC_CPU_ARM_1136;
		break;
	case K_V7:
		model = UC_CPU_ARM_CORTEX_A15;
		break;
	default:
		model = UC_CPU_ARM_CORTEX_M7;
		break;
	}
	if (uc_ctl_set_cpu_model(m.uc, model))
		die("cannot select the CPU model");
	if (uc_mem_map(m.uc, WIN_BASE, WIN_SIZE, UC_PROT_READ | UC_PROT_WRITE) ||
	    uc_mem_map(m.uc, STACK_TOP - 0x10000, 0x10000,
		       UC_PROT_READ | UC_PROT_WRITE) ||
	    uc_mem_map(m.uc, RET_ADDR, 0x1000, UC_PROT_ALL))
		die("uc_mem_map failed");
	uc_mem_write(m.uc, RET_ADDR, zero, sizeof(zero));
	uc_hook_add(m.uc, &h, UC_HOOK_CODE, hook_code, NULL, 1, 0);
	uc_hook_add(m.uc, &h, UC_HOOK_MEM_READ | UC_HOOK_MEM_WRITE, hook_win,
		    NULL, WIN_BASE, WIN_BASE + WIN_SIZE - 1);
	if (m.kind == K_V7M) {
		if (uc_mem_map(m.uc, SCB_PAGE, 0x1000, UC_PROT_READ | UC_PROT_WRITE))
			die("cannot map the SCB page");
		uc_hook_add(m.uc, &h, UC_HOOK_MEM_READ | UC_HOOK_MEM_WRITE,
			    hook_scb, NULL, SCB_PAGE, SCB_PAGE + 0xfff);
	}
}

/* call FN(a0, a1, a2); false (with m.err set) when it does not return */
static bool call(uint32_t fn, uint32_t a0, uint32_t a1, uint32_t a2)
{
	uint32_t t = m.thumb ? 1 : 0;
	uc_err e;

	set_reg(UC_ARM_REG_R0, a0);
	set_reg(UC_ARM_REG_R1, a1);
	set_reg(UC_ARM_REG_R2, a2);
	set_reg(UC_ARM_REG_R3, 0);
	set_reg(UC_ARM_REG_R12, 0);
	set_reg(UC_ARM_REG_SP, STACK_TOP - 64);
	set_reg(UC_ARM_REG_LR, RET_ADDR | t);
	if (m.kind != K_V7M)
		set_reg(UC_ARM_REG_CPSR, 0x1d3 | (t << 5));	/* SVC, IRQ/FIQ off */
	m.it_n = 0;
	m.have_mva = m.seen_sw = m.seen_test = false;
	e = uc_emu_start(m.uc, fn | t, RET_ADDR, 0, MAX_INSNS);
	if (m.err[0])
		return false;
	if (e) {
		snprintf(m.err, sizeof(m.err), "emulation error '%s' at pc 0x%08x",
			 uc_strerror(e), reg(UC_ARM_REG_PC));
		return false;
	}
	if ((reg(UC_ARM_REG_PC) & ~1u) != RET_ADDR) {
		snprintf(m.err, sizeof(m.err), "did not return (pc 0x%08x)",
			 reg(UC_ARM_REG_PC));
		return false;
	}
	return true;
}

/* ---------------------------------------------------------------- */
/* Scenarios                                                        */

struct scenario {
	const char *name;
	uint32_t off, size;
	bool dirty, neighbours;
	unsigned int chunk, devlen;	/* device writes devlen of each chunk */
	unsigned int reps;	/* buffers one after another (0: one) */
	bool warm;		/* the CPU read the buffer before writing it */
};

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

static bool dev_wrote(const struct scenario *s, uint32_t a, uint32_t lo)
{
	return s->chunk && (a - lo) % s->chunk < s->devlen;
}

static bool is_neighbour(const struct scenario *s, uint32_t a, uint32_t lo,
			 uint32_t hi)
{
	uint32_t nlo = (lo & ~(m.line - 1)) - m.line;
	uint32_t nhi = ((hi + m.line - 1) & ~(m.line - 1)) + m.line;

	return s->neighbours && ((a >= nlo && a < lo) || (a >= hi && a < nhi));
}

static void print_counts(const char *name)
{
	const struct counts *c = &m.c;

	printf("%s lost=%lu exposed=%lu devwrong=%lu neigh=%lu inv=%lu clean=%lu flush=%lu whole=%lu setway=%lu range=%lu test=%lu barrier=%lu icache=%lu l2=%lu mem=%lu wb=%lu evicted=%lu discarded=%lu specfill=%lu insns=%lu passes=%lu natural=%lu dirtymap=%lu capacity=%lu\n",
	       name, c->lost, c->exposed, c->devwrong, c->neigh, c->inv,
	       c->clean, c->flush, c->whole, c->setway, c->range, c->test,
	       c->barrier, c->icache, c->l2, c->mem, c->wb, c->evicted,
	       c->discarded, c->specfill, c->insns, c->passes, c->natural,
	       c->dirtymap, c->capacity);
}

static bool run_one(const struct scenario *s, uint32_t lo, uint32_t map,
		    uint32_t unmap, uint8_t *want)
{
	uint32_t hi = lo + s->size, a;
	uint32_t nlo = (lo & ~(m.line - 1)) - m.line;
	uint32_t nhi = ((hi + m.line - 1) & ~(m.line - 1)) + m.line;
	unsigned int sl;
	bool ok;

	for (a = nlo; a < nhi; a++)
		if (is_neighbour(s, a, lo, hi))
			cpu_write(a, NEIGHBOUR);
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

	m.in_map = true;
	ok = call(map, lo, s->size, DMA_FROM_DEVICE);
	m.in_map = false;
	if (!ok)
		return false;
	/* the worst point: the CPU allocates (clean) lines before the device writes */
	if (m.spec)
		for (a = lo & ~(m.line - 1); a < hi; a += m.line)
			spec_fill(a);
	for (a = lo; a < hi; a++)
		if (dev_wrote(s, a, lo))
			m.dram[a - WIN_BASE] = devdata(a);
	/* worst case: every dirty line is evicted after the device wrote */
	if (m.evict)
		for (sl = 0; sl < m.nslots; sl++)
			if (m.valid[sl] && m.dirty[sl]) {
				memcpy(m.dram + (m.tag[sl] - WIN_BASE),
				       m.cdata + sl * m.line, m.line);
				m.dirty[sl] = 0;
				m.valid[sl] = 0;
				m.c.evicted++;
			}
	if (!call(unmap, lo, s->size, DMA_FROM_DEVICE))
		return false;

	for (a = nlo; a < nhi; a++) {
		uint8_t v = cpu_peek(a);

		if (a < lo || a >= hi) {
			if (is_neighbour(s, a, lo, hi) && v != NEIGHBOUR)
				m.c.neigh++;
		} else if (dev_wrote(s, a, lo)) {
			if (v != devdata(a))
				m.c.devwrong++;
		} else if (v != want[a - WIN_BASE]) {
			m.c.lost++;
			if (v == stale(a))
				m.c.exposed++;
		}
	}
	return true;
}

static bool run(const struct scenario *s, uint32_t map, uint32_t unmap)
{
	uint8_t *want = malloc(WIN_SIZE);
	unsigned int k, reps = s->reps ? s->reps : 1;
	bool ok = true;

	if (!want)
		die("out of memory");
	if (s->off + reps * s->size + BUF_BASE - WIN_BASE + 256 > WIN_SIZE)
		die("scenario does not fit in the modelled window");
	cache_reset();
	for (k = 0; k < reps && ok; k++)
		ok = run_one(s, BUF_BASE + s->off + k * s->size, map, unmap, want);
	free(want);
	if (!ok) {
		printf("%s error=\"%s\"\n", s->name, m.err);
		m.err[0] = 0;
		return false;
	}
	print_counts(s->name);
	return true;
}

/* ---------------------------------------------------------------- */
/* Self-tests of the model itself                                   */

static int st_num;
static bool st_ok = true;

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

static void selftest_arm(void)
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

static void selftest_thumb(void)
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

static void selftest_v7m(void)
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
static void selftest_model(void)
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
static void selftest_cores(void)
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

static void usage(void)
{
	fprintf(stderr,
		"usage: cachemodel --elf FILE --map SYM --unmap SYM --kind legacy|v6|v7|v7m\n"
		"                  --core NAME [--alloc read|write] [--repl rr|random|lru]\n"
		"                  [--policy wb|wt|none] [--thumb] [--inv-as-flush]\n"
		"                  [--no-spec] [--no-evict] [--scenario NAME]...\n"
		"       cachemodel --elf SELFTEST.ELF --core NAME --selftest arm|thumb|v7m|model|cores\n"
		"       cachemodel --cores\n");
	exit(2);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "elf", 1, NULL, 'e' }, { "map", 1, NULL, 'm' },
		{ "unmap", 1, NULL, 'u' }, { "kind", 1, NULL, 'k' },
		{ "core", 1, NULL, 'C' }, { "policy", 1, NULL, 'p' },
		{ "alloc", 1, NULL, 'a' }, { "repl", 1, NULL, 'r' },
		{ "thumb", 0, NULL, 't' }, { "inv-as-flush", 0, NULL, 'I' },
		{ "no-spec", 0, NULL, 'S' }, { "no-evict", 0, NULL, 'E' },
		{ "scenario", 1, NULL, 'c' }, { "selftest", 1, NULL, 'T' },
		{ "cores", 0, NULL, 'L' },
		{ NULL, 0, NULL, 0 }
	};
	const char *elf = NULL, *map = NULL, *unmap = NULL, *selftest = NULL;
	const char *only[16], *alloc = NULL, *repl = NULL;
	int nonly = 0, o, status = 0;
	bool nospec = false;
	size_t i;

	m.evict = true;
	m.trace = getenv("CACHEMODEL_TRACE") != NULL;
	while ((o = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (o) {
		case 'e':
			elf = optarg;
			break;
		case 'm':
			map = optarg;
			break;
		case 'u':
			unmap = optarg;
			break;
		case 'k':
			if (!strcmp(optarg, "legacy"))
				m.kind = K_LEGACY;
			else if (!strcmp(optarg, "v6"))
				m.kind = K_V6;
			else if (!strcmp(optarg, "v7"))
				m.kind = K_V7;
			else if (!strcmp(optarg, "v7m"))
				m.kind = K_V7M;
			else
				usage();
			break;
		case 'C':
			m.core = core_find(optarg);
			if (!m.core)
				die("unknown core (cachemodel --cores lists them)");
			break;
		case 'a':
			alloc = optarg;
			break;
		case 'r':
			repl = optarg;
			break;
		case 'p':
			if (!strcmp(optarg, "wb"))
				m.pol = P_WB;
			else if (!strcmp(optarg, "wt"))
				m.pol = P_WT;
			else if (!strcmp(optarg, "none"))
				m.pol = P_NONE;
			else
				usage();
			break;
		case 't':
			m.thumb = true;
			break;
		case 'I':
			m.inv_as_flush = true;
			break;
		case 'S':
			nospec = true;
			break;
		case 'E':
			m.evict = false;
			break;
		case 'c':
			if (nonly < 16)
				only[nonly++] = optarg;
			break;
		case 'T':
			selftest = optarg;
			break;
		case 'L':
			core_list();
			return 0;
		default:
			usage();
		}
	}
	if (!elf || !m.core || (!selftest && (!map || !unmap)))
		usage();
	m.line = m.core->line;
	m.alloc = m.core->alloc;
	m.repl = m.core->repl;
	if (alloc && !strcmp(alloc, "read"))
		m.alloc = AL_READ;
	else if (alloc && !strcmp(alloc, "write"))
		m.alloc = AL_WRITE;
	else if (alloc)
		usage();
	if (repl && !strcmp(repl, "rr"))
		m.repl = R_RR;
	else if (repl && !strcmp(repl, "random"))
		m.repl = R_RANDOM;
	else if (repl && !strcmp(repl, "lru"))
		m.repl = R_LRU;
	else if (repl)
		usage();
	if (m.kind == K_V7M)
		m.thumb = true;
	/* v6, v7 and v7-M may allocate lines speculatively; ARMv4/v5 do not */
	m.spec = m.kind != K_LEGACY && !nospec;
	m.lshift = __builtin_ctz(m.line);
	/* the core's CTR; before ARMv7 only the self-tests read it */
	m.ctr = m.core->ctr ? m.core->ctr :
		0x80000000u | (m.lshift - 2) << 16 | (m.lshift - 2);
	cache_init();

	emu_open();
	load_elf(elf);
	if (selftest) {
		if (!strcmp(selftest, "arm"))
			selftest_arm();
		else if (!strcmp(selftest, "thumb"))
			selftest_thumb();
		else if (!strcmp(selftest, "v7m"))
			selftest_v7m();
		else if (!strcmp(selftest, "model"))
			selftest_model();
		else if (!strcmp(selftest, "cores"))
			selftest_cores();
		else
			usage();
		return st_ok ? 0 : 1;
	}

	for (i = 0; i < ARRAY_SIZE(scenarios); i++) {
		int j;
		bool want = !nonly;

		for (j = 0; j < nonly; j++)
			if (!strcmp(only[j], scenarios[i].name))
				want = true;
		if (want && !run(&scenarios[i], sym(map), sym(unmap)))
			status = 1;
	}
	return status;
}
