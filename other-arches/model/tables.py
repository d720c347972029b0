# SPDX-License-Identifier: GPL-2.0
"""What other-arches/model/run.py runs: the architectures and their
dmamodel options, the CPU configurations and where each base must lose
data, the scenarios, and the source and decoder mutations."""

WIN = 0x01000000

# name: cross prefix, O= directory, the file the series changes, the
# unchanged objects it calls, the stub, ld options, dmamodel options.
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
                 '--line', '32', '--sets', '256', '--sline', '32',
                 '--ssets', '1024',
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
                 '--arg-off', '0xc0000000', '--line', '16'],
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
        'args': ['--arch', 'm68k', '--cpu', '3', '--win', hex(WIN),
                 '--line', '16'],
        'unmap': None,
        'selftests': ['inv_page:cache_clear'],
    },
    # OpenRISC 1000: Unicorn has no such CPU, or1k.c interprets the code
    'openrisc': {
        'cross': 'or1k-elf-', 'O': 'O-openrisc',
        'file': 'arch/openrisc/kernel/dma.c',
        'deps': [], 'stub': 'stub-or1k.c', 'ld': [],
        'args': ['--arch', 'or1k', '--win', hex(WIN), '--line', '16'],
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
        'args': ['--arch', 'm68k', '--cpu', '7', '--coldfire', '--win', hex(WIN),
                 '--line', '16', '--sets', '512'],
        'unmap': None, 'base_keeps': True,
        'selftests': ['flush_all:cache_push', 'inv_all:cache_clear'],
    },
    'coldfire_cb': {
        'make_arch': 'm68k', 'defconfig': 'm5475evb_defconfig',
        'enable': ['CACHE_COPYBACK'],
        'cross': 'm68k-linux-gnu-', 'O': 'O-coldfire-cb',
        'file': 'arch/m68k/kernel/dma.c',
        'deps': ['arch/m68k/mm/memory.o'], 'stub': 'stub-m68k.c', 'ld': [],
        'args': ['--arch', 'm68k', '--cpu', '7', '--coldfire', '--win', hex(WIN),
                 '--line', '16', '--sets', '512'],
        'unmap': None,
        'selftests': ['flush_all:cache_push', 'inv_all:cache_clear'],
    },
}

# name, arch, dmamodel options, CPU class, and loses(scenario, size): the
# scenarios where the base is expected to lose CPU-written bytes. r4k
# writes back and invalidates the whole cache (index operations) for a
# buffer of at least the cache's size; PowerPC flushes (dcbf) a range
# whose start or end is not line-aligned; m68k's cache_clear() pushes the
# partial pages at either end and invalidates only whole pages.
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
     "68040: map only (cpush invalidates)", lambda s, n: n >= 4096 and s != 'unaligned'),
    ('m68k_060', 'm68k', ['--setup', 'model_setup:1', '--push-keeps'],
     "68060 (CACR.DPI: cpush keeps lines): map only", lambda s, n: n >= 4096 and s != 'unaligned'),
    ('or1k', 'openrisc', [],
     'OpenRISC 1000, 16-byte lines: map only', lambda s, n: s != 'rt1mclean'),
    ('coldfire_wt', 'coldfire', ['--write-through'],
     'ColdFire V4e, write-through data cache: map only', lambda s, n: False),
    ('coldfire_cb', 'coldfire_cb', [],
     'ColdFire V4e, CONFIG_CACHE_COPYBACK: map only', lambda s, n: True),
]
SELFTEST_EXTRA = {'m68k_040': ['flush_page:cache_push'],
                  'm68k_060': ['clean_page:cache_push']}

SCENARIOS = [('maponly', 409600), ('short', 409600), ('unaligned', 8152),
             ('unalignedfull', 8152),
             ('rt256', 256), ('rt1m', 1 << 20), ('rt1mclean', 1 << 20),
             ('boards100', 4096), ('short4k', 4096), ('rt4k', 4096),
             ('rt64k', 65536)]
# Scenarios checked on the patched code and its mutations only: in
# unalignedfull the device writes every byte of an unaligned buffer, so
# a line that the map leaves in the cache shows as device bytes wrong;
# the bases differ there for reasons of their own (openrisc's misses the
# same line, MIPS's Hit_Invalidate changes the neighbours).
PATCHED_ONLY = ('unalignedfull',)
# The cost table: one map and unmap of a dirty buffer of each size.
COST = (('rt4k', '4 KiB'), ('rt64k', '64 KiB'), ('rt1m', '1 MiB'))

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
     ('if (CPU_IS_060 || CPU_IS_020_OR_030)', 'if (CPU_IS_020_OR_030)')),
    ('ppc_test_on_bidirectional', ('powerpc',),
     ('if (dir == DMA_FROM_DEVICE)\n\t\tdir = DMA_TO_DEVICE;',
      'if (dir == DMA_BIDIRECTIONAL)\n\t\tdir = DMA_TO_DEVICE;')),
    # the first version of the m68k patch: every ColdFire pushes at map,
    # write-through or not (2,048 cpushl where one CACR write does)
    ('coldfire_v1_pushes_write_through', ('coldfire', 'coldfire_cb'),
     ('\t\tif (CPU_IS_COLDFIRE && !IS_ENABLED(CONFIG_CACHE_COPYBACK)) {\n'
      '\t\t\tcache_clear(handle, size);\n\t\t\tbreak;\n\t\t}\n', '')),
    # the first version of the openrisc patches, without patch 7: the
    # loop steps from the unaligned start and misses the last line
    ('openrisc_v1_loop_from_the_start_address', ('openrisc',),
     ('for (cl = start; cl < addr + size;', 'for (cl = addr; cl < addr + size;')),
    # a copyback ColdFire taken for a write-through one
    ('coldfire_copyback_only_invalidates', ('coldfire_cb',),
     ('CPU_IS_COLDFIRE && !IS_ENABLED(CONFIG_CACHE_COPYBACK)', 'CPU_IS_COLDFIRE')),
]

# dmamodel's sources; it also includes tools/include/dmacheck.h
DM_FILES = ['dmamodel.h', 'dmamodel.c', 'emu.c', 'or1k.c', 'cache.c', 'decode.c',
            'scenario.c']

# Decoder mutations of dmamodel (decode.c, emu.c's memory hook): each
# misreads one cache instruction; the rebuilt model must then fail a
# self-test. name, old, new
DECODER = [
    ('mips_hit_writeback_inv_read_as_invalidate',
     'case 0x05:\t/* Hit_Writeback_Inv_D */\n\t\thit_op(ea, m.line, L_FLUSH);',
     'case 0x05:\t/* Hit_Writeback_Inv_D */\n\t\thit_op(ea, m.line, L_INV);'),
    ('mips_hit_invalidate_read_as_writeback_inv',
     'case 0x04:\t/* Hit_Invalidate_D */\n\t\thit_op(ea, m.line, L_INV);',
     'case 0x04:\t/* Hit_Invalidate_D */\n\t\thit_op(ea, m.line, L_FLUSH);'),
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
    ('or1k_branch_without_delay_slot', 'pc = was_jump ? next : pc + 4;',
     'pc = jump ? target : was_jump ? next : pc + 4;'),
    ('coldfire_cpushl_read_as_a_line_address',
     'if (m.coldfire && scope == 1) {', 'if (0 && scope == 1) {'),
    ('coldfire_cacr_dcinva_ignored', 'if (v & 0x01000000) {', 'if (0) {'),
]
