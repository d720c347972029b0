# SPDX-License-Identifier: GPL-2.0
"""The texts of the series' files patch by patch (arch_texts(): each
architecture's, with tables.py's mutations too), and each fix of the
series on its own (tables.py's FIXES, FIX_MUTATIONS): judge_fix() says
whether the tree before fix K fails and a tree with it passes, from the
model's results (run.py) or, for xtensa, which the model does not run,
from the code as 74-other-arches-doc reads it (archtable.py,
prepcoherent.py)."""

import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'doc'))
import archtable  # noqa: E402
import prepcoherent  # noqa: E402
from results import field  # noqa: E402
from tables import CONFIGS, FIXES, FIX_MUTATIONS, MUTATIONS  # noqa: E402

ENV = os.environ


def sh(cmd, **kw):
    return subprocess.run(cmd, check=True, capture_output=True, text=True, **kw).stdout


def patched_text(base_text, path, patches, some=True):
    """BASE_TEXT with the hunks of the series for PATH applied, patch by
    patch (git apply); SOME: one of PATCHES must touch PATH."""
    with tempfile.TemporaryDirectory() as d:
        os.makedirs(os.path.join(d, os.path.dirname(path)))
        with open(os.path.join(d, path), 'w') as fh:
            fh.write(base_text)
        n = 0
        for p in patches:
            with open(p) as fh:
                if f'+++ b/{path}\n' not in fh.read():
                    continue
            sh(['git', 'apply', f'--include={path}', p], cwd=d)
            n += 1
        if not n and some:
            raise SystemExit(f'no patch of the series touches {path}')
        with open(os.path.join(d, path)) as fh:
            return fh.read()


def arch_files(a):
    """The files of ARCHES entry A the model compiles, base and patched:
    the one with the entry points, then those it calls that the series
    also changes."""
    return [a['file']] + a.get('also', [])


def mutated(texts, old, new):
    """TEXTS ({file: text}) with OLD replaced by NEW in the one file that
    has it, once; None if that is not so."""
    where = [f for f, text in texts.items() if old in text]
    if len(where) != 1 or texts[where[0]].count(old) != 1:
        return None
    return {**texts, where[0]: texts[where[0]].replace(old, new)}


def arch_texts(arch, a, tree, patches):
    """({tree name: {file: text}}, the MUTATIONS whose text is not once in
    the patched files) for ARCHES entry A: base, patched, mut_NAME
    (MUTATIONS) and, for each fix the model judges on ARCH's
    configurations, fixK_before, fixK_after and fixmutK (FIX_MUTATIONS)."""
    files = arch_files(a)
    base = {f: sh(['git', '-C', tree, 'show', f'{ENV["BASE_TAG"]}:{f}']) for f in files}
    # the entry points' file must be one the series changes
    texts = {'base': base,
             'patched': {f: patched_text(base[f], f, patches, f == a['file']) for f in files}}
    bad = []
    for name, marches, (old, new) in MUTATIONS:
        if arch in marches:
            m = mutated(texts['patched'], old, new)
            if m is None:
                bad.append(name)
            else:
                texts['mut_' + name] = m
    # each fix on its own: the tree before it and the tree with it
    for k, _, how in FIXES:
        if how[0] == 'model' and any(c[1] == arch for c in CONFIGS if c[0] in how[1]):
            texts[f'fix{k}_before'] = {f: patched_text(base[f], f, patches[:k - 1], False)
                                       for f in files}
            after = texts[f'fix{k}_after'] = {f: patched_text(base[f], f, patches[:k], False)
                                              for f in files}
            for mk, _, old, new in FIX_MUTATIONS:
                m = mutated(after, old, new) if mk == k else None
                if m is not None:
                    texts[f'fixmut{k}'] = m
    return texts, bad


def judge_fix(k, how, results, xtensa_texts, after):
    """(passes, why) of fix K (tables.py's FIXES entry HOW): the tree
    fix{K}_before fails, the tree AFTER passes."""
    trees = {'before': f'fix{k}_before', 'after': after}
    label = {'before': f'1..{k - 1}' if k > 1 else 'the base',
             'after': f'1..{k}' if after == f'fix{k}_after' else f'1..{k}, its hunk reverted'}
    if how[0] == 'model':
        _, cfgs, scens, keys = how
        ok, seen = True, {'before': [], 'after': []}
        for c in cfgs:
            for w, tr in trees.items():
                val = {s: [field(results[c, tr, s], x) for x in keys] for s in scens}
                if any(None in v for v in val.values()):
                    ok = False
                    seen[w].append(f'{c}: no counts ({"; ".join(results[c, tr, s][:100] for s in scens)})')
                    continue
                bad = [f'{s} {sum(val[s]):,}' for s in scens if sum(val[s])]
                seen[w].append(f'{c}: ' + (', '.join(bad) or 'none'))
                ok &= bool(bad) == (w == 'before')
        return ok, (f'patch {k}: {"+".join(keys)} bytes before it ({label["before"]}): '
                    f'{"; ".join(seen["before"])}; with it ({label["after"]}): '
                    f'{"; ".join(seen["after"])}')
    # xtensa: no compiler, the model runs none of it; 74's readings
    arch, f, row = how[1], xtensa_texts['file', how[0]], xtensa_texts.get('row')
    txt = {w: xtensa_texts[tr, how[0]] for w, tr in trees.items()}
    if how[0] == 'prep_coherent':
        pops = {w: (prepcoherent.what(arch, txt[w], archtable.normalize) or (set(),))[0]
                for w in txt}
        ok = pops['before'] == {prepcoherent.INV} and prepcoherent.WB in pops['after']
        return ok, (f'patch {k}: {f} arch_dma_prep_coherent() as 74-other-arches-doc\'s '
                    f'prepcoherent.py reads it: before it {prepcoherent.cell(pops["before"])}, '
                    f'with it ({label["after"]}) {prepcoherent.cell(pops["after"])}')
    has = {(w, e): all(archtable.has(txt[w], ev) for _, ev in row[e]) for w in txt for e in (4, 5)}
    ok = has['before', 4] and not has['before', 5] and has['after', 5] and not has['after', 4]
    return ok, (f'patch {k}: {f} map, 74-other-arches-doc\'s arch table row {arch} (its '
                f'evidence): before it "{row[1]}" {"shown" if has["before", 4] else "NOT shown"}'
                f', "{row[2]}" {"shown" if has["before", 5] else "not shown"}; with it '
                f'({label["after"]}) "{row[2]}" {"shown" if has["after", 5] else "NOT shown"}')


def xtensa_fix_texts(tree, patches):
    """The texts the xtensa fixes are judged on (judge_fix()): for each
    FIXES entry that is not the model's, the file before the fix, with
    it, and with its FIX_MUTATIONS entry; keyed (tree name, kind)."""
    out = {}
    fixmut = {k: (old, new) for k, _, old, new in FIX_MUTATIONS}
    for k, _, how in FIXES:
        if how[0] == 'model':
            continue
        arch = how[1]
        if how[0] == 'prep_coherent':
            f = prepcoherent.FILES[arch][0]
        else:
            out['row'] = next(r for r in archtable.ROWS if r[0] == arch)
            f = out['row'][4][0][0]
        base = sh(['git', '-C', tree, 'show', f'{ENV["BASE_TAG"]}:{f}'])
        out['file', how[0]] = f
        out[f'fix{k}_before', how[0]] = patched_text(base, f, patches[:k - 1], False)
        after = out[f'fix{k}_after', how[0]] = patched_text(base, f, patches[:k], False)
        if k in fixmut and after.count(fixmut[k][0]) == 1:
            out[f'fixmut{k}', how[0]] = after.replace(*fixmut[k])
    return out
