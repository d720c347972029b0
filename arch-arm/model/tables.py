# SPDX-License-Identifier: GPL-2.0
"""The generated results: Documentation/results/BASE/model.md (cost.py
writes cost.md, with the cost checks, which read the same rows).

Their text is byte for byte what the shell arch-arm/model/run wrote; 85-generated
compares them with the commit.
"""

import os
import re
import subprocess

from common import field
from runs import SCEN_MAIN, SUCCESSORS

MODEL_INTRO = """\
base tree and with patches/) runs in Unicorn against a finite L1 data
cache with its core's geometry, replacement and allocation
(arch-arm/model/cache.c; the cores and their sources: "Modelled
cores" below). This is a model, not hardware. The CPU
reads the buffer, then writes it: lines that do not fit are written
back by replacement as it writes, and what is still dirty at map
("dirty at map", in lines) is what an invalidate can lose.
Mapping-only: 409,600 CPU-written bytes, map, unmap, no device write.
Short: the device writes 600 bytes of every 1,024-byte chunk to DRAM
between map and unmap; "exposed" counts gap bytes that read back as
stale memory instead of the CPU's data. Unaligned: 8,152 bytes at
offset 13, CPU-written neighbours checked. v6/v7/v7m allocate clean
lines speculatively into free ways, after each maintenance operation
of the map and again before the device writes (not v6 with
CONFIG_DMA_CACHE_RWFO, valid only on CPUs that do not); dirty lines
left in the cache are evicted over the device's data (worst case) on
every CPU. v7 runs on a Cortex-A15, as v7_a7 on a Cortex-A7 and as
v7_a8 on a Cortex-A8 (64-byte lines), and as v7_32 on a Cortex-A9
and v7_a5 on a Cortex-A5 (32-byte lines); its code reads the length
from the core's CTR. v6 runs on an ARM11 MPCore, as v6_1176 on an
ARM1176 and as v6_1136 on an ARM1136, which allocate on reads only;
v4wb on an SA-1100 and as v4wb_sa110 on an SA-110 (whose build's DMA
routines are the SA-1100 build's, byte for byte).
The Cortex-A8, the ARM1176 and the ARM1136 have no multiprocessing
extensions: an SMP kernel runs on them with the UP memory type
(read-allocate).

| backend | config | cache | core (L1) | line | dirty at map / L1 lines | base: map-only lost | base: short lost / exposed | base: unaligned exposed | patched: map-only lost | patched: short lost / exposed | device bytes wrong (base / patched) | neighbour bytes changed (base / patched) |
| --- | --- | --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |
"""

OUTER_INTRO = """\
## The outer cache (L2C-310)

The v7 backend on the Cortex-A9 (v7_32, omap2plus) with an L2C-310
between its L1 and DRAM (arch-arm/model/outer.c, `cachemodel --l2`):
"""

OUTER_TABLE = """\
The L1 writes back into and fills from the L2; the device writes DRAM
(no ACP). The L2's line operations are the compiled
`l2c210_{inv,clean,flush}_range` of the omap2plus build's
`cache-l2x0.o` (what Linux uses for an L2C-310 r3p2), writing the
modelled INV_LINE_PA, CLEAN_LINE_PA, CLEAN_INV_LINE_PA and CACHE_SYNC
registers (any other register access stops the run). The order of
the inner and outer steps is that of `__dma_page_cpu_to_dev()` and
`__dma_page_dev_to_cpu()` in each tree's arch/arm/mm/dma-mapping.c,
read from the source by arch-arm/model/dmaseq.py and run by the model
in C. Each tree's compiled dma-mapping.o runs too (`cachemodel
--dma-mapping`): its arch_sync_dma_for_device() and
arch_sync_dma_for_cpu() reach the backend and the L2 through cpu_cache
and outer_cache, with what they take from the rest of the kernel set
up by the model (mem_map and the layout of struct page and of the two
tables, from arch-arm/model/probe.c compiled as the build compiled
dma-mapping.o; page_address(), the lock and set_bit() in
arch-arm/model/stubs.S); it must give the numbers below
(`outer_*_dma_mapping_o_*`), and two order mutations of dma-mapping.c,
compiled, are caught. The CPU may allocate lines speculatively
between any two steps (with dma-mapping.o: at the entry of each
maintenance routine after the first); dirty lines left in the L1,
then in the L2, are evicted over the device's data (worst case).

| tree | map (dma-mapping.c) | unmap | scenario | L1 / L2 dirty at map (lines) | L2 dirty lines discarded | lost | exposed | device bytes wrong | neighbours changed |
| --- | --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |
"""

OUTER_MUTATIONS = """\

Mutations of the outer path (patched tree; a run that errors is not
a catch):

"""

OTHER_INTRO = """\

## Other outer caches (L2C-220, Feroceon L2, Tauros2, XSC3 L2)

Each behind the L1 of the core it comes with, in the configuration
that builds both (arch-arm/model/outer.c, `cachemodel --l2`):

"""

OTHER_TABLE = """\

As above. The L2C-220 has the L2C-310's line registers, which
`l2c220_{inv,clean,flush}_range` of the omap2plus `cache-l2x0.o` write
in blocks of 4 KiB under l2x0_lock (a stub here, one CPU: stubs.S),
waiting on each; the model sets `l2x0_size` as `l2x0_init()` would
(with 0 every range is "larger than the cache" and goes by way, a
register the model does not know). The other three are maintained by
CP15 operations, which the decoder routes to the modelled L2: the
Feroceon L2's clean, clean+invalidate and invalidate by PA, and its
clean and invalidate ranges (a start and a top, by VA: the model maps
virtual = physical and fixes the ELF's phys/virt stubs up for that, as
the kernel does at boot); the Tauros2's clean, clean+invalidate and
invalidate by PA; the XSC3 L2's clean and invalidate by MVA. Their
controller code is the base tree's, compiled here with the
configuration's recorded kbuild command for dma-mapping.o (no
configuration here builds it otherwise); the series does not touch
it. Each also runs with its build's compiled dma-mapping.o, which must
give the same numbers (`outer_*_dma_mapping_o_*`). ARMv4/v5 cores do
not allocate speculatively.

| run | tree | map (dma-mapping.c) | unmap | scenario | L1 / L2 dirty at map (lines) | L2 dirty lines discarded | lost | exposed | device bytes wrong | neighbours changed |
| --- | --- | --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |
"""

CORES = """\

## Modelled cores

The L1 data cache of each core (`cachemodel --cores`, from
arch-arm/model/cores.c). Allocation is the kernel's default memory
type: v4/v5 caches allocate on reads only; v6/v7 allocate on writes
with an SMP kernel (PMD_SECT_WBWA), on reads only with a UP one
(PMD_SECT_WB), which arch-arm/model/run reads from each build's CONFIG_SMP.
Replacement is pseudo-random unless the core only has round-robin
or LRU, or the build sets CONFIG_CPU_CACHE_ROUND_ROBIN; pseudo-random
is a fixed-seed LFSR, so every run gives the same numbers.

| core | size | ways | line | replacement | allocates on | real CTR | source |
| --- | ---: | ---: | ---: | --- | --- | --- | --- |
"""

MUTATIONS = """\

## Mutations

Each is applied with git/sed to a scratch worktree of the patched
tree, only that object is rebuilt, and the model must catch it (bytes
lost or exposed, device bytes wrong, or neighbours changed, in the
mapping-only, short or unaligned scenario); a run that errors is a
failure, not a catch. A test whose name says otherwise asserts that
(`needs_speculation`: not caught without speculation;
`that_errors_is_not_a_catch`: the run errors). Decoder mutations
misread one instruction class in decode.c; a self-test must fail.

"""

NOTES = """\

## Notes

Not modelled: the L2C-310 behind cores other than the Cortex-A9, the
L2C-220, the Feroceon L2, the Tauros2 and the XSC3 L2 only behind the
cores above; an outer cache without an MMU (no such build here:
dma-mapping-nommu.c's order, read by dmaseq.py, is dma-mapping.c's,
outer_sequence_*_nommu_same_as_dma_mapping); the Cortex-A5's write
streaming (Microchip's SAMA5 datasheets, Cortex-A5 "Memory Types":
write-back write-allocate memory "Can dynamically switch to no write
allocate, if more than three full cache lines are written in
succession", so a buffer the CPU fills in order may be in DRAM rather
than dirty in the L1 at map time, and lose less than the Cortex-A9
row predicts); the SA-1100 minicache and the
XScale mini-data cache; write buffers; other activity of the CPU
between the writes and the map (each scenario starts from an empty
cache). Speculative fills take free ways only: a fill that evicted a
dirty line would write it back and could only hide a loss. Where the
"Modelled cores" table says "assumed", the kernel source does not fix
the value and no manual was at hand. ARM1020/1020E,
"""

COMMENTS = re.compile(r'# .*(caught in|not caught|errored|traversals|self-tests fail)')


def header(env, title):
    return ['<!-- SPDX-License-Identifier: GPL-2.0 -->',
            f'<!-- Generated by BASE={env.base} arch-arm/model/run; do not edit. -->',
            title]


def text(block):
    return block.split('\n')[:-1]


def q(x):
    """A missing value shows as "?"; its test has already failed."""
    return x or '?'


def sum3(a, b, c):
    s = a + b + c
    return str(int(a) + int(b) + int(c)) if s.isdigit() else '?'


def model_row(m, r):
    a = m.args(r.b, r.cfg)
    line = m.line_of(a)
    cfg = r.cfg + (' (Thumb-2)' if '--thumb' in a else '')
    cfg += ' (direct)' if r.how == 'direct' else ''

    def v(k, tree, s):
        return q(field(k, m.result(tree, r.b, r.cfg, s)))

    dw = [sum3(*(v('devwrong', t, s) for s in SCEN_MAIN)) for t in ('base', 'patched')]
    core = a[a.index('--core') + 1]
    size = m.core_field(core, 2)
    size = str(int(size) // 1024) if size.isdigit() else '?'
    return (f'| {r.b} | {cfg} | {a[5]} | {core}, {size} KiB, {m.core_field(core, 3)}-way, '
            f'{m.alloc_of(a)}-allocate | {line} | {v("dirtymap", "base", "maponly")} / '
            f'{v("capacity", "base", "maponly")} | {v("lost", "base", "maponly")} | '
            f'{v("lost", "base", "short")} / {v("exposed", "base", "short")} | '
            f'{v("exposed", "base", "unaligned")} | {v("lost", "patched", "maponly")} | '
            f'{v("lost", "patched", "short")} / {v("exposed", "patched", "short")} | '
            f'{dw[0]} / {dw[1]} | {v("neigh", "base", "unaligned")} / '
            f'{v("neigh", "patched", "unaligned")} |')


def successor_notes(runs):
    """A line for each row whose table the series removes: what its
    patched columns run instead, and why (runs.SUCCESSORS)."""
    out = []
    for r in runs:
        if r.successor and not any(l.startswith(f'- `{r.b}`:') for l in out):
            out.append(f'- `{r.b}`: not a table of the patched tree: {SUCCESSORS[r.b][1]}. '
                       f'Its patched runs call `{r.pmap}`/`{r.punmap}` ({r.successor}\'s) '
                       f'on the same core, its base runs its own `{r.map}`/`{r.unmap}`.')
    return out


def boards_section(m, tmp):
    """boards.py's section; a missing board result is already a failed
    test, so here it is a note, not the end of the run."""
    path = f'{tmp}/results'
    with open(path, 'w', encoding='utf-8') as f:
        f.write(''.join(l + '\n' for l in m.results))
    r = subprocess.run(['python3', f'{m.env.top}/arch-arm/model/boards.py', path, m.env.base],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, check=False)
    if r.returncode:
        m.log.comment(f'arch-arm/model/boards.py failed: {r.stderr.strip()}')
        return [f'(arch-arm/model/boards.py failed: {r.stderr.strip()})']
    return r.stdout.rstrip('\n').split('\n') if r.stdout else []


def cores_rows(m):
    rows = []
    for line in m.cores_text.splitlines():
        f = (line.split('|') + [''] * 8)[:8]
        try:
            kib = int(float(f[1]) / 1024)
        except ValueError:
            kib = 0
        rows.append(f'| {f[0]} | {kib} KiB | {" | ".join(f[2:8])} |')
    return rows


def l2_descs(m):
    """TYPE -> description, from cachemodel --l2."""
    r = subprocess.run([m.env.cm, '--l2'], stdout=subprocess.PIPE,
                       stderr=subprocess.DEVNULL, text=True, check=False)
    return dict(l.split('|', 1) for l in r.stdout.splitlines() if '|' in l)


def l2_text(m):
    return l2_descs(m).get('l2c310', '?')


def other_outer_section(m, others):
    """The L2C-220, the Feroceon L2, the Tauros2 and the XSC3 L2 behind
    their cores."""
    descs = l2_descs(m)
    doc = text(OTHER_INTRO)
    for o in others:
        doc += [f'- `{o.name}`: the {o.b} backend ({o.cfg}) on the {o.args[o.args.index("--core") + 1]} '
                f'L1, with `{o.src}.o`: the {descs.get(o.l2, "?")}.']
    doc += text(OTHER_TABLE)
    for o in others:
        doc += outer_rows(o, f'| {o.name} ')
    doc += text(OUTER_MUTATIONS) + mutation_lines(m.log, 'mutation_l2_') + ['']
    doc += ['    ' + l[len('# other outer mutation: '):] for l in m.log.lines
            if l.startswith('# other outer mutation: ')]
    return doc


def outer_rows(o, first=''):
    """The table rows of outer run O, each after FIRST (its name's cell)."""
    rows = []
    for tree in ('base', 'patched'):
        seq = o.seq[tree]
        mseq, useq = seq.rsplit(' ', 1)[0], seq.split(' ', 1)[-1]
        for s in ('maponly', 'short', 'unaligned', 'boards100warm'):
            r = o.result(tree, s)
            w = lambda k: q(field(k, r))
            rows.append(f'{first}| {tree} | {mseq} | {useq} | {s} | {w("dirtymap")} / {w("l2dirtymap")} '
                        f'| {w("l2discarded")} | {w("lost")} | {w("exposed")} | {w("devwrong")} '
                        f'| {w("neigh")} |')
    return rows


def mutation_lines(log, prefix):
    out = []
    for t in log.tests():
        ok, _, name = t.partition('ok ')
        if name.startswith(prefix):
            out.append(f'- `{name}`: {"FAILS" if ok else "passes"}')
    return out


def rwfo_note(m):
    base = m.env.base
    with open(f'{m.env.base_src}/arch/arm/mm/cache-v6.S', encoding='utf-8') as f:
        if 'DMA_CACHE_RWFO' not in f.read():
            return [f'("direct"). {base} has no DMA_CACHE_RWFO (v6 read/write-for-ownership)',
                    'code; loads and stores by kernel code would go through the model.']
    state = 'set' if m.rwfo('omap2plus') else 'not set'
    return [f'("direct"). {base}\'s v6 routines read/write for ownership when',
            f'CONFIG_DMA_CACHE_RWFO=y (in omap2plus here: {state});',
            'those loads and stores by kernel code go through the model.']


def model_md(m, runs, aliases, unbuilt, o, tmp):
    """Documentation/results/BASE/model.md, but its totals."""
    env, log = m.env, m.log
    doc = header(env, '# Cache model: DMA_FROM_DEVICE map/unmap, base vs patched') + [
        '', f'Each backend\'s compiled `*_dma_map_area`/`*_dma_unmap_area` ({env.base_version},']
    doc += text(MODEL_INTRO) + [model_row(m, r) for r in runs] + ['']
    if unbuilt:
        doc += ['Not built by any configuration here:', '']
        doc += [f'- `{b}`: its table needs `{g}`' for b, g in unbuilt] + ['']
    doc += [f'- `{b}`: same map/unmap routines as `{a}`, not run twice' for b, a in aliases]
    doc += successor_notes(runs)
    doc += [''] + boards_section(m, tmp) + ['']
    doc += text(OUTER_INTRO) + [f'the {l2_text(m)}.'] + text(OUTER_TABLE) + outer_rows(o)
    doc += text(OUTER_MUTATIONS) + mutation_lines(log, 'mutation_outer_') + ['']
    doc += ['    ' + l[len('# outer mutation: '):] for l in log.lines
            if l.startswith('# outer mutation: ')]
    doc += other_outer_section(m, m.others)
    if m.bench_doc:
        doc += [''] + m.bench_doc
    doc += text(CORES) + cores_rows(m)
    doc += text(MUTATIONS) + mutation_lines(log, 'mutation_') + ['']
    doc += ['    ' + l[2:] for l in log.lines if COMMENTS.match(l)]
    doc += text(NOTES) + [f'ARM940T and ARM946E cannot be selected in {env.base} Kconfig; their',
                          'sources are assembled with the flags kbuild used for a sibling']
    doc += rwfo_note(m)
    os.makedirs(env.results_dir, exist_ok=True)
    path = f'{env.results_dir}/model.md'
    with open(path + '.tmp', 'w', encoding='utf-8') as f:
        f.write(''.join(l + '\n' for l in doc))
    os.rename(path + '.tmp', path)
    return doc


def totals(m):
    """The closing lines of model.md, from the whole log."""
    env, tests = m.env, m.log.tests()
    passed = sum(t.startswith('ok ') and '#' not in t for t in tests)
    failed = sum(t.startswith('not ok ') for t in tests)
    skipped = sum(t.startswith('ok ') and '# SKIP' in t for t in tests)
    mut = [t for t in tests if t.partition('ok ')[2].startswith('mutation_')]
    with open(f'{env.results_dir}/model.md', 'a', encoding='utf-8') as f:
        f.write(f'\n## Totals\n\n`BASE={env.base} arch-arm/model/run`: {passed} passed, {failed} failed, '
                f'{skipped} skipped;\n{sum(t.startswith("ok ") for t in mut)} of {len(mut)} '
                'mutation tests pass.\n')
    return passed, failed, skipped
