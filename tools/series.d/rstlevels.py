#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The section levels of an .rst page, before and after a change.

docutils gives a section the level at which its underline (and
overline) style was first seen in the document, so a new heading with a
style the page has not used yet, or uses deeper down, can push the
sections after it a level down (Sphinx then nests them under the new
one) or stop the build ("Title level inconsistent").

    rstlevels.py OLD NEW

prints each heading of OLD whose level NEW changes, and exits 1 if
there is one; htmldocs.py imports moved().
"""

import sys

PUNCT = set('!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~')


def adornment(line):
    line = line.rstrip('\n')
    return len(line) >= 3 and line[0] in PUNCT and line == line[0] * len(line)


def headings(path):
    """(title, level) of every section heading of PATH, in order."""
    with open(path, encoding='utf-8', errors='replace') as fh:
        lines = fh.readlines()
    styles = []
    out = []
    i = 0
    while i < len(lines) - 1:
        text, under = lines[i].rstrip('\n'), lines[i + 1]
        over = i > 0 and adornment(lines[i - 1])
        if text.strip() and not adornment(text) and adornment(under) and \
           len(under.rstrip('\n')) >= len(text.rstrip()):
            style = (under[0], over and lines[i - 1][0] == under[0])
            if style not in styles:
                styles.append(style)
            out.append((text.strip(), styles.index(style) + 1))
            i += 2
            continue
        i += 1
    return out


def moved(old, new):
    """'"TITLE": level A -> B' for each heading of OLD that NEW moves."""
    levels = {}
    for title, level in headings(new):
        levels.setdefault(title, level)
    return [f'"{t}": level {lv} -> {levels[t]}' for t, lv in headings(old)
            if t in levels and levels[t] != lv]


def main(argv):
    if len(argv) != 3:
        sys.exit('usage: rstlevels.py OLD NEW')
    out = moved(argv[1], argv[2])
    for line in out:
        print(line)
    return 1 if out else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
