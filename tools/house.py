#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The house rules of the repository, checked on its tracked files
(tools/checks/07-house):

- no issue numbers: an issue is a tracker's, and a reader of the
  repository or of a patch cannot look it up;
- no shell file over 150 lines, no C or Python file over 400: a file a
  reader can hold. patches/ and Documentation/ are not code. A file
  still over its limit is named in OVER with why, until it is split,
  and the test fails once it is under (so that the list only shrinks);
- every capability's folder has its README; tools/ itself holds the
  entry points and what several capabilities share, nothing else;
- no include loop among the C files, no import loop among the Python
  modules of one directory; the ARM model's self-tests call the model,
  never the reverse (only main.c calls them); neither cache model
  includes a file of the other's directory: what they share is in
  tools/include/.
"""

import os
import re
import subprocess
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(TOP, 'tools'))

from ktap import report  # noqa: E402

LIMITS = {'shell': 150, 'C': 400, 'Python': 400}

# Files still over their limit: path -> why it is not split yet.
OVER = {}


def tracked():
    out = subprocess.run(['git', '-C', TOP, 'ls-files', '-z'], check=True,
                         capture_output=True).stdout.decode()
    return [f for f in out.split('\0') if f and os.path.isfile(os.path.join(TOP, f))]


def kind(path):
    """'shell', 'C', 'Python' or None, by extension or #! line."""
    if path.startswith(('patches/', 'Documentation/')):
        return None
    if path.endswith(('.c', '.h')):
        return 'C'
    if path.endswith('.py'):
        return 'Python'
    if path.endswith('.sh'):
        return 'shell'
    with open(os.path.join(TOP, path), 'rb') as fh:
        first = fh.readline(200)
    if first.startswith(b'#!') and b'python' in first:
        return 'Python'
    if first.startswith(b'#!') and re.search(rb'/(ba)?sh\b', first):
        return 'shell'
    return None


def lines(path):
    with open(os.path.join(TOP, path), 'rb') as fh:
        return sum(1 for _ in fh)


def sizes(files, tests):
    for k, limit in LIMITS.items():
        over = [(f, lines(f)) for f in files if kind(f) == k]
        over = [(f, n) for f, n in over if n > limit]
        new = [f'{f} ({n})' for f, n in over if f not in OVER]
        stale = [f for f in OVER if kind(f) == k and
                 (f not in files or lines(f) <= limit)]
        name = f'{k.lower()}_files_within_{limit}_lines'
        why = (f'over {limit} lines: {", ".join(new)}' if new else
               f'{", ".join(stale)}: within the limit now, take it out of OVER' if stale else
               f'{k} files over {limit} lines: ' +
               (', '.join(f'{f} ({n}, {OVER[f]})' for f, n in over) or 'none'))
        tests.append((not new and not stale, name, why))


def graph_has_loop(edges):
    """A cycle of EDGES (node -> set of nodes) as a list, or None."""
    state = {}

    def visit(n, path):
        state[n] = 1
        for m in sorted(edges.get(n, ())):
            if state.get(m) == 1:
                return path[path.index(m):] + [m]
            if not state.get(m):
                loop = visit(m, path + [m])
                if loop:
                    return loop
        state[n] = 2
        return None

    for n in sorted(edges):
        if not state.get(n):
            loop = visit(n, [n])
            if loop:
                return loop
    return None


def includes(files, tests):
    c = [f for f in files if kind(f) == 'C']
    shared = {os.path.basename(f): f for f in c if f.startswith('tools/include/')}
    models = ('arch-arm/model', 'other-arches/model')
    edges, cross = {}, []
    for f in c:
        text = open(os.path.join(TOP, f), errors='replace').read()
        for inc in re.findall(r'^#include "([^"]+)"', text, re.M):
            # a quoted include is found next to the file, else on the
            # include path the models share (tools/include)
            here = os.path.normpath(os.path.join(os.path.dirname(f), inc))
            target = here if here in c else shared.get(inc)
            if target:
                edges.setdefault(f, set()).add(target)
            other = [m for m in models if not f.startswith(m) and
                     (target or '').startswith(m) or
                     not target and os.path.join(m, inc) in c and not f.startswith(m)]
            if other:
                cross.append(f'{f} includes {inc}, of {other[0]}/')
    loop = graph_has_loop(edges)
    tests.append((not loop, 'no_c_include_loop',
                  ' -> '.join(loop) if loop else f'{sum(map(len, edges.values()))} includes, no loop'))
    tests.append((not cross, 'models_share_only_tools_include',
                  '; '.join(cross) or 'neither model includes a file of the other'))


def imports(files, tests):
    py = [f for f in files if kind(f) == 'Python']
    edges = {}
    for f in py:
        d = os.path.dirname(f)
        mods = {os.path.basename(g)[:-3]: g for g in py
                if os.path.dirname(g) == d and g.endswith('.py')}
        text = open(os.path.join(TOP, f), errors='replace').read()
        for m in re.findall(r'^\s*(?:from (\w+) import|import (\w+))', text, re.M):
            name = m[0] or m[1]
            if name in mods and mods[name] != f:
                edges.setdefault(f, set()).add(mods[name])
    loop = graph_has_loop(edges)
    tests.append((not loop, 'no_python_import_loop',
                  ' -> '.join(loop) if loop else f'{sum(map(len, edges.values()))} imports, no loop'))


def selftests_called_by_main_only(tests):
    d = os.path.join(TOP, 'arch-arm', 'model')
    fns = re.findall(r'^\w[\w\s\*]*?\b(selftest_\w+)\(void\)', open(os.path.join(d, 'selftest.c')).read(),
                     re.M)
    callers = []
    for f in sorted(os.listdir(d)):
        if f.endswith('.c') and f not in ('selftest.c', 'main.c'):
            text = open(os.path.join(d, f)).read()
            callers += [f'{f} calls {fn}()' for fn in fns if re.search(rf'\b{fn}\(', text)]
    tests.append((fns and not callers, 'model_does_not_call_its_selftests',
                  '; '.join(callers) or f'{len(fns)} self-test functions, called from main.c only'))


# The folders that hold a capability, each with its README.md
CAPABILITIES = ('kunit', 'arch-arm/model', 'arch-arm/coverage', 'arch-arm/benchmark',
                'arch-arm/configs', 'other-arches', 'tools', 'tools/series.d')

# What tools/ holds at its top: the entry points and what they share.
# A capability's runner or library goes in its folder instead.
TOOLS_ENTRY = ('run', 'check', 'setup', 'series', 'fresh-machine')
TOOLS_SHARED = ('README.md', 'check.py', 'lib-standin.sh', 'house.py', 'packages',
                'packages.py', 'exec-trace', 'timing.py', 'lib.sh', 'lib-tree.sh',
                'lib-patches.sh', 'lib-ktap.sh', 'ktap.py', 'base-tree', 'bases',
                'summary.py', 'sentences.py', 'results.py', 'includes.py')


def readmes(files, tests):
    missing = [d for d in CAPABILITIES if f'{d}/README.md' not in files]
    tests.append((not missing, 'capability_folders_have_readmes',
                  f'no README.md in {", ".join(missing)}' if missing else
                  f'{len(CAPABILITIES)} folders, each with its README.md'))


def tools_top(files, tests):
    top = [f[len('tools/'):] for f in files if f.startswith('tools/') and f.count('/') == 1]
    extra = sorted(set(top) - set(TOOLS_ENTRY) - set(TOOLS_SHARED))
    tests.append((not extra, 'tools_holds_entry_points_and_shared',
                  f'{", ".join(extra)}: in its capability\'s folder, or named shared in '
                  'tools/house.py' if extra else
                  f'{len(top)} files: {len(TOOLS_ENTRY)} entry points, the rest shared'))


def issue_numbers(tests):
    r = subprocess.run(['git', '-C', TOP, 'grep', '-n', '-I', '-i', '-E', r'\<issues? [0-9]', '--', '.'],
                       capture_output=True, text=True)
    hits = r.stdout.splitlines()
    tests.append((not hits, 'no_issue_numbers_in_the_tree',
                  '; '.join(hits[:5]) or 'no "issue N" in the tracked files'))


def main():
    files = tracked()
    tests = []
    issue_numbers(tests)
    readmes(files, tests)
    tools_top(files, tests)
    sizes(files, tests)
    includes(files, tests)
    imports(files, tests)
    selftests_called_by_main_only(tests)
    return report(tests)


if __name__ == '__main__':
    sys.exit(main())
