# SPDX-License-Identifier: GPL-2.0
"""The model's objects: kernel configurations that reach every cache
backend, and the arch/arm/mm/ objects of the base, patched and mutated
trees.

The base builds (defconfig, fragments, prepare, arch/arm/mm/) are
arch-arm/coverage/run's, made with --base-only in its worktree and O=
directories: every configuration the model runs is a coverage row, so
one build serves both tools. The patched and mutated worktrees are
arch-arm/model/worktrees's (git calls). Patched and mutated objects are
assembled here with the exact command kbuild recorded for the same
object (arch/arm/mm/.X.o.cmd), with only the source path changed: the
series touches no header, so the prepared base build is valid for them,
and one prepare per configuration instead of three keeps the run within
its time budget. A self-test checks that the recorded command reproduces
make's object byte for byte.
"""

import glob
import os
import re
import shutil
import subprocess
import sys

from common import die

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'configs'))
import kconfigs  # noqa: E402

# The model's rows of arch-arm/configs/table: (name, D-cache the build
# has: 'wb', or 'wt' for CONFIG_CPU_DCACHE_WRITETHROUGH=y, checked
# against the .config and the runs). Each is a coverage row that builds
# arch/arm/mm/ ("mm"): its build is arch-arm/coverage/run's.
MODEL_ROWS = [c for c in kconfigs.read() if c.model != '-']
CONFIGS = [(c.name, c.model) for c in MODEL_ROWS]
NOT_MM = [c.name for c in MODEL_ROWS if c.coverage != 'mm']

# Sources that no 6.12 configuration selects; assembled with the flags
# kbuild recorded for a sibling of the same configuration.
# file, config to borrow the command from, sibling object, extra -D flags
DIRECT = [
    ('proc-arm1020.S', 'v4v5wb', 'proc-arm1022.o', '-DCONFIG_CPU_ARM1020=1'),
    ('proc-arm1020e.S', 'v4v5wb', 'proc-arm1022.o', '-DCONFIG_CPU_ARM1020E=1'),
    ('proc-arm940.S', 'v4v5wb', 'proc-arm920.o',
     '-DCONFIG_CPU_ARM940T=1 -DCONFIG_DRAM_BASE=0 -DCONFIG_DRAM_SIZE=0x4000000 '
     '-DCONFIG_FLASH_MEM_BASE=0 -DCONFIG_FLASH_SIZE=0x400000'),
    ('proc-arm946.S', 'v4v5wb', 'proc-arm926.o',
     '-DCONFIG_CPU_ARM946E=1 -DCONFIG_CPU_DCACHE_SIZE=8192 -DCONFIG_DRAM_BASE=0 '
     '-DCONFIG_DRAM_SIZE=0x4000000 -DCONFIG_FLASH_MEM_BASE=0 -DCONFIG_FLASH_SIZE=0x400000'),
]

DMA_SYM = re.compile(r'_dma_(un)?map_area$')


def model_build(env, *args):
    """arch-arm/model/worktrees: the patched and mutated worktrees."""
    r = subprocess.run([f'{env.top}/arch-arm/model/worktrees', *args], check=False)
    if r.returncode:
        die(f'arch-arm/model/worktrees {args[0]} failed')


def build_all(env, tmp, configs=None):
    """The base build of every configuration (or of CONFIGS):
    arch-arm/coverage/run --base-only at MODEL_BASE, while run.py holds
    the coverage lock."""
    if NOT_MM:
        die(f"{', '.join(NOT_MM)}: a model row of {kconfigs.TABLE} must be a "
            'coverage row of kind mm (its build is arch-arm/coverage/run\'s)')
    log = os.path.join(tmp, 'coverage-base.log')
    with open(log, 'w') as f:
        r = subprocess.run([f'{env.top}/arch-arm/coverage/run', '--base-only', '--rev', env.model_base,
                            '--configs', ','.join(configs or [n for n, _ in CONFIGS])],
                           stdout=f, stderr=subprocess.STDOUT, check=False,
                           env={**os.environ, 'COVERAGE_LOCKED': '1'})
    if r.returncode:
        with open(log, errors='replace') as f:
            sys.stderr.writelines(f.readlines()[-15:])
        die('arch-arm/coverage/run --base-only failed: the base builds')


def recorded_cmd(env, cfg, obj):
    """kbuild's command line for arch/arm/mm/OBJ (savedcmd_ since 6.3,
    cmd_ before)."""
    path = env.build(cfg, 'arch/arm/mm', f'.{obj}.cmd')
    if not os.path.isfile(path):
        die(f'no kbuild command for {obj} in configuration {cfg}')
    with open(path, encoding='utf-8', errors='replace') as f:
        for line in f:
            m = re.match(r'(saved)?cmd_[^ ]* := (.*)', line.rstrip('\n'))
            if m:
                return m.group(2)
    die(f'no command line in {path}')


def run_recorded(env, cfg, cmd, out, src_re, src, what):
    """CMD with its dependency file dropped, OUT as output, SRC_RE's
    source replaced by SRC; run in CFG's build directory."""
    cmd = re.sub(r' -Wp,-MMD,[^ ]+', '', cmd, count=1)
    cmd = re.sub(r' -o [^ ]+', lambda _: f' -o {out}', cmd, count=1)
    cmd = re.sub(src_re, lambda _: f' {src}', cmd, count=1)
    r = subprocess.run(cmd, shell=True, executable='/bin/bash',
                       cwd=env.build(cfg), check=False)
    if r.returncode:
        die(f'{what} failed')


def assemble(env, cfg, obj, src, out, extra=''):
    """OBJ's recorded command on SRC."""
    run_recorded(env, cfg, recorded_cmd(env, cfg, obj), out,
                 r' [^ ]+\.S *$', f'{extra} {src}',
                 f'assembling {src} for {cfg}')


def link(env, obj, *more, elf=None):
    """OBJ (and MORE) linked for execution: branches between their
    functions resolve here."""
    elf = elf or obj[:-2] + '.elf'
    r = subprocess.run([f'{env.cross_compile}ld', '-Ttext=0x100000',
                        '--unresolved-symbols=ignore-all', '-o', elf, obj, *more],
                       stderr=subprocess.DEVNULL, check=False)
    if r.returncode:
        die(f'linking {obj} failed' if not more else
            f'linking {obj} with {more[0]} failed')
    return elf


def dma_symbols(env, obj):
    """The *_dma_map_area/*_dma_unmap_area that OBJ defines, nm's order."""
    r = subprocess.run([f'{env.cross_compile}nm', '--defined-only', obj],
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                       text=True, check=False)
    syms = []
    for line in r.stdout.splitlines():
        f = line.split()
        if len(f) >= 3 and DMA_SYM.search(f[2]):
            syms.append(f[2])
    return syms


def objects(env, configs=None):
    """Symbol -> object of every build (or of CONFIGS'), the directly
    assembled sources (base and patched; not with CONFIGS) and the
    patched objects. Returns the symbol lines (cfg, obj, sym, how) and
    the sorted (cfg, obj) kbuild built."""
    symobj = []
    for name in configs or [n for n, _ in CONFIGS]:
        for o in sorted(glob.glob(env.build(name, 'arch/arm/mm/*.o'))):
            for sym in dma_symbols(env, o):
                symobj.append((name, os.path.basename(o), sym, 'kbuild'))
    direct = []
    for src, cfg, sib, extra in [] if configs else DIRECT:
        o = src[:-2] + '.o'
        for tree, srcdir in (('base', env.base_src), ('patched', env.patched_src)):
            os.makedirs(f'{env.obj}/{tree}/{cfg}', exist_ok=True)
            assemble(env, cfg, sib, f'{srcdir}/arch/arm/mm/{src}',
                     f'{env.obj}/{tree}/{cfg}/{o}', extra)
        for sym in dma_symbols(env, f'{env.obj}/base/{cfg}/{o}'):
            direct.append((cfg, o, sym, 'direct'))
    objs = sorted({(c, o) for c, o, _, _ in symobj}, key=lambda x: f'{x[0]} {x[1]}')
    for cfg, o in objs:
        for tree in ('base', 'patched'):
            os.makedirs(f'{env.obj}/{tree}/{cfg}', exist_ok=True)
        shutil.copy(env.build(cfg, 'arch/arm/mm', o), f'{env.obj}/base/{cfg}/{o}')
        assemble(env, cfg, o, f'{env.patched_src}/arch/arm/mm/{o[:-2]}.S',
                 f'{env.obj}/patched/{cfg}/{o}')
    return symobj + direct, objs


def text_of(env, obj, prefixes):
    """name -> bytes of each function of OBJ whose name starts with one
    of PREFIXES (nm sizes, objcopy's .text)."""
    r = subprocess.run([f'{env.cross_compile}nm', '-S', '--defined-only', obj],
                       stdout=subprocess.PIPE, text=True, check=False)
    tmp = obj + '.text'
    subprocess.run([f'{env.cross_compile}objcopy', '-O', 'binary', '-j', '.text', obj, tmp],
                   check=False)
    with open(tmp, 'rb') as f:
        text = f.read()
    os.remove(tmp)
    out = {}
    for line in r.stdout.splitlines():
        f = line.split()
        if len(f) == 4 and f[2] in 'Tt' and f[3].startswith(prefixes):
            a, n = int(f[0], 16), int(f[1], 16)
            out[f[3]] = text[a:a + n]
    return out


def sa110_dma_routines(env, tmp):
    """cache-v4wb.S assembled for the SA-110 (CONFIG_CPU_SA110, with the
    sa1100 build's recorded command): its DMA routines are the SA-1100
    build's byte for byte, so the v4wb run on the SA-110's L1 is that
    CPU's. Returns (same, the functions compared)."""
    obj = f'{tmp}/cache-v4wb-sa110.o'
    assemble(env, 'sa1100', 'cache-v4wb.o', f'{env.base_src}/arch/arm/mm/cache-v4wb.S', obj,
             '-DCONFIG_CPU_SA110=1')
    prefixes = ('v4wb_dma_', 'v4wb_coherent_')
    a = text_of(env, env.build('sa1100', 'arch/arm/mm/cache-v4wb.o'), prefixes)
    b = text_of(env, obj, prefixes)
    return bool(a) and a == b, sorted(a)
