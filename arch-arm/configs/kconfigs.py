#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The kernel configurations of arch-arm/configs/table, the one table that
arch-arm/coverage/run, arch-arm/model/run and the KUnit matrices read: the table, a
.config made from a row (the defconfig, scripts/kconfig/merge_config.sh -m
for each fragment, olddefconfig) and the settings of a row that did not
stick. Standard library only.

    kconfigs.py configure NAME SRC OUT [MAKE ARGUMENTS...]
        make OUT/.config from row NAME in the kernel tree SRC; exit 1,
        naming each setting, when one did not stick
    kconfigs.py stamp NAME
        a digest of row NAME and its fragments' text (not of the tree)
    kconfigs.py names USER
        the rows USER (coverage, model or kunit) reads, one a line
"""

import hashlib
import os
import re
import subprocess
import sys
from pathlib import Path

TOP = Path(__file__).resolve().parents[2]
TABLE = 'arch-arm/configs/table'
COVERAGE_KINDS = ('mm', 'scratch', 'kdma')
SETTING = re.compile(r'(CONFIG_[A-Za-z0-9_]+)=(.*)|# (CONFIG_[A-Za-z0-9_]+) is not set$')


class ConfigError(Exception):
    pass


class Config:
    """One row: NAME BASE COVERAGE MODEL FRAGMENTS NEEDS."""

    def __init__(self, path, fields):
        if len(fields) != 6:
            raise ConfigError(f'{path}: \'{fields[0]}\': {len(fields)} fields, not 6')
        self.name, self.base, self.coverage, self.model = fields[:4]
        frags = [] if fields[4] == '-' else fields[4].split(',')
        self.needs = [] if fields[5] == '-' else fields[5].split(',')
        if self.coverage not in ('-',) + COVERAGE_KINDS:
            raise ConfigError(f'{path}: \'{self.name}\': unknown coverage kind \'{self.coverage}\'')
        if self.model not in ('-', 'wb', 'wt'):
            raise ConfigError(f'{path}: \'{self.name}\': model is wb, wt or -, not \'{self.model}\'')
        if self.base == 'kunit' and (self.coverage != '-' or self.model != '-'):
            raise ConfigError(f'{path}: \'{self.name}\': a kunit row is not built from a defconfig')
        self.frags = [path.parent / f for f in frags]
        for f in self.frags:
            if not f.is_file():
                raise ConfigError(f'{path}: \'{self.name}\': no fragment {f}')

    def wanted(self):
        """Every setting the fragments ask for (the last one wins), then
        the needed symbols (=y): SYMBOL -> .config line."""
        want = {}
        for f in self.frags:
            for line in f.read_text().splitlines():
                m = SETTING.match(line)
                if m:
                    sym = m.group(1) or m.group(3)
                    want.pop(sym, None)
                    want[sym] = line if m.group(1) else f'# {sym} is not set'
        for sym in self.needs:
            want[f'CONFIG_{sym}'] = f'CONFIG_{sym}=y'
        return want

    def missing(self, dotconfig):
        """The wanted settings that DOTCONFIG (a .config's text) lacks."""
        have = set(dotconfig.splitlines())
        out = []
        for sym, line in self.wanted().items():
            if line.startswith('CONFIG_'):
                if line not in have:
                    out.append(line)
            elif any(h.startswith(sym + '=') for h in have):
                out.append(line)
        return out

    def kunit_args(self):
        """The fragments as kunit.py --kconfig_add arguments (kunit.py
        itself fails when one does not stick)."""
        args = []
        for line in self.wanted().values():
            m = SETTING.match(line)
            args.append(f'--kconfig_add={m.group(1)}={m.group(2)}' if m.group(1)
                        else f'--kconfig_add={m.group(3)}=n')
        return args

    def digest(self):
        h = hashlib.sha256(f'{self.base} {" ".join(self.needs)}\n'.encode())
        for f in self.frags:
            h.update(f.read_bytes())
        return h.hexdigest()[:16]


def read(top=TOP):
    path = Path(top) / TABLE
    try:
        lines = path.read_text().splitlines()
    except OSError as e:
        raise ConfigError(f'{path}: {e.strerror}') from None
    rows = [Config(path, line.split()) for line in lines
            if line.strip() and not line.startswith('#')]
    names = [c.name for c in rows]
    dup = {n for n in names if names.count(n) > 1}
    if dup:
        raise ConfigError(f'{path}: more than one row named {", ".join(sorted(dup))}')
    return rows


def get(name, top=TOP):
    for c in read(top):
        if c.name == name:
            return c
    raise ConfigError(f'no configuration \'{name}\' in {Path(top) / TABLE}')


def configure(c, src, out, make_args):
    """OUT/.config from row C in tree SRC; the settings that did not
    stick, or None when a make step failed."""
    os.makedirs(out, exist_ok=True)
    arch = next((a[5:] for a in make_args if a.startswith('ARCH=')), 'arm')

    def mk(*args):
        return subprocess.run(['make', '-C', str(src), f'O={out}', *make_args, *args],
                              stdout=subprocess.DEVNULL, check=False).returncode

    if mk(c.base):
        return None
    for f in c.frags:
        r = subprocess.run(['scripts/kconfig/merge_config.sh', '-m', '-O', str(out),
                            f'{out}/.config', str(f)], cwd=src,
                           env={**os.environ, 'ARCH': arch},
                           stdout=subprocess.DEVNULL, check=False)
        if r.returncode:
            return None
    if mk('olddefconfig'):
        return None
    return c.missing(Path(out, '.config').read_text())


def main(argv):
    if len(argv) >= 4 and argv[0] == 'configure':
        c = get(argv[1])
        missing = configure(c, argv[2], argv[3], argv[4:])
        if missing is None:
            raise ConfigError(f'{c.name}: make {c.base}, merge_config.sh or olddefconfig failed')
        if missing:
            raise ConfigError(f'{c.name}: settings that did not stick: {" ".join(missing)}')
    elif len(argv) == 2 and argv[0] == 'stamp':
        print(get(argv[1]).digest())
    elif len(argv) == 2 and argv[0] == 'names':
        key = {'coverage': lambda c: c.coverage != '-', 'model': lambda c: c.model != '-',
               'kunit': lambda c: c.base == 'kunit'}.get(argv[1])
        if key is None:
            raise ConfigError(f'names: coverage, model or kunit, not \'{argv[1]}\'')
        print('\n'.join(c.name for c in read() if key(c)))
    else:
        sys.stderr.write(__doc__)
        return 2
    return 0


if __name__ == '__main__':
    try:
        sys.exit(main(sys.argv[1:]))
    except ConfigError as e:
        sys.stderr.write(f'kconfigs.py: error: {e}\n')
        sys.exit(1)
