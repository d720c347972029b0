#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check that a backport removes and adds what the mainline series does.

For each file, the lines that the patches of a directory remove and add
(context lines and whitespace-only changes aside) are compared between
the mainline directory and the backport directory. They must be the same
but for the differences that the list allows for BASE, one a line,
fields split by " | ":

  BASE | only | FILE | REASON         FILE's changes may differ
  BASE | line | FILE ±LINE | REASON   this removed (-) or added (+)
                                      line of FILE, whitespace squeezed,
                                      may be on one side only; one that
                                      is on neither side fails the file
  BASE | rename | NEW OLD | REASON    mainline's NEW is OLD in the backport
  BASE | mainline | SUBJECT | REASON  a mainline patch not backported

Usage: drift.py MAINLINE_DIR BACKPORT_DIR ALLOWED_LIST BASE
Prints KTAP, one test per file, and the closing summary line.
"""

import collections
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ktap  # noqa: E402
import applied  # noqa: E402


def patches(directory):
    # what the directory applies, its test series and the mainline
    # patches stable takes unchanged included (applied.py)
    return applied.applied(directory)


def subject(text):
    m = re.search(r'^Subject: (.*(?:\n[ \t].*)*)', text, re.M)
    s = re.sub(r'\n[ \t]', ' ', m.group(1)) if m else ''
    return re.sub(r'^\[PATCH[^]]*\] ', '', s)


def changes(paths, skip, rename):
    """{file: Counter of '-line'/'+line'} over the patches, and subjects."""
    out = collections.defaultdict(collections.Counter)
    subjects = []
    for path in paths:
        with open(path, encoding='utf-8') as f:
            text = f.read()
        subj = subject(text)
        subjects.append(subj)
        if subj in skip:
            continue
        name = None
        for line in text.splitlines():
            if line.startswith('diff --git '):
                name = line.split(' b/', 1)[1]
                name = rename.get(name, name)
            elif line == '-- ':
                name = None     # the signature, if any
            elif line.startswith(('--- ', '+++ ')) or name is None:
                continue
            elif line.startswith(('-', '+')):
                body = ' '.join(line[1:].split())
                if body:
                    out[name][line[0] + body] += 1
    return out, subjects


def read_allowed(path, base):
    only, rename, skip = {}, {}, {}
    lines = collections.defaultdict(dict)
    with open(path, encoding='utf-8') as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith('#'):
                continue
            # WHAT may hold " | " (a line of C): the reason is the last field
            fields = line.split(' | ', 2)
            fields = fields[:2] + fields[2].rsplit(' | ', 1) if len(fields) == 3 else fields
            if len(fields) != 4 or fields[1] not in ('only', 'rename',
                                                     'mainline', 'line'):
                sys.exit(f'{path}:{n}: not "BASE | only|rename|mainline|line | '
                         f'WHAT | REASON"')
            b, kind, arg, reason = fields
            if b != base:
                continue
            if kind == 'only':
                only[arg] = reason
            elif kind == 'line':
                name, _, text = arg.partition(' ')
                if text[:1] not in '+-' or not text[1:].strip():
                    sys.exit(f'{path}:{n}: not "FILE +LINE" or "FILE -LINE"')
                lines[name][text[0] + ' '.join(text[1:].split())] = reason
            elif kind == 'rename':
                new, old = arg.split()
                rename[new] = old
            else:
                skip[arg] = reason
    return only, rename, skip, lines


def main(argv):
    if len(argv) != 5:
        sys.exit('usage: drift.py MAINLINE_DIR BACKPORT_DIR ALLOWED_LIST BASE')
    only, rename, skip, lines = read_allowed(argv[3], argv[4])
    main_p, back_p = patches(argv[1]), patches(argv[2])
    if not main_p or not back_p:
        sys.exit(f'drift.py: no patches in {argv[1] if not main_p else argv[2]}')
    mine, main_subj = changes(main_p, skip, rename)
    theirs, _ = changes(back_p, {}, {})

    tests = []
    for subj in skip:
        ok = subj in main_subj
        tests.append((ok, 'mainline_only_patch_exists',
                       f'mainline only: "{subj}": {skip[subj]}'
                       if ok else f'no mainline patch "{subj}" to skip'))
    for name in sorted(set(mine) | set(theirs)):
        test = 'same_changes_' + re.sub(r'[^A-Za-z0-9]+', '_', name)
        if name in only:
            tests.append((True, test, f'{name}: allowed to differ: {only[name]}'))
            continue
        extra = mine[name] - theirs[name]
        missing = theirs[name] - mine[name]
        allowed = lines.get(name, {})
        unused = [x for x in allowed if x not in extra and x not in missing]
        extra = [x for x in extra if x not in allowed]
        missing = [x for x in missing if x not in allowed]
        if not extra and not missing and not unused:
            n = sum(mine[name].values())
            tests.append((True, test, f'{name}: the same {n} changed lines' +
                          (f', but {len(allowed)} allowed to differ' if allowed else '')))
            continue
        diff = [f'only in mainline: {x}' for x in extra] + \
               [f'only in the backport: {x}' for x in missing] + \
               [f'allowed to differ but the same: {x}' for x in unused]
        tests.append((False, test, f'{name}: ' + '; '.join(diff[:4])))

    return ktap.report(tests)


if __name__ == '__main__':
    sys.exit(main(sys.argv))
