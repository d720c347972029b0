// SPDX-License-Identifier: GPL-2.0
/*
 * dmamodel: execute the compiled DMA cache maintenance of a non-ARM
 * non-coherent architecture (MIPS r4k, 32-bit PowerPC, m68k 040/060) in
 * Unicorn against a software data cache, with the scenarios of the ARM
 * model (arch-arm/model/cachemodel.c, whose ideas this reuses).
 *
 * Unicorn executes MIPS "cache", PowerPC dcbi/dcbf/dcbst and m68k
 * cinv/cpush without any cache (as no-ops, or as a plain load and store
 * on PowerPC). A code hook decodes each of them before it runs and
 * applies it to the modelled cache; the memory accesses that QEMU makes
 * for a PowerPC cache instruction are ignored. Any other cache
 * instruction, or one on an address outside the modelled window, stops
 * the run with an error. Loads and stores of the kernel code to the
 * window go through the cache.
 *
 * Output: one line per scenario, "name key=value ...".
 */

#include <elf.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unicorn/unicorn.h>

#define WIN_SIZE	(2u << 20)
#define BUF_OFF		0x10000u
#define STACK_TOP	0x00f00000u
#define TI_BASE		0x00e00000u	/* MIPS thread_info, task */
#define RET_ADDR	0x00d00000u
#define MAX_INSNS	50000000u
#define MAX_SETS	(1u << 14)

#define DMA_FROM_DEVICE	2
#define SENTINEL	0x00
#define NEIGHBOUR	0x4e

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define __printf(a, b)	__attribute__((format(printf, a, b)))

enum arch { A_MIPS, A_PPC, A_M68K };

struct counts {
	unsigned long lost, exposed, devwrong, neigh;
	unsigned long inv, clean, flush, index, page, all, l2;
	unsigned long barrier, icache, mem, wb, evicted, discarded;
	unsigned long specfill, insns, passes;
};

static struct {
	uc_engine *uc;
	enum arch arch;
	bool be, spec, evict, push_keeps;
	int cpu;
	uint32_t win;		/* address of the window the code uses */
	uint32_t uc_off;	/* the code's address minus Unicorn's */
	uint32_t arg_off;	/* the code's address minus the map argument */
	unsigned int line, lshift, nlines, sets, ssets, sline;
	uint8_t *valid, *dirty, *cdata, *dram;
	uint32_t last;
	bool have_last, in_cacheop;
	struct counts c;
	char err[256];
	uint8_t *elf;
	size_t elf_size;
	uint32_t code_lo, code_hi;
} m;

static __printf(1, 2) void fail(const char *fmt, ...);

static void fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (!m.err[0])
		vsnprintf(m.err, sizeof(m.err), fmt, ap);
	va_end(ap);
	uc_emu_stop(m.uc);
}

static void die(const char *msg)
{
	fprintf(stderr, "dmamodel: %s\n", msg);
	exit(2);
}

/* ---------------------------------------------------------------- */
/* The cache                                                        */

static inline uint8_t stale(uint32_t a)
{
	return 0xa0 | (a & 0xf);
}

static inline uint8_t devdata(uint32_t a)
{
	return 0xd0 | ((a >> 4) & 0xf);
}

static void l_fill(unsigned int i)
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

enum lop { L_INV, L_CLEAN, L_FLUSH };

static void l_op(unsigned int i, enum lop op)
{
	if (op != L_INV)
		l_clean(i);
	if (op != L_CLEAN)
		l_inv(i);
}

static void count(enum lop op)
{
	if (op == L_INV)
		m.c.inv++;
	else if (op == L_CLEAN)
		m.c.clean++;
	else
		m.c.flush++;
}

/* a hit operation on the line of A (LEN bytes from its aligned start) */
static void hit_op(uint32_t a, unsigned int len, enum lop op)
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
static void index_op(uint32_t a, unsigned int sets, unsigned int line,
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

static void all_op(enum lop op)
{
	unsigned int i;

	m.c.all++;
	m.c.passes++;
	for (i = 0; i < m.nlines; i++)
		l_op(i, op);
}

static void cpu_write(uint32_t a, uint8_t v)
{
	unsigned int i = (a - m.win) >> m.lshift;

	if (!m.valid[i])
		l_fill(i);
	m.cdata[a - m.win] = v;
	m.dirty[i] = 1;
}

static void cpu_touch(uint32_t a)
{
	unsigned int i = (a - m.win) >> m.lshift;

	if (!m.valid[i])
		l_fill(i);
}

static uint8_t cpu_read(uint32_t a)
{
	unsigned int i = (a - m.win) >> m.lshift;

	return m.valid[i] ? m.cdata[a - m.win] : m.dram[a - m.win];
}

static void model_reset(void)
{
	uint32_t a;

	memset(m.valid, 0, m.nlines);
	memset(m.dirty, 0, m.nlines);
	for (a = 0; a < WIN_SIZE; a++)
		m.dram[a] = stale(m.win + a);
	memset(&m.c, 0, sizeof(m.c));
}

/* ---------------------------------------------------------------- */
/* Registers, instructions                                          */

static uint32_t reg(int r)
{
	uint32_t v = 0;

	uc_reg_read(m.uc, r, &v);
	return v;
}

static void set_reg(int r, uint32_t v)
{
	uc_reg_write(m.uc, r, &v);
}

static uint32_t rd32(const uint8_t *p)
{
	if (m.be)
		return (uint32_t)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3];
	return (uint32_t)p[3] << 24 | p[2] << 16 | p[1] << 8 | p[0];
}

static uint16_t rd16(const uint8_t *p)
{
	return m.be ? (uint16_t)(p[0] << 8 | p[1]) : (uint16_t)(p[1] << 8 | p[0]);
}

static void wr32(uint8_t *p, uint32_t v)
{
	int i;

	for (i = 0; i < 4; i++)
		p[m.be ? 3 - i : i] = v >> (8 * i);
}

/*
 * MIPS "cache op, offset(base)": op bits 1:0 the cache (0 I, 1 D, 2 T,
 * 3 S), bits 4:2 the operation. Secondary-cache operations act on the
 * one modelled level: the kernel uses them only where the primary
 * caches are inclusive (cpu_has_inclusive_pcaches), so they act on the
 * data the CPU holds.
 */
static void mips_insn(uint32_t insn)
{
	unsigned int op, base, c, kind;
	uint32_t ea;

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
	kind = op >> 2;
	if (c == 0) {
		m.c.icache++;
		return;
	}
	if (c == 3)
		m.c.l2++;
	switch ((c == 1 ? 0 : 0x10) | kind) {
	case 0x00:	/* Index_Writeback_Inv_D */
		index_op(ea, m.sets, m.line, L_FLUSH);
		break;
	case 0x10:	/* Index_Writeback_Inv_SD */
		index_op(ea, m.ssets, m.sline, L_FLUSH);
		break;
	case 0x04:	/* Hit_Invalidate_D */
		hit_op(ea, m.line, L_INV);
		break;
	case 0x14:	/* Hit_Invalidate_SD */
		hit_op(ea, m.sline, L_INV);
		break;
	case 0x05:	/* Hit_Writeback_Inv_D */
		hit_op(ea, m.line, L_FLUSH);
		break;
	case 0x15:	/* Hit_Writeback_Inv_SD */
		hit_op(ea, m.sline, L_FLUSH);
		break;
	case 0x06:	/* Hit_Writeback_D */
		hit_op(ea, m.line, L_CLEAN);
		break;
	case 0x16:	/* Hit_Writeback_SD */
		hit_op(ea, m.sline, L_CLEAN);
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
 * m68k 040/060 cinv/cpush: 1111 0100 CC S SS R RRR, cache CC (1 data,
 * 2 instruction, 3 both), scope 1 line, 2 page, 3 all, R the address
 * register. cpush writes back and invalidates on the '040; on the '060
 * with CACR.DPI set (as Linux sets it) it only writes back.
 */
static void m68k_insn(uint16_t op)
{
	unsigned int cache = (op >> 6) & 3, scope = (op >> 3) & 3;
	bool push = op & 0x20;
	enum lop lop = push ? (m.push_keeps ? L_CLEAN : L_FLUSH) : L_INV;
	uint32_t ea;

	if ((op & 0xff00) != 0xf400)
		return;
	if (cache & 2)
		m.c.icache++;
	if (!(cache & 1))
		return;
	ea = reg(UC_M68K_REG_A0 + (op & 7));
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

static void hook_code(uc_engine *uc, uint64_t pc, uint32_t size, void *u)
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
		m68k_insn(rd16(b));
		break;
	}
}

static void hook_win(uc_engine *uc, uc_mem_type type, uint64_t addr,
		     int size, int64_t value, void *u)
{
	uint8_t b[8];
	uint32_t a = addr;
	int i;

	if (m.in_cacheop)
		return;
	if (a - m.win >= WIN_SIZE)	/* given as Unicorn's address */
		a += m.uc_off;
	m.c.mem++;
	for (i = 0; i < size && i < 8; i++) {
		uint8_t v = (uint8_t)(value >> (8 * (m.be ? size - 1 - i : i)));

		if (type == UC_MEM_READ)
			b[i] = cpu_read(a + i);
		else
			cpu_write(a + i, v);
	}
	if (type == UC_MEM_READ)
		uc_mem_write(uc, a - m.uc_off, b, size);
}

static void hook_intr(uc_engine *uc, uint32_t intno, void *u)
{
	fail("CPU exception %u", intno);
}

/* ---------------------------------------------------------------- */
/* ELF loading, symbols, calls                                      */

static uint32_t sym(const char *name)
{
	Elf32_Ehdr *eh = (Elf32_Ehdr *)m.elf;
	uint32_t shoff = rd32((uint8_t *)&eh->e_shoff);
	unsigned int shnum = rd16((uint8_t *)&eh->e_shnum), i;

	for (i = 0; i < shnum; i++) {
		uint8_t *sh = m.elf + shoff + i * sizeof(Elf32_Shdr);
		Elf32_Shdr *s = (Elf32_Shdr *)sh;
		uint8_t *strsh;
		uint32_t off, size, stroff, j;

		if (rd32((uint8_t *)&s->sh_type) != SHT_SYMTAB)
			continue;
		off = rd32((uint8_t *)&s->sh_offset);
		size = rd32((uint8_t *)&s->sh_size);
		strsh = m.elf + shoff + rd32((uint8_t *)&s->sh_link) * sizeof(Elf32_Shdr);
		stroff = rd32((uint8_t *)&((Elf32_Shdr *)strsh)->sh_offset);
		for (j = 0; j < size / sizeof(Elf32_Sym); j++) {
			Elf32_Sym *y = (Elf32_Sym *)(m.elf + off + j * sizeof(Elf32_Sym));

			if (rd16((uint8_t *)&y->st_shndx) != SHN_UNDEF &&
			    !strcmp((char *)m.elf + stroff + rd32((uint8_t *)&y->st_name), name))
				return rd32((uint8_t *)&y->st_value);
		}
	}
	fprintf(stderr, "dmamodel: symbol %s not in the ELF file\n", name);
	exit(2);
}

static void load_elf(const char *path)
{
	FILE *f = fopen(path, "rb");
	Elf32_Ehdr *eh;
	uint32_t lo = ~0u, hi = 0, phoff;
	unsigned int i, phnum;

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
	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_ident[EI_CLASS] != ELFCLASS32)
		die("not a 32-bit ELF file");
	if (m.be != (eh->e_ident[EI_DATA] == ELFDATA2MSB))
		die("the ELF file's byte order is not the CPU's");
	phoff = rd32((uint8_t *)&eh->e_phoff);
	phnum = rd16((uint8_t *)&eh->e_phnum);
	for (i = 0; i < phnum; i++) {
		Elf32_Phdr *p = (Elf32_Phdr *)(m.elf + phoff + i * sizeof(*p));
		uint32_t va = rd32((uint8_t *)&p->p_vaddr);
		uint32_t msz = rd32((uint8_t *)&p->p_memsz);

		if (rd32((uint8_t *)&p->p_type) != PT_LOAD || !msz)
			continue;
		if (va < lo)
			lo = va;
		if (va + msz > hi)
			hi = va + msz;
	}
	if (lo >= hi)
		die("no loadable segment");
	m.code_lo = lo & ~0xfffu;
	m.code_hi = (hi + 0xfff) & ~0xfffu;
	if (uc_mem_map(m.uc, m.code_lo, m.code_hi - m.code_lo, UC_PROT_ALL))
		die("cannot map the code");
	for (i = 0; i < phnum; i++) {
		Elf32_Phdr *p = (Elf32_Phdr *)(m.elf + phoff + i * sizeof(*p));

		if (rd32((uint8_t *)&p->p_type) == PT_LOAD && rd32((uint8_t *)&p->p_filesz))
			uc_mem_write(m.uc, rd32((uint8_t *)&p->p_vaddr),
				     m.elf + rd32((uint8_t *)&p->p_offset),
				     rd32((uint8_t *)&p->p_filesz));
	}
}

static void emu_open(void)
{
	static uint8_t zero[0x10000];
	uc_arch ua;
	uc_mode mode;
	uc_hook h;

	switch (m.arch) {
	case A_MIPS:
		ua = UC_ARCH_MIPS;
		mode = UC_MODE_MIPS32 | (m.be ? UC_MODE_BIG_ENDIAN : UC_MODE_LITTLE_ENDIAN);
		break;
	case A_PPC:
		ua = UC_ARCH_PPC;
		mode = UC_MODE_PPC32 | UC_MODE_BIG_ENDIAN;
		break;
	default:
		ua = UC_ARCH_M68K;
		mode = UC_MODE_BIG_ENDIAN;
		break;
	}
	if (uc_open(ua, mode, &m.uc))
		die("uc_open failed");
	if (m.cpu >= 0 && uc_ctl_set_cpu_model(m.uc, m.cpu))
		die("cannot select the CPU model");
	if (uc_mem_map(m.uc, m.win - m.uc_off, WIN_SIZE, UC_PROT_READ | UC_PROT_WRITE) ||
	    uc_mem_map(m.uc, STACK_TOP - 0x10000, 0x10000, UC_PROT_READ | UC_PROT_WRITE) ||
	    uc_mem_map(m.uc, TI_BASE, 0x10000, UC_PROT_READ | UC_PROT_WRITE) ||
	    uc_mem_map(m.uc, RET_ADDR, 0x1000, UC_PROT_ALL))
		die("uc_mem_map failed");
	uc_mem_write(m.uc, RET_ADDR, zero, 0x1000);
	uc_mem_write(m.uc, TI_BASE, zero, 0x10000);
	uc_hook_add(m.uc, &h, UC_HOOK_CODE, hook_code, NULL, 1, 0);
	uc_hook_add(m.uc, &h, UC_HOOK_MEM_READ | UC_HOOK_MEM_WRITE, hook_win,
		    NULL, m.win, m.win + WIN_SIZE - 1);
	if (m.uc_off)
		uc_hook_add(m.uc, &h, UC_HOOK_MEM_READ | UC_HOOK_MEM_WRITE, hook_win,
			    NULL, m.win - m.uc_off, m.win - m.uc_off + WIN_SIZE - 1);
	uc_hook_add(m.uc, &h, UC_HOOK_INTR, hook_intr, NULL, 1, 0);
}

/* call FN(a0, a1, a2); false (with m.err set) when it does not return */
static bool call(uint32_t fn, uint32_t a0, uint32_t a1, uint32_t a2)
{
	uint8_t frame[16];
	uc_err e;
	uint32_t sp = STACK_TOP - 256, pc;
	int pcreg;

	m.have_last = false;
	switch (m.arch) {
	case A_MIPS:
		set_reg(UC_MIPS_REG_4, a0);
		set_reg(UC_MIPS_REG_5, a1);
		set_reg(UC_MIPS_REG_6, a2);
		set_reg(UC_MIPS_REG_25, fn);
		set_reg(UC_MIPS_REG_SP, sp);
		set_reg(UC_MIPS_REG_GP, TI_BASE);
		set_reg(UC_MIPS_REG_RA, RET_ADDR);
		/* thread_info.task -> a zeroed task_struct */
		wr32(frame, TI_BASE + 0x1000);
		uc_mem_write(m.uc, TI_BASE, frame, 4);
		pcreg = UC_MIPS_REG_PC;
		break;
	case A_PPC:
		set_reg(UC_PPC_REG_3, a0);
		set_reg(UC_PPC_REG_4, a1);
		set_reg(UC_PPC_REG_5, a2);
		set_reg(UC_PPC_REG_1, sp);
		set_reg(UC_PPC_REG_2, TI_BASE);
		set_reg(UC_PPC_REG_LR, RET_ADDR);
		pcreg = UC_PPC_REG_PC;
		break;
	default:
		sp -= 16;
		wr32(frame, RET_ADDR);
		wr32(frame + 4, a0);
		wr32(frame + 8, a1);
		wr32(frame + 12, a2);
		uc_mem_write(m.uc, sp, frame, 16);
		/* supervisor first: writing SR switches the stack pointers */
		set_reg(UC_M68K_REG_SR, 0x2700);
		set_reg(UC_M68K_REG_A7, sp);
		pcreg = UC_M68K_REG_PC;
		break;
	}
	e = uc_emu_start(m.uc, fn, RET_ADDR, 0, MAX_INSNS);
	pc = reg(pcreg);
	if (m.err[0])
		return false;
	if (e) {
		snprintf(m.err, sizeof(m.err), "emulation error '%s' at pc 0x%08x",
			 uc_strerror(e), pc);
		return false;
	}
	if (pc != RET_ADDR) {
		snprintf(m.err, sizeof(m.err), "did not return (pc 0x%08x)", pc);
		return false;
	}
	return true;
}

/* --set NAME=VALUE or NAME=@SYMBOL: a 32-bit word of the loaded image */
static void set_word(const char *spec)
{
	char name[128];
	const char *eq = strchr(spec, '=');
	uint8_t b[4];
	uint32_t v;

	if (!eq || eq - spec >= (long)sizeof(name))
		die("--set wants NAME=VALUE");
	memcpy(name, spec, eq - spec);
	name[eq - spec] = 0;
	v = eq[1] == '@' ? sym(eq + 2) : strtoul(eq + 1, NULL, 0);
	wr32(b, v);
	if (uc_mem_write(m.uc, sym(name), b, 4))
		die("--set: cannot write the symbol");
}

/* ---------------------------------------------------------------- */
/* Scenarios (those of the ARM model)                               */

struct scenario {
	const char *name;
	uint32_t off, size;
	bool dirty, neighbours;
	unsigned int chunk, devlen;
	unsigned int reps;
};

static const struct scenario scenarios[] = {
	{ "maponly", 0, 409600, true, false, 0, 0, 0 },
	{ "short", 0, 409600, true, false, 1024, 600, 0 },
	{ "unaligned", 13, 8152, true, true, 1024, 600, 0 },
	{ "rt256", 0, 256, true, false, 0, 0, 0 },
	{ "rt1m", 0, 1u << 20, true, false, 0, 0, 0 },
	{ "rt1mclean", 0, 1u << 20, false, false, 0, 0, 0 },
	{ "boards100", 0, 4096, true, false, 0, 0, 100 },
	/* sizes below the MIPS data cache, where r4k uses hit operations */
	{ "short4k", 0, 4096, true, false, 1024, 600, 0 },
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

	printf("%s lost=%lu exposed=%lu devwrong=%lu neigh=%lu inv=%lu clean=%lu flush=%lu index=%lu page=%lu all=%lu l2=%lu barrier=%lu icache=%lu mem=%lu wb=%lu evicted=%lu discarded=%lu specfill=%lu insns=%lu passes=%lu\n",
	       name, c->lost, c->exposed, c->devwrong, c->neigh, c->inv,
	       c->clean, c->flush, c->index, c->page, c->all, c->l2,
	       c->barrier, c->icache, c->mem, c->wb, c->evicted,
	       c->discarded, c->specfill, c->insns, c->passes);
}

static bool run_one(const struct scenario *s, uint32_t lo, uint32_t map,
		    uint32_t unmap, uint8_t *want)
{
	uint32_t hi = lo + s->size, a;
	uint32_t nlo = (lo & ~(m.line - 1)) - m.line;
	uint32_t nhi = ((hi + m.line - 1) & ~(m.line - 1)) + m.line;
	unsigned int i;

	for (a = nlo; a < nhi; a++)
		if (is_neighbour(s, a, lo, hi))
			cpu_write(a, NEIGHBOUR);
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
		if (dev_wrote(s, a, lo))
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
	for (a = nlo; a < nhi; a++) {
		uint8_t v = cpu_read(a);

		if (a < lo || a >= hi) {
			if (is_neighbour(s, a, lo, hi) && v != NEIGHBOUR)
				m.c.neigh++;
		} else if (dev_wrote(s, a, lo)) {
			if (v != devdata(a))
				m.c.devwrong++;
		} else if (v != want[a - m.win]) {
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
	if (s->off + reps * s->size + BUF_OFF + 256 > WIN_SIZE)
		die("scenario does not fit in the modelled window");
	model_reset();
	for (k = 0; k < reps && ok; k++)
		ok = run_one(s, m.win + BUF_OFF + s->off + k * s->size, map, unmap, want);
	free(want);
	if (!ok) {
		printf("%s error=\"%s\"\n", s->name, m.err);
		m.err[0] = 0;
		return false;
	}
	print_counts(s->name);
	return true;
}

/*
 * Self-test: dirty 8 lines, call FN(addr, 4 lines, DIR) on the first 4
 * (with WHAT_page, a page: 2 pages dirtied, FN called on the first)
 * (addr is the window address minus --arg-off, or the window address
 * itself with "va:"), and check what the cache then holds: "inv" lines
 * invalid and their data discarded, "flush" written back and invalid,
 * "clean" written back and still valid; the other 4 lines untouched.
 */
static bool selftest(const char *spec)
{
	char what[16], fn[128];
	unsigned int dir = 0, i, first, n = 4, bad = 0;
	uint32_t lo, a, arg;
	bool va = false;

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
		bool in = i < first + n, ok;

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
	printf("%sok selftest_%s_%s # %u of %u lines wrong\n", bad ? "not " : "",
	       what, fn, bad, 2 * n);
	return !bad;
}

/* ---------------------------------------------------------------- */

static void usage(void)
{
	fprintf(stderr,
		"usage: dmamodel --arch mips|mipsel|ppc|m68k --elf FILE --win ADDR\n"
		"                [--cpu N] [--uc-off N] [--arg-off N] --line N [--sets N]\n"
		"                [--sline N --ssets N] [--spec] [--no-evict] [--push-keeps]\n"
		"                [--set NAME=VALUE|@SYM]... [--setup FN[:ARG]]\n"
		"                (--map FN [--unmap FN] [--scenario NAME]... |\n"
		"                 --selftest WHAT:FN[:DIR]...)\n");
	exit(2);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "arch", 1, NULL, 'a' }, { "elf", 1, NULL, 'e' },
		{ "win", 1, NULL, 'w' }, { "cpu", 1, NULL, 'C' },
		{ "uc-off", 1, NULL, 'u' }, { "arg-off", 1, NULL, 'o' },
		{ "line", 1, NULL, 'l' }, { "sets", 1, NULL, 's' },
		{ "sline", 1, NULL, 'L' }, { "ssets", 1, NULL, 'S' },
		{ "spec", 0, NULL, 'p' }, { "no-evict", 0, NULL, 'E' },
		{ "push-keeps", 0, NULL, 'k' }, { "set", 1, NULL, 'x' },
		{ "setup", 1, NULL, 'i' }, { "map", 1, NULL, 'm' },
		{ "unmap", 1, NULL, 'U' }, { "scenario", 1, NULL, 'c' },
		{ "selftest", 1, NULL, 'T' }, { NULL, 0, NULL, 0 },
	};
	const char *elf = NULL, *map = NULL, *unmap = NULL, *setup = NULL;
	const char *only[16], *sets[32], *tests[16];
	unsigned int nonly = 0, nsets = 0, ntests = 0, i, j;
	bool ok = true;
	int c;

	m.cpu = -1;
	m.evict = true;
	m.line = 32;
	m.sets = 256;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'a':
			if (!strcmp(optarg, "mips")) {
				m.arch = A_MIPS;
				m.be = true;
			} else if (!strcmp(optarg, "mipsel")) {
				m.arch = A_MIPS;
			} else if (!strcmp(optarg, "ppc")) {
				m.arch = A_PPC;
				m.be = true;
			} else if (!strcmp(optarg, "m68k")) {
				m.arch = A_M68K;
				m.be = true;
			} else {
				usage();
			}
			break;
		case 'e': elf = optarg; break;
		case 'w': m.win = strtoul(optarg, NULL, 0); break;
		case 'C': m.cpu = atoi(optarg); break;
		case 'u': m.uc_off = strtoul(optarg, NULL, 0); break;
		case 'o': m.arg_off = strtoul(optarg, NULL, 0); break;
		case 'l': m.line = atoi(optarg); break;
		case 's': m.sets = atoi(optarg); break;
		case 'L': m.sline = atoi(optarg); break;
		case 'S': m.ssets = atoi(optarg); break;
		case 'p': m.spec = true; break;
		case 'E': m.evict = false; break;
		case 'k': m.push_keeps = true; break;
		case 'x':
			if (nsets < ARRAY_SIZE(sets))
				sets[nsets++] = optarg;
			break;
		case 'i': setup = optarg; break;
		case 'm': map = optarg; break;
		case 'U': unmap = optarg; break;
		case 'c':
			if (nonly < ARRAY_SIZE(only))
				only[nonly++] = optarg;
			break;
		case 'T':
			if (ntests < ARRAY_SIZE(tests))
				tests[ntests++] = optarg;
			break;
		default:
			usage();
		}
	}
	if (!elf || !m.win || (!map && !ntests) || m.line < 4 ||
	    (m.line & (m.line - 1)) || (m.sets & (m.sets - 1)) ||
	    m.sets > MAX_SETS)
		usage();
	if (!m.sline) {
		m.sline = m.line;
		m.ssets = m.sets;
	}
	m.lshift = __builtin_ctz(m.line);
	m.nlines = WIN_SIZE / m.line;
	m.valid = calloc(m.nlines, 1);
	m.dirty = calloc(m.nlines, 1);
	m.cdata = calloc(WIN_SIZE, 1);
	m.dram = calloc(WIN_SIZE, 1);
	if (!m.valid || !m.dirty || !m.cdata || !m.dram)
		die("out of memory");

	emu_open();
	load_elf(elf);
	for (i = 0; i < nsets; i++)
		set_word(sets[i]);
	if (setup) {
		char fn[128];
		unsigned long arg = 0;

		if (sscanf(setup, "%127[^:]:%lu", fn, &arg) < 1)
			die("--setup wants FUNCTION[:ARG]");
		if (!call(sym(fn), arg, 0, 0)) {
			fprintf(stderr, "dmamodel: %s: %s\n", setup, m.err);
			return 2;
		}
	}
	for (i = 0; i < ntests; i++)
		ok &= selftest(tests[i]);
	for (i = 0; map && i < ARRAY_SIZE(scenarios); i++) {
		bool want = !nonly;

		for (j = 0; j < nonly; j++)
			if (!strcmp(only[j], scenarios[i].name))
				want = true;
		if (want && !run(&scenarios[i], sym(map), unmap ? sym(unmap) : 0))
			ok = false;
	}
	uc_close(m.uc);
	return ok ? 0 : 1;
}
