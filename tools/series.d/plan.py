#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The merge plan of the mainline series: its text, and its check.

    plan.py text TREE            print the plan as the cover letters say it
    plan.py check TREE OUT       KTAP; writes the text to OUT

TREE is the mainline base tree: its scripts/get_maintainer.pl says which
MAINTAINERS sections own each file a patch touches. The plan is
tools/series.d/plan (its header says the format); the patches are the
committed ones (patches/, patches/other-arches, patches/dma-kasan).

What a patch needs is derived, not typed: an earlier patch (in the order
the series are built: ARM, other-arches, dma-kasan) that touches one of
its files, or that defines a name (#define, function, struct, enum,
Kconfig symbol) its lines use; plus what the plan's needs column adds.
The check fails when the plan routes a patch before one it needs, or
through a tree that cannot have what it needs, or through a tree that
does not own a file the patch touches without the owner's ack (or asks
for an ack no file needs). It then makes the same plan fail on purpose,
once per rule (patch 16 of other-arches routed before ARM patch 4, an
ack dropped), so that a check that cannot fail is seen.
"""

import os
import re
import subprocess
import sys
import tempfile
import textwrap

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
import ktap  # noqa: E402

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PLAN = os.path.join(TOP, 'tools', 'series.d', 'plan')
DIRS = {'arm': 'patches', 'other-arches': 'patches/other-arches',
        'dma-kasan': 'patches/dma-kasan'}
COVERS = {'arm': 'cover-letter.txt', 'other-arches': 'cover-letter-other-arches.txt',
          'dma-kasan': 'cover-letter-dma-kasan.txt'}
TITLES = {'arm': 'ARM', 'other-arches': 'other-arches', 'dma-kasan': 'dma-kasan'}
ANY_TREE = {'THE REST', 'DOCUMENTATION'}
CODE = r'(\.[chS]|/Kconfig[^/]*|/Makefile)$'
DEFINES = [re.compile(p) for p in (
    r'^#\s*define\s+(\w+)',
    r'^(?:static\s+|inline\s+|extern\s+|noinline\s+|__\w+\s+)*'
    r'(?:const\s+|unsigned\s+|struct\s+|enum\s+)*\w+[\s*]+(\w+)\([^;]*$',
    r'^(?:struct|enum|union)\s+(\w+)\s*\{',
    r'^\s*(?:menu)?config\s+(\w+)',
    r'^\s*(\w+)\s*(?:=\s*[^,]+)?,\s*$',
)]


def die(msg):
    sys.exit(f'plan.py: {msg}')


def read_plan(lines):
    """(trees, patches, whys) of the plan's lines; patches in order."""
    trees, patches, whys = {}, [], []
    for n, line in enumerate(lines, 1):
        line = line.rstrip('\n')
        if not line.strip() or line.startswith('#'):
            continue
        if line.startswith('why '):
            whys.append(line[4:])
            continue
        f = [x.strip() for x in line.split('|')]
        if line.startswith('tree '):
            if len(f) != 3:
                die(f'plan:{n}: "tree NAME | SECTION | TEXT"')
            trees[f[0][5:]] = {'section': f[1], 'text': f[2]}
            continue
        if len(f) != 4 or not re.fullmatch(r'[a-z-]+ \d+', f[0]):
            die(f'plan:{n}: "SERIES K | TREE | ACKS | NEEDS"')
        series, k = f[0].split()
        needs, why = [], ''
        if f[3]:
            m = re.fullmatch(r'([a-z-]+) (\d+)(?:-(\d+))?: (.+)', f[3])
            if not m:
                die(f'plan:{n}: needs is "SERIES K[-L]: why"')
            lo, hi = int(m[2]), int(m[3] or m[2])
            needs = [(m[1], i) for i in range(lo, hi + 1)]
            why = m[4]
        patches.append({'id': (series, int(k)), 'tree': f[1],
                        'acks': [a.strip() for a in f[2].split(',') if a.strip()],
                        'needs': needs, 'why': why})
    return trees, patches, whys


def read_patches():
    """{(series, k): {'subject', 'files', 'plus', 'defines'}} of the committed patches."""
    out = {}
    for series, d in DIRS.items():
        for name in sorted(os.listdir(os.path.join(TOP, d))):
            m = re.match(r'(\d{4})-.*\.patch$', name)
            if not m or m[1] == '0000':
                continue
            with open(os.path.join(TOP, d, name), encoding='utf-8') as fh:
                text = fh.read()
            subj = re.search(r'^Subject: \[PATCH[^]]*\] (.*(?:\n .*)*)', text, re.M)
            files = re.findall(r'^diff --git a/(\S+) b/', text, re.M)
            body = text[text.find('\ndiff --git'):]
            out[(series, int(m[1]))] = {
                'subject': ' '.join(subj[1].split()) if subj else name,
                'files': files, 'defines': set(), 'words': set()}
            for f, hunk in zip(files, re.split(r'^diff --git .*$', body, flags=re.M)[1:]):
                lines = hunk.split('\n')
                plus = [x[1:] for x in lines if x.startswith('+') and not x.startswith('+++')]
                used = [x[1:] for x in lines if x[:1] in '+ ' and not x.startswith('+++')]
                if not re.search(CODE, f):
                    continue
                out[(series, int(m[1]))]['words'] |= set(re.findall(r'\w+', '\n'.join(used)))
                for line in plus:
                    # a .c file's #define and static function are its own
                    if f.endswith('.c') and re.match(r'#\s*define|static\b', line):
                        continue
                    for r in DEFINES:
                        dm = r.match(line)
                        if dm and len(dm[1]) > 3:
                            out[(series, int(m[1]))]['defines'].add(dm[1])
    return out


def owners(tree, path):
    """The MAINTAINERS sections of PATH, but those any tree may touch."""
    diff = f'diff --git a/{path} b/{path}\n--- a/{path}\n+++ b/{path}\n@@ -1 +1 @@\n-a\n+b\n'
    with tempfile.NamedTemporaryFile('w', suffix='.patch') as fh:
        fh.write(diff)
        fh.flush()
        r = subprocess.run(['perl', 'scripts/get_maintainer.pl', '--no-git',
                            '--no-git-fallback', '--sections', fh.name], cwd=tree,
                           capture_output=True, text=True)
    if r.returncode:
        die(f'get_maintainer.pl failed on {path}: {r.stderr.strip()}')
    names = [x for x in r.stdout.split('\n') if x and not x[0].isspace() and
             not re.match(r'[A-Z]:\t', x)]
    return set(names) - ANY_TREE


def people(tree, section):
    """The M: names of SECTION in TREE's MAINTAINERS."""
    with open(os.path.join(tree, 'MAINTAINERS'), encoding='utf-8') as fh:
        text = fh.read()
    m = re.search(r'^' + re.escape(section) + r'\n((?:.+\n)+)', text, re.M)
    if not m:
        die(f'no section "{section}" in {tree}/MAINTAINERS')
    return [re.sub(r'\s*<.*', '', x) for x in re.findall(r'^M:\t(.*)', m[1], re.M)]


def derived_needs(patches):
    """{Q: {P: reason}}: the earlier patches each patch needs, by files and names."""
    order = [(s, k) for s in DIRS for (s2, k) in sorted(patches) if s2 == s]
    needs = {}
    for i, q in enumerate(order):
        needs[q] = {}
        for p in order[:i]:
            shared = sorted(set(patches[p]['files']) & set(patches[q]['files']))
            names = sorted(patches[p]['defines'] & patches[q]['words'])
            if shared:
                needs[q][p] = 'both touch ' + shared[0]
            elif names:
                needs[q][p] = 'uses ' + names[0]
    return needs


def label(pid):
    return f'{pid[0]} {pid[1]}'


def check_order(trees, plan, needs):
    """Failures: a patch routed before, or in another tree than, one it needs."""
    pos = {p['id']: i for i, p in enumerate(plan)}
    tree_of = {p['id']: p['tree'] for p in plan}
    bad = []
    for p in plan:
        q = p['id']
        want = dict(needs.get(q, {}))
        want.update({n: p['why'] for n in p['needs']})
        for n, why in sorted(want.items()):
            if n not in pos:
                bad.append(f'{label(q)} needs {label(n)}, which the plan does not route')
            elif pos[n] > pos[q]:
                bad.append(f'{label(q)} is routed before {label(n)}, which it needs ({why})')
            elif tree_of[n] != tree_of[q]:
                bad.append(f'{label(q)} goes through {tree_of[q]}, which cannot have '
                           f'{label(n)} ({tree_of[n]}), and needs it ({why})')
    return bad


def check_acks(tree, trees, plan, patches, cache):
    """Failures: a file the tree does not own without its owner's ack; an ack no file needs."""
    bad = []
    for p in plan:
        t = trees.get(p['tree'])
        if not t:
            bad.append(f'{label(p["id"])}: no tree "{p["tree"]}" in the plan')
            continue
        used = set()
        for f in patches[p['id']]['files']:
            if f not in cache:
                cache[f] = owners(tree, f)
            own = cache[f]
            if not own or t['section'] in own:
                continue
            acked = own & set(p['acks'])
            if not acked:
                bad.append(f'{label(p["id"])}: {p["tree"]} does not own {f} and the plan '
                           f'names no ack of {", ".join(sorted(own))}')
            used |= acked
        for a in sorted(set(p['acks']) - used):
            bad.append(f'{label(p["id"])}: no file needs the ack of {a}')
    return bad


def ranges(nums):
    out, nums = [], sorted(nums)
    i = 0
    while i < len(nums):
        j = i
        while j + 1 < len(nums) and nums[j + 1] == nums[j] + 1:
            j += 1
        out.append(str(nums[i]) if i == j else f'{nums[i]}-{nums[j]}')
        i = j + 1
    return ', '.join(out)


def text(tree, trees, plan, whys, patches, needs):
    """The plan paragraph, folded to 72 columns."""
    wrap = lambda s, ind='': textwrap.fill(s, 72, initial_indent=ind,  # noqa: E731
                                           subsequent_indent=ind + '  ' if ind else '',
                                           break_on_hyphens=False, break_long_words=False)
    by_tree = {}
    for p in plan:
        by_tree.setdefault(p['tree'], []).append(p['id'])
    parts = []
    for name, ids in by_tree.items():
        t = trees[name]
        series = []
        for s in DIRS:
            ks = [k for (s2, k) in ids if s2 == s]
            if ks:
                series.append(f'{TITLES[s]} {ranges(ks)}')
        who = ', '.join(people(tree, t['section']))
        parts.append(f'{t["text"]} ({t["section"]}: {who}) takes {", then ".join(series)}, '
                     'in that order')
    names = []
    for s, c in COVERS.items():
        with open(os.path.join(TOP, 'Documentation', c), encoding='utf-8') as fh:
            names.append(f'{TITLES[s]} = "{fh.readline().strip()}"')
    out = [wrap('Merge plan, the same in the three cover letters (' + ', '.join(names) +
                '): ' + '; '.join(parts) + '.'), '']
    acks = {}
    for p in plan:
        for a in p['acks']:
            acks.setdefault(a, []).append(p['id'])
    out.append('Acked-by needed from:')
    for a, ids in acks.items():
        per = []
        for s in DIRS:
            ks = [k for (s2, k) in ids if s2 == s]
            if ks:
                per.append(f'{TITLES[s]} {ranges(ks)}')
        out.append(wrap(f'{a} ({", ".join(people(tree, a))}): {"; ".join(per)}', '  '))
    out += ['', wrap('What needs what (derived from the files each patch touches '
                     'and the names it uses, but where a reason is given):')]
    for p in plan:
        want = dict(needs.get(p['id'], {}))
        want.update({n: p['why'] for n in p['needs']})
        if not want:
            continue
        groups = {}
        for n, why in want.items():
            groups.setdefault((n[0], why), []).append(n[1])
        said = '; '.join(f'{TITLES[s]} {ranges(ks)} ({why})'
                         for (s, why), ks in sorted(groups.items(), key=lambda g: min(g[1])))
        out.append(wrap(f'{TITLES[p["id"][0]]} {p["id"][1]} needs {said}', '  '))
    for w in whys:
        out += ['', wrap(w)]
    return '\n'.join(out) + '\n'


def check(tree, dest):
    with open(PLAN, encoding='utf-8') as fh:
        lines = fh.readlines()
    trees, plan, whys = read_plan(lines)
    patches = read_patches()
    needs = derived_needs(patches)
    cache = {}
    tests = []
    planned = {p['id'] for p in plan}
    extra = sorted(planned - set(patches)) + sorted(set(patches) - planned)
    tests.append((not extra and len(planned) == len(plan), 'plan_routes_every_patch_once',
                  'every committed patch of the three series has one line in the plan'
                  if not extra else 'in the plan or the patches only: ' +
                  ', '.join(label(x) for x in extra)))
    bad = check_order(trees, plan, needs)
    tests.append((not bad, 'no_patch_before_one_it_needs',
                  '; '.join(bad) or f'{sum(len(v) for v in needs.values())} derived needs '
                  'and the plan\'s own, each routed after what it needs, in a tree that has it'))
    bad = check_acks(tree, trees, plan, patches, cache)
    tests.append((not bad, 'every_file_owned_or_acked',
                  '; '.join(bad) or 'each file is the tree\'s, or its owner\'s ack is '
                  'named, and each ack named is needed'))
    # the same plan, made wrong on purpose: each rule must catch it
    red = [p for p in plan if p['id'] != ('other-arches', 16)]
    at = next(i for i, p in enumerate(red) if p['id'] == ('arm', 4))
    red.insert(at, next(p for p in plan if p['id'] == ('other-arches', 16)))
    bad = check_order(trees, red, needs)
    tests.append((any('other-arches 16 is routed before arm 4' in b for b in bad),
                  'red_16_before_4_is_caught', '; '.join(bad[:2]) or 'not caught'))
    red = [dict(p, acks=[]) if p['id'] == ('arm', 1) else p for p in plan]
    bad = check_acks(tree, trees, red, patches, cache)
    tests.append((any(b.startswith('arm 1:') for b in bad), 'red_dropped_ack_is_caught',
                  '; '.join(bad[:1]) or 'not caught'))
    out = text(tree, trees, plan, whys, patches, needs)
    with open(dest, 'w', encoding='utf-8') as fh:
        fh.write(out)
    tests.append((True, 'plan_text_written', f'{os.path.relpath(dest, TOP)}: the cover '
                  'letters include it'))
    return ktap.report(tests)


def main(argv):
    if len(argv) == 3 and argv[1] == 'text':
        trees, plan, whys = read_plan(open(PLAN, encoding='utf-8'))
        patches = read_patches()
        sys.stdout.write(text(argv[2], trees, plan, whys, patches, derived_needs(patches)))
        return 0
    if len(argv) == 4 and argv[1] == 'check':
        return check(argv[2], argv[3])
    sys.exit(__doc__)


if __name__ == '__main__':
    sys.exit(main(sys.argv))
