// SPDX-License-Identifier: GPL-2.0
/*
 * cachemodel's Unicorn glue: errors, the ELF file of the kernel objects,
 * the emulated CPU and its memory map, and calls into the code.
 */

#include <elf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model.h"

void fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	dma_vfail(m.uc, m.err, sizeof(m.err), fmt, ap);
	va_end(ap);
}

void die(const char *msg)
{
	fprintf(stderr, "cachemodel: %s\n", msg);
	exit(2);
}

/* ---------------------------------------------------------------- */
/* ELF loading and calls                                            */

uint32_t sym(const char *name)
{
	uint32_t v;

	if (elf_sym(m.elf, false, name, &v))
		return v;
	fprintf(stderr, "cachemodel: symbol %s not in the ELF file\n", name);
	exit(2);
}

void load_elf(const char *path)
{
	const char *err = elf_read(path, &m.elf, &m.elf_size);
	Elf32_Ehdr *eh = (Elf32_Ehdr *)m.elf;
	uint32_t lo, hi;

	if (err)
		die(err);
	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_machine != EM_ARM)
		die("not an ARM ELF file");
	err = elf_load(m.uc, m.elf, false, &lo, &hi);
	if (err)
		die(err);
	pv_fixup();
}

/*
 * The phys/virt stubs of __phys_to_virt() and __virt_to_phys()
 * (CONFIG_ARM_PATCH_PHYS_VIRT, asm/memory.h) as the kernel patches them
 * at boot (__fixup_pv_table), for an offset of 0: the model maps
 * virtual = physical. Each .pv_table entry is the offset from itself to
 * an ARM-state "add" or "sub" with an immediate, which becomes #0; any
 * other stub (Thumb-2's movw, LPAE's carry) stops the model.
 */
void pv_fixup(void)
{
	Elf32_Ehdr *eh = (Elf32_Ehdr *)m.elf;
	Elf32_Shdr *sh = (Elf32_Shdr *)(m.elf + eh->e_shoff);
	const char *names = (const char *)m.elf + sh[eh->e_shstrndx].sh_offset;
	uint32_t i, j, off, insn, a;

	for (i = 0; i < eh->e_shnum; i++) {
		if (strcmp(names + sh[i].sh_name, ".pv_table"))
			continue;
		for (j = 0; j + 4 <= sh[i].sh_size; j += 4) {
			memcpy(&off, m.elf + sh[i].sh_offset + j, 4);
			a = sh[i].sh_addr + j + off;
			if (uc_mem_read(m.uc, a, &insn, 4))
				die("a .pv_table entry points outside the code");
			/* ADD or SUB (immediate), ARM state */
			if ((insn & 0x0fe00000) != 0x02800000 &&
			    (insn & 0x0fe00000) != 0x02400000)
				die("a .pv_table entry that is not an ARM add/sub #imm");
			insn &= ~0xfffu;
			uc_mem_write(m.uc, a, &insn, 4);
		}
	}
}

void emu_open(void)
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
bool call(uint32_t fn, uint32_t a0, uint32_t a1, uint32_t a2)
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
	return dma_returned(e, reg(UC_ARM_REG_PC), ~1u, RET_ADDR, m.err,
			    sizeof(m.err));
}

uint32_t read32(uint32_t a)
{
	uint32_t v;

	if (uc_mem_read(m.uc, a, &v, 4))
		die("cannot read the ELF's data");
	return v;
}

void write32(uint32_t a, uint32_t v)
{
	if (uc_mem_write(m.uc, a, &v, 4))
		die("cannot write the ELF's data");
}

/*
 * the L2C-x10's register page, cache-l2x0.c's l2x0_base pointing at it
 * and its l2x0_size
 */
void outer_open(void)
{
	uc_hook h;

	if (!m.l2->regs)
		return;
	if (uc_mem_map(m.uc, L2_BASE, 0x1000, UC_PROT_READ | UC_PROT_WRITE))
		die("cannot map the L2 registers");
	uc_hook_add(m.uc, &h, UC_HOOK_MEM_READ | UC_HOOK_MEM_WRITE, hook_l2,
		    NULL, L2_BASE, L2_BASE + 0xfff);
	write32(sym("l2x0_base"), L2_BASE);
	/* as l2x0_init() sets it: the L2C-220's ranges compare with it */
	write32(sym("l2x0_size"), m.l2->size);
}
