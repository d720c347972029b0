# SPDX-License-Identifier: GPL-2.0
"""What every part of arch-arm/model/run shares: the settings tools/lib.sh
hands over, the KTAP log, reading cachemodel's result lines, and sed-like
edits of a source file for the mutations.

The log is numbered only when printed, after the plan line, because the
number of tests is known only at the end.
"""

import os
import re
import subprocess
import sys
import time


def die(msg):
    print(f'model: error: {msg}', file=sys.stderr)
    sys.exit(1)


class Env:
    """arch-arm/model/run's settings: exported by the shell wrapper from lib.sh."""

    KEYS = ('TOP', 'BASE', 'BASE_TAG', 'BASE_VERSION', 'CACHE_DIR',
            'RESULTS_DIR', 'PATCH_DIR', 'BASE_TREE', 'MODEL_BASE',
            'CROSS_COMPILE')

    def __init__(self):
        for k in self.KEYS:
            if k not in os.environ:
                die(f'{k} is not set: run arch-arm/model/run, not this file')
            setattr(self, k.lower(), os.environ[k])
        self.jobs = int(os.environ.get('MODEL_JOBS', '2'))
        self.model_dir = f'{self.cache_dir}/model'
        wt = f'{self.cache_dir}/worktrees'
        # arch-arm/coverage/run's worktree and O= directories (kbuild.build_all)
        self.base_src = f'{wt}/coverage'
        self.patched_src = f'{wt}/model-patched'
        self.mut_src = f'{wt}/model-mutation'
        self.obj = f'{self.model_dir}/obj'
        self.out = f'{self.top}/arch-arm/out/model'
        self.cm = f'{self.out}/cachemodel'
        self.selftest_elf = f'{self.out}/selftest.elf'
        self.stubs = f'{self.out}/stubs.o'

    def build(self, cfg, *path):
        """A file of configuration CFG's O= directory (arch-arm/coverage/run's)."""
        return os.path.join(self.cache_dir, 'build', f'coverage-{cfg}', *path)


class Log:
    """The KTAP lines and comments, in the order the tests ran."""

    def __init__(self):
        self.lines = []

    def result(self, ok, name):
        self.lines.append(f'{"ok" if ok else "not ok"} {name}')
        return ok

    def comment(self, text):
        self.lines.append(f'# {text}')

    def tests(self):
        return [l for l in self.lines if l.startswith(('ok ', 'not ok '))]

    def numbered(self):
        n = 0
        for line in self.lines:
            if line.startswith(('ok ', 'not ok ')):
                n += 1
                ok, _, name = line.partition('ok ')
                line = f'{ok}ok {n} {name}'
            yield line


class Timer:
    """Seconds per phase, for the closing comment (as whole seconds)."""

    def __init__(self):
        self.t0 = int(time.time())
        self.t = self.t0

    def lap(self):
        now = int(time.time())
        d, self.t = now - self.t, now
        return d

    def start(self):
        self.t = int(time.time())

    def total(self):
        return int(time.time()) - self.t0


def field(name, line):
    """Value of NAME=... in a result line, '' when it has none."""
    s = f' {line} '
    i = s.find(f' {name}=')
    if i < 0:
        return ''
    return s[i + len(name) + 2:].split(' ', 1)[0]


def num(name, line):
    """field() as an integer, None when missing or not a number: a test
    on it then fails, as the shell's [ -eq ] did."""
    try:
        return int(field(name, line))
    except ValueError:
        return None


def nums(line, *names):
    """num() of each name, or None when any is missing."""
    v = [num(n, line) for n in names]
    return None if None in v else v


def rest(line):
    """A stored result line without its "TREE BACKEND CONFIG " prefix."""
    if ' ' not in line:
        return line
    return ' '.join(line.split(' ')[3:])


def run(cmd, **kw):
    """A command's stdout and stderr, as the shell's $(cmd 2>&1): the
    trailing newlines dropped. Its exit status is not an error here: a
    failed run shows in what it printed."""
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, errors='replace', check=False, **kw)
    return r.stdout.rstrip('\n')


def git(tree, *args, check=True):
    r = subprocess.run(['git', '-C', tree, *args], stdout=subprocess.PIPE,
                       text=True, check=False)
    if check and r.returncode:
        die(f'git -C {tree} {" ".join(args)} failed')
    return r.stdout


def sed_edit(path, ops, start=None, end=None):
    """Edit PATH as sed -E would with "/START/,/END/ { OPS }" (no range
    when START is None). OPS: ('s', regex, replacement), first match per
    line, or ('d', regex). Returns whether the file changed: a mutation
    that finds nothing must stop the run, not pass unnoticed."""
    with open(path, encoding='utf-8') as f:
        old = f.read()
    lines = old.split('\n')
    tail = lines.pop() if old.endswith('\n') else None
    out, active = [], False
    for line in lines:
        if start is None:
            inside = True
        elif active:
            inside = True
            active = not re.search(end, line)
        else:
            inside = active = bool(re.search(start, line))
        if inside:
            line = _sed_ops(line, ops)
            if line is None:
                continue
        out.append(line)
    new = '\n'.join(out) + ('\n' if tail is not None else '')
    if new == old:
        return False
    with open(path, 'w', encoding='utf-8') as f:
        f.write(new)
    return True


def _sed_ops(line, ops):
    for op in ops:
        if op[0] == 'd':
            if re.search(op[1], line):
                return None
        else:
            line = re.sub(op[1], op[2], line, count=1)
    return line
