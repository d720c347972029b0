# SPDX-License-Identifier: GPL-2.0
"""The compile gate of the architectures Debian packages no compiler for
(crossbuild.py's table names them with a defconfig and "-" for make
variables): each touched file is preprocessed by the host gcc against the
architecture's own headers and its defconfig's .config, and the result
is syntax-checked (gcc -fsyntax-only -m32, ILP32 as those architectures
are, with the warning options of a W=1 kernel build, read from
scripts/Makefile.warn: -Wall, -Wextra and the rest of the default set,
its -Werror= ones, so that a call of an undeclared function fails as it
does in Kbuild, and the W=1 set). Only errors and warnings located in
the touched file count: the host compiler does not know the
architecture's registers ("current") and the host's structure layouts
trip static assertions elsewhere in the headers. A warning counts as in
a W=1 build: crossbuild.py fails the gate on any warning in a touched
file that the file did not have at the base (a pointer passed for an
unsigned long, -Wint-conversion, is one).

What the O= directory needs beyond "make defconfig" and "make
asm-generic", which run with the host gcc: include/generated/timeconst.h
(bc, as Kbuild makes it), and include/generated/bounds.h and (since
7.x) rq-offsets.h, which Kbuild makes by compiling kernel/bounds.c and
kernel/sched/rq-offsets.c with the architecture's compiler: here they
hold fixed values, which change layouts only, not syntax.
"""

import os
import re
import shutil
import subprocess


class GateError(Exception):
    """The gate cannot be set up for this configuration."""


def microblaze_flags(src, conf):
    return ['-D__MICROBLAZEEL__'] if conf.get('CONFIG_CPU_LITTLE_ENDIAN') == 'y' else []


# arch -> (defconfig, its extra preprocessor flags: function of the tree
# and the .config)
GATE = {
    'microblaze': ('mmu_defconfig', microblaze_flags),
    'nios2': ('3c120_defconfig', lambda src, conf: []),
}


BOUNDS = """\
/* not generated: syntax.py's stand-in for kernel/bounds.c's output */
#define NR_PAGEFLAGS 24
#define MAX_NR_ZONES 2
#define NR_CPUS_BITS 1
#define SPINLOCK_SIZE 0
#define LRU_GEN_WIDTH 0
#define __LRU_REFS_WIDTH 0
"""

RQ_OFFSETS = """\
/* not generated: syntax.py's stand-in for kernel/sched/rq-offsets.c's */
#define RQ_nr_pinned 0
"""


def stamped(o, stamp):
    """True when O= directory O was made for STAMP (O/.check-stamp);
    otherwise O is removed, to be made again, and False."""
    try:
        if open(os.path.join(o, '.check-stamp')).read().rstrip('\n') == stamp:
            return True
    except OSError:
        pass
    shutil.rmtree(o, ignore_errors=True)
    return False


def prepare(src, o, arch, stamp):
    """The O= directory of ARCH at SRC's tree; None or what failed."""
    cfg, _ = GATE[arch]
    if stamped(o, stamp):
        return None
    for target in (cfg, 'asm-generic'):
        r = subprocess.run(['make', '-s', '-C', src, f'O={o}', f'ARCH={arch}', target],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                           errors='replace', check=False)
        if r.returncode:
            return f'make {target}: ' + ' '.join(r.stdout.split('\n')[-3:])
    hz = dotconfig(o).get('CONFIG_HZ', '100')
    gen = os.path.join(o, 'include', 'generated')
    os.makedirs(gen, exist_ok=True)
    r = subprocess.run(['bc', '-q', os.path.join(src, 'kernel/time/timeconst.bc')],
                       input=f'{hz}\n', stdout=subprocess.PIPE, text=True, check=False)
    if r.returncode:
        return 'bc kernel/time/timeconst.bc failed'
    with open(os.path.join(gen, 'timeconst.h'), 'w') as f:
        f.write(r.stdout)
    with open(os.path.join(gen, 'bounds.h'), 'w') as f:
        f.write(BOUNDS)
    with open(os.path.join(gen, 'rq-offsets.h'), 'w') as f:
        f.write(RQ_OFFSETS)
    with open(os.path.join(o, '.check-stamp'), 'w') as f:
        f.write(stamp + '\n')
    return None


def dotconfig(o):
    out = {}
    for line in open(os.path.join(o, '.config')):
        m = re.match(r'(CONFIG_\w+)=(.*)', line)
        if m:
            out[m.group(1)] = m.group(2).strip('"')
    return out


def werror(src):
    """The warnings every kernel build makes errors (an undeclared
    function, a wrong pointer type), from scripts/Makefile.extrawarn."""
    for name in ('Makefile.extrawarn', 'Makefile.warn'):    # 6.12, 7.x
        path = os.path.join(src, 'scripts', name)
        if os.path.exists(path):
            with open(path) as fh:
                return re.findall(r'^KBUILD_CFLAGS \+= (?:\$\(call cc-option,)?(-Werror=[\w-]+)',
                                  fh.read(), re.M)
    raise GateError(f'{src}: no scripts/Makefile.extrawarn or Makefile.warn')


def warn_flags(src):
    """The warning options of a gcc W=1 build, from scripts/Makefile.warn
    (7.x): its default set and its W=1 set, not what it adds for clang,
    W=2 or W=3, nor the -Wno- options a build without W=1 adds; options
    behind $(call cc-option) only if the host gcc takes them."""
    path = os.path.join(src, 'scripts', 'Makefile.warn')
    if not os.path.exists(path):
        return []
    flags, stack = [], []
    for line in open(path):
        line = line.strip()
        m = re.match(r'(ifdef|ifndef|ifeq|ifneq)\b(.*)', line)
        if m:
            w1 = 'findstring 1,' in m.group(2)
            stack.append(w1 or m.group(2).strip() == 'CONFIG_CC_IS_GCC')
        elif line == 'else' and stack:
            stack[-1] = not stack[-1]
        elif line == 'endif' and stack:
            stack.pop()
        elif all(stack) and re.match(r'KBUILD_C(PP)?FLAGS \+= ', line):
            for opt in re.findall(r'-W[\w=,.-]+', line):
                if 'cc-option' not in line or cc_ok(opt):
                    flags.append(opt)
    return flags


def cc_ok(opt):
    r = subprocess.run(['gcc', '-m32', '-Werror', opt, '-fsyntax-only', '-x', 'c', '/dev/null'],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return r.returncode == 0


def check(src, o, arch, f, warnings=None):
    """Preprocess and syntax-check F: (True, []) or (False, the errors
    located in F, or the preprocessor's first errors); the warnings
    located in F, without line numbers, go to WARNINGS."""
    _, flags = GATE[arch]
    try:
        extra = flags(src, dotconfig(o))
        errs_as = werror(src)
    except (GateError, OSError) as e:
        return False, [f'{arch}: {e}']
    base = os.path.basename(f)[:-2]
    inc = []
    for d in (f'arch/{arch}/include', f'{o}/arch/{arch}/include/generated', 'include',
              f'{o}/include', f'arch/{arch}/include/uapi',
              f'{o}/arch/{arch}/include/generated/uapi', 'include/uapi',
              f'{o}/include/generated/uapi'):
        inc += ['-I', d]
    cpp = ['gcc', '-E', '-nostdinc', *inc,
           '-include', 'include/linux/compiler-version.h',
           '-include', 'include/linux/kconfig.h',
           '-include', 'include/linux/compiler_types.h',
           '-D__KERNEL__', '-std=gnu11', '-m32', *extra,
           f'-DKBUILD_MODNAME="{base}"', f'-DKBUILD_BASENAME="{base}"', f]
    i = os.path.join(o, base + '.i')
    r = subprocess.run(cpp + ['-o', i], cwd=src, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True, errors='replace', check=False)
    if r.returncode:
        return False, [l for l in r.stdout.split('\n') if 'error' in l][:5]
    r = subprocess.run(['gcc', '-m32', '-std=gnu11', '-fsyntax-only', *warn_flags(src), *errs_as,
                        '-x', 'c', i],
                       cwd=src, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, errors='replace', check=False)
    errors = [l for l in r.stdout.split('\n')
              if l.startswith(f'{f}:') and ' error: ' in l]
    if warnings is not None:
        warnings.extend(re.sub(r':[0-9]+:[0-9]+:', ':', l, count=1)
                        for l in r.stdout.split('\n')
                        if l.startswith(f'{f}:') and ' warning: ' in l)
    return not errors, errors
