/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dmamodel's shared state and interfaces. One job per file: state.c (the
 * shared state and errors), cache.c (the finite data cache), or1k.c (an
 * OpenRISC interpreter over Unicorn's memory), emu.c (Unicorn glue:
 * registers, memory hooks, ELF loading, calls), decode.c (each
 * architecture's cache instructions, in the code hook that dmamodel.c
 * hands to emu.c), scenario.c (the scenarios and self-tests), dmamodel.c
 * (options, main). Each file uses only those before it in this order
 * (other-arches/model/run.py checks it: dmamodel_files_call_one_way).
 * What it shares with the ARM model is in tools/include/dmacheck.h,
 * which both models include.
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
#define MAX_SLOTS	(WIN_SIZE / 16)	/* the window in lines of 16 bytes */

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define __printf(a, b)	__attribute__((format(printf, a, b)))

enum arch { A_MIPS, A_PPC, A_M68K, A_OR1K };
enum repl { R_LRU, R_RANDOM, R_RR };

struct counts {
	unsigned long lost, exposed, devwrong, neigh;
	unsigned long inv, clean, flush, index, page, all, l2;
	unsigned long barrier, icache, mem, wb, evicted, discarded;
	unsigned long specfill, insns, passes;
	unsigned long natural;		/* dirty lines written back on replacement */
	unsigned long dirtymap;		/* most dirty lines of a buffer at its map */
	unsigned long maplost, mapwb;	/* most bytes lost, lines written back, by a map */
	unsigned long devstale;		/* DMA_BIDIRECTIONAL: bytes the device reads stale */
};

struct model {
	uc_engine *uc;
	enum arch arch;
	bool be, spec, evict, push_keeps;
	bool coldfire;		/* cpushl by set and way; CACR invalidates */
	bool m030;		/* 68020/68030: CACR.CD clears the data cache */
	bool wt;		/* write-through: stores reach memory */
	bool walloc;		/* a write miss allocates (write-back only) */
	int cpu;
	int level;		/* the cache is the primary (1) or the secondary (2) */
	uint32_t win;		/* address of the window the code uses */
	uint32_t uc_off;	/* the code's address minus Unicorn's */
	uint32_t arg_off;	/* the code's address minus the map argument */
	/* the data cache: SIZE bytes, WAYS ways of LINE-byte lines */
	unsigned int size, ways, line, lshift, nsets, nslots;
	enum repl repl;
	uint32_t *tag;		/* a slot's line address */
	uint8_t *valid, *dirty, *cdata;
	unsigned long *stamp, tick;	/* LRU: each slot's last use */
	unsigned int rr;	/* round-robin: the next way */
	uint16_t lfsr;		/* pseudo-random: a fixed-seed LFSR */
	uint8_t *dram;		/* memory of the window */
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

/* state.c: the state above and the errors of a run */
void fail(const char *fmt, ...) __printf(1, 2);
void die(const char *msg);

/* cache.c: the modelled data cache */
void cache_init(void);
void cache_reset(void);
int slot_of(uint32_t a);
void count(enum lop op);
void hit_op(uint32_t a, unsigned int len, enum lop op);
void index_op(unsigned int set, unsigned int way, enum lop op);
void all_op(enum lop op);
void cpu_write(uint32_t a, uint8_t v);
uint8_t cpu_load(uint32_t a);
uint8_t cpu_peek(uint32_t a);
void spec_fill(uint32_t a);
void evict_all(void);
unsigned long dirty_lines_in(uint32_t lo, uint32_t hi);

/* or1k.c: OpenRISC, interpreted (Unicorn has no such CPU) */
bool or1k_call(uint32_t fn, uint32_t a0, uint32_t a1, uint32_t a2);

/* emu.c: Unicorn, registers, ELF loading, calls */
uint32_t reg(int r);
uint32_t sym(const char *name);
void load_elf(const char *path);
void emu_open(uc_cb_hookcode_t code_hook);
bool call(uint32_t fn, uint32_t a0, uint32_t a1, uint32_t a2);
void set_word(const char *spec);

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
