# SPDX-License-Identifier: GPL-2.0
"""The KUnit suite in the model: kernel/dma/mapping_kunit.c, compiled
from the patched tree for each modelled core's configuration, runs every
case (cachemodel --suite) with the kernel's DMA mapping code
(kernel/dma/mapping.c, direct.c), the configuration's dma-mapping.o and
cache backend of the base or the patched tree, and the kernel's
memset()/memcpy(); kunit-stubs.c stands in for kmalloc() and KUnit.

Each core runs four ways: base or patched arch code, and the suite's fill
as the series has it (cpu_fill() loads each piece before writing it) or
as it was ("today's fill", the loads edited out). The base must fail
where the model's base loses data; the patched tree must pass; and with
today's fill the base passes on read-allocate cores, which is why the
loads are there (mutation_suite_no_warming_caught). The cores with an
outer cache (outer.py, outer_others.py) run the suite again behind it,
with the controller's compiled range operations linked in.
suite_results.py reads what each run printed.
"""

import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import kbuild
import runs
from common import die, num, run, sed_edit
from outer import compile_c, untouched
from suite_results import MAP_ONLY, case_names, crashes, failing, map_only_fails, parse, totals

SUITE = 'kernel/dma/mapping_kunit.c'
KUNIT = '-DCONFIG_KUNIT=1 -DCONFIG_DMA_MAPPING_KUNIT_TEST=1'
ROUNDS = 'dma_mapping_from_device_map_only_rounds'
# Rows over 64 KiB take four fifths of the instructions and run the same
# code over more lines; the 64 KiB row and the rounds case (400 KiB in
# all) already exceed every modelled L1.
SKIP = ('dma_mapping_from_device_map_only_large[409600B]',
        'dma_mapping_from_device_map_only_large[1MiB]',
        'dma_mapping_from_device_short_transfer_large[409600B_iso_1024_600]',
        'dma_mapping_from_device_short_transfer_large[256KiB_every_other]')
# the device of the cases in which one writes: the simulation, as the
# QEMU rows ask for it with mapping_kunit.device=alias (the model's
# vmap() is the device's alias of the window)
DEVICE = [('s', r'^static char \*device = "none";$', 'static char *device = "alias";')]
# The model runs one CPU and no scheduler: pin_cpu()'s migrate_disable()
# and unpin_cpu()'s migrate_enable() (inlines that read current and the
# runqueues in a built-in object) are left out of its copy.
ONE_CPU = [('s', r'^(\s+)migrate_(disable|enable)\(\);$', r'\1/* the model: one CPU */')]
# today's fill: cpu_fill() without its loads
TODAY = [('d', r'^\s+for \(i = 0; i < n; i \+= 4\)$'),
         ('d', r'^\s+\(void\)READ_ONCE\(buf\[pos')]
# Bases whose DMA_FROM_DEVICE map invalidates the whole data cache
# ("There is no efficient way to invalidate a specifid virtual address
# range. Thus, invalidates all.", proc-arm940.S): the dirty lines of the
# case's own data (its context, the mapping's record, all kmalloc()ed in
# the modelled memory) go with the buffer's, and a case can crash at a
# pointer read back as stale memory (suite_results.state). Only these
# may discard lines outside the buffer at a map.
WHOLE_CACHE_INV = ('arm940',)
# The outer caches' rows: the label of each controller type (cachemodel
# --outer) in the row's name, after its core's.
L2_LABELS = {'l2c310': 'l2c310', 'l2c220': 'l2c220', 'feroceon': 'feroceon_l2',
             'tauros2': 'tauros2', 'xsc3': 'xsc3_l2'}
# The core that runs the rows left out above, base and patched.
BIG_CORE = 'arm926ejs'
FILLS = ('new', 'today')
TREES = ('base', 'patched')


class Row:
    """One modelled core: the run of runs.py whose options it takes, and
    L2: (type, compiled controller object) of the outer cache behind its
    L1, or None."""

    def __init__(self, r, core, extra=(), label='', l2=None):
        self.r, self.core, self.extra = r, core, list(extra)
        self.name = core + label
        self.l2 = l2
        self.out = {}           # (tree, fill) -> {case: line}
        self.big = {}           # tree -> {case: line} of the rows in SKIP


def rows(m):
    """The first write-back run of each modelled core, and the ARM11
    MPCore again as a UP kernel maps memory (write-back, read-allocate:
    PMD_SECT_WB in proc-v6.S), as on the board that reported the loss."""
    seen, out = set(), []
    for r in m.runs:
        core = runs.CORES[r.b]
        if core in seen or m.policy(r) != 'wb':
            continue
        seen.add(core)
        out.append(Row(r, core))
    v6 = next((x.r for x in out if x.core == 'arm11mpcore'), None)
    if v6:
        out.append(Row(v6, 'arm11mpcore', ['--alloc', 'read'], '_up'))
    return out + outer_rows(m)


def outer_rows(m):
    """The runs of outer.py and outer_others.py: each outer cache behind
    the L1 of its core, with the controller object those runs linked."""
    out = []
    for o in [m.outer] + list(m.others):
        r = next((x for x in m.runs if x.b == o.b and x.cfg == o.cfg), None)
        if r is None or not getattr(o, 'l2obj', None):
            die(f'no {o.b} run in {o.cfg}, or no controller object, for the {o.l2} rows')
        out.append(Row(r, runs.CORES[o.b], [f'--outer={o.l2}'], f'_{L2_LABELS[o.l2]}',
                       (o.l2, o.l2obj)))
    return out


def model_source(m, fill):
    """The patched suite with device=alias, and with FILL ("today":
    without cpu_fill()'s loads), in the model's object tree."""
    path = f'{m.env.obj}/suite/mapping_kunit_{fill}.c'
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(f'{m.env.patched_src}/{SUITE}', encoding='utf-8') as f:
        text = f.read()
    with open(path, 'w', encoding='utf-8') as f:
        f.write(text)
    if not sed_edit(path, DEVICE):
        die(f'{SUITE}: the device parameter\'s default not found: update suite.DEVICE')
    if not sed_edit(path, ONE_CPU):
        die(f'{SUITE}: migrate_disable() not found: update suite.ONE_CPU')
    if fill == 'today' and (not sed_edit(path, TODAY) or
                            'READ_ONCE(buf[pos' in open(path, encoding='utf-8').read()):
        die(f'{SUITE}: cpu_fill()\'s loads not found: update suite.TODAY')
    return path


def asm_like(r):
    """An object of R's configuration whose recorded kbuild command
    assembles: R's own, or the sibling whose command built it."""
    if r.how == 'kbuild':
        return r.obj, r.cfg
    for src, cfg, sib, _ in kbuild.DIRECT:
        if src[:-2] + '.o' == r.obj:
            return sib, cfg
    die(f'no recorded command for {r.obj}')
    return None


def dotconfig_value(m, cfg, key):
    for line in m.dotconfig(cfg):
        if line.startswith(f'{key}='):
            return line.split('=', 1)[1]
    return None


def link(m, row, tree, fill, src):
    """The ELF of ROW's TREE with the suite of FILL."""
    env, r = m.env, row.r
    cfg = r.cfg
    obj = f'{env.obj}/suite/{cfg}'
    mmu = m.has(cfg, 'CONFIG_MMU=y')
    dm = 'dma-mapping.o' if mmu else 'dma-mapping-nommu.o'
    objs = [compile_c(env, cfg, src[fill], f'{obj}/{os.path.basename(src[fill])[:-2]}',
                      like=dm, extra=KUNIT)]
    for f in ('mapping', 'direct'):
        objs.append(compile_c(env, cfg, f'{env.base_src}/kernel/dma/{f}.c',
                              f'{obj}/kdma-{f}', like=dm))
    if tree == 'base':
        objs.append(env.build(cfg, f'arch/arm/mm/{dm}'))
    else:
        objs.append(compile_c(env, cfg, f'{env.patched_src}/arch/arm/mm/{dm[:-2]}.c',
                              f'{env.obj}/patched/{cfg}/{dm[:-2]}', like=dm))
    objs.append(f'{env.obj}/{tree}/{cfg}/{r.obj}')
    if row.l2:
        objs.append(row.l2[1])
    # the kernel's string, division and bit routines (7.x's struct
    # device flags are atomic bitops: set_bit() and clear_bit() are
    # calls on SMP builds), and the model's stubs (its ABI:
    # assabet_defconfig builds the old ABI), assembled as the
    # configuration assembles
    like, lcfg = asm_like(r)
    for f in ('arch/arm/lib/memset', 'arch/arm/lib/memcpy', 'arch/arm/lib/lib1funcs',
              'arch/arm/lib/setbit', 'arch/arm/lib/clearbit', 'stubs'):
        o = f'{obj}/asm-{lcfg}-{like[:-2]}-{os.path.basename(f)}.o'
        s = f'{env.top}/arch-arm/model/{f}.S' if f == 'stubs' else f'{env.base_src}/{f}.S'
        if not os.path.isfile(o) or os.stat(o).st_mtime < os.stat(s).st_mtime:
            kbuild.assemble(env, lcfg, like, s, o)
        objs.append(o)
    objs.append(compile_c(env, cfg, f'{env.top}/arch-arm/model/probe.c',
                          f'{env.obj}/base/{cfg}/probe', like=dm))
    with open(f'{env.base_src}/include/linux/scatterlist.h') as fh:
        inline = 'static inline struct scatterlist *sg_next(' in fh.read()
    objs.append(compile_c(env, cfg, f'{env.top}/arch-arm/model/kunit-stubs.c',
                          f'{obj}/kunit-stubs', like=dm,
                          extra=KUNIT + (' -DMODEL_SG_NEXT_INLINE' if inline else '')))
    l2 = f'-{row.l2[0]}' if row.l2 else ''
    elf = f'{obj}/suite-{r.b}{l2}-{tree}-{fill}.elf'
    return kbuild.link(env, *objs, elf=elf)


def cachemodel(m, row, elf, tree, skip=None, extra=()):
    r, args = row.r, m.args(row.r.b, row.r.cfg) + row.extra
    map_, unmap = r.routines(tree)
    if not m.has(r.cfg, 'CONFIG_MMU=y'):
        args += ['--window', dotconfig_value(m, r.cfg, 'CONFIG_DRAM_BASE') or '0']
    if skip is None:
        skip = [x for s in SKIP for x in ('--skip-case', s)]
    return run([m.env.cm, '--elf', elf, '--map', map_, '--unmap', unmap, *args,
                '--suite', *skip, *extra])


def patch_files(env):
    """The series' patches, and its test series' (DIR-tests, the KUnit
    suite of a stable backport), as tools/lib-tree.sh's series_patches."""
    d = f'{env.top}/{env.patch_dir}' if not os.path.isabs(env.patch_dir) else env.patch_dir
    out = subprocess.run([sys.executable, f'{env.top}/tools/series.d/applied.py', d],
                         capture_output=True, text=True, check=True).stdout
    return out.split()


def suite_runs(m):
    """Every row four ways, the checks, and the table's rows."""
    env, log = m.env, m.log
    if not any(f'b/{SUITE}' in open(p, encoding='utf-8', errors='replace').read()
               for p in patch_files(env)):
        log.comment(f'no patch of {env.patch_dir} adds {SUITE}')
        log.lines.append('ok suite_in_model # SKIP the series for this base has no KUnit suite')
        return []
    if not os.path.isfile(f'{env.patched_src}/{SUITE}'):
        die(f'{SUITE} is not in {env.patched_src}')
    untouched(env, 'kernel/dma/mapping.c')
    untouched(env, 'kernel/dma/direct.c')
    src = {fill: model_source(m, fill) for fill in FILLS}
    rs = rows(m)
    jobs = [(row, tree, fill) for row in rs for tree in TREES for fill in FILLS]
    elfs = {j: link(m, *j, src) for j in jobs}
    with ThreadPoolExecutor(max_workers=env.jobs) as ex:
        outs = list(ex.map(lambda j: cachemodel(m, j[0], elfs[j], j[1]), jobs))
    for (row, tree, fill), out in zip(jobs, outs):
        row.out[(tree, fill)] = parse(out)
    for row in rs:
        check(m, row)
    foreign_check(m, rs)
    mutation(m, rs)
    streaming(m, rs, elfs)
    big_rows(m, rs, elfs)
    row_checks(m, rs)
    return rs


def big_rows(m, rs, elfs):
    """The rows over 64 KiB, on one core: base and patched, new fill."""
    row = next((r for r in rs if r.name == BIG_CORE), None)
    if not row:
        die(f'no {BIG_CORE} row: the rows over 64 KiB run there')
    others = sorted(k for k in row.out[('base', 'new')] if k != 'error')
    skip = [x for s in others for x in ('--skip-case', s)]
    for tree in TREES:
        row.big[tree] = parse(cachemodel(m, row, elfs[(row, tree, 'new')], tree, skip=skip))


def slug(name):
    return ''.join(c if c.isalnum() else '_' for c in name).strip('_')


def row_checks(m, rs):
    """Every row fails on some core's base; no row fails on a patched
    core."""
    log = m.log
    for name in case_names(rs):
        fails, ran = failing(rs, 'base', name)
        pfails, _ = failing(rs, 'patched', name)
        log.comment(f'suite row {name}: base fails on {len(fails)} of {len(ran)} cores, '
                    f'patched on {len(pfails)}')
        log.result(not pfails, f'suite_row_{slug(name)}_passes_patched')
        log.result(bool(fails), f'suite_row_{slug(name)}_fails_on_a_base_core')


def streaming(m, rs, elfs):
    """The write streaming of stream.c is what hides the loss from
    today's fill on the Cortex-A7: without it (--no-stream) the base
    loses the whole 4 KiB buffer there."""
    row = next((r for r in rs if r.core == 'cortex-a7'), None)
    if not row:
        die('no Cortex-A7 row: the streaming check needs one')
    case = f'{MAP_ONLY}4KiB]'
    on = num('wrong', row.out[('base', 'today')].get(case, ''))
    row.extra.append('--no-stream')
    off = num('wrong', parse(cachemodel(m, row, elfs[(row, 'base', 'today')],
                                        'base')).get(case, ''))
    row.extra.pop()
    m.log.comment(f'suite cortex-a7 base, today\'s fill, {case}: {on} bytes wrong with write '
                  f'streaming, {off} without')
    # the pattern's bytes match what was there before by chance, 1 in 256
    m.log.result(on is not None and off is not None and off > 4096 * 9 // 10 and
                 on < off // 10,
                 'suite_cortex_a7_streaming_hides_todays_fill')


def base_loses(m, row):
    """The model's boards100warm: does this core's base lose data?"""
    r = m.result('base', row.r.b, row.r.cfg, 'boards100warm')
    return (num('lost', r) or 0) > 0


def check(m, row):
    log = m.log
    p = row.out[('patched', 'new')]
    t = totals(p)
    log.comment(f'suite {row.name} ({row.r.b}, {row.r.cfg}) patched: {t.ran} cases run, '
                f'{t.failed} failed, {t.exp} expectations failed, {t.wrong} bytes wrong, '
                f'{t.errors} errors')
    log.result(t.ran > 0 and not t.failed and not t.errors, f'suite_patched_{row.name}_passes')
    for tree in TREES:
        for k, l in row.out[(tree, 'new')].items():
            if k == 'error' or ' error=' in f' {l}':
                log.comment(f'suite {row.name} {tree}: {k}: {l}')
    b = row.out[('base', 'new')]
    t = totals(b)
    lost = num('wrong', b.get(ROUNDS, '')) or 0
    log.comment(f'suite {row.name} base: {t.failed} of {t.ran} cases failed ({t.crashed} '
                f'crashed), {t.exp} expectations, {t.wrong} bytes wrong; {ROUNDS}: lost {lost} '
                'of 409600 bytes')
    for k, n, why in crashes(b):
        log.comment(f'suite {row.name} base: {k} crashed after its maps discarded {n} dirty '
                    f'lines outside the buffer: {why}')
    if base_loses(m, row):
        log.result(not t.errors and map_only_fails(b) and lost > 0,
                   f'suite_base_{row.name}_fails')
    else:
        log.result(not t.errors and not t.failed, f'suite_base_{row.name}_passes_as_the_model')


def foreign_check(m, rs):
    """Only a map that invalidates the whole cache (WHOLE_CACHE_INV, on
    the base) discards dirty lines outside the buffer: every other map
    works on the buffer's lines alone, and a patched one writes back
    what it drops."""
    where, want = [], []
    for row in rs:
        for tree in TREES:
            n = totals(row.out[(tree, 'new')]).foreign
            if n:
                where.append(f'{row.name} {tree} ({n} lines)')
            if tree == 'base' and row.r.b in WHOLE_CACHE_INV:
                want.append(f'{row.name} {tree}')
    m.log.comment('suite: maps discarded dirty lines outside the buffer on '
                  f'{", ".join(where) or "no row"}')
    m.log.result(bool(want) and [w.rsplit(' (', 1)[0] for w in where] == want,
                 'suite_only_a_whole_cache_invalidate_discards_other_data')


def mutation(m, rs):
    """Today's fill (no loads before the writes): the base check above
    must go red on the read-allocate ARM926EJ-S and the ARM11 MPCore as
    a UP kernel maps memory."""
    log = m.log
    red = []
    for row in rs:
        t = row.out[('base', 'today')]
        if base_loses(m, row) and not map_only_fails(t):
            red.append(row.name)
    log.comment(f'mutation: today\'s fill (cpu_fill() without its loads): the base check goes '
                f'red on {", ".join(red) or "no core"}')
    log.result('arm926ejs' in red and 'arm11mpcore_up' in red, 'mutation_suite_no_warming_caught')
