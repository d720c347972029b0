#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The documentation checks of tools/series.d/htmldocs, as KTAP.

Run by tools/series.d/htmldocs in the worktree SRC, at the base tag TAG
with every series applied on top, with the Sphinx output in OUT:

    htmldocs.py SRC TAG OUT NPATCHES

For the Documentation directories the series change, make
SPHINXDIRS=... htmldocs must exit 0 with no warning naming a changed
file; each changed page must show the series' text and keep every
heading it had at its level (rstlevels.py); kernel-doc -none -Wall must
give nothing on a changed header that the base's header does not give.
Then red runs, each of which must be reported: an unterminated literal
in the first changed page, the first heading a series adds underlined
with a style the page does not use (the "~~~~" heading that once stopped
dma-api.rst's build), and a kernel-doc parameter that does not exist, in
a copy of the first changed header.
"""

import os
import re
import subprocess
import sys
import time

import rstlevels

RED_STYLES = '~"+#*'


class Docs:
    def __init__(self, src, tag, out):
        self.src, self.tag, self.out = src, tag, out
        self.rsts = self.changed('Documentation/*.rst')
        self.headers = self.changed('include/*.h')
        self.dirs = sorted({f.split('/')[1] for f in self.rsts})
        self.tests = []

    def git(self, *args):
        return subprocess.run(['git', '-C', self.src, *args], check=True,
                              capture_output=True, text=True).stdout

    def changed(self, pattern):
        return self.git('diff', '--name-only', self.tag, 'HEAD', '--', pattern).split()

    def result(self, ok, name, why=None):
        self.tests.append((ok, name, why))

    def build(self, log):
        """make htmldocs of the changed directories; its exit status.
        Sphinx warns only about the pages it reads: the changed ones
        are made newer than its saved state first."""
        for f in self.rsts:
            os.utime(os.path.join(self.src, f))
        with open(log, 'w') as fh:
            return subprocess.run(['make', '-C', self.src, f'O={self.out}',
                                   f'SPHINXDIRS={" ".join(self.dirs)}', 'htmldocs'],
                                  stdout=fh, stderr=subprocess.STDOUT).returncode

    def warnings(self, log):
        """The warning lines of LOG that name a changed file."""
        with open(log, errors='replace') as fh:
            text = fh.read().splitlines()
        return [line for line in text if re.search(r'WARNING|ERROR|SEVERE', line) and
                any(f in line for f in self.rsts + self.headers)]

    def base_copy(self, path):
        """PATH as the base has it, in OUT (empty if the base has none)."""
        dst = os.path.join(self.out, 'base-' + os.path.basename(path))
        r = subprocess.run(['git', '-C', self.src, 'show', f'{self.tag}:{path}'],
                           capture_output=True)
        with open(dst, 'wb') as fh:
            fh.write(r.stdout if r.returncode == 0 else b'')
        return dst

    def shown(self, rst):
        """The page built from RST holds the first words the series adds."""
        page = os.path.join(self.out, 'Documentation/output',
                            rst.removeprefix('Documentation/')[:-4] + '.html')
        if not os.path.isfile(page):
            return False
        diff = self.git('diff', self.tag, 'HEAD', '--', rst).splitlines()
        words = next((' '.join(l[1:].split()[:8]) for l in diff
                      if re.match(r'\+\s*[A-Za-z]', l) and not l.startswith('+++')), '')
        with open(page, errors='replace') as fh:
            text = ' '.join(re.sub(r'<[^>]*>', '', fh.read()).split())
        return bool(words) and words in text

    def levels(self, rst):
        """The headings of RST whose level the series change."""
        return rstlevels.moved(self.base_copy(rst), os.path.join(self.src, rst))

    def kdoc(self, header, path=None):
        """kernel-doc -Wall lines of PATH (default HEADER) that the base's
        HEADER does not give too, file and line number aside."""
        def run(p):
            r = subprocess.run(['scripts/kernel-doc', '-none', '-Wall', p], cwd=self.src,
                               capture_output=True, text=True)
            return (r.stdout + r.stderr).splitlines()

        def key(line):
            return re.sub(r'^[A-Za-z]+: \S*:[0-9]+ ', '', line)
        base = {key(line) for line in run(self.base_copy(header))}
        return [line for line in run(path or header) if key(line) not in base]

    def added_heading(self):
        """(page, line) of the first section underline a series adds."""
        for f in self.rsts:
            n, prev = 0, ''
            for line in self.git('diff', '-U0', self.tag, 'HEAD', '--', f).splitlines():
                m = re.match(r'@@ -\S+ \+(\d+)', line)
                if m:
                    n, prev = int(m.group(1)) - 1, ''
                elif line.startswith('+') and not line.startswith('+++'):
                    n += 1
                    if rstlevels.adornment(line[1:]) and re.search('[A-Za-z]', prev):
                        return f, n
                    prev = line[1:]
        return None

    def red_heading(self):
        found = self.added_heading()
        if not found:
            self.result(None, 'red_heading_level_is_reported',
                        'the series add no section heading')
            return
        f, n = found
        path = os.path.join(self.src, f)
        with open(path) as fh:
            lines = fh.readlines()
        c = next(c for c in RED_STYLES if not any(rstlevels.adornment(l) and l[0] == c
                                                 for l in lines))
        orig = lines[n - 1]
        lines[n - 1] = c * len(orig.rstrip('\n')) + '\n'
        try:
            with open(path, 'w') as fh:
                fh.writelines(lines)
            rc = self.build(os.path.join(self.out, 'htmldocs-red-heading.log'))
            moved = self.levels(f)
        finally:
            self.git('checkout', '-q', '--', f)
        self.result(rc != 0 or bool(moved), 'red_heading_level_is_reported',
                    f'{f}:{n} underlined with {c}: make exit {rc}; ' +
                    ('; '.join(moved) or 'no heading moved'))

    def red_rst(self):
        f = self.rsts[0]
        try:
            with open(os.path.join(self.src, f), 'a') as fh:
                fh.write('\nThis ``literal is never closed.\n')
            self.build(os.path.join(self.out, 'htmldocs-red.log'))
            w = self.warnings(os.path.join(self.out, 'htmldocs-red.log'))
        finally:
            self.git('checkout', '-q', '--', f)
        self.result(bool(w), 'red_broken_rst_is_reported', f)

    def red_kdoc(self):
        if not self.headers:
            self.result(None, 'red_broken_kernel_doc_is_reported',
                        'the series change no header')
            return
        h = self.headers[0]
        broken = os.path.join(self.out, os.path.basename(h))
        with open(os.path.join(self.src, h)) as fh:
            text = fh.read()
        bad = re.sub(r'^ \* @size:', ' * @no_such_parameter:', text, count=1, flags=re.M)
        with open(broken, 'w') as fh:
            fh.write(bad)
        self.result(bad != text and bool(self.kdoc(h, broken)),
                    'red_broken_kernel_doc_is_reported',
                    h if bad != text else f"no '@size:' line in {h} to break")

    def run(self, npatches):
        self.result(True, 'every_series_applies', f'{npatches} patches')
        if not self.rsts:
            self.result(False, 'changed_pages', 'the series change no Documentation/*.rst')
            return
        log = os.path.join(self.out, 'htmldocs.log')
        t0 = time.time()
        rc = self.build(log)
        self.result(rc == 0, 'htmldocs_builds',
                    f'make SPHINXDIRS="{" ".join(self.dirs)}" htmldocs: exit {rc}, '
                    f'{int(time.time() - t0)} s (log: {log})')
        w = self.warnings(log)
        self.result(not w, 'no_warning_in_changed_files', '; '.join(w) or None)
        bad = [f for f in self.rsts if not self.shown(f)]
        self.result(not bad, 'new_text_rendered',
                    ' '.join(self.rsts) + (f'; missing from: {" ".join(bad)}' if bad else ''))
        moved = [f'{f}: {m}' for f in self.rsts for m in self.levels(f)]
        self.result(not moved, 'headings_keep_their_levels', '; '.join(moved) or None)
        for h in self.headers:
            k = self.kdoc(h)
            self.result(not k, f'kernel_doc_clean_{os.path.basename(h)[:-2]}',
                        '; '.join(k) or None)
        self.red_rst()
        self.red_heading()
        self.red_kdoc()


def report(tests):
    print('KTAP version 1')
    print(f'1..{len(tests)}')
    counts = [0, 0, 0]
    for i, (ok, name, why) in enumerate(tests, 1):
        if ok is None:
            print(f'ok {i} {name} # SKIP {why}')
            counts[2] += 1
            continue
        if why:
            print(f'# {why}')
        print(f'{"ok" if ok else "not ok"} {i} {name}')
        counts[0 if ok else 1] += 1
    print(f'{counts[0]} passed, {counts[1]} failed, {counts[2]} skipped')
    return 1 if counts[1] else 0


def main(argv):
    if len(argv) != 5:
        sys.exit('usage: htmldocs.py SRC TAG OUT NPATCHES')
    docs = Docs(argv[1], argv[2], argv[3])
    docs.run(int(argv[4]))
    return report(docs.tests)


if __name__ == '__main__':
    sys.exit(main(sys.argv))
