# SPDX-License-Identifier: GPL-2.0
"""nios2's DMA map, counted: there is no nios2 compiler here and Unicorn
has no Nios II, so dmamodel cannot run it. Instead the functions of
arch/nios2/mm/cacheflush.c and dma-mapping.c that a map runs are taken
from the base tree and from the tree with the series, each cache
instruction's asm statement (flushd, initda, flushi, flushp) replaced by
a call that counts it, and compiled for the host with the geometry of
3c120_defconfig's device tree (3c120_devboard.dts: 32 KiB data and
instruction caches of 32-byte lines). What is counted is what the
kernel's own C issues, line by line; no cache is modelled.

counts(tree, patches, size, mutate) -> {'base': {...}, 'patched': {...}}
for one arch_sync_dma_for_device(DMA_FROM_DEVICE) of SIZE bytes."""

import os
import re
import subprocess
import tempfile

from fixes import patched_text, sh

FILES = {
    'arch/nios2/mm/cacheflush.c': ('__flush_dcache', '__invalidate_dcache', '__flush_icache',
                                   'flush_dcache_range', 'flush_dcache_only_range',
                                   'invalidate_dcache_range'),
    'arch/nios2/mm/dma-mapping.c': ('arch_sync_dma_for_device',),
}
OPS = ('flushd', 'initda', 'flushi', 'flushp')
CACHE = {'dcache_size': 32768, 'dcache_line_size': 32, 'icache_size': 32768,
         'icache_line_size': 32}

HARNESS = """#include <stdio.h>
#include <stdlib.h>
enum dma_data_direction { DMA_BIDIRECTIONAL, DMA_TO_DEVICE, DMA_FROM_DEVICE };
typedef unsigned long phys_addr_t;
static struct { unsigned long %s; } cpuinfo = { %s };
static unsigned long n[%d];
#define phys_to_virt(p) ((void *)(p))
#define BUG() abort()
static void nios2_op(int op, unsigned long addr)
{
	(void)addr;
	n[op]++;
}
""" % (', '.join(CACHE), ', '.join(str(v) for v in CACHE.values()), len(OPS))


def functions(text, names):
    """The definitions of NAMES in TEXT (those it has), their asm
    statements made calls of nios2_op(), and their prototypes."""
    defs, protos = [], []
    for name in names:
        m = re.search(r'^(?:static )?void ' + re.escape(name) + r'\((.*?)\)\n\{.*?\n\}\n',
                      text, re.S | re.M)
        if not m:
            continue
        body = m.group(0)
        for op in OPS:
            body = re.sub(r'__asm__ __volatile(?:__)?\s*\(\s*"\s*' + op + r'\b[^"]*"'
                          r'(?:[^;]*?"r"\s*\((\w+)\))?[^;]*\);',
                          lambda x, op=op: f'nios2_op({OPS.index(op)}, '
                          f'{x.group(1) or 0});', body)
        if re.search(r'__asm__', body):
            raise SystemExit(f'nios2.py: an asm statement of {name} not counted')
        defs.append(body.replace('static void', 'void', 1))
        protos.append(f'void {name}({m.group(1)});')
    return protos, defs


def program(texts):
    protos, defs = [], []
    for f, names in FILES.items():
        p, d = functions(texts[f], names)
        protos += p
        defs += d
    main = ('int main(int argc, char **argv)\n{\n'
            '\tarch_sync_dma_for_device(0x100000, strtoul(argv[1], NULL, 0), '
            'DMA_FROM_DEVICE);\n\tprintf("' + ' '.join(f'{o}=%lu' for o in OPS) + '\\n", ' +
            ', '.join(f'n[{i}]' for i in range(len(OPS))) + ');\n\treturn 0;\n}\n')
    return HARNESS + '\n'.join(protos) + '\n' + '\n'.join(defs) + main


def texts_of(tree, patches, mutate=None):
    """{'base': {file: text}, 'patched': ...}; MUTATE (old, new) changes
    the patched texts."""
    base = {f: sh(['git', '-C', tree, 'show', f'{os.environ["BASE_TAG"]}:{f}']) for f in FILES}
    patched = {f: patched_text(base[f], f, patches, some=False) for f in FILES}
    out = {'base': base, 'patched': patched}
    if mutate:
        where = [f for f in FILES if patched[f].count(mutate[0]) == 1]
        if len(where) == 1:     # else no 'mutated': tests() fails it
            out['mutated'] = dict(patched, **{where[0]: patched[where[0]].replace(*mutate)})
    return out


def counts(tree, patches, sizes, mutate=None):
    """{tree name: {size: {op: count}}} for a DMA_FROM_DEVICE map of each
    of SIZES bytes."""
    out = {}
    with tempfile.TemporaryDirectory() as d:
        for name, texts in texts_of(tree, patches, mutate).items():
            src, exe = os.path.join(d, name + '.c'), os.path.join(d, name)
            with open(src, 'w') as fh:
                fh.write(program(texts))
            r = subprocess.run(['cc', '-O1', '-Wall', '-Werror', '-o', exe, src],
                               capture_output=True, text=True, check=False)
            if r.returncode:
                raise SystemExit(f'nios2.py: {name}: {r.stderr[:400]}')
            out[name] = {}
            for size in sizes:
                line = sh([exe, str(size)])
                out[name][size] = {k: int(v) for k, v in re.findall(r'(\w+)=(\d+)', line)}
    return out


# The first version of patch 12: DMA_FROM_DEVICE through
# flush_dcache_range(), which walks the instruction cache too
MUTATION = ('flush_dcache_only_range((unsigned long)vaddr,',
            'flush_dcache_range((unsigned long)vaddr,')
SIZES = (('rt256', 256), ('rt4k', 4096), ('rt64k', 65536), ('rt1m', 1 << 20))


def judge(c, size):
    """What is wrong with a patched map's counts C of SIZE bytes: an
    instruction cache walk, an invalidate, or not every line of the
    buffer (at most one cache's worth: flushd is by index) flushed."""
    lines = min(-(-size // CACHE['dcache_line_size']),
                CACHE['dcache_size'] // CACHE['dcache_line_size'])
    bad = [f'{c[o]:,} {o}' for o in ('flushi', 'flushp', 'initda') if c[o]]
    if c['flushd'] != lines:
        bad.append(f'{c["flushd"]} flushd, not {lines}')
    return bad


def tests(tree, patches):
    """(the counts of base, patched and the mutation, KTAP tests)."""
    c = counts(tree, patches, [n for _, n in SIZES], MUTATION)
    out = []
    for s, n in SIZES:
        b, p = c['base'][n], c['patched'][n]
        bad = judge(p, n)
        out.append((not bad, f'nios2_{s}_from_device_map_flushes_the_data_cache_only',
                    f'nios2 {n:,} B: base {b["initda"]:,} initda; patched ' +
                    (', '.join(bad) if bad else f'{p["flushd"]:,} flushd, no flushi, no flushp')))
    if 'mutated' not in c:
        out.append((False, 'mutation_nios2_from_device_through_flush_dcache_range_applies',
                    f'its text, {MUTATION[0]!r}, is not once in the patched files'))
        return c, out
    caught = [n for _, n in SIZES if judge(c['mutated'][n], n)]
    out.append((bool(caught), 'mutation_nios2_from_device_through_flush_dcache_range_caught',
                f'patch 12 with flush_dcache_range(): {len(caught)} of {len(SIZES)} sizes fail' +
                (f' ({c["mutated"][caught[0]]["flushi"]:,} flushi at {caught[0]:,} B)'
                 if caught else '')))
    return c, out
