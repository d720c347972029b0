# SPDX-License-Identifier: GPL-2.0
"""The coverage.md and coverage-summary.txt that arch-arm/coverage/run writes."""

import re
import shutil
from collections import Counter
from glob import glob
from pathlib import Path


class Report:
    """The summary line (a mixin of Coverage)."""

    def last_warn(self, name):
        """The warnings after the last patch: the last step that built NAME."""
        w = self.log_dir / f'base-{name}.warn'
        for s in range(1, len(self.patches) + 1):
            if (self.log_dir / f'{s}-{name}.warn').is_file():
                w = self.log_dir / f'{s}-{name}.warn'
        return w.read_text().splitlines()

    def summary(self):
        """Distinct warnings about the series' files, before and after."""
        before, after = set(), set()
        self.wbefore, self.wafter = {}, {}
        built = [c for c in self.cfgs if (self.log_dir / f"base-{c['name']}.warn").is_file()]
        for f in self.all_files:
            pre = re.compile('^' + f + ': ')
            b = {w for c in built
                 for w in (self.log_dir / f"base-{c['name']}.warn").read_text().splitlines()
                 if pre.match(w)}
            a = {w for c in built for w in self.last_warn(c['name']) if pre.match(w)}
            before |= b
            after |= a
            self.wbefore[f], self.wafter[f] = len(b), len(a)
        new = set()
        nw = self.log_dir / 'new-warnings'
        if nw.is_file():
            new = {line.split(' ', 2)[2] for line in nw.read_text().splitlines()}
        kinds = {c['name']: c['kind'] for c in self.cfgs}
        n_cov = sum(1 for f in self.all_files if self.covered_by[f])
        n_scratch = sum(1 for f in self.all_files if self.covered_by[f] and
                        not any(kinds[n] == 'mm' for n in self.covered_by[f]))
        n_mm = sum(1 for c in self.cfgs if c['kind'] != 'kdma')
        n_fail = sum(1 for r in self.results if r[0] == 'not ok')
        return (f'Build coverage: {n_cov}/{len(self.all_files)} touched files compiled in '
                f'{n_mm} ARM configurations ({n_scratch} unreachable in {self.base}, '
                'compile-tested via a coverage-only Kconfig change) on the base and after '
                f'each of {len(self.patches)} patches, W=1{" + sparse" if self.sparse else ""}: '
                f'{len(new)} new warnings '
                f'({len(before)} distinct warnings on the base, {len(after)} after the last '
                f'patch), {n_fail} failures.')


def march(out):
    """The -march most of a build's objects were compiled with."""
    n = Counter()
    for cmd in glob(f'{out}/arch/arm/mm/.*.o.cmd') + glob(f'{out}/kernel/dma/.*.o.cmd'):
        n.update(re.findall(r'-march=[a-z0-9-]*', Path(cmd).read_text(errors='replace')))
    if not n:
        return ''
    return max(n.items(), key=lambda kv: (kv[1], kv[0]))[0][len('-march='):]


def configurations(cov):
    yield '| name | defconfig + fragments | kind | -march | D-cache |'
    yield '| --- | --- | --- | --- | --- |'
    for c in cov.cfgs:
        if cov.base_objs(c['name']) is None:
            continue
        out = cov.out_dir(c['name'])
        wt = 'write-through' if re.search(r'^CONFIG_CPU_DCACHE_WRITETHROUGH=y',
                                          (out / '.config').read_text(), re.M) else 'write-back'
        frags = c['frag_text'].replace('-', '', 1)
        yield f"| {c['name']} | {c['def']} {frags} | {c['kind']} | {march(out)} | {wt} |"


def files(cov):
    cols = [c['name'] for c in cov.cfgs
            if cov.base_objs(c['name']) is not None and c['name'] != 'kdma']
    yield '| file |' + ''.join(f' {n} |' for n in cols) + ' warnings before | after |'
    yield '| --- |' + ' --- |' * len(cols) + ' --- | --- |'
    for f in cov.all_files:
        o = f.rsplit('.', 1)[0] + '.o'
        row = ''.join(' x |' if o in cov.base_objs(n) else ' |' for n in cols)
        yield (f"| {f.removeprefix('arch/arm/mm/')} |{row} "
               f'{cov.wbefore[f]} | {cov.wafter[f]} |')


def base_warnings(cov):
    lines = []
    for c in cov.cfgs:
        w = cov.log_dir / f"base-{c['name']}.warn"
        if not w.is_file():
            continue
        warns = w.read_text().splitlines()
        for f in cov.all_files:
            lines += [x for x in warns if re.match('^' + f + ': ', x)]
    n = Counter(lines)
    return [f'{n[x]:7d} {x}' for x in sorted(n)]


def per_step(cov):
    cell = {}
    for st, name, _ in cov.results:
        m = re.fullmatch(r'(.*?)_(builds|no_new_warnings|configure)', name)
        if not m:
            continue
        key = m.group(1)
        if st == 'not ok':
            cell[key] = 'FAIL ' + name.rsplit('_', 1)[1]
        elif not cell.get(key) and st == 'ok':
            cell[key] = 'ok'
    names = [c['name'] for c in cov.cfgs]
    yield '| step |' + ''.join(f' {n} |' for n in names)
    yield '| --- |' + ' --- |' * len(names)
    for s in ['base'] + [str(i) for i in range(1, len(cov.patches) + 1)]:
        yield f'| {s} |' + ''.join(f" {cell.get(f'{s}_{n}', '')} |" for n in names)


def write_doc(cov, doc_dir, summary, marker):
    doc_dir.mkdir(parents=True, exist_ok=True)
    md = doc_dir / 'coverage.md'
    committed = Path(cov.env['RESULTS_DIR']) / 'coverage.md'
    if not md.is_file() and committed.is_file():
        shutil.copy(committed, md)
    tail = ''
    if md.is_file():
        text = md.read_text().splitlines(keepends=True)
        # The marker names the tool; a file written before the tool
        # moved has it with the old name: its hand-written part is kept.
        stem = marker[:marker.index(' by ') + len(' by ')]
        ends = [i for i, line in enumerate(text) if line.startswith(stem)]
        if ends:
            tail = ''.join(text[ends[-1] + 1:]).rstrip('\n')
    new_warn = cov.log_dir / 'new-warnings'
    out = ['# Build coverage of the series', '',
           'Generated by `arch-arm/coverage/run` (do not edit above the marker line);',
           'configurations: the coverage rows of `arch-arm/configs/table` and the fragments',
           f'next to it. Base tree {cov.tag}, patches:', '']
    for k, p in enumerate(cov.patches, 1):
        out.append(f'{k}. `{Path(p).name}`: built '
                   f"{cov.step_cfgs.get(k) or 'nothing (no compiled file)'}")
    out += ['', f'    {summary}', '', '## Configurations', '']
    out += configurations(cov)
    out += ['', '## Files x configurations', '',
            'x: the object was built (and rebuilt after each patch touching it).',
            f'Warnings: distinct W=1{" + sparse" if cov.sparse else ""} warnings '
            '(file: message) about the file',
            'over all configurations, on the base and after the last patch.', '']
    out += files(cov)
    out += ['',
            'proc-arm1020.S, proc-arm1020e.S (`depends on ARCH_INTEGRATOR_AP && n`)',
            'and proc-arm940.S, proc-arm946.S (`depends on !MMU`, and !MMU means',
            f'ARMv7-M in {cov.base}) cannot be selected by any {cov.base} configuration: '
            'they are',
            'unreachable and compile-tested only, in the `scratch` configurations,',
            'after a coverage-only Kconfig change the tool makes in its worktree and',
            'reverts after the build (never part of the series).', '',
            "## Warnings on the base (the series' files; count: configurations)", '', '```']
    out += base_warnings(cov)
    out += ['```', '', '## New warnings (step configuration: file: message)', '', '```']
    out += new_warn.read_text().splitlines() if new_warn.is_file() else ['none']
    out += ['```', '', '## Per step (ok: built, every object rebuilt, no new warning)', '']
    out += per_step(cov)
    out.append('')
    for st, name, why in cov.results:
        if st == 'skip':
            step, _, rest = name.partition('_')
            out.append(f'- step {step}, {rest}: skipped: {why}')
    out += ['', marker]
    if tail:
        out.append(tail)
    tmp = md.with_suffix('.md.tmp')
    tmp.write_text('\n'.join(out) + '\n')
    tmp.replace(md)
    (doc_dir / 'coverage-summary.txt').write_text(summary + '\n')
    return md
