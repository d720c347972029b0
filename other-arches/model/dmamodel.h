/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dmamodel's shared state and interfaces. One job per file: emu.c
 * (Unicorn glue: errors, registers, memory hooks, ELF loading, calls),
 * or1k.c (an OpenRISC interpreter over Unicorn's memory),
 * cache.c (the software data cache), decode.c (each architecture's cache
 * instructions), scenario.c (the scenarios and self-tests), dmamodel.c
 * (options, main). What it shares with the ARM model is in
 * tools/include/dmacheck.h, which both models include.
 */
#ifndef DMAMODEL_H
#define DMAMODEL_H

#include <stdbool.h>
#include <stdint.h>
#include <unicorn/unicorn.h>
#include "dmacheck.h"

#define WIN_SIZE	(2u << 20)
#define BUF_OFF		0x10000u
#define STACK_TOP	0x00f00000u
#define TI_BASE		0x00e00000u	/* MIPS thread_info, task */
#define RET_ADDR	0x00d00000u
#define MAX_INSNS	50000000u
#define MAX_SETS	(1u << 14)

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define __printf(a, b)	__attribute__((format(printf, a, b)))

enum arch { A_MIPS, A_PPC, A_M68K, A_OR1K };

struct counts {
	unsigned long lost, exposed, devwrong, neigh;
	unsigned long inv, clean, flush, index, page, all, l2;
	unsigned long barrier, icache, mem, wb, evicted, discarded;
	unsigned long specfill, insns, passes;
};

struct model {
	uc_engine *uc;
	enum arch arch;
	bool be, spec, evict, push_keeps;
	bool coldfire;		/* cpushl by set and way; CACR invalidates */
	bool wt;		/* write-through: stores reach memory */
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
};

extern struct model m;

enum lop { L_INV, L_CLEAN, L_FLUSH };

/* emu.c: Unicorn, registers, ELF loading, calls */
void fail(const char *fmt, ...) __printf(1, 2);
void die(const char *msg);
uint32_t reg(int r);
void set_reg(int r, uint32_t v);
void wr32(uint8_t *p, uint32_t v);
uint32_t sym(const char *name);
void load_elf(const char *path);
void emu_open(void);
bool call(uint32_t fn, uint32_t a0, uint32_t a1, uint32_t a2);
void set_word(const char *spec);

/* cache.c: the modelled data cache */
void l_fill(unsigned int i);
void count(enum lop op);
void hit_op(uint32_t a, unsigned int len, enum lop op);
void index_op(uint32_t a, unsigned int sets, unsigned int line, enum lop op);
void all_op(enum lop op);
void cpu_write(uint32_t a, uint8_t v);
void cpu_touch(uint32_t a);
uint8_t cpu_read(uint32_t a);
void model_reset(void);

/* or1k.c: OpenRISC, interpreted (Unicorn has no such CPU) */
bool or1k_call(uint32_t fn, uint32_t a0, uint32_t a1, uint32_t a2);

/* decode.c: the cache instructions of each architecture */
void hook_code(uc_engine *uc, uint64_t pc, uint32_t size, void *u);

/* scenario.c */
bool run_scenarios(const char *map, const char *unmap,
		   const char *const *only, unsigned int nonly);
bool selftest(const char *spec);

/* the words of instructions and of the ELF file, in the CPU's byte order */
static inline uint32_t rd32(const uint8_t *p)
{
	return elf_rd32(p, m.be);
}

static inline uint16_t rd16(const uint8_t *p)
{
	return elf_rd16(p, m.be);
}

#endif
