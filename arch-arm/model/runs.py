# SPDX-License-Identifier: GPL-2.0
"""The runs: every (backend, configuration) whose map and unmap routines
were built, its cachemodel options, its results on the base and the
patched tree, and what each must show.
"""

import os
import subprocess
from concurrent.futures import ThreadPoolExecutor

import kbuild
from common import die, field, num, nums, rest, run

SCEN_MAIN = ('maponly', 'short', 'unaligned')
SCEN_RT = ('rt256', 'rt1m', 'rt1mclean')
SCEN_BOARDS = ('boards100', 'boards100warm')

# The core whose L1 geometry (arch-arm/model/cores.c) each backend runs
# with; write-through and cacheless rows borrow one.
CORES = {
    'v4': 'arm920t', 'v4wt': 'arm920t', 'arm920': 'arm920t',
    'v4wb': 'sa1100', 'fa': 'fa526', 'v6': 'arm11mpcore',
    'v7': 'cortex-a15', 'b15': 'cortex-a15', 'v7_32': 'cortex-a9',
    'v7m': 'cortex-m7', 'nop': 'cortex-m7',
    'arm1020': 'arm1020e', 'arm1020e': 'arm1020e', 'arm1022': 'arm1022e',
    'arm1026': 'arm1026ejs', 'arm922': 'arm922t', 'arm925': 'arm925t',
    'arm926': 'arm926ejs', 'arm940': 'arm940t', 'arm946': 'arm946es',
    'xscale': 'xscale', 'xscale_80200_A0_A1': 'xscale',
    'xsc3': 'xsc3', 'mohawk': 'mohawk', 'feroceon': 'feroceon',
    'feroceon_range': 'feroceon',
}

# The same compiled routines run again on other cores of their
# architecture: (run name, core). v7 reads its line length from CTR,
# so it runs at 64 bytes (A15, A7, A8) and 32 (A9, A5); v6 has a fixed
# 32-byte line and runs on an MPCore and on the read-allocate ARM1176
# and ARM1136; v4wb on the SA-1100 and the SA-110.
TWINS = {
    'v7': (('v7_32', 'cortex-a9'), ('v7_a7', 'cortex-a7'), ('v7_a8', 'cortex-a8'),
           ('v7_a5', 'cortex-a5')),
    'v6': (('v6_1176', 'arm1176'), ('v6_1136', 'arm1136')),
    # the SA-110's build differs from the SA-1100's only in CACHE_DSIZE,
    # which no DMA routine uses (kbuild.sa110_dma_routines checks it)
    'v4wb': (('v4wb_sa110', 'sa110'),),
}
TWIN_OF = {t: b for b, ts in TWINS.items() for t, _ in ts}
CORES.update({t: c for ts in TWINS.values() for t, c in ts})
KINDS = {'v6': 'v6', 'v7': 'v7', 'b15': 'v7', 'v7m': 'v7m'}
KINDS.update({t: KINDS[b] for t, b in TWIN_OF.items() if b in KINDS})

# Backends whose cpu_cache_fns table the series removes (mainline's
# patch 3; the stable backports keep them), with the table the patched
# tree gives their CPUs instead and why: the patched run of such a row
# runs that table's routines, on the same core. A table missing from
# the patched tree and not named here stops the run.
SUCCESSORS = {
    'xscale_80200_A0_A1': ('xscale', 'the series removes its table and the proc_info '
                           'entry that selected it; the 80200 entry that follows, '
                           'which gives xscale_cache_fns, matches the A0 and A1 too '
                           '(proc-xscale.S)'),
}


class Run:
    """One (backend, configuration): a line of the model table."""

    def __init__(self, b, map_, unmap, cfg, obj, how):
        self.b, self.map, self.unmap = b, map_, unmap
        self.cfg, self.obj, self.how = cfg, obj, how
        # the patched tree's routines (patched_routines()), and the
        # table they come from when the series removed this one's
        self.pmap, self.punmap, self.successor = map_, unmap, None

    def routines(self, tree):
        """(map, unmap) that TREE's run of this row calls."""
        if tree == 'patched':
            return self.pmap, self.punmap
        return self.map, self.unmap


class Model:
    """The state of one arch-arm/model/run run that the parts share."""

    def __init__(self, env, log):
        self.env, self.log = env, log
        self.configs = {}
        self.results = []       # "TREE BACKEND CONFIG <cachemodel line>"
        self.first = {}         # (tree, backend, cfg, scenario) -> line

    def dotconfig(self, cfg):
        if cfg not in self.configs:
            with open(self.env.build(cfg, '.config'), encoding='utf-8') as f:
                self.configs[cfg] = set(f.read().splitlines())
        return self.configs[cfg]

    def has(self, cfg, line):
        return line in self.dotconfig(cfg)

    def rwfo(self, cfg):
        """CFG builds v6's read/write-for-ownership DMA routines."""
        return self.has(cfg, 'CONFIG_DMA_CACHE_RWFO=y')

    def read_cores(self):
        """name|size|ways|line|replacement|allocation|CTR|source."""
        r = subprocess.run([self.env.cm, '--cores'], stdout=subprocess.PIPE,
                           text=True, check=False)
        if r.returncode:
            die('cachemodel --cores failed')
        self.cores_text = r.stdout
        self.cores = {}
        for line in r.stdout.splitlines():
            f = line.split('|')
            self.cores.setdefault(f[0], f)

    def core_field(self, core, n):
        f = self.cores.get(core)
        return f[n - 1] if f and len(f) >= n else ''

    def args(self, b, cfg):
        """cachemodel options for backend B in configuration CFG."""
        if b not in CORES:
            die(f'no modelled core for backend {b}')
        kind = KINDS.get(b, 'legacy')
        pol = 'wb'
        if self.has(cfg, 'CONFIG_CPU_DCACHE_WRITETHROUGH=y'):
            pol = 'wt'
        if b in ('v4', 'v4wt'):
            pol = 'wt'          # write-through caches by definition
        elif b == 'nop':
            pol = 'none'        # no cache
        a = ['--kind', kind, '--core', CORES[b], '--policy', pol]
        # v6/v7 memory is write-back write-allocate on SMP kernels, read-
        # allocate (PMD_SECT_WB) on UP ones; v7-M and v4/v5 as their core
        if kind in ('v6', 'v7'):
            # a core cores.c lists as read-allocate has no multiprocessing
            # extensions: an SMP kernel patches itself to the UP attributes
            # on it (ALT_UP: PMD_FLAGS_UP = PMD_SECT_WB)
            smp = (self.has(cfg, 'CONFIG_SMP=y') and
                   self.core_field(CORES[b], 6) == 'write')
            a += ['--alloc', 'write' if smp else 'read']
        elif kind == 'legacy' and self.has(cfg, 'CONFIG_CPU_CACHE_ROUND_ROBIN=y'):
            a += ['--repl', 'rr']
        # DMA_CACHE_RWFO "is only valid on processors that do not perform
        # speculative loads into the D-cache" (its Kconfig help), and its
        # v6 unmap does nothing: model such a CPU
        if kind == 'v6' and self.rwfo(cfg):
            a.append('--no-spec')
        if self.has(cfg, 'CONFIG_THUMB2_KERNEL=y'):
            a.append('--thumb')
        return a

    def policy(self, run_):
        return self.args(run_.b, run_.cfg)[5]

    def line_of(self, args):
        """The line length of the core named by --core."""
        return self.core_field(args[args.index('--core') + 1], 4)

    def alloc_of(self, args):
        """write or read, as --alloc or the core's default."""
        if '--alloc' in args:
            return args[args.index('--alloc') + 1]
        return self.core_field(args[args.index('--core') + 1], 6)

    def result(self, tree, b, cfg, scen):
        return self.first.get((tree, b, cfg, scen), '')

    def add_results(self, prefix, out):
        for line in out.split('\n') if out else []:
            line = f'{prefix} {line}'
            self.results.append(line)
            f = line.split(' ')
            if len(f) > 4:
                self.first.setdefault(tuple(f[:4]), line)

    def cachemodel(self, elf, run_, *extra, tree='base'):
        map_, unmap = run_.routines(tree)
        return run([self.env.cm, '--elf', elf, '--map', map_,
                    '--unmap', unmap, *self.args(run_.b, run_.cfg), *extra])


def find_runs(m, backends, symobj, patched):
    """Every (backend, configuration) whose map and unmap were built,
    with the routines of the PATCHED tree's tables; backends sharing
    another's routines, and those no build has."""
    runs, aliases, unbuilt = [], [], []
    for b, map_, unmap, guard in backends:
        alias = next(x[0] for x in backends if x[1] == map_ and x[2] == unmap)
        if alias != b:
            aliases.append((b, alias))
            continue
        found = False
        for cfg, o, sym, how in symobj:
            if sym != map_:
                continue
            if not any(c == cfg and oo == o and s == unmap for c, oo, s, _ in symobj):
                continue
            runs.append(Run(b, map_, unmap, cfg, o, how))
            found = True
        if not found:
            unbuilt.append((b, guard))
    runs += [Run(t, r.map, r.unmap, r.cfg, r.obj, r.how)
             for r in list(runs) for t, _ in TWINS.get(r.b, ())]
    patched_routines(runs, patched)
    return runs, aliases, unbuilt


def patched_routines(runs, patched):
    """Each run's routines in the patched tree: its own table's, or,
    where the series removed that table, its successor's (SUCCESSORS)."""
    tables = {b: (map_, unmap) for b, map_, unmap, _ in patched}
    for r in runs:
        b = TWIN_OF.get(r.b, r.b)
        if b in tables:
            r.pmap, r.punmap = tables[b]
            continue
        succ = SUCCESSORS.get(b, (None,))[0]
        if succ not in tables:
            die(f'the patched tree has no {b} cpu_cache_fns table, and runs.SUCCESSORS '
                'names none of its tables for those CPUs')
        r.pmap, r.punmap = tables[succ]
        r.successor = succ


def elf_of(m, tree, run_):
    """The linked object of RUN in TREE, relinked when older than it."""
    o = f'{m.env.obj}/{tree}/{run_.cfg}/{run_.obj}'
    elf = o[:-2] + '.elf'
    if not (os.path.isfile(elf) and os.stat(elf).st_mtime_ns > os.stat(o).st_mtime_ns):
        kbuild.link(m.env, o)
    return elf


def run_all(m, runs, boards, boards_only=False):
    """Base and patched runs of every backend (all scenarios; not with
    BOARDS_ONLY), then the boards' test; two at a time, results kept in
    the shell's order."""
    jobs = []
    for r in [] if boards_only else runs:
        for tree in ('base', 'patched'):
            jobs.append((f'{tree} {r.b} {r.cfg}', elf_of(m, tree, r), r, (), tree))
    for key, bb, bcfg, bopts in boards:
        r = next((x for x in runs if x.b == bb and x.cfg == bcfg), None)
        if r is None:
            die(f'no run of {bb}/{bcfg} for board {key}')
        for tree in ('base', 'patched'):
            jobs.append((f'{tree} board-{key} {r.cfg}', elf_of(m, tree, r), r,
                         ('--scenario', 'boards100', '--scenario', 'boards100warm',
                          *bopts.split()), tree))
    with ThreadPoolExecutor(max(1, m.env.jobs)) as pool:
        outs = list(pool.map(lambda j: m.cachemodel(j[1], j[2], *j[3], tree=j[4]), jobs))
    for (prefix, *_), out in zip(jobs, outs):
        m.add_results(prefix, out)


def check_boards(m, runs, boards):
    log = m.log
    for key, bb, bcfg, bopts in boards:
        for s in SCEN_BOARDS:
            r = m.result('patched', f'board-{key}', bcfg, s)
            base = field('lost', m.result('base', f'board-{key}', bcfg, s))
            log.comment(f'board {key} ({bopts}), {s}: base {base}, patched {field("lost", r)}')
            v = nums(r, 'lost', 'devwrong')
            log.result(v is not None and v == [0, 0],
                       f'board_{key}_{s}_patched_loses_nothing')


def base_ok(m, r, s, v):
    """What a base run whose map invalidates a write-back cache must
    show in scenario S. Neighbours are not checked here: arm940's base
    inv_range invalidates the whole cache."""
    lost, exp, dw, nb, dm = v
    if s == 'boards100':
        # a cold buffer: a read-allocate cache sends the writes to
        # memory, nothing is dirty at map
        if m.alloc_of(m.args(r.b, r.cfg)) == 'write':
            return _ok(lost, dw) and lost > 0 and dw == 0
        return _ok(lost, dm, dw) and lost == 0 and dm == 0 and dw == 0
    if s in ('maponly', 'rt256', 'rt1m', 'boards100warm'):
        return _ok(lost, dw) and lost > 0 and dw == 0
    if s in ('short', 'unaligned'):
        return _ok(exp, dw) and exp > 0 and dw == 0
    return _ok(lost, dw) and lost == 0 and dw == 0


def _ok(*v):
    """Every value is a number: a test on a missing one fails."""
    return None not in v


def check_runs(m, runs, invalidating):
    """Each run against what it must show; unchanged controls."""
    log = m.log
    for r in runs:
        inv = r.map in invalidating
        expect_loss = inv and m.policy(r) == 'wb'
        if r.successor:
            log.comment(f'{r.b}/{r.cfg}: the patched tree has no {r.b} table; its CPUs get '
                        f'{r.successor}\'s, whose {r.pmap}/{r.punmap} the patched runs call')
        for s in SCEN_MAIN + SCEN_RT + SCEN_BOARDS:
            for tree in ('base', 'patched'):
                res = m.result(tree, r.b, r.cfg, s)
                name = f'{tree}_{r.b}_{r.cfg}_{s}'
                if not res or not field('lost', res):
                    log.comment(f'{name}: {res or "no result"}')
                    log.result(False, name)
                    continue
                v = [num(k, res) for k in ('lost', 'exposed', 'devwrong', 'neigh', 'dirtymap')]
                log.comment(f'{name}: lost {field("lost", res)} exposed {field("exposed", res)} '
                            f'devwrong {field("devwrong", res)} neigh {field("neigh", res)} '
                            f'dirty-at-map {field("dirtymap", res)} of '
                            f'{field("capacity", res)} lines')
                if tree == 'base' and expect_loss:
                    ok = base_ok(m, r, s, v)
                else:
                    ok = _ok(*v[:4]) and v[:4] == [0, 0, 0, 0]
                log.result(ok, name)
        if not inv:
            same = all(rest(m.result('base', r.b, r.cfg, s)) ==
                       rest(m.result('patched', r.b, r.cfg, s))
                       for s in SCEN_MAIN + SCEN_RT + SCEN_BOARDS)
            log.result(same, f'control_{r.b}_{r.cfg}_unchanged')


def check_ctr(m, runs):
    """The v7 code reads its line length from the modelled CTR: the
    patched map cleans each line of the 409,600-byte buffer once, at
    either length."""
    for r in runs:
        if 'v7' not in (r.b, TWIN_OF.get(r.b)):
            continue
        line = m.line_of(m.args(r.b, r.cfg))
        n = field('clean', m.result('patched', r.b, r.cfg, 'maponly'))
        m.log.comment(f'{r.b}/{r.cfg}: patched map-only cleans {n} lines of {line} bytes')
        ok = line.isdigit() and int(line) > 0 and n == str(409600 // int(line))
        m.log.result(ok, f'ctr_line_{line}_bytes_{r.b}_{r.cfg}')


def check_builds(m, runs):
    """No vacuous pass: each build is the kind of D-cache the table says
    (from its .config), a write-back build runs write-back backends and
    at least one whose base loses data, a write-through build none."""
    log = m.log
    nwb = nwt = 0
    for name, want in kbuild.CONFIGS:
        got = 'wt' if m.has(name, 'CONFIG_CPU_DCACHE_WRITETHROUGH=y') else 'wb'
        wb = [r for r in runs if r.cfg == name and m.policy(r) == 'wb']
        loss = [r for r in wb
                if (num('lost', m.result('base', r.b, r.cfg, 'maponly')) or 0) > 0]
        log.comment(f'build {name}: .config {got} (table: {want}), write-back backend '
                    f'runs {len(wb)}, losing on the base {len(loss)}')
        if want == 'wb':
            log.result(got == 'wb' and wb and loss,
                       f'build_{name}_is_writeback_and_loses_on_the_base')
            nwb += got == 'wb'
        else:
            log.result(got == 'wt' and not wb,
                       f'build_{name}_is_writethrough_and_runs_no_writeback_backend')
            nwt += got == 'wt'
    want_wb = sum(c[1] == 'wb' for c in kbuild.CONFIGS)
    want_wt = sum(c[1] == 'wt' for c in kbuild.CONFIGS)
    log.comment(f'builds by .config: {nwb} write-back, {nwt} write-through')
    log.result(nwb == want_wb and nwt == want_wt and nwb > 0 and nwt > 0,
               f'model_ran_{want_wb}_writeback_and_{want_wt}_writethrough_builds')
