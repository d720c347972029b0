# SPDX-License-Identifier: GPL-2.0
"""arch-arm/coverage/run: the builds, base and after each patch."""

import os
import re
import shutil
import subprocess
import time
from fnmatch import fnmatchcase
from glob import glob
from pathlib import Path

from coverage_config import SCRATCH_KCONFIGS, SCRATCH_OBJS, Configs, die, progress
from coverage_doc import Report


# C objects of arch/arm/mm/ that arch-arm/model/run reads from the base builds
# besides the series' own (arch-arm/model/outer.py: the L2C-310's range
# operations).
MODEL_C_OBJS = ('arch/arm/mm/cache-l2x0.o',)


class Coverage(Configs, Report):
    def __init__(self, env, patches, opts):
        self.env = env
        self.top = Path(env['TOP'])
        self.base = env['BASE']
        self.tag = opts['rev'] or env['BASE_TAG']
        self.cache = Path(env['CACHE_DIR'])
        self.cross = env['CROSS_COMPILE']
        self.patches = patches
        self.opts = opts
        self.wt = self.cache / 'worktrees/coverage'
        self.log_dir = self.cache / 'build/coverage-logs'
        self.results = []
        self.mutate = os.environ.get('COVERAGE_MUTATE', '')
        self.touched = {}
        self.all_files = []
        self.step_cfgs = {}

    # Results, printed as KTAP at the end (progress goes to stderr).
    def ok(self, name):
        self.results.append(('ok', name, ''))

    def fail(self, name):
        self.results.append(('not ok', name, ''))
        progress(f'FAIL {name}')

    def skip(self, name, why):
        self.results.append(('skip', name, why))

    def git(self, *args, **kw):
        return subprocess.run(['git', '-C', str(self.wt), *args], check=False, **kw)

    def mk(self, out, *args, log=None):
        cmd = ['make', '-s', '-C', str(self.wt), f'O={out}', 'ARCH=arm',
               f'CROSS_COMPILE={self.cross}', *args]
        if log is None:
            return subprocess.run(cmd, stdout=subprocess.DEVNULL, check=False).returncode
        with open(log, 'a') as f:
            return subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT,
                                  check=False).returncode

    def out_dir(self, name):
        return self.cache / f'build/coverage-{name}'

    def read_series(self):
        for p in self.patches:
            files = sorted(set(re.findall(r'^diff --git a/(\S+) b/', Path(p).read_text(),
                                          re.M)))
            self.touched[p] = files
            for f in files:
                if fnmatchcase(f, 'arch/arm/mm/*.[Sc]') and f not in self.all_files:
                    self.all_files.append(f)
        self.mm_objs = [f.rsplit('.', 1)[0] + '.o' for f in self.all_files]
        self.need_kdma = any(f.startswith(('kernel/dma/', 'include/linux/dma'))
                             for fs in self.touched.values() for f in fs)

    # The coverage-only Kconfig change for the scratch configurations.
    def restore_scratch(self, kind):
        if kind == 'scratch':
            self.git('checkout', '-q', '--', *SCRATCH_KCONFIGS)

    def restore_wt(self):
        self.git('checkout', '-q', '--', '.', stderr=subprocess.DEVNULL)

    def warnings(self, log):
        """The warning and error lines of a build, as path: message, sorted."""
        lines = []
        for line in Path(log).read_text(errors='replace').splitlines():
            if not re.search(r'warning|error|Warning|Error', line) or line.startswith('make'):
                continue
            line = line.replace(f'{self.wt}/', '')
            # kernel-doc, which W=1 runs since 7.x: "Warning: FILE:LINE ..."
            line = re.sub(r'^(Warning|Error): ([^ :]+):[0-9]+ ', r'\2: kernel-doc: ', line)
            lines.append(re.sub(r'^([^ :]*):[0-9]*:([0-9]*:)? *', r'\1: ', line, count=1))
        return sorted(lines)

    def kdma_objs(self, step):
        files = ([f for fs in self.touched.values() for f in fs] if step == 'base'
                 else self.touched[self.patches[step - 1]])
        return sorted({f[:-2] + '.o' for f in files
                       if fnmatchcase(f, 'kernel/dma/*.c')})

    def enable_new_symbols(self, step, out):
        """Symbols the patches so far add under kernel/dma/: enable them."""
        if step == 'base':
            return
        syms = []
        for p in self.patches[:step]:
            syms += re.findall(r'^\+(?:menu)?config ([A-Z0-9_]*)$', Path(p).read_text(), re.M)
        for s in syms:
            subprocess.run([str(self.wt / 'scripts/config'), '--file', str(out / '.config'),
                            '--enable', s], check=True)
        if syms:
            self.mk(out, 'olddefconfig')

    def apply_mutation(self, step):
        if not self.mutate:
            return
        n, path, expr = self.mutate.split(':', 2)
        if n != str(step):
            return
        if not (self.wt / path).is_file():
            die(f'COVERAGE_MUTATE: no {path} in the tree')
        subprocess.run(['sed', '-i', '-e', expr, str(self.wt / path)], check=True)
        if self.git('diff', '--quiet', '--', path).returncode == 0:
            die(f"COVERAGE_MUTATE: '{expr}' changed nothing in {path}")
        progress(f"COVERAGE_MUTATE: after step {step}, applied '{expr}' to {path} "
                 '(this step only)')

    def list_mm_targets(self, out):
        """The objects of arch/arm/mm/ an "mm" build makes, written to
        OUT/.coverage-targets: of those kbuild builds for the
        configuration (make -n, with the directory's objects deleted), the
        series' objects, every assembler object (the cache and processor
        backends arch-arm/model/run runs) and MODEL_C_OBJS. Not the other C files:
        the series does not touch them, and their W=1 (+ sparse) build was
        most of a cold configuration's time. No file if make -n lists
        none: make_objs then builds the directory."""
        r = subprocess.run(['make', '-n', '-C', str(self.wt), f'O={out}', 'ARCH=arm',
                            f'CROSS_COMPILE={self.cross}', 'W=1', 'arch/arm/mm/'],
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                           check=False)
        listed = sorted(set(re.findall(r' -o (arch/arm/mm/[^ /]+\.o)(?= )', r.stdout)))
        keep = [o for o in listed if o in self.mm_objs or o in MODEL_C_OBJS or
                (self.wt / (o[:-2] + '.S')).is_file()]
        if keep:
            (out / '.coverage-targets').write_text(''.join(o + '\n' for o in keep))

    def make_objs(self, kind, out, objs, log, jobs):
        target = {'mm': ['arch/arm/mm/'], 'kdma': ['kernel/dma/'], 'scratch': objs}[kind]
        if kind == 'mm' and (out / '.coverage-targets').is_file():
            target = (out / '.coverage-targets').read_text().split()
        return self.mk(out, '-k', *jobs, 'W=1', *self.sparse, *target, log=log)

    def build(self, step, c):
        """Build configuration C at STEP (base or a patch number)."""
        name, kind = c['name'], c['kind']
        out = self.out_dir(name)
        log = self.log_dir / f'{step}-{name}.log'
        t0 = time.time()
        if kind == 'scratch':
            self.scratch_kconfig()
        cid = self.config_id(c)
        id_file = out / '.coverage-config-id'
        if not (out / '.config').is_file() or \
           (id_file.read_text().strip() if id_file.is_file() else '') != cid:
            missing = self.configure(c)
            if missing is None or missing:
                if missing:
                    progress(f"{name}: fragment settings that did not stick: {' '.join(missing)}")
                self.fail(f'{step}_{name}_configure')
                self.restore_scratch(kind)
                return
            id_file.write_text(cid + '\n')
            (out / '.coverage-base-warnings').unlink(missing_ok=True)
        # The first base build of a configuration rebuilds all its targets
        # (list_mm_targets, or kernel/dma/): their warnings are kept as the
        # base to compare with, so that a patch which rebuilds more (a
        # header) shows no old warning.
        base_warn = out / '.coverage-base-warnings'
        targets = out / '.coverage-targets'
        full = step == 'base' and (not base_warn.is_file() or
                                   (kind == 'mm' and not targets.is_file()))
        if full and kind in ('mm', 'kdma'):
            d = 'arch/arm/mm' if kind == 'mm' else 'kernel/dma'
            for o in glob(f'{out}/{d}/*.o'):
                os.unlink(o)
            if kind == 'mm':
                targets.unlink(missing_ok=True)
                self.list_mm_targets(out)
        if kind == 'kdma':
            self.enable_new_symbols(step, out)
        objs = {'mm': self.mm_objs, 'scratch': SCRATCH_OBJS,
                'kdma': self.kdma_objs(step)}[kind]
        for o in objs:
            (out / o).unlink(missing_ok=True)
        stamp = out / '.coverage-stamp'
        stamp.touch()
        stamp_ns = stamp.stat().st_mtime_ns
        log.write_text('')
        rc = self.make_objs(kind, out, objs, log, ['-j2'])
        # A failure with no diagnostic from the compiler or assembler (a
        # killed job on a shared machine) is retried once, -j1.
        text = log.read_text(errors='replace')
        if rc and not re.search(r'(Error|error):', text):
            progress(f'{step} {name}: make exited {rc} without a compiler error, retrying -j1:')
            for line in text.splitlines()[-3:]:
                progress(f'  {line}')
            if kind == 'scratch':
                self.scratch_kconfig()
            rc = self.make_objs(kind, out, objs, log, [])
        self.restore_scratch(kind)

        # Which of the series' objects this configuration rebuilt.
        built = [o for o in objs
                 if (out / o).is_file() and (out / o).stat().st_mtime_ns > stamp_ns]
        (self.log_dir / f'{step}-{name}.objs').write_text(''.join(o + '\n' for o in built))
        warns = self.warnings(log)
        (self.log_dir / f'{step}-{name}.warn').write_text(''.join(w + '\n' for w in warns))
        if step == 'base':
            if full and rc == 0:
                shutil.copy(self.log_dir / f'base-{name}.warn', base_warn)
            if base_warn.is_file():
                allw = sorted(set(base_warn.read_text().splitlines()) | set(warns))
                (self.log_dir / f'base-{name}.all-warn').write_text(
                    ''.join(w + '\n' for w in allw))
        progress(f'{step} {name}: exit {rc}, {len(built)} objects, {len(warns)} warnings, '
                 f'{int(time.time() - t0)} s')
        errors = [x for x in log.read_text(errors='replace').splitlines()
                  if re.search(r'(Error|error):', x)]
        if step == 'base':
            if rc == 0:
                self.ok(f'{step}_{name}_builds')
            else:
                for x in (errors or log.read_text().splitlines()[-5:])[:5]:
                    progress(f'  {x}')
                self.fail(f'{step}_{name}_builds')
            return
        base_objs = self.log_dir / f'base-{name}.objs'
        if not base_objs.is_file():
            self.fail(f'{step}_{name}_builds')
            progress(f'{step} {name}: no base build to compare with')
            return
        want = sorted(set(objs)) if kind == 'kdma' else sorted(base_objs.read_text().split())
        missing = [o for o in want if o not in built]
        if rc == 0 and not missing:
            self.ok(f'{step}_{name}_builds')
        else:
            progress(f"{step} {name}: exit {rc}; not rebuilt: {' '.join(missing) or 'none'}")
            errs = [x for x in log.read_text(errors='replace').splitlines()
                    if re.search(r'Error|error', x) and not x.startswith('make')]
            for x in errs[:5]:
                progress(f'  {x}')
            self.fail(f'{step}_{name}_builds')
        old = set()
        for f in (f'base-{name}.warn', f'base-{name}.all-warn'):
            if (self.log_dir / f).is_file():
                old |= set((self.log_dir / f).read_text().splitlines())
        new = sorted(set(warns) - old)
        if not new:
            self.ok(f'{step}_{name}_no_new_warnings')
        else:
            for w in new[:10]:
                progress(f'  new: {w}')
            with open(self.log_dir / 'new-warnings', 'a') as f:
                f.writelines(f'{step} {name}: {w}\n' for w in new)
            self.fail(f'{step}_{name}_no_new_warnings')

    def wants(self, c, p):
        """Whether configuration C compiles something patch P touches."""
        base_objs = self.log_dir / f"base-{c['name']}.objs"
        objs = base_objs.read_text().split() if base_objs.is_file() else None
        want = False
        for f in self.touched[p]:
            if fnmatchcase(f, 'arch/arm/mm/*'):
                if c['kind'] in ('mm', 'scratch') and \
                   (objs is None or f.rsplit('.', 1)[0] + '.o' in objs):
                    want = True
            elif fnmatchcase(f, 'kernel/dma/*'):
                want |= c['kind'] == 'kdma'
            elif any(fnmatchcase(f, g) for g in ('Documentation/*', 'MAINTAINERS',
                                                 '*/.kunitconfig', '*.rst', '*.txt',
                                                 'tools/*')):
                pass
            elif f.endswith('.h'):
                # A header: the configurations whose objects include it
                # (kbuild's dependency files say which).
                d = 'kernel/dma' if c['kind'] == 'kdma' else 'arch/arm/mm'
                for cmd in glob(f"{self.out_dir(c['name'])}/{d}/.*.o.cmd"):
                    if f'/{f}' in Path(cmd).read_text(errors='replace'):
                        want = True
                        break
            else:
                want = True
        if objs is None and c['kind'] == 'kdma':
            want = False
        return want

    def prepare_worktree(self, tree):
        """The worktree: made once, reset to the base tag on every run."""
        def common(d):
            return subprocess.run(['git', 'rev-parse', '--path-format=absolute',
                                   '--git-common-dir'], cwd=d, capture_output=True,
                                  text=True, check=False).stdout.strip()
        # A worktree of another tree (KERNEL_TREE changed): moved to this
        # one; kbuild rebuilds the O= directories, whose commands name
        # the same source path.
        other = common(self.wt) if (self.wt / '.git').exists() else ''
        if other and other != common(tree):
            r = subprocess.run(['git', f'--git-dir={other}', 'worktree', 'remove', '--force',
                                str(self.wt)], capture_output=True, check=False)
            if r.returncode:
                die(f'{self.wt} is a worktree of {other}, and removing it failed')
        if not (self.wt / '.git').exists():
            subprocess.run(['git', '-C', tree, 'worktree', 'prune'], check=False)
            r = subprocess.run(['git', '-C', tree, 'worktree', 'add', '-q', '--detach',
                                str(self.wt), self.tag], capture_output=True, check=False)
            if r.returncode:
                die(f'cannot create the worktree {self.wt}')
        if common(tree) != common(self.wt):
            die(f'{self.wt} is a worktree of another repository; remove it')
        self.git('am', '--abort', capture_output=True)
        if self.git('checkout', '-q', '--detach', self.tag).returncode or \
           self.git('reset', '-q', '--hard').returncode:
            die(f'cannot reset {self.wt} to {self.tag}')

    def run(self, tree):
        self.read_configs()
        self.read_series()
        self.prepare_worktree(tree)
        self.sparse_check()
        if self.opts['clean']:
            for c in self.cfgs:
                shutil.rmtree(self.out_dir(c['name']), ignore_errors=True)
        progress(f'coverage: {len(self.cfgs)} configurations, {len(self.all_files)} files, '
                 f'base + {len(self.patches)} patches')
        start = time.time()
        try:
            self.apply_mutation(0)
            for c in self.cfgs:
                if c['kind'] != 'kdma' or self.need_kdma:
                    self.build('base', c)
            self.restore_wt()
            if not self.opts['base_only']:
                self.steps()
        finally:
            self.restore_wt()
        if not self.opts['base_only']:
            self.check_covered()
        return int(time.time() - start)

    def steps(self):
        """Each patch in order: the configurations that compile what it touches."""
        for step, p in enumerate(self.patches, 1):
            with open(self.log_dir / f'{step}-am.log', 'w') as log:
                r = self.git('-c', 'user.name=x', '-c', 'user.email=x@localhost',
                             'am', '-q', p, stdout=log, stderr=subprocess.STDOUT)
            if r.returncode:
                self.git('am', '--abort', capture_output=True)
                self.fail(f'patch_{step}_applies')
                break
            self.apply_mutation(step)
            built = []
            for c in self.cfgs:
                if self.wants(c, p):
                    self.build(step, c)
                    built.append(c['name'])
            self.restore_wt()
            self.step_cfgs[step] = ' '.join(built)
            touched = ''.join(f + ' ' for f in self.touched[p])
            if not built:
                self.skip(f'{step}_builds', f'touches no compiled file: {touched}')
            if ' tools/' in ' ' + touched:
                self.skip(f'{step}_tools',
                          'tools/ (user-space selftests) not built: not a kernel object')
            if ' Documentation/' in ' ' + touched:
                self.skip(f'{step}_htmldocs',
                          'Documentation/ not built here: tools/series.d/htmldocs builds it')

    def base_objs(self, name):
        f = self.log_dir / f'base-{name}.objs'
        return f.read_text().split() if f.is_file() else None

    def check_covered(self):
        """Every file is compiled by some configuration."""
        self.covered_by = {}
        for f in self.all_files:
            o = f.rsplit('.', 1)[0] + '.o'
            by = [c['name'] for c in self.cfgs if o in (self.base_objs(c['name']) or [])]
            self.covered_by[f] = by
            name = f'compiled_{os.path.basename(f)}'
            if by:
                self.ok(name)
            elif self.opts['only'] is not None:
                self.skip(name, f"not in --configs {self.opts['only']}")
            else:
                self.fail(name)
