// SPDX-License-Identifier: GPL-2.0
/*
 * dmamodel: execute the compiled DMA cache maintenance of a non-ARM
 * non-coherent architecture (MIPS r4k, 32-bit PowerPC, m68k
 * 030/040/060, ColdFire V4e with a copyback or write-through data cache,
 * OpenRISC 1000) against a software data cache of the core's geometry,
 * with the scenarios of the ARM model (arch-arm/model/cachemodel.c,
 * whose ideas this reuses).
 *
 * Unicorn executes MIPS "cache", PowerPC dcbi/dcbf/dcbst, m68k
 * cinv/cpush and ColdFire cpushl and CACR writes without any cache (as
 * no-ops, or as a plain load and store on PowerPC). A code hook decodes
 * each of them before it runs and applies it to the modelled cache; the
 * memory accesses that QEMU makes for a PowerPC cache instruction are
 * ignored. Unicorn has no OpenRISC CPU: or1k.c interprets that code.
 * Any other cache instruction, or one on an address outside the
 * modelled window, stops the run with an error. Loads and stores of the
 * kernel code to the window go through the cache.
 *
 * Output: one line per scenario, "name key=value ...".
 *
 * This file: the options and main; dmamodel.h names the others.
 */

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dmamodel.h"

static void usage(void)
{
	fprintf(stderr,
		"usage: dmamodel --arch mips|mipsel|ppc|m68k|or1k --elf FILE --win ADDR\n"
		"                [--cpu N] [--uc-off N] [--arg-off N]\n"
		"                --size N --ways N --line N --repl lru|random|rr\n"
		"                --alloc read|write [--write-through] [--level 1|2]\n"
		"                [--spec] [--no-evict] [--push-keeps] [--coldfire] [--m68030]\n"
		"                [--set NAME=VALUE|@SYM]... [--setup FN[:ARG]]\n"
		"                (--map FN [--unmap FN] [--scenario NAME]... |\n"
		"                 --selftest WHAT:FN[:DIR]...)\n");
	exit(2);
}

static int choose(const char *arg, const char *const *names, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (!strcmp(arg, names[i]))
			return i;
	usage();
	return -1;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "arch", 1, NULL, 'a' }, { "elf", 1, NULL, 'e' },
		{ "win", 1, NULL, 'w' }, { "cpu", 1, NULL, 'C' },
		{ "uc-off", 1, NULL, 'u' }, { "arg-off", 1, NULL, 'o' },
		{ "line", 1, NULL, 'l' }, { "size", 1, NULL, 's' },
		{ "ways", 1, NULL, 'y' }, { "repl", 1, NULL, 'r' },
		{ "alloc", 1, NULL, 'A' }, { "level", 1, NULL, 'L' },
		{ "spec", 0, NULL, 'p' }, { "no-evict", 0, NULL, 'E' },
		{ "push-keeps", 0, NULL, 'k' }, { "set", 1, NULL, 'x' },
		{ "setup", 1, NULL, 'i' }, { "map", 1, NULL, 'm' },
		{ "unmap", 1, NULL, 'U' }, { "scenario", 1, NULL, 'c' },
		{ "selftest", 1, NULL, 'T' }, { "coldfire", 0, NULL, 'F' },
		{ "write-through", 0, NULL, 'W' }, { "m68030", 0, NULL, '3' },
		{ NULL, 0, NULL, 0 },
	};
	const char *elf = NULL, *map = NULL, *unmap = NULL, *setup = NULL;
	static const char *const repl[] = { "lru", "random", "rr" };
	static const char *const alloc[] = { "read", "write" };
	const char *only[16], *sets[32], *tests[16];
	unsigned int nonly = 0, nsets = 0, ntests = 0, i;
	bool ok = true, wt = false;
	int c, repl_set = -1, alloc_set = -1;

	m.cpu = -1;
	m.evict = true;
	m.level = 1;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'a':
			if (!strcmp(optarg, "mips")) {
				m.arch = A_MIPS;
				m.be = true;
			} else if (!strcmp(optarg, "mipsel")) {
				m.arch = A_MIPS;
			} else if (!strcmp(optarg, "ppc")) {
				m.arch = A_PPC;
				m.be = true;
			} else if (!strcmp(optarg, "m68k")) {
				m.arch = A_M68K;
				m.be = true;
			} else if (!strcmp(optarg, "or1k")) {
				m.arch = A_OR1K;
				m.be = true;
			} else {
				usage();
			}
			break;
		case 'e': elf = optarg; break;
		case 'w': m.win = strtoul(optarg, NULL, 0); break;
		case 'C': m.cpu = atoi(optarg); break;
		case 'u': m.uc_off = strtoul(optarg, NULL, 0); break;
		case 'o': m.arg_off = strtoul(optarg, NULL, 0); break;
		case 'l': m.line = atoi(optarg); break;
		case 's': m.size = atoi(optarg); break;
		case 'y': m.ways = atoi(optarg); break;
		case 'r': repl_set = choose(optarg, repl, ARRAY_SIZE(repl)); break;
		case 'A': alloc_set = choose(optarg, alloc, ARRAY_SIZE(alloc)); break;
		case 'L': m.level = atoi(optarg); break;
		case 'p': m.spec = true; break;
		case 'E': m.evict = false; break;
		case 'k': m.push_keeps = true; break;
		case 'F': m.coldfire = true; break;
		case '3': m.m030 = true; break;
		case 'W': wt = true; break;
		case 'x':
			if (nsets < ARRAY_SIZE(sets))
				sets[nsets++] = optarg;
			break;
		case 'i': setup = optarg; break;
		case 'm': map = optarg; break;
		case 'U': unmap = optarg; break;
		case 'c':
			if (nonly < ARRAY_SIZE(only))
				only[nonly++] = optarg;
			break;
		case 'T':
			if (ntests < ARRAY_SIZE(tests))
				tests[ntests++] = optarg;
			break;
		default:
			usage();
		}
	}
	if (!elf || !m.win || (!map && !ntests) || m.line < 4 || (m.line & (m.line - 1)) ||
	    !m.size || !m.ways || repl_set < 0 || alloc_set < 0 || m.level < 1 || m.level > 2)
		usage();
	m.repl = repl_set;
	cache_init();
	cache_reset();

	emu_open(hook_code);
	load_elf(elf);
	for (i = 0; i < nsets; i++)
		set_word(sets[i]);
	if (setup) {
		char fn[128];
		unsigned long arg = 0;

		if (sscanf(setup, "%127[^:]:%lu", fn, &arg) < 1)
			die("--setup wants FUNCTION[:ARG]");
		if (!call(sym(fn), arg, 0, 0)) {
			fprintf(stderr, "dmamodel: %s: %s\n", setup, m.err);
			return 2;
		}
	}
	/* the self-tests check decoding: they need lines the CPU dirtied */
	m.walloc = true;
	for (i = 0; i < ntests; i++)
		ok &= selftest(tests[i]);
	m.wt = wt;
	m.walloc = alloc_set == 1 && !wt;
	if (map && !run_scenarios(map, unmap, only, nonly))
		ok = false;
	uc_close(m.uc);
	return ok ? 0 : 1;
}
