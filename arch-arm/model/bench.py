# SPDX-License-Identifier: GPL-2.0
"""dma_map_benchmark's fill in the model: the series' patch 6 (mainline
only) fills the buffer of -D and -C with map_benchmark_dirty(), which
loads each 256-byte piece before its memset(); before, the fill was one
memset() of the buffer. Does the buffer then sit in dirty lines at the
map, and does -C see the base lose it?

bench-harness.c runs the benchmark's loop as a KUnit suite; the
benchmark's helpers are taken from the patch's added lines when this
runs (the patch is this repository's code; the tree it applies to is
not built), compiled twice (new fill, old fill) with each
configuration's recorded kbuild command and linked as suite.py links the
KUnit suite, on every core of its table, base and patched tree. Checks:
the patched tree loses nothing; the base loses with the new fill where
the model's base loses; on the ARM926EJ-S, the ARM11 MPCore as a UP
kernel maps memory and the Cortex-A7, the new fill leaves the page
dirty at the map and the base loses it, and the old fill does neither
(mutation_bench_old_fill_caught: the first check goes red with it).
"""

import glob
import os
import re
from concurrent.futures import ThreadPoolExecutor

import suite
from common import die, num
from suite_results import parse, state

PATCH = 'patches/0*-dma-mapping-benchmark-add-options-to-dirty-and-check.patch'
SOURCE = 'kernel/dma/map_benchmark.c'
HARNESS = 'arch-arm/model/bench-harness.c'
MARK = '@MAP_BENCHMARK_FUNCTIONS@'
# what the harness takes from the added lines; the old fill leaves the
# second pair out
TAKEN = ('map_benchmark_next_pattern', 'map_benchmark_bytes_changed',
         'MAP_BENCHMARK_DIRTY_PIECE', 'map_benchmark_dirty')
NEW_ONLY = TAKEN[2:]
# the patch's lines whose fill the harness repeats: the new fill of
# initialize_data(), and the benchmark's memset() of a TO_DEVICE buffer,
# the old fill's form
USES = ('+\t\tparams->pattern = map_benchmark_next_pattern(params->pattern);',
        '+\t\tmap_benchmark_dirty(params->xbuf, params->pattern,',
        ' \t\tmemset(params->xbuf, 0x66, params->npages * PAGE_SIZE);')
SYMBOL = 'map_benchmark_model_suite'
D, C1, C4 = (f'map_benchmark_single[{c}]' for c in ('D_g1_4loops', 'C_g1_1loop', 'C_g1_4loops'))
LOOPS, LEN = 4, 4096
# the cores of the check: read-allocate (ARM926EJ-S, ARM11 UP) and
# write streaming (Cortex-A7)
NAMED = ('arm926ejs', 'arm11mpcore_up', 'cortex-a7')
FILLS = ('old', 'new')


def added(patch, path):
    """The added lines of PATCH's diff of PATH, without their '+'."""
    out, inside = [], False
    with open(patch, encoding='utf-8') as f:
        for line in f.read().split('\n'):
            if line.startswith('diff --git '):
                inside = line.endswith(f' b/{path}')
            elif inside and line.startswith('+') and not line.startswith('+++'):
                out.append(line[1:])
    return out


def take(lines, name):
    """NAME's #define, or the function NAME to its closing brace."""
    for i, line in enumerate(lines):
        if re.match(rf'#define {name}\b', line):
            return [line]
        if re.match(rf'static .*\b{name}\(', line) and '}' in lines[i:]:
            return lines[i:lines.index('}', i) + 1]
    die(f'{name} is not among the added lines of {SOURCE} in {PATCH}: update bench.TAKEN')
    return []


def source(m, fill, lines, patch):
    """The harness with the patch's helpers, for FILL."""
    env = m.env
    with open(f'{env.top}/{HARNESS}', encoding='utf-8') as f:
        text = f.read()
    if text.split('\n').count(MARK) != 1:
        die(f'{HARNESS}: not one line {MARK}')
    fns = '\n\n'.join('\n'.join(take(lines, n)) for n in TAKEN
                      if fill == 'new' or n not in NEW_ONLY)
    head = (f'/* made by arch-arm/model/bench.py from {HARNESS} and the added lines of '
            f'{os.path.relpath(patch, env.top)} */\n')
    if fill == 'old':
        head += '#define MODEL_OLD_FILL 1\n'
    path = f'{env.obj}/suite/map_benchmark_{fill}.c'
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'w', encoding='utf-8') as f:
        f.write(head + text.replace(f'\n{MARK}\n', f'\n{fns}\n'))
    return path


def bench_runs(m, rs):
    """Every core of the suite's table (without an outer cache), base
    and patched, old and new fill; the checks; m.bench_doc."""
    env, log = m.env, m.log
    m.bench_doc = []
    if not rs:
        # suite_in_model says why (a SKIP): the harness needs its link and stubs
        log.comment('dma_map_benchmark\'s fill: not run, as the KUnit suite is not')
        return
    found = glob.glob(f'{env.top}/{PATCH}')
    if len(found) != 1:
        die(f'{PATCH}: {len(found)} files, not one')
    with open(found[0], encoding='utf-8') as f:
        text = f.read().split('\n')
    for u in USES:
        if not any(l.startswith(u) for l in text):
            die(f'{found[0]}: no line "{u.strip()}": the fill changed, update bench.py')
    lines = added(found[0], SOURCE)
    src = {f'bench-{f}': source(m, f, lines, found[0]) for f in FILLS}
    rows = [r for r in rs if not r.l2]
    jobs = [(row, tree, f'bench-{f}') for row in rows for tree in suite.TREES for f in FILLS]
    elfs = {j: suite.link(m, *j, src) for j in jobs}
    with ThreadPoolExecutor(max_workers=env.jobs) as ex:
        outs = list(ex.map(lambda j: suite.cachemodel(m, j[0], elfs[j], j[1], skip=[],
                                                       extra=['--suite-symbol', SYMBOL]), jobs))
    res = {(j[0].name, j[1], j[2][6:]): parse(o) for j, o in zip(jobs, outs)}
    checks(m, rows, res)
    m.bench_doc = section(m, rows, res)


def value(res, row, tree, fill, case, key):
    return num(key, res[(row.name, tree, fill)].get(case, ''))


def page_lines(m, row):
    line = m.line_of(m.args(row.r.b, row.r.cfg))
    return LEN // int(line) if line.isdigit() else 0


def dirty_and_lost(m, res, row, fill):
    """(-D's dirty lines at map and their whole, -C's first loop's lost
    bytes) on the base."""
    return (value(res, row, 'base', fill, D, 'dirtymap') or 0, LOOPS * page_lines(m, row),
            value(res, row, 'base', fill, C1, 'wrong') or 0)


def dirty_lost_ok(d, whole, lost):
    return whole > 0 and d >= whole * 9 // 10 and lost >= LEN * 9 // 10


def checks(m, rows, res):
    log = m.log
    for row in rows:
        bad = [f'{fill} {k}: {l}' for fill in FILLS
               for k, l in res[(row.name, 'patched', fill)].items()
               if state(l) != 'ok' or (num('wrong', l) or 0)]
        bad += [f'{fill}: {c} missing' for fill in FILLS for c in (D, C1, C4)
                if c not in res[(row.name, 'patched', fill)]]
        for b in bad:
            log.comment(f'bench {row.name} patched: {b}')
        log.result(not bad, f'bench_patched_{row.name}_loses_nothing')
        if suite.base_loses(m, row):
            lost = value(res, row, 'base', 'new', C1, 'wrong')
            log.comment(f'bench {row.name} base, new fill, -C one loop: lost {lost} of {LEN}')
            log.result((lost or 0) > 0 and not res[(row.name, 'base', 'new')].get('error'),
                       f'bench_base_{row.name}_loses_with_the_new_fill')
    red = []
    for name in NAMED:
        row = next((r for r in rows if r.name == name), None)
        if row is None:
            die(f'no {name} row for the benchmark checks')
        new, old = (dirty_and_lost(m, res, row, f) for f in ('new', 'old'))
        log.comment(f'bench {name} base: -D dirty at map {new[0]} of {new[1]} lines with the '
                    f'new fill, {old[0]} with the old; -C one loop lost {new[2]} of {LEN} bytes '
                    f'with the new fill, {old[2]} with the old')
        log.result(dirty_lost_ok(*new), f'bench_{name}_new_fill_dirty_at_map_and_lost_on_base')
        log.result(old[0] <= old[1] // 10 and old[2] <= LEN // 10,
                   f'bench_{name}_old_fill_not_dirty_at_map')
        if not dirty_lost_ok(*old):
            red.append(name)
    log.comment('mutation: the old fill (one memset()): bench_*_new_fill_dirty_at_map_and_lost'
                f'_on_base goes red on {", ".join(red) or "no core"}')
    log.result(red == list(NAMED), 'mutation_bench_old_fill_caught')


INTRO = """\
## dma_map_benchmark's fill (patch 6, mainline)

`dma_map_benchmark -D` writes the buffer before every map so that its
lines are dirty at the map (the cost the series adds is writing them
back); `-C` also counts the bytes that did not read back as written.
Patch 6 fills with `map_benchmark_dirty()`, which loads each 256-byte
piece before its `memset()` ("new"); before, the fill was one
`memset()` of the buffer ("old", as the benchmark fills a TO_DEVICE
buffer). `{harness}` runs the benchmark's single-mode loop
(`-g 1`: a 4 KiB page, DMA_FROM_DEVICE) with `map_benchmark_dirty()`,
`map_benchmark_next_pattern()` and `map_benchmark_bytes_changed()`
taken from the added lines of `{patch}` when the model runs, compiled
with each configuration's recorded kbuild command and linked as the
KUnit suite is (`suite-model.md`: the kernel's DMA mapping code, the
configuration's `dma-mapping.o` and cache backend of the base or the
patched tree). Made by `BASE={base} arch-arm/model/run`
(`arch-arm/model/bench.py`).

"-D dirty at map": the page's dirty L1 lines at each map, summed over
{loops} loops, of {loops} times the page's lines. "-C lost": the bytes
the count finds changed after one loop and after {loops}. With the old
fill a read-allocate L1 sends the stores to memory, and a streaming
core (Cortex-A7, Cortex-M7) all but a few lines, so nothing is dirty at
the map and one `-C` loop finds nothing lost. From the second loop on,
the count's own loads of the loop before have put the page in the
cache, the `memset()` hits it and the base loses it: nothing is lost
"until a later loop", as the patch says, and `-D` alone never dirties
the page. The checks below ask, on the ARM926EJ-S, the ARM11 MPCore as a
UP kernel maps memory and the Cortex-A7: new fill, at least nine tenths
of the lines dirty at the map and of the bytes lost by one base loop;
old fill, at most a tenth of each.

| core | fill | -D dirty at map, base / patched (of) | -C, 1 loop: lost, base / patched | -C, {loops} loops: lost, base / patched |
| --- | --- | ---: | ---: | ---: |
"""


def section(m, rows, res):
    """model.md's section: the table and the checks."""
    patch = os.path.relpath(glob.glob(f'{m.env.top}/{PATCH}')[0], m.env.top)
    doc = INTRO.format(harness=HARNESS, patch=patch, base=m.env.base, loops=LOOPS).split('\n')[:-1]
    for row in rows:
        for fill in FILLS:
            def v(tree, case, key):
                x = value(res, row, tree, fill, case, key)
                return '?' if x is None else f'{x:,}'
            doc.append(f'| {row.name} | {fill} | {v("base", D, "dirtymap")} / '
                       f'{v("patched", D, "dirtymap")} ({LOOPS * page_lines(m, row):,}) | '
                       f'{v("base", C1, "wrong")} / {v("patched", C1, "wrong")} | '
                       f'{v("base", C4, "wrong")} / {v("patched", C4, "wrong")} |')
    doc += ['', 'Checks:', '']
    doc += [f'- {t}' for t in m.log.tests() if 'bench_' in t]
    return doc
