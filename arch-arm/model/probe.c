// SPDX-License-Identifier: GPL-2.0
/*
 * The layout cachemodel --dma-mapping needs to run a configuration's
 * compiled dma-mapping.o (and, for --suite, kernel/dma/ and the KUnit
 * suite), as that configuration has it: arch-arm/model/run
 * compiles this file with the kbuild command recorded for the
 * configuration's dma-mapping.o and links it with the objects it runs.
 */
#include <linux/mm_types.h>
#include <linux/sched.h>
#include <asm/cacheflush.h>
#include <asm/outercache.h>

const unsigned int model_page_size = sizeof(struct page);
const unsigned int model_dma_map_area = offsetof(struct cpu_cache_fns, dma_map_area);
const unsigned int model_dma_unmap_area = offsetof(struct cpu_cache_fns, dma_unmap_area);
const unsigned int model_outer_inv_range = offsetof(struct outer_cache_fns, inv_range);
const unsigned int model_outer_clean_range = offsetof(struct outer_cache_fns, clean_range);
const unsigned int model_outer_flush_range = offsetof(struct outer_cache_fns, flush_range);
const unsigned int model_task_size = sizeof(struct task_struct);
