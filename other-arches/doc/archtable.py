#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""What every architecture with non-coherent DMA does for DMA_FROM_DEVICE
at map (arch_sync_dma_for_device()) and unmap (arch_sync_dma_for_cpu()),
before and after both series (patches/, the ARM series, and
patches/other-arches), checked against the tree.

Each row names the code that shows it: C or assembly text that must be
in the base file (before) and in the file with both series applied
(after), compared with comments dropped and white space collapsed. The
"after" tree is the base with every hunk of both series for that file
applied (git apply), so nothing is checked out. The results page has
one more column, "prep_coherent": what arch_dma_prep_coherent() does to
a new coherent buffer (prepcoherent.py, which has its own tests: none
may only invalidate); dma-api.rst's table has not.

  archtable.py rst       print the table as it goes in dma-api.rst
  archtable.py check     KTAP: every row's evidence, prepcoherent.py's
                         tests, the table in dma-api.rst after the series
                         equals "rst", and writes
                         Documentation/results/BASE/arch-dma-table.md
Environment: TOP, BASE, BASE_TAG, BASE_VERSION, RESULTS_DIR, TREE (the
base tree), PATCHES (PATCH=FILE lines: the other-arches series), ARM_PATCHES
(the same for the ARM series).
"""

import os
import re
import subprocess
import sys
import tempfile

import prepcoherent

FD = 'case DMA_FROM_DEVICE:'
ARM64_MAP = ('void arch_sync_dma_for_device(phys_addr_t paddr, size_t size, enum '
             'dma_data_direction dir) { unsigned long start = (unsigned long)phys_to_virt(paddr);')

# arch, files, map before (text), map after, unmap after,
# [(file, text that must be in the base)], [(file, text in the tree after)],
# [(file, text in both)] -- unmap evidence, and files that must have no
# arch_sync_dma_for_cpu()/_for_device() for "nothing"
ROWS = [
    ('arc', 'invalidate', 'write back', 'invalidate',
     [('arch/arc/mm/dma.c', f'{FD} dma_cache_inv(paddr, size);')],
     [('arch/arc/mm/dma.c', f'{FD} dma_cache_wback(paddr, size);')],
     [('arch/arc/mm/dma.c', f'{FD} case DMA_BIDIRECTIONAL: dma_cache_inv(paddr, size);')]),
    ('arm (ARMv6, ARMv7, ARMv7-M)', 'invalidate', 'write back', 'invalidate',
     [('arch/arm/mm/cache-v7.S', 'teq r2, #DMA_FROM_DEVICE beq v7_dma_inv_range')],
     [('arch/arm/mm/cache-v7.S', 'SYM_TYPED_FUNC_START(v7_dma_map_area) add r1, r1, r0 b v7_dma_clean_range')],
     [('arch/arm/mm/cache-v7.S', 'teq r2, #DMA_TO_DEVICE bne v7_dma_inv_range')]),
    ('arm (ARMv4, ARMv5)', 'invalidate', 'write back and invalidate', 'nothing (outer cache: invalidate)',
     [('arch/arm/mm/proc-arm926.S', 'beq arm926_dma_clean_range bcs arm926_dma_inv_range')],
     [('arch/arm/mm/proc-arm926.S', 'beq arm926_dma_clean_range b arm926_dma_flush_range SYM_FUNC_END(arm926_dma_map_area)')],
     [('arch/arm/mm/proc-arm926.S', 'SYM_TYPED_FUNC_START(arm926_dma_unmap_area) ret lr'),
      ('arch/arm/mm/dma-mapping.c', 'if (dir != DMA_TO_DEVICE) { outer_inv_range(paddr, paddr + size); dma_cache_maint_page(paddr, size, dir, dmac_unmap_area); }')]),
    # the _nosync forms: the barrier that ends them is
    # arch_sync_dma_flush(), once for a batch of them
    ('arm64', 'write back', 'write back', 'invalidate',
     [('arch/arm64/mm/dma-mapping.c', f'{ARM64_MAP} dcache_clean_poc_nosync(start, start + size); }}')],
     [('arch/arm64/mm/dma-mapping.c', f'{ARM64_MAP} dcache_clean_poc_nosync(start, start + size); }}')],
     [('arch/arm64/mm/dma-mapping.c', 'if (dir == DMA_TO_DEVICE) return; dcache_inval_poc_nosync(start, start + size); }')]),
    ('csky', 'write back and invalidate', 'write back and invalidate', 'invalidate',
     [('arch/csky/mm/dma-mapping.c', f'{FD} case DMA_BIDIRECTIONAL: cache_op(paddr, size, dma_wbinv_range);')],
     [('arch/csky/mm/dma-mapping.c', f'{FD} case DMA_BIDIRECTIONAL: cache_op(paddr, size, dma_wbinv_range);')],
     [('arch/csky/mm/dma-mapping.c', f'{FD} case DMA_BIDIRECTIONAL: cache_op(paddr, size, dma_inv_range);')]),
    ('hexagon', 'invalidate', 'write back and invalidate', 'nothing',
     [('arch/hexagon/kernel/dma.c', f'{FD} hexagon_inv_dcache_range(')],
     [('arch/hexagon/kernel/dma.c', f'{FD} case DMA_BIDIRECTIONAL: flush_dcache_range(')],
     [('arch/hexagon/kernel/dma.c', '!arch_sync_dma_for_cpu(')]),
    ('m68k (68020, 68030)', 'invalidate all (write-through)', 'invalidate all (write-through)', 'nothing',
     [('arch/m68k/kernel/dma.c', f'{FD} cache_clear(handle, size);'),
      ('arch/m68k/mm/memory.c', ': : "i" (FLUSH_I_AND_D)')],
     [('arch/m68k/kernel/dma.c', 'if (CPU_IS_020_OR_030 || (CPU_IS_COLDFIRE && !IS_ENABLED(CONFIG_CACHE_COPYBACK))) { cache_clear(handle, size); break; }')],
     [('arch/m68k/kernel/dma.c', '!arch_sync_dma_for_cpu(')]),
    ('m68k (68040, 68060)', 'invalidate', 'write back and invalidate', 'nothing',
     [('arch/m68k/kernel/dma.c', f'{FD} cache_clear(handle, size);')],
     [('arch/m68k/kernel/dma.c', f'case DMA_BIDIRECTIONAL: {FD} if (CPU_IS_020_OR_030 || (CPU_IS_COLDFIRE && !IS_ENABLED(CONFIG_CACHE_COPYBACK))) {{ cache_clear(handle, size); break; }} dma_cache_push(handle, size); if (CPU_IS_060) cache_clear(handle, size);'),
      # dma_cache_push() is cache_push() but on ColdFire with the MMU
      ('arch/m68k/kernel/dma.c', '#endif cache_push(handle, size); }')],
     [('arch/m68k/kernel/dma.c', '!arch_sync_dma_for_cpu(')]),
    # after: the sets of a buffer that spans at most one way of the cache
    # with the MMU (dma_cache_push()), else the whole cache (cache_push());
    # without the MMU the whole cache by cpushl alone (mcf_cache_push())
    ('m68k (ColdFire, copyback)', 'invalidate all', 'write back and invalidate', 'nothing',
     [('arch/m68k/kernel/dma.c', f'{FD} cache_clear(handle, size);'),
      ('arch/m68k/mm/memory.c', 'void cache_clear (unsigned long paddr, int len) { if (CPU_IS_COLDFIRE) { clear_cf_bcache(0, DCACHE_MAX_ADDR);')],
     [('arch/m68k/kernel/dma.c', 'cache_clear(handle, size); break; } dma_cache_push(handle, size);'),
      ('arch/m68k/kernel/dma.c', '#if defined(CONFIG_COLDFIRE) && defined(CONFIG_MMU) unsigned long start, end; if (size && size <= DCACHE_MAX_ADDR) { start = handle & DCACHE_SET_MASK; end = (handle + size - 1) & DCACHE_SET_MASK; if (start > end) { flush_cf_dcache(0, end); end = DCACHE_MAX_ADDR; } flush_cf_dcache(start, end); return; } #elif defined(CACHE_PUSH) mcf_cache_push(); return; #endif cache_push(handle, size); }'),
      ('arch/m68k/mm/memory.c', 'void cache_push (unsigned long paddr, int len) { if (CPU_IS_COLDFIRE) { flush_cf_bcache(0, DCACHE_MAX_ADDR);')],
     [('arch/m68k/kernel/dma.c', '!arch_sync_dma_for_cpu(')]),
    ('m68k (ColdFire, write-through)', 'invalidate all (write-through)', 'invalidate all (write-through)', 'nothing',
     [('arch/m68k/kernel/dma.c', f'{FD} cache_clear(handle, size);'),
      ('arch/m68k/mm/memory.c', 'void cache_clear (unsigned long paddr, int len) { if (CPU_IS_COLDFIRE) { clear_cf_bcache(0, DCACHE_MAX_ADDR);')],
     [('arch/m68k/kernel/dma.c', 'if (CPU_IS_020_OR_030 || (CPU_IS_COLDFIRE && !IS_ENABLED(CONFIG_CACHE_COPYBACK))) { cache_clear(handle, size); break; }')],
     [('arch/m68k/kernel/dma.c', '!arch_sync_dma_for_cpu(')]),
    ('microblaze', 'invalidate', 'write back and invalidate', 'invalidate',
     [('arch/microblaze/kernel/dma.c', f'{FD} invalidate_dcache_range(paddr, paddr + size);'),
      ('arch/microblaze/kernel/dma.c', 'enum dma_data_direction dir) { __dma_sync(paddr, size, dir); } void arch_sync_dma_for_cpu(')],
     [('arch/microblaze/kernel/dma.c', 'if (dir != DMA_FROM_DEVICE) { __dma_sync(paddr, size, dir); return; } flush_dcache_range(paddr, paddr + size); }')],
     [('arch/microblaze/kernel/dma.c', 'void arch_sync_dma_for_cpu(phys_addr_t paddr, size_t size, enum dma_data_direction dir) { __dma_sync(paddr, size, dir); }')]),
    ('mips (speculating CPUs)', 'invalidate', 'write back and invalidate', 'invalidate',
     [('arch/mips/mm/dma-noncoherent.c', f'{FD} dma_cache_inv((unsigned long)addr, size);')],
     [('arch/mips/mm/dma-noncoherent.c', f'{FD} case DMA_BIDIRECTIONAL: dma_cache_wback_inv((unsigned long)addr, size);')],
     [('arch/mips/mm/dma-noncoherent.c', 'if (cpu_needs_post_dma_flush()) dma_sync_phys(paddr, size, dir, false);')]),
    ('mips (other CPUs)', 'invalidate', 'write back and invalidate', 'nothing',
     [('arch/mips/mm/dma-noncoherent.c', f'{FD} dma_cache_inv((unsigned long)addr, size);')],
     [('arch/mips/mm/dma-noncoherent.c', f'{FD} case DMA_BIDIRECTIONAL: dma_cache_wback_inv((unsigned long)addr, size);')],
     [('arch/mips/mm/dma-noncoherent.c', 'if (cpu_needs_post_dma_flush()) dma_sync_phys(paddr, size, dir, false);')]),
    ('nios2', 'invalidate', 'write back and invalidate', 'invalidate',
     [('arch/nios2/mm/dma-mapping.c', f'{FD} invalidate_dcache_range((unsigned long)vaddr, (unsigned long)(vaddr + size)); break; case DMA_TO_DEVICE: case DMA_BIDIRECTIONAL:')],
     [('arch/nios2/mm/dma-mapping.c', f'{FD} flush_dcache_only_range((unsigned long)vaddr, (unsigned long)(vaddr + size)); break;'),
      ('arch/nios2/mm/cacheflush.c', 'void flush_dcache_only_range(unsigned long start, unsigned long end) { __flush_dcache(start, end); }')],
     [('arch/nios2/mm/dma-mapping.c', f'{FD} invalidate_dcache_range((unsigned long)vaddr, (unsigned long)(vaddr + size)); break; case DMA_TO_DEVICE:')]),
    # the range loops are mm/cache.c's cache_loop()
    ('openrisc', 'invalidate', 'write back and invalidate', 'nothing',
     [('arch/openrisc/kernel/dma.c', f'{FD} local_dcache_range_inv(addr, addr + size);'),
      ('arch/openrisc/mm/cache.c', 'void local_dcache_range_inv(unsigned long start, unsigned long end) { cache_loop(start, end, SPR_DCBIR, SPR_UPR_DCP); }')],
     [('arch/openrisc/kernel/dma.c', f'case DMA_TO_DEVICE: {FD} case DMA_BIDIRECTIONAL: local_dcache_range_flush(addr, addr + size);'),
      ('arch/openrisc/mm/cache.c', 'void local_dcache_range_flush(unsigned long start, unsigned long end) { cache_loop(start, end, SPR_DCBFR, SPR_UPR_DCP); }'),
      ('arch/openrisc/mm/cache.c', 'paddr &= ~(L1_CACHE_BYTES - 1); while (paddr < end) { mtspr(reg, paddr); paddr += L1_CACHE_BYTES; }')],
     [('arch/openrisc/kernel/dma.c', '!arch_sync_dma_for_cpu(')]),
    ('parisc', 'write back and invalidate', 'write back and invalidate', 'invalidate',
     [('arch/parisc/kernel/pci-dma.c', 'flush_kernel_dcache_range((unsigned long)phys_to_virt(paddr), size); }')],
     [('arch/parisc/kernel/pci-dma.c', 'flush_kernel_dcache_range((unsigned long)phys_to_virt(paddr), size); }')],
     [('arch/parisc/kernel/pci-dma.c', f'{FD} purge_kernel_dcache_range_asm(addr, addr + size);')]),
    ('powerpc (32-bit, non-coherent)', 'invalidate (flush if unaligned)', 'write back', 'invalidate (flush if unaligned)',
     [('arch/powerpc/mm/dma-noncoherent.c', f'{FD} if ((start | end) & (L1_CACHE_BYTES - 1)) flush_dcache_range(start, end); else invalidate_dcache_range(start, end);'),
      ('arch/powerpc/mm/dma-noncoherent.c', 'void arch_sync_dma_for_device(phys_addr_t paddr, size_t size, enum dma_data_direction dir) { __dma_sync_page(paddr, size, dir); }')],
     [('arch/powerpc/mm/dma-noncoherent.c', 'if (dir == DMA_FROM_DEVICE) dir = DMA_TO_DEVICE; __dma_sync_page(paddr, size, dir);'),
      ('arch/powerpc/mm/dma-noncoherent.c', 'case DMA_TO_DEVICE: clean_dcache_range(start, end);')],
     [('arch/powerpc/mm/dma-noncoherent.c', f'{FD} if ((start | end) & (L1_CACHE_BYTES - 1)) flush_dcache_range(start, end); else invalidate_dcache_range(start, end);')]),
    ('riscv', 'write back', 'write back', 'invalidate',
     [('arch/riscv/mm/dma-noncoherent.c', f'{FD} if (!arch_sync_dma_clean_before_fromdevice())')],
     [('arch/riscv/mm/dma-noncoherent.c', f'{FD} if (!arch_sync_dma_clean_before_fromdevice())')],
     [('arch/riscv/mm/dma-noncoherent.c', 'if (arch_sync_dma_cpu_needs_post_dma_flush()) arch_dma_cache_inv(paddr, size);')]),
    # before: SH-4 invalidates (ocbi); SH-3's __flush_invalidate_region is
    # its purge (cache-sh3.c), so SH-3 wrote back and invalidated already
    ('sh (SH-3, SH-4)', 'invalidate (SH-4; SH-3 already wrote back and invalidated)',
     'write back and invalidate', 'nothing',
     [('arch/sh/kernel/dma-coherent.c', f'{FD} __flush_invalidate_region(addr, size);'),
      ('arch/sh/mm/cache-sh3.c', '__flush_invalidate_region = sh3__flush_purge_region;')],
     [('arch/sh/kernel/dma-coherent.c', f'{FD} case DMA_BIDIRECTIONAL: __flush_purge_region(addr, size);')],
     [('arch/sh/kernel/dma-coherent.c', '!arch_sync_dma_for_cpu(')]),
    ('sparc (32-bit LEON)', 'nothing', 'nothing', 'invalidate all (write-through)',
     [('arch/sparc/kernel/ioport.c', '!arch_sync_dma_for_device(')],
     [('arch/sparc/kernel/ioport.c', '!arch_sync_dma_for_device(')],
     [('arch/sparc/kernel/ioport.c', 'leon_flush_dcache_all();')]),
    # sun4m: the SBus IOMMU's map (iommu.c), whatever the direction, runs
    # the CPU module's flush_page_for_dma() (srmmu.c's cachetlb ops) per
    # page, or once for the whole cache (gflush); its unmap runs none
    ('sparc (32-bit sun4m)', 'flush_page_for_dma() per page',
     'flush_page_for_dma() per page', 'nothing',
     [('arch/sparc/mm/iommu.c', 'for (p = vaddr & PAGE_MASK; p < vaddr + len; p += PAGE_SIZE) flush_page_for_dma(p);')],
     [('arch/sparc/mm/iommu.c', 'for (p = vaddr & PAGE_MASK; p < vaddr + len; p += PAGE_SIZE) flush_page_for_dma(p);')],
     [('arch/sparc/mm/iommu.c', 'iommu_invalidate_page(iommu->regs, busa); busa += PAGE_SIZE; } bit_map_clear(&iommu->usemap, ioptex, npages); }')]),
    # sun4d: the IO-UNIT's map (io-unit.c) only fills its page table, and
    # its unmap only frees the entries: no cache operation in either
    ('sparc (32-bit sun4d)', 'nothing', 'nothing', 'nothing',
     [('arch/sparc/mm/io-unit.c', 'spin_lock_irqsave(&iounit->lock, flags); ret = iounit_get_area(iounit, phys, len); spin_unlock_irqrestore(&iounit->lock, flags); return ret; }')],
     [('arch/sparc/mm/io-unit.c', 'spin_lock_irqsave(&iounit->lock, flags); ret = iounit_get_area(iounit, phys, len); spin_unlock_irqrestore(&iounit->lock, flags); return ret; }')],
     [('arch/sparc/mm/io-unit.c', 'for (len += vaddr; vaddr < len; vaddr++) clear_bit(vaddr, iounit->bmap); spin_unlock_irqrestore(&iounit->lock, flags); }')]),
    ('xtensa', 'nothing', 'write back (write-back cache)', 'invalidate',
     [('arch/xtensa/kernel/pci-dma.c', 'enum dma_data_direction dir) { switch (dir) { case DMA_BIDIRECTIONAL: case DMA_TO_DEVICE: if (XCHAL_DCACHE_IS_WRITEBACK)')],
     [('arch/xtensa/kernel/pci-dma.c', f'{FD} case DMA_BIDIRECTIONAL: case DMA_TO_DEVICE: if (XCHAL_DCACHE_IS_WRITEBACK) do_cache_op(paddr, size, __flush_dcache_range);')],
     [('arch/xtensa/kernel/pci-dma.c', 'case DMA_BIDIRECTIONAL: case DMA_FROM_DEVICE: do_cache_op(paddr, size, __invalidate_dcache_range);')]),
]

ENV = os.environ
APPLY_ERRORS = []


def normalize(text):
    text = re.sub(r'/\*.*?\*/', ' ', text, flags=re.S)
    text = re.sub(r'//.*$|@.*$', ' ', text, flags=re.M)
    return ' '.join(text.split()).replace('( ', '(').replace(' )', ')')


def sh(cmd, **kw):
    return subprocess.run(cmd, check=True, capture_output=True, text=True, **kw).stdout


def patch_list(var):
    return [os.path.abspath(l.split('=', 1)[1]) for l in ENV.get(var, '').split('\n')
            if l.startswith('PATCH=')]


def series_dir(var):
    """The directory of the patches in VAR, from TOP."""
    return os.path.relpath(os.path.dirname(patch_list(var)[0]), ENV['TOP']) + '/'


def trees():
    """{file: (base text, text after both series)} for every file of ROWS,
    and dma-api.rst."""
    files = sorted({f for r in ROWS for ev in r[4:] for f, _ in ev} |
                   {'Documentation/core-api/dma-api.rst'} | prepcoherent.files())
    patches = patch_list('ARM_PATCHES') + patch_list('PATCHES')
    out = {}
    with tempfile.TemporaryDirectory() as d:
        for f in files:
            base = sh(['git', '-C', ENV['TREE'], 'show', f'{ENV["BASE_TAG"]}:{f}'])
            os.makedirs(os.path.join(d, os.path.dirname(f)), exist_ok=True)
            with open(os.path.join(d, f), 'w') as fh:
                fh.write(base)
            for p in patches:
                with open(p) as fh:
                    if f'+++ b/{f}\n' not in fh.read():
                        continue
                r = subprocess.run(['git', 'apply', f'--include={f}', p], cwd=d,
                                   capture_output=True, text=True)
                if r.returncode:
                    APPLY_ERRORS.append(f'{os.path.basename(p)} does not apply to {f}: '
                                        + r.stderr.strip().replace('\n', ' '))
            with open(os.path.join(d, f)) as fh:
                out[f] = (base, fh.read())
    return out


def has(text, ev):
    if ev.startswith('!'):
        return not re.search(r'^\s*void\s+' + re.escape(ev[1:]), text, re.M)
    return normalize(ev) in normalize(text)


def rst_table():
    head = ('Architecture', 'Map, before', 'Map', 'Unmap')
    rows = [head] + [(r[0], r[1], r[2], r[3]) for r in ROWS]
    w = [max(len(r[i]) for r in rows) for i in range(4)]
    rule = '  '.join('=' * n for n in w)
    fmt = lambda r: '  '.join(c.ljust(n) for c, n in zip(r, w)).rstrip()
    # the before column is for the table in Documentation/results, not
    # for the kernel's documentation: drop it there
    w2 = [w[0], w[2], w[3]]
    rule2 = '  '.join('=' * n for n in w2)
    fmt2 = lambda r: '  '.join(c.ljust(n) for c, n in zip((r[0], r[2], r[3]), w2)).rstrip()
    del rule, fmt
    return '\n'.join([rule2, fmt2(head), rule2] + [fmt2(r) for r in rows[1:]] + [rule2]) + '\n'


def results_md(model_archs, kunit, prep):
    sys.path.insert(0, os.path.join(ENV['TOP'], 'other-arches'))
    from crossbuild import ARCHES
    from syntax import GATE
    compiled = {a: f'W=1, {c}' if v != '-' else f'no ({c})' for a, v, c in ARCHES}
    compiled.update({a: f'{compiled[a][:-1]}; preprocessed and syntax-checked with the '
                     f'host gcc, {GATE[a][0]})' for a in GATE})
    lines = [
        '<!-- SPDX-License-Identifier: GPL-2.0 -->',
        f'<!-- Generated by BASE={ENV["BASE"]} tools/checks/74-other-arches-doc '
        '(other-arches/doc/archtable.py); do not edit. -->',
        '# DMA_FROM_DEVICE at map and unmap, by architecture, before and after both series',
        '',
        f'Checked against {ENV["BASE_VERSION"]}: every cell of "map before", "map '
        'after" and "unmap" is backed by source text that',
        'other-arches/doc/archtable.py finds in the base file or in the file with '
        f'{series_dir("ARM_PATCHES")} (ARM) and {series_dir("PATCHES")} applied.',
        '"Compiled": the W=1 build of tools/checks/70-other-arches (arm: the ARM '
        'series\' own checks). "KUnit": the dma_mapping suite in QEMU, which models',
        'no data cache (plumbing, not the fix). "Model": the cache models '
        f'(Documentation/results/{ENV["BASE"]}/model.md for arm, other-arches-model.md for the '
        'rest).',
        '"prep_coherent": what arch_dma_prep_coherent() does to the lines of a new coherent '
        'buffer, which dma_direct_alloc() has just zeroed through the cache ("was": the base;',
        'only invalidating discards the zeroes), from the calls in its body and their '
        'definitions (other-arches/doc/prepcoherent.py); not in dma-api.rst\'s table.',
        '',
        '| architecture | map, before | map, after | unmap (after) | prep_coherent (after) '
        '| compiled | KUnit | model |',
        '| --- | --- | --- | --- | --- | --- | --- | --- |',
    ]
    for r in ROWS:
        a = r[0].split()[0]
        if a == 'arm':
            comp, mdl = 'yes (ARM series checks)', 'base loses, patched 0 (model.md)'
        else:
            comp = compiled.get(a, 'not changed by the series')
            mdl = model_archs.get(r[0], model_archs.get(a, 'no model'))
        ku = kunit.get(a, 'no row')
        if r[0] == 'mips (speculating CPUs)':
            # Malta's 24Kc has no MAARs: QEMU runs the other CPUs' path
            ku = 'no row (the 24Kc of the Malta rows does not speculate)'
        lines.append(f'| {r[0]} | {r[1]} | {r[2]} | {r[3]} | {prep[r[0]]} | {comp} | {ku} '
                     f'| {mdl} |')
    return '\n'.join(lines) + '\n'


def main():
    if sys.argv[1:] == ['rst']:
        sys.stdout.write(rst_table())
        return 0
    sys.path.insert(0, os.path.join(ENV['TOP'], 'tools'))
    from ktap import report
    t = trees()
    tests = [(not APPLY_ERRORS, 'series_hunks_apply',
              '; '.join(APPLY_ERRORS) or 'every hunk of both series for these files applies')]
    for r in ROWS:
        name = re.sub(r'[^a-z0-9]+', '_', r[0].lower()).strip('_')
        bad = []
        for which, ev_list in (('before', r[4]), ('after', r[5]), ('unmap', r[6])):
            for f, ev in ev_list:
                text = t[f][0] if which == 'before' else t[f][1]
                if not has(text, ev):
                    bad.append(f'{which}: "{ev}" not in {f}')
        # a changed row: some of its base text is gone after the series
        if r[1] != r[2] and all(has(t[f][1], ev) for f, ev in r[4]):
            bad.append('all of its base text is still there after the series')
        tests.append((not bad, f'table_row_{name}',
                      '; '.join(bad) or f'{r[0]}: map {r[1]} -> {r[2]}, unmap {r[3]}: evidence found'))
    found = prepcoherent.definers(ENV['TREE'], ENV['BASE_TAG'],
                                  patch_list('ARM_PATCHES') + patch_list('PATCHES'))
    tests += prepcoherent.tests(t, normalize, found, ROWS)
    doc = t['Documentation/core-api/dma-api.rst'][1]
    table = rst_table()
    tests.append((table in doc, 'dma_api_rst_table_is_generated',
                  'the table in dma-api.rst after the series is `archtable.py rst`'
                  if table in doc else 'dma-api.rst after the series lacks the table '
                  '`other-arches/doc/archtable.py rst` prints: regenerate the doc patch'))
    # the README table's model and KUnit columns, from generated results
    model_archs = {}
    mp = os.path.join(ENV['RESULTS_DIR'], 'other-arches-model.md')
    if os.path.exists(mp):
        # per configuration: base cells 3-7, patched cells 8-12 (lost first)
        for line in open(mp):
            m = re.match(r'\| (mips|ppc|m68k|or1k|coldfire)_?\S* \|', line)
            if not m:
                continue
            cells = [c.strip() for c in line.strip().strip('|').split('|')]
            if len(cells) != 15:  # another table of the file ("Modelled caches")
                continue
            base = sum(int(c.split()[0]) for c in cells[3:8])
            patched = (sum(int(n) for c in cells[8:13] for n in c.split(' / ')) +
                       sum(int(c.split(' / ')[1]) for c in cells[13:15]))
            # the row of the table each configuration belongs to
            a = {'ppc': 'powerpc', 'mips': 'mips (other CPUs)', 'or1k': 'openrisc',
                 'm68k': 'm68k (68040, 68060)'}.get(m.group(1), m.group(1))
            a = {'mips_maar': 'mips (speculating CPUs)',
                 'coldfire_wt': 'm68k (ColdFire, write-through)',
                 'coldfire_cb': 'm68k (ColdFire, copyback)'}.get(cells[0], a)
            v = (f'{cells[0]}: base loses {base} bytes in 5 scenarios, patched '
                 f'{patched} (lost, exposed, device or neighbour bytes wrong)')
            model_archs[a] = f'{model_archs[a]}; {v}' if a in model_archs else v
    # rows of tools/checks/80-kunit-arches (tools/check --full)
    kunit = {}
    kp = os.path.join(ENV['RESULTS_DIR'], 'kunit-config-matrix-other-arches-results.md')
    if os.path.exists(kp):
        for line in open(kp):
            cells = [c.strip() for c in line.strip().strip('|').split('|')]
            if len(cells) != 5 or cells[0] in ('configuration', '---'):
                continue
            a = cells[0].split('-')[0]
            a = {'mipsel': 'mips'}.get(a, a)
            v = f'{cells[0]}: {cells[4]} ({cells[3]})'
            kunit[a] = f'{kunit[a]}; {v}' if a in kunit else v
    with open(os.path.join(ENV['RESULTS_DIR'], 'arch-dma-table.md'), 'w') as fh:
        fh.write(results_md(model_archs, kunit, prepcoherent.cells(t, ROWS, normalize)))
    return report(tests)


if __name__ == '__main__':
    sys.exit(main())
