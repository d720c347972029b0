#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The commits of a stable backport branch that its directory carries.

    backport_only.py TREE FROM TO

Prints TO, or, when some commits of FROM..TO in the kernel tree TREE
are mainline patches (of patches/) that stable takes unchanged (the
same subject and the same change, by git patch-id --stable), a commit
on FROM with only the others, cherry-picked in a throw-away worktree
(the stable cover letter names the ones left out). A commit that needs
a left-out one does not cherry-pick: refused, exit 1, TREE unchanged.
tools/series.d/export.sh calls it for every base but mainline.
"""

import os
import subprocess
import sys
import tempfile

import applied


def git(tree, *args, stdin=None):
    return subprocess.run(['git', '-C', tree, *args], input=stdin, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True, check=True).stdout


def patch_id(text):
    out = subprocess.run(['git', 'patch-id', '--stable'], input=text, stdout=subprocess.PIPE,
                         text=True, check=True).stdout
    return out.split(' ')[0]


def mainline_ids():
    """{subject: patch id} of the mainline series' patches."""
    top = os.path.join(applied.TOP, 'patches')
    out = {}
    for p in applied.files(top):
        with open(p, encoding='utf-8', errors='replace') as fh:
            out[applied.subject(p)] = patch_id(fh.read())
    return out


def main(argv):
    if len(argv) != 4:
        sys.exit(__doc__)
    tree, start, end = argv[1:]
    ids = mainline_ids()
    commits = git(tree, 'rev-list', '--reverse', f'{start}..{end}').split()
    keep = []
    for c in commits:
        subj = git(tree, 'log', '-1', '--format=%s', c).strip()
        if not ids.get(subj) or ids[subj] != patch_id(git(tree, 'show', c)):
            keep.append(c)
    if len(keep) == len(commits):
        print(end)
        return 0
    wt = tempfile.mkdtemp()
    git(tree, 'worktree', 'add', '-q', '--detach', wt, start)
    try:
        if keep:
            r = subprocess.run(['git', '-C', wt, '-c', 'user.name=export', '-c',
                                'user.email=export@localhost', 'cherry-pick', *keep],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
            if r.returncode:
                print('series: error: a backport commit needs a mainline patch that stable '
                      'takes unchanged; nothing exported', file=sys.stderr)
                return 1
        print(git(wt, 'rev-parse', 'HEAD').strip())
    finally:
        subprocess.run(['git', '-C', wt, 'cherry-pick', '--abort'], stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, check=False)
        git(tree, 'worktree', 'remove', '--force', wt)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
