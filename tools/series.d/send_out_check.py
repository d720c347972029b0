# SPDX-License-Identifier: GPL-2.0
"""What send_check.py checks of send-ready's output: its authors,
trailers, subjects, recipients, backport lines; git send-email
--dry-run and checkpatch on it. Reads the files itself, not through
send_rewrite.py."""

import os
import re
import subprocess

LISTS = ('linux-arm-kernel@lists.infradead.org', 'iommu@lists.linux.dev')


def slug(d):
    return re.sub(r'[^A-Za-z0-9]', '_', d)


def files(d):
    """{name: text} of D's patch files (D relative to the repository or
    absolute)."""
    if not d or not os.path.isdir(d):
        return {}
    out = {}
    for n in sorted(f for f in os.listdir(d) if f.endswith('.patch')):
        with open(os.path.join(d, n), encoding='utf-8') as f:
            out[n] = f.read()
    return out


def heads(text):
    """{header: value} of TEXT, folded lines joined."""
    h, last = {}, None
    for line in text.split('\n')[1:]:
        if line == '':
            break
        if line[:1] in (' ', '\t') and last:
            h[last] += ' ' + line.strip()
        else:
            last, _, v = line.partition(': ')
            h.setdefault(last, v)
    return h


def title(text):
    return re.sub(r'^\[[^\]]*\] ', '', heads(text).get('Subject', ''))


def subjects(d):
    return {n: ' '.join(title(t).split()) for n, t in files(d).items()}


def to_be_filled(d):
    """Numbers of D's patches with a "commit <to be filled> upstream." line."""
    return [int(n[:4]) for n, t in files(d).items()
            if '\ncommit <to be filled> upstream.\n' in t]


def fixes_to_fill(d):
    """Numbers of D's patches with a "Fixes: <to be filled>" line."""
    return [int(n[:4]) for n, t in files(d).items()
            if re.search(r'(?m)^Fixes: <to be filled> \(blame: .+\)$', t)]


def fixes(out, d, tests, numbers, sha12):
    """Each of NUMBERS has its Fixes: line filled with SHA12 and that
    commit's subject, and no placeholder is left."""
    got = files(out)
    bad = [n for n, t in got.items() if int(n[:4]) in numbers and
           not re.search(rf'(?m)^Fixes: {sha12} \(".+"\)$', t)]
    bad += [n for n, t in got.items() if '<to be filled>' in t and not n.startswith('0000')]
    tests.append((bool(got) and not bad, f'fixes_filled_{slug(d)}',
                  f'{len(numbers)} Fixes: lines filled' if not bad else f'not filled: {bad[:3]}'))


def trailers(text):
    """The last paragraph of the message (above "---")."""
    msg = text.split('\n---\n')[0].rstrip('\n').split('\n')
    return msg[len(msg) - msg[::-1].index(''):] if '' in msg else msg


def mainline(out, tests, me, karl, assisted, reply):
    """Karl authors 1-2 and signs first; the sender signs last, with the
    Assisted-by: line above; the sender authors 3+; vN subjects; the
    cover letter's shortlog, reply headers and link."""
    fs = files(out)
    bad = {k: [] for k in ('karl', 'order', 'sender', 'assisted', 'version', 'cover')}
    for n, t in fs.items():
        k = int(n[:4])
        h, tr = heads(t), trailers(t)
        if not re.match(rf'^\[PATCH v3 {k}/{len(fs) - 1}\] ', h.get('Subject', '')):
            bad['version'].append(f'{n}: {h.get("Subject")}')
        if k == 0:
            continue
        sobs = [x for x in tr if x.startswith('Signed-off-by: ')]
        if k in (1, 2):
            if h.get('From') != karl:
                bad['karl'].append(f'{n}: From: {h.get("From")}')
            i = tr.index(f'Signed-off-by: {karl}') if f'Signed-off-by: {karl}' in tr else -1
            if i < 0 or not tr[i + 1].startswith(f'[{me.split(" <")[0]}: ') or \
               sobs != [f'Signed-off-by: {karl}', f'Signed-off-by: {me}']:
                bad['order'].append(f'{n}: {tr}')
        elif h.get('From') != me or sobs != [f'Signed-off-by: {me}']:
            bad['sender'].append(f'{n}: From: {h.get("From")}, {sobs}')
        if tr[-2:] != [f'Assisted-by: {assisted}', f'Signed-off-by: {me}'] or \
           t.count('\nAssisted-by: ') != 1:
            bad['assisted'].append(f'{n}: ends {tr[-2:]}')
    cover = fs.get('0000-cover-letter.patch', '')
    h = heads(cover)
    short = re.search(r'\n(Karl Mehltretter \(2\):\n  .*\n  .*\n)\n(.+) \(\d+\):\n', cover)
    for want, ok in ((f'In-Reply-To: {reply[0]}', h.get('In-Reply-To') == reply[0]),
                     (f'References: {reply[0]}', h.get('References') == reply[0]),
                     (f'Link: {reply[1]}', f'\nLink: {reply[1]}\n' in cover),
                     ('shortlog: Karl (2), then the sender',
                      short and short.group(2) == me.split(' <')[0] and
                      all(s in short.group(1) for s in (title(fs[n]) for n in list(fs)[1:3]))),
                     (f'Cc: {karl}', karl in h.get('Cc', ''))):
        if not ok:
            bad['cover'].append(f'no {want}')
    for name, key in (('karl_authors_patches_1_2', 'karl'),
                      ('sender_signs_after_karl_and_his_changes_note', 'order'),
                      ('sender_authors_and_signs_patches_3_on', 'sender'),
                      ('assisted_by_above_the_sender_sign_off', 'assisted'),
                      ('version_in_every_subject', 'version'),
                      ('cover_letter_shortlog_reply_link', 'cover')):
        ok = bool(fs) and not bad[key]
        tests.append((ok, name, '; '.join(bad[key])[:400] or f'{len(fs)} files'))


def unsign(src, dst):
    """SRC's patches with no Signed-off-by: line, in DST."""
    os.makedirs(dst)
    for n, t in files(src).items():
        with open(os.path.join(dst, n), 'w', encoding='utf-8') as f:
            f.write(re.sub(r'(?m)^Signed-off-by: .*\n', '', t))


def identical(a, b, tests, name):
    fa, fb = files(a), files(b)
    bad = [n for n in fa if fa[n] != fb.get(n)]
    tests.append((bool(fa) and sorted(fa) == sorted(fb) and not bad, name,
                  f'{len(fa)} files alike' if fa and not bad else f'differ: {bad or "none"}'))


def default(out, src, tests):
    """Without PATCHDIR: patches/."""
    fs, ref = files(out), files(src)
    ok = bool(fs) and sorted(fs) == sorted(ref) and \
        all(title(fs[n]) == title(ref[n]) for n in ref)
    tests.append((ok, 'default_patchdir_is_mainline',
                  f'{len(fs)} files, {len(ref)} in {src}' if not ok else 'patches/ written'))


def stable(out, d, tests, ids):
    fs, bad = files(out), []
    for n, t in fs.items():
        k = int(n[:4])
        if k in ids and f'\ncommit {ids[k]} upstream.\n' not in t:
            bad.append(f'{n}: no "commit {ids[k][:12]}... upstream."')
        if k and '<to be filled>' in t:
            bad.append(f'{n}: still "<to be filled>"')
        if 'stable@vger.kernel.org' not in heads(t).get('To', ''):
            bad.append(f'{n}: not To: stable@vger.kernel.org')
    tests.append((bool(fs) and not bad, f'upstream_ids_filled_{slug(d)}',
                  '; '.join(bad) or f'{len(ids)} ids filled, To: stable'))


def same(text, extra):
    """TEXT without what send-ready may change: identity and recipient
    headers, the subject's version, sign-offs, Assisted-by:, the
    sender's note, the shortlog's names, upstream ids, the Fixes: lines
    send-ready fills, EXTRA lines."""
    if not text:
        return None
    h = heads(text)
    keep = [f'{k}: {v}' for k, v in h.items()
            if k not in ('From', 'To', 'Cc', 'In-Reply-To', 'References', 'MIME-Version',
                         'Content-Type', 'Content-Transfer-Encoding')]
    keep = [re.sub(r'^(Subject: \[PATCH[^\]]*?) v\d+', r'\1', x) for x in keep]
    body, note = text.split('\n\n', 1)[1].split('\n'), False
    for line in body:
        note = line.startswith('[Send Ready Check: ') or (note and line.startswith('  '))
        if note or line in extra or not line.strip() or \
           re.match(r'^(Signed-off-by|Assisted-by): |^.+ \(\d+\):$', line):
            continue
        line = re.sub(r'^commit [0-9a-f]{40} upstream\.$', 'commit <to be filled> upstream.', line)
        keep.append(re.sub(r'^Fixes: (?:<to be filled> \(blame: .+\)|[0-9a-f]{12} \(".+"\))$',
                           'Fixes: <filled>', line))
    return keep


def rewrite(out, src, d, tests, extra):
    fs, ref, bad = files(out), files(src), []
    for n, t in ref.items():
        if same(fs.get(n, ''), extra) != same(t, extra):
            a, b = same(fs.get(n, ''), extra) or [], same(t, extra)
            diff = next((f'{x!r} vs {y!r}' for x, y in zip(a, b) if x != y), 'length')
            bad.append(f'{n}: more than identities, trailers and headers changed: {diff}')
        if '9ace7f37' in fs.get(n, '9ace7f37'):
            bad.append(f'{n}: the placeholder is left')
    tests.append((bool(fs) and not bad, f'rewrite_{slug(d)}', '; '.join(bad[:2])[:400] or
                  f'{len(fs)} files: only the identity, trailers and headers changed'))


def lists(out, d, tests):
    """To: and Cc: on every file; the cover letter's are the union and
    name the ARM and iommu lists where the series touches them."""
    fs, bad = files(out), []
    union = set()
    for n, t in fs.items():
        h = heads(t)
        if not h.get('To') or not h.get('Cc'):
            bad.append(f'{n}: To: {h.get("To")!r}, Cc: {h.get("Cc")!r}')
        if n != '0000-cover-letter.patch':
            union |= {a.strip() for a in (h.get('To', '') + ',' + h.get('Cc', '')).split(',')}
    h = heads(fs.get('0000-cover-letter.patch', ''))
    cover = {a.strip() for a in (h.get('To', '') + ',' + h.get('Cc', '')).split(',')}
    if not union <= cover:
        bad.append(f'cover letter lacks {sorted(union - cover)}')
    if d == 'patches' and not all(x in cover for x in LISTS):
        bad.append(f'cover letter lacks {[x for x in LISTS if x not in cover]}')
    tests.append((bool(fs) and not bad, f'to_cc_on_every_file_{slug(d)}', '; '.join(bad)[:400] or
                  f'{len(fs)} files, {len(cover)} addresses on the cover letter'))


def send_email(out, tests, tmp):
    """git send-email --dry-run (nothing is sent): a message per file,
    each with its lists; the cover letter's with both."""
    fs = files(out)
    r = subprocess.run(['git', 'send-email', '--dry-run', '--confirm=never',
                        '--smtp-server=/bin/true', *[os.path.join(out, n) for n in fs]],
                       stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True, check=False, cwd=tmp)
    msgs = r.stdout.split('Dry-OK. Log says:')[1:]
    bad = [] if r.returncode == 0 and len(msgs) == len(fs) else \
        [f'status {r.returncode}, {len(msgs)} messages for {len(fs)} files: {r.stdout[-300:]}']
    for n, m in zip(fs, msgs):
        rcpt = ' '.join(heads('\n' + m.strip() + '\n\n').get(k, '') for k in ('To', 'Cc'))
        want = LISTS if n == '0000-cover-letter.patch' else [
            a for a in LISTS if a in heads(fs[n]).get('Cc', '')] or ['@lists.']
        if not all(a in rcpt for a in want):
            bad.append(f'{n}: mailed to {rcpt[:200]}')
    tests.append((bool(fs) and not bad, 'send_email_dry_run_reaches_the_lists', '; '.join(bad)[:400]
                  or f'{len(msgs)} messages, each to its lists, none sent'))


def checkpatch(out, d, tree, tests, stable=False):
    """checkpatch --strict: no error, warning or check. Run in TREE, a git
    repository, as its users do: outside one, checkpatch cannot look up
    a cited commit and calls a title wrapped over two lines a wrong
    style (GIT_COMMIT_ID). Off, as in tools/lib-patches.sh: the tree has
    no upstream history, so cited ids cannot be found
    (UNKNOWN_COMMIT_ID); FILE_PATH_CHANGES asks whether MAINTAINERS needs
    updating for the new KUnit file, which F: kernel/dma/ covers. For a
    STABLE backport also GIT_COMMIT_ID, which asks 'commit SHA ("TITLE")'
    of its first line, "commit SHA upstream.", the form
    stable-kernel-rules.rst asks for."""
    env = dict(os.environ, PATH='/usr/bin:' + os.environ.get('PATH', ''))
    fs = list(files(out))
    r = subprocess.run([os.path.join(tree, 'scripts', 'checkpatch.pl'), '--strict',
                        '--ignore', 'UNKNOWN_COMMIT_ID,FILE_PATH_CHANGES' +
                        (',GIT_COMMIT_ID' if stable else ''),
                        *[os.path.join(out, n) for n in fs]] if fs else ['false'],
                       cwd=tree, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, check=False)
    # one "total:" line a file, in order
    totals = [x for x in r.stdout.split('\n') if x.startswith('total:')]
    if len(totals) != len(fs) or not fs:
        tests.append((False, f'checkpatch_strict_{slug(d)}',
                      f'{len(totals)} results for {len(fs)} files: {r.stdout[-300:]}'))
        return
    for n, total in zip(fs, totals):
        ok = total.startswith('total: 0 errors, 0 warnings, 0 checks,')
        tests.append((ok, f'checkpatch_strict_{slug(d)}_{n[:4]}', f'{n}: {total}'))
