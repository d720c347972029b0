#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check that tools/setup installs every package whose commands ran.

Reads the execve() traces that tools/check recorded (tools/exec-trace, one file
per check) and maps every program that was executed to the Debian package
that owns it (dpkg -S). A package passes when tools/packages lists it, or
a package that it lists depends on it (Depends, Pre-Depends, recursively),
or Debian installs it on every system (Essential: yes, Priority:
required). Programs under the project's checkout, the cache directory or
/tmp are our own builds: for those that are scripts the interpreter named
by their #! line is checked instead. A PACKAGE=VERSION line of the list
must be installed at that version (the base trees' linux-source).

Usage: packages.py [--subset LIST CHECK] PACKAGE_LIST TRACE_DIR OWN_DIR...
Prints KTAP, one test per package, and the closing summary line.

--subset LIST CHECK: also check the trace of check CHECK against LIST, a
list of names of PACKAGE_LIST's packages (tools/packages-run, what
tools/setup --run installs for tools/run): those tests are named
subset_*, and every name LIST gives must be one of PACKAGE_LIST's.
"""

import fnmatch
import os
import re
import subprocess
import sys

import ktap

EXECVE = re.compile(r'^\d+\s+execve\("((?:[^"\\]|\\.)*)",')
USRMERGE = (('/usr/bin/', '/bin/'), ('/usr/sbin/', '/sbin/'),
            ('/usr/lib/', '/lib/'))


def read_list(path):
    with open(path, encoding='utf-8') as f:
        return [line.split('#')[0].strip() for line in f
                if line.split('#')[0].strip()]


def pins(listed):
    """PACKAGE -> VERSION of the PACKAGE=VERSION lines."""
    return dict(p.split('=', 1) for p in listed if '=' in p)


def family(name, db):
    """NAME, or for a family (a name with '*', tools/setup installs its
    newest) the newest installed package it matches."""
    if '*' not in name:
        return name
    members = sorted((p for p in db if fnmatch.fnmatchcase(p, name)),
                     key=lambda p: [int(x) if x.isdigit() else x
                                    for x in re.split(r'(\d+)', p)])
    return members[-1] if members else name


def executed(trace_dir, only=None):
    """Every path a traced process executed, with the check that ran it
    (of check ONLY's trace alone, if given)."""
    progs = {}
    for name in sorted(os.listdir(trace_dir)):
        if only is not None and name != only:
            continue
        with open(os.path.join(trace_dir, name), encoding='utf-8',
                  errors='replace') as f:
            for line in f:
                m = EXECVE.match(line)
                if m:
                    progs.setdefault(m.group(1), name)
    return progs


def shebang(path):
    """The interpreter a script names on its #! line, or None."""
    try:
        with open(path, 'rb') as f:
            first = f.readline(256)
    except OSError:
        return None
    if not first.startswith(b'#!'):
        return None
    # "#!/usr/bin/env python3": env execve()s python3, which is traced.
    words = first[2:].decode('utf-8', 'replace').split()
    return words[0] if words else None


def candidates(path):
    out = []
    for p in (path, os.path.realpath(path)):
        out.append(p)
        for usr, root in USRMERGE:
            if p.startswith(usr):
                out.append(root + p[len(usr):])
            elif p.startswith(root):
                out.append(usr + p[len(root):])
    return out


def owners(paths):
    """{path: package} for every path dpkg knows, tried in order."""
    allp = sorted({c for p in paths for c in candidates(p)})
    res = subprocess.run(['dpkg-query', '-S'] + allp, capture_output=True,
                         text=True, check=False)
    found = {}
    for line in res.stdout.splitlines():
        if line.startswith('diversion ') or ': ' not in line:
            continue
        pkgs, path = line.split(': ', 1)
        found[path] = pkgs.split(',')[0].strip().split(':')[0]
    return {p: next((found[c] for c in candidates(p) if c in found), None)
            for p in paths}


def installed():
    fmt = '${Package}\t${Essential}\t${Priority}\t${Depends}\t' \
          '${Pre-Depends}\t${Provides}\t${db:Status-Abbrev}\t${Version}\n'
    out = subprocess.run(['dpkg-query', '-W', '-f', fmt], capture_output=True,
                         text=True, check=True).stdout
    db = {}
    provides = {}
    versions = {}
    for line in out.splitlines():
        pkg, ess, prio, dep, pre, prov, status, ver = line.split('\t')
        if not status.startswith('ii'):
            continue
        db[pkg] = (ess == 'yes' or prio == 'required', f'{pre}, {dep}')
        versions[pkg] = ver
        for p in prov.split(','):
            if p.strip():
                provides.setdefault(p.split()[0].split(':')[0], pkg)
    return db, provides, versions


def closure(listed, db, provides):
    """The listed packages and everything they depend on, recursively."""
    seen = set()
    todo = list(listed)
    while todo:
        pkg = todo.pop()
        if pkg in seen or pkg not in db:
            continue
        seen.add(pkg)
        for group in db[pkg][1].split(','):
            # "a | b": apt installs the first alternative it can.
            for alt in group.split('|'):
                name = alt.split()[0].split(':')[0] if alt.strip() else ''
                name = name if name in db else provides.get(name, '')
                if name:
                    todo.append(name)
                    break
    return seen


def check(lines, progs, own, db, provides, versions, listname, prefix=''):
    """Tests of PROGS (path -> check) against the package list LINES."""
    pinned = pins(lines)
    # A family (linux-source-7.*) stands for its newest installed member.
    listed = [family(p.split('=', 1)[0], db) for p in lines]

    # Our own builds and scripts stand for the interpreter they name.
    system = {}
    for path, chk in progs.items():
        if any(os.path.realpath(path).startswith(d) for d in own):
            interp = shebang(path)
            if interp:
                system.setdefault(interp, chk)
        else:
            system.setdefault(path, chk)

    missing = [p for p in listed if p not in db]
    allowed = closure(listed, db, provides)
    by_pkg = {}
    stray = []
    for path, pkg in sorted(owners(system).items()):
        if pkg is None:
            stray.append(path)
        else:
            by_pkg.setdefault(pkg, []).append(path)

    tests = []
    for pkg in missing:
        tests.append((False, f'{prefix}listed_{pkg}',
                      f'{pkg} is in {listname} but not installed'))
    for pkg, ver in sorted(pinned.items()):
        if pkg in db:
            ok = versions[pkg] == ver
            tests.append((ok, f'{prefix}version_{pkg}',
                          f'{pkg}: {versions[pkg]} installed, as {listname} pins' if ok
                          else f'{pkg}: {versions[pkg]} installed, {listname} pins '
                          f'{ver}: run tools/setup'))
    for pkg in sorted(by_pkg):
        cmds = ' '.join(sorted({os.path.basename(p) for p in by_pkg[pkg]}))
        if pkg in listed:
            why = f'{pkg}: listed; ran {cmds}'
        elif pkg in allowed:
            why = f'{pkg}: a dependency of a listed package; ran {cmds}'
        elif db.get(pkg, (False,))[0]:
            why = f'{pkg}: on every Debian system; ran {cmds}'
        else:
            tests.append((False, f'{prefix}package_{pkg}',
                          f'{pkg} is not in {listname}, nor a dependency '
                          f'of one, but ran {" ".join(by_pkg[pkg])} '
                          f'(first in {system[by_pkg[pkg][0]]})'))
            continue
        tests.append((True, f'{prefix}package_{pkg}', why))
    for path in stray:
        tests.append((False, f'{prefix}unpackaged_{os.path.basename(path)}',
                      f'{path} is from no Debian package '
                      f'(first in {system[path]})'))
    return tests


def main(argv):
    subset = None
    if len(argv) > 1 and argv[1] == '--subset':
        if len(argv) < 4:
            sys.exit('packages.py: --subset needs LIST and CHECK')
        subset = argv[2:4]
        argv = argv[:1] + argv[4:]
    if len(argv) < 4:
        sys.exit('usage: packages.py [--subset LIST CHECK] PACKAGE_LIST TRACE_DIR OWN_DIR...')
    lines = read_list(argv[1])
    own = [os.path.realpath(d) + '/' for d in argv[3:]] + ['/tmp/']
    db, provides, versions = installed()
    tests = check(lines, executed(argv[2]), own, db, provides, versions,
                  os.path.relpath(argv[1], os.path.dirname(os.path.dirname(argv[1]))))
    if subset:
        path, chk = subset
        name = os.path.relpath(path, os.path.dirname(os.path.dirname(path)))
        byname = {p.split('=', 1)[0]: p for p in lines}
        names = read_list(path)
        unknown = [n for n in names if n not in byname]
        tests.append((not unknown, 'subset_names_are_listed',
                      f'{name}: ' + (f'not in {argv[1]}: {" ".join(unknown)}' if unknown
                                     else f'{len(names)} names, each in the full list')))
        progs = executed(argv[2], chk)
        if not progs:
            tests.append((False, 'subset_trace',
                          f'no execve() trace of {chk} (did it run?)'))
        else:
            tests += check([byname[n] for n in names if n in byname], progs, own,
                           db, provides, versions, name, 'subset_')
    return ktap.report(tests)


if __name__ == '__main__':
    sys.exit(main(sys.argv))
