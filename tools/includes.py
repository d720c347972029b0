#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Keep generated results in hand-written Markdown, never typed.

A block in FILE

  <!-- include Documentation/results/X -->
  ...
  <!-- end include -->

holds the file X (a path from the top of the repository) as it is.

Usage: includes.py FILE...            rewrite the blocks
       includes.py --list FILE...     print each block's FILE and X
       includes.py --stale FILE...    print each block whose text is not X's
"""

import os
import re
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BEGIN = re.compile(r'<!-- include (\S+) -->$')
END = '<!-- end include -->'


def blocks(path):
    """Yield (start, end, included path) for each block of path's lines."""
    with open(path, encoding='utf-8') as f:
        lines = f.read().split('\n')
    i = 0
    while i < len(lines):
        m = BEGIN.match(lines[i])
        if m:
            try:
                end = lines.index(END, i + 1)
            except ValueError:
                sys.exit(f'includes.py: {path}:{i + 1}: no "{END}" after it')
            yield lines, i, end, m.group(1)
            i = end
        i += 1


def wanted(included):
    try:
        with open(os.path.join(TOP, included), encoding='utf-8') as f:
            return f.read().rstrip('\n').split('\n')
    except OSError as e:
        sys.exit(f'includes.py: cannot include {included}: {e.strerror}')


def main(argv):
    mode = 'write'
    if argv[1:2] in (['--list'], ['--stale']):
        mode = argv[1][2:]
        argv = argv[1:]
    if len(argv) < 2:
        sys.exit(__doc__)
    for path in argv[1:]:
        out = None
        for lines, start, end, included in blocks(path):
            want = wanted(included)
            if mode == 'list':
                print(path, included)
            elif mode == 'stale':
                if lines[start + 1:end] != want:
                    print(path, included)
            else:
                out = lines
        if mode == 'write' and out is not None:
            new = []
            i = 0
            for lines, start, end, included in blocks(path):
                new += lines[i:start + 1] + wanted(included)
                i = end
            new += out[i:]
            with open(path, 'w', encoding='utf-8') as f:
                f.write('\n'.join(new))


if __name__ == '__main__':
    main(sys.argv)
