# SPDX-License-Identifier: GPL-2.0
"""What send_check.py runs send-ready on: its identities, a snapshot of
the patch directories, and stand-ins, in the mainline base tree, for the
mainline commits a sender looks up with --upstream and --fixes."""

import os
import shutil
import subprocess

import send_make
import send_out_check as oc
import send_rewrite as rw
from send_policy import KARL_SUBJECTS

ME = ('Send Ready Check', 'check@send-ready.invalid')
KARL_T = 'Karl Mehltretter <karl@send-ready.invalid>'
ALLOWED = (f'{ME[0]} <{ME[1]}>', KARL_T)
# The directories whose patches 1-2 are Karl's: a subject changed there
# makes the refusal tests fail rather than his authorship go quietly.
KARL_DIRS = ('patches', 'patches/stable-6.12', 'patches/stable-6.1')
# The directories whose bug fixes need the commits they fix named.
FIX_DIRS = ('patches/other-arches',)
# A person of the previous thread, whom --cc adds
THREAD = 'Thread Person <thread@send-ready.invalid>'
ALLOWED = ALLOWED + (THREAD,)
MSGID = '<20260910000000.1-1-karl@send-ready.invalid>'
LINK = 'https://lore.kernel.org/linux-arm-kernel/20260910000000.1-1-karl@send-ready.invalid/'


# The patch directories as the check started: the files may be
# regenerated while it runs. 'tree': the mainline base tree, which
# stands for the sender's mainline clone; 'fixed': a commit there that
# stands for the commits the other architectures' fixes name, and
# 'upstream': {directory: {K: commit}}, the mainline commits of each
# backport (stand-ins: the sender finds the real ones in a mainline clone).
SNAP = {'root': send_make.TOP, 'tree': None, 'fixed': None, 'upstream': {}}


MAINTAINER = 'Signed-off-by: Stand In Maintainer <maintainer@send-ready.invalid>'


def merged(title):
    """The last paragraph of the stand-in upstream commit of TITLE, as
    the maintainer's tree would have merged mainline's patch of that
    subject: its trailers, Karl's sign-off and the sender's note where
    it is his, Assisted-by:, the sender's and the maintainer's sign-offs."""
    t = next(t for t in oc.files(src('patches')).values() if oc.title(t) == title)
    own = [x for x in oc.trailers(t) if not x.startswith('Assisted-by: ')]
    karls = [f'Signed-off-by: {KARL_T}', '[Send Ready Check: ported to this tree]'] \
        if title in KARL_SUBJECTS else []
    return own + karls + ['Assisted-by: LLM', f'Signed-off-by: {ALLOWED[0]}', MAINTAINER]


def standin(subject, paths, author=('Stand In', 'standin@send-ready.invalid'), trailers=()):
    """A commit of the mainline base tree on its base commit, SUBJECT,
    changing PATHS, by AUTHOR, its message ending in TRAILERS: on no
    branch, the same id on every run."""
    tree = SNAP['tree']
    env = dict(os.environ, GIT_INDEX_FILE=os.path.join(SNAP['root'], 'standin.index'),
               GIT_AUTHOR_NAME=author[0], GIT_AUTHOR_EMAIL=author[1],
               GIT_COMMITTER_NAME='Stand In', GIT_COMMITTER_EMAIL='standin@send-ready.invalid',
               GIT_AUTHOR_DATE='2026-01-01T00:00:00Z', GIT_COMMITTER_DATE='2026-01-01T00:00:00Z')

    def git(*args, stdin=None):
        return subprocess.run(['git', '-C', tree, *args], input=stdin, env=env, text=True,
                              stdout=subprocess.PIPE, check=True).stdout.strip()
    git('read-tree', 'base-mainline')
    blob = git('hash-object', '-w', '--stdin', stdin=f'stand-in for {subject}\n')
    for path in paths:
        git('update-index', '--add', '--cacheinfo', f'100644,{blob},{path}')
    return git('commit-tree', git('write-tree'), '-p', 'base-mainline', '-m', subject,
               *(['-m', '\n'.join(trailers)] if trailers else []))


def patch_files(name, text):
    """The paths the patch NAME (TEXT) changes, as send-ready reads them."""
    return sorted(set(rw.Patch(name, text).files()))


def standins(rel):
    """SNAP's stand-in commits for the directories REL."""
    every = set()
    for d in rel:
        for n, t in oc.files(src(d)).items():
            every |= set(patch_files(n, t))
            if int(n[:4]) in oc.to_be_filled(src(d)):
                title = ' '.join(oc.title(t).split())
                SNAP['upstream'].setdefault(d, {})[int(n[:4])] = standin(
                    title, patch_files(n, t), ('Karl Mehltretter', 'karl@send-ready.invalid')
                    if title in KARL_SUBJECTS else ME, merged(title))
    SNAP['fixed'] = standin('stand-in for a commit that brought in a bug', sorted(every))


def src(d):
    return os.path.join(SNAP['root'], d)


def snapshot(rel, tmp):
    """A copy of the patch files of the directories REL in TMP/src."""
    SNAP['root'] = os.path.join(tmp, 'src')
    for d in rel:
        os.makedirs(src(d))
        for n in oc.files(os.path.join(send_make.TOP, d)):
            shutil.copy(os.path.join(send_make.TOP, d, n), src(d))
