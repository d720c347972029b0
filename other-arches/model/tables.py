# SPDX-License-Identifier: GPL-2.0
"""What other-arches/model/run.py runs: the architectures and their
dmamodel options, the CPU configurations and where each base must lose
data, the scenarios, and the source and decoder mutations."""

WIN = 0x01000000

# name: cross prefix, O= directory, the file the series changes that has
# the entry points ('file') and the files it calls that the series
# changes too ('also'; both compiled base and patched), the unchanged
# objects it calls, the stub (if one is needed), ld options, dmamodel
# options.
# The O= directories are those of tools/checks/70-other-arches, except
# where a defconfig is named: run.py configures those itself (ARCH
# make_arch, the options in 'enable' turned on).
ARCHES = {
    'mips': {
        'cross': 'mips-linux-gnu-', 'O': 'O-mips',
        'file': 'arch/mips/mm/dma-noncoherent.c',
        'deps': ['arch/mips/mm/c-r4k.o'], 'stub': 'stub-mips.c',
        'ld': ['-EL'],
        # KSEG0: the kernel's address of physical P is P + 0x80000000,
        # which Unicorn's MIPS translates back to P
        'args': ['--arch', 'mipsel', '--win', hex(0x80000000 + WIN),
                 '--uc-off', '0x80000000', '--arg-off', '0x80000000',
                 # what r4k_cache_init() and probe_pcache() set for this
                 # cache: 32 KiB data cache, 256 KiB secondary
                 '--set', 'dcache_size=32768', '--set', 'scache_size=262144',
                 '--set', 'r4k_blast_dcache=@blast_dcache32',
                 '--set', 'r4k_blast_scache=@blast_scache32',
                 '--set', '_dma_cache_inv=@r4k_dma_cache_inv',
                 '--set', '_dma_cache_wback=@r4k_dma_cache_wback_inv',
                 '--set', '_dma_cache_wback_inv=@r4k_dma_cache_wback_inv'],
        'unmap': 'arch_sync_dma_for_cpu',
        'selftests': ['inv:va=r4k_dma_cache_inv',
                      'flush:va=r4k_dma_cache_wback_inv'],
    },
    'powerpc': {
        'cross': 'powerpc-linux-gnu-', 'O': 'O-powerpc',
        'file': 'arch/powerpc/mm/dma-noncoherent.c',
        'deps': [], 'stub': 'stub-ppc.c', 'ld': [],
        # lowmem: virtual = physical + 0xc0000000; Unicorn runs in real
        # mode, so the window is mapped at the virtual address
        'args': ['--arch', 'ppc', '--win', hex(0xc0000000 + WIN),
                 '--arg-off', '0xc0000000'],
        'unmap': 'arch_sync_dma_for_cpu',
        'selftests': ['inv:va=__dma_sync:2', 'clean:va=__dma_sync:1',
                      'flush:va=__dma_sync:0'],
    },
    'm68k': {
        'cross': 'm68k-linux-gnu-', 'O': 'O-m68k',
        'file': 'arch/m68k/kernel/dma.c',
        'deps': ['arch/m68k/mm/memory.o'], 'stub': 'stub-m68k.c', 'ld': [],
        # physical addresses, no MMU in the model. Unicorn 2.0.1's CPU
        # model 3 is the one that decodes the '040's cinv/cpush (models 4
        # and 5 raise F-line and illegal-instruction exceptions on them;
        # QEMU's 68060 does not decode them at all), so both runs use it
        'args': ['--arch', 'm68k', '--cpu', '3', '--win', hex(WIN)],
        'unmap': None,
        'selftests': ['inv_page:cache_clear'],
    },
    # OpenRISC 1000: Unicorn has no such CPU, or1k.c interprets the code.
    # dma.c calls the range loops of mm/cache.c, which steps by
    # L1_CACHE_BYTES (16, asm/cache.h) if UPR says a data cache is there
    # (or1k.c's l.mfspr); no stub: neither reads cpuinfo_or1k
    'openrisc': {
        'cross': 'or1k-elf-', 'O': 'O-openrisc',
        'file': 'arch/openrisc/kernel/dma.c', 'also': ['arch/openrisc/mm/cache.c'],
        'deps': [], 'ld': [],
        'args': ['--arch', 'or1k', '--win', hex(WIN)],
        'unmap': None,
        'selftests': ['inv:arch_sync_dma_for_device:2',
                      'flush:arch_sync_dma_for_device:1'],
    },
    # ColdFire V4e (M547x, 32 KiB 4-way data cache of 16-byte lines:
    # 512 sets) with the MMU. Its cache_clear() invalidates the whole
    # data cache through CACR and its cache_push() runs cpushl over every
    # set and way; the write policy is CONFIG_CACHE_COPYBACK's
    'coldfire': {
        'make_arch': 'm68k', 'defconfig': 'm5475evb_defconfig', 'enable': [],
        'cross': 'm68k-linux-gnu-', 'O': 'O-coldfire',
        'file': 'arch/m68k/kernel/dma.c',
        'deps': ['arch/m68k/mm/memory.o'], 'stub': 'stub-m68k.c', 'ld': [],
        # Unicorn 2.0.1's CPU model 7, the CFV4E
        'args': ['--arch', 'm68k', '--cpu', '7', '--coldfire', '--win', hex(WIN)],
        'unmap': None, 'base_keeps': True,
        'selftests': ['flush_all:cache_push', 'inv_all:cache_clear'],
    },
    'coldfire_cb': {
        'make_arch': 'm68k', 'defconfig': 'm5475evb_defconfig',
        'enable': ['CACHE_COPYBACK'],
        'cross': 'm68k-linux-gnu-', 'O': 'O-coldfire-cb',
        'file': 'arch/m68k/kernel/dma.c',
        'deps': ['arch/m68k/mm/memory.o'], 'stub': 'stub-m68k.c', 'ld': [],
        'args': ['--arch', 'm68k', '--cpu', '7', '--coldfire', '--win', hex(WIN)],
        'unmap': None,
        'selftests': ['flush_all:cache_push', 'inv_all:cache_clear'],
    },
}

# name, arch, dmamodel options, CPU class, and loses(scenario, size): the
# scenarios where the base is expected to lose CPU-written bytes. r4k
# writes back and invalidates the whole cache (index operations) for a
# buffer of at least the cache's size; PowerPC flushes (dcbf) a range
# whose start or end is not line-aligned; m68k's cache_clear() pushes the
# partial pages at either end and invalidates only whole pages (so the
# 4 KiB buffer of short4kwrap, which starts mid-page, keeps its data).
CONFIGS = [
    ('mips_24k', 'mips', ['--setup', 'model_setup:0'],
     'r4k, no speculation (24K): map only', lambda s, n: n < 32768),
    ('mips_maar', 'mips', ['--setup', 'model_setup:1', '--spec'],
     'r4k with MAARs (speculates): map + unmap', lambda s, n: n < 32768),
    ('mips_inclusive_sc', 'mips', ['--setup', 'model_setup:2'],
     'r4k, inclusive 256 KiB secondary cache', lambda s, n: n < 262144),
    ('ppc_8xx', 'powerpc', ['--spec'],
     'CONFIG_NOT_COHERENT_CACHE (8xx): map + unmap', lambda s, n: s != 'unaligned'),
    ('m68k_040', 'm68k', ['--setup', 'model_setup:0'],
     "68040: map only (cpush invalidates)",
     lambda s, n: n >= 4096 and s not in ('unaligned', 'short4kwrap')),
    ('m68k_060', 'm68k', ['--setup', 'model_setup:1', '--push-keeps'],
     "68060 (CACR.DPI: cpush keeps lines): map only",
     lambda s, n: n >= 4096 and s not in ('unaligned', 'short4kwrap')),
    ('m68k_030', 'm68k', ['--setup', 'model_setup:2', '--m68030'],
     '68030 (write-through data cache): map only', lambda s, n: False),
    ('or1k', 'openrisc', [],
     'OpenRISC 1000, 16-byte lines: map only', lambda s, n: s != 'rt1mclean'),
    ('coldfire_wt', 'coldfire', [],
     'ColdFire V4e, write-through data cache: map only', lambda s, n: False),
    ('coldfire_cb', 'coldfire_cb', [],
     'ColdFire V4e, CONFIG_CACHE_COPYBACK: map only', lambda s, n: True),
]
# The data cache of each configuration (dmamodel --size --ways --line
# --repl --alloc, and --write-through, --level 2): the core, size, ways,
# line, write policy, whether a write miss allocates, replacement (an
# invalid way first, then LRU, a fixed-seed LFSR for pseudo-random, or
# one round-robin pointer for the cache), the cache level modelled, and
# the source; "assumed" where no manual of the core was at hand here.
# The line sizes are the kernel's (stub-*.c, or1k's L1_CACHE_BYTES) as
# well.
CACHES = {
    'mips_24k': ('MIPS 24K', 32768, 4, 32, 'wb', 'write', 'lru', 1,
                 'assumed (no 24K manual at hand): 32 KB, 4-way, 32-byte lines as stub-mips.c '
                 'sets them for r4k_cache_init(), a 24K configuration (its data cache is '
                 '0-64 KB); LRU and write-allocate (cacheability attribute 3, write-back '
                 'write-allocate, the usual kseg0 one) assumed'),
    'mips_maar': ('MIPS P5600', 32768, 4, 32, 'wb', 'write', 'lru', 1,
                  'assumed (no P5600 manual at hand): the geometry of stub-mips.c, as for '
                  'mips_24k; LRU and write-allocate assumed'),
    'mips_inclusive_sc': ('24K with an inclusive L2', 262144, 8, 32, 'wb', 'write', 'lru', 2,
                          'assumed, no particular core: stub-mips.c\'s 256 KB 8-way secondary '
                          'cache of 32-byte lines, inclusive (cpu_has_inclusive_pcaches); the '
                          'one level modelled is that secondary, which holds every primary '
                          'line and which the kernel\'s operations address; LRU and '
                          'write-allocate assumed'),
    'ppc_8xx': ('MPC860', 4096, 2, 16, 'wb', 'write', 'lru', 1,
                'MPC860 PowerQUICC User\'s Manual, ch. 8 "Instruction and Data Caches" '
                '(p. 8-1: 4 KB, 2-way, 16-byte blocks, LRU; 8.6: store misses bypass the '
                'cache in write-through mode only); copyback: pte-8xx.h has no write-through '
                'page bit (_PAGE_WRITETHRU 0). The build is mpc885_ads_defconfig: no '
                'MPC885 manual at hand, its data cache may be larger'),
    'm68k_040': ('MC68040', 4096, 4, 16, 'wb', 'write', 'random', 1,
                 'M68040 User\'s Manual, section 4 (p. 4-4, figure 4-3: 64 sets of 4 lines '
                 'of 4 long words; an invalid line first, else pseudo-random from a 2-bit '
                 'counter, modelled as the LFSR; 4.7.2: read and write misses to copyback '
                 'pages allocate); Linux maps memory copyback (_PAGE_CACHE040)'),
    'm68k_060': ('MC68060', 8192, 4, 16, 'wb', 'write', 'rr', 1,
                 'M68060 User\'s Manual, section 5 (p. 5-1: 8 KB data cache; p. 5-4: 128 sets '
                 'of 4 lines by address bits 10-4, an invalid line first, else pseudo '
                 'round-robin, modelled as one pointer; write misses allocate on copyback '
                 'pages); 16-byte lines (LW3-LW0); Linux maps memory copyback'),
    'm68k_030': ('MC68030', 256, 1, 16, 'wt', 'read', 'lru', 1,
                 'MC68030 User\'s Manual, section 6 (a 256-byte data cache of 16 entries of '
                 'four long words, direct-mapped, write-through; a write miss allocates only '
                 'with CACR.WA, which head.S leaves clear: CC3_ALLOC_WRITE is not in the '
                 'CACR it sets)'),
    'or1k': ('OpenRISC 1000', 8192, 1, 16, 'wb', 'write', 'lru', 1,
             'assumed (an implementation\'s choice, in DCCFGR; no core\'s manual at hand): '
             'an 8 KB direct-mapped cache of 16-byte blocks, the block size '
             'mm/cache.c\'s loops step by (L1_CACHE_BYTES, asm/cache.h); UPR read as '
             'having a data cache (or1k.c); write-back as defconfig maps pages '
             '(_PAGE_WBC, CONFIG_DCACHE_WRITETHROUGH unset) and write-allocate assumed'),
    'coldfire_wt': ('ColdFire V4e (MCF547x)', 32768, 4, 16, 'wt', 'read', 'rr', 1,
                    'MCF548x Reference Manual Rev. 3, ch. 7 (figure 7-3: 4 ways of 512 sets of '
                    '16-byte lines; 7.9, p. 7-11: an invalid way first, else a 2-bit '
                    'replacement counter advanced on allocation; write misses do not allocate '
                    'in write-through regions); m54xxacr.h: DCACHE_SIZE 32 KB'),
    'coldfire_cb': ('ColdFire V4e (MCF547x)', 32768, 4, 16, 'wb', 'write', 'rr', 1,
                    'as coldfire_wt; write misses allocate in copyback regions (7.9, p. '
                    '7-11); CONFIG_CACHE_COPYBACK: ACR_CM_CP (m54xxacr.h)'),
}


def cache_args(name):
    """dmamodel's options for the data cache of configuration NAME."""
    _, size, ways, line, pol, alloc, repl, level = CACHES[name][:8]
    return (['--size', str(size), '--ways', str(ways), '--line', str(line), '--repl', repl,
             '--alloc', alloc, '--level', str(level)] +
            (['--write-through'] if pol == 'wt' else []))


SELFTEST_EXTRA = {'m68k_040': ['flush_page:cache_push'],
                  'm68k_060': ['clean_page:cache_push']}
# self-tests that replace the architecture's for a configuration: the
# 030's cache_clear() clears the whole data cache through CACR
SELFTEST_ONLY = {'m68k_030': ['inv_all:cache_clear']}

SCENARIOS = [('maponly', 409600), ('short', 409600), ('unaligned', 8152),
             ('unalignedfull', 8152),
             ('rt256', 256), ('rt1m', 1 << 20), ('rt1mclean', 1 << 20),
             ('boards100', 4096), ('short4k', 4096), ('rt4k', 4096),
             ('rt64k', 65536), ('short4kwrap', 4096), ('bidir', 4096), ('bidirstale', 4096),
             ('to256', 256), ('to4k', 4096), ('to64k', 65536)]
# The DMA_BIDIRECTIONAL scenarios (dmamodel's scenario.c, mapped and
# unmapped DMA_BIDIRECTIONAL), and the configurations whose base fails
# them: m68k's map pushed alone (the 060 keeps the pushed lines, the
# 030's push leaves the data cache alone; there is no unmap to drop
# them), openrisc's did nothing. Every other base must pass them.
BIDIR = ('bidir', 'bidirstale')
# The DMA_TO_DEVICE scenarios: the device must read the CPU's bytes, on
# every base and patched tree; their cost is a line after the cost
# table, and on TO_PUSH (a ColdFire with the MMU, whose patched
# DMA_TO_DEVICE map is dma_cache_push()) a push by set and way of the
# buffer's sets below one way of the cache (results.py's push_by_set()).
TO = (('to256', '256 B'), ('to4k', '4 KiB'), ('to64k', '64 KiB'))
TO_PUSH = ('coldfire_wt', 'coldfire_cb')
BIDIR_BASE_FAILS = {'m68k_060': BIDIR, 'or1k': BIDIR,
                    # write-through without write-allocate: only the lines
                    # the CPU read are in the cache
                    'm68k_030': ('bidirstale',)}
# Scenarios checked on the patched code and its mutations only: in
# unalignedfull the device writes every byte of an unaligned buffer, so
# a line that the map leaves in the cache shows as device bytes wrong;
# the bases differ there for reasons of their own (openrisc's misses the
# same line, MIPS's Hit_Invalidate changes the neighbours).
PATCHED_ONLY = ('unalignedfull',)
# The cost table: one map and unmap of a dirty buffer of each size.
COST = (('rt256', '256 B'), ('rt4k', '4 KiB'), ('rt64k', '64 KiB'), ('rt1m', '1 MiB'))
# Configurations whose patched map pushes by set and way only the sets a
# buffer shorter than one way of the cache covers (the m68k patches'
# dma_cache_push() on a ColdFire with the MMU), the whole cache from one
# way up: results.py's cost rule 'range' checks it on the COST sizes.
RANGE_PUSH = ('coldfire_cb',)
# Where the cost rule 'kept' (no more operations than a base that lost
# nothing) allows more, and why: (config, scenario) -> the reason.
COST_ALLOW = {
    ('m68k_060', 'rt256'):
        'below a page the base\'s cache_clear() pushes and clears the partial page '
        '(pushcl040) and keeps the data; the patched map pushes it (cache_push()) and then '
        'clears it the same way, one page push more, which writes nothing back',
}

# Each fix of the series (patches 1-6), checked on its own: the tree
# with patches 1..K-1 must fail, the tree with 1..K pass. K, the
# subject's short name, and how: ('model', configurations, scenarios,
# the counts judged: for each configuration, one of them above 0 in one
# of its scenarios before, every one 0 in every scenario after), or ('prep_coherent', arch): what 74-other-arches-doc's
# prepcoherent.py reads arch_dma_prep_coherent() to do (before: it only
# invalidates), or ('map_cell', row): 74's arch table row (archtable.py
# ROWS), its map evidence before the series in the tree before, after
# the series in the tree after (the model runs no xtensa: no compiler).
FIXES = [
    (1, 'm68k_bidirectional_no_stale_line',
     ('model', ('m68k_060', 'm68k_030'), BIDIR, ('lost', 'devwrong', 'devstale'))),
    (2, 'coldfire_copyback_from_device_keeps_dirty_lines',
     ('model', ('coldfire_cb',), ('maponly', 'short4k', 'boards100'),
      ('lost', 'devwrong', 'neigh'))),
    # the device writes all of an unaligned buffer: a last line the loop
    # misses stays dirty and is evicted over the device's bytes
    (3, 'openrisc_loop_includes_the_last_line',
     ('model', ('or1k',), ('unalignedfull',), ('devwrong',))),
    (4, 'openrisc_bidirectional_written_back_and_invalidated',
     ('model', ('or1k',), BIDIR, ('lost', 'devwrong', 'devstale'))),
    (5, 'xtensa_prep_coherent_writes_back', ('prep_coherent', 'xtensa')),
    (6, 'xtensa_from_device_written_back_at_map', ('map_cell', 'xtensa')),
]

# Each fix's hunk reverted in the tree with it: K, name, (old, new) in
# the file with patches 1..K. fix_K must then fail.
FIX_MUTATIONS = [
    (1, 'no_clear_after_the_060_push',
     '\t\tif (CPU_IS_060)\n\t\t\tcache_clear(handle, size);\n', ''),
    (2, 'copyback_coldfire_clears',
     'if (CPU_IS_COLDFIRE && IS_ENABLED(CONFIG_CACHE_COPYBACK))', 'if (0)'),
    (3, 'loop_from_the_start_address',
     '\tpaddr &= ~(L1_CACHE_BYTES - 1);\n\twhile (paddr < end) {', '\twhile (paddr < end) {'),
    (4, 'bidirectional_does_nothing',
     '\tcase DMA_TO_DEVICE:\n\tcase DMA_BIDIRECTIONAL:\n', '\tcase DMA_TO_DEVICE:\n'),
    (5, 'prep_coherent_invalidates',
     '__flush_invalidate_dcache_range((unsigned long)page_address(page), size);',
     '__invalidate_dcache_range((unsigned long)page_address(page), size);'),
    (6, 'from_device_does_nothing_at_map',
     '\tcase DMA_FROM_DEVICE:\n\tcase DMA_BIDIRECTIONAL:\n\tcase DMA_TO_DEVICE:\n',
     '\tcase DMA_BIDIRECTIONAL:\n\tcase DMA_TO_DEVICE:\n'),
]

# Mutations of the patched source: name, the ARCHES it applies to,
# (old, new). Each must make at least one test of those configurations
# fail: a scenario, or a cost rule (run.py's cost_fails()).
MUTATIONS = [
    # (r4k's dma_cache_wback is its write back + invalidate, so a
    # mutation between the two would change nothing there)
    ('mips_map_invalidates', ('mips',),
     ('not discarded.\n\t\t */\n\t\tdma_cache_wback_inv(',
      'not discarded.\n\t\t */\n\t\tdma_cache_inv(')),
    ('m68k_060_no_clear_after_push', ('m68k',),
     ('\t\tif (CPU_IS_060)\n\t\t\tcache_clear(handle, size);\n', '')),
    ('ppc_test_on_bidirectional', ('powerpc',),
     ('if (dir == DMA_FROM_DEVICE)\n\t\tdir = DMA_TO_DEVICE;',
      'if (dir == DMA_BIDIRECTIONAL)\n\t\tdir = DMA_TO_DEVICE;')),
    # the first version of the m68k patch: every ColdFire pushes at map,
    # write-through or not (2,048 cpushl where one CACR write does)
    ('coldfire_v1_pushes_write_through', ('coldfire', 'coldfire_cb'),
     ('if (CPU_IS_020_OR_030 ||\n'
      '\t\t    (CPU_IS_COLDFIRE && !IS_ENABLED(CONFIG_CACHE_COPYBACK))) {',
      'if (CPU_IS_020_OR_030) {')),
    # the first version of the openrisc patches, without the last-line fix: the
    # loop steps from the unaligned start and misses the last line
    ('openrisc_v1_loop_from_the_start_address', ('openrisc',),
     ('\tpaddr &= ~(L1_CACHE_BYTES - 1);\n\twhile (paddr < end) {', '\twhile (paddr < end) {')),
    # a copyback ColdFire's small maps push the whole cache again
    ('coldfire_small_maps_push_the_whole_cache', ('coldfire', 'coldfire_cb'),
     ('if (size && size <= DCACHE_MAX_ADDR) {', 'if (0) {')),
    # ... or whose sets wrap round the end of a way push only the first part
    ('coldfire_range_push_without_the_wrap', ('coldfire', 'coldfire_cb'),
     ('\t\t\tflush_cf_dcache(0, end);\n', '')),
    # DMA_TO_DEVICE through cache_push() again: the whole cache, and
    # without the MMU the CACR invalidate after the push
    ('coldfire_to_device_pushes_the_whole_cache', ('coldfire', 'coldfire_cb'),
     ('case DMA_TO_DEVICE:\n\t\tdma_cache_push(handle, size);',
      'case DMA_TO_DEVICE:\n\t\tcache_push(handle, size);')),
    # a copyback ColdFire taken for a write-through one
    ('coldfire_copyback_only_invalidates', ('coldfire_cb',),
     ('CPU_IS_COLDFIRE && !IS_ENABLED(CONFIG_CACHE_COPYBACK)', 'CPU_IS_COLDFIRE')),
]

# dmamodel's sources; it also includes tools/include/dmacheck.h
DM_FILES = ['dmamodel.h', 'state.c', 'cache.c', 'or1k.c', 'emu.c', 'decode.c', 'scenario.c',
            'dmamodel.c']

# A mutation of dmamodel's cache (cache.c): name, old, new. The cache
# holds the whole modelled window again (as before the caches were
# finite); capacity_*_within_the_cache must then fail, for every
# configuration that loses data.
CACHE_MUTATIONS = [
    ('cache_holds_the_whole_window', 'm.nslots = m.size / m.line;',
     'm.size = WIN_SIZE;\n\tm.nslots = m.size / m.line;'),
]

# Decoder mutations of dmamodel (decode.c, emu.c's memory hook): each
# misreads one cache instruction; the rebuilt model must then fail a
# self-test. name, old, new
DECODER = [
    ('mips_hit_writeback_inv_read_as_invalidate',
     'case 5:\t\t/* Hit_Writeback_Inv_D, _SD */\n\t\thit_op(ea, m.line, L_FLUSH);',
     'case 5:\t\t/* Hit_Writeback_Inv_D, _SD */\n\t\thit_op(ea, m.line, L_INV);'),
    ('mips_hit_invalidate_read_as_writeback_inv',
     'case 4:\t\t/* Hit_Invalidate_D, _SD */\n\t\thit_op(ea, m.line, L_INV);',
     'case 4:\t\t/* Hit_Invalidate_D, _SD */\n\t\thit_op(ea, m.line, L_FLUSH);'),
    ('ppc_dcbst_read_as_dcbi',
     'case 54:\t/* dcbst */\n\t\tm.in_cacheop = true;\n\t\thit_op(ea, m.line, L_CLEAN);',
     'case 54:\t/* dcbst */\n\t\tm.in_cacheop = true;\n\t\thit_op(ea, m.line, L_INV);'),
    ('ppc_dcbi_accesses_counted_as_stores',
     'if (m.in_cacheop)\n\t\treturn;', 'if (0)\n\t\treturn;'),
    ('m68k_cpush_read_as_cinv',
     'enum lop lop = push ? (m.push_keeps ? L_CLEAN : L_FLUSH) : L_INV;',
     'enum lop lop = L_INV;'),
    ('or1k_dcbfr_read_as_dcbir',
     'case SPR_DCBFR:\n\t\thit_op(ea, m.line, L_FLUSH);',
     'case SPR_DCBFR:\n\t\thit_op(ea, m.line, L_INV);'),
    ('or1k_upr_without_data_cache',
     'return SPR_UPR_UP | SPR_UPR_DCP | SPR_UPR_ICP;', 'return SPR_UPR_UP | SPR_UPR_ICP;'),
    ('or1k_branch_without_delay_slot', 'pc = was_jump ? next : pc + 4;',
     'pc = jump ? target : was_jump ? next : pc + 4;'),
    ('coldfire_cpushl_read_as_a_line_address',
     'if (m.coldfire && scope == 1) {', 'if (0 && scope == 1) {'),
    ('coldfire_cacr_dcinva_ignored', 'if (v & 0x01000000) {', 'if (0) {'),
]
