# SPDX-License-Identifier: GPL-2.0
"""tools/series send-ready: the options, what each directory requires,
and the files written (tools/series.d/send_ready.py says what and why)."""

import argparse
import os
import re
import subprocess

import send_lists
import send_rewrite as rw
from send_policy import KARL, KARL_SUBJECTS, KARL_WHERE, die, karl, recipient, sender

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
USAGE = ("%(prog)s [--author 'NAME <EMAIL>' --changes TEXT] [--version N]\n"
         "         [--in-reply-to MSGID] [--link URL] [--cc 'NAME <EMAIL>']...\n"
         '         [--upstream K=SHA,...] [--fixes K=SHA,...] [--tree MAINLINE_TREE]\n'
         '         [--drop-assisted-by] [PATCHDIR] OUTDIR')

# The directories that are mailed, by their path from patches/ up, and
# the base whose tree has the files they change.
MAILED = {'patches': 'mainline', 'patches/other-arches': 'mainline',
          'patches/dma-kasan': 'mainline', 'patches/stable-6.12': '6.12',
          'patches/stable-6.1': '6.1'}


HELP = ('A copy of PATCHDIR (default: patches/, the mainline series) in OUTDIR, ready '
        'for git send-email: see tools/series.d/send_ready.py.')


def parser():
    p = argparse.ArgumentParser(prog='tools/series send-ready', usage=USAGE, description=HELP)
    p.add_argument('--drop-assisted-by', action='store_true',
                   help='remove the committed "Assisted-by: LLM" line of every patch: true '
                   'only if you rewrote the patches yourself, without an assistant '
                   '(Documentation/process/coding-assistants.rst); otherwise the line stays')
    p.add_argument('--cc', action='append', default=[], metavar="'NAME <EMAIL>'",
                   help='Cc: on every file beside get_maintainer.pl\'s: the people of the '
                   'previous version\'s thread that it does not name (repeatable)')
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
    p.add_argument('--tree', metavar='MAINLINE_TREE',
                   help='a clone of current mainline: --upstream and --fixes ids are looked '
                   'up in it, and the mainline series\' To:/Cc: come from its '
                   'get_maintainer.pl (default: the mainline base tree, tools/base-tree; '
                   "a stable backport's come from its own base tree)")
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


def upstream_ids(opt, patches, src, tree):
    """{patch number: SHA} from --upstream, one for each patch with a
    "commit <to be filled> upstream." line, none for any other, each a
    commit of the mainline clone TREE with the patch's subject that
    changes every file the backport changes."""
    want = {p.number for p in patches if p.upstream_line() is not None and
            p.body[p.upstream_line()] == rw.TO_BE_FILLED}
    if not want:
        if opt:
            die(f'--upstream: no patch of {src} has a "{rw.TO_BE_FILLED}" line')
        return {}
    if not opt:
        die(f'{src} is a stable backport: {numbers(want)} '
            f'{"say" if len(want) > 1 else "says"} "{rw.TO_BE_FILLED}"; stable takes a patch only once mainline has it '
            '(Documentation/process/stable-kernel-rules.rst): give the mainline commit '
            'ids, --upstream ' + ','.join(f'{k}=SHA' for k in sorted(want)) +
            ' (40 hex digits each)')
    ids = k_sha('--upstream', opt, '40', 'a full 40-digit commit id')
    if set(ids) != want or len(set(ids.values())) != len(ids):
        die(f'--upstream {opt}: needs one distinct id for each of patches '
            f'{", ".join(map(str, sorted(want)))} of {src}, and no other')
    for k, sha in ids.items():
        p = next(p for p in patches if p.number == k)
        c = commit(tree, '--upstream', k, sha)
        if c['parents'] != 1:
            die(f'--upstream {k}={sha}: a {"root" if not c["parents"] else "merge"} commit '
                f'of {tree}, not the change that patch {k} backports')
        if c['subject'] != ' '.join(p.title.split()):
            die(f'--upstream {k}={sha}: its subject is "{c["subject"]}", not patch {k}\'s '
                f'"{p.title}" (a backport keeps the subject of the commit it backports)')
        missing = sorted(set(p.files()) - c['files'])
        if missing:
            die(f'--upstream {k}={sha}: does not change {", ".join(missing)}, which patch '
                f'{k} backports')
    return ids


def commit(tree, flag, k, sha):
    """{'id': ID, 'parents': N, 'subject': S, 'files': {...}} of the commit SHA of the
    mainline clone TREE, or death: not there, or the base commit made from
    Debian's tarball (tools/base-tree), which no upstream tree has."""
    if not tree:
        die(f'{flag} {k}={sha}: give --tree, a clone of current mainline that has the '
            'commit: its id is looked up there')

    def git(*args):
        return subprocess.run(['git', '-C', tree, *args], stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True, check=False)
    r = git('rev-parse', '-q', '--verify', f'{sha}^{{commit}}')
    if r.returncode or not r.stdout.startswith(sha):
        die(f'{flag} {k}={sha}: no such commit in {tree}; give --tree a clone of '
            'current mainline that has it')
    full = r.stdout.strip()
    if any(t.startswith('base-') for t in git('tag', '--points-at', full).stdout.split()):
        die(f'{flag} {k}={sha}: the base commit made from Debian\'s tarball '
            '(tools/base-tree), not an upstream commit')
    log = git('log', '-1', '--format=%P%n%s', full).stdout.split('\n')
    files = git('diff-tree', '--root', '--no-commit-id', '--name-only', '-r', full).stdout
    return {'id': full, 'parents': len(log[0].split()), 'subject': ' '.join(log[1].split()),
            'files': set(files.split())}


def fixes_ids(opt, patches, src, tree):
    """{patch number: 'Fixes: SHA12 ("SUBJECT")'} from --fixes, one for
    each patch with a "Fixes: <to be filled> (blame: ...)" line, each
    SHA a commit of the mainline clone TREE that changes a file the
    patch changes."""
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
        p = next(p for p in patches if p.number == k)
        c = commit(tree, '--fixes', k, sha)
        if not c['files'] & set(p.files()):
            die(f'--fixes {k}={sha}: changes none of the files patch {k} changes, so it '
                f'cannot have brought in the bug patch {k} fixes')
        out[k] = f'Fixes: {c["id"][:12]} ("{c["subject"]}")'
    return out

def base_tree(base):
    """The tree of BASE (tools/bases) that tools/base-tree prepares; no
    KERNEL_TREE of the caller's stands in for it."""
    env = {k: v for k, v in os.environ.items() if k not in ('KERNEL_TREE', 'SERIES')}
    r = subprocess.run([os.path.join(TOP, 'tools', 'base-tree')], stdout=subprocess.PIPE,
                       text=True, check=False, env=dict(env, BASE=base))
    if r.returncode != 0 or not r.stdout.strip():
        die(f'BASE={base} tools/base-tree failed: the {base} tree is needed for To:/Cc:')
    return r.stdout.strip().split('\n')[-1]


def directory(src):
    """The base of the mailed directory SRC (MAILED, by its path from its
    last "patches" up), or death: a test series, or no series of ours."""
    parts = os.path.abspath(src).split(os.sep)
    rel = '/'.join(parts[len(parts) - 1 - parts[::-1].index('patches'):]) \
        if 'patches' in parts else os.path.basename(src)
    if rel.endswith('-tests'):
        die(f'{src}: a test series, not for mailing: its cover letter says it is for '
            'neither stable nor mainline (it tests the fix on a stable base); send '
            f'{rel[:-len("-tests")]}')
    if rel not in MAILED:
        die(f'{src}: not a series this repository mails; those are ' +
            ', '.join(MAILED) + ' (a copy keeps the path from patches/ up)')
    return MAILED[rel]


def requirements(a, patches, src, allowed):
    """What PATCHES require of the options A, or death: (sender, the
    --cc addresses, Karl's patches, his identity or None, upstream ids,
    stable backport or not)."""
    me = sender(allowed)
    bare = [p.number for p in patches if not p.cover and not p.assisted()]
    if bare and not a.drop_assisted_by:
        die(f'patches {", ".join(map(str, bare))} of {src} have no "Assisted-by:" line: '
            'the committed series states the assistant\'s part in every patch '
            '(Documentation/process/coding-assistants.rst); export it again '
            '(tools/series export)')
    cc = [recipient(x, allowed) for x in a.cc]
    stable = any(p.upstream_line() is not None for p in patches)
    # a backport's author and sign-offs are its upstream commit's
    carried = [] if stable else [p for p in patches
                                 if ' '.join(p.title.split()) in KARL_SUBJECTS]
    author = None
    if carried and not a.author:
        die(f'{numbers(p.number for p in carried)} of {src} are {KARL}\'s '
            f'change, carried forward: they go out under his name, with his sign-off '
            f"before yours. Give --author '{KARL} <EMAIL>' and --changes TEXT (what you "
            f'changed in them); {KARL_WHERE}')
    if a.author:
        if stable:
            die(f'--author: {src} is a stable backport; each patch\'s author and '
                'sign-offs are those of its upstream commit (--upstream)')
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
    ids = upstream_ids(a.upstream, patches, src, a.tree)
    return me, cc, carried, author, ids, stable


def fixes(a, patches, src, tree):
    """Each "Fixes: <to be filled>" line filled from --fixes, or death."""
    for k, line in fixes_ids(a.fixes, patches, src, tree).items():
        p = next(p for p in patches if p.number == k)
        p.body[rw.fixes_line(p)[0]] = line


tree_of = {}


def upstream(tree, sha):
    """('NAME <EMAIL>', trailer lines) of the commit SHA of TREE: the
    author and the last paragraph of its message."""
    r = subprocess.run(['git', '-C', tree, 'log', '-1', '--format=%an <%ae>%n%B', sha],
                       stdout=subprocess.PIPE, text=True, check=True).stdout
    author, msg = r.split('\n', 1)
    last = msg.rstrip('\n').split('\n\n')[-1].split('\n')
    if not any(x.startswith('Signed-off-by: ') for x in last):
        die(f'--upstream {sha}: its message ends without a Signed-off-by: paragraph')
    return author, last


def compose(a, patches, tree, me, cc, carried, author, ids, stable):
    """{patch: text to write}."""
    tree_of['lookup'] = a.tree
    pairs, out = [], {}
    for p in patches:
        if a.version:
            rw.set_version(p, a.version)
        if p.cover:
            continue
        if p.number in ids:
            rw.fill_upstream(p, ids[p.number])
            up = upstream(tree_of['lookup'], ids[p.number])
            rw.set_author(p, up[0], me)
            rw.sign_backport(p, me, a.drop_assisted_by, up[1])
        elif p in carried and author:
            rw.set_author(p, author, me)
            rw.sign(p, me, a.drop_assisted_by, author, a.changes)
        else:
            rw.set_author(p, me, me)
            rw.sign(p, me, a.drop_assisted_by)
    for p, lists in send_lists.each(tree, [p for p in patches if not p.cover], stable):
        if not lists[0] and not lists[1]:
            die(f'{p.path}: get_maintainer.pl in {tree} names nobody for it')
        lists = (lists[0], lists[1] + [x for x in cc if x not in lists[0] + lists[1]])
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


def main(argv, allowed=()):
    """send-ready ARGV. ALLOWED: identities accepted although refused
    otherwise; only the check passes any, no option or environment
    variable reaches it."""
    a = parser().parse_intermixed_args(argv)
    if len(a.dirs) > 2:
        parser().error('one PATCHDIR and one OUTDIR at most')
    src, dst = a.dirs if len(a.dirs) == 2 else (os.path.join(TOP, 'patches'), a.dirs[0])
    patches = read(src)
    if os.path.exists(dst) and (not os.path.isdir(dst) or os.listdir(dst)):
        die(f'{dst}: exists and is not an empty directory')
    base = directory(src)
    req = requirements(a, patches, src, allowed)
    fixes(a, patches, src, a.tree)
    tree = a.tree if a.tree and base == 'mainline' else base_tree(base)
    out = compose(a, patches, tree, *req)
    os.makedirs(dst, exist_ok=True)
    for p, text in out.items():
        with open(os.path.join(dst, os.path.basename(p.path)), 'w', encoding='utf-8') as f:
            f.write(text)
    me, author, carried = req[0], req[3], req[2]
    print(f'send_ready: {len(out)} files in {dst}, signed off by {me}' +
          (f'; {numbers(p.number for p in carried)} by {author}'
           if author else ''))
    print(f'send_ready: To:/Cc: from get_maintainer.pl of Linux {version(tree)} in {tree}; '
          f'to see them, no mail sent: git send-email --dry-run --confirm=never '
          f'--smtp-server=/bin/true {dst}/*.patch')
    return 0


def numbers(ns):
    """"patch 1" or "patches 1, 2"."""
    ns = sorted(ns)
    return ('patch ' if len(ns) == 1 else 'patches ') + ', '.join(map(str, ns))


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
