# SPDX-License-Identifier: GPL-2.0
"""What other-arches/model/run.py makes of dmamodel's lines: their
fields, the capacity and cost rules, and the generated files
other-arches-model.md, other-arches-cost.md and other-arches-cost.txt."""

import os
import re
import textwrap

from tables import (ARCHES, BIDIR, BIDIR_BASE_FAILS, CACHES, CONFIGS, COST_ALLOW, FIXES,
                    RANGE_PUSH, SCENARIOS, COST, TO, TO_PUSH)

ENV = os.environ


def field(line, key):
    m = re.search(rf' {key}=(\d+)', line)
    return int(m.group(1)) if m else None


def ops(line):
    """The cache operations of a scenario's line: hit and whole-cache
    operations by kind (a page operation is a hit operation), and index
    operations."""
    return sum(field(line, k) or 0 for k in OPS)


def capacity_fails(lines, name):
    """What the scenario LINES ({scenario: line}) of configuration NAME
    claim beyond its data cache (tables.py's CACHES), by kind: 'capacity',
    dmamodel's cache is not that size; 'lost', a map lost more bytes than
    the cache holds; 'dirty', a buffer had more dirty lines at its map, or
    'wb', a map and unmap wrote back more lines, than the cache has."""
    size, line = CACHES[name][1], CACHES[name][3]
    fails = {}
    for s, text in lines.items():
        cap, lost, dirty, wb = (field(text, k) for k in ('capacity', 'maplost', 'dirtymap',
                                                         'mapwb'))
        if cap is None:
            fails.setdefault('capacity', f'{s}: no counts ({text[:80]})')
            continue
        if cap != size:
            fails.setdefault('capacity', f'{s}: a {cap:,}-byte cache, not {size:,}')
        if lost > size:
            fails.setdefault('lost', f'{s}: {lost:,} bytes lost by one map, > {size:,}')
        if dirty > size // line:
            fails.setdefault('dirty', f'{s}: {dirty:,} dirty lines at a map, > {size // line:,}')
        if wb > size // line:
            fails.setdefault('wb', f'{s}: {wb:,} lines written back by a map, > {size // line:,}')
    return fails


def cost_fails(results, name, tree_name, s):
    """The cost rules TREE_NAME breaks in scenario S, by rule: 'walk', an
    index or whole-cache walk where the base had none; 'kept', more cache
    operations than a base that kept every CPU-written byte (but where
    COST_ALLOW says why it may); 'range', on
    a RANGE_PUSH configuration, other lines pushed by set and way than
    push_by_set() says."""
    b, p = results[name, 'base', s], results[name, tree_name, s]
    fails = {}
    if not any(field(b, k) for k in ('index', 'all')):
        more = [k for k in ('index', 'all') if (field(p, k) or 0) > 0]
        if more:
            fails['walk'] = f'{name} {s}: {tree_name} has {", ".join(more)} operations, the base none'
    if (field(b, 'lost') == 0 and field(b, 'exposed') == 0 and ops(p) > ops(b) and
            (name, s) not in COST_ALLOW):
        fails['kept'] = (f'{name} {s}: {tree_name} issues {ops(p):,} cache operations where the '
                         f'base kept the data with {ops(b):,}')
    if name in RANGE_PUSH:
        want, what = push_by_set(name, s)
        if field(p, 'index') != want:
            fails['range'] = (f'{name} {s}: {tree_name} pushes {field(p, "index") or 0:,} lines by '
                              f'set and way, not {want:,} ({what})')
    return fails


def push_by_set(name, s):
    """(the lines a map of scenario S's line-aligned buffer pushes by set
    and way on configuration NAME (RANGE_PUSH), what they are): every way
    of the sets it covers below one way of the cache, else all."""
    _, size, ways, line = CACHES[name][:4]
    n = dict(SCENARIOS)[s]
    if n < size // ways:
        return ways * -(-n // line), f"the buffer's {-(-n // line):,} sets"
    return size // line, 'the whole cache'


REPL = {'lru': 'LRU', 'random': 'pseudo-random', 'rr': 'round-robin'}


def caches_md():
    """The "Modelled caches" section: tables.py's CACHES, with sources."""
    rows = ['', '## Modelled caches', '',
            'The data cache of each configuration (tables.py\'s CACHES, dmamodel\'s',
            '`--size --ways --line --repl --alloc`): an invalid way is taken',
            'first, then the replacement named; pseudo-random is a fixed-seed',
            'LFSR and round-robin one pointer for the cache, so every run gives',
            'the same numbers. "assumed" marks what no manual at hand here states.',
            '',
            '| config | core | size | ways | line | write policy | write miss allocates '
            '| replacement | level | source |',
            '| --- | --- | ---: | ---: | ---: | --- | --- | --- | --- | --- |']
    for name, *_ in CONFIGS:
        core, size, ways, line, pol, alloc, repl, level, src = CACHES[name]
        kib = f'{size // 1024} KiB' if size >= 1024 else f'{size} bytes'
        rows.append(f'| {name} | {core} | {kib} | {ways} | {line} | '
                    f'{"write-back" if pol == "wb" else "write-through"} | '
                    f'{"yes" if alloc == "write" else "no"} | '
                    f'{REPL[repl] if ways > 1 else "none (direct-mapped)"} | '
                    f'{"secondary (inclusive)" if level == 2 else "primary"} | {src} |')
    return '\n'.join(rows) + '\n'


def bidir_md(results):
    """The DMA_BIDIRECTIONAL section: scenarios bidir and bidirstale."""
    rows = ['', '## DMA_BIDIRECTIONAL', '',
            'Mapped (and unmapped, where the architecture has an unmap)',
            'DMA_BIDIRECTIONAL, 4,096 bytes. bidir: the CPU writes the buffer, the',
            'device reads it (bytes it would read stale: memory without the CPU\'s',
            'data at map) and writes 600 of every 1,024; after unmap the CPU must',
            'read the device\'s bytes where it wrote (device bytes wrong) and its',
            'own elsewhere (lost). bidirstale: the CPU has read the buffer (clean',
            'lines), the device writes all of it; a line left valid after map is',
            'read instead of the device\'s data. "fails" marks the bases expected',
            'to (tables.py\'s BIDIR_BASE_FAILS); every other run must be all 0.', '',
            '| config | base: bidir stale read / lost / device wrong | base: bidirstale '
            'device wrong | patched: bidir stale read / lost / device wrong | patched: '
            'bidirstale device wrong |',
            '| --- | ---: | ---: | ---: | ---: |']
    for name, *_ in CONFIGS:
        cells = []
        for tr in ('base', 'patched'):
            b, st = results[name, tr, 'bidir'], results[name, tr, 'bidirstale']
            mark = lambda s: (' (fails)' if tr == 'base' and s in BIDIR_BASE_FAILS.get(name, ())
                              else '')
            cells.append(f'{field(b, "devstale")} / {field(b, "lost")} / '
                         f'{field(b, "devwrong")}{mark("bidir")}')
            cells.append(f'{field(st, "devwrong")}{mark("bidirstale")}')
        rows.append(f'| {name} | ' + ' | '.join(cells) + ' |')
    return '\n'.join(rows) + '\n'


def fixes_md(results):
    """The section of each fix on its own, for those the model runs."""
    rows = ['', '## Each fix on its own', '',
            'Patches 1-4 of the series, each run on the tree with the patches',
            'before it (1..K-1) and on the tree with it (1..K): the bytes of the',
            'counts named, summed over the scenarios named (tables.py\'s FIXES).',
            'Patches 5 and 6 (xtensa) are checked on the code as',
            '74-other-arches-doc reads it: the model runs no xtensa.', '',
            '| patch | config | scenarios | counts | 1..K-1 | 1..K |',
            '| ---: | --- | --- | --- | ---: | ---: |']
    for k, _, how in FIXES:
        if how[0] != 'model':
            continue
        _, cfgs, scens, keys = how
        for c in cfgs:
            v = [sum(field(results[c, f'fix{k}_{w}', s], x) or 0 for s in scens for x in keys)
                 for w in ('before', 'after')]
            rows.append(f'| {k} | {c} | {", ".join(scens)} | {" + ".join(keys)} | '
                        f'{v[0]:,} | {v[1]:,} |')
    return '\n'.join(rows) + '\n'


def write_md(results):
    rows = []
    for name, arch, _, what, _ in CONFIGS:
        cells = []
        for tree_name in ('base', 'patched'):
            for s in ('maponly', 'short', 'unaligned', 'boards100', 'short4k'):
                line = results[name, tree_name, s]
                lost, exp = field(line, 'lost'), field(line, 'exposed')
                cells.append(f'{lost} / {exp}' if s in ('short', 'unaligned', 'short4k') else str(lost))
        dw = [sum(field(results[name, tr, s], 'devwrong') or 0 for s, _ in SCENARIOS
                  if s not in BIDIR) for tr in ('base', 'patched')]
        nb = [sum(field(results[name, tr, s], 'neigh') or 0 for s, _ in SCENARIOS
                  if s not in BIDIR) for tr in ('base', 'patched')]
        files = ', '.join([ARCHES[arch]['file']] + ARCHES[arch].get('also', []))
        rows.append(f'| {name} | {files} | {what} | ' + ' | '.join(cells) +
                    f' | {dw[0]} / {dw[1]} | {nb[0]} / {nb[1]} |')
    base = ENV['BASE']
    first = next(l for l in ENV['PATCHES'].split('\n') if l).split('=', 1)[1]
    pdir = os.path.relpath(os.path.dirname(first), ENV['TOP'])
    text = f'''<!-- SPDX-License-Identifier: GPL-2.0 -->
<!-- Generated by BASE={base} tools/checks/72-other-arches-model (other-arches/model/run.py); do not edit. -->
# Cache model of the other architectures: DMA_FROM_DEVICE map/unmap, base vs patched

The compiled `arch_sync_dma_for_device()` (map) and, where the
architecture has one, `arch_sync_dma_for_cpu()` (unmap) of
{ENV["BASE_VERSION"]}, base and with {pdir}, with
the cache code they call (MIPS `c-r4k.o`, m68k and ColdFire
`mm/memory.o`, OpenRISC's range loops in `mm/cache.c`, base and
patched as well; PowerPC's loops are inline), run in
Unicorn 2.0.1 against a software data cache of each core's geometry
(other-arches/model/cache.c, "Modelled caches" below), write-back but
for the write-through ColdFire. Unicorn has no OpenRISC CPU: dmamodel's
or1k.c interprets that code. The cache instructions (MIPS `cache`,
PowerPC `dcbi`/`dcbf`/`dcbst`, m68k `cinv`/`cpush`, ColdFire `cpushl`
by set and way and CACR's DCINVA, OpenRISC `l.mtspr` to
DCBFR/DCBIR/DCBWR) are decoded and applied to the model. This is a
model, not hardware. The cache is finite: the CPU's writes fill it, a
dirty line that replacement evicts is written back (not lost), so a
map can lose at most what the cache holds of the buffer at that moment
(`capacity_*_within_the_cache` fails if any map loses more bytes, or
finds more dirty lines or writes back more lines, than the cache
holds). Scenarios as in the ARM model (model.md): map-only 409,600
CPU-written bytes; short: the device writes 600 of every 1,024 bytes
(409,600 bytes, and 4,096 as short4k), lost / exposed (gap bytes that
read back as stale memory); unaligned: 8,152 bytes at offset 13
(unalignedfull: the device writes all of them, checked on the patched
code only); boards100: 100 buffers of 4,096 bytes, one map each, the
losses summed. Speculating CPUs (MIPS with MAARs, PowerPC) refill clean
lines into free ways during the transfer; dirty lines left in the cache
are evicted over the device's data (worst case). r4k uses index
operations over the whole cache (no loss) for buffers of at least the
cache size, 32 KiB here (256 KiB with an inclusive secondary cache).
m68k's 68060 path runs on Unicorn's 68040 CPU (its 68060 does not
decode `cinv`/`cpush`), with `cpush` keeping lines as under Linux's
CACR.DPI; its 68030 path there too, with the 030's write-through data
cache and CACR's clear-data-cache bit decoded. ColdFire runs on Unicorn's CFV4E, `m5475evb_defconfig` with
and without `CONFIG_CACHE_COPYBACK`; OpenRISC is `defconfig`: its
`mm/cache.c` loops step by `L1_CACHE_BYTES`, 16-byte cache blocks, if
the unit present register says there is a data cache (dmamodel's or1k.c
reads it so).

| config | file | CPU class | base: map-only lost | base: short lost / exposed | base: unaligned lost / exposed | base: boards100 lost | base: short4k lost / exposed | patched: map-only lost | patched: short lost / exposed | patched: unaligned lost / exposed | patched: boards100 lost | patched: short4k lost / exposed | device bytes wrong (base / patched) | neighbour bytes changed (base / patched) |
| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |
''' + '\n'.join(rows) + '\n' + bidir_md(results) + fixes_md(results) + caches_md()
    os.makedirs(ENV['RESULTS_DIR'], exist_ok=True)
    with open(os.path.join(ENV['RESULTS_DIR'], 'other-arches-model.md'), 'w') as fh:
        fh.write(text)


OPS = ('inv', 'clean', 'flush', 'index')


def cost_cell(results, name, s):
    """'base -> patched' cache operations and write-backs of scenario S."""
    n, wb = [], []
    for tr in ('base', 'patched'):
        line = results[name, tr, s]
        n.append(ops(line))
        wb.append(field(line, 'wb') or 0)
    return f'{n[0]:,} -> {n[1]:,} ops, {wb[0]:,} -> {wb[1]:,} wb'


def write_cost(results, counted):
    """other-arches-cost.md, and other-arches-cost.txt for the cover
    letter: cache operations and write-backs of one map and unmap; the
    DMA_TO_DEVICE pushes of a ColdFire with the MMU; nios2's map as
    nios2.py counts it (COUNTED)."""
    base = ENV['BASE']
    sizes = [size for _, size in COST]
    md = [f'<!-- SPDX-License-Identifier: GPL-2.0 -->',
          f'<!-- Generated by BASE={base} tools/checks/72-other-arches-model '
          '(other-arches/model/run.py); do not edit. -->',
          '# Cost of the other architectures\' patches in the cache model', '',
          'One DMA_FROM_DEVICE map and unmap of a buffer whose every line the CPU',
          'has dirtied (scenarios rt256, rt4k, rt64k, rt1m), base -> patched: cache',
          'operations the code issues (hit, index, page and whole-cache',
          'operations, a page operation counting as one) and lines written back',
          'to memory. `cost_*_no_new_whole_cache_walk` fails if a patched run',
          'walks the cache by index or whole where the base had range operations',
          'only; `cost_*_no_cost_where_the_base_kept_the_data` if it issues more',
          'operations than a base that lost no byte (but where tables.py\'s',
          'COST_ALLOW says why: ' + '; '.join(f'{c} {s}, {why}' for (c, s), why in
                                              COST_ALLOW.items()) + ');',
          '`cost_coldfire_cb_*_by_set` if a copyback ColdFire map pushes by set',
          'and way other lines than the sets of a buffer shorter than one way of',
          'the cache, or the whole cache from one way up. After the table: the',
          'pushes of a DMA_TO_DEVICE map on a ColdFire with the MMU',
          '(`cost_coldfire_*_to_device_pushes_*_by_set` fails if a patched one pushes',
          'other lines than the buffer\'s sets below one way, the whole cache above),',
          'and nios2\'s DMA_FROM_DEVICE map as nios2.py counts it',
          '(`nios2_*_from_device_map_flushes_the_data_cache_only` fails on a flushi,',
          'flushp or initda, or on a line of the buffer not flushed).', '',
          '| config | ' + ' | '.join(sizes) + ' |',
          '| --- |' + ' --- |' * len(sizes)]
    txt = [f'  {"config":<18} {"size":<7} {"cache ops":<19} write-backs']
    for name, *_ in CONFIGS:
        md.append(f'| {name} | ' + ' | '.join(cost_cell(results, name, s)
                                              for s, _ in COST) + ' |')
        for s, size in COST:
            n, wb = zip(*((ops(results[name, tr, s]), field(results[name, tr, s], 'wb') or 0)
                          for tr in ('base', 'patched')))
            txt.append(f'  {name:<18} {size:<7} {f"{n[0]:,} -> {n[1]:,}":<19} '
                       f'{wb[0]:,} -> {wb[1]:,}')
    for name in RANGE_PUSH:
        which = []
        for s, size in COST:
            n = field(results[name, 'patched', s], 'index') or 0
            what = push_by_set(name, s)[1] if n == push_by_set(name, s)[0] else 'other lines'
            which.append(f'{size} {what} ({n:,} cpushl)')
        line = (f'{name} ({CACHES[name][0]}, with the MMU), the push a patched map uses: ' + '; '.join(which) + ' (one way of the '
                f'cache: {CACHES[name][1] // CACHES[name][2] // 1024} KiB).')
        md += ['', line]
        txt += [''] + ['  ' + x for x in textwrap.wrap(line, 70)]
    for name in TO_PUSH:
        n = [[field(results[name, tr, s], 'index') or 0 for tr in ('base', 'patched')]
             for s, _ in TO]
        line = (f'{name}, a DMA_TO_DEVICE map (scenarios to256, to4k, to64k), cpushl by set and '
                'way, base -> patched: ' + '; '.join(f'{size} {b:,} -> {p:,}' for (_, size), (b, p)
                                                      in zip(TO, n)) + '.')
        md += ['', line]
        txt += [''] + ['  ' + x for x in textwrap.wrap(line, 70)]
    sizes = dict(SCENARIOS)
    cells = []
    for s, size in COST:
        b, p, m = (counted.get(tr, {}).get(sizes[s], {'flushi': '?', 'flushp': '?'})
                   for tr in ('base', 'patched', 'mutated'))
        cells.append(f'{size} {b["initda"]:,} initda -> {p["flushd"]:,} flushd, '
                     f'{p["flushi"]:,} flushi, {p["flushp"]:,} flushp (with '
                     f'flush_dcache_range(): {m["flushi"]:{"," if m["flushi"] != "?" else ""}} '
                     f'flushi, {m["flushp"]} flushp)')
    line = ('nios2 (3c120_defconfig: 32 KiB data and instruction caches, 32-byte lines; '
            'counted, not modelled: nios2.py), a DMA_FROM_DEVICE map, base -> patched: ' +
            '; '.join(cells) + '.')
    md += ['', line]
    txt += [''] + ['  ' + x for x in textwrap.wrap(line, 70)]
    os.makedirs(ENV['RESULTS_DIR'], exist_ok=True)
    with open(os.path.join(ENV['RESULTS_DIR'], 'other-arches-cost.md'), 'w') as fh:
        fh.write('\n'.join(md) + '\n')
    with open(os.path.join(ENV['RESULTS_DIR'], 'other-arches-cost.txt'), 'w') as fh:
        fh.write('\n'.join(txt) + '\n')
