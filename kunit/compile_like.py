#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Compile a C file as a module of a configuration that was not built
with it.

  compile_like.py BUILD LIKE SRC OUT [FLAG...]

BUILD is a kernel build directory (O=), LIKE an object kbuild built
there (arch/arm/mm/dma-mapping.o): its recorded command line, with the
dependency file dropped, LIKE's source replaced by SRC, the output by
OUT and FLAGs (-DMODULE, the CONFIG_ defines SRC needs) added, is run
in BUILD. The object is what modpost would see of SRC built =m in that
configuration, without rebuilding the kernel. Exits non-zero, naming
the step, on any failure.
"""

import os
import re
import shlex
import subprocess
import sys


def die(msg):
    print(f'compile_like.py: {msg}', file=sys.stderr)
    sys.exit(1)


def recorded(build, like):
    """kbuild's command line for LIKE (savedcmd_ since 6.3, cmd_ before)."""
    d, f = os.path.split(like)
    path = os.path.join(build, d, f'.{f}.cmd')
    try:
        with open(path, encoding='utf-8', errors='replace') as fh:
            for line in fh:
                m = re.match(r'(?:saved)?cmd_\S* := (.*)', line.rstrip('\n'))
                if m:
                    return m.group(1)
    except OSError as e:
        die(f'no kbuild command for {like} in {build}: {e.strerror}')
    die(f'no command line in {path}')
    return None


def main(argv):
    if len(argv) < 5:
        die('usage: compile_like.py BUILD LIKE SRC OUT [FLAG...]')
    build, like, src, out = argv[1:5]
    flags = ' '.join(shlex.quote(f) for f in argv[5:])
    if not os.path.isfile(src):
        die(f'{src}: no such file')
    cmd = recorded(build, like)
    stem = re.escape(os.path.splitext(os.path.basename(like))[0])
    cmd, n_dep = re.subn(r' -Wp,-MMD,\S+', '', cmd, count=1)
    cmd, n_out = re.subn(r' -o \S+', lambda _: f' -o {shlex.quote(out)}', cmd, count=1)
    cmd, n_src = re.subn(rf' \S*/{stem}\.c *$',
                         lambda _: f' {flags} {shlex.quote(os.path.abspath(src))}', cmd,
                         count=1)
    if not (n_dep and n_out and n_src):
        die(f'{like}\'s command in {build} is not a C compile this script understands')
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    r = subprocess.run(cmd, shell=True, executable='/bin/bash', cwd=build, check=False)
    if r.returncode:
        die(f'compiling {src} like {like} in {build} failed (rc {r.returncode})')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
