# SPDX-License-Identifier: GPL-2.0
"""tools/series send-ready: the options, what each directory requires,
and the files written (tools/series.d/send_ready.py says what and why)."""

import argparse
import os
import re
import subprocess

import send_lists
import send_rewrite as rw
from send_policy import KARL, KARL_SUBJECTS, KARL_WHERE, assistance, die, karl, sender

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
USAGE = ("%(prog)s (--assisted-by 'AGENT:MODEL [TOOL...]' | --no-assistance)\n"
         "         [--author 'NAME <EMAIL>' --changes TEXT] [--version N]\n"
         '         [--in-reply-to MSGID] [--link URL] [--upstream K=SHA,...]\n'
         '         [--fixes K=SHA,...] [--tree KERNEL_TREE] [PATCHDIR] OUTDIR')


HELP = ('A copy of PATCHDIR (default: patches/, the mainline series) in OUTDIR, ready '
        'for git send-email: see tools/series.d/send_ready.py.')


def parser():
    p = argparse.ArgumentParser(prog='tools/series send-ready', usage=USAGE, description=HELP)
    p.add_argument('--assisted-by', action='append', metavar="'AGENT:MODEL [TOOL...]'",
                   help='an Assisted-by: line in every patch, as given (repeatable)')
    p.add_argument('--no-assistance', action='store_true',
                   help='no tool helped: no Assisted-by: line')
    p.add_argument('--author', metavar="'NAME <EMAIL>'",
                   help="Karl Mehltretter's identity, as on his posting of 10 Sep 2026")
    p.add_argument('--changes', metavar='TEXT',
                   help='what you changed in his patches: "[YOUR NAME: TEXT]"')
    p.add_argument('--version', type=int, metavar='N', help='"[PATCH vN k/n]"')
    p.add_argument('--in-reply-to', metavar='MSGID',
                   help='the cover letter answers MSGID (In-Reply-To:, References:)')
    p.add_argument('--link', metavar='URL', help='"Link: URL" in the cover letter')
    p.add_argument('--upstream', metavar='K=SHA,...',
                   help='mainline commit of backport patch K, for "commit SHA upstream."')
    p.add_argument('--fixes', metavar='K=SHA,...',
                   help='the commit whose bug patch K fixes, for its "Fixes:" line '
                   '(looked up in --tree)')
    p.add_argument('--tree', metavar='KERNEL_TREE',
                   help="whose get_maintainer.pl to run (default: tools/base-tree's)")
    p.add_argument('dirs', nargs='+', metavar='[PATCHDIR] OUTDIR', help=argparse.SUPPRESS)
    return p


def read(src):
    if not os.path.isdir(src):
        die(f'{src}: no such patch directory')
    names = sorted(f for f in os.listdir(src) if f.endswith('.patch'))
    if not names:
        die(f'{src}: no *.patch files')
    patches = []
    for n in names:
        with open(os.path.join(src, n), encoding='utf-8') as f:
            patches.append(rw.Patch(os.path.join(src, n), f.read()))
    return patches


def k_sha(flag, opt, digits, what):
    """{K: SHA} of FLAG's "K=SHA,..." value OPT, each SHA of DIGITS
    (a regex count) hex digits, or death naming WHAT it must be."""
    ids = {}
    for part in opt.split(','):
        m = re.fullmatch(rf'(\d+)=([0-9a-f]{{{digits}}})', part.strip())
        if not m:
            die(f'{flag} {part!r}: not K=SHA with {what}')
        ids[int(m.group(1))] = m.group(2)
    return ids


def upstream_ids(opt, patches, src):
    """{patch number: SHA} from --upstream, one for each patch with a
    "commit <to be filled> upstream." line, none for any other."""
    want = {p.number for p in patches if p.upstream_line() is not None and
            p.body[p.upstream_line()] == rw.TO_BE_FILLED}
    if not want:
        if opt:
            die(f'--upstream: no patch of {src} has a "{rw.TO_BE_FILLED}" line')
        return {}
    if not opt:
        die(f'{src} is a stable backport: patches {", ".join(map(str, sorted(want)))} '
            f'say "{rw.TO_BE_FILLED}"; stable takes a patch only once mainline has it '
            '(Documentation/process/stable-kernel-rules.rst): give the mainline commit '
            'ids, --upstream ' + ','.join(f'{k}=SHA' for k in sorted(want)) +
            ' (40 hex digits each)')
    ids = k_sha('--upstream', opt, '40', 'a full 40-digit commit id')
    if set(ids) != want or len(set(ids.values())) != len(ids):
        die(f'--upstream {opt}: needs one distinct id for each of patches '
            f'{", ".join(map(str, sorted(want)))} of {src}, and no other')
    return ids


def fixes_ids(opt, patches, src, tree):
    """{patch number: 'Fixes: SHA12 ("SUBJECT")'} from --fixes, one for
    each patch with a "Fixes: <to be filled> (blame: ...)" line, each
    SHA a commit of TREE."""
    want = {p.number: rw.fixes_line(p)[1] for p in patches if rw.fixes_line(p)}
    if not want:
        if opt:
            die(f'--fixes: no patch of {src} has a "Fixes: <to be filled>" line')
        return {}
    if not opt:
        die(f'{src}: patches {", ".join(map(str, sorted(want)))} fix bugs and go to '
            'stable (Cc: stable): each needs a Fixes: line naming the commit that '
            'brought its bug in. Find each in a clone of current mainline, passed '
            'as --tree (git blame there), and give --fixes ' +
            ','.join(f'{k}=SHA' for k in sorted(want)) + '; where to look: ' +
            '; '.join(f'{k}: {w}' for k, w in sorted(want.items())))
    ids = k_sha('--fixes', opt, '12,40', 'at least 12 hex digits')
    if set(ids) != want.keys():
        die(f'--fixes {opt}: needs an id for each of patches '
            f'{", ".join(map(str, sorted(want)))} of {src}, and no other')
    out = {}
    for k, sha in ids.items():
        r = subprocess.run(['git', '-C', tree, 'log', '-1', '--format=%H%n%s', sha, '--'],
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                           check=False)
        lines = r.stdout.split('\n')
        if r.returncode or not lines[0].startswith(sha):
            die(f'--fixes {k}={sha}: not a commit of {tree}; give --tree a clone of '
                'current mainline that has it')
        out[k] = f'Fixes: {lines[0][:12]} ("{lines[1]}")'
    return out


def base_tree():
    r = subprocess.run([os.path.join(TOP, 'tools', 'base-tree')], stdout=subprocess.PIPE,
                       text=True, check=False)
    if r.returncode != 0 or not r.stdout.strip():
        die('tools/base-tree failed: give a kernel tree with --tree KERNEL_TREE')
    return r.stdout.strip().split('\n')[-1]


def requirements(a, patches, src, allowed):
    """What PATCHES require of the options A, or death: (sender,
    Assisted-by: lines, Karl's patches, his identity or None, upstream ids,
    stable backport or not)."""
    me = sender(allowed)
    assisted = assistance(a.assisted_by, a.no_assistance)
    carried = [p for p in patches if ' '.join(p.title.split()) in KARL_SUBJECTS]
    stable = any(p.upstream_line() is not None for p in patches)
    author = None
    if carried and not a.author:
        die(f'patches {", ".join(str(p.number) for p in carried)} of {src} are {KARL}\'s '
            f'change, carried forward: they go out under his name, with his sign-off '
            f"before yours. Give --author '{KARL} <EMAIL>' and --changes TEXT (what you "
            f'changed in them); {KARL_WHERE}')
    if a.author:
        if not carried:
            die(f'--author: no patch of {src} is {KARL}\'s')
        author = karl(a.author, allowed)
        if author != me and not a.changes:
            die('--author needs --changes TEXT: what you changed in his patches, '
                'written "[YOUR NAME: TEXT]" between his sign-off and yours')
    if a.version is not None and a.version < 2:
        die(f'--version {a.version}: a first version carries no number')
    if carried and not stable and a.version is None:
        die(f'{src} is the next version of {KARL}\'s series (his posting of 10 Sep '
            '2026 revised an earlier one): give its number, --version N')
    if a.in_reply_to and not re.fullmatch(r'<?[^<>\s@]+@[^<>\s@]+>?', a.in_reply_to):
        die(f'--in-reply-to {a.in_reply_to}: not a message id')
    if a.link and not re.fullmatch(r'https?://\S+', a.link):
        die(f'--link {a.link}: not an http(s) URL')
    ids = upstream_ids(a.upstream, patches, src)
    return me, assisted, carried, author, ids, stable


def fixes(a, patches, src, tree):
    """Each "Fixes: <to be filled>" line filled from --fixes, or death."""
    for k, line in fixes_ids(a.fixes, patches, src, tree).items():
        p = next(p for p in patches if p.number == k)
        p.body[rw.fixes_line(p)[0]] = line


def compose(a, patches, tree, me, assisted, carried, author, ids, stable):
    """{patch: text to write}."""
    pairs, out = [], {}
    for p in patches:
        if a.version:
            rw.set_version(p, a.version)
        if p.cover:
            continue
        if p.number in ids:
            rw.fill_upstream(p, ids[p.number])
        if p in carried and author:
            rw.set_author(p, author, me)
            rw.sign(p, me, assisted, author, a.changes)
        else:
            rw.set_author(p, me, me)
            rw.sign(p, me, assisted)
    for p, lists in send_lists.each(tree, [p for p in patches if not p.cover], stable):
        if not lists[0] and not lists[1]:
            die(f'{p.path}: get_maintainer.pl in {tree} names nobody for it')
        pairs.append(lists)
        out[p] = p.text(headers(*lists))
    for p in (p for p in patches if p.cover):
        rw.set_author(p, me, me)
        rw.shortlog(p, [q for q in patches if not q.cover])
        if a.link:
            rw.link(p, a.link)
        to, cc = send_lists.union(pairs)
        if author and author != me and author not in cc:
            cc.append(author)
        extra = headers(to, cc)
        if a.in_reply_to:
            msgid = '<' + a.in_reply_to.strip('<>') + '>'
            extra += [f'In-Reply-To: {msgid}', f'References: {msgid}']
        out[p] = p.text(extra)
    for p, text in out.items():
        rw.leftover(text, p.path)
        if not p.cover and '<to be filled>' in text:
            die(f'{p.path}: "<to be filled>" is still in it')
    return out


def main(argv, allowed=(), tree=None):
    """send-ready ARGV. ALLOWED: identities accepted although refused
    otherwise, and TREE: the kernel tree; the check passes both, no
    option or environment variable reaches ALLOWED."""
    a = parser().parse_intermixed_args(argv)
    if len(a.dirs) > 2:
        parser().error('one PATCHDIR and one OUTDIR at most')
    src, dst = a.dirs if len(a.dirs) == 2 else (os.path.join(TOP, 'patches'), a.dirs[0])
    patches = read(src)
    if os.path.exists(dst) and (not os.path.isdir(dst) or os.listdir(dst)):
        die(f'{dst}: exists and is not an empty directory')
    req = requirements(a, patches, src, allowed)
    tree = a.tree or tree or base_tree()
    fixes(a, patches, src, tree)
    out = compose(a, patches, tree, *req)
    os.makedirs(dst, exist_ok=True)
    for p, text in out.items():
        with open(os.path.join(dst, os.path.basename(p.path)), 'w', encoding='utf-8') as f:
            f.write(text)
    me, author, carried = req[0], req[3], req[2]
    print(f'send_ready: {len(out)} files in {dst}, signed off by {me}' +
          (f'; patches {", ".join(str(p.number) for p in carried)} by {author}'
           if author else ''))
    print(f'send_ready: To:/Cc: from get_maintainer.pl of Linux {version(tree)} in {tree}; '
          f'to see them, no mail sent: git send-email --dry-run --confirm=never '
          f'--smtp-server=/bin/true {dst}/*.patch')
    return 0


def version(tree):
    """TREE's kernel version, from its Makefile."""
    v = {}
    with open(os.path.join(tree, 'Makefile'), encoding='utf-8', errors='replace') as f:
        for line in f.read().split('\n')[:10]:
            m = re.match(r'^(VERSION|PATCHLEVEL|SUBLEVEL) = (\d+)', line)
            if m:
                v[m.group(1)] = m.group(2)
    return '.'.join(v.get(k, '?') for k in ('VERSION', 'PATCHLEVEL', 'SUBLEVEL'))


def headers(to, cc):
    return rw.address_header('To', to) + rw.address_header('Cc', cc)
