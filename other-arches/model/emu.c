// SPDX-License-Identifier: GPL-2.0
/*
 * dmamodel's Unicorn glue: registers, the memory hooks of the modelled
 * window, the ELF file of the kernel objects (with
 * tools/include/dmacheck.h), the emulated CPU and its memory map, and
 * calls into the code with each architecture's calling convention.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dmamodel.h"

uint32_t reg(int r)
{
	uint32_t v = 0;

	uc_reg_read(m.uc, r, &v);
	return v;
}

static void set_reg(int r, uint32_t v)
{
	uc_reg_write(m.uc, r, &v);
}

static void wr32(uint8_t *p, uint32_t v)
{
	int i;

	for (i = 0; i < 4; i++)
		p[m.be ? 3 - i : i] = v >> (8 * i);
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
			b[i] = cpu_load(a + i);
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

uint32_t sym(const char *name)
{
	uint32_t v;

	if (elf_sym(m.elf, m.be, name, &v))
		return v;
	fprintf(stderr, "dmamodel: symbol %s not in the ELF file\n", name);
	exit(2);
}

void load_elf(const char *path)
{
	const char *err = elf_read(path, &m.elf, &m.elf_size);
	Elf32_Ehdr *eh = (Elf32_Ehdr *)m.elf;

	if (err)
		die(err);
	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_ident[EI_CLASS] != ELFCLASS32)
		die("not a 32-bit ELF file");
	if (m.be != (eh->e_ident[EI_DATA] == ELFDATA2MSB))
		die("the ELF file's byte order is not the CPU's");
	err = elf_load(m.uc, m.elf, m.be, &m.code_lo, &m.code_hi);
	if (err)
		die(err);
}

/* the CPU, its memory map and hooks; CODE_HOOK sees each instruction */
void emu_open(uc_cb_hookcode_t code_hook)
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
	case A_OR1K:
		/* memory only: or1k.c interprets the code */
		ua = UC_ARCH_MIPS;
		mode = UC_MODE_MIPS32 | UC_MODE_BIG_ENDIAN;
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
	uc_hook_add(m.uc, &h, UC_HOOK_CODE, code_hook, NULL, 1, 0);
	uc_hook_add(m.uc, &h, UC_HOOK_MEM_READ | UC_HOOK_MEM_WRITE, hook_win,
		    NULL, m.win, m.win + WIN_SIZE - 1);
	if (m.uc_off)
		uc_hook_add(m.uc, &h, UC_HOOK_MEM_READ | UC_HOOK_MEM_WRITE, hook_win,
			    NULL, m.win - m.uc_off, m.win - m.uc_off + WIN_SIZE - 1);
	uc_hook_add(m.uc, &h, UC_HOOK_INTR, hook_intr, NULL, 1, 0);
}

/* call FN(a0, a1, a2); false (with m.err set) when it does not return */
bool call(uint32_t fn, uint32_t a0, uint32_t a1, uint32_t a2)
{
	uint8_t frame[16];
	uc_err e;
	uint32_t sp = STACK_TOP - 256;
	int pcreg;

	m.have_last = false;
	if (m.arch == A_OR1K)
		return or1k_call(fn, a0, a1, a2);
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
	return dma_returned(e, reg(pcreg), ~0u, RET_ADDR, m.err, sizeof(m.err));
}

/* --set NAME=VALUE or NAME=@SYMBOL: a 32-bit word of the loaded image */
void set_word(const char *spec)
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
