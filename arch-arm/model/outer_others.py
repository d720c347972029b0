# SPDX-License-Identifier: GPL-2.0
"""The other outer caches (outer.py has the L2C-310): the L2C-220, the
Feroceon L2, the Tauros2 and the XSC3 L2, each behind the L1 of the core
it comes with, base and patched, with a mutation of each controller's
clean range that makes it invalidate."""

from common import die, field
from mutations import mut_reset
from outer import (MAP_INVALIDATES, MAPF, SCENARIOS, Outer, check_outer, compile_c,
                   controller_mut, dma_mapping_runs, dma_mut, outer_mut, untouched)

# The other outer caches, each behind the L1 of the core it comes with,
# in the configuration that builds both: (run name, L2 type for
# cachemodel --outer, backend run, configuration, controller source,
# its clean range function, and the edit of that function a mutation
# makes so that it invalidates: a regex and its replacement).
OTHERS = (
    ('v6_l2c220', 'l2c220', 'v6', 'omap2plus', 'cache-l2x0', 'l2c220_clean_range',
     r'\bL2X0_CLEAN_LINE_PA\b', 'L2X0_INV_LINE_PA'),
    ('feroceon_range_feroceon_l2', 'feroceon', 'feroceon_range', 'v4v5wb', 'cache-feroceon-l2',
     'feroceon_l2_clean_range', r'\bl2_clean_pa_range\(', 'l2_inv_pa_range('),
    ('mohawk_tauros2', 'tauros2', 'mohawk', 'v4v5wb', 'cache-tauros2', 'tauros2_clean_range',
     r'\btauros2_clean_pa\(', 'tauros2_inv_pa('),
    ('xsc3_xsc3_l2', 'xsc3', 'xsc3', 'v4v5wb', 'cache-xsc3l2', 'xsc3_l2_clean_range',
     r'\bxsc3_l2_clean_mva\(', 'xsc3_l2_inv_mva('),
)


class Other(Outer):
    """One of OTHERS: the compiled controller code, the configuration's
    object where its build has one (cache-l2x0.o), else compiled here
    from the base tree with kbuild's recorded command for the
    configuration's dma-mapping.o (the series does not touch the
    controller sources)."""

    def __init__(self, m, spec):
        (self.name, self.l2, self.b, self.cfg, self.src, self.cleanf, self.cleanre,
         self.invop) = spec
        r = [x for x in m.runs if x.b == self.b and x.cfg == self.cfg]
        if not r:
            die(f'no {self.b} run in {self.cfg} for the {self.l2} outer cache')
        self.map, self.unmap, self.l1obj = r[0].map, r[0].unmap, r[0].obj
        self.mut_label = f'other outer mutation: {self.name}'
        super().__init__(m)

    def base_obj(self, src):
        """The controller's base object: the build's, or compiled here."""
        env, obj = self.env, f'{src[:-2]}.o'
        if self.like(src) == obj:
            return env.build(self.cfg, f'arch/arm/mm/{obj}')
        return compile_c(env, self.cfg, f'{env.base_src}/arch/arm/mm/{src}',
                         f'{env.obj}/base/{self.cfg}/{src[:-2]}')


def base_ok_other(s, lost, exp, dw, l2dm, l2d):
    """The base tree loses the buffer (maponly, boards100warm) or
    exposes stale bytes (short, unaligned), the device's bytes intact."""
    if s in ('maponly', 'boards100warm'):
        return lost > 0 and dw == 0
    return exp > 0 and dw == 0


def other_outer_runs(m, l2c310):
    """The L2C-220, the Feroceon L2, the Tauros2 and the XSC3 L2 behind
    their cores: base and patched, and the mutations of each
    controller's clean."""
    env, log = m.env, m.log
    done = []
    for spec in OTHERS:
        o = Other(m, spec)
        o.seq = l2c310.seq
        src = f'{o.src}.c'
        untouched(env, f'arch/arm/mm/{src}')
        l2obj = o.l2obj = o.base_obj(src)
        for tree in ('base', 'patched'):
            d = f'{env.obj}/{tree}/{o.cfg}'
            o.link(f'{d}/{o.l1obj}', l2obj, f'{d}/outer-{o.l2}.elf')
            out = o.run(f'{d}/outer-{o.l2}.elf', o.seq[tree])
            o.keep(tree, out, o.results)
        for s in SCENARIOS:
            for tree in ('base', 'patched'):
                check_outer(o, tree, s, f'outer_{tree}_{o.name}_{s}', base_ok_other, 'l2range')
        r = o.result('patched', 'maponly')
        log.result(field('l2clean', r) == str(409600 // 32),
                   f'outer_patched_{o.name}_map_cleans_each_l2_line_once')
        other_mutations(o, src)
        dma_mapping_runs(o, l2obj, mutations=False)
        done.append(o)
    return done


def other_mutations(o, src):
    """The map's outer clean turned back into an invalidate, and the
    controller's clean range doing its invalidating line operation."""
    log, m, env = o.m.log, o.m, o.env
    pelf = f'{env.obj}/patched/{o.cfg}/outer-{o.l2}.elf'
    seq = dma_mut(o, MAPF, MAP_INVALIDATES)
    log.result(outer_mut(o, 'outer map invalidates the L2', pelf, seq) == 0,
               f'mutation_l2_{o.name}_map_invalidates_l2_caught')
    mut_reset(m)
    elf = controller_mut(o, src, o.cleanf, [('s', o.cleanre, o.invop)])
    inv = o.invop.rstrip('(')
    log.result(outer_mut(o, f'{o.cleanf} uses {inv}', elf, o.seq['patched']) == 0,
               f'mutation_l2_{o.name}_clean_range_invalidates_caught')
    mut_reset(m)
