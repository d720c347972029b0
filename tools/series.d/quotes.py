#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check that what the series quotes of the review thread is quoted
exactly.

The thread's exact words are the "> " lines of ../shared/CONTEXT.md
(each block of them one quotation). A quotation in a text of ours is a
span in double quotes (straight or curly) of four words or more, or a
block of "> " lines. One that stands, whitespace aside, inside one of
the thread's quotations is exact; one that shares most of its words
with one of them but does not stand in it is a misquote, and fails its
text's test. Any other quotation (a log line, an error message) is not
the thread's and is left alone.

    tools/series.d/quotes.py CONTEXT.md FILE...

Prints KTAP, one test per FILE, and the closing summary line.
"""

import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
import ktap  # noqa: E402

MIN_WORDS = 4
# a quotation sharing this share of its words with one of the thread's
# is meant as that one
CLOSE = 0.6


def words(text):
    return re.findall(r"[\w'+-]+", text.lower())


def flat(text):
    return ' '.join(text.split())


def thread_quotes(path):
    """The blocks of "> " lines of CONTEXT.md, each flattened."""
    out, block = [], []
    for line in open(path, encoding='utf-8').read().split('\n') + ['']:
        if line.startswith('>'):
            block.append(line[1:].strip())
        elif block:
            out.append(flat(' '.join(block)))
            block = []
    return out


def our_quotes(text):
    """The quotations of a text: double-quoted spans, and "> " blocks."""
    found = []
    for m in re.finditer(r'"([^"]+)"|\u201c([^\u201d]+)\u201d', text):
        q = flat(m.group(1) or m.group(2))
        if len(words(q)) >= MIN_WORDS:
            found.append(q)
    block = []
    for line in text.split('\n') + ['']:
        if line.startswith('> '):
            block.append(line[2:])
        elif block:
            found.append(flat(' '.join(block)))
            block = []
    return found


def verdict(q, thread):
    """None when Q is exact or not the thread's; else what it misquotes."""
    if any(q in t for t in thread):
        return None
    qw = set(words(q))
    for t in thread:
        if qw and len(qw & set(words(t))) / len(qw) >= CLOSE:
            return t
    return None


def main(argv):
    if len(argv) < 3:
        sys.exit('usage: quotes.py CONTEXT.md FILE...')
    try:
        thread = thread_quotes(argv[1])
    except OSError as e:
        sys.exit(f'quotes.py: {e}')
    if not thread:
        sys.exit(f'quotes.py: no "> " quotation in {argv[1]}')
    tests = []
    for path in argv[2:]:
        text = open(path, encoding='utf-8', errors='replace').read()
        name = 'quotes_exact_' + re.sub(r'[^A-Za-z0-9]+', '_', path)
        bad = [(q, t) for q in our_quotes(text) for t in [verdict(q, thread)] if t]
        if bad:
            q, t = bad[0]
            tests.append((False, name, f'{path}: "{q}" is not the thread\'s words "{t}"'
                          + (f' (and {len(bad) - 1} more)' if len(bad) > 1 else '')))
        else:
            tests.append((True, name, f'{path}: every quotation of the thread is exact'))
    return ktap.report(tests)


if __name__ == '__main__':
    sys.exit(main(sys.argv))
