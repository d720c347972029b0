# SPDX-License-Identifier: GPL-2.0
"""send_ready.py --check PATCHDIR...: its refusals and its output, as
KTAP (tools/checks/12-send-ready).

It runs send-ready in this process with a HOME and git configuration of
its own (the user's identity is neither read nor changed), as the sender
"Send Ready Check <check@send-ready.invalid>" and with Karl
Mehltretter's patches carried as "Karl Mehltretter
<karl@send-ready.invalid>": addresses that send-ready refuses from the
command line (.invalid is reserved, RFC 2606), accepted only because
this module passes them to send_make.main() as its ALLOWED argument,
which no option and no environment variable reaches."""

import contextlib
import io
import os
import re
import shutil
import subprocess
import sys
import tempfile

import send_make
import send_out_check as oc
from send_policy import KARL_SUBJECTS
from send_snap import (ALLOWED, FIX_DIRS, KARL_DIRS, KARL_T, LINK, ME, MSGID, SNAP, THREAD,
                       merged, snapshot, src, standin, standins)

sys.path.insert(0, os.path.join(send_make.TOP, 'tools'))
from ktap import report  # noqa: E402

class Runner:
    """send-ready in this process, in a scratch HOME."""

    def __init__(self, tmp, tree):
        self.tmp, self.tree, self.n = tmp, tree, 0
        # the base trees stay where they are when HOME changes
        os.environ.setdefault('ARM_DMA_CACHE', os.path.join(
            os.environ.get('XDG_CACHE_HOME') or os.path.expanduser('~/.cache'),
            'arm-dma-from-device'))
        self.gitconfig = os.path.join(tmp, 'home', '.gitconfig')
        os.makedirs(os.path.dirname(self.gitconfig))
        for k in list(os.environ):
            if k.startswith(('GIT_CONFIG', 'GIT_AUTHOR_', 'GIT_COMMITTER_')) or \
               k in ('GIT_DIR', 'EMAIL'):
                del os.environ[k]
        os.environ.update(HOME=os.path.dirname(self.gitconfig), GIT_CONFIG_NOSYSTEM='1',
                          GIT_CONFIG_GLOBAL=self.gitconfig, XDG_CONFIG_HOME=tmp)
        os.chdir(tmp)

    def identity(self, name, email):
        with open(self.gitconfig, 'w', encoding='utf-8') as f:
            if name:
                f.write(f'[user]\n\tname = {name}\n\temail = {email}\n')

    def run(self, opts, who=ME):
        """(status, stderr, OUTDIR) of send-ready OPTS OUTDIR as WHO."""
        self.identity(*who)
        self.n += 1
        out = os.path.join(self.tmp, f'out{self.n}')
        err = io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            try:
                rc = send_make.main([*opts, out], ALLOWED)
            except SystemExit as e:
                rc = e.code
        return rc, ' '.join(err.getvalue().split()), out


def valid_opts(d):
    """Options that make send-ready write D."""
    path = src(d)
    subjects = oc.subjects(path)
    opts = [path]
    stable = oc.to_be_filled(path)
    if any(s in KARL_SUBJECTS for s in subjects.values()) and not stable:
        opts += ['--author', KARL_T, '--changes', 'ported to this tree']
    fixes = oc.fixes_to_fill(path)
    if fixes:
        opts += ['--fixes', ','.join(f'{k}={SNAP["fixed"]}' for k in fixes)]
    if stable:
        opts += ['--upstream', ','.join(f'{k}={SNAP["upstream"][d][k]}' for k in stable)]
    if fixes or stable:
        opts += ['--tree', SNAP['tree']]
    elif '--author' in opts:
        opts += ['--version', '3']
    return opts


def without(opts, *drop):
    """OPTS without the options DROP and their values."""
    out, skip = [], False
    for x in opts:
        if skip:
            skip = False
        elif x in drop:
            skip = True
        else:
            out.append(x)
    return out


def replaced(opts, flag, value):
    return [value if i and opts[i - 1] == flag else x for i, x in enumerate(opts)]


def copy_as(rel, d, edit):
    """D's patch files, edited by EDIT, in the directory REL of the
    check's scratch directory."""
    dst = os.path.join(os.path.dirname(SNAP['root']), rel)
    os.makedirs(dst)
    for n, t in oc.files(src(d)).items():
        with open(os.path.join(dst, n), 'w', encoding='utf-8') as f:
            f.write(edit(t))
    return dst


def refusals(r, tests):
    """Each refusal: non-zero status, the reason named, nothing written."""
    main = valid_opts('patches')
    st = valid_opts('patches/stable-6.12')
    st1 = valid_opts('patches/stable-6.1')
    up = SNAP['upstream']['patches/stable-6.12'][1]
    other = SNAP['upstream']['patches/stable-6.1'][2]
    cases = [('refuses_unset_identity', main, (None, None), 'not both set'),
             ('refuses_placeholder_identity', main,
              ('Seed 9ace7f37 maintainers', 'maintainers@users.noreply.a-seed-9ace7f37.example'),
              'placeholder'),
             ('refuses_reserved_domain', main, ('Sender Name', 'sender@example.org'), 'reserved'),
             ('refuses_reserved_tld', main, ('Sender Name', 'sender@mail.invalid'), 'reserved'),
             ('refuses_noreply', main, ('Sender Name', 'sender@users.noreply.github.com'),
              'no-reply'),
             ('refuses_domain_without_dot', main, ('A', 'a@nowhere'), 'no public domain'),
             ('refuses_dot_local', main, ('X', 'x@host.local'), 'local networks'),
             ('refuses_home_arpa', main, ('Y', 'y@home.arpa'), 'local networks'),
             ('refuses_dot_internal', main, ('Z', 'z@mail.internal'), 'local networks'),
             ('refuses_account_name_root', main, ('root', 'root@kernel.org'), 'account'),
             ('refuses_malformed_name', main, ('Jane <Sender>', 'jane@kernel.org'),
              'not a name'),
             ('refuses_cc_not_an_address', main + ['--cc', 'Linus'], ME, '--cc'),
             ('refuses_tests_directory',
              [src('patches/stable-6.12-tests')] + main[1:], ME, 'not for mailing'),
             ('refuses_directory_not_mailed',
              [copy_as('outgoing', 'patches', str)] + main[1:], ME, 'not a series'),
             ('refuses_without_assisted_by',
              [copy_as('bare/patches', 'patches', lambda t: re.sub(r'(?m)^Assisted-by: .*\n', '', t))]
              + main[1:], ME, 'Assisted-by'),
             ('refuses_author_at_nowhere',
              replaced(main, '--author', 'Karl Mehltretter <karl@nowhere>'), ME,
              'no public domain'),
             ('refuses_author_not_karl',
              replaced(main, '--author', 'Someone Else <someone@kernel.org>'), ME,
              '10 Sep 2026'),
             ('refuses_author_malformed', replaced(main, '--author', 'Jane <Sender>'), ME,
              '10 Sep 2026'),
             ('refuses_author_without_changes', without(main, '--changes'), ME,
              '--author needs --changes'),
             ('refuses_mainline_without_version', without(main, '--version'), ME,
              'give its number, --version N'),
             ('refuses_author_without_karls_patches',
              valid_opts('patches/dma-kasan') + ['--author', KARL_T, '--changes', 'x'], ME,
              'no patch of'),
             ('refuses_version_1', main + ['--version', '1'], ME, 'first version'),
             ('refuses_stable_without_upstream', without(st, '--upstream'), ME,
              'stable backport'),
             ('refuses_stable_short_upstream_id', replaced(st, '--upstream', '1=abc'), ME,
              '40-digit'),
             ('refuses_stable_one_upstream_id', replaced(st1, '--upstream', '1=' + up), ME,
              'one distinct id for each'),
             ('refuses_upstream_without_tree', without(st, '--tree'), ME, 'give --tree'),
             ('refuses_upstream_not_in_tree', replaced(st, '--upstream', '1=' + '0' * 40), ME,
              'no such commit'),
             ('refuses_upstream_base_commit', replaced(st, '--upstream', '1=' + subprocess.run(
                 ['git', '-C', SNAP['tree'], 'rev-parse', 'base-mainline'], text=True,
                 stdout=subprocess.PIPE, check=True).stdout.strip()), ME, "Debian's tarball"),
             ('refuses_upstream_other_subject', replaced(st, '--upstream', '1=' + other), ME,
              'its subject is'),
             ('refuses_upstream_other_files', replaced(st, '--upstream', '1=' + standin(
                 oc.subjects(src('patches/stable-6.12'))[sorted(oc.files(src(
                     'patches/stable-6.12')))[1]], ['README'])), ME, 'does not change')]
    cases.append(('refuses_without_author_patches', without(main, '--author', '--changes'),
                  ME, ('Karl Mehltretter\'s change, carried forward', '10 Sep 2026',
                       'linux-arm-kernel') if '--author' in main else
                  ('a subject of Karl\'s in patches',)))
    for d in KARL_DIRS[1:]:
        cases.append((f'refuses_author_for_{oc.slug(d)}',
                      valid_opts(d) + ['--author', KARL_T, '--changes', 'x'], ME,
                      'those of its upstream commit'))
    for d in (d for d in FIX_DIRS if oc.fixes_to_fill(src(d))):
        opts = valid_opts(d)
        first = oc.fixes_to_fill(src(d))[0]
        cases += [(f'refuses_without_fixes_{oc.slug(d)}', without(opts, '--fixes'), ME,
                   ('fix bugs and go to stable', f'--fixes {first}=SHA', 'blame')),
                  (f'refuses_fixes_not_in_tree_{oc.slug(d)}',
                   [x.replace(SNAP['fixed'], 'f' * 40) for x in opts], ME, 'no such commit'),
                  (f'refuses_fixes_of_other_files_{oc.slug(d)}',
                   [x.replace(SNAP['fixed'], standin('unrelated', ['README'])) for x in opts],
                   ME, 'changes none of the files')]
    for name, opts, who, word in cases:
        rc, err, out = r.run(opts, who)
        written = os.path.exists(out) and os.listdir(out)
        words = (word,) if isinstance(word, str) else word
        missing = [w for w in words if w not in err]
        ok = rc not in (0, None) and not missing and not written
        tests.append((ok, name, f'status {rc}, {"wrote " + out if written else "nothing written"}: '
                      f'{err[:300] or "no message"}' +
                      (f' (wanted "{missing[0]}")' if missing else '')))


def no_leak(r, tests):
    """The check's identities are refused from the command line."""
    for name, who, opts in (('sender', ME, []),
                            ('author', ('Check Sender', 'check-sender@kernel.org'),
                             valid_opts('patches'))):
        r.identity(*who)
        out = os.path.join(r.tmp, f'leak-{name}')
        p = subprocess.run([sys.executable, os.path.join(os.path.dirname(__file__),
                                                         'send_ready.py'), *opts, out],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           check=False)
        ok = p.returncode == 1 and 'reserved for examples' in p.stderr and \
            not os.path.exists(out)
        tests.append((ok, f'check_{name}_identity_refused_from_command_line',
                      f'status {p.returncode}: {p.stderr.strip()[:200]}'))


def written(r, opts, tests, name, who=ME):
    rc, err, out = r.run(opts, who)
    ok = rc == 0 and os.path.isdir(out)
    tests.append((ok, name, f'status {rc}: {err[:300]}' if not ok else f'wrote {out}'))
    return out if ok else None


def maintainers(tree, section):
    """The M: names of SECTION in TREE's MAINTAINERS."""
    with open(os.path.join(tree, 'MAINTAINERS'), encoding='utf-8') as f:
        m = re.search(rf'(?m)^{re.escape(section)}\n((?:[A-Z]:\t.*\n)+)', f.read())
    return re.findall(r'(?m)^M:\t(.*?) <', m.group(1)) if m else []


def benchmark_recipients(out, tests):
    """Without --tree, the mainline series' recipients are the mainline
    base's: the benchmark patch goes To: the 7.3 DMA MAPPING BENCHMARK
    maintainers, not to 6.12's."""
    new = maintainers(SNAP['tree'], 'DMA MAPPING BENCHMARK')
    old = maintainers(send_make.base_tree('6.12'), 'DMA MAPPING BENCHMARK')
    fs = oc.files(out)
    to = [oc.heads(t).get('To', '') for t in fs.values()
          if oc.title(t).startswith('dma-mapping: benchmark:')]
    ok = bool(new) and len(to) == 1 and all(n in to[0] for n in new) and \
        not any(n in to[0] for n in set(old) - set(new))
    tests.append((ok, 'mainline_recipients_from_the_mainline_base',
                  f'benchmark patch To: {to[0][:200] if to else "none"}; 7.3 names {new}, '
                  f'6.12 {old}'))


def stable_form(out, d, tests):
    """A backport's author and trailers are its upstream commit's, then
    its notes and Assisted-by: (the sender signed the upstream commit, so
    the backport carries no second sign-off of theirs)."""
    bad = []
    for n, t in oc.files(out).items():
        if n.startswith('0000'):
            continue
        karls = oc.title(t) in KARL_SUBJECTS
        tr = oc.trailers(t)
        want = merged(oc.title(t))
        # the sender signed the upstream commit: no second sign-off
        notes = tr[len(want):-1]
        if oc.heads(t).get('From') != (KARL_T if karls else ALLOWED[0]) or \
           tr[:len(want)] != list(want) or not notes or not notes[0].startswith('[ ') or \
           tr[-1] != 'Assisted-by: LLM':
            bad.append(f'{n}: From: {oc.heads(t).get("From")}, trailers {tr}')
    tests.append((bool(oc.files(out)) and not bad, f'backport_is_its_upstream_commit_{oc.slug(d)}',
                  '; '.join(bad)[:400] or 'author and trailers of the upstream commit, then '
                  'the note and Assisted-by:'))


def check(dirs):
    tests = []
    tmp = tempfile.mkdtemp()
    cwd = os.getcwd()
    try:
        rel = [os.path.relpath(os.path.abspath(d), send_make.TOP) for d in dirs]
        snapshot(sorted(set(rel) | set(KARL_DIRS) | set(FIX_DIRS) |
                        {'patches/dma-kasan', 'patches/stable-6.12-tests'}), tmp)
        mailed = [d for d in rel if d in send_make.MAILED]
        SNAP['tree'] = tree = send_make.base_tree('mainline')
        standins(sorted(set(mailed) | set(KARL_DIRS) | set(FIX_DIRS)))
        r = Runner(tmp, tree)
        refusals(r, tests)
        no_leak(r, tests)
        # the mainline series, as its sender would run it
        opts = valid_opts('patches') + ['--in-reply-to', MSGID, '--link', LINK, '--cc', THREAD]
        main = written(r, opts, tests, 'writes_mainline_with_author')
        oc.mainline(main, tests, ALLOWED[0], KARL_T, 'LLM', (MSGID, LINK))
        cc = [n for n, t in oc.files(main).items() if THREAD not in oc.heads(t).get('Cc', '')]
        tests.append((bool(main) and not cc, 'cc_reaches_every_file',
                      f'no Cc: {THREAD} in {cc}' if cc else f'Cc: {THREAD} on every file'))
        # the reference copy as it will be, with no sign-off at all
        unsigned = os.path.join(tmp, 'unsigned', 'patches')
        oc.unsign(src('patches'), unsigned)
        again = written(r, [unsigned] + opts[1:], tests, 'writes_mainline_without_sign_offs')
        oc.identical(main, again, tests, 'unsigned_copy_gives_the_same_output')
        default = written(r, valid_opts('patches')[1:], tests, 'writes_without_patchdir')
        oc.default(default, src('patches'), tests)
        benchmark_recipients(default, tests)
        dropped = written(r, valid_opts('patches') + ['--drop-assisted-by'], tests,
                          'writes_with_drop_assisted_by')
        gone = bool(dropped) and not any('\nAssisted-by:' in t
                                         for t in oc.files(dropped).values())
        tests.append((gone, 'drop_assisted_by_drops_the_line',
                      'no Assisted-by: line' if gone else 'an Assisted-by: line is left'))
        outs = {'patches': main}
        for d in mailed:
            if d == 'patches':
                continue
            outs[d] = written(r, valid_opts(d), tests, f'writes_{oc.slug(d)}')
            filled = oc.to_be_filled(src(d))
            if filled:
                oc.stable(outs[d], d, tests, SNAP['upstream'][d])
                stable_form(outs[d], d, tests)
            if oc.fixes_to_fill(src(d)):
                oc.fixes(outs[d], d, tests, oc.fixes_to_fill(src(d)), SNAP['fixed'][:12])
        for d in mailed:
            oc.rewrite(outs.get(d), src(d), d, tests, (f'Link: {LINK}',))
            oc.lists(outs.get(d), d, tests)
        oc.send_email(main, tests, tmp)
        for d in ('patches',) + KARL_DIRS[1:] + tuple(d for d in FIX_DIRS if d in mailed):
            oc.checkpatch(outs.get(d), d, tree, tests, bool(oc.to_be_filled(src(d))))
    finally:
        os.chdir(cwd)
        shutil.rmtree(tmp)
    return report(tests)
