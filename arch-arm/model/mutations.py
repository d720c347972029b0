# SPDX-License-Identifier: GPL-2.0
"""The model's own tests and the breakages it must catch: self-tests,
kbuild's recorded commands, decoder mutations, and the mutations of the
patched arch/arm/mm/ sources (reverts and wrong fixes).

A mutation edits the scratch worktree model-mutation, rebuilds only the
object it touches and runs the model on it; a run that errors is never
a catch.
"""

import os
import re
import shutil
import subprocess

import kbuild
from common import die, field, git, num, rest, run, sed_edit
from runs import SCEN_MAIN, SCEN_RT, TWIN_OF, Run

SELFTESTS = (
    ('arm', '--kind', 'legacy', '--core', 'arm926ejs'),
    ('thumb', '--kind', 'v7', '--thumb', '--core', 'cortex-a15'),
    ('v7m', '--kind', 'v7m', '--core', 'cortex-m7'),
    ('model', '--kind', 'legacy', '--core', 'arm926ejs'),
    ('cores', '--kind', 'legacy', '--core', 'arm926ejs'),
)

# The decoder must be able to fail: each of these misreads one class of
# instruction in the decoder (DECODER: decode.c, and memhooks.c for
# v7-M's SCB registers); the rebuilt model must then fail at least one
# self-test. name, range (start, end) or None, regex, replacement
DECODER_MUTATIONS = (
    ('clean_read_as_invalidate', None, r'(\{ 0, 0, 7, 10, 1, )A_CLEAN,', r'\1A_INV,'),
    ('invalidate_read_as_clean', None, r'(\{ 0, 0, 7, 6, 1, )A_INV,', r'\1A_CLEAN,'),
    ('flush_read_as_clean', None, r'(\{ 0, 0, 7, 14, 1, )A_FLUSH,', r'\1A_CLEAN,'),
    ('setway_flush_read_as_clean', None, r'(\{ 0, 0, 7, 14, 2, )A_FLUSH_SW,', r'\1A_CLEAN_SW,'),
    ('feroceon_range_flush_read_as_clean', None,
     r'(\{ 0, 5, 15, 15, 1, )A_RANGE_FLUSH,', r'\1A_RANGE_CLEAN,'),
    ('test_clean_invalidate_read_as_test_clean', None,
     r'(\{ 1, 0, 7, 14, 3, )A_TEST_FLUSH,', r'\1A_TEST_CLEAN,'),
    ('condition_ignored', None, r'if \(!op \|\| !cond_passed\(cond\)\)', 'if (!op)'),
    ('v7m_scb_dcimvac_read_as_clean', ('case 0xe000ef5c:', 'break;'),
     r'mva_op\(v, L_INV\)', 'mva_op(v, L_CLEAN)'),
)
DECODER = ('decode', 'memhooks')
UNTOUCHED = ('main', 'cachemodel', 'cache', 'cores', 'armregs', 'dmamapping', 'emu', 'outer',
             'selftest', 'stream', 'suite')


def selftests(m):
    """The model's self-tests, one KTAP line each."""
    log = m.log
    for st in SELFTESTS:
        out = run([m.env.cm, '--elf', m.env.selftest_elf, '--selftest', *st])
        for line in out.split('\n'):
            a, b, c, d = (line.split(None, 3) + ['', '', '', ''])[:4]
            if a == 'ok':
                log.result(True, f'model_selftest_{c}')
            elif (a, b) == ('not', 'ok'):
                log.result(False, f'model_selftest_{d.rstrip()}')
            elif a != 'st':
                log.comment(f'selftest: {a} {b} {c} {d.rstrip()}')
        if not re.search(r'(^|\n)(not )?ok', out):
            log.result(False, 'model_selftest_--selftest ' + ' '.join(st))


def recorded_commands(m, objs, tmp):
    """kbuild's recorded command must reproduce make's own object byte
    for byte, and stays valid for the patched and mutated sources only
    while the series changes nothing else those objects (or
    asm-offsets.h) depend on."""
    env, log = m.env, m.log
    differ = 0
    for cfg, o in objs:
        kbuild.assemble(env, cfg, o, f'{env.base_src}/arch/arm/mm/{o[:-2]}.S', f'{tmp}/repro.o')
        with open(f'{tmp}/repro.o', 'rb') as a, open(env.build(cfg, 'arch/arm/mm', o), 'rb') as b:
            if a.read() != b.read():
                log.comment(f'recorded command for {cfg}/{o} differs from make\'s object')
                differ += 1
    log.result(differ == 0, f'recorded_kbuild_commands_reproduce_all_{len(objs)}_objects')
    changed = [c for c in git(env.base_tree, 'diff', '--name-only', env.model_base,
                              m.patched_head).splitlines()
               if not re.match(r'arch/arm/mm/.*\.S$', c)]
    hits = set()
    for cfg, o in objs:
        for f in (env.build(cfg, 'arch/arm/mm', f'.{o}.cmd'),
                  env.build(cfg, 'arch/arm/kernel/.asm-offsets.s.cmd')):
            if not os.path.isfile(f):
                continue
            with open(f, encoding='utf-8', errors='replace') as fh:
                text = fh.read()
            for c in changed:
                if re.search(re.escape(f'{env.base_src}/{c}') + r'\b', text):
                    hits.add((cfg, o, c))
    log.comment(f'series files outside arch/arm/mm/*.S: {len(changed)}, '
                f'used by a modelled object: {len(hits)}')
    log.result(not hits, 'series_changes_no_dependency_of_modelled_objects')


def pkg_config(what):
    r = subprocess.run(['pkg-config', what, 'unicorn'], stdout=subprocess.PIPE,
                       text=True, check=False)
    if r.returncode:
        die(f'pkg-config {what} unicorn failed')
    return r.stdout.split()


def decoder_mutations(m, tmp):
    env, log = m.env, m.log
    src = f'{env.top}/arch-arm/model'
    cflags, libs = pkg_config('--cflags'), pkg_config('--libs')
    # the files a decoder mutation does not touch, compiled once
    for f in UNTOUCHED:
        if subprocess.run(['cc', '-O2', '-w', f'-I{src}', f'-I{env.top}/tools/include',
                           *cflags, '-c', '-o',
                           f'{tmp}/{f}.o', f'{src}/{f}.c'], check=False).returncode:
            die(f'building {f}.c failed')
    objs = [f'{tmp}/{f}.o' for f in UNTOUCHED]
    for name, rng, pat, repl in DECODER_MUTATIONS:
        for f in DECODER:
            shutil.copyfile(f'{src}/{f}.c', f'{tmp}/{f}.c')
        start, end = rng or (None, None)
        if not any(sed_edit(f'{tmp}/{f}.c', [('s', pat, repl)], start, end)
                   for f in DECODER):
            die(f'decoder mutation {name} found nothing in the decoder')
        if subprocess.run(['cc', '-O2', '-w', f'-I{src}', f'-I{env.top}/tools/include',
                           *cflags, '-o', f'{tmp}/decoder',
                           *[f'{tmp}/{f}.c' for f in DECODER], *objs, *libs],
                          check=False).returncode:
            die(f'building decoder mutation {name} failed')
        nf = 0
        for st in SELFTESTS[:4]:
            r = run([f'{tmp}/decoder', '--elf', env.selftest_elf, '--selftest', *st])
            nf += sum(l.startswith('not ok') for l in r.split('\n'))
        log.comment(f'decoder mutation {name}: {nf} self-tests fail')
        log.result(nf > 0, f'mutation_decoder_{name}_fails_selftests')


def caught(out):
    """0 when a line shows damage, 2 when one errored first, else 1."""
    for r in out.split('\n'):
        if 'error=' in r:
            return 2
        if sum(num(k, r) or 0 for k in ('lost', 'exposed', 'devwrong', 'neigh')) > 0:
            return 0
    return 1


def summary(out, keys=('lost', 'exposed', 'devwrong', 'neigh', 'error')):
    """Scenario and damage counts of each line, for the log."""
    parts = []
    for line in out.split('\n'):
        f = line.split()
        parts.append(' '.join(f[:1] + [x for x in f[1:] if x.split('=')[0] in keys and '=' in x]))
    return ', '.join(parts)


def mut_reset(m):
    git(m.env.mut_src, 'checkout', '-q', '--', '.')


def rebuild(m, file, run_):
    """FILE's object for RUN from the mutation worktree, linked."""
    env = m.env
    o = f'{env.obj}/mut/{run_.cfg}/{run_.obj}'
    os.makedirs(os.path.dirname(o), exist_ok=True)
    if run_.how == 'direct':
        for src, dcfg, sib, extra in kbuild.DIRECT:
            if src == os.path.basename(file):
                kbuild.assemble(env, dcfg, sib, f'{env.mut_src}/{file}', o, extra)
    else:
        kbuild.assemble(env, run_.cfg, run_.obj, f'{env.mut_src}/{file}', o)
    return kbuild.link(env, o)


def mutation_run(m, runs, invalidating, name, file, only, *opts):
    """Rebuild FILE's object from the mutation worktree and run its
    write-back backends: ONLY, or all whose base map invalidated. 0 when
    every run is caught, 2 when a run errored or no backend ran (never
    a catch), else 1."""
    log = m.log
    o = os.path.basename(file)[:-2] + '.o'
    n = det = err = 0
    for r in runs:
        if r.obj != o:
            continue
        if only:
            if only not in (r.b, TWIN_OF.get(r.b)):
                continue
        elif r.map not in invalidating:
            continue
        if m.policy(r) != 'wb':
            continue
        elf = rebuild(m, file, r)
        out = m.cachemodel(elf, r, '--scenario', 'maponly', '--scenario', 'short',
                           '--scenario', 'unaligned', *opts)
        n += 1
        log.comment(f'{name}: {r.b}/{r.cfg}: {summary(out)}')
        rc = caught(out)
        if rc == 0:
            det += 1
        elif rc == 2:
            err += 1
            log.comment(f'{name}: {r.b}/{r.cfg} errored')
        else:
            log.comment(f'{name}: {r.b}/{r.cfg} not caught')
    log.comment(f'{name}: caught in {det} of {n} backend runs, {err} errored')
    if n == 0 or err:
        return 2
    return 0 if det == n else 1


def sed_mut(m, file, func, pat, repl):
    """Edit one line inside FUNC, or stop: a mutation that finds nothing
    would pass unnoticed."""
    rng = (rf'(SYM_TYPED_FUNC_START|ENTRY)\({func}\)', r'(SYM_FUNC_END|ENDPROC)')
    if not sed_edit(f'{m.env.mut_src}/{file}', [('s', pat, repl)], *rng):
        die(f"mutation '{pat}' found nothing in {func} ({file})")


def base_routine(m, file, label):
    """The instructions of local routine LABEL of the base tree's FILE,
    up to its first return."""
    with open(f'{m.env.base_src}/{file}', encoding='utf-8') as fh:
        r = re.search(rf'^{label}:\n(.*?^\tret\tlr)$', fh.read(), re.M | re.S)
    if not r:
        die(f'{label} not found in the base tree\'s {file}')
    return r.group(1)


def series_mutations(m, runs, invalidating):
    env, log = m.env, m.log

    def mut(test, name, file, only, *opts, want=0):
        log.result(mutation_run(m, runs, invalidating, name, file, only, *opts) == want, test)

    mut_reset(m)
    for f in git(env.base_tree, 'diff', '--name-only', env.model_base, m.patched_head,
                 '--', 'arch/arm/mm/*.S').split():
        git(env.mut_src, 'checkout', '-q', env.model_base, '--', f)
        mut(f'mutation_revert_{os.path.basename(f)[:-2]}_caught', f'revert {f}', f, '')
        git(env.mut_src, 'checkout', '-q', 'HEAD', '--', f)
    v7 = 'arch/arm/mm/cache-v7.S'
    # wrong fix 1: v7 unmap without its invalidate
    sed_mut(m, v7, 'v7_dma_unmap_area', r'^\tbne\tv7_dma_inv_range$', r'\tnop')
    mut('mutation_v7_unmap_without_invalidate_caught', 'v7 unmap without invalidate', v7, 'v7')
    # wrong fix 2: flush at map, no invalidate at unmap: only speculation sees it
    sed_mut(m, v7, 'v7_dma_map_area', r'^\tb\tv7_dma_clean_range$', r'\tb\tv7_dma_flush_range')
    mut('mutation_v7_flush_at_map_no_unmap_invalidate_caught',
        'v7 flush at map, unmap without invalidate', v7, 'v7')
    mut('mutation_v7_flush_at_map_no_unmap_invalidate_needs_speculation',
        'same, speculation off', v7, 'v7', '--no-spec', want=1)
    mut_reset(m)
    # a mutation whose run errors (here: an instruction the decoder does
    # not know) is a failure of the mutation run, never a catch
    sed_mut(m, v7, 'v7_dma_map_area', r'^\tb\tv7_dma_clean_range$',
            r'\tmcr\tp15, 0, r0, c7, c3, 7\n\tb\tv7_dma_clean_range')
    mut('mutation_that_errors_is_not_a_catch', 'v7 map with an unknown cache operation',
        v7, 'v7', want=2)
    mut_reset(m)
    # wrong fix 3: legacy map only cleans (unmap stays a no-op)
    for b in ('arm926', 'feroceon', 'xscale'):
        f = f'arch/arm/mm/proc-{b}.S'
        sed_mut(m, f, f'{b}_dma_map_area', rf'^\tb\t{b}_dma_flush_range$',
                rf'\tb\t{b}_dma_clean_range')
        mut(f'mutation_{b}_map_clean_only_caught', f'{b} map clean only', f, b)
        mut(f'mutation_{b}_map_clean_only_caught_without_eviction',
            f'{b} map clean only, no eviction', f, b, '--no-evict')
        mut_reset(m)
    # wrong fix 4: legacy map does nothing for FROM_DEVICE, unmap
    # invalidates: the dirty lines survive the map; eviction writes them
    # over device data. The unmap runs the base's arm926_dma_inv_range,
    # inline: the series' patch 3 removes it from the patched tree.
    f = 'arch/arm/mm/proc-arm926.S'
    inv = base_routine(m, f, 'arm926_dma_inv_range')
    sed_mut(m, f, 'arm926_dma_map_area', r'^\tb\tarm926_dma_flush_range$', r'\tret\tlr')
    sed_mut(m, f, 'arm926_dma_unmap_area', r'^\tret\tlr$',
            '\tadd\tr1, r1, r0\n' + inv.replace('\\', '\\\\'))
    mut('mutation_arm926_map_nothing_unmap_invalidate_caught',
        'arm926 map nothing, unmap invalidates', f, 'arm926')
    mut('mutation_arm926_map_nothing_unmap_invalidate_caught_without_eviction',
        'arm926 map nothing, unmap invalidates, no eviction', f, 'arm926', '--no-evict')
    mut_reset(m)
    cost_mutation(m)
    control_mutation(m)


def backend_run(b, cfg, obj):
    return Run(b, f'{b}_dma_map_area', f'{b}_dma_unmap_area', cfg, obj, 'kbuild')


def cost_mutation(m):
    """The cost checks must be able to fail: a map that cleans, then
    invalidates in a second loop, is correct but adds a traversal."""
    env, log = m.env, m.log
    v7 = 'arch/arm/mm/cache-v7.S'
    sed_mut(m, v7, 'v7_dma_map_area', r'^\tb\tv7_dma_clean_range$',
            r'\tpush\t{r0, r1, r2, lr}\n\tbl\tv7_dma_clean_range\n\tpop\t{r0, r1, r2, lr}\n'
            r'\tb\tv7_dma_inv_range')
    o = f'{env.obj}/mut/omap2plus/cache-v7.o'
    os.makedirs(os.path.dirname(o), exist_ok=True)
    kbuild.assemble(env, 'omap2plus', 'cache-v7.o', f'{env.mut_src}/{v7}', o)
    elf = kbuild.link(env, o)
    r2 = m.cachemodel(elf, backend_run('v7', 'omap2plus', 'cache-v7.o'), '--scenario', 'rt1m')
    rb = m.result('base', 'v7', 'omap2plus', 'rt1m')
    log.comment(f'v7 two-loop map: traversals {field("passes", r2)} '
                f'(base {field("passes", rb)}), lost {field("lost", r2)}')
    p2, pb, lost = num('passes', r2), num('passes', rb), num('lost', r2)
    log.result(None not in (p2, pb, lost) and lost == 0 and p2 > pb,
               'mutation_v7_two_loop_map_fails_traversal_check')
    mut_reset(m)


def control_mutation(m):
    """The controls' check must be able to fail: a series that also
    touched v4wt's map (invalidating at map, as the base v7 did) changes
    its counts."""
    env, log = m.env, m.log
    f = 'arch/arm/mm/cache-v4wt.S'
    sed_mut(m, f, 'v4wt_dma_map_area', r'^\tret\tlr$',
            r'\tadd\tr1, r1, r0\n\tb\tv4wt_dma_inv_range')
    o = f'{env.obj}/mut/v4v5wb/cache-v4wt.o'
    os.makedirs(os.path.dirname(o), exist_ok=True)
    kbuild.assemble(env, 'v4v5wb', 'cache-v4wt.o', f'{env.mut_src}/{f}', o)
    elf = kbuild.link(env, o)
    r = backend_run('v4wt', 'v4v5wb', 'cache-v4wt.o')
    changed = 0
    for s in SCEN_MAIN + SCEN_RT:
        r2 = m.cachemodel(elf, r, '--scenario', s)
        changed += r2 != rest(m.result('base', 'v4wt', 'v4v5wb', s))
    log.comment(f'v4wt map that invalidates: counts differ from the base in {changed} scenarios')
    log.result(changed > 0, 'mutation_control_v4wt_change_detected')
    mut_reset(m)
