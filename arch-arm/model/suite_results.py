# SPDX-License-Identifier: GPL-2.0
"""What cachemodel --suite printed, case by case: each case's state, a
run's totals, and which rows of the suite fail where (suite.py runs,
suite_md.py writes the page).

A case that stops at an emulation error after its maps discarded dirty
lines outside the mapped buffer ("foreign" lines) crashed: its map
invalidated the case's own data with the buffer, as proc-arm940.S's
whole-cache invalidate does on the base, and the case then read a
pointer back as stale memory. That is a failure of the tree under test.
Any other error is the model's and never a result.
"""

from collections import namedtuple

from common import field, num

MAP_ONLY = 'dma_mapping_from_device_map_only['

Totals = namedtuple('Totals', 'failed ran exp wrong errors crashed foreign')


def parse(out):
    """{case: line} of cachemodel --suite's output; any other line under
    'error'."""
    res = {}
    for line in out.split('\n'):
        f = line.split(' ', 2)
        if len(f) == 3 and f[0] == 'suite':
            res[f[1]] = f[2]
        elif line:
            res.setdefault('error', line)
    return res


def state(line):
    """ok, failed, skipped, crashed (see above) or error."""
    r = field('result', line)
    if r == 'error':
        return 'crashed' if (num('foreign', line) or 0) > 0 else 'error'
    return r if r in ('ok', 'failed', 'skipped') else 'error'


def totals(res):
    """Cases failed (crashed ones among them) of cases run, expectations
    failed, bytes wrong, errors, crashes, and the foreign lines the maps
    discarded."""
    s = [state(l) for l in res.values()]
    return Totals(failed=s.count('failed') + s.count('crashed'),
                  ran=s.count('ok') + s.count('failed') + s.count('crashed'),
                  exp=sum(num('failed', l) or 0 for l in res.values()),
                  wrong=sum(num('wrong', l) or 0 for l in res.values()),
                  errors=s.count('error'), crashed=s.count('crashed'),
                  foreign=sum(num('foreign', l) or 0 for l in res.values()))


def map_only_fails(res):
    return any(k.startswith(MAP_ONLY) and state(l) in ('failed', 'crashed')
               for k, l in res.items())


def case_names(rs):
    """Every row of the suite the runs saw, in the suite's order."""
    names = []
    for row in rs:
        for k in {**row.out[('base', 'new')], **row.big.get('base', {})}:
            if k != 'error' and k not in names:
                names.append(k)
    return names


def failing(rs, tree, name):
    """(cores where NAME failed or crashed, cores where it ran) on TREE,
    new fill."""
    res = []
    for r in rs:
        x = state({**r.out[(tree, 'new')], **r.big.get(tree, {})}.get(name, 'result=none'))
        res.append((r.name, 'failed' if x == 'crashed' else x))
    return ([n for n, x in res if x == 'failed'],
            [n for n, x in res if x in ('ok', 'failed')])


def crashes(res):
    """(case, foreign lines, why) of each crashed case."""
    return [(k, num('foreign', l), l.split(' error=', 1)[-1])
            for k, l in res.items() if state(l) == 'crashed']
