# SPDX-License-Identifier: GPL-2.0
"""The text of a send-ready patch file (tools/series.d/send_ready.py):
its headers (From:, Subject: with the version, To:/Cc:, In-Reply-To:),
its trailers (the author's and the sender's sign-offs, Assisted-by:),
the upstream commit of a backport, and the cover letter's shortlog."""

import email.header
import re
import textwrap

from send_policy import PLACEHOLDER_NAME, die, nobody

TO_BE_FILLED = 'commit <to be filled> upstream.'
UPSTREAM_LINE = re.compile(r'^commit (<to be filled>|[0-9a-f]{40}) upstream\.$')
PREFIX = re.compile(r'^\[PATCH((?: [^\]\s]+)*?)(?: (\d+)/(\d+))?\] ')
TRAILER = re.compile(r'^[A-Za-z][A-Za-z0-9-]*: \S')


def fold(name, value, width=78):
    """Header NAME: VALUE folded at spaces, as git format-patch does."""
    out, line = [], f'{name}: '
    for word in value.split(' '):
        if len(line) + len(word) > width and line.strip() and not line.endswith(': '):
            out.append(line.rstrip())
            line = ' '
        line += word + ' '
    return out + [line.rstrip()]


def address_header(name, addrs):
    """NAME: the addresses, one a line, as format-patch --to/--cc writes them."""
    return [f'{name}: ' + ',\n    '.join(addrs)] if addrs else []


class Patch:
    """One patch file: HEAD (header lines up to the blank line, folded
    lines joined) and BODY (the lines after it)."""

    def __init__(self, path, text):
        self.path = path
        lines = text.split('\n')
        if '' not in lines:
            die(f'{path}: no header and body')
        end = lines.index('')
        self.head, self.body = [], lines[end + 1:]
        for line in lines[:end]:
            if line[:1] in (' ', '\t') and self.head:
                self.head[-1] += ' ' + line.strip()
            else:
                self.head.append(line)
        m = PREFIX.match(self.get('Subject') or '')
        if not m:
            die(f'{path}: no "[PATCH ...]" subject')
        self.tags, self.title = m.group(1), self.get('Subject')[m.end():]
        self.number = int(m.group(2)) if m.group(2) else 1
        self.total = int(m.group(3)) if m.group(3) else 1
        self.cover = self.number == 0

    def get(self, name):
        for h in self.head:
            if h.startswith(name + ': '):
                return h[len(name) + 2:]
        return None

    def set(self, name, value):
        self.head = [f'{name}: {value}' if h.startswith(name + ': ') else h
                     for h in self.head]

    def author(self):
        return self.get('From')

    def assisted(self):
        """The message's "Assisted-by:" lines."""
        return [x for x in self.body[:self.message_end()] if x.startswith('Assisted-by: ')]

    def files(self):
        """The paths the diff changes."""
        return [m.group(1) for m in (re.match(r'^diff --git a/\S+ b/(\S+)$', x)
                                     for x in self.body) if m]

    def upstream_line(self):
        """The index of the "commit ... upstream." line, or None."""
        for i, line in enumerate(self.body[:self.message_end()]):
            if UPSTREAM_LINE.match(line):
                return i
        return None

    def message_end(self):
        """The index in BODY of the "---" line that ends the message."""
        return self.body.index('---') if '---' in self.body else len(self.body)

    def text(self, extra=()):
        """The file, with the headers EXTRA (lines) after Subject:; a
        name that is not ASCII in From: encoded (RFC 2047), and a body
        that is not declared as UTF-8 if it needs to be."""
        out = []
        for h in self.head:
            if h.startswith('Subject: '):
                out += fold('Subject', h[len('Subject: '):]) + list(extra)
            elif h.startswith('From: '):
                name, addr = h[len('From: '):].rsplit(' <', 1)
                if not name.isascii():
                    name = email.header.Header(name, 'utf-8').encode()
                elif re.search(r'[()<>\[\]:;@\\,."]', name) and not name.startswith('"'):
                    name = '"' + name.replace('\\', '\\\\').replace('"', '\\"') + '"'
                out += fold('From', f'{name} <{addr}')
            else:
                out.append(h)
        if not all(line.isascii() for line in self.body) and not self.get('Content-Type'):
            out += ['MIME-Version: 1.0', 'Content-Type: text/plain; charset=UTF-8',
                    'Content-Transfer-Encoding: 8bit']
        return '\n'.join(out + [''] + self.body)


def set_version(p, version):
    """[PATCH k/n] -> [PATCH vN k/n], after any other tag."""
    if re.search(r'(^| )v\d+( |$)', p.tags):
        die(f'{p.path}: its subject has a version already')
    count = f' {p.number}/{p.total}' if p.total > 1 or p.cover else ''
    p.set('Subject', f'[PATCH{p.tags} v{version}{count}] {p.title}')


def set_author(p, ident, sender):
    """From: IDENT, where the file's author is no person (or already is
    IDENT or the sender): someone else's patch is refused."""
    old = p.author()
    if not nobody(old) and old not in (ident, sender):
        die(f'{p.path}: the author is {old}, not a placeholder or you: sign it off by hand')
    p.set('From', ident)


FIXES_TBF = re.compile(r'^Fixes: <to be filled> \(blame: (.+)\)$')


def fixes_line(p):
    """(index in BODY, where to look) of P's "Fixes: <to be filled>
    (blame: ...)" line, or None."""
    for i, line in enumerate(p.body[:p.message_end()]):
        m = FIXES_TBF.match(line)
        if m:
            return i, m.group(1)
    return None


def fill_upstream(p, sha):
    """The backport's "commit <to be filled> upstream." line made SHA's."""
    i = p.upstream_line()
    if i is None or p.body[i] != TO_BE_FILLED:
        die(f'{p.path}: --upstream {p.number}=...: the patch has no '
            f'"{TO_BE_FILLED}" line')
    p.body[i] = f'commit {sha} upstream.'


def note(name, changes):
    """"[NAME: CHANGES]", wrapped at 75 columns as checkpatch wants."""
    return textwrap.wrap(f'[{name}: {changes}]', 75, subsequent_indent='  ',
                         break_long_words=False, break_on_hyphens=False)


def sign(p, sender, drop_assisted, author=None, changes=None):
    """The trailers: sign-offs that no person gave, and the sender's own,
    dropped; with AUTHOR, his sign-off and "[SENDER: CHANGES]" before
    the first backport note ("[ 6.12: ... ]"); then the committed
    Assisted-by: lines (none with DROP_ASSISTED), for the work the
    sender sends, then the sender's sign-off, last."""
    end = p.message_end()
    assisted = [] if drop_assisted else p.assisted()
    msg = [line for line in p.body[:end]
           if not (line.startswith('Signed-off-by: ') and
                   (nobody(line[15:]) or line[15:] == sender)) and
           not line.startswith('Assisted-by: ')]
    while msg and msg[-1] == '':
        msg.pop()
    start = len(msg)
    while start > 0 and msg[start - 1] != '':
        start -= 1
    block = msg[start:]
    if not block or not all(TRAILER.match(x) or x.startswith(('[', ' ')) for x in block):
        msg.append('')
        start = len(msg)
    if author and author != sender:
        notes = [i for i in range(start, len(msg)) if msg[i].startswith('[')]
        at = notes[0] if notes else len(msg)
        msg[at:at] = [f'Signed-off-by: {author}'] + note(sender.split(' <')[0], changes)
    msg += [a for i, a in enumerate(assisted) if a not in assisted[:i]]
    msg.append(f'Signed-off-by: {sender}')
    p.body[:end] = msg


def sign_backport(p, sender, drop_assisted, upstream):
    """A stable backport's trailers: its upstream commit's (UPSTREAM, its
    last paragraph as merged), then the backport's notes ("[ 6.12: ...
    ]"), the committed Assisted-by: line (none with DROP_ASSISTED) for
    the backport's own work, and the sender's sign-off, last, unless
    the upstream paragraph has it (stable-kernel-rules.rst)."""
    end = p.message_end()
    msg = p.body[:end]
    while msg and msg[-1] == '':
        msg = msg[:-1]
    start = len(msg)
    while start > 0 and msg[start - 1] != '':
        start -= 1
    block = msg[start:]
    notes, on = [], False
    for line in block:
        on = line.startswith('[') or (on and line.startswith(' '))
        if on:
            notes.append(line)
    assisted = [] if drop_assisted else p.assisted()[:1]
    # one sign-off a person: a sender who signed the upstream commit
    # does not sign again (checkpatch: "Duplicate signature")
    sob = [] if f'Signed-off-by: {sender}' in upstream else [f'Signed-off-by: {sender}']
    p.body[:end] = msg[:start] + list(upstream) + notes + assisted + sob


GROUP = re.compile(r'^\S.* \(\d+\):$')


def shortlog_at(p):
    """The index of the shortlog's first "NAME (N):" line in P's body: a
    paragraph's first line, followed by an entry."""
    body = p.body
    for i, line in enumerate(body[:-1]):
        if GROUP.match(line) and (i == 0 or body[i - 1] == '') and \
           re.match(r'^  \S', body[i + 1]):
            return i
    return die(f'{p.path}: no shortlog ("NAME (N):")')


def shortlog(p, patches):
    """The cover letter's shortlog regrouped by the authors PATCHES now
    have, in patch order."""
    body = p.body
    group = GROUP
    i = shortlog_at(p)
    j, entries = i, []
    while j < len(body):
        line = body[j]
        if group.match(line) or (line == '' and j + 1 < len(body) and
                                 group.match(body[j + 1])):
            pass
        elif re.match(r'^  \S', line):
            entries.append(line.strip())
        elif re.match(r'^    +\S', line) and entries:
            entries[-1] += ' ' + line.strip()
        else:
            break
        j += 1
    titles = [' '.join(q.title.split()) for q in patches]
    if sorted(' '.join(e.split()) for e in entries) != sorted(titles):
        die(f'{p.path}: its shortlog does not list the subjects of the patches')
    authors = {}
    for q in patches:
        authors.setdefault(q.author().split(' <')[0], []).append(q.title)
    out = []
    for name, titles in authors.items():
        out += [f'{name} ({len(titles)}):']
        for t in titles:
            out += textwrap.wrap(t, 72, initial_indent='  ', subsequent_indent='    ',
                                 break_long_words=False, break_on_hyphens=False)
        out.append('')
    while j > i and body[j - 1] == '':
        j -= 1
    body[i:j] = out[:-1]


def link(p, url):
    """"Link: URL" on top of the trailers above the shortlog, or in a
    paragraph of its own there."""
    body = p.body
    s = shortlog_at(p)
    j = s
    while j > 0 and body[j - 1] == '':
        j -= 1
    start = j
    while start > 0 and body[start - 1] != '':
        start -= 1
    if start < j and all(TRAILER.match(x) for x in body[start:j]):
        body.insert(start, f'Link: {url}')
    else:
        body[s:s] = [f'Link: {url}', '']


def leftover(text, path):
    """Dies if TEXT still names the placeholder."""
    if re.search(PLACEHOLDER_NAME, text):
        die(f'{path}: the placeholder identity is still in it after the rewrite')
