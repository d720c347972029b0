// SPDX-License-Identifier: GPL-2.0
/*
 * dma_map_benchmark's loop in the cache model, as a KUnit suite that
 * cachemodel --suite runs (--suite-symbol map_benchmark_model_suite) with
 * kunit-stubs.c, the kernel's DMA mapping code, a configuration's
 * dma-mapping.o and cache backend, base or patched.
 *
 * Not compiled as it is: arch-arm/model/bench.py takes the benchmark's
 * helpers from the added lines of the series' patch 6 (kernel/dma/
 * map_benchmark.c: map_benchmark_next_pattern(), map_benchmark_dirty()
 * and its piece size, map_benchmark_bytes_changed()) when it runs,
 * writes them in place of the marker line below, and compiles the
 * result twice: with the fill patch 6 has, and with the
 * fill it had before (MODEL_OLD_FILL: one memset() of the buffer, as
 * the benchmark fills a TO_DEVICE buffer; map_benchmark_dirty() is then
 * left out).
 *
 * Each loop is what map_benchmark_thread() does in single mode for
 * DMA_FROM_DEVICE with -D (DMA_MAP_BENCH_DIRTY) or -C (and
 * DMA_MAP_BENCH_CHECK): the fill of initialize_data() with the next
 * pattern, dma_map_single(), dma_unmap_single(), and with -C the count
 * of the bytes that no longer hold the pattern. The buffer is a page,
 * as alloc_pages_exact() gives -g 1. The count goes to a "lost == 0"
 * expectation, whose value the model adds up as bytes wrong; the model
 * counts the buffer's dirty lines at each map.
 */
#include <kunit/device.h>
#include <kunit/test.h>
#include <linux/dma-mapping.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/string.h>

@MAP_BENCHMARK_FUNCTIONS@

#ifdef MODEL_OLD_FILL
#define bench_fill(buf, c, len)	memset(buf, c, len)
#else
#define bench_fill(buf, c, len)	map_benchmark_dirty(buf, c, len)
#endif

struct bench_case {
	const char *name;
	unsigned int pages;	/* -g */
	unsigned int loops;
	bool check;		/* -C, else -D */
};

static const struct bench_case bench_cases[] = {
	{ "D_g1_4loops",	1,	4,	false },
	{ "C_g1_1loop",		1,	1,	true },
	{ "C_g1_4loops",	1,	4,	true },
};

KUNIT_ARRAY_PARAM_DESC(bench, bench_cases, name);

static void map_benchmark_single(struct kunit *test)
{
	const struct bench_case *c = test->param_value;
	size_t len = c->pages * PAGE_SIZE;
	struct device *dev;
	unsigned int loop;
	dma_addr_t addr;
	u8 pattern = 0;
	u64 lost = 0;
	u8 *buf;

	dev = kunit_device_register(test, "map_benchmark");
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, dev);
	/* dma_map_benchmark's default: -b 32 */
	KUNIT_ASSERT_EQ(test, dma_coerce_mask_and_coherent(dev, DMA_BIT_MASK(32)), 0);
	buf = kunit_kmalloc(test, len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_TRUE(test, PAGE_ALIGNED(buf));
	for (loop = 0; loop < c->loops; loop++) {
		pattern = map_benchmark_next_pattern(pattern);
		bench_fill(buf, pattern, len);
		addr = dma_map_single(dev, buf, len, DMA_FROM_DEVICE);
		KUNIT_ASSERT_FALSE(test, dma_mapping_error(dev, addr));
		dma_unmap_single(dev, addr, len, DMA_FROM_DEVICE);
		if (c->check)
			lost += map_benchmark_bytes_changed(buf, pattern, len);
	}
	KUNIT_EXPECT_EQ(test, lost, 0);
}

static struct kunit_case map_benchmark_model_cases[] = {
	KUNIT_CASE_PARAM(map_benchmark_single, bench_gen_params),
	{}
};

static struct kunit_suite map_benchmark_model_suite __used = {
	.name = "map_benchmark_model",
	.test_cases = map_benchmark_model_cases,
};
