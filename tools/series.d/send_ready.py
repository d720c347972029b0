#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Make a patch directory ready to send, in the sender's name.

    tools/series.d/send_ready.py [--carry N,... --author 'NAME <EMAIL>' --changes TEXT]
                        PATCHDIR OUTDIR
    tools/series.d/send_ready.py --check PATCHDIR...   its checks, as KTAP

The committed patch files are the reference copy: they carry the
repository's placeholder identity, which nobody can send under. This
copies PATCHDIR's *.patch files to OUTDIR (new, or empty) with that
identity replaced by the sender's, `git config user.name` and
`user.email`: the From: header of each patch and cover letter, and the
placeholder's Signed-off-by: line, which becomes the sender's. The result
is what `git send-email OUTDIR/*.patch` or b4 take.

It refuses, writing nothing, when the sender's identity is unset, is the
placeholder itself, or has an address in a domain reserved for examples
and tests (RFC 2606, RFC 6761: example, invalid, test, localhost) or a
no-reply address; and when a patch's author is neither the placeholder
nor the sender (someone else's patch: its From: stays, and the sender
adds a sign-off by hand). A sign-off certifies the Developer's
Certificate of Origin: only the person who sends may add it.

--carry keeps someone else as the author of the patches numbered N,...
(patches 1-2 of the ARM series are Karl Mehltretter's change carried
forward): their From: becomes --author, and the placeholder's sign-off
becomes the author's, then "[SENDER'S NAME: TEXT]" from --changes, then
the sender's, the kernel's form for carrying a patch forward
(Documentation/process/submitting-patches.rst). Only with the author's
agreement, and his address as he gives it: the author's identity is
refused for the same reasons as the sender's.
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile

# The identity the committed patches carry: the repository's, not a
# person's.
PLACEHOLDER_NAME = r'Seed [0-9a-f]+ maintainers'
PLACEHOLDER = re.compile(rf'^{PLACEHOLDER_NAME} <[^>]*\.example>$')
RESERVED = ('example', 'invalid', 'test', 'localhost')


def die(msg):
    print(f'send_ready: {msg}', file=sys.stderr)
    sys.exit(1)


def git_config(key):
    r = subprocess.run(['git', 'config', '--get', key], stdout=subprocess.PIPE,
                       stderr=subprocess.DEVNULL, text=True, check=False)
    return r.stdout.strip()


def identity_problem(name, email):
    """Why NAME <EMAIL> cannot sign a patch, or None."""
    if not name or not email:
        return 'git config user.name and user.email are not both set'
    ident = f'{name} <{email}>'
    if PLACEHOLDER.match(ident):
        return f'"{ident}" is the repository\'s placeholder, not a person'
    m = re.fullmatch(r'[^@\s<>]+@([A-Za-z0-9.-]+)', email)
    if not m:
        return f'"{email}" is not an e-mail address'
    domain = m.group(1).lower().rstrip('.')
    labels = domain.split('.')
    if labels[-1] in RESERVED or domain in ('example.com', 'example.net', 'example.org'):
        return f'"{email}" is in a domain reserved for examples and tests'
    if 'noreply' in email.lower() or 'no-reply' in email.lower():
        return f'"{email}" is a no-reply address: replies and review would not reach you'
    return None


def unfold(lines, i):
    """The header at LINES[i] with its continuation lines, and the index
    after them."""
    value, j = lines[i], i + 1
    while j < len(lines) and lines[j][:1] in (' ', '\t'):
        value += ' ' + lines[j].strip()
        j += 1
    return value, j


def rewrite(text, path, sender, carried=None):
    """TEXT of one patch file with the placeholder replaced by SENDER;
    CARRIED, (author, changes), makes the patch the author's."""
    lines, out, i, in_header = text.split('\n'), [], 0, True
    author_line = carried and f'From: {carried[0]}'
    while i < len(lines):
        line, i = lines[i], i + 1
        if in_header and line.startswith('From: '):
            line, i = unfold(lines, i - 1)
            author = line[len('From: '):]
            if PLACEHOLDER.match(author):
                line = author_line or f'From: {sender}'
            elif author != sender:
                die(f'{path}: the author is {author}, not the placeholder or '
                    'you: sign it off by hand')
        elif in_header and line == '':
            in_header = False
        m = re.match(r'^Signed-off-by: (.*)$', line)
        if m and PLACEHOLDER.match(m.group(1)):
            line = f'Signed-off-by: {sender}'
            if carried:
                out += [f'Signed-off-by: {carried[0]}',
                        f'[{sender.split(" <")[0]}: {carried[1]}]']
        # the cover letter's shortlog: "NAME (N):"
        m = re.match(rf'^{PLACEHOLDER_NAME} (\(\d+\):)$', line)
        if m:
            line = f'{sender.split(" <")[0]} {m.group(1)}'
        out.append(line)
    text = '\n'.join(out)
    if re.search(PLACEHOLDER_NAME, text):
        die(f'{path}: the placeholder identity is still in it after the rewrite')
    return text


def identity_lines(text):
    """TEXT without its From: header (unfolded) and Signed-off-by: lines."""
    lines, out, i, in_header = text.split('\n'), [], 0, True
    while i < len(lines):
        line = lines[i]
        if in_header and line.startswith('From: '):
            _, i = unfold(lines, i)
            continue
        in_header = in_header and line != ''
        if not line.startswith('Signed-off-by: ') and not re.match(r'^.* \(\d+\):$', line):
            out.append(line)
        i += 1
    return out


def run_as(src, dst, name=None, email=None, opts=()):
    """This tool on SRC -> DST with git's identity NAME <EMAIL> (unset
    where None) and options OPTS: (exit status, stderr)."""
    env = dict(os.environ, GIT_CONFIG_NOSYSTEM='1', GIT_CONFIG_GLOBAL=os.devnull,
               HOME=tempfile.gettempdir())
    keys = [(k, v) for k, v in (('user.name', name), ('user.email', email)) if v]
    env['GIT_CONFIG_COUNT'] = str(len(keys))
    for i, (k, v) in enumerate(keys):
        env[f'GIT_CONFIG_KEY_{i}'], env[f'GIT_CONFIG_VALUE_{i}'] = k, v
    r = subprocess.run([sys.executable, os.path.abspath(__file__), *opts,
                        os.path.abspath(src), dst],
                       env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                       check=False, cwd=tempfile.gettempdir())
    return r.returncode, r.stderr.strip()


def placeholder_of(src):
    """The placeholder identity as SRC's first patch has it."""
    for p in sorted(f for f in os.listdir(src) if f.endswith('.patch')):
        with open(os.path.join(src, p), encoding='utf-8') as f:
            lines = f.read().split('\n')
        for i, line in enumerate(lines):
            if line.startswith('From: '):
                author = unfold(lines, i)[0][len('From: '):]
                if PLACEHOLDER.match(author):
                    return author
    return None


def check(dirs):
    """The refusals on the first directory; the rewrite on each: only
    From: and the placeholder's Signed-off-by: change, none is left."""
    tests = []
    tmp = tempfile.mkdtemp()
    try:
        src = dirs[0]
        ph = placeholder_of(src)
        m = ph and re.match(r'^(.*) <(.*)>$', ph)
        cases = [('refuses_unset_identity', None, None, 'not both set'),
                 ('refuses_placeholder_identity', m and m.group(1), m and m.group(2),
                  'placeholder'),
                 ('refuses_reserved_domain', 'Sender Name', 'sender@example.org',
                  'reserved'),
                 ('refuses_reserved_tld', 'Sender Name', 'sender@mail.invalid', 'reserved'),
                 ('refuses_noreply', 'Sender Name', 'sender@users.noreply.github.com',
                  'no-reply')]
        carry = ('--carry', '1,2', '--changes', 'rebased')
        cases.append(('refuses_reserved_author', 'Sender Name', 'sender@mail.invalid',
                      'author', carry + ('--author', 'Author Name <author@example.org>')))
        cases.append(('refuses_carry_without_author', 'Sender Name', 'sender@mail.invalid',
                      '--author', carry))
        for name, n, e, word, *opts in cases:
            out = os.path.join(tmp, name)
            rc, err = run_as(src, out, n, e, opts[0] if opts else ())
            ok = rc != 0 and word in err and not os.path.exists(out)
            tests.append((name, ok, err))
        # a carried patch: the author's From: and sign-off, the note, the
        # sender's sign-off, in that order
        first = sorted(f for f in os.listdir(src) if f.endswith('.patch'))[1]
        with open(os.path.join(src, first), encoding='utf-8') as f:
            new = rewrite(f.read(), first, 'Sender Name <sender@mail.invalid>',
                          ('Author Name <author@mail.invalid>', 'rebased'))
        want = ('Signed-off-by: Author Name <author@mail.invalid>\n'
                '[Sender Name: rebased]\n'
                'Signed-off-by: Sender Name <sender@mail.invalid>\n')
        ok = '\nFrom: Author Name <author@mail.invalid>\n' in new and want in new
        tests.append(('carry_keeps_the_author', ok, f'{first}: no author From: and sign-offs'))
        for d in dirs:
            name = 'rewrite_' + re.sub(r'[^A-Za-z0-9]', '_', os.path.relpath(d))
            sender = 'Sender Name <sender@mail.invalid>'
            bad = []
            for p in sorted(f for f in os.listdir(d) if f.endswith('.patch')):
                with open(os.path.join(d, p), encoding='utf-8') as f:
                    old = f.read()
                new = rewrite(old, p, sender)
                if identity_lines(new) != identity_lines(old):
                    bad.append(f'{p}: more than the identity changed')
                if f'\nFrom: {sender}\n' not in new:
                    bad.append(f'{p}: no From: of the sender')
                if old.count('\nSigned-off-by: ') != new.count(f'\nSigned-off-by: {sender}'):
                    bad.append(f'{p}: a sign-off that is not the sender\'s')
            tests.append((name, not bad, '; '.join(bad[:3])))
    finally:
        shutil.rmtree(tmp)
    print('KTAP version 1')
    print(f'1..{len(tests)}')
    for i, (name, ok, why) in enumerate(tests, 1):
        if not ok:
            print(f'# {name}: {why}')
        print(f'{"ok" if ok else "not ok"} {i} {name}')
    failed = sum(not ok for _, ok, _ in tests)
    print(f'{len(tests) - failed} passed, {failed} failed, 0 skipped')
    return 1 if failed else 0


def main(argv):
    if len(argv) >= 3 and argv[1] == '--check':
        return check(argv[2:])
    opts, args = {}, argv[1:]
    while args and args[0] in ('--carry', '--author', '--changes') and len(args) > 1:
        opts[args[0]], args = args[1], args[2:]
    if len(args) != 2:
        print("usage: send_ready.py [--carry N,... --author 'NAME <EMAIL>' --changes TEXT] "
              'PATCHDIR OUTDIR', file=sys.stderr)
        return 2
    src, dst = args
    carry, carried = set(), None
    if opts:
        if not all(k in opts for k in ('--carry', '--author', '--changes')):
            die('--carry needs --author and --changes')
        if not re.fullmatch(r'\d+(,\d+)*', opts['--carry']):
            die(f'--carry {opts["--carry"]}: not a list of patch numbers')
        carry = {int(n) for n in opts['--carry'].split(',')}
        m = re.fullmatch(r'(.+) <(.+)>', opts['--author'])
        why = identity_problem(*(m.groups() if m else ('', '')))
        if why:
            die(f'refusing the author: {why}')
        carried = (opts['--author'], opts['--changes'])
    if not os.path.isdir(src):
        die(f'{src}: no such patch directory')
    patches = sorted(f for f in os.listdir(src) if f.endswith('.patch'))
    if not patches:
        die(f'{src}: no *.patch files')
    if os.path.exists(dst) and (not os.path.isdir(dst) or os.listdir(dst)):
        die(f'{dst}: exists and is not an empty directory')
    name, email = git_config('user.name'), git_config('user.email')
    why = identity_problem(name, email)
    if why:
        die(f'refusing to make a send-ready series: {why}')
    sender = f'{name} <{email}>'
    out = {}
    for p in patches:
        with open(os.path.join(src, p), encoding='utf-8') as f:
            out[p] = rewrite(f.read(), os.path.join(src, p), sender,
                             carried if int(p[:4]) in carry else None)
    missing = carry - {int(p[:4]) for p in patches}
    if missing:
        die(f'--carry: no patch {", ".join(map(str, sorted(missing)))} in {src}')
    os.makedirs(dst, exist_ok=True)
    for p, text in out.items():
        with open(os.path.join(dst, p), 'w', encoding='utf-8') as f:
            f.write(text)
    print(f'send_ready: {len(out)} files in {dst}, from and signed off by {sender}')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
