# SPDX-License-Identifier: GPL-2.0
"""The cost of the ARM series in the model: Documentation/results/BASE/
cost.md and its checks (no added traversal, the write-backs of exactly
the lines dirty at map), and cost-summary.txt by arch-arm/model/cost-summary."""

import os
import subprocess

from common import field, num, nums
from runs import KINDS, SCEN_RT
from tables import header, successor_notes, text

COST_INTRO = """\

Counted in the model (not timed on hardware): cache maintenance
operations by kind (inv / clean / clean+inv / whole-cache / set-way /
range), lines written back, dirty lines discarded, instructions
executed, traversals (ascending runs of by-address operations, plus
each whole-cache, set/way, range or test-and-clean sequence).
Each backend runs on its core's finite L1 (size, ways, line,
replacement, allocation: "Modelled cores" in `model.md`); the CPU read,
then wrote the buffer, so lines that did not fit were written back by
replacement before the map and only what was still dirty at map is
the map's to write back. Write-back configurations only. Checks:
patched traversals <= base; patched write-backs == the buffer's lines
dirty at map (0 when clean; every line with CONFIG_DMA_CACHE_RWFO,
which writes each line for ownership); write-backs and dirty lines
never more than the cache's lines (RWFO excepted, for that reason).

## Reported on hardware by board owners (not measured here)

Mean DMA_FROM_DEVICE map+unmap round trip, control -> patched:

| CPU | 256 B dirty | 1 MiB dirty | 1 MiB clean |
| --- | --- | --- | --- |
| Cortex-A72 (AArch32, LPAE) | 353 -> 376 ns (+6.3 %) | 73.840 -> 73.994 us (+0.21 %) | 73.108 -> 73.115 us (+0.01 %) |
| ARM926EJ-S | 1.208 -> 1.203 us | 656.888 -> 656.827 us | 656.608 -> 656.601 us |
| ARM11 MPCore | 4.639 -> 3.095 us (-33.3 %) | 16.380 -> 15.550 ms | 16.380 -> 15.560 ms |

To measure on a board: Documentation/benchmark.md (dma_map_benchmark -D, patch 5).

## Counted in the model

rt256, rt1m: 256 B and 1 MiB dirty; rt1mclean: 1 MiB clean.

| backend | config | buffer | cache lines | dirty at map | base ops (inv/clean/flush/whole/sw/range) | patched ops | base / patched traversals | base wb / discarded | patched wb / discarded | base insns | patched insns |
| --- | --- | --- | ---: | ---: | --- | --- | ---: | ---: | ---: | ---: | ---: |
"""


def ops(r):
    return '/'.join(field(k, r) for k in ('inv', 'clean', 'flush', 'whole', 'setway', 'range'))


def cost_checks(m, r, s, rb, rp):
    """No added traversal; the patched map writes back exactly the lines
    still dirty at map (RWFO writes every line of the buffer for
    ownership, then writes it back); within the cache's capacity."""
    log = m.log
    name = f'cost_{r.b}_{r.cfg}_{s}'
    line = m.line_of(m.args(r.b, r.cfg))
    size = 256 if s == 'rt256' else 1048576
    want, rwfo_run = num('dirtymap', rp), False
    if KINDS.get(r.b) == 'v6' and m.rwfo(r.cfg):
        want = size // int(line) if line.isdigit() and int(line) else None
        rwfo_run = True
    pb, pp = num('passes', rb), num('passes', rp)
    log.result(None not in (pb, pp) and pp <= pb, f'{name}_patched_traversals_le_base')
    vp, vb = nums(rp, 'wb', 'evicted'), nums(rb, 'wb', 'evicted')
    wbp = sum(vp) if vp else None
    wbb = sum(vb) if vb else None
    log.result(None not in (wbp, want) and wbp == want,
               f'{name}_patched_writes_back_the_dirty_lines')
    if not rwfo_run:
        cap = num('capacity', rp)
        log.result(None not in (wbp, wbb, want, cap) and wbp <= cap and wbb <= cap and want <= cap,
                   f'{name}_writebacks_within_capacity')


def cost_md(m, runs):
    """Documentation/results/BASE/cost.md and its checks, then
    cost-summary.txt from it."""
    env, log = m.env, m.log
    doc = header(env, '# Cache model: cost of a FROM_DEVICE map+unmap round trip')
    doc += text(COST_INTRO)
    for r in runs:
        if m.policy(r) != 'wb':
            continue
        for s in SCEN_RT:
            rb, rp = m.result('base', r.b, r.cfg, s), m.result('patched', r.b, r.cfg, s)
            if not field('wb', rb) or not field('wb', rp):
                log.comment(f'cost {r.b}/{r.cfg}/{s}: no result (base: {rb or "none"}; '
                            f'patched: {rp or "none"})')
                log.result(False, f'cost_{r.b}_{r.cfg}_{s}_has_results')
                continue
            f = field
            doc.append(f'| {r.b} | {r.cfg} | {s} | {f("capacity", rp)} | {f("dirtymap", rp)} | '
                       f'{ops(rb)} | {ops(rp)} | {f("passes", rb)} / {f("passes", rp)} | '
                       f'{f("wb", rb)} / {f("discarded", rb)} | {f("wb", rp)} / '
                       f'{f("discarded", rp)} | {f("insns", rb)} | {f("insns", rp)} |')
            cost_checks(m, r, s, rb, rp)
    rb = m.result('base', 'v7', 'omap2plus', 'rt1m')
    rp = m.result('patched', 'v7', 'omap2plus', 'rt1m')
    vb, dm = nums(rb, 'wb', 'evicted'), num('dirtymap', rp)
    log.result(vb is not None and dm is not None and sum(vb) != dm,
               'cost_writeback_check_rejects_base_v7_rt1m')
    notes = successor_notes(runs)
    if notes:
        doc += [''] + notes
    path = f'{env.results_dir}/cost.md'
    with open(path + '.tmp', 'w', encoding='utf-8') as fh:
        fh.write(''.join(l + '\n' for l in doc))
    os.rename(path + '.tmp', path)
    # the cover letter's cost lines, made from the table just written
    with open(f'{env.results_dir}/cost-summary.txt', 'w', encoding='utf-8') as fh:
        if subprocess.run([f'{env.top}/arch-arm/model/cost-summary'], stdout=fh, check=False).returncode:
            log.comment('arch-arm/model/cost-summary failed')
            log.result(False, 'cost_summary_made')
