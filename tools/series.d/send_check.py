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
import shutil
import subprocess
import sys
import tempfile

import send_make
import send_out_check as oc
from send_policy import KARL_SUBJECTS

sys.path.insert(0, os.path.join(send_make.TOP, 'tools'))
from ktap import report  # noqa: E402

ME = ('Send Ready Check', 'check@send-ready.invalid')
KARL_T = 'Karl Mehltretter <karl@send-ready.invalid>'
ALLOWED = (f'{ME[0]} <{ME[1]}>', KARL_T)
# The directories whose patches 1-2 are Karl's: a subject changed there
# makes the refusal tests fail rather than his authorship go quietly.
KARL_DIRS = ('patches', 'patches/stable-6.12', 'patches/stable-6.1')
# The directories whose bug fixes need the commits they fix named.
FIX_DIRS = ('patches/other-arches',)
ASSISTED = 'Check:model-1 sparse'
MSGID = '<20260910000000.1-1-karl@send-ready.invalid>'
LINK = 'https://lore.kernel.org/linux-arm-kernel/20260910000000.1-1-karl@send-ready.invalid/'


class Runner:
    """send-ready in this process, in a scratch HOME."""

    def __init__(self, tmp, tree):
        self.tmp, self.tree, self.n = tmp, tree, 0
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
                rc = send_make.main([*opts, out], ALLOWED, self.tree)
            except SystemExit as e:
                rc = e.code
        return rc, ' '.join(err.getvalue().split()), out


def sha(n):
    return f'{n:x}' * 40 if n < 16 else ''


# The patch directories as the check started: the files may be
# regenerated while it runs. 'fixed': a commit of the check's tree that
# stands for the commits the fixes of the other architectures' series
# name (the sender finds the real ones in a mainline clone).
SNAP = {'root': send_make.TOP, 'fixed': None}


def src(d):
    return os.path.join(SNAP['root'], d)


def snapshot(rel, tmp):
    """A copy of the patch files of the directories REL in TMP/src."""
    SNAP['root'] = os.path.join(tmp, 'src')
    for d in rel:
        os.makedirs(src(d))
        for n in oc.files(os.path.join(send_make.TOP, d)):
            shutil.copy(os.path.join(send_make.TOP, d, n), src(d))


def valid_opts(d):
    """Options that make send-ready write D."""
    path = src(d)
    subjects = oc.subjects(path)
    opts = [path]
    if any(s in KARL_SUBJECTS for s in subjects.values()):
        opts += ['--author', KARL_T, '--changes', 'ported to this tree']
    fixes = oc.fixes_to_fill(path)
    if fixes:
        opts += ['--fixes', ','.join(f'{k}={SNAP["fixed"]}' for k in fixes)]
    stable = oc.to_be_filled(path)
    if stable:
        opts += ['--upstream', ','.join(f'{k}={sha(k + 10)}' for k in stable)]
    elif '--author' in opts:
        opts += ['--version', '3']
    return opts


def refusals(r, tests):
    """Each refusal: non-zero status, the reason named, nothing written."""
    main = valid_opts('patches') + ['--no-assistance']
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
             ('refuses_without_assistance_statement', main[:-1], ME, 'coding-assistants.rst'),
             ('refuses_assisted_by_with_no_assistance', main + ['--assisted-by', ASSISTED], ME,
              'contradict'),
             ('refuses_assisted_by_not_agent_model', main[:-1] + ['--assisted-by', 'Check'], ME,
              'AGENT_NAME:MODEL_VERSION'),
             ('refuses_author_at_nowhere',
              [x.replace(KARL_T, 'Karl Mehltretter <karl@nowhere>') for x in main], ME,
              'no public domain'),
             ('refuses_author_not_karl',
              [x.replace(KARL_T, 'Someone Else <someone@kernel.org>') for x in main], ME,
              '10 Sep 2026'),
             ('refuses_author_without_changes',
              [x for x in main if x not in ('--changes', 'ported to this tree')], ME,
              '--author needs --changes'),
             ('refuses_mainline_without_version', main[:-3] + main[-1:], ME,
              'give its number, --version N'),
             ('refuses_author_without_karls_patches',
              valid_opts('patches/dma-kasan') + ['--no-assistance', '--author', KARL_T,
                                                  '--changes', 'x'], ME, 'no patch of'),
             ('refuses_version_1', main + ['--version', '1'], ME, 'first version')]
    for d in KARL_DIRS:
        opts = [x for x in valid_opts(d) if x not in ('--author', KARL_T, '--changes',
                                                     'ported to this tree')]
        # valid_opts() gives --author only where a subject is his
        cases.append((f'refuses_without_author_{oc.slug(d)}', opts + ['--no-assistance'], ME,
                      ('Karl Mehltretter\'s change, carried forward', '10 Sep 2026',
                       'linux-arm-kernel') if '--author' in valid_opts(d) else
                      ('a subject of Karl\'s in ' + d,)))
    st = valid_opts('patches/stable-6.12') + ['--no-assistance']
    i = st.index('--upstream')
    cases += [('refuses_stable_without_upstream', st[:i] + st[i + 2:], ME,
               'stable backport'),
              ('refuses_stable_short_upstream_id', st[:i + 1] + ['1=abc,2=' + sha(12)] + st[i + 2:],
               ME, '40-digit'),
              ('refuses_stable_one_upstream_id', st[:i + 1] + ['1=' + sha(11)] + st[i + 2:], ME,
               'one distinct id for each')]
    for d in (d for d in FIX_DIRS if oc.fixes_to_fill(src(d))):
        opts = valid_opts(d) + ['--no-assistance']
        i = opts.index('--fixes')
        first = oc.fixes_to_fill(src(d))[0]
        cases += [(f'refuses_without_fixes_{oc.slug(d)}', opts[:i] + opts[i + 2:], ME,
                   ('fix bugs and go to stable', f'--fixes {first}=SHA', 'blame')),
                  (f'refuses_fixes_not_in_tree_{oc.slug(d)}',
                   opts[:i + 1] + [opts[i + 1].replace(SNAP['fixed'], 'f' * 40)] + opts[i + 2:],
                   ME, 'not a commit of')]
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
    for name, who, opts in (('sender', ME, ['--no-assistance']),
                            ('author', ('Check Sender', 'check-sender@kernel.org'),
                             valid_opts('patches') + ['--no-assistance'])):
        r.identity(*who)
        out = os.path.join(r.tmp, f'leak-{name}')
        p = subprocess.run([sys.executable, os.path.join(os.path.dirname(__file__),
                                                         'send_ready.py'), *opts,
                            '--tree', r.tree, out],
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


def check(dirs):
    tests = []
    tmp = tempfile.mkdtemp()
    cwd = os.getcwd()
    try:
        rel = [os.path.relpath(os.path.abspath(d), send_make.TOP) for d in dirs]
        snapshot(sorted(set(rel) | set(KARL_DIRS) | set(FIX_DIRS) | {'patches/dma-kasan'}),
                 tmp)
        tree = send_make.base_tree()
        SNAP['fixed'] = subprocess.run(['git', '-C', tree, 'rev-list', '--max-parents=0',
                                        'HEAD'], stdout=subprocess.PIPE, text=True,
                                       check=True).stdout.split()[0]
        r = Runner(tmp, tree)
        refusals(r, tests)
        no_leak(r, tests)
        # the mainline series, as its sender would run it
        main = written(r, valid_opts('patches') + ['--assisted-by', ASSISTED, '--in-reply-to',
                                                   MSGID, '--link', LINK],
                       tests, 'writes_mainline_with_author')
        oc.mainline(main, tests, ALLOWED[0], KARL_T, ASSISTED, (MSGID, LINK))
        # the reference copy as it will be, with no sign-off at all
        unsigned = os.path.join(tmp, 'unsigned')
        oc.unsign(src('patches'), unsigned)
        again = written(r, [unsigned] + valid_opts('patches')[1:] + [
            '--assisted-by', ASSISTED, '--in-reply-to', MSGID, '--link', LINK],
                        tests, 'writes_mainline_without_sign_offs')
        oc.identical(main, again, tests, 'unsigned_copy_gives_the_same_output')
        default = written(r, valid_opts('patches')[1:] + ['--no-assistance'], tests,
                          'writes_without_patchdir')
        oc.default(default, src('patches'), tests)
        outs = {'patches': main}
        for d in rel:
            if d == 'patches':
                continue
            outs[d] = written(r, valid_opts(d) + ['--assisted-by', ASSISTED], tests,
                              f'writes_{oc.slug(d)}')
            filled = oc.to_be_filled(src(d))
            if filled:
                oc.stable(outs[d], d, tests, {k: sha(k + 10) for k in filled})
            if oc.fixes_to_fill(src(d)):
                oc.fixes(outs[d], d, tests, oc.fixes_to_fill(src(d)), SNAP['fixed'][:12])
        for d in rel:
            oc.rewrite(outs.get(d), src(d), d, tests, (f'Link: {LINK}',))
            oc.lists(outs.get(d), d, tests)
        oc.send_email(main, tests, tmp)
        for d in ('patches',) + KARL_DIRS[1:] + tuple(d for d in FIX_DIRS if d in rel):
            oc.checkpatch(outs.get(d), d, tree, tests)
    finally:
        os.chdir(cwd)
        shutil.rmtree(tmp)
    return report(tests)
