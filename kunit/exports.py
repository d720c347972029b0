#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Which symbols an object needs that no module may use.

  exports.py TREE SYMVERS NM OBJ...

For each OBJ (the KUnit suite compiled for one configuration), the
symbols `NM -u` lists that nothing exports to modules: neither
Module.symvers SYMVERS (of a kernel built with modules: what modpost
found exported there, macro-made names included) nor an
EXPORT_SYMBOL*() of that name in TREE (outside arch/, or in arch/arm/:
the exports of the configurations that kernel was not), also one that
a macro pastes from its arguments. SYMVERS "-": the tree's alone.
modpost refuses such a module ("undefined!"), as it refused the suite
that called dma_capable(), which reads min_low_pfn on 32-bit ARM without
LPAE. A symbol that a header's inline code reads only where the suite is
built in (BUILTIN_ONLY: runqueues, for migrate_disable()) is allowed in
an object built in, one that needs no __this_module. Prints KTAP, one
test per object; fails on any such symbol.
"""

import os
import re
import subprocess
import sys

EXPORT = re.compile(rb'EXPORT_SYMBOL(?:_GPL)?(?:_NS(?:_GPL)?)?\(\s*(\w+)')
# Emitted by kbuild for every module, not by the source.
IMPLICIT = {'__this_module'}
# The sanitizers' entry points, which the compiler calls and mm/kasan/
# (and the other runtimes) export through macros that paste the names.
INSTRUMENTATION = ('__asan_', '__hwasan_', '__tsan_', '__ubsan_', '__sanitizer_')
# What a header's inline code reads where the suite is built in, and a
# module gets from an exported function instead: 7.x's sched.h makes
# migrate_disable()/migrate_enable() inline (this_rq_pinned(), the
# runqueues variable) but under MODULE, where they are exported calls.
# Allowed only in an object built in: one that needs no __this_module.
BUILTIN_ONLY = {'runqueues'}


# A macro whose body exports a name pasted from its parameters, and the
# calls of that macro in the same file: get_random_u32 (random.c's
# DEFINE_BATCHED_ENTROPY), param_ops_uint (params.c's STANDARD_PARAM_DEF).
MACRO = re.compile(rb'#define[ \t]+(\w+)\(([^)]*)\)((?:[^\n]*\\\n)*[^\n]*)')
PASTED = re.compile(rb'EXPORT_SYMBOL(?:_GPL)?(?:_NS(?:_GPL)?)?\(\s*([\w\s#]*##[\w\s#]*)')


def pasted(text):
    """The names that the macros of TEXT export for their calls in TEXT."""
    out = set()
    for m in MACRO.finditer(text):
        params = [p.strip() for p in m.group(2).split(b',')]
        for e in PASTED.finditer(m.group(3)):
            parts = [p.strip() for p in e.group(1).split(b'##')]
            for call in re.finditer(rb'\b' + m.group(1) + rb'\(([^()]*)\)', text):
                args = [a.strip() for a in call.group(1).split(b',')]
                if len(args) != len(params):
                    continue
                name = b''.join(args[params.index(p)] if p in params else p
                                for p in parts)
                if re.fullmatch(rb'\w+', name):
                    out.add(name.decode())
    return out


def exported(tree):
    names = set()
    for top, dirs, files in os.walk(tree):
        rel = os.path.relpath(top, tree)
        if rel == 'arch':
            dirs[:] = [d for d in dirs if d == 'arm']
        elif rel.split(os.sep)[0] in ('.git', 'tools', 'Documentation', 'scripts'):
            dirs[:] = []
            continue
        for f in files:
            if f.endswith(('.c', '.S', '.h')):
                with open(os.path.join(top, f), 'rb') as fh:
                    text = fh.read()
                names.update(m.decode() for m in EXPORT.findall(text))
                if b'##' in text:
                    names.update(pasted(text))
    return names


def undefined(nm, obj):
    r = subprocess.run([nm, '-u', obj], stdout=subprocess.PIPE, text=True, check=True)
    return [line.split()[-1] for line in r.stdout.splitlines() if line.strip()]


def label(obj):
    """A short test name for OBJ: its kernel's build directory, or the
    model's configuration directory, and the file."""
    parts = os.path.abspath(obj).split(os.sep)
    if parts[-3:-1] == ['kernel', 'dma']:
        parts = parts[-4:-3] + parts[-1:]
    else:
        parts = parts[-2:]
    return re.sub(r'[^A-Za-z0-9_.]', '_', '_'.join(parts))


def main(argv):
    if len(argv) < 5:
        sys.exit('usage: exports.py TREE SYMVERS NM OBJ...')
    tree, symvers, nm, objs = argv[1], argv[2], argv[3], argv[4:]
    names = exported(tree)
    if symvers != '-':
        with open(symvers, encoding='utf-8') as f:
            names.update(line.split('\t')[1] for line in f if line.count('\t') >= 2)
    print('KTAP version 1')
    print(f'1..{len(objs)}')
    failed = 0
    for i, obj in enumerate(objs, 1):
        need = undefined(nm, obj)
        builtin = '__this_module' not in need
        bad = [s for s in need if s not in names and
               s not in IMPLICIT and not s.startswith(INSTRUMENTATION) and
               not (builtin and s in BUILTIN_ONLY)]
        name = label(obj)
        if bad:
            failed += 1
            print(f'# {obj}: not exported: {" ".join(bad)}')
            print(f'not ok {i} {name}')
        else:
            print(f'ok {i} {name}')
    print(f'{len(objs) - failed} passed, {failed} failed, 0 skipped')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
