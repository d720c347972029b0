#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Make Documentation/results/summary.md from the other generated results.

Also 6.12/model-summary.txt and 6.12/other-arches-summary.txt, the cover
letters' sentences of numbers (@wrap).

README.md's "Results so far" is a copy of that file (tools/includes.py),
so every number there comes from a table a tool wrote, by the command
named in the same row. Run after the tools (85-generated does, after
every other check):

    python3 tools/summary.py            write the file
    python3 tools/summary.py --stdout   print it instead

A result file that is missing, or a table that lacks a column this reads,
is an error naming the file: the summary never shows a number it did not
read.
"""

import glob
import os
import re
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RES = os.path.join(TOP, 'Documentation', 'results')
OUT = os.path.join(RES, 'summary.md')


class SummaryError(Exception):
    pass


def read(rel):
    path = os.path.join(RES, rel)
    try:
        with open(path) as f:
            return f.read()
    except OSError as e:
        raise SummaryError(f'{path}: {e.strerror}') from None


def tables(rel):
    """Every Markdown table of a result file: lists of {header: cell}."""
    found, rows, head = [], None, None
    for line in read(rel).splitlines() + ['']:
        if not line.startswith('|'):
            if rows is not None:
                found.append(rows)
            rows, head = None, None
            continue
        cells = [c.strip() for c in line.strip().strip('|').split('|')]
        if head is None:
            head, rows = cells, []
        elif not all(re.fullmatch(r':?-+:?', c) for c in cells):
            rows.append(dict(zip(head, cells)))
    return found


def table(rel, column):
    """The first table of a result file that has COLUMN."""
    for t in tables(rel):
        if t and column in t[0]:
            return t
    raise SummaryError(f'{rel}: no table with a column "{column}"')


def num(cell, rel):
    """The integers of a cell such as "3392 / 3392"."""
    try:
        return [int(x) for x in cell.split('/')]
    except ValueError:
        raise SummaryError(f'{rel}: "{cell}" is not a number') from None


def n(x):
    return f'{x:,}'


def span(values):
    lo, hi = min(values), max(values)
    return n(lo) if lo == hi else f'{n(lo)} to {n(hi)}'


def model_facts(base):
    """What the model's main and outer-cache tables say, in numbers."""
    rel = f'{base}/model.md'
    rows = table(rel, 'base: map-only lost')
    wb = [r for r in rows if r['cache'] == 'wb']
    other = [r for r in rows if r['cache'] != 'wb']
    if not wb:
        raise SummaryError(f'{rel}: no write-back row')
    lost = [num(r['base: map-only lost'], rel)[0] for r in wb]
    f = {
        'rel': rel, 'wb': len(wb), 'other': len(other),
        'losers': [x for x in lost if x],
        'keep': sorted({r['backend'] for r, x in zip(wb, lost) if not x}),
        'exposed': [x for x in (num(r['base: short lost / exposed'],
                                    rel)[1] for r in wb) if x],
        'after': sum(num(r['patched: map-only lost'], rel)[0] +
                     sum(num(r['patched: short lost / exposed'], rel))
                     for r in rows),
        'wrong': sum(sum(num(r['device bytes wrong (base / patched)'], rel))
                     for r in rows),
        'still': sum(num(r['base: map-only lost'], rel)[0] for r in other),
    }
    if not f['losers'] or not f['exposed']:
        raise SummaryError(f'{rel}: no write-back row loses on the base')
    outer = {r['tree']: r for r in table(rel, 'L2 dirty lines discarded')
             if r['scenario'] == 'maponly'}
    if set(outer) != {'base', 'patched'}:
        raise SummaryError(f'{rel}: outer cache table lacks a map-only row')
    for t, r in outer.items():
        f[f'l2_{t}'] = (r['map (dma-mapping.c)'], num(r['lost'], rel)[0],
                        num(r['L2 dirty lines discarded'], rel)[0])
    return f


def model_sentence(base):
    """The cover letter's model numbers (@wrap of model-summary.txt)."""
    f = model_facts(base)
    keep = ''
    if f['keep']:
        keep = f' ({", ".join(f["keep"])} already flushed at map)'
    b, p = f['l2_base'], f['l2_patched']
    return (f'In the model (BASE={base} tools/model): before the series, '
            f'{len(f["losers"])} of {f["wb"]} write-back backend runs lost '
            f'{span(f["losers"])} of the 409,600 CPU-written bytes of the '
            f'mapping-only test{keep}, and {len(f["exposed"])} left '
            f'{span(f["exposed"])} stale bytes in the gaps of a short '
            f'transfer; after, {n(f["after"])} in every run. Behind a '
            f'Cortex-A9 with an L2C-310: {n(b[1])} lost before ({n(b[2])} '
            f'dirty L2 lines discarded), {n(p[1])} after. '
            f'{boards_sentence(f["rel"])}\n')


def boards_sentence(rel):
    """The boards' test on the two boards that lost data, in the model."""
    rows = table(rel, 'model, base, cold')
    cpus, cold, warm, after = [], set(), set(), 0
    for r in rows:
        if not r['reported, base'].startswith(('lost', 'eleven')):
            continue
        cpus.append(r['CPU'].split(' (')[0])
        cold.add(num(r['model, base, cold'].split(' (')[0].replace(',', ''),
                     rel)[0])
        warm.add(num(r['model, base, warm'].split(' (')[0].replace(',', ''),
                     rel)[0])
        after += sum(num(r['model, patched (cold / warm)'], rel))
    if len(cpus) < 2 or len(cold) != 1 or len(warm) != 1:
        raise SummaryError(f'{rel}: the boards\' table does not bracket')
    return (f'With the boards\' test (100 buffers of 4,096 bytes) on the '
            f'{" and the ".join(cpus)} the model loses {n(cold.pop())} '
            f'for buffers not cached when written and {n(warm.pop())} for '
            f'buffers read before, bracketing the reported losses; '
            f'{n(after)} after.')


def model_rows(base):
    f = model_facts(base)
    rel = f['rel']
    losers, keep, exposed = f['losers'], f['keep'], f['exposed']
    cmd = f'`BASE={base} tools/model`'
    res = (f'base: {len(losers)} lose {span(losers)} bytes (what is still '
           'dirty at map)')
    if keep:
        none = f['wb'] - len(losers)
        res += (f', {none} lose{"s" if none == 1 else ""} none '
                f'({", ".join(keep)})')
    out = [
        (f'cache model, {base}: mapping-only, 409,600 CPU-written bytes, '
         f'{f["wb"]} write-back backend runs on their cores\' finite L1',
         cmd,
         f'{res}; patched: {n(f["after"])} lost or exposed in any run; '
         f'{f["other"]} write-through or cacheless runs: {n(f["still"])} '
         'lost before', rel),
        (f'cache model, {base}: short transfer (the device writes 600 of '
         'every 1,024 bytes)', cmd,
         f'base: {len(exposed)} runs expose {span(exposed)} stale gap '
         f'bytes; patched: 0; device bytes wrong, base and patched: '
         f'{n(f["wrong"])}', rel),
    ]
    b, p = f['l2_base'], f['l2_patched']
    out.append((f'cache model, {base}: Cortex-A9 L1 + L2C-310, compiled '
                'l2c210 range operations, mapping-only', cmd,
                f'base ({b[0]}): {n(b[1])} bytes lost, {n(b[2])} dirty L2 '
                f'lines discarded; patched ({p[0]}): {n(p[1])}', rel))
    m = re.search(r'`BASE=\S+ tools/model`: (\d+ passed, \d+ failed, '
                  r'\d+ skipped);\n(\d+ of \d+) mutation tests pass',
                  read(rel))
    if not m:
        raise SummaryError(f'{rel}: no Totals paragraph')
    out.append((f'cache model, {base}: every test, with the mutations of '
                'the arch code and of the model\'s decoder', cmd,
                f'{m.group(1)}; {m.group(2)} mutation tests pass', rel))
    return out


def cost_row(base):
    rel = f'{base}/cost-summary.txt'
    for line in read(rel).splitlines():
        f = line.split(None, 1)
        if f and f[0] == 'v7':
            return (f'cost in the model, {base}: 1 MiB dirty round trip, v7 '
                    'on a Cortex-A15', f'`BASE={base} tools/model`',
                    f'{f[1]}: maintenance operations, then lines written '
                    'back, before -> after', rel)
    raise SummaryError(f'{rel}: no v7 line')


def kunit_ran(rel):
    """(row, "passed: N, skipped: N" or None) for each KUnit row."""
    out = []
    for r in table(rel, 'kunit.py result'):
        m = re.search(r'Ran \d+ tests: (.*)', r['kunit.py result'])
        out.append((r, m.group(1) if m else None))
    return out


def kunit_rows(rel, what, cmd):
    rows = kunit_ran(rel)
    # a skip's reason is in the file; its first words say which
    ran = [f'{r["configuration"]}: '
           f'{res or ":".join(r["verdict"].split(":")[:2])}'
           for r, res in rows]
    kernels = {r['kernel (build directory)'] for r, _ in rows} - {'-'}
    verdicts = [r['verdict'].split(':')[0] for r, _ in rows]
    head = (f'{verdicts.count("pass")} of {len(rows)} configurations pass '
            f'({len(kernels)} kernel{"s" if len(kernels) > 1 else ""})')
    if verdicts.count('skipped'):
        head += f', {verdicts.count("skipped")} skipped (reason in the file)'
    return (what, cmd, head + '; ' + '; '.join(ran), rel)


def mutation_row(rel, what, cmd):
    rows = table(rel, 'failed cases')
    caught = sum(r['verdict'] == 'caught' for r in rows)
    names = ', '.join(f'`{r["mutation"]}`' for r in rows)
    return (what, cmd, f'{caught} of {len(rows)} caught: {names}', rel)


def text_row(rel, what, cmd):
    return (what, cmd, ' '.join(read(rel).split()), rel)


ARCHES_MODEL = '6.12/other-arches-model.md'


def arches_facts():
    """Per configuration of the other architectures' model: base bytes
    lost map-only and in the boards' test; and every patched cell summed."""
    rel = ARCHES_MODEL
    rows = table(rel, 'base: map-only lost')
    maponly = {r['config']: num(r['base: map-only lost'], rel)[0]
               for r in rows}
    boards = {r['config']: num(r['base: boards100 lost'], rel)[0]
              for r in rows}
    after = sum(x for r in rows for k, c in r.items()
                if k.startswith('patched') for x in num(c, rel))
    return maponly, boards, after


def arches_row():
    maponly, boards, after = arches_facts()
    lost = [c for c in maponly if maponly[c] or boards[c]]
    return ('cache model of MIPS r4k, PowerPC 8xx, m68k 040/060, 6.12',
            '`tools/check other-arches-model`',
            f'base: {len(lost)} of {len(maponly)} configurations lose '
            f'CPU-written bytes; patched: {n(after)} bytes lost or exposed '
            'in any scenario', ARCHES_MODEL)


def arches_sentence():
    """The other-arches cover letter's numbers (@wrap of
    other-arches-summary.txt): the model, then KUnit under QEMU."""
    maponly, boards, after = arches_facts()
    lose = [c for c, x in maponly.items() if x]
    keep = [c for c, x in maponly.items() if not x]
    if not lose or not all(boards.values()):
        raise SummaryError(f'{ARCHES_MODEL}: not every configuration loses')
    text = (f'In the model (tools/check other-arches-model, 6.12.117): '
            f'before, {", ".join(lose)} lost {span([maponly[c] for c in lose])} '
            'of the 409,600 bytes of a map-only buffer')
    if keep:
        text += (f'; {", ".join(keep)} lost none there (the buffer is larger '
                 'than the cache, which r4k then writes back by index) but '
                 f'{span([boards[c] for c in keep])} in the boards\' test of '
                 '100 buffers of 4,096 bytes')
    text += f'; after, {n(after)} bytes lost or exposed in any scenario.'
    krel = '6.12/kunit-config-matrix-other-arches-results.md'
    ran = [f'{r["configuration"]} {res}' for r, res in kunit_ran(krel)
           if res and r['verdict'] == 'pass']
    if not ran:
        raise SummaryError(f'{krel}: no configuration passed')
    return text + f' KUnit under QEMU on 6.12.117: {"; ".join(ran)}.\n'


def patch_counts():
    out = []
    for d in sorted(glob.glob(os.path.join(TOP, 'patches', '**', ''),
                              recursive=True)):
        p = [x for x in glob.glob(os.path.join(d, '*.patch'))
             if not x.endswith('0000-cover-letter.patch')]
        if p:
            out.append(f'`{os.path.relpath(d, TOP).rstrip("/")}/` {len(p)}')
    return ('patches per directory', '`ls patches/*/`', ', '.join(out),
            '`patches/`')


# The KUnit tables: (config or mutation, the matrix part of the file
# name, what, the command that makes it).
KUNIT_ROWS = (
    ('config', '', 'KUnit suite in QEMU, 6.12 (no data cache: the DMA API '
     'paths, not the bug)', 'tools/kunit'),
    ('mutation', '', 'breakages the KUnit suite must catch, 6.12',
     'tools/kunit --mutations'),
    ('config', 'matrix-full-', 'KUnit with the PL330 as the device '
     '(Zynq-7000)', 'tools/check kunit-full'),
    ('mutation', 'matrix-full-', 'a DMA engine path broken on purpose',
     'tools/check kunit-full'),
    ('config', 'matrix-other-arches-', 'KUnit on the other architectures, '
     '6.12 + other-arches series', 'tools/check --full kunit-arches'),
    ('config', 'matrix-dma-kasan-', 'CONFIG_DMA_KASAN: both suites with '
     'the option on', 'tools/check dma-kasan'),
    ('mutation', 'matrix-dma-kasan-', 'CONFIG_DMA_KASAN broken on purpose',
     'tools/check dma-kasan'),
)


def summary():
    rows = []
    for base in ('6.12', '6.1'):
        rows += model_rows(base)
    rows.append(cost_row('6.12'))
    for kind, rel, what, cmd in KUNIT_ROWS:
        rows.append((kunit_rows if kind == 'config' else mutation_row)(
            f'6.12/kunit-{kind}-{rel}results.md', what, f'`{cmd}`'))
    for base in ('6.12', '6.1'):
        rows.append(text_row(f'{base}/coverage-summary.txt',
                             f'build coverage, {base}',
                             f'`BASE={base} tools/coverage`'))
    rows.append(arches_row())
    rows.append(patch_counts())
    lines = ['<!-- generated by tools/summary.py from the other files in '
             'Documentation/results/; do not edit -->',
             '| what | command | result | file |',
             '| --- | --- | --- | --- |']
    for what, cmd, res, rel in rows:
        if not rel.startswith('`'):
            rel = f'`Documentation/results/{rel}`'
        lines.append(f'| {what} | {cmd} | {res} | {rel} |')
    return '\n'.join(lines) + '\n'


def write(path, text):
    with open(path + '.tmp', 'w') as f:
        f.write(text)
    os.replace(path + '.tmp', path)


def main(argv):
    if argv not in ([], ['--stdout']):
        sys.stderr.write('usage: tools/summary.py [--stdout]\n')
        return 2
    try:
        text = summary()
        model_sentence('6.12')
        arches_sentence()
    except SummaryError as e:
        sys.stderr.write(f'summary.py: error: {e}\n')
        return 1
    if argv:
        sys.stdout.write(text)
        return 0
    write(OUT, text)
    write(os.path.join(RES, '6.12', 'model-summary.txt'),
          model_sentence('6.12'))
    write(os.path.join(RES, '6.12', 'other-arches-summary.txt'),
          arches_sentence())
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
