# SPDX-License-Identifier: GPL-2.0
"""The cover letters' sentences of numbers, from the generated results
(tools/results.py): 6.12/model-summary.txt and
6.12/other-arches-summary.txt, and mainline-kunit-summary.txt from the
KUnit lines of Documentation/mainline-record.md. Each cover letter pulls
its sentence in with @wrap; tools/summary.py writes them.
"""

import re

from results import (ARCHES_MODEL, SummaryError, arches_facts, kunit_ran,
                     model_facts, n, num, span, table)


def model_sentence(base):
    """The cover letter's model numbers (@wrap of model-summary.txt)."""
    f = model_facts(base)
    keep = ''
    if f['keep']:
        keep = f' ({", ".join(f["keep"])} already flushed at map)'
    b, p = f['l2_base'], f['l2_patched']
    return (f'In the model (BASE={base} arch-arm/model/run): before the series, '
            f'{len(f["losers"])} of {f["wb"]} write-back backend runs lost '
            f'{span(f["losers"])} of the 409,600 CPU-written bytes of the '
            f'mapping-only test{keep}, and {len(f["exposed"])} left '
            f'{span(f["exposed"])} stale bytes in the gaps of a short '
            f'transfer; after, {n(f["after"])} in every run. Behind a '
            f'Cortex-A9 with an L2C-310: {n(b[1])} lost before ({n(b[2])} '
            f'dirty L2 lines discarded), {n(p[1])} after{others_clause(f)}. '
            f'{boards_sentence(f["rel"])}\n')


# the other outer caches' runs (outer.py OTHERS), as the sentence names them
OTHER_OUTERS = {'v6_l2c220': 'an ARM11 MPCore with an L2C-220',
                'feroceon_range_feroceon_l2': 'a Feroceon with its L2',
                'mohawk_tauros2': 'a PJ1 with a Tauros2',
                'xsc3_xsc3_l2': 'an XScale3 with its L2'}


def others_clause(f):
    """'; behind X and Y: A and B lost before (...), 0 after' or ''."""
    o = f['l2_others']
    if not o:
        return ''
    unknown = sorted(set(o) - set(OTHER_OUTERS))
    if unknown:
        raise SummaryError(f'{f["rel"]}: outer cache run {unknown[0]} has no name here')
    runs = sorted(o)
    lost = listing([n(o[r]['base'][0]) for r in runs])
    disc = listing([n(o[r]['base'][1]) for r in runs])
    after = sum(o[r]['patched'][0] for r in runs)
    return (f'; behind {listing([OTHER_OUTERS[r] for r in runs])}: {lost} '
            f'lost before ({disc} dirty L2 lines discarded), {n(after)} after')


def listing(words):
    """'a', 'a and b', 'a, b and c'."""
    return ' and '.join(filter(None, [', '.join(words[:-1]), words[-1]]))


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


def arches_sentence():
    """The other-arches cover letter's numbers (@wrap of
    other-arches-summary.txt): the model, then KUnit under QEMU."""
    maponly, boards, after = arches_facts()
    lose = [c for c, x in maponly.items() if x]
    keep = [c for c, x in maponly.items() if not x and boards[c]]
    # a write-through cache holds no dirty line: nothing to lose
    none = [c for c, x in maponly.items() if not x and not boards[c]]
    caches = table(ARCHES_MODEL, 'write miss allocates')
    wt = {r['config'] for r in caches if r['write policy'] == 'write-through'}
    if not lose or any(c not in wt for c in none):
        raise SummaryError(f'{ARCHES_MODEL}: not every write-back configuration loses')
    # the model's caches are finite: a loss as large as the cache is all it held
    size = {r['config']: int(r['size'].split()[0]) * (1024 if 'KiB' in r['size'] else 1)
            for r in caches}
    whole = all(maponly[c] == size.get(c) for c in lose)
    text = (f'In the model (tools/check other-arches-model, 6.12.117): '
            f'before, {", ".join(lose)} lost {span([maponly[c] for c in lose])} '
            'of the 409,600 bytes of a map-only buffer' +
            (', as much as each one\'s data cache holds' if whole else ''))
    if keep:
        text += (f'; {", ".join(keep)} lost none there (the buffer is larger '
                 'than the cache, which r4k then writes back by index) but '
                 f'{span([boards[c] for c in keep])} in the boards\' test of '
                 '100 buffers of 4,096 bytes')
    if none:
        text += (f'; {", ".join(none)} lost nothing (a write-through cache '
                 'holds no dirty line)')
    text += f'; after, {n(after)} bytes lost or exposed in any scenario.'
    krel = '6.12/kunit-config-matrix-other-arches-results.md'
    ran = [f'{r["configuration"]} {res}' for r, res in kunit_ran(krel)
           if res and r['verdict'] == 'pass']
    if not ran:
        raise SummaryError(f'{krel}: no configuration passed')
    return text + f' KUnit under QEMU on 6.12.117: {"; ".join(ran)}.\n'


MAINLINE_RECORD = '/Documentation/mainline-record.md'
# The KUnit rows of the record's table, what each ran, and the skips the
# sentence explains: a record with other skips needs new words.
MAINLINE_KUNIT = (
    ('KUnit, `kunit.py run --arch=arm --kunitconfig=kernel/dma', 0,
     'passes on the series ({ran}).'),
    ('KUnit, same with LPAE, SMP, `-smp 2`, `swiotlb=force`', 3,
     'With LPAE, SMP, two CPUs and swiotlb=force: {ran}, the skips being '
     'the three cases that exceed swiotlb\'s 256 KiB mapping limit.'),
)


def mainline_kunit_sentence():
    """What kunit.py printed on the 7.1.5 tree (by hand), as recorded."""
    rows = table(MAINLINE_RECORD, 'check')
    out = []
    for start, skips, words in MAINLINE_KUNIT:
        r = next((r for r in rows if r['check'].startswith(start)), None)
        m = r and re.search(r'`(Ran \d+ tests: passed: \d+(?:, skipped: (\d+))?)`',
                            r['result'])
        if not m:
            raise SummaryError(f'{MAINLINE_RECORD[1:]}: no "{start}" row with kunit.py\'s line')
        if int(m.group(2) or 0) != skips:
            raise SummaryError(f'{MAINLINE_RECORD[1:]}: {m.group(2)} skips in "{start}", '
                               f'the sentence explains {skips}')
        out.append(words.format(ran=m.group(1)))
    return ' '.join(out) + '\n'
