#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The W=1 cross builds of tools/checks/70-other-arches.

The architectures' table, and a W=1 build of every file the
other-arches series touches, at the base and after the patch that
touches it, with Debian's cross compilers: one small defconfig per
architecture in its own O= directory, kept between runs; only the
touched objects are built (make FILE.o runs "prepare" once, on the
first run; later builds rerun the command Kbuild saved for the object,
as make would, without make's second of work per directory it checks).

    crossbuild.py dirs             the table's arch/ directories
    crossbuild.py touched PATCH... the architectures the patches touch
    crossbuild.py build PATCH...   the builds: env SRC (the worktree),
                                   WORK (the O= directories' parent),
                                   BASE_TAG, APPLIED (the series' last
                                   commit in SRC, empty if git am failed)

"build" prints "pass NAME", "fail NAME" or "skip NAME REASON" for each
architecture's test and "# ..." diagnostics; 70-other-arches turns them
into KTAP. It leaves SRC checked out at a commit of the series.
"""

import collections
import os
import re
import subprocess
import sys

import syntax

# arch, make variables, configuration; or arch, '-', why nothing builds it
ARCHES = [
    ('arc', 'CROSS_COMPILE=arc-linux-gnu-', 'defconfig'),
    # 7.x needs clang 17 or later: Debian 12's clang-19
    ('hexagon', 'LLVM=-19', 'defconfig'),
    ('m68k', 'CROSS_COMPILE=m68k-linux-gnu-', 'defconfig'),
    ('mips', 'CROSS_COMPILE=mips-linux-gnu-', 'malta_defconfig'),
    ('openrisc', 'CROSS_COMPILE=or1k-elf-', 'defconfig'),
    ('powerpc', 'CROSS_COMPILE=powerpc-linux-gnu-', 'mpc885_ads_defconfig'),
    ('sh', 'CROSS_COMPILE=sh4-linux-gnu-', 'rts7751r2dplus_defconfig'),
    # The ESP8266's compiler (gcc-xtensa-lx106): it compiles the kernel's
    # C for the dc233c of virt_defconfig (HIGHMEM, MMU: pci-dma.c's kmap
    # path) with every warning option, but for its own core's ABI, so
    # the objects are a compile check, not a kernel that links or boots.
    ('xtensa', 'CROSS_COMPILE=xtensa-lx106-elf-', 'virt_defconfig'),
    # no compiler: syntax.py preprocesses and syntax-checks the touched files
    ('microblaze', '-', 'Debian 12 packages no microblaze compiler'),
    ('nios2', '-', 'Debian 12 packages no nios2 compiler'),
]
TABLE = {a: (v, c) for a, v, c in ARCHES}
# Further configurations an architecture's files are built in, each in
# its own O= directory: arch -> (O= name, defconfig, options turned on).
# ColdFire without the MMU, copyback: the path of patch 2 that calls
# mcf_cache_push() (CACHE_PUSH), which no MMU configuration compiles.
EXTRA = {
    'm68k': [('O-m68k-m5407c3-cb', 'm5407c3_defconfig', ['CACHE_COPYBACK'])],
}


def git(src, *args):
    return subprocess.run(['git', '-C', src] + list(args), check=True,
                          capture_output=True, text=True).stdout


def touched(patches):
    """The architectures the patches touch, in the order of the table."""
    texts = [open(p, errors='surrogateescape').read() for p in patches]
    return [a for a, _, _ in ARCHES
            if any(re.search(rf'^\+\+\+ b/arch/{a}/', t, re.M) for t in texts)]


def lines(data):
    return data.decode(errors='surrogateescape').split('\n')[:-1] if data else []


def configure(src, o, arch, make_vars, defconfig, enable, tag):
    """O's configuration: DEFCONFIG for ARCH with MAKE_VARS, the options of
    ENABLE turned on; made again only when this (or the base commit TAG)
    changed since the last time, which O/.check-stamp records. None when
    it is ready, else the lines that say why not."""
    stamp = ' '.join([defconfig, *enable, *make_vars, git(src, 'rev-parse', tag).strip()])
    if syntax.stamped(o, stamp):
        return None
    mk = ['make', '-s', '-C', src, f'O={o}', f'ARCH={arch}'] + make_vars
    r = subprocess.run(mk + [defconfig], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if not r.returncode and enable:
        subprocess.run([os.path.join(src, 'scripts', 'config'), '--file',
                        os.path.join(o, '.config')] +
                       [x for opt in enable for x in ('--enable', opt)], check=True)
        r = subprocess.run(mk + ['olddefconfig'], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT)
    if r.returncode:
        return lines(r.stdout)
    conf = open(os.path.join(o, '.config')).read()
    lost = [opt for opt in enable if f'CONFIG_{opt}=y\n' not in conf]
    if lost:
        return [f'{defconfig}: CONFIG_{opt} did not stay set' for opt in lost]
    with open(os.path.join(o, '.check-stamp'), 'w') as fh:
        fh.write(stamp + '\n')
    return None


def build(a, f, env, warnings):
    """Compile F of SRC W=1 in A's O= directory, and in those of EXTRA;
    add its warnings, without line numbers, to WARNINGS. False if it did
    not compile."""
    src = env['SRC']
    vars_, cfg = TABLE.get(a, ('', ''))
    if vars_ == '-':
        return gate(a, f, src, os.path.join(env['WORK'], 'O-' + a), env, warnings)
    ok = build_in(a, f, env, warnings, 'O-' + a, cfg, [])
    for o_name, defconfig, enable in EXTRA.get(a, []):
        more = []
        ok = build_in(a, f, env, more, o_name, defconfig, enable) and ok
        warnings.extend(f'{defconfig}: {w}' for w in more)
    return ok


def build_in(a, f, env, warnings, o_name, cfg, enable):
    """build()'s compile of F in the O= directory O_NAME, configured
    with CFG and the options of ENABLE."""
    src, o = env['SRC'], os.path.join(env['WORK'], o_name)
    vars_ = TABLE[a][0].split()
    obj = f[:-2] + '.o'
    err = configure(src, o, a, vars_, cfg, enable, env['BASE_TAG'])
    if err:
        for line in err:
            print('# ' + line)
        return False
    if os.path.exists(os.path.join(o, obj)):
        os.remove(os.path.join(o, obj))
    cmdf = os.path.join(o, os.path.dirname(f), '.' + os.path.basename(obj) + '.cmd')
    if os.path.isfile(cmdf):
        cmd = ''.join(l.split(' := ', 1)[1].replace('$$', '$')
                      for l in open(cmdf) if re.match(r'savedcmd_\S* := ', l))
        r = subprocess.run(['bash', '-euo', 'pipefail', '-c', cmd], cwd=o,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    else:
        r = subprocess.run(['make', '-s', '-j2', '-C', src, f'O={o}', f'ARCH={a}'] + vars_ +
                           ['W=1', obj], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    log = lines(r.stdout)
    if not os.path.exists(os.path.join(o, obj)):
        print(f'# {a} ({cfg}): {f} did not compile:')
        for line in [l for l in log if re.search('error|Error', l)][:5]:
            print('#   ' + line)
        return False
    # Warnings of the compiler, not the "<stdin>" ones of checksyscalls.sh,
    # which runs once, in whichever build prepares the O= directory.
    warnings.extend(re.sub(r':[0-9]+:[0-9]+:', ':', l, count=1) for l in log
                    if 'warning:' in l and not l.startswith('<stdin>:'))
    return True


def gate(a, f, src, o, env, warnings):
    """syntax.py's preprocess and syntax check of F, for an architecture
    without a compiler; True when F has no error. Its warnings go to
    WARNINGS, as a build's do."""
    err = syntax.prepare(src, o, a, f'{syntax.GATE[a][0]} host gcc ' +
                         git(src, 'rev-parse', env['BASE_TAG']).strip())
    if err:
        print(f'# {a}: {err}')
        return False
    ok, errors = syntax.check(src, o, a, f, warnings)
    if not ok:
        print(f'# {a}: {f} has errors (host gcc, preprocessed against arch/{a}/):')
        for line in errors:
            print('#   ' + line)
    return ok


def gated(a):
    """A built architecture, or one syntax.py checks."""
    return TABLE[a][0] != '-' or a in syntax.GATE


def build_all(patches, env):
    """Every touched file at the base, then after the patch that touches it.
    The patches touch .c files only (and .rst files, which
    74-other-arches-doc checks, and the kernel-doc of dma-map-ops.h);
    anything else fails the architecture's test, as this check would not
    rebuild what includes it."""
    src, tag, applied = env['SRC'], env['BASE_TAG'], env['APPLIED']
    arches = touched(patches)
    warn = {(a, t): [] for a in arches for t in ('base', 'patched')}
    bad = set()
    if applied:
        n = len(patches)
        git(src, 'checkout', '-q', '--detach', tag)
        for a in arches:
            if not gated(a):
                continue
            for f in git(src, 'diff', '--name-only', tag, applied, '--', f'arch/{a}/').split():
                if not build(a, f, env, warn[a, 'base']):
                    bad.add(a)
        for i in range(1, n + 1):
            c = git(src, 'rev-parse', f'{applied}~{n - i}').strip()
            git(src, 'checkout', '-q', '--detach', c)
            for f in git(src, 'diff-tree', '--no-commit-id', '--name-only', '-r', c).split():
                a = f.removeprefix('arch/').split('/')[0]
                if re.fullmatch(r'Documentation/.*\.rst', f):
                    continue
                if re.fullmatch(r'include/linux/dma-map-ops\.h', f):
                    # patch 12's kernel-doc; every kernel of
                    # 80-kunit-arches compiles the header
                    continue
                if re.fullmatch(rf'arch/{a}/include/asm/[\w-]+\.h', f) and any(
                        g.startswith(f'arch/{a}/') and g.endswith('.c') for g in
                        git(src, 'diff-tree', '--no-commit-id', '--name-only', '-r',
                            c).split()):
                    # built through the .c files of the same patch
                    continue
                if not re.fullmatch(r'arch/.*\.c', f):
                    print(f'# patch {i} touches {f}, which this check does not build')
                    bad.add(a)
                    continue
                if a in TABLE and not gated(a):
                    continue
                if not build(a, f, env, warn.setdefault((a, 'patched'), [])):
                    bad.add(a)
    for a in arches:
        vars_, cfg = TABLE[a]
        new = sorted((collections.Counter(warn[a, 'patched']) -
                      collections.Counter(warn[a, 'base'])).elements())
        if vars_ == '-' and a in syntax.GATE:
            print(f'# {a}: no compiler ({cfg}): preprocessed and syntax-checked with the '
                  f'host gcc against {syntax.GATE[a][0]}, W=1 warnings: '
                  f'{len(warn[a, "base"])} at the base, {len(new)} new')
            for line in new:
                print('#   ' + line)
            ok = applied and a not in bad and not new
            print(f'{"pass" if ok else "fail"} syntax_{a}')
            continue
        if vars_ == '-':
            print(f'skip build_w1_{a} {cfg}')
            continue
        print(f'# {a} ({cfg}): {len(warn[a, "base"])} warnings at the base, '
              f'{len([l for l in new if l])} new')
        for line in new:
            print('#   ' + line)
        ok = applied and a not in bad and not new
        print(f'{"pass" if ok else "fail"} build_w1_{a}')


def main():
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == 'dirs':
        for a, _, _ in ARCHES:
            print(f'/arch/{a}/')
    elif cmd == 'touched':
        for a in touched(args):
            print(a)
    elif cmd == 'build':
        build_all(args, os.environ)
    else:
        raise SystemExit(f'crossbuild.py: unknown command {cmd}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
