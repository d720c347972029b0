# SPDX-License-Identifier: GPL-2.0
"""Whom each patch goes to (tools/series.d/send_ready.py): To: and Cc:
from a kernel tree's scripts/get_maintainer.pl, as b4 splits them by
default: maintainers and reviewers To:, lists Cc:. One run a patch,
--norolestats --roles: the role says which is a list (b4 runs it twice,
--nol and --nom; a run costs a second here, reading MAINTAINERS).

get_maintainer.pl reads the diff alone, not the message: it matches
MAINTAINERS' K: keywords in every line it reads, and the messages name
riscv and Clang as comparisons, which would reach their lists; and a
Fixes: tag would make it look up the fixed commit's history, which a
base tree without history does not have. git history is not asked
either (--nogit, --nogit-fallback) for the same reason."""

import concurrent.futures
import hashlib
import os
import re
import subprocess
import tempfile

from send_policy import die

GET_MAINTAINER = ('--nogit', '--nogit-fallback', '--nogit-chief-penguins', '--norolestats',
                  '--roles')
STABLE_LIST = 'stable@vger.kernel.org'
_cache = {}


def get_maintainer(tree, diff):
    """get_maintainer.pl on DIFF (text) in TREE: (address, role) pairs."""
    key = (tree, hashlib.sha1(diff.encode()).hexdigest())
    if key in _cache:
        return _cache[key]
    script = os.path.join(tree, 'scripts', 'get_maintainer.pl')
    if not os.path.isfile(script):
        die(f'--tree {tree}: no scripts/get_maintainer.pl there')
    with tempfile.NamedTemporaryFile('w', suffix='.patch', encoding='utf-8') as f:
        f.write(diff)
        f.flush()
        r = subprocess.run(['perl', script, *GET_MAINTAINER, f.name], cwd=tree,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           check=False)
    if r.returncode != 0:
        die(f'get_maintainer.pl in {tree} failed: {r.stderr.strip()}')
    # "NAME <ADDRESS> (ROLE)", the role last
    found = [(re.fullmatch(r'(.*\S) \(([^()]*)\)|(.*)', a.strip()).groups())
             for a in r.stdout.split('\n') if a.strip()]
    _cache[key] = [(a or rest, role or '') for a, role, rest in found]
    return _cache[key]


def recipients(tree, text, stable=False):
    """(To, Cc) of the patch TEXT: maintainers and reviewers, then lists
    ("open list", "moderated list:..."); a stable backport goes to the
    stable list, everyone else in Cc."""
    at = text.find('\ndiff --git ')
    if at < 0:
        return [], []
    found = get_maintainer(tree, text[at + 1:])
    to = [a for a, role in found if 'list' not in role]
    cc = [a for a, role in found if 'list' in role and a not in to]
    if stable:
        return [STABLE_LIST], to + cc
    return to, cc


def each(tree, patches, stable):
    """(patch, (To, Cc)) for each of PATCHES, get_maintainer.pl run on
    as many CPUs as there are."""
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 1) as pool:
        lists = list(pool.map(lambda p: recipients(tree, p.text(), stable), patches))
    return zip(patches, lists)


def union(pairs):
    """The cover letter's (To, Cc): every patch's, in order, once; an
    address in any To: is not repeated in Cc:."""
    to, cc = [], []
    for t, c in pairs:
        to += [a for a in t if a not in to]
        cc += [a for a in c if a not in cc]
    return to, [a for a in cc if a not in to]
