# SPDX-License-Identifier: GPL-2.0
"""The cover letters' sentences of numbers, from the generated results
(tools/results.py): mainline/model-summary.txt (and 6.12/model-summary.txt),
mainline/other-arches-summary.txt and mainline/kunit-summary.txt (the
rows of mainline/kunit-config-results.md that the cover letter names).
Each cover letter pulls its sentence in with @wrap; tools/summary.py
writes them.
"""

from results import (ARCHES_MODEL, SummaryError, arches_facts, exists,
                     kunit_ran, model_facts, n, num, span, table)


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
    text = (f'In the model (tools/check other-arches-model): '
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
    krel = 'mainline/kunit-config-matrix-other-arches-results.md'
    if not exists(krel):
        return text + (' KUnit under QEMU on these architectures (tools/check '
                       '--full kunit-arches) has not run on this tree yet.\n')
    ran = [f'{r["configuration"]} {res}' for r, res in kunit_ran(krel)
           if res and r['verdict'] == 'pass']
    if not ran:
        raise SummaryError(f'{krel}: no configuration passed')
    return text + f' KUnit under QEMU: {"; ".join(ran)}.\n'


KUNIT = 'mainline/kunit-config-results.md'
# The rows of the KUnit results the cover letter names, what each ran,
# and the skips the sentence explains: results with other skips need
# new words.
KUNIT_ROWS = (
    ('arm-virt', 0, 'passes on the series ({ran}).'),
    ('arm-lpae-kasan-swiotlb-smp2', 3,
     'With LPAE, KASAN, SMP, two CPUs and swiotlb=force: {ran}, the skips '
     'being the three cases that exceed swiotlb\'s 256 KiB mapping limit;'),
    ('arm-lpae-kasan-smp2', 0, 'the same kernel without swiotlb=force: {ran}.'),
)


def kunit_sentence():
    """What kunit.py printed in the KUnit check (20-kunit) on mainline."""
    rows = {r['configuration']: (r, res) for r, res in kunit_ran(KUNIT)}
    out = []
    for name, skips, words in KUNIT_ROWS:
        r, res = rows.get(name, (None, None))
        if not res or r['verdict'] != 'pass':
            raise SummaryError(f'{KUNIT}: no passing "{name}" row with kunit.py\'s line')
        skipped = res.split('skipped: ')[1].split(',')[0] if 'skipped: ' in res else '0'
        if int(skipped) != skips:
            raise SummaryError(f'{KUNIT}: {skipped} skips in "{name}", '
                               f'the sentence explains {skips}')
        ran = r['kunit.py result']
        out.append(words.format(ran=ran[ran.index('Ran '):]))
    return ' '.join(out) + '\n'
