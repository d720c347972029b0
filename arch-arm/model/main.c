// SPDX-License-Identifier: GPL-2.0
/*
 * cachemodel's options and main: the model (cachemodel.c and the files
 * model.h names) runs scenarios, or the self-tests (selftest.c), which
 * call the model, or the KUnit suite (suite.c).
 */

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model.h"

static void usage(void)
{
	fprintf(stderr,
		"usage: cachemodel --elf FILE --map SYM --unmap SYM --kind legacy|v6|v7|v7m\n"
		"                  --core NAME [--alloc read|write] [--repl rr|random|lru]\n"
		"                  [--policy wb|wt|none] [--thumb] [--inv-as-flush]\n"
		"                  [--no-spec] [--no-evict] [--no-stream] [--window ADDR]\n"
		"                  [--scenario NAME]...\n"
		"                  [--outer[=TYPE] --map-seq STEPS\n"
		"                   --unmap-seq STEPS] [--dma-mapping | --suite]\n"
		"                  [--skip-case CASE[PARAM]]... [--suite-symbol SYM]\n"
		"       cachemodel --elf SELFTEST.ELF --core NAME --selftest arm|thumb|v7m|model|cores\n"
		"       cachemodel --cores | --l2   (TYPE: as --l2 lists them)\n");
	exit(2);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "elf", 1, NULL, 'e' }, { "map", 1, NULL, 'm' },
		{ "unmap", 1, NULL, 'u' }, { "kind", 1, NULL, 'k' },
		{ "core", 1, NULL, 'C' }, { "policy", 1, NULL, 'p' },
		{ "alloc", 1, NULL, 'a' }, { "repl", 1, NULL, 'r' },
		{ "thumb", 0, NULL, 't' }, { "inv-as-flush", 0, NULL, 'I' },
		{ "no-spec", 0, NULL, 'S' }, { "no-evict", 0, NULL, 'E' },
		{ "scenario", 1, NULL, 'c' }, { "selftest", 1, NULL, 'T' },
		{ "cores", 0, NULL, 'L' }, { "outer", 2, NULL, 'O' },
		{ "map-seq", 1, NULL, 'M' }, { "l2", 0, NULL, 'l' }, { "unmap-seq", 1, NULL, 'U' },
		{ "dma-mapping", 0, NULL, 'D' }, { "suite", 0, NULL, 'K' },
		{ "no-stream", 0, NULL, 'W' }, { "window", 1, NULL, 'B' },
		{ "skip-case", 1, NULL, 'X' }, { "suite-symbol", 1, NULL, 'Y' },
		{ NULL, 0, NULL, 0 }
	};
	const char *elf = NULL, *map = NULL, *unmap = NULL, *selftest = NULL;
	const char *only[16], *alloc = NULL, *repl = NULL;
	int nonly = 0, o;
	bool nospec = false;

	m.evict = true;
	m.win_base = WIN_DEFAULT;
	m.trace = getenv("CACHEMODEL_TRACE") != NULL;
	while ((o = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (o) {
		case 'e':
			elf = optarg;
			break;
		case 'm':
			map = optarg;
			break;
		case 'u':
			unmap = optarg;
			break;
		case 'k':
			if (!strcmp(optarg, "legacy"))
				m.kind = K_LEGACY;
			else if (!strcmp(optarg, "v6"))
				m.kind = K_V6;
			else if (!strcmp(optarg, "v7"))
				m.kind = K_V7;
			else if (!strcmp(optarg, "v7m"))
				m.kind = K_V7M;
			else
				usage();
			break;
		case 'C':
			m.core = core_find(optarg);
			if (!m.core)
				die("unknown core (cachemodel --cores lists them)");
			break;
		case 'a':
			alloc = optarg;
			break;
		case 'r':
			repl = optarg;
			break;
		case 'p':
			if (!strcmp(optarg, "wb"))
				m.pol = P_WB;
			else if (!strcmp(optarg, "wt"))
				m.pol = P_WT;
			else if (!strcmp(optarg, "none"))
				m.pol = P_NONE;
			else
				usage();
			break;
		case 't':
			m.thumb = true;
			break;
		case 'I':
			m.inv_as_flush = true;
			break;
		case 'S':
			nospec = true;
			break;
		case 'E':
			m.evict = false;
			break;
		case 'c':
			if (nonly < 16)
				only[nonly++] = optarg;
			break;
		case 'T':
			selftest = optarg;
			break;
		case 'O':
			m.outer = true;
			m.l2 = l2type_find(optarg ? optarg : "l2c310");
			if (!m.l2)
				die("unknown outer cache (cachemodel --l2 lists them)");
			break;
		case 'D':
			m.dma_mapping = true;
			break;
		case 'K':
			m.dma_mapping = m.suite = true;
			break;
		case 'W':
			m.no_stream = true;
			break;
		case 'X':
			suite_skip(optarg);
			break;
		case 'Y':
			suite_symbol(optarg);
			break;
		case 'B':
			m.win_base = strtoul(optarg, NULL, 0);
			if (m.win_base & 0xfffff)
				die("--window must be 1 MiB aligned");
			break;
		case 'M':
			set_seq(false, optarg);
			break;
		case 'U':
			set_seq(true, optarg);
			break;
		case 'l':
			l2type_list();
			return 0;
		case 'L':
			core_list();
			return 0;
		default:
			usage();
		}
	}
	if (!elf || !m.core || (!selftest && (!map || !unmap)))
		usage();
	m.line = m.core->line;
	m.alloc = m.core->alloc;
	m.repl = m.core->repl;
	if (alloc && !strcmp(alloc, "read"))
		m.alloc = AL_READ;
	else if (alloc && !strcmp(alloc, "write"))
		m.alloc = AL_WRITE;
	else if (alloc)
		usage();
	if (repl && !strcmp(repl, "rr"))
		m.repl = R_RR;
	else if (repl && !strcmp(repl, "random"))
		m.repl = R_RANDOM;
	else if (repl && !strcmp(repl, "lru"))
		m.repl = R_LRU;
	else if (repl)
		usage();
	if (m.kind == K_V7M)
		m.thumb = true;
	/* v6, v7 and v7-M may allocate lines speculatively; ARMv4/v5 do not */
	m.spec = m.kind != K_LEGACY && !nospec;
	m.lshift = __builtin_ctz(m.line);
	/* the core's CTR; before ARMv7 only the self-tests read it */
	m.ctr = m.core->ctr ? m.core->ctr :
		0x80000000u | (m.lshift - 2) << 16 | (m.lshift - 2);
	cache_init();
	if (m.outer && !m.dma_mapping && !have_seqs())
		die("--outer needs --map-seq and --unmap-seq, or --dma-mapping");
	if (m.outer)
		l2_init();

	emu_open();
	load_elf(elf);
	if (m.outer)
		outer_open();
	if (m.dma_mapping && !selftest)
		dma_mapping_open(sym(map), sym(unmap));
	if (m.suite)
		return suite_main();
	if (selftest) {
		if (!strcmp(selftest, "arm"))
			selftest_arm();
		else if (!strcmp(selftest, "thumb"))
			selftest_thumb();
		else if (!strcmp(selftest, "v7m"))
			selftest_v7m();
		else if (!strcmp(selftest, "model"))
			selftest_model();
		else if (!strcmp(selftest, "cores"))
			selftest_cores();
		else
			usage();
		return st_ok ? 0 : 1;
	}

	return run_scenarios(sym(map), sym(unmap), only, nonly) ? 0 : 1;
}
