/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cachemodel's shared state and interfaces. One job per file:
 * emu.c (Unicorn, ELF loading, calls), dmamapping.c (what the compiled
 * dma-mapping.o needs, and its steps), armregs.c (registers,
 * conditions), decode.c (coprocessor and SCB decoding, the memory
 * hooks), cores.c (each core's L1 geometry),
 * cache.c (the finite L1 of each core), outer.c (the outer caches, their
 * registers and line operations), cachemodel.c (scenarios), main.c
 * (options), selftest.c (the model's own tests, which call the model),
 * suite.c (the compiled KUnit suite); stubs.S, probe.c and kunit-stubs.c
 * are linked with the kernel objects.
 */
#ifndef CACHEMODEL_MODEL_H
#define CACHEMODEL_MODEL_H

#include <stdbool.h>
#include <stdint.h>
#include <unicorn/unicorn.h>
#include "dmacheck.h"

/*
 * The modelled memory: by default at the kernel's PAGE_OFFSET (0xc0000000
 * in every modelled MMU configuration) and at the same physical address,
 * so that the kernel's virt_to_pfn() (which subtracts PAGE_OFFSET and
 * adds PHYS_PFN_OFFSET) and __phys_to_virt() (which adds the patched
 * offset 0) both give the address itself; --window puts it at a !MMU
 * kernel's CONFIG_DRAM_BASE.
 */
#define WIN_DEFAULT	0xc0000000u
#define WIN_BASE	(m.win_base)
#define WIN_SIZE	(2u << 20)

#define BUF_BASE	(WIN_BASE + 0x10000u)
#define STACK_TOP	0x30010000u
#define RET_ADDR	0x31000000u
#define SCB_PAGE	0xe000e000u
#define SCB_CTR		0xe000ed7cu
#define SCB_CCSIDR	0xe000ed80u
#define SCB_CSSELR	0xe000ed84u
#define L2_BASE		0xf8f02000u	/* the Zynq-7000's L2C-310 (UG585) */
#define MEM_MAP		0x30100000u	/* dma-mapping.o's struct page array */
#define MEM_MAP_SIZE	0x10000u
#define CURRENT_TASK	0x30200000u	/* current: TPIDRURO, a zeroed task_struct */
#define MAX_INSNS	50000000u

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

enum kind { K_LEGACY, K_V6, K_V7, K_V7M };
enum policy { P_WB, P_WT, P_NONE };
enum alloc { AL_READ, AL_WRITE };
enum repl { R_RR, R_RANDOM, R_LRU };

/* one modelled outer cache (outer.c) */
struct l2type {
	const char *name;
	unsigned int size, ways, line;
	bool regs;		/* maintained through the L2X0 line registers */
	const char *fn[3];	/* inv, clean, flush range: the kernel's */
	const char *desc;
};

/* one modelled core's L1 data cache, from its TRM (cache.c) */
struct core {
	const char *name;
	unsigned int size, ways, line;
	enum repl repl;
	enum alloc alloc;	/* as the kernel configures it by default */
	uint32_t ctr, ccsidr;	/* 0: the core has no such register */
	const char *source;
};

struct counts {
	unsigned long lost, exposed, devwrong, neigh;
	unsigned long inv, clean, flush, whole, setway, range, test;
	unsigned long barrier, icache, mem;
	unsigned long wb, evicted, discarded, specfill, insns;
	unsigned long passes;	/* traversals: ascending MVA runs, whole ops... */
	unsigned long natural;	/* dirty lines written back by replacement */
	unsigned long dirtymap;	/* dirty lines of the buffer at map */
	unsigned long foreign;	/* dirty lines outside it a map discarded */
	unsigned long capacity;	/* lines the cache holds */
	/* the outer cache (outer.c) */
	unsigned long l2inv, l2clean, l2flush, l2sync, l2wb, l2discarded;
	unsigned long l2natural, l2evicted, l2unaligned, l2dirtymap, l2capacity;
	unsigned long l2range;
	unsigned long streamed;	/* times write streaming began (stream.c) */
};

struct model {
	uc_engine *uc;
	enum kind kind;
	enum policy pol;
	const struct core *core;
	const struct l2type *l2;
	enum alloc alloc;
	enum repl repl;
	bool thumb, spec, evict, trace, inv_as_flush, in_map, outer, no_stream;
	uint32_t win_base;	/* WIN_BASE */
	/* --dma-mapping: dma-mapping.o runs the steps (dmamapping.c) */
	bool dma_mapping, step_seen;
	uint32_t page_address_at, page_size, steps[5], span_lo, span_size;
	uint32_t current;	/* what TPIDRURO reads: CURRENT_TASK, or 0 */
	/* --suite: the compiled KUnit suite runs (suite.c) */
	bool suite;
	uint32_t sync_dev, sync_cpu, map_ret;
	unsigned int line, lshift, nsets, ways, nslots;
	uint32_t ctr;
	/* the cache: slot = set * ways + way */
	uint32_t *tag;
	uint8_t *valid, *dirty, *cdata;
	unsigned long *stamp;
	unsigned int *rr;
	unsigned long tick;
	uint32_t lfsr;
	uint8_t *dram;
	uint64_t it_pc[4];
	unsigned int it_cond[4], it_n;
	uint32_t range_start, last_mva;
	bool range_set, have_mva, seen_sw, seen_test;
	struct counts c;
	char err[256];
	uint8_t *elf;
	size_t elf_size;
};

extern struct model m;

#define __printf(a, b)	__attribute__((format(printf, a, b)))
__printf(1, 2) void fail(const char *fmt, ...);
void die(const char *msg);

enum lop { L_INV, L_CLEAN, L_FLUSH };

/* cores.c */
const struct core *core_find(const char *name);
void core_list(void);
/* cache.c */
void cache_init(void);
void cache_reset(void);
void mva_op(uint32_t a, enum lop op);
void all_op(enum lop op);
void set_op(uint32_t rt, enum lop op);
void range_op(uint32_t lo, uint32_t top, enum lop op);
int first_dirty(void);
void slot_op(unsigned int s, enum lop op);
void cpu_write(uint32_t a, uint8_t v);
void cpu_touch(uint32_t a);
uint8_t cpu_load(uint32_t a);
uint8_t cpu_peek(uint32_t a);
void spec_fill(uint32_t a);
int slot_of(uint32_t a);
unsigned int valid_lines(void);
unsigned long dirty_lines_in(uint32_t lo, uint32_t hi);

/* stream.c: write streaming of the cores that have it */
const char *stream_source(const char *core);
void stream_reset(void);
bool stream_write_miss(uint32_t a);
void stream_store(uint32_t a);
void stream_load(uint32_t a);

/* outer.c: the L2 behind the L1, its registers and CP15 operations */
const struct l2type *l2type_find(const char *name);
void l2type_list(void);
void l2_cp15_line(const char *type, uint32_t pa, enum lop op);
void l2_cp15_range(const char *type, uint32_t va, bool top, enum lop op);
void l2_init(void);
void l2_reset(void);
void next_read(uint32_t a, uint8_t *dst, unsigned int n);
void next_write(uint32_t a, const uint8_t *src, unsigned int n);
uint8_t next_peek(uint32_t a);
void hook_l2(uc_engine *uc, uc_mem_type type, uint64_t addr, int size,
	     int64_t value, void *u);
void l2_evict_dirty(void);
unsigned long l2_dirty_lines_in(uint32_t lo, uint32_t hi);

/* armregs.c */
uint32_t reg(int r);
void set_reg(int r, uint32_t v);
bool cond_passed(unsigned int cond);

/* decode.c: coprocessor and SCB decoding, memory hooks */
void hook_code(uc_engine *uc, uint64_t pc, uint32_t size, void *u);
void hook_scb(uc_engine *uc, uc_mem_type type, uint64_t addr, int size,
	      int64_t value, void *u);
void hook_win(uc_engine *uc, uc_mem_type type, uint64_t addr, int size,
	      int64_t value, void *u);

/* emu.c: Unicorn, the ELF file, calls */
uint32_t sym(const char *name);
uint32_t read32(uint32_t a);
void write32(uint32_t a, uint32_t v);
void load_elf(const char *path);
void pv_fixup(void);
void emu_open(void);
bool call(uint32_t fn, uint32_t a0, uint32_t a1, uint32_t a2);
void outer_open(void);

/* dmamapping.c: the compiled dma-mapping.o */
void dma_mapping_open(uint32_t map, uint32_t unmap);
bool dma_mapping_hook(uint64_t pc);

/* suite.c: the compiled KUnit suite */
int suite_main(void);
void suite_skip(const char *name);
void suite_symbol(const char *name);
void suite_hook(uint64_t pc);

/* cachemodel.c: scenarios (main.c and selftest.c call them) */
bool run(const struct scenario *s, uint32_t map, uint32_t unmap);
bool run_scenarios(uint32_t map, uint32_t unmap, const char *const *only,
		   int nonly);
void set_seq(bool unmap, char *arg);
bool have_seqs(void);

/* selftest.c */
extern bool st_ok;
void selftest_arm(void);
void selftest_thumb(void);
void selftest_v7m(void);
void selftest_model(void);
void selftest_cores(void);

#endif
