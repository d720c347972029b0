// SPDX-License-Identifier: GPL-2.0
/*
 * cachemodel --suite: run the compiled KUnit suite of
 * kernel/dma/mapping_kunit.c, every case and parameter, with the kernel's
 * DMA mapping code, arch/arm/mm/dma-mapping.o and a cache backend,
 * against the modelled caches. kunit-stubs.c, linked with them, stands in
 * for kmalloc(), vmap() and KUnit's bookkeeping; this file gives each case
 * a new cache and memory, calls model_select() and model_run() and
 * prints one line a case (but for those named by --skip-case):
 *
 *   suite CASE[PARAM] result=ok|failed|skipped failed=N wrong=N warned=N
 *         dirtymap=N foreign=N insns=N
 *   suite CASE[PARAM] result=error foreign=N dirtymap=N error=WHY
 *
 * failed: the case's failed expectations and assertions; wrong: the sum
 * of the counts that its failed "wrong == 0" and "lost == 0" expectations
 * name (the bytes that were not what they should be); warned: WARN()s in
 * the kernel code; dirtymap: the buffer's dirty L1 lines at each
 * DMA_FROM_DEVICE map, summed; foreign: the dirty L1 lines outside the
 * mapped range that the maps invalidated without writing them back (the
 * case's own data, when a map invalidates the whole cache). A case that
 * stops at an emulation error says why: after foreign lines were lost,
 * it read its own data back as stale memory.
 *
 * --suite-symbol names the struct kunit_suite to run (default
 * dma_mapping_test_suite): the benchmark's harness is one too.
 */

#include <stdio.h>
#include <string.h>
#include "model.h"

#define ALIAS_BASE	0x40000000u	/* the device's view of the window */
#define DMA_FROM_DEV	2

static void rdstr(uint32_t a, char *buf, size_t n)
{
	size_t i;

	for (i = 0; i + 1 < n; i++) {
		if (!a || uc_mem_read(m.uc, a + i, &buf[i], 1) || !buf[i])
			break;
	}
	buf[i] = '\0';
}

/* The device's accesses: memory itself, past every cache. */
static void hook_alias(uc_engine *uc, uc_mem_type type, uint64_t addr,
		       int size, int64_t value, void *u)
{
	uint32_t a = addr - ALIAS_BASE;
	int i;

	for (i = 0; i < size && i < 8 && a + i < WIN_SIZE; i++) {
		if (type == UC_MEM_READ)
			uc_mem_write(uc, addr + i, &m.dram[a + i], 1);
		else
			m.dram[a + i] = (uint8_t)(value >> (8 * i));
	}
}

/*
 * Called for every instruction: at the entry of arch_sync_dma_for_device()
 * and _for_cpu(), the span for the CPU's speculative fills between steps
 * and, for a DMA_FROM_DEVICE map, the buffer's dirty lines; the map ends
 * at its return address.
 */
void suite_hook(uint64_t pc)
{
	uint32_t lo, size;

	if (pc == m.map_ret)
		m.in_map = false;
	if (pc != m.sync_dev && pc != m.sync_cpu)
		return;
	lo = reg(UC_ARM_REG_R0);
	size = reg(UC_ARM_REG_R1);
	m.span_lo = lo;
	m.span_size = size;
	m.step_seen = false;
	if (pc != m.sync_dev)
		return;
	m.in_map = true;
	m.map_ret = reg(UC_ARM_REG_LR) & ~1u;
	if (reg(UC_ARM_REG_R2) == DMA_FROM_DEV)
		m.c.dirtymap += dirty_lines_in(lo, lo + size);
}

static void reset(void)
{
	cache_reset();
	if (m.outer)
		l2_reset();
	m.in_map = false;
	m.map_ret = 0;
	m.err[0] = '\0';
}

#define MAX_SKIP	32
static const char *skip[MAX_SKIP];
static unsigned int nskip;
static const char *suite_sym = "dma_mapping_test_suite";

void suite_symbol(const char *name)
{
	suite_sym = name;
}

void suite_skip(const char *name)
{
	if (nskip == MAX_SKIP)
		die("too many --skip-case");
	skip[nskip++] = name;
}

/* One case with one parameter: 1 when there is none such, 0 when run. */
static int run_case(uint32_t suite, unsigned int ci, unsigned int pi)
{
	char name[128], desc[64], what[200];
	const char *result;
	unsigned int i;
	uint32_t status;
	bool done;

	m.err[0] = '\0';
	if (!call(sym("model_select"), suite, ci, pi))
		die(m.err);
	if (reg(UC_ARM_REG_R0))
		return 1;
	rdstr(read32(sym("model_case")), name, sizeof(name));
	rdstr(sym("model_desc"), desc, sizeof(desc));
	snprintf(what, sizeof(what), "%s%s%s%s", name, desc[0] ? "[" : "",
		 desc, desc[0] ? "]" : "");
	for (i = 0; i < nskip; i++)
		if (!strcmp(skip[i], what))
			return 0;
	reset();
	done = call(sym("model_run"), 0, 0, 0);
	if (!done && !read32(sym("model_aborted"))) {
		printf("suite %s result=error foreign=%lu dirtymap=%lu error=%s (lr 0x%08x)\n",
		       what, m.c.foreign, m.c.dirtymap, m.err, reg(UC_ARM_REG_LR));
		return 0;
	}
	if (done && reg(UC_ARM_REG_R0)) {
		printf("suite %s result=error foreign=%lu dirtymap=%lu error=init failed\n",
		       what, m.c.foreign, m.c.dirtymap);
		return 0;
	}
	status = read32(sym("model_status"));
	result = status == 2 ? "skipped" : status == 1 ? "failed" : "ok";
	printf("suite %s result=%s failed=%u wrong=%llu warned=%u dirtymap=%lu foreign=%lu insns=%lu\n",
	       what, result, read32(sym("model_failed")),
	       (unsigned long long)read32(sym("model_wrong")) |
	       (unsigned long long)read32(sym("model_wrong") + 4) << 32,
	       read32(sym("model_warned")), m.c.dirtymap, m.c.foreign, m.c.insns);
	return 0;
}

/* Every case of the suite, each parameter of each. */
int suite_main(void)
{
	uint32_t suite = sym(suite_sym);
	unsigned int ci, pi;
	uc_hook h;

	if (uc_mem_map(m.uc, ALIAS_BASE, WIN_SIZE, UC_PROT_READ | UC_PROT_WRITE))
		die("cannot map the device's alias");
	uc_hook_add(m.uc, &h, UC_HOOK_MEM_READ | UC_HOOK_MEM_WRITE, hook_alias,
		    NULL, ALIAS_BASE, ALIAS_BASE + WIN_SIZE - 1);
	write32(sym("model_heap_lo"), BUF_BASE);
	write32(sym("model_heap_hi"), WIN_BASE + WIN_SIZE);
	write32(sym("model_alias"), ALIAS_BASE - WIN_BASE);
	write32(sym("min_low_pfn"), WIN_BASE >> 12);
	write32(sym("max_pfn"), (WIN_BASE + WIN_SIZE) >> 12);
	/* compared with the PC: without the Thumb bit of a Thumb symbol */
	m.sync_dev = sym("arch_sync_dma_for_device") & ~1u;
	m.sync_cpu = sym("arch_sync_dma_for_cpu") & ~1u;
	for (ci = 0; ; ci++) {
		for (pi = 0; !run_case(suite, ci, pi); pi++)
			;
		if (!pi)
			break;
	}
	return 0;
}
