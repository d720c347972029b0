#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Read the results of `kunit.py run --json=FILE` for kunit/run.

    kunit/kunit_results.py summary FILE   one line: Ran N tests: passed: ...
    kunit/kunit_results.py failed FILE    the suite's cases that failed,
                                          one a line (a parameterised case
                                          fails if one of its rows does)
    kunit/kunit_results.py skipped FILE   the cases that skipped, the
                                          same way (one row is enough)

The JSON is kunit.py's (tools/testing/kunit/kunit_json.py): groups with
"sub_groups" and leaf "test_cases", each leaf with a "status" of PASS,
SKIP, FAIL or ERROR. A parameterised case is a group whose rows are its
leaves. A missing or unreadable file is one line on stderr and exit
status 1.
"""

import json
import sys


def leaves(group):
    """Every leaf test case under GROUP."""
    for sub in group.get('sub_groups', []):
        yield from leaves(sub)
    yield from group.get('test_cases', [])


def cases(top):
    """(name, statuses) for each case of each suite under TOP."""
    for suite in top.get('sub_groups', []):
        for sub in suite.get('sub_groups', []):
            yield sub['name'], [t['status'] for t in leaves(sub)]
        for t in suite.get('test_cases', []):
            yield t['name'], [t['status']]


def summary(top):
    """kunit.py's own summary line, counted from the leaves."""
    counts = {}
    for t in leaves(top):
        counts[t['status']] = counts.get(t['status'], 0) + 1
    n = sum(counts.values())
    parts = [f'{word}: {counts[key]}' for key, word in
             (('PASS', 'passed'), ('FAIL', 'failed'), ('SKIP', 'skipped'),
              ('ERROR', 'crashed')) if counts.get(key)]
    return f'Ran {n} tests: ' + ', '.join(parts) if n else 'no tests ran'


def main(argv):
    if len(argv) != 3 or argv[1] not in ('summary', 'failed', 'skipped'):
        print('usage: kunit_results.py summary|failed|skipped FILE', file=sys.stderr)
        return 2
    try:
        with open(argv[2], encoding='utf-8') as f:
            top = json.load(f)
    except (OSError, ValueError) as e:
        print(f'{argv[2]}: no kunit.py JSON: {e}', file=sys.stderr)
        return 1
    if argv[1] == 'summary':
        print(summary(top))
    else:
        want = ('FAIL', 'ERROR') if argv[1] == 'failed' else ('SKIP',)
        for name, statuses in cases(top):
            if any(s in statuses for s in want):
                print(name)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
