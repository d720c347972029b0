#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The patches a patch directory stands for, in the order they apply.

    applied.py DIR            one path a line, cover letters left out

For a stable backport's directory (a base of tools/bases other than
mainline) that is the mainline fixes (the patches of patches/ that carry
"Cc: stable@vger.kernel.org") in mainline's order, each as the
backport's patch of the same subject if the directory has one, else as
mainline's own patch, which stable takes unchanged because it applies
as it is, but for those tools/series.d/backports leaves out; then the
directory's test series (DIR-tests), which stable does not take. For
any other directory, its patches, then DIR-tests'. tools/lib-tree.sh's
series_patches, drift.py and the cache model read the list from here.
"""

import os
import re
import sys

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def files(d):
    if not os.path.isdir(d):
        return []
    return [os.path.join(d, p) for p in sorted(os.listdir(d))
            if p.endswith('.patch') and not re.match(r'(.*-)?0000-cover-letter\.patch$', p)]


def subject(path):
    with open(path, encoding='utf-8', errors='replace') as fh:
        m = re.search(r'^Subject: (.*(?:\n[ \t].*)*)', fh.read(), re.M)
    s = re.sub(r'\n[ \t]', ' ', m[1]) if m else ''
    return re.sub(r'^\[PATCH[^]]*\] ', '', s)


def bases():
    """{patch directory: base name} of tools/bases, and the mainline one."""
    out, mainline = {}, None
    with open(os.path.join(TOP, 'tools', 'bases'), encoding='utf-8') as fh:
        for line in fh:
            if line.startswith('#') or not line.strip():
                continue
            f = line.rstrip('\n').split(' | ')
            out[os.path.realpath(os.path.join(TOP, f[3]))] = f[0]
            if f[0] == 'mainline':
                mainline = os.path.join(TOP, f[3])
    return out, mainline


def left_out(base):
    with open(os.path.join(TOP, 'tools', 'series.d', 'backports'), encoding='utf-8') as fh:
        return {f[2] for f in (x.rstrip('\n').split(' | ') for x in fh)
                if len(f) == 4 and f[0] == base and f[1] == 'mainline'}


def applied(d):
    d = os.path.realpath(d)
    tests = files(d + '-tests')
    names, mainline = bases()
    base = names.get(d)
    if not base or base == 'mainline':
        return files(d) + tests
    own = {subject(p): p for p in files(d)}
    skip = left_out(base)
    out = []
    for m in files(mainline):
        with open(m, encoding='utf-8', errors='replace') as fh:
            if not re.search(r'^Cc: stable@vger\.kernel\.org', fh.read(), re.M):
                continue
        s = subject(m)
        if s in own:
            out.append(own.pop(s))
        elif s not in skip:
            out.append(m)
    return out + sorted(own.values()) + tests


def main(argv):
    if len(argv) != 2:
        sys.exit(__doc__)
    for p in applied(argv[1]):
        print(p)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
