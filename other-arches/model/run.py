#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The cache model of the other architectures: MIPS r4k, 32-bit PowerPC,
m68k 030/040/060, ColdFire and OpenRISC DMA cache maintenance, base and
patched, in dmamodel.

Compiles the touched files of each architecture (tables.py's ARCHES:
'file' and 'also') from the base tree and with their patches of
patches/other-arches applied, with the command Kbuild saved for each
object in tools/checks/70-other-arches' O= directories (so that check
must have run once: its O= directories and worktree are reused, nothing
is configured again; the ColdFire ones are configured here, in that
worktree), links them with the unchanged objects they call and, where
one is named, a stub of ours, and runs every configuration below
through dmamodel's scenarios, each with its core's data cache
(tables.py's CACHES). Prints KTAP; writes
Documentation/results/BASE/other-arches-model.md.

Environment: what tools/lib.sh's lib_env prints (TOP, BASE, BASE_TAG,
CACHE_DIR, RESULTS_DIR, PATCH=...), and TREE, the base tree.
"""

import hashlib
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.environ['TOP'], 'tools'))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))

HERE = os.path.dirname(os.path.abspath(__file__))
ENV = os.environ
WORK = os.path.join(ENV['CACHE_DIR'], 'other-arches')
OUT = os.path.join(WORK, 'model')
DM = os.path.join(OUT, 'dmamodel')

from tables import (ARCHES, BIDIR, BIDIR_BASE_FAILS, CACHES, CACHE_MUTATIONS,  # noqa: E402
                    CONFIGS, DECODER, DM_FILES, FIXES, FIX_MUTATIONS, MUTATIONS, PATCHED_ONLY,
                    RANGE_PUSH, SCENARIOS, SELFTEST_EXTRA, SELFTEST_ONLY, COST, COST_ALLOW,
                    TO, TO_PUSH, cache_args)
from results import (capacity_fails, cost_fails, field, ops, push_by_set,  # noqa: E402
                     write_cost, write_md)
import crossbuild  # noqa: E402
import nios2  # noqa: E402
from fixes import arch_files, arch_texts, judge_fix, sh, xtensa_fix_texts  # noqa: E402


def saved_cmd(o_dir, obj):
    """Kbuild's compiler command for OBJ without its source, output and
    deps file, nor what follows it (7.x runs objtool after it on
    powerpc)."""
    d, f = os.path.split(obj)
    with open(os.path.join(o_dir, d, '.' + f + '.cmd')) as fh:
        for line in fh:
            if line.startswith('savedcmd_'):
                c = line.split(' := ', 1)[1].strip()
                c = re.sub(r'-Wp,-MMD,\S+ ', '', c)
                return re.split(r' -c -o \S+ \S+', c, maxsplit=1)[0]
    raise SystemExit(f'no saved command for {obj} in {o_dir}')


def compile_c(o_dir, obj, text, out, name):
    """Compile TEXT as OBJ would be, cached by its hash (with the
    configuration's: the command's paths are relative to O_DIR)."""
    cmd = saved_cmd(o_dir, obj)
    with open(os.path.join(o_dir, 'include', 'generated', 'autoconf.h')) as fh:
        conf = fh.read()
    key = hashlib.sha256('\0'.join((cmd, conf, text)).encode()).hexdigest()[:16]
    cached = os.path.join(OUT, 'obj', key + '.o')
    if not os.path.exists(cached):
        os.makedirs(os.path.dirname(cached), exist_ok=True)
        src = os.path.join(OUT, 'src', name)
        os.makedirs(os.path.dirname(src), exist_ok=True)
        with open(src, 'w') as fh:
            fh.write(text)
        # the source directory of OBJ stays on the include path (-I in cmd)
        r = subprocess.run(f'{cmd} -c -o {cached}.tmp {src}', shell=True,
                           cwd=o_dir, capture_output=True, text=True)
        if r.returncode:
            sys.stderr.write(r.stderr)
            raise SystemExit(f'compiling {name} failed')
        os.rename(cached + '.tmp', cached)
    shutil.copy(cached, out)


def configure(a):
    """Configure A's own O= directory (its 'defconfig', the options of
    'enable' on) in the worktree of 70-other-arches, as crossbuild.py
    configures the others."""
    err = crossbuild.configure(os.path.join(WORK, 'src'), os.path.join(WORK, a['O']),
                               a['make_arch'], [f'CROSS_COMPILE={a["cross"]}'],
                               a['defconfig'], a['enable'], ENV['BASE_TAG'])
    if err:
        raise SystemExit(f'{a["O"]}: ' + '; '.join(err[-5:]))


def call_order(d):
    """dmamodel_files_call_one_way: each C file of dmamodel (in D) uses
    only symbols of the files before it in DM_FILES (nm of each object),
    so that no two call each other, directly or round a loop."""
    cfiles = [f for f in DM_FILES if f.endswith('.c')]
    cflags = sh(['pkg-config', '--cflags', 'unicorn']).split()
    owner, used = {}, {}
    for f in cfiles:
        o = os.path.join(d, f[:-2] + '.o')
        sh(['cc', '-c', '-O2', '-I', os.path.join(ENV['TOP'], 'tools', 'include')] + cflags +
           ['-o', o, os.path.join(d, f)])
        for line in sh(['nm', '-P', '-g', '--defined-only', o]).splitlines():
            owner[line.split()[0]] = f
        used[f] = [line.split()[0] for line in sh(['nm', '-P', '-u', o]).splitlines()]
    back = [f'{f} uses {n} of {owner[n]}' for f in cfiles for n in used[f]
            if n in owner and cfiles.index(owner[n]) > cfiles.index(f)]
    return (not back, 'dmamodel_files_call_one_way',
            '; '.join(back) or f'{", ".join(cfiles)}: each uses only those before it')


def main():
    tests = []
    t = lambda ok, name, why: tests.append((bool(ok), name, why))
    patches = [v for k, v in (l.split('=', 1) for l in ENV['PATCHES'].split('\n') if l)]
    tree = ENV['TREE']
    for a in ARCHES.values():
        stamp = os.path.join(WORK, a['O'], '.check-stamp')
        if 'defconfig' in a:
            continue
        if not os.path.exists(stamp):
            print('KTAP version 1\n1..1')
            print(f'ok 1 other_arches_model # SKIP needs the O= directories of '
                  f'tools/check other-arches ({stamp} missing): run it first')
            print('0 passed, 0 failed, 1 skipped')
            return 0
    os.makedirs(OUT, exist_ok=True)
    dm_src = {f: open(os.path.join(HERE, f)).read() for f in DM_FILES}
    unicorn = sh(['pkg-config', '--cflags', '--libs', 'unicorn']).split()

    def mutated_dm(name, old, new):
        """dmamodel with OLD replaced by NEW in the one source that has it."""
        where = [f for f, text in dm_src.items() if old in text]
        if len(where) != 1 or dm_src[where[0]].count(old) != 1:
            raise SystemExit(f'dmamodel mutation {name}: its text is not once in its sources')
        mdm = os.path.join(OUT, 'mutant-' + name)
        build_dm({**dm_src, where[0]: dm_src[where[0]].replace(old, new)}, mdm)
        return mdm

    def build_dm(srcs, out):
        """Build dmamodel OUT from SRCS (file name: text), in OUT.src/."""
        d = out + '.src'
        os.makedirs(d, exist_ok=True)
        for f, text in srcs.items():
            with open(os.path.join(d, f), 'w') as fh:
                fh.write(text)
        sh(['cc', '-O2', '-Wall', '-Wextra', '-Wno-unused-parameter',
            '-I', os.path.join(ENV['TOP'], 'tools', 'include'), '-o', out] +
           [os.path.join(d, f) for f in srcs if f.endswith('.c')] + unicorn)

    build_dm(dm_src, DM)
    t(*call_order(DM + '.src'))
    xtensa_texts = xtensa_fix_texts(tree, patches)

    # objects and ELF files: base, patched, mutations
    elfs = {}
    for arch, a in ARCHES.items():
        o_dir = os.path.join(WORK, a['O'])
        if 'defconfig' in a:
            configure(a)
        # the touched files' objects (their saved commands) and what the
        # model links from the same build
        files = arch_files(a)
        objs = [f[:-2] + '.o' for f in files]
        want = [f for f in objs + a['deps'] if not os.path.exists(os.path.join(o_dir, f))]
        if want:
            subprocess.run(['nice', '-n', '10', 'make', '-s', '-C', os.path.join(WORK, 'src'),
                            f'O={o_dir}', f'ARCH={a.get("make_arch", arch)}',
                            f'CROSS_COMPILE={a["cross"]}', 'W=1'] + want,
                           check=True, capture_output=True)
        stub = []
        if a.get('stub'):
            stub = [os.path.join(OUT, arch + '-stub.o')]
            compile_c(o_dir, objs[0], open(os.path.join(HERE, a['stub'])).read(), stub[0],
                      arch + '/' + a['stub'])
        texts, bad = arch_texts(arch, a, tree, patches)
        for name in bad:
            t(False, f'mutation_{name}_applies',
              f'mutation {name}: its text is not once in the patched {", ".join(files)}')
        for tree_name, text in texts.items():
            o = [os.path.join(OUT, f'{arch}-{tree_name}' +
                              (f'-{os.path.basename(f)[:-2]}' if f != a['file'] else '') + '.o')
                 for f in files]
            for f, obj, out in zip(files, objs, o):
                compile_c(o_dir, obj, text[f], out, f'{arch}/{tree_name}/{f}')
            elf = o[0][:-2] + '.elf'
            sh([a['cross'] + 'ld'] + a['ld'] + ['-e', '0', '-Ttext=0x100000',
               '--unresolved-symbols=ignore-all', '-o', elf] + o +
               [os.path.join(o_dir, d) for d in a['deps']] + stub)
            elfs[arch, tree_name] = elf

    def run(dm, cfg, tree_name, extra):
        name, arch, opts, _, _ = cfg
        a = ARCHES[arch]
        cmd = [dm, '--elf', elfs[arch, tree_name]] + a['args'] + cache_args(name) + opts + extra
        r = subprocess.run(cmd, capture_output=True, text=True)
        return r.stdout + r.stderr

    # self-tests: the decoding of each cache instruction, on the real
    # code of the base objects
    selftest_args = {}
    for cfg in CONFIGS:
        name, arch = cfg[0], cfg[1]
        sts = SELFTEST_ONLY.get(name, ARCHES[arch]['selftests']) + SELFTEST_EXTRA.get(name, [])
        selftest_args[name] = [x for s in sts for x in ('--selftest', s)]
        out = run(DM, cfg, 'base', selftest_args[name])
        for line in out.splitlines():
            m = re.match(r'(not )?ok (\S+)', line)
            if m:
                t(not m.group(1), f'model_{name}_{m.group(2)}', line)
        if not re.search(r'^(not )?ok ', out, re.M):
            t(False, f'model_{name}_selftests', out.strip()[:200])

    for dname, old, new in DECODER:
        mdm = mutated_dm('decoder-' + dname, old, new)
        nf = sum(run(mdm, cfg, 'base', selftest_args[cfg[0]]).count('not ok')
                 for cfg in CONFIGS)
        t(nf > 0, f'mutation_decoder_{dname}_fails_selftests',
          f'decoder mutation {dname}: {nf} self-tests fail')

    # the scenarios
    results = {}
    for cfg in CONFIGS:
        name, arch, _, _, loses = cfg
        unmap = ARCHES[arch]['unmap']
        extra = ['--map', 'arch_sync_dma_for_device'] + (['--unmap', unmap] if unmap else [])
        trees = ['base', 'patched'] + [k[1] for k in elfs if k[0] == arch and k[1].startswith('mut_')]
        # the trees of each fix (tests below), for its configurations
        trees += [f'fix{k}_{w}' for k, _, how in FIXES if how[0] == 'model' and name in how[1]
                  for w in ('before', 'after')]
        trees += [f'fixmut{k}' for k, _, how in FIXES if how[0] == 'model' and name in how[1]
                  and (arch, f'fixmut{k}') in elfs]
        for tree_name in trees:
            out = run(DM, cfg, tree_name, extra)
            for s, size in SCENARIOS:
                line = next((l for l in out.splitlines() if l.startswith(s + ' ')), '')
                results[name, tree_name, s] = line
                if tree_name.startswith(('mut_', 'fix')) or (tree_name == 'base' and
                                                               s in PATCHED_ONLY):
                    continue
                lost, exp, dw, nb, ds = (field(line, k) for k in ('lost', 'exposed', 'devwrong',
                                                                  'neigh', 'devstale'))
                test = f'{tree_name}_{name}_{s}'
                if lost is None:
                    t(False, test, f'{test}: {line or out.strip()[:200]}')
                    continue
                why = f'{test}: lost {lost} exposed {exp} devwrong {dw} neigh {nb}'
                if s in BIDIR + tuple(dict(TO)):
                    # DMA_BIDIRECTIONAL: the bases named fail, the others
                    # pass; DMA_TO_DEVICE: every one passes
                    why += f' devstale {ds}'
                    bad = lost + dw + nb + ds
                    fails = tree_name == 'base' and s in BIDIR_BASE_FAILS.get(name, ())
                    t(bad > 0 if fails else bad == 0, test, why)
                    continue
                if tree_name == 'base' and loses(s, size) and s != 'rt1mclean':
                    ok = dw == 0 and (exp > 0 if s in ('short', 'unaligned', 'short4k', 'short4kwrap')
                                   else lost > 0)
                elif tree_name == 'base':
                    ok = lost == 0 and dw == 0
                else:
                    ok = lost == exp == dw == nb == 0
                t(ok, test, why)

    # no map loses, finds dirty or writes back more than the core's data
    # cache holds (the cache is finite: tables.py's CACHES)
    for name, *_ in CONFIGS:
        fails = {tr: capacity_fails({s: results[name, tr, s] for s, _ in SCENARIOS}, name)
                 for tr in ('base', 'patched')}
        worst = max((field(results[name, tr, s], 'maplost') or 0, tr, s)
                    for tr in ('base', 'patched') for s, _ in SCENARIOS)
        t(not any(fails.values()), f'capacity_{name}_within_the_cache',
          '; '.join(f'{tr}: {v}' for tr, f in fails.items() for v in f.values()) or
          f'{name}: {CACHES[name][1]:,} bytes of data cache; at most {worst[0]:,} bytes lost '
          f'by one map ({worst[1]} {worst[2]})')

    # the cache made to hold the whole window again: those tests fail
    for cname, old, new in CACHE_MUTATIONS:
        mdm = mutated_dm('cache-' + cname, old, new)
        missed = []
        for cfg in CONFIGS:
            if CACHES[cfg[0]][4] != 'wb':
                continue
            extra = ['--map', 'arch_sync_dma_for_device', '--scenario', 'maponly',
                     '--scenario', 'rt1m']
            out = run(mdm, cfg, 'base', extra).splitlines()
            lines = {s: next((x for x in out if x.startswith(s + ' ')), '')
                     for s in ('maponly', 'rt1m')}
            f = capacity_fails(lines, cfg[0])
            if not {'lost', 'dirty', 'wb'} & set(f):
                missed.append(cfg[0])
        t(not missed, f'mutation_cache_{cname}_fails_capacity',
          f'cache mutation {cname}: capacity_*_within_the_cache ' +
          (f'passes for {", ".join(missed)}' if missed else
           'fails for every write-back configuration'))

    # every mutation of the patched source is caught
    for mname, marches, _ in MUTATIONS:
        if not any((arch, 'mut_' + mname) in elfs for arch in marches):
            continue
        caught = []
        for cfg in CONFIGS:
            if (cfg[1], 'mut_' + mname) not in elfs:
                continue
            for s, _ in SCENARIOS:
                line = results[cfg[0], 'mut_' + mname, s]
                vals = [field(line, k) for k in ('lost', 'exposed', 'devwrong', 'neigh')]
                if None in vals or any(vals):
                    caught.append(f'{cfg[0]}/{s}')
            for s, _ in COST:
                if cost_fails(results, cfg[0], 'mut_' + mname, s):
                    caught.append(f'{cfg[0]}/{s} cost')
            caught += [f'{cfg[0]}/{s} cost' for s, _ in TO if cfg[0] in TO_PUSH and
                       field(results[cfg[0], 'mut_' + mname, s], 'index') !=
                       push_by_set(cfg[0], s)[0]]
        t(caught, f'mutation_{mname}_caught',
          f'mutation {mname}: {len(caught)} scenario runs fail'
          + (f' ({", ".join(caught[:4])}{" ..." if len(caught) > 4 else ""})' if caught else ''))

    # the per-file revert of the series is the base object: it must lose
    # (but where the base keeps the data and the patch keeps the base's
    # operations, as on a write-through ColdFire)
    for arch, a in ARCHES.items():
        if a.get('base_keeps'):
            continue
        lost = [c[0] for c in CONFIGS if c[1] == arch and
                any((field(results[c[0], 'base', s], 'lost') or 0) > 0 for s, _ in SCENARIOS)]
        t(lost, f'mutation_revert_{arch}_{os.path.basename(a["file"])}_caught',
          f'{", ".join(arch_files(a))} reverted (the base objects): loses data in '
          f'{", ".join(lost) or "no configuration"}')

    for name, *_ in CONFIGS:
        for s, size in COST:
            fails = cost_fails(results, name, 'patched', s)
            b, p = results[name, 'base', s], results[name, 'patched', s]
            why = (f'{name} {size}: base {ops(b):,} operations ({field(b, "index")} index, '
                   f'{field(b, "all")} whole), {field(b, "lost")} bytes lost; patched '
                   f'{ops(p):,} ({field(p, "index")} index, {field(p, "all")} whole)')
            t('walk' not in fails, f'cost_{name}_{s}_no_new_whole_cache_walk',
              fails.get('walk', why))
            t('kept' not in fails, f'cost_{name}_{s}_no_cost_where_the_base_kept_the_data',
              fails.get('kept', why + (f'; allowed: {COST_ALLOW[name, s]}'
                                       if (name, s) in COST_ALLOW else '')))
            if name in RANGE_PUSH:
                want, what = push_by_set(name, s)
                t('range' not in fails, f'cost_{name}_{s}_pushes_{what.split()[-1]}_by_set',
                  fails.get('range', f'{name} {size}: patched pushes {want:,} lines by set and '
                            f'way: {what}'))
        for s, size in TO if name in TO_PUSH else ():
            want, what = push_by_set(name, s)
            n = field(results[name, 'patched', s], 'index')
            t(n == want, f'cost_{name}_{s}_to_device_pushes_{what.split()[-1]}_by_set',
              f'{name} {size} DMA_TO_DEVICE: patched pushes {n:,} lines by set and way; '
              f'{what}: {want:,}')

    # each fix on its own: the tree before it fails, the tree with it
    # passes (tables.py's FIXES); and with the fix's hunk reverted in the
    # tree with it (FIX_MUTATIONS), the same test fails
    fixmut = {k: (name, old, new) for k, name, old, new in FIX_MUTATIONS}
    for k, short, how in FIXES:
        ok, why = judge_fix(k, how, results, xtensa_texts, f'fix{k}_after')
        t(ok, f'fix_{k}_{short}', why)
        if how[0] == 'model':
            applies = any(key[1] == f'fixmut{k}' for key in elfs)
        else:
            applies = (f'fixmut{k}', how[0]) in xtensa_texts
        if not applies:
            t(False, f'mutation_fix_{k}_applies', f'patch {k}: no FIX_MUTATIONS entry, or its '
              'text is not once in the file with patches 1..K')
            continue
        ok, why = judge_fix(k, how, results, xtensa_texts, f'fixmut{k}')
        t(not ok, f'mutation_fix_{k}_{fixmut[k][0]}_fails_fix_{k}',
          f'patch {k} with {fixmut[k][0]}: fix_{k} ' + ('passes: ' if ok else 'fails: ') + why)

    # nios2, counted (nios2.py): no instruction cache walk at map
    counted, more = nios2.tests(tree, patches)
    tests += more
    write_md(results)
    write_cost(results, counted)
    from ktap import report
    return report(tests)


if __name__ == '__main__':
    sys.exit(main())
