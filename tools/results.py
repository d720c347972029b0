# SPDX-License-Identifier: GPL-2.0
"""Reading the generated results of Documentation/results/ for
tools/summary.py and tools/sentences.py: Markdown tables, numbers, and
the facts both the results table (Documentation/results-so-far.md) and
the cover-letter sentences state.

A result file that is missing, or a table that lacks a column this reads,
is a SummaryError naming the file: nothing shows a number it did not
read.
"""

import os
import re

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RES = os.path.join(TOP, 'Documentation', 'results')


class SummaryError(Exception):
    pass


def exists(rel):
    """Whether a check has written the result file (a --full check's
    may not have run on a base yet)."""
    return os.path.exists(os.path.join(RES, rel))


def read(rel):
    """A result file, by its path under Documentation/results/."""
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
    # the other outer caches: run -> (lost, discarded) before, lost after
    f['l2_others'] = {}
    for t in tables(rel):
        if not t or 'run' not in t[0] or 'L2 dirty lines discarded' not in t[0]:
            continue
        for r in t:
            if r['scenario'] != 'maponly':
                continue
            o = f['l2_others'].setdefault(r['run'], {})
            o[r['tree']] = (num(r['lost'], rel)[0], num(r['L2 dirty lines discarded'], rel)[0])
    for run, o in f['l2_others'].items():
        if set(o) != {'base', 'patched'}:
            raise SummaryError(f'{rel}: outer cache run {run} lacks a map-only row')
    return f


def kunit_ran(rel):
    """(row, "passed: N, skipped: N" or None) for each KUnit row."""
    out = []
    for r in table(rel, 'kunit.py result'):
        m = re.search(r'Ran \d+ tests: (.*)', r['kunit.py result'])
        out.append((r, m.group(1) if m else None))
    return out


ARCHES_MODEL = 'mainline/other-arches-model.md'


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
