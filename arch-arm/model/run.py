#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The cache model's before/after table: every 32-bit ARM cache
backend's compiled *_dma_map_area/*_dma_unmap_area, base tree and
patched tree, executed in Unicorn against a write-back (or
write-through) data cache model. Prints KTAP: model self-tests, one test
per backend x configuration x scenario x tree, controls, mutation runs
and the cost checks; regenerates model.md, cost.md and cost-summary.txt
in Documentation/results/BASE/.

Run by arch-arm/model/run, which sets the environment (tools/lib.sh's base,
tree and paths); not on its own.

    runs.py        the runs, their options and what each must show
    mutations.py   self-tests, decoder and source mutations
    outer.py       the L2C-310 behind the Cortex-A9
    outer_others.py the L2C-220, Feroceon L2, Tauros2 and XSC3 L2
    suite.py       the KUnit suite's compiled code on each core
    suite_md.py    its page, suite-model.md
    bench.py       dma_map_benchmark's fill (patch 6) on each core
    tables.py      model.md
    cost.py        cost.md and the cost checks
    kbuild.py      objects, on arch-arm/coverage/run's base builds and
                   arch-arm/model/worktrees's worktrees
"""

import fcntl
import os
import re
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import bench                            # noqa: E402
import cost                             # noqa: E402
import kbuild                           # noqa: E402
import mutations                        # noqa: E402
import outer                            # noqa: E402
import outer_others                     # noqa: E402
import runs                             # noqa: E402
import suite                            # noqa: E402
import suite_md                         # noqa: E402
import tables                           # noqa: E402
from common import Env, Log, Timer, die, field, git  # noqa: E402


def lock(env, path, who):
    """One run at a time: the worktrees and build directories are
    shared. Waits up to 900 s, as flock -w 900 did."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o644)
    for _ in range(900):
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return fd
        except BlockingIOError:
            time.sleep(1)
    die(f'another {who} run holds {path}')


def build_model(env):
    """The model's binaries, shared by the bases, whose runs tools/check
    may run at once: one make at a time."""
    os.makedirs(env.out, exist_ok=True)
    fd = lock(env, f'{env.out}.lock', 'build of arch-arm/model')
    r = subprocess.run(['make', '-s', '-C', f'{env.top}/arch-arm/model', f'OUT={env.out}'],
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                       check=False)
    os.close(fd)
    if r.returncode:
        sys.stderr.write(r.stderr)
        die('building arch-arm/model failed')


def backends(env, src):
    """The cpu_cache_fns tables of the tree SRC (cache.c since 6.6, the
    define_cache_functions macro before): (name, map, unmap, guard)."""
    r = subprocess.run(['python3', f'{env.top}/arch-arm/model/backends.py', src],
                       stdout=subprocess.PIPE, text=True, check=False)
    if r.returncode:
        die(f'arch-arm/model/backends.py failed on {src}')
    lines = r.stdout.splitlines()
    if len(lines) < 20:
        die(f'found only {len(lines)} cpu_cache_fns tables in {src}')
    return [tuple((l.strip().split(None, 3) + ['', '', '', ''])[:4]) for l in lines]


def invalidators(env):
    """Map routines that invalidate for FROM_DEVICE on the base (as
    tools/checks/10-series greps them)."""
    out = git(env.base_src, 'grep', '-h', '-A6', '-E',
              r'^(SYM_TYPED_FUNC_START|ENTRY)\([a-z0-9_]+_dma_map_area\)', '--',
              'arch/arm/mm/*.S', check=False)
    found, f = set(), ''
    for line in out.splitlines():
        if re.search(r'_dma_map_area\)', line):
            f = line
        if '_dma_inv_range' in line:
            found.add(re.sub(r'.*\((.*)\)', r'\1', f, count=1))
    return found


def boards_py(env, opt):
    r = subprocess.run(['python3', f'{env.top}/arch-arm/model/boards.py', opt],
                       stdout=subprocess.PIPE, text=True, check=False)
    if r.returncode:
        die(f'arch-arm/model/boards.py {opt} failed')
    return r.stdout


def boards(env):
    return [tuple((l.strip().split(None, 3) + ['', '', '', ''])[:4])
            for l in boards_py(env, '--runs').splitlines()]


def verdict(m, t, tmp):
    """tools/run's verdict: the boards' test on the boards' cores (the
    base loses where the owners reported a loss, the patched tree
    nothing) and the Cortex-A9 with its L2C-310 (outer.outer_verdict).
    Builds only the configurations these use; writes no Documentation.
    Returns the seconds of each phase."""
    env, log = m.env, m.log
    bl = boards(env)
    cfgs = sorted({b[2] for b in bl} | {outer.Outer.cfg})
    log.comment(f'verdict: the boards\' cores and the Cortex-A9 + L2C-310; '
                f'configurations {", ".join(cfgs)} only (arch-arm/model/run: all of them)')
    t.start()
    kbuild.model_build(env, 'trees')
    t_trees = t.lap()
    kbuild.build_all(env, tmp, cfgs)
    t_build = t.lap()
    symobj, _ = kbuild.objects(env, cfgs)
    m.read_cores()
    t_asm = t.lap()
    found, _, _ = runs.find_runs(m, backends(env, env.base_src), symobj,
                                 backends(env, env.patched_src))
    runs.run_all(m, found, bl, boards_only=True)
    runs.check_boards(m, found, bl)
    for key in boards_py(env, '--lost').split():
        b = next(x for x in bl if x[0] == key)
        r = m.result('base', f'board-{key}', b[2], 'boards100warm')
        lost = field('lost', r)
        log.comment(f'board {key}: the owners reported a loss; base, boards100warm, lost {lost}')
        log.result(lost.isdigit() and int(lost) > 0,
                   f'board_{key}_boards100warm_base_loses')
    t_run = t.lap()
    outer.outer_verdict(m)
    t_outer = t.lap()
    return t_trees, t_build, t_asm, t_run, t_outer


def print_tests(log):
    """The KTAP header and the numbered tests with their comments."""
    print('KTAP version 1')
    print(f'1..{len(log.tests())}')
    for line in log.numbered():
        print(line)


def main():
    env, log, t = Env(), Log(), Timer()
    if sys.argv[1:] not in ([], ['--verdict']):
        die('usage: arch-arm/model/run [--verdict]')
    os.makedirs(env.obj, exist_ok=True)
    fd = lock(env, f'{env.model_dir}/lock', 'arch-arm/model/run')
    # The base builds and their worktree are arch-arm/coverage/run's: held for
    # the whole run, in which the model reads them.
    cov_fd = lock(env, f'{env.cache_dir}/coverage.lock', 'arch-arm/coverage/run or arch-arm/model/run')
    build_model(env)
    m = runs.Model(env, log)
    if sys.argv[1:] == ['--verdict']:
        with tempfile.TemporaryDirectory() as tmp:
            times = verdict(m, t, tmp)
        print_tests(log)
        failed = sum(1 for l in log.tests() if l.startswith('not ok'))
        print('# timings: worktrees {}s, builds {}s, assembling {}s, boards {}s, '
              'outer cache {}s, total {}s'.format(*times, t.total()))
        print(f'{len(log.tests()) - failed} passed, {failed} failed, 0 skipped')
        return 1 if failed else 0
    with tempfile.TemporaryDirectory() as tmp:
        times = phases(m, t, tmp)
        doc = tables.model_md(m, m.runs, m.aliases, m.unbuilt, m.outer, tmp)
        cost.cost_md(m, m.runs)
        suite_md.suite_md(m, m.suite)
    print_tests(log)
    print(f'# model table (Documentation/results/{env.base}/model.md):')
    for line in doc:
        if line.startswith('|'):
            print(f'# {line}')
    print('# timings: worktrees {}s, builds {}s, assembling {}s, model runs {}s, mutations {}s, '
          'outer cache {}s, KUnit suite and benchmark {}s, total {}s'.format(*times, t.total()))
    passed, failed, skipped = tables.totals(m)
    print(f'{passed} passed, {failed} failed, {skipped} skipped')
    os.close(cov_fd)
    os.close(fd)
    return 1 if failed else 0


def phases(m, t, tmp):
    """Trees, objects, runs, mutations and the outer cache, in the order
    of the KTAP output. Returns the seconds of each phase."""
    env, log = m.env, m.log
    t.start()
    kbuild.model_build(env, 'trees')
    m.patched_head = git(env.patched_src, 'rev-parse', 'HEAD').strip()
    t_trees = t.lap()
    kbuild.build_all(env, tmp)
    t_build = t.lap()
    tables_ = backends(env, env.base_src)
    patched_tables = backends(env, env.patched_src)
    invalidating = invalidators(env)
    symobj, objs = kbuild.objects(env)
    t_asm = t.lap()
    same, fns = kbuild.sa110_dma_routines(env, tmp)
    log.comment(f'v4wb built for the SA-110: {", ".join(fns)} as the SA-1100 build\'s: {same}')
    log.result(same, 'v4wb_sa110_dma_routines_as_built_for_sa1100')
    mutations.selftests(m)
    m.read_cores()
    mutations.recorded_commands(m, objs, tmp)
    mutations.decoder_mutations(m, tmp)
    t.start()
    m.runs, m.aliases, m.unbuilt = runs.find_runs(m, tables_, symobj, patched_tables)
    bl = boards(env)
    runs.run_all(m, m.runs, bl)
    runs.check_boards(m, m.runs, bl)
    t_run = t.lap()
    log.comment('backends (cpu_cache_fns tables): ' + ''.join(f'{b[0]} ' for b in tables_))
    for b, guard in m.unbuilt:
        log.comment(f'not built by any configuration: {b} (needs {guard})')
    runs.check_runs(m, m.runs, invalidating)
    runs.check_ctr(m, m.runs)
    runs.check_builds(m, m.runs)
    t.start()
    mutations.series_mutations(m, m.runs, invalidating)
    t_mut = t.lap()
    m.outer = outer.outer_runs(m)
    m.others = outer_others.other_outer_runs(m, m.outer)
    t_outer = t.lap()
    m.suite = suite.suite_runs(m)
    bench.bench_runs(m, m.suite)
    t_suite = t.lap()
    return t_trees, t_build, t_asm, t_run, t_mut, t_outer, t_suite


if __name__ == '__main__':
    sys.exit(main())
