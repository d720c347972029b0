// SPDX-License-Identifier: GPL-2.0
/*
 * The cores cachemodel models: the geometry, replacement and allocation
 * policy of each one's L1 data cache, with its sources (cache.c is the
 * cache itself), and the list that arch-arm/model/run prints in model.md.
 */

#include <stdio.h>
#include <string.h>
#include "model.h"

/*
 * Geometry per core. Sizes that a core's integration chooses are the
 * ones stated; "assumed" marks a value the kernel source does not fix
 * and no manual here states. The allocation column is the kernel's
 * default memory type: ARMv4/v5 caches allocate on reads only; on
 * ARMv6/v7 the kernel maps memory write-back write-allocate when SMP
 * (PMD_FLAGS_SMP = PMD_SECT_WBWA in proc-v6.S, proc-v7-2level.S,
 * proc-v7-3level.S) and write-back read-allocate when UP (PMD_SECT_WB):
 * arch-arm/model/run passes --alloc from each build's CONFIG_SMP (read on the
 * cores without multiprocessing extensions, read-allocate here).
 * Documentation/results/BASE/model.md ("Modelled cores") carries this
 * table with its sources.
 */
static const struct core cores[] = {
	{ "sa1100", 8192, 32, 32, R_RR, AL_READ, 0, 0,
	  "SA-1100 Developer's Manual (Intel 278088), ch. 6: 8 KB, 32-way, 32-byte lines, round-robin, read-allocate; the 512-byte minicache is not modelled" },
	{ "sa110", 16384, 32, 32, R_RR, AL_READ, 0, 0,
	  "SA-110: 16 KB and 32-byte lines (cache-v4wb.S: CACHE_DSIZE 16384 with CONFIG_CPU_SA110, CACHE_DLINESIZE 32); 32-way, round-robin and read-allocate assumed as the SA-1100's (the same StrongARM core)" },
	{ "fa526", 16384, 2, 16, R_RR, AL_READ, 0, 0,
	  "cache-fa.S: CACHE_DSIZE 16384 (8192 on Gemini), CACHE_DLINESIZE 16; 2-way, round-robin and read-allocate assumed" },
	{ "arm920t", 16384, 64, 32, R_RANDOM, AL_READ, 0, 0,
	  "ARM920T TRM (ARM DDI 0151C) ch. 4: 16 KB, 64-way, 8 segments, 32-byte lines, pseudo-random or round-robin (CP15 c1 RR), read-allocate; proc-arm920.S: 8 segments x 64 entries" },
	{ "arm922t", 8192, 64, 32, R_RANDOM, AL_READ, 0, 0,
	  "ARM922T TRM (ARM DDI 0184B): 8 KB, 64-way, 4 segments, 32-byte lines, read-allocate; proc-arm922.S: 4 x 64" },
	{ "arm925t", 8192, 2, 16, R_RR, AL_READ, 0, 0,
	  "proc-arm925.S (TI OMAP1510): 2 segments x 256 entries x 16 bytes; round-robin and read-allocate assumed" },
	{ "arm926ejs", 32768, 4, 32, R_RANDOM, AL_READ, 0, 0,
	  "ARM926EJ-S TRM (ARM DDI 0198E) ch. 4: 4-128 KB, 4-way, 32-byte lines, pseudo-random or round-robin (CONFIG_CPU_CACHE_ROUND_ROBIN), read-allocate only; 32 KB as on the SAM9X75" },
	{ "arm940t", 4096, 64, 16, R_RANDOM, AL_READ, 0, 0,
	  "ARM940T TRM (ARM DDI 0144B): 4 KB, 64-way, 4 segments, 16-byte lines, read-allocate; proc-arm940.S: 4 x 64" },
	{ "arm946es", 8192, 4, 32, R_RANDOM, AL_READ, 0, 0,
	  "ARM946E-S TRM (ARM DDI 0201): 4-way, 32-byte lines, size configured (proc-arm946.S CONFIG_CPU_DCACHE_SIZE: 8 KB in this build), read-allocate" },
	{ "arm1020e", 32768, 64, 32, R_RR, AL_READ, 0, 0,
	  "ARM1020E TRM (ARM DDI 0177): 32 KB, 64-way, 16 segments, 32-byte lines; proc-arm1020.S: 16 x 64; round-robin and read-allocate assumed" },
	{ "arm1022e", 16384, 64, 32, R_RR, AL_READ, 0, 0,
	  "ARM1022E TRM (ARM DDI 0237): 16 KB, 64-way, 32-byte lines (proc-arm1022.S copies ARM1020E's 16 x 64); round-robin and read-allocate assumed" },
	{ "arm1026ejs", 32768, 4, 32, R_RR, AL_READ, 0, 0,
	  "ARM1026EJ-S TRM (ARM DDI 0244): 4-128 KB, 4-way, 32-byte lines; 32 KB chosen; round-robin and read-allocate assumed" },
	{ "xscale", 32768, 32, 32, R_RR, AL_READ, 0, 0,
	  "Intel XScale Core Developer's Manual (273473) ch. 6: 32 KB, 32-way, 32-byte lines, round-robin, read-allocate for Linux's default write-back memory type; the 2 KB mini-data cache is not modelled; proc-xscale.S CACHESIZE 32768" },
	{ "xsc3", 32768, 4, 32, R_RR, AL_READ, 0, 0,
	  "third-generation XScale (proc-xsc3.S CACHESIZE 32768): 32 KB, 32-byte lines; 4-way, round-robin and read-allocate assumed; its L2 is not modelled" },
	{ "mohawk", 32768, 4, 32, R_RR, AL_READ, 0, 0,
	  "Marvell PJ1 (proc-mohawk.S CACHE_DLIMIT 32768, 32-byte lines): 32 KB; 4-way, round-robin and read-allocate assumed" },
	{ "feroceon", 16384, 4, 32, R_RR, AL_READ, 0, 0,
	  "Marvell Feroceon 88FR131 (Kirkwood): 16 KB, 4-way, 32-byte lines (proc-feroceon.S reads the geometry at boot); round-robin and read-allocate assumed" },
	{ "arm11mpcore", 32768, 4, 32, R_RANDOM, AL_WRITE, 0, 0,
	  "ARM11 MPCore TRM (ARM DDI 0360F): 16, 32 or 64 KB, 4-way, 32-byte lines; 32 KB chosen; write-allocate with the SMP memory type; replacement assumed pseudo-random" },
	{ "arm1176", 16384, 4, 32, R_RANDOM, AL_READ, 0, 0,
	  "ARM1176JZF-S TRM (ARM DDI 0301) ch. 7: 4-64 KB, 4-way, 8-word lines, pseudo-random or round-robin (CP15 c1 RR), read allocation only; 16 KB chosen (as on the Raspberry Pi 1's BCM2835)" },
	{ "arm1136", 16384, 4, 32, R_RANDOM, AL_READ, 0, 0,
	  "ARM1136JF-S: 4-64 KB, 4-way, 8-word lines (as pytorch/cpuinfo's src/arm/cache.c lists ARM11); 16 KB chosen (as on NXP's i.MX31); UP only, so the kernel's memory type is PMD_SECT_WB (read-allocate); replacement assumed pseudo-random; the ARM1176 row's geometry" },
	{ "cortex-a5", 32768, 4, 32, R_RANDOM, AL_WRITE, 0, 0,
	  "Cortex-A5 TRM (ARM DDI 0433) 7.1.1, as pytorch/cpuinfo's src/arm/cache.c quotes it: 4-way data cache, eight-word lines, 4-64 KB; 32 KB chosen; write-allocate with the SMP memory type (a Cortex-A5 MPCore); CTR built from the line length (DminLine 32 bytes); replacement assumed pseudo-random; its write streaming is not modelled (Notes); the Cortex-A9 row's geometry" },
	{ "cortex-a7", 32768, 4, 64, R_RANDOM, AL_WRITE, 0x84448003, 0x700fe01a,
	  "Cortex-A7 MPCore TRM (ARM DDI 0464D) 6.6.1: 4-way, 64-byte lines (set index from bit 6), size configured; 32 KB chosen; CTR 0x84448003 (as QEMU's cortex-a7 reports it, DminLine 64 bytes); CCSIDR computed from this geometry; replacement assumed pseudo-random" },
	{ "cortex-a8", 32768, 4, 64, R_RANDOM, AL_READ, 0x80048004, 0x700fe01a,
	  "Cortex-A8 TRM (ARM DDI 0344B) 3.2.3: CTR 0x80048004, 64-byte L1 data lines; 16 or 32 KB, 4-way, 32 KB chosen; CCSIDR computed from this geometry; replacement assumed pseudo-random; its integrated L2 (inner, cleaned by the same by-VA operations to PoC) is not modelled" },
	{ "cortex-a15", 32768, 2, 64, R_LRU, AL_WRITE, 0x8444c004, 0x701fe00a,
	  "Cortex-A15 MPCore TRM (ARM DDI 0438): 32 KB, 2-way, 64-byte lines, LRU; CTR 0x8444C004, CCSIDR 0x701FE00A" },
	{ "cortex-a9", 32768, 4, 32, R_RANDOM, AL_WRITE, 0x83338003, 0x701fe019,
	  "Cortex-A9 TRM (ARM DDI 0388): 16, 32 or 64 KB, 4-way, 32-byte lines, pseudo-random or round-robin; 32 KB chosen; CTR 0x83338003; CCSIDR 0x701FE019 encodes this size (it depends on the configured size)" },
	{ "cortex-a72", 32768, 2, 64, R_LRU, AL_WRITE, 0x8444c004, 0x701fe00a,
	  "Cortex-A72 MPCore TRM (ARM 100095): 32 KB, 2-way, 64-byte lines, LRU; CTR 0x8444C004, CCSIDR 0x701FE00A" },
	{ "cortex-m7", 16384, 4, 32, R_RANDOM, AL_WRITE, 0x8303c003, 0xf00fe019,
	  "Cortex-M7 TRM (ARM DDI 0489): 4-64 KB, 4-way, 32-byte lines; 16 KB chosen; write-allocate in the SRAM region's default memory map; CTR 0x8303C003, CCSIDR 0xF00FE019; replacement assumed pseudo-random" },
};

const struct core *core_find(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(cores) / sizeof(cores[0]); i++)
		if (!strcmp(cores[i].name, name))
			return &cores[i];
	return NULL;
}

void core_list(void)
{
	static const char *const repl[] = { "round-robin", "pseudo-random", "LRU" };
	size_t i;

	for (i = 0; i < sizeof(cores) / sizeof(cores[0]); i++) {
		const struct core *c = &cores[i];

		printf("%s|%u|%u|%u|%s|%s|%s|%s%s%s\n", c->name, c->size, c->ways,
		       c->line, repl[c->repl],
		       c->alloc == AL_WRITE ? "write" : "read",
		       c->ctr ? "yes" : "-", c->source,
		       stream_source(c->name) ? "; write streaming: " : "",
		       stream_source(c->name) ?: "");
	}
}
