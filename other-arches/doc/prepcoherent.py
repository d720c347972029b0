# SPDX-License-Identifier: GPL-2.0
"""What arch_dma_prep_coherent() does to a new coherent buffer, for every
architecture that defines it, before and after both series: the
"prep_coherent" column of archtable.py's results page and its tests.

dma_direct_alloc() zeroes a new buffer through the cached alias
(memset()) and then calls arch_dma_prep_coherent() before it hands out
the uncached alias (arch_dma_set_uncached() or a remap). The zeroes are
still in dirty lines then: an arch_dma_prep_coherent() that only
invalidates discards them, and dma_alloc_coherent() returns whatever
memory held before (xtensa, __invalidate_dcache_range()). Every
architecture must write back there, or write back and invalidate.

Each cell comes from the code: the body of arch_dma_prep_coherent() in
the base file and in the file with both series applied (archtable.py's
trees()), every call in it looked up in HELPERS, whose entries name the
text of the helper's definition that shows what it does (its cache
instruction or operation), found in the base and after the series. The
architectures that define arch_dma_prep_coherent() are found by git
grep in the base and in the series' added lines, so one missing from
FILES fails.
"""

import re
import subprocess

WB, INV, ZERO = 'write back', 'invalidate', 'zero'

# arch -> the file that defines arch_dma_prep_coherent(); (before, after)
# as the table declares them, checked against what the code does
FILES = {
    'arc': ('arch/arc/mm/dma.c', 'write back and invalidate', 'write back and invalidate'),
    'arm64': ('arch/arm64/mm/dma-mapping.c', 'write back', 'write back'),
    'csky': ('arch/csky/mm/dma-mapping.c', 'zero, write back and invalidate',
             'zero, write back and invalidate'),
    'm68k': ('arch/m68k/kernel/dma.c', 'write back', 'write back'),
    'microblaze': ('arch/microblaze/mm/consistent.c', 'write back and invalidate',
                   'write back and invalidate'),
    'mips': ('arch/mips/mm/dma-noncoherent.c', 'write back and invalidate',
             'write back and invalidate'),
    'nios2': ('arch/nios2/mm/dma-mapping.c', 'write back and invalidate',
              'write back and invalidate'),
    'powerpc': ('arch/powerpc/mm/dma-noncoherent.c', 'write back and invalidate',
                'write back and invalidate'),
    'riscv': ('arch/riscv/mm/dma-noncoherent.c', 'write back and invalidate',
              'write back and invalidate'),
    'sh': ('arch/sh/kernel/dma-coherent.c', 'write back and invalidate',
           'write back and invalidate'),
    # after: the series' "xtensa: dma: write back and invalidate in
    # arch_dma_prep_coherent()"
    'xtensa': ('arch/xtensa/kernel/pci-dma.c', 'invalidate', 'write back and invalidate'),
}

# (arch, a call as arch_dma_prep_coherent() writes it, from its name) ->
# (what it does, [(file, text of its definition that shows it)])
HELPERS = {
    ('arc', 'dma_cache_wback_inv('): ({WB, INV}, [
        ('arch/arc/mm/cache.c', 'void dma_cache_wback_inv(phys_addr_t start, unsigned long sz) { __dma_cache_wback_inv(start, sz); }'),
        ('arch/arc/mm/cache.c', 'static void __dma_cache_wback_inv_l1(phys_addr_t start, unsigned long sz) { __dc_line_op_k(start, sz, OP_FLUSH_N_INV); }')]),
    ('arm64', 'dcache_clean_poc('): ({WB}, [
        ('arch/arm64/mm/cache.S', 'SYM_FUNC_START(__pi_dcache_clean_poc) dcache_by_line_op cvac, sy, x0, x1, x2, x3 ret SYM_FUNC_END(__pi_dcache_clean_poc) SYM_FUNC_ALIAS(dcache_clean_poc, __pi_dcache_clean_poc)')]),
    ('csky', 'cache_op(page_to_phys(page), size, dma_wbinv_set_zero_range)'): ({ZERO, WB, INV}, [
        ('arch/csky/mm/dma-mapping.c', 'static void dma_wbinv_set_zero_range(unsigned long start, unsigned long end) { memset((void *)start, 0, end - start); dma_wbinv_range(start, end); }'),
        ('arch/csky/mm/cachev1.c', 'void dma_wbinv_range(unsigned long start, unsigned long end) { cache_op_range(start, end, DATA_CACHE|CACHE_CLR|CACHE_INV, 1); }'),
        ('arch/csky/mm/cachev2.c', 'asm volatile("dcache.civa %0\\n"::"r"(i):"memory");')]),
    # on the 68040 the push invalidates too, not on the 68060 (memory.c)
    ('m68k', 'cache_push('): ({WB}, [
        ('arch/m68k/mm/memory.c', '} else if (CPU_IS_040_OR_060) {'),
        ('arch/m68k/mm/memory.c', 'do { push040(paddr); paddr += tmp; } while ((len -= tmp) > 0);'),
        ('arch/m68k/mm/memory.c', '"cpushp %%bc,(%0)\\n\\t"')]),
    ('microblaze', 'flush_dcache_range('): ({WB, INV}, [
        ('arch/microblaze/include/asm/cacheflush.h', '#define flush_dcache_range(start, end) mbc->dflr(start, end);'),
        ('arch/microblaze/kernel/cpu/cache.c', '.dflr = __flush_dcache_range_wb,'),
        ('arch/microblaze/kernel/cpu/cache.c', 'CACHE_RANGE_LOOP_2(start, end, cpuinfo.dcache_line_length, wdc.flush);')]),
    ('mips', 'dma_cache_wback_inv('): ({WB, INV}, [
        ('arch/mips/include/asm/io.h', '#define dma_cache_wback_inv(start, size) _dma_cache_wback_inv(start, size)'),
        ('arch/mips/mm/c-r4k.c', '_dma_cache_wback_inv = r4k_dma_cache_wback_inv;'),
        ('arch/mips/include/asm/r4kcache.h', '__BUILD_BLAST_CACHE_RANGE(d, dcache, Hit_Writeback_Inv_D, , )')]),
    ('nios2', 'flush_dcache_range('): ({WB, INV}, [
        ('arch/nios2/mm/cacheflush.c', 'void flush_dcache_range(unsigned long start, unsigned long end) { __flush_dcache(start, end);'),
        ('arch/nios2/mm/cacheflush.c', '__asm__ __volatile__ (" flushd 0(%0)\\n"')]),
    ('powerpc', 'flush_dcache_range('): ({WB, INV}, [
        ('arch/powerpc/include/asm/cacheflush.h', 'for (i = 0; i < size >> shift; i++, addr += bytes) dcbf(addr);'),
        ('arch/powerpc/include/asm/cache.h', '__asm__ __volatile__ ("dcbf 0, %0" : : "r"(addr) : "memory");')]),
    ('riscv', 'wback_inv('): ({WB, INV}, [
        ('arch/riscv/include/asm/dma-noncoherent.h', 'void (*wback_inv)(phys_addr_t paddr, size_t size);')]),
    ('riscv', 'ALT_CMO_OP(FLUSH,'): ({WB, INV}, [
        ('arch/riscv/include/asm/errata_list.h', 'CBO_##_op(a0)'),
        ('arch/riscv/include/asm/insn-def.h', '#define CBO_FLUSH(base) INSN_I(OPCODE_MISC_MEM, FUNC3(2), __RD(0), RS1(base), SIMM12(2))')]),
    ('sh', '__flush_purge_region('): ({WB, INV}, [
        ('arch/sh/mm/flush-sh4.c', '__flush_purge_region = sh4__flush_purge_region;'),
        ('arch/sh/mm/flush-sh4.c', 'while (cnt) { __ocbp(v); v += L1_CACHE_BYTES; cnt--; }')]),
    ('xtensa', '__invalidate_dcache_range('): ({INV}, [
        ('arch/xtensa/mm/misc.S', 'ENTRY(__invalidate_dcache_range) abi_entry_default ___invalidate_dcache_range a2 a3 a4'),
        ('arch/xtensa/include/asm/cacheasm.h', '.macro ___invalidate_dcache_range ar as at #if XCHAL_DCACHE_SIZE __loop_cache_range \\ar \\as \\at dhi XCHAL_DCACHE_LINEWIDTH')]),
    ('xtensa', '__flush_dcache_range('): ({WB}, [
        ('arch/xtensa/mm/misc.S', 'ENTRY(__flush_dcache_range) abi_entry_default ___flush_dcache_range a2 a3 a4'),
        ('arch/xtensa/include/asm/cacheasm.h', '.macro ___flush_dcache_range ar as at #if XCHAL_DCACHE_SIZE __loop_cache_range \\ar \\as \\at dhwb XCHAL_DCACHE_LINEWIDTH')]),
    # a write-through cache has nothing to write back: there
    # cacheflush.h makes it __invalidate_dcache_range()
    ('xtensa', '__flush_invalidate_dcache_range('): ({WB, INV}, [
        ('arch/xtensa/mm/misc.S', 'ENTRY(__flush_invalidate_dcache_range) abi_entry_default ___flush_invalidate_dcache_range a2 a3 a4'),
        ('arch/xtensa/include/asm/cacheasm.h', '.macro ___flush_invalidate_dcache_range ar as at #if XCHAL_DCACHE_SIZE __loop_cache_range \\ar \\as \\at dhwbi XCHAL_DCACHE_LINEWIDTH')]),
}

# what the body may call besides HELPERS: addresses, branches
IGNORE = {'if', 'for', 'while', 'switch', 'return', 'sizeof', 'likely', 'unlikely',
          'page_address', 'page_to_phys'}

# rows of archtable.ROWS whose CPUs do something else than their
# architecture's helpers say: (cell, [(file, text in the base and after)])
ROW_CELLS = {
    'm68k (68020, 68030)': ('nothing (write-through)', [
        ('arch/m68k/mm/memory.c', 'else asm volatile ("movec %/cacr,%/d0\\n\\t" "oriw %0,%/d0\\n\\t" "movec %/d0,%/cacr" : : "i" (FLUSH_I) : "d0");')]),
    'm68k (ColdFire, copyback)': ('not defined', [
        ('arch/m68k/kernel/dma.c', '#ifndef CONFIG_COLDFIRE void arch_dma_prep_coherent(')]),
    'm68k (ColdFire, write-through)': ('not defined', [
        ('arch/m68k/kernel/dma.c', '#ifndef CONFIG_COLDFIRE void arch_dma_prep_coherent(')]),
}

DEF = re.compile(r'^void\s+arch_dma_prep_coherent\s*\([^)]*\)\s*\{', re.M)


def files():
    """Every file the cells read."""
    return ({f for f, _, _ in FILES.values()} |
            {f for _, ev in HELPERS.values() for f, _ in ev} |
            {f for _, ev in ROW_CELLS.values() for f, _ in ev})


def body(text):
    """The body of arch_dma_prep_coherent() in TEXT, or None."""
    m = DEF.search(text)
    if not m:
        return None
    depth, i = 1, m.end()
    while depth and i < len(text):
        depth += {'{': 1, '}': -1}.get(text[i], 0)
        i += 1
    return text[m.end():i - 1]


def shown(key):
    """A key of HELPERS as a call: "f()", "ALT_CMO_OP(FLUSH, ...)"."""
    return key + {'(': ')', ',': ' ...)'}.get(key[-1], '')


def cell(ops):
    return {frozenset(): 'nothing', frozenset({WB}): WB, frozenset({INV}): INV,
            frozenset({WB, INV}): f'{WB} and {INV}',
            frozenset({ZERO, WB, INV}): f'{ZERO}, {WB} and {INV}'}.get(
                frozenset(ops), ' + '.join(sorted(ops)))


def what(arch, text, normalize):
    """(what ARCH's arch_dma_prep_coherent() in TEXT does: a set of ops,
    the helpers it calls, the calls HELPERS does not know); None when
    TEXT defines none."""
    b = body(text)
    if b is None:
        return None
    b = normalize(b)
    ops, helpers, unknown = set(), [], []
    for m in re.finditer(r'\b([A-Za-z_]\w*) ?\(', b):
        if m.group(1) in IGNORE:
            continue
        keys = [k for a, k in HELPERS if a == arch and b.startswith(normalize(k), m.start())]
        if not keys:
            unknown.append(m.group(1))
            continue
        ops |= HELPERS[arch, keys[0]][0]
        helpers.append(keys[0])
    return ops, helpers, unknown


def definers(tree, tag, patches):
    """The files of arch/ that define arch_dma_prep_coherent() at the base
    or in a line the patches add."""
    out = set(subprocess.run(['git', '-C', tree, 'grep', '-l', '-E',
                              r'^void\s+arch_dma_prep_coherent\(', tag, '--', 'arch/'],
                             capture_output=True, text=True).stdout.replace(f'{tag}:', '').split())
    for p in patches:
        f = None
        with open(p, errors='surrogateescape') as fh:
            for line in fh:
                if line.startswith('+++ b/'):
                    f = line[6:].strip()
                elif f and f.startswith('arch/') and re.match(r'\+void\s+arch_dma_prep_coherent\(',
                                                              line):
                    out.add(f)
    return out


def tests(t, normalize, found, rows):
    """KTAP tests (ok, name, message) over T, archtable.trees()'s {file:
    (base, after)}, FOUND, the files definers() found, and archtable's
    ROWS, where the cells go."""
    def has(text, ev):
        return normalize(ev) in normalize(text.replace('\\\n', ' '))

    mine = {f for f, _, _ in FILES.values()}
    bad = [f'{f} defines arch_dma_prep_coherent(): no row in FILES' for f in sorted(found - mine)]
    bad += [f'{f}: no arch_dma_prep_coherent() found by git grep' for f in sorted(mine - found)]
    bad += [f'{a}: no row of the table' for a in FILES if a not in {r[0].split()[0] for r in rows}]
    bad += [f'{r}: no row of the table' for r in ROW_CELLS if r not in {r[0] for r in rows}]
    out = [(not bad, 'prep_coherent_rows_are_every_definition', '; '.join(bad) or
            f'{len(found)} architectures define arch_dma_prep_coherent(), each has a row')]
    only_inv = {'before': [], 'after': []}
    for arch, (f, before, after) in FILES.items():
        bad = []
        for which, i, declared in (('before', 0, before), ('after', 1, after)):
            w = what(arch, t[f][i], normalize)
            if w is None:
                bad.append(f'{which}: no arch_dma_prep_coherent() in {f}')
                continue
            ops, helpers, unknown = w
            bad += [f'{which}: it calls {u}(), which HELPERS does not know' for u in unknown]
            if unknown:
                only_inv[which].append(f'{arch} (cannot tell: {", ".join(unknown)}())')
            elif cell(ops) != declared:
                bad.append(f'{which}: it does "{cell(ops)}" ({", ".join(map(shown, helpers))}), '
                           f'the table says "{declared}"')
            for k in helpers:
                bad += [f'{which}: {shown(k)}: "{ev}" not in {ef}'
                        for ef, ev in HELPERS[arch, k][1] if not has(t[ef][i], ev)]
            if INV in ops and WB not in ops:
                only_inv[which].append(f'{arch} ({", ".join(map(shown, helpers))})')
        for row, (_, ev) in ROW_CELLS.items():
            if row.split()[0] == arch:
                bad += [f'{row}: "{e}" not in {ef} ({w})' for ef, e in ev
                        for i, w in ((0, 'base'), (1, 'after')) if not has(t[ef][i], e)]
        msg = f'{arch}: {before}' + (f' -> {after}' if after != before else '')
        out.append((not bad, f'prep_coherent_{arch}', '; '.join(bad) or f'{msg}: evidence found'))
    base = '; at the base: ' + (', '.join(only_inv['before']) or 'none')
    out.append((not only_inv['after'], 'prep_coherent_never_only_invalidates',
                'after both series, arch_dma_prep_coherent() only invalidates, or does '
                'what this check cannot tell, on ' +
                ', '.join(only_inv['after']) + ': an invalidate alone discards the zeroes '
                'dma_direct_alloc() has just written' + base if only_inv['after'] else
                'after both series, every arch_dma_prep_coherent() writes back' + base))
    return out


def cells(t, rows, normalize):
    """{row name of ROWS: its prep_coherent cell, after both series}."""
    out = {}
    for r in rows:
        arch = r[0].split()[0]
        if r[0] in ROW_CELLS:
            out[r[0]] = ROW_CELLS[r[0]][0]
        elif arch not in FILES:
            out[r[0]] = 'not defined'
        else:
            f = FILES[arch][0]
            w = [what(arch, t[f][i], normalize) for i in (0, 1)]
            c = [cell(x[0]) if x else 'not defined' for x in w]
            out[r[0]] = c[1] + (f' (was {c[0]})' if c[0] != c[1] else '')
    return out
