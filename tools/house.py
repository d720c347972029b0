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
- every folder that holds code, in it or below it, has its README.md;
  tools/checks/README.md names every check, in order, as its header
  runs it (by default or with --full, on which bases), and no other;
  tools/ itself holds the entry points and what several capabilities
  share, nothing else;
- no include loop among the C files, no import loop among the Python
  modules of one directory, no call loop among the C files of one
  directory (a function of A called in B, and one of B called in A, or
  around a longer cycle); the ARM model's self-tests call the model,
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

from check import header  # noqa: E402
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
    """The include loop and cross-model tests; returns the includes, a
    C file -> the C files it includes."""
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
    return edges


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


def c_code(path):
    """The text of PATH without comments, strings and character constants."""
    text = open(os.path.join(TOP, path), errors='replace').read()
    return re.sub(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'',
                  lambda m: ' ' if m.group(0)[0] == '/' else '""', text, flags=re.S)


# a function's definition: not static, its body's brace on a line of its own
C_DEF = re.compile(r'^(?!static\b)[A-Za-z_][\w \t*]*?\b(\w+)'
                   r'\((?:[^;{}()]|\([^()]*\))*\)\s*\n\{', re.M)
C_CALL = re.compile(r'\b(\w+)\s*\(')
# a declaration's first line: at the start of a line, not a directive
C_DECL = re.compile(r'^[A-Za-z_][^\n]*', re.M)


def reach(edges, n, seen):
    """N and every node that EDGES lead to from it."""
    seen.add(n)
    for m in edges.get(n, ()):
        if m not in seen:
            reach(edges, m, seen)
    return seen


def calls(files, inc, tests):
    """No loop of calls among the .c files of a directory: B calls A when
    it calls a function that A defines (not static) and that B or a
    header it includes (INC) declares, so that a libc function that a
    file of kernel stubs defines is not one; a function passed by
    address is not a call."""
    c = [f for f in files if kind(f) == 'C']
    code = {f: c_code(f) for f in c}
    defs = {f: set(C_DEF.findall(code[f])) for f in c}
    loops, nedges = [], 0
    for d in sorted({os.path.dirname(f) for f in c if f.endswith('.c')}):
        here = [f for f in c if os.path.dirname(f) == d and f.endswith('.c')]
        owner = {n: f for f in here for n in defs[f]}
        edges, names = {}, {}
        for b in here:
            decl = ' '.join(' '.join(C_DECL.findall(code[h])) for h in reach(inc, b, set()))
            declared = set(C_CALL.findall(decl))
            for n in set(C_CALL.findall(code[b])) & declared - defs[b]:
                a = owner.get(n)
                if a:
                    edges.setdefault(b, set()).add(a)
                    names.setdefault((b, a), []).append(n)
        nedges += sum(map(len, edges.values()))
        loop = graph_has_loop(edges)
        if loop:
            loops.append(', '.join(f'{os.path.basename(x)} calls '
                                   f'{sorted(names[x, y])[0]}() of {os.path.basename(y)}'
                                   for x, y in zip(loop, loop[1:])) + f' (in {d}/)')
    tests.append((not loops, 'no_c_call_loop', '; '.join(loops) or
                  f'{nedges} calls between files of a directory, no loop'))


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


# What tools/ holds at its top: the entry points and what they share.
# A capability's runner or library goes in its folder instead.
TOOLS_ENTRY = ('run', 'check', 'setup', 'series', 'fresh-machine')
TOOLS_SHARED = ('README.md', 'check.py', 'lib-standin.sh', 'house.py', 'packages', 'packages-run',
                'packages.py', 'exec-trace', 'timing.py', 'lib.sh', 'lib-tree.sh',
                'lib-patches.sh', 'lib-ktap.sh', 'ktap.py', 'base-tree', 'bases',
                'summary.py', 'sentences.py', 'results.py', 'includes.py')


def readmes(files, tests):
    dirs = set()
    for d in {os.path.dirname(f) for f in files if kind(f)}:
        while d not in dirs:
            dirs.add(d)
            d = os.path.dirname(d)
    missing = sorted(d for d in dirs if os.path.join(d, 'README.md') not in files)
    tests.append((not missing, 'code_folders_have_readmes',
                  f'no README.md in {", ".join(missing)}' if missing else
                  f'{len(dirs)} folders that hold code, each with its README.md'))


CHECKS = 'tools/checks'
# "- `NAME` (default[, bases B...]): ..." or "- `NAME` (`--full`[, bases B...]): ..."
CHECK_ITEM = re.compile(r'^- `([0-9][^`]*)`(.*)', re.M)


def checks_readme(tests):
    """tools/checks/README.md lists the checks as tools/check.py runs them."""
    d = os.path.join(TOP, CHECKS)
    want = {}
    for f in sorted(os.listdir(d)):
        if f[:1].isdigit():
            s = os.path.join(d, f)
            bases = ' '.join(header('bases', s).split())
            want[f] = '(`--full`' if header('full', s) else '(default'
            want[f] += f', bases {bases})' if bases else ')'
    path = os.path.join(d, 'README.md')
    have = CHECK_ITEM.findall(open(path).read() if os.path.exists(path) else '')
    names = [n for n, _ in have]
    wrong = [f'no line for {n}' for n in want if n not in names]
    wrong += [f'{n}: no such check' if n not in want else
              f'{n}: "{rest.split(":")[0].strip()}", but the check runs {want[n]}'
              for n, rest in have if not rest.startswith(f' {want.get(n)}:')]
    if not wrong and names != list(want):
        wrong = ['the checks not once each, in the order of the files']
    tests.append((not wrong, 'checks_readme_lists_the_checks',
                  f'{CHECKS}/README.md: {"; ".join(wrong)}' if wrong else
                  f'{CHECKS}/README.md: {len(want)} checks, in order, each as its header runs it'))


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
    checks_readme(tests)
    tools_top(files, tests)
    sizes(files, tests)
    inc = includes(files, tests)
    imports(files, tests)
    calls(files, inc, tests)
    selftests_called_by_main_only(tests)
    return report(tests)


if __name__ == '__main__':
    sys.exit(main())
