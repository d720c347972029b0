#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Make Documentation/results/summary.md from the other generated results.

Also the cover letters' sentences of numbers (@wrap), made by
tools/sentences.py: mainline/model-summary.txt (and 6.12's),
mainline/other-arches-summary.txt and mainline/kunit-summary.txt.

Documentation/results-so-far.md holds a copy of that file (tools/includes.py),
so every number there comes from a table a tool wrote, by the command
named in the same row. Run after the tools (85-generated does, after
every other check):

    python3 tools/summary.py            write the file
    python3 tools/summary.py --stdout   print it instead

The results are read by tools/results.py: a missing file or column is
an error naming the file.
"""

import glob
import os
import re
import sys

from results import (ARCHES_MODEL, RES, TOP, SummaryError, arches_facts,
                     exists, kunit_ran, model_facts, n, read, span, table)
from sentences import arches_sentence, kunit_sentence, model_sentence

OUT = os.path.join(RES, 'summary.md')


def model_rows(base):
    f = model_facts(base)
    rel = f['rel']
    losers, keep, exposed = f['losers'], f['keep'], f['exposed']
    cmd = f'`BASE={base} arch-arm/model/run`'
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
    for run, o in sorted(f['l2_others'].items()):
        out.append((f'cache model, {base}: outer cache run {run}, compiled '
                    'controller code, mapping-only', cmd,
                    f'base: {n(o["base"][0])} bytes lost, {n(o["base"][1])} '
                    f'dirty L2 lines discarded; patched: {n(o["patched"][0])}', rel))
    m = re.search(r'`BASE=\S+ arch-arm/model/run`: (\d+ passed, \d+ failed, '
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
                    'on a Cortex-A15', f'`BASE={base} arch-arm/model/run`',
                    f'{f[1]}: maintenance operations, then lines written '
                    'back, before -> after', rel)
    raise SummaryError(f'{rel}: no v7 line')


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


def if_run(row, rel, what, cmd, check):
    """ROW(REL, WHAT, CMD), or, where the check that writes REL has not
    run on mainline (a --full one), a row that says so."""
    if exists(rel):
        return row(rel, what, cmd)
    res = 'not run on mainline yet'
    if f'tools/check {check}' not in cmd:
        res += f': `tools/check {check}`'
    return (what, cmd, res, '-')


def arches_row():
    maponly, boards, after = arches_facts()
    lost = [c for c in maponly if maponly[c] or boards[c]]
    return ('cache model of MIPS r4k, PowerPC 8xx, m68k 030/040/060, ColdFire, OpenRISC, '
            'mainline',
            '`tools/check other-arches-model`',
            f'base: {len(lost)} of {len(maponly)} configurations lose '
            f'CPU-written bytes; patched: {n(after)} bytes lost or exposed '
            'in any scenario', ARCHES_MODEL)


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


# The KUnit tables of mainline: (config or mutation, the matrix part of
# the file name, what, the command that makes it, the check that runs it).
KUNIT_ROWS = (
    ('config', '', 'KUnit suite in QEMU, mainline (no data cache: the DMA API '
     'paths, not the bug)', 'kunit/run', 'kunit-mainline'),
    ('mutation', '', 'breakages the KUnit suite must catch, mainline',
     'kunit/run --mutations', 'kunit-mutations'),
    ('config', 'matrix-full-', 'KUnit on the Cortex-M7 (no MMU), ARM926 and '
     'ARM11 MPCore boards, with the PL330 as the device (Zynq-7000), and '
     'on x86_64 and arm64', 'tools/check --full kunit-full', '--full kunit-full'),
    ('mutation', 'matrix-full-', 'the no-MMU map path and a DMA engine path '
     'broken on purpose', 'tools/check --full kunit-full', '--full kunit-full'),
    ('config', 'matrix-other-arches-', 'KUnit on the other architectures, '
     'mainline + other-arches series', 'tools/check --full kunit-arches',
     '--full kunit-arches'),
    ('config', 'matrix-dma-kasan-', 'CONFIG_DMA_KASAN: the dma_mapping and '
     'kasan_dma suites with the option on', 'tools/check --full dma-kasan',
     '--full dma-kasan'),
    ('mutation', 'matrix-dma-kasan-', 'CONFIG_DMA_KASAN broken on purpose',
     'tools/check --full dma-kasan', '--full dma-kasan'),
)


def summary():
    rows = []
    for base in ('mainline', '6.12', '6.1'):
        rows += model_rows(base)
    rows.append(cost_row('mainline'))
    rows.append(text_row('mainline/suite-model-summary.txt',
                         'KUnit suite in the cache model, mainline: mapping_kunit.c compiled '
                         'and run case by case on each write-back core',
                         '`BASE=mainline arch-arm/model/run`'))
    rows.append(if_run(text_row, 'mainline/kunit-module-summary.txt',
                       'the board owner\'s path, mainline: the suite as a module',
                       '`tools/check kunit-module`', 'kunit-module'))
    for kind, rel, what, cmd, check in KUNIT_ROWS:
        rows.append(if_run(kunit_rows if kind == 'config' else mutation_row,
                           f'mainline/kunit-{kind}-{rel}results.md', what,
                           f'`{cmd}`', check))
    for base in ('mainline', '6.12', '6.1'):
        rows.append(if_run(text_row, f'{base}/coverage-summary.txt',
                           f'build coverage, {base}',
                           f'`BASE={base} arch-arm/coverage/run`',
                           f'coverage-{base}'))
    rows.append(arches_row())
    rows.append(patch_counts())
    lines = ['<!-- generated by tools/summary.py from the other files in '
             'Documentation/results/; do not edit -->',
             '| what | command | result | file |',
             '| --- | --- | --- | --- |']
    for what, cmd, res, rel in rows:
        if not rel.startswith(('`', '-')):
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
        sentences = {'mainline/model-summary.txt': model_sentence('mainline'),
                     '6.12/model-summary.txt': model_sentence('6.12'),
                     'mainline/other-arches-summary.txt': arches_sentence(),
                     'mainline/kunit-summary.txt': kunit_sentence()}
    except SummaryError as e:
        sys.stderr.write(f'summary.py: error: {e}\n')
        return 1
    if argv:
        sys.stdout.write(text)
        return 0
    write(OUT, text)
    for rel, sentence in sentences.items():
        write(os.path.join(RES, rel), sentence)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
