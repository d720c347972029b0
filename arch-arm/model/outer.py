# SPDX-License-Identifier: GPL-2.0
"""The outer cache: an L2C-310 behind the Cortex-A9's L1 (outer.c).

The v7 backend (v7_32, 32-byte lines) is linked with the omap2plus
build's compiled cache-l2x0.o, whose l2c210_*_range write the modelled
line registers. The map and unmap run the steps of
__dma_page_cpu_to_dev() and __dma_page_dev_to_cpu() in the order
dma-mapping.c has them, read from each tree's source by dmaseq.py (the
order is modelled in C; the inner and outer operations are the compiled
code).
"""

import hashlib
import os
import re
import subprocess

import kbuild
from common import die, field, nums, run, sed_edit
from mutations import caught, mut_reset

SCENARIOS = ('maponly', 'short', 'unaligned', 'boards100warm')


class Outer:
    """The L2C-310 run: v7_32 (omap2plus, cache-v7.o) and cache-l2x0.o.
    Other (below) is the same for the other controllers."""
    name, l2, b, cfg, l1obj = '', 'l2c310', 'v7_32', 'omap2plus', 'cache-v7.o'
    map, unmap = 'v7_dma_map_area', 'v7_dma_unmap_area'
    mut_label = 'outer mutation'

    def __init__(self, m):
        self.m, self.env = m, m.env
        self.results = []       # "TREE <cachemodel line>"
        self.seq = {}
        self.args = m.args(self.b, self.cfg)

    def dmaseq(self, tree, file='dma-mapping.c'):
        """"MAPSEQ UNMAPSEQ" for DMA_FROM_DEVICE; stdout and status."""
        r = subprocess.run(['python3', f'{self.env.top}/arch-arm/model/dmaseq.py', tree,
                            '--file', file], stdout=subprocess.PIPE, text=True, check=False)
        words = [(l.split() + ['', ''])[1] for l in r.stdout.splitlines()]
        return ' '.join(words), r.returncode

    def cachemodel(self, elf, *opts):
        """cachemodel on ELF, the outer scenarios."""
        sc = [x for s in SCENARIOS for x in ('--scenario', s)]
        return run([self.env.cm, '--elf', elf, '--map', self.map, '--unmap', self.unmap,
                    *self.args, f'--outer={self.l2}', *sc, *opts])

    def run(self, elf, seq, *opts):
        """In the order SEQ ("MAPSEQ UNMAPSEQ")."""
        mseq, useq = seq_parts(seq)
        return self.cachemodel(elf, '--map-seq', mseq, '--unmap-seq', useq, *opts)

    def keep(self, tree, out, results):
        """cachemodel's lines OUT, of TREE, onto RESULTS."""
        results += [f'{tree} {l}' for l in out.split('\n')] if out else []

    def result(self, tree, s, results=None):
        """The L1 and L2 lines of one result (of RESULTS), joined."""
        return ''.join(l.split(' ', 2)[2] + ' ' for l in
                       (self.results if results is None else results)
                       if l.startswith(f'{tree} {s} '))

    def like(self, src):
        """The object whose recorded kbuild command compiles controller
        source SRC: its own where the build made it, else dma-mapping.o
        (no configuration here builds it otherwise)."""
        obj = f'{src[:-2]}.o'
        return obj if os.path.isfile(self.env.build(self.cfg, f'arch/arm/mm/{obj}')) \
            else 'dma-mapping.o'

    def link(self, l1obj, l2obj, elf, *more):
        """With the stubs of the kernel functions the controller calls."""
        return kbuild.link(self.env, l1obj, l2obj, *more, self.env.stubs, elf=elf)


def untouched(env, src):
    """Stop when the series changes SRC, whose base object both trees use."""
    if subprocess.run(['git', '-C', env.patched_src, 'diff', '--quiet', env.model_base,
                       'HEAD', '--', src], check=False).returncode:
        die(f'the series changes {src}: build its patched object')


def seq_parts(seq):
    return seq.rsplit(' ', 1)[0], seq.split(' ', 1)[-1]


def base_ok(s, lost, exp, dw, l2dm, l2d):
    if s == 'maponly':
        # the L2 holds dirty CPU data at map and the outer invalidate
        # discards it
        return lost > 0 and l2dm > 0 and l2d == l2dm and dw == 0
    if s == 'boards100warm':
        # 4 KiB fits the L1: the L1 invalidate loses it all
        return lost > 0 and dw == 0
    if s == 'short':
        return exp > 0 and l2d > 0 and dw == 0
    return exp > 0 and dw == 0


def outer_runs(m):
    """The L2C-310 runs, the mutations that must fail them and the
    compiled dma-mapping.c's order."""
    o = outer_verdict(m)
    outer_mutations(o, o.l2obj)
    dma_mapping_runs(o, o.l2obj)
    return o


def outer_verdict(m):
    """The L2C-310 runs of each tree, in the order its dma-mapping.c has:
    the base loses, the patched tree keeps (tools/run's verdict)."""
    env, log = m.env, m.log
    o = Outer(m)
    l2x0 = env.build('omap2plus', 'arch/arm/mm/cache-l2x0.o')
    if not os.path.isfile(l2x0):
        die('omap2plus built no cache-l2x0.o')
    untouched(env, 'arch/arm/mm/cache-l2x0.c')
    o.l2obj = l2x0              # suite.py links the suite with it too
    for tree in ('base', 'patched'):
        d = f'{env.obj}/{tree}/omap2plus'
        o.link(f'{d}/cache-v7.o', l2x0, f'{d}/outer.elf')
    for tree, src in (('base', env.base_src), ('patched', env.patched_src)):
        seq, rc = o.dmaseq(src)
        if rc:
            die(f'arch-arm/model/dmaseq.py failed on {src}')
        o.seq[tree] = seq
        mseq, useq = seq_parts(seq)
        log.comment(f'outer: {tree} dma-mapping.c, DMA_FROM_DEVICE: map {mseq}, unmap {useq}')
        out = o.run(f'{env.obj}/{tree}/omap2plus/outer.elf', seq)
        o.keep(tree, out, o.results)
    # the order the kernel code implies: L1 clean before the L2 clean at
    # map, the L2 invalidate before the L1's at unmap
    log.result(o.seq['base'] == 'inner,outer_inv outer_inv,inner',
               'outer_sequence_base_map_invalidates_the_l2')
    log.result(o.seq['patched'] == 'inner,outer_clean outer_inv,inner',
               'outer_sequence_patched_map_cleans_the_l2')
    # dma-mapping-nommu.c (no MMU) calls the same steps directly: with
    # the same order, the runs below stand for it too (no build here
    # has an outer cache without an MMU)
    for tree, src in (('base', env.base_src), ('patched', env.patched_src)):
        seq, rc = o.dmaseq(src, 'dma-mapping-nommu.c')
        log.comment(f'outer: {tree} dma-mapping-nommu.c, DMA_FROM_DEVICE: {seq or "none"}')
        log.result(rc == 0 and seq == o.seq[tree],
                   f'outer_sequence_{tree}_nommu_same_as_dma_mapping')
    for s in SCENARIOS:
        for tree in ('base', 'patched'):
            check_outer(o, tree, s)
    # the compiled l2c210_clean_range ran: one CLEAN_LINE_PA per line, a sync
    r = o.result('patched', 'maponly')
    log.result(field('l2clean', r) == str(409600 // 32) and field('l2sync', r) == '2',
               'outer_patched_map_cleans_each_l2_line_once')
    return o


def compile_c(env, cfg, src, out, like='dma-mapping.o', extra=''):
    """SRC (C) compiled with the kbuild command recorded for CFG's
    object LIKE (and EXTRA flags), to OUT-HASH.o; reused while the
    source, the command and the build are the same."""
    cmd = kbuild.recorded_cmd(env, cfg, like)
    h = hashlib.sha1()
    for p in (src, env.build(cfg, '.coverage-config-id')):
        with open(p, 'rb') as fh:
            h.update(fh.read())
    h.update(f'{cmd} {extra}\n'.encode())
    obj = f'{out}-{h.hexdigest()[:16]}.o'
    if not os.path.isfile(obj):
        os.makedirs(os.path.dirname(obj), exist_ok=True)
        kbuild.run_recorded(env, cfg, cmd, f'{obj}.tmp', rf' [^ ]+/{re.escape(like[:-2])}\.c *$',
                            f'{extra} {src}'.strip(), f'compiling {src}')
        os.rename(f'{obj}.tmp', obj)
    return obj


# what a compiled dma-mapping.o run must give as the modelled order did
AGREE = ('lost', 'exposed', 'devwrong', 'neigh', 'dirtymap', 'l2dirtymap', 'l2discarded')


def dma_mapping_runs(o, l2obj, mutations=True):
    """The same scenarios with the compiled dma-mapping.o of each tree
    (cachemodel --dma-mapping: arch_sync_dma_for_device() and
    arch_sync_dma_for_cpu() call O's backend and the controller L2OBJ
    through cpu_cache and outer_cache): they must give what the order
    read by dmaseq.py gave; and, with MUTATIONS, two of the order
    mutations, compiled."""
    env, log, m, cfg, name = o.env, o.m.log, o.m, o.cfg, o.name
    probe = compile_c(env, cfg, f'{env.top}/arch-arm/model/probe.c',
                      f'{env.obj}/base/{cfg}/probe')
    o.dm_results = []

    def elf(tree, dm):
        d = f'{env.obj}/{tree}/{cfg}'
        l1 = f'{env.obj}/{"patched" if tree == "mut" else tree}/{cfg}/{o.l1obj}'
        return o.link(l1, l2obj, f'{d}/dma-mapping-{name or "l2c310"}-'
                                  f'{os.path.basename(dm)[:-2]}.elf', dm, probe)

    objs = {'base': env.build(cfg, 'arch/arm/mm/dma-mapping.o'),
            'patched': compile_c(env, cfg, f'{env.patched_src}/arch/arm/mm/dma-mapping.c',
                                 f'{env.obj}/patched/{cfg}/dma-mapping')}
    for tree, dm in objs.items():
        out = o.cachemodel(elf(tree, dm), '--dma-mapping')
        o.keep(tree, out, o.dm_results)
        for s in SCENARIOS:
            r = o.result(tree, s, o.dm_results)
            want = o.result(tree, s)
            got = [field(k, r) for k in AGREE]
            log.comment(f'dma-mapping.o {name + " " if name else ""}{tree} {s}: ' +
                        ' '.join(f'{k} {v}' for k, v in zip(AGREE, got)))
            log.result(all(got) and got == [field(k, want) for k in AGREE],
                       f'outer_{tree}_{name + "_" if name else ""}dma_mapping_o_{s}'
                       '_as_the_order_read')
    if not mutations:
        return
    # the map's outer_clean_range() back to outer_inv_range(), and the
    # unmap's L1 invalidate before the L2's, in the compiled code
    for mname, func, ops in (('map_invalidates_l2', MAPF, MAP_INVALIDATES),
                             ('unmap_l1_before_l2', UNMAPF, UNMAP_L1_FIRST)):
        dma_mut(o, func, ops)
        dm = compile_c(env, cfg, f'{env.mut_src}/arch/arm/mm/dma-mapping.c',
                       f'{env.obj}/mut/{cfg}/dma-mapping')
        out = o.cachemodel(elf('mut', dm), '--dma-mapping')
        log.comment(f'outer mutation: compiled dma-mapping.o, {mname}: {mut_summary(out)}')
        log.result(l1_caught(out) == 0, f'mutation_outer_dma_mapping_o_{mname}_caught')
        mut_reset(m)


def check_outer(o, tree, s, name=None, base_check=None, extra='l2sync'):
    """One outer run of TREE in scenario S: the base loses (BASE_CHECK),
    the patched tree loses nothing."""
    log = o.m.log
    r = o.result(tree, s)
    name = name or f'outer_{tree}_v7_32_l2c310_{s}'
    if not field('lost', r) or not field('l2inv', r):
        log.comment(f'{name}: {r or "no result"}')
        log.result(False, name)
        return
    f = lambda k: field(k, r)
    log.comment(f'{name}: lost {f("lost")} exposed {f("exposed")} devwrong {f("devwrong")} '
                f'neigh {f("neigh")}; L1 dirty at map {f("dirtymap")}, L2 dirty at map '
                f'{f("l2dirtymap")}, L2 dirty lines discarded {f("l2discarded")}, L2 line ops '
                f'inv/clean/flush {f("l2inv")}/{f("l2clean")}/{f("l2flush")}, '
                f'{"syncs" if extra == "l2sync" else "ranges"} {f(extra)}')
    if tree == 'base':
        v = nums(r, 'lost', 'exposed', 'devwrong', 'l2dirtymap', 'l2discarded')
        ok = v is not None and (base_check or base_ok)(s, *v)
    else:
        v = nums(r, 'lost', 'exposed', 'devwrong', 'neigh', 'l2discarded')
        ok = v == [0, 0, 0, 0, 0]
    log.result(ok, name)


def mut_summary(out):
    """Scenario and damage counts of each L1 line, an error as it is."""
    parts = []
    for line in out.split('\n'):
        if ' l2inv=' in line:
            continue
        f = line.split()
        if len(f) > 1 and f[1].startswith('error='):
            parts.append(f'{f[0]} {line[line.find(f[1]):]}')
            continue
        keys = ('lost', 'exposed', 'devwrong', 'neigh')
        parts.append(' '.join(f[:1] + [x for x in f[1:] if '=' in x and x.split('=')[0] in keys]))
    return ', '.join(parts)


def outer_mut(o, name, elf, seq, *opts):
    """0 caught, 1 not, 2 errored."""
    out = o.run(elf, seq, *opts)
    o.m.log.comment(f'{o.mut_label}: {name}: {mut_summary(out)}')
    return l1_caught(out)


def l1_caught(out):
    """caught() of cachemodel's L1 lines (the L2 lines count no damage)."""
    return caught('\n'.join(l for l in out.split('\n') if ' l2inv=' not in l))


# dma-mapping.c's map with outer_inv_range() again, and its unmap
# invalidating the L1 before the L2 (sed_edit operations)
MAP_CLEAN = r'^\touter_clean_range\(paddr, paddr \+ size\);$'
MAP_INVALIDATES = [('s', MAP_CLEAN, r'\touter_inv_range(paddr, paddr + size);')]
UNMAP_L1_FIRST = [
    ('d', r'^\t\touter_inv_range\(paddr, paddr \+ size\);$'),
    ('s', r'^(\t\tdma_cache_maint_page\([^)]*, dmac_unmap_area\);)$',
     r'\1\n\t\touter_inv_range(paddr, paddr + size);')]

# The map and unmap functions: __dma_page_cpu_to_dev()/_dev_to_cpu()
# before 6.14, taking a page and an offset; arch_sync_dma_for_device()/
# _for_cpu() since, taking a physical address (mainline, by hand).
MAPF = '__dma_page_cpu_to_dev|arch_sync_dma_for_device'
UNMAPF = '__dma_page_dev_to_cpu|arch_sync_dma_for_cpu'


def dma_mut(o, func, ops):
    """Edit the function of FUNC (alternatives) in the mutation tree's
    dma-mapping.c, or stop."""
    f = f'{o.env.mut_src}/arch/arm/mm/dma-mapping.c'
    if not sed_edit(f, ops, rf'^(static )?void ({func})\(', r'^}'):
        die(f'mutation of {func} found nothing')
    # a mutation dmaseq.py cannot read runs with what it printed, as the
    # shell version did: the run then errors or is not caught
    return o.dmaseq(o.env.mut_src)[0]


def controller_mut(o, src, func, ops):
    """The patched backend linked with controller source SRC (under
    arch/arm/mm/) whose FUNC has had OPS (sed_edit) applied in the
    mutation tree, compiled as o.like(SRC) says."""
    env = o.env
    f = f'{env.mut_src}/arch/arm/mm/{src}'
    if not sed_edit(f, ops, rf'^static void {func}\(', r'^}'):
        die(f'mutation of {func} found nothing')
    d = f'{env.obj}/mut/{o.cfg}'
    obj = compile_c(env, o.cfg, f, f'{d}/{src[:-2]}', o.like(src))
    return o.link(f'{env.obj}/patched/{o.cfg}/{o.l1obj}', obj, f'{d}/outer-{o.l2}.elf')


def l2x0_mut(o, to):
    """l2c210_clean_range writes register TO instead of CLEAN_LINE_PA."""
    return controller_mut(o, 'cache-l2x0.c', 'l2c210_clean_range',
                          [('s', 'L2X0_CLEAN_LINE_PA', to)])


def outer_mutations(o, l2x0):
    """Mutations of the outer path, on the patched tree."""
    log, m = o.m.log, o.m
    pelf = f'{o.env.obj}/patched/omap2plus/outer.elf'

    def seq_comment(what, seq):
        mseq, useq = seq_parts(seq)
        log.comment(f'outer mutation: dma-mapping.c {what}: map {mseq}, unmap {useq}')

    # 1. the map's outer_clean_range() turned back into outer_inv_range()
    seq = dma_mut(o, MAPF, MAP_INVALIDATES)
    seq_comment('map with outer_inv_range', seq)
    log.result(outer_mut(o, 'outer map invalidates the L2', pelf, seq) == 0,
               'mutation_outer_map_invalidates_l2_caught')
    mut_reset(m)
    # 1b. the map cleans the L2 before the L1: what the L1 clean then
    # writes into the L2 stays dirty there (lost at unmap, or evicted
    # over the device's data)
    seq = dma_mut(o, MAPF, [
        ('d', MAP_CLEAN),
        ('s', r'^(\tdma_cache_maint_page\(page, off, size, dir, dmac_map_area\);)$',
         r'\tpaddr = page_to_phys(page) + off;\n\touter_clean_range(paddr, paddr + size);\n\1'),
        ('s', r'^(\tdma_cache_maint_page\(paddr, size, dir, dmac_map_area\);)$',
         r'\touter_clean_range(paddr, paddr + size);\n\1')])
    seq_comment('map, L2 before L1', seq)
    log.result(outer_mut(o, 'outer map L2 before L1', pelf, seq) == 0,
               'mutation_outer_map_l2_before_l1_caught')
    mut_reset(m)
    # 2. the unmap invalidates the L1 before the L2: a line the CPU
    # allocates in between comes from the stale L2 (errata/ordering: L2
    # first)
    seq = dma_mut(o, UNMAPF, UNMAP_L1_FIRST)
    seq_comment('unmap, L1 before L2', seq)
    log.result(outer_mut(o, 'outer unmap L1 before L2', pelf, seq) == 0,
               'mutation_outer_unmap_l1_before_l2_caught')
    log.result(outer_mut(o, 'same, speculation off', pelf, seq, '--no-spec') == 1,
               'mutation_outer_unmap_l1_before_l2_needs_speculation')
    mut_reset(m)
    # 3. the compiled l2c210_clean_range writes INV_LINE_PA
    elf = l2x0_mut(o, 'L2X0_INV_LINE_PA')
    log.result(outer_mut(o, 'l2c210_clean_range writes INV_LINE_PA', elf, o.seq['patched']) == 0,
               'mutation_outer_l2c210_clean_range_invalidates_caught')
    mut_reset(m)
    # a register the model does not know (CLEAN_WAY) stops the run: an
    # error, which is never a catch
    elf = l2x0_mut(o, 'L2X0_CLEAN_WAY')
    log.result(outer_mut(o, 'l2c210_clean_range writes CLEAN_WAY', elf, o.seq['patched']) == 2,
               'mutation_outer_unknown_l2_register_errors')
    mut_reset(m)
