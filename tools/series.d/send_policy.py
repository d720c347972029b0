# SPDX-License-Identifier: GPL-2.0
"""Who may appear in a send-ready series (tools/series.d/send_ready.py):
the sender from git's configuration, the author of carried patches, the
people of the previous thread (--cc), and the identities no person
gave, which are replaced."""

import re
import subprocess
import sys

# The identity the committed patches carry: the repository's, not a
# person's.
PLACEHOLDER_NAME = r'Seed [0-9a-f]+ maintainers'
PLACEHOLDER = re.compile(rf'^{PLACEHOLDER_NAME} <[^>]*\.example>$')

# Domains that are not public: reserved for examples and tests (RFC 2606,
# RFC 6761), for local networks (RFC 6762 .local, RFC 8375 home.arpa,
# ICANN's .internal) or in common private use.
RESERVED_TLDS = ('example', 'invalid', 'test', 'localhost', 'local', 'internal',
                 'localdomain', 'lan', 'home', 'corp', 'intranet', 'private')
RESERVED_DOMAINS = ('example.com', 'example.net', 'example.org', 'home.arpa')

# Patches 1-2 of the ARM series (mainline and its backports) are Karl
# Mehltretter's change: their subjects are his. A directory holding one
# of them cannot be sent without his identity.
KARL = 'Karl Mehltretter'
KARL_SUBJECTS = ('ARM: dma-mapping: preserve DMA_FROM_DEVICE buffer contents',
                 'ARM: dma-mapping: flush FROM_DEVICE buffers on legacy backends')
KARL_WHERE = ('his identity is the From: line of his posting of 10 Sep 2026 to '
              'linux-arm-kernel@lists.infradead.org (the two-patch series, '
              'https://lore.kernel.org/linux-arm-kernel/ has it); this repository '
              'knows no address for him')

# What git's user.name holds when nobody set a person's name: the
# account names of installers, containers and CI runners.
ACCOUNTS = ('root', 'admin', 'administrator', 'user', 'nobody', 'ubuntu', 'debian', 'pi',
            'build', 'builder', 'git', 'jenkins', 'runner', 'ci', 'test', 'localhost')

def die(msg):
    print(f'send_ready: {msg}', file=sys.stderr)
    sys.exit(1)


def git_config(key):
    r = subprocess.run(['git', 'config', '--get', key], stdout=subprocess.PIPE,
                       stderr=subprocess.DEVNULL, text=True, check=False)
    return r.stdout.strip()


def split_ident(ident):
    """(NAME, EMAIL) of 'NAME <EMAIL>', or None."""
    m = re.fullmatch(r'\s*([^<>]*\S)\s*<([^<>\s]+)>\s*', ident or '')
    return m and (m.group(1), m.group(2))


def identity_problem(name, email, allowed=()):
    """Why NAME <EMAIL> cannot sign or author a patch, or None. ALLOWED:
    identities accepted anyway (only the check passes any)."""
    if not name or not email:
        return 'git config user.name and user.email are not both set'
    ident = f'{name} <{email}>'
    if ident in allowed:
        return None
    if re.search(r'[<>@"\n]', name):
        return (f'"{name}" is not a name: a name has no <, >, @ or quotes '
                '(git config user.name is the name alone, user.email the address)')
    if name.strip().lower() in ACCOUNTS:
        return (f'"{name}" is an account\'s name, not a person\'s: a Signed-off-by: '
                'names the person who certifies the patch (git config user.name)')
    if PLACEHOLDER.match(ident):
        return f'"{ident}" is the repository\'s placeholder, not a person'
    m = re.fullmatch(r'[^@\s<>]+@([A-Za-z0-9.-]+)', email)
    if not m:
        return f'"{email}" is not an e-mail address'
    domain = m.group(1).lower().rstrip('.')
    labels = domain.split('.')
    if len(labels) < 2 or '' in labels:
        return f'"{email}": "{domain}" is no public domain (no dot): replies would not reach you'
    if labels[-1].isdigit():
        return f'"{email}": an IP address is no public domain'
    if labels[-1] in RESERVED_TLDS or any(domain == d or domain.endswith('.' + d)
                                          for d in RESERVED_DOMAINS):
        return (f'"{email}" is in a domain reserved for examples, tests or local '
                'networks, not a public one')
    if 'noreply' in email.lower() or 'no-reply' in email.lower():
        return f'"{email}" is a no-reply address: replies and review would not reach you'
    return None


def nobody(ident):
    """True for an identity no person gave (the placeholder, or any at a
    domain that is not public): the committed patches' From: and
    sign-offs of this kind are replaced."""
    parts = split_ident(ident)
    return not parts or identity_problem(*parts) is not None


def sender(allowed=()):
    """The sender, 'NAME <EMAIL>' from git's configuration; dies if it
    cannot sign."""
    name, email = git_config('user.name'), git_config('user.email')
    why = identity_problem(name, email, allowed)
    if why:
        die(f'refusing to make a send-ready series: {why}')
    return f'{name} <{email}>'


def karl(author, allowed=()):
    """--author checked: Karl Mehltretter's identity at a public address."""
    parts = split_ident(author)
    if not parts:
        die(f'--author {author!r}: not "NAME <EMAIL>"; {KARL_WHERE}')
    if parts[0] != KARL:
        die(f'--author {author!r}: the carried patches are {KARL}\'s; {KARL_WHERE}')
    why = identity_problem(*parts, allowed)
    if why:
        die(f'refusing the author: {why}; {KARL_WHERE}')
    return f'{parts[0]} <{parts[1]}>'



def recipient(addr, allowed=()):
    """--cc checked: 'NAME <EMAIL>' of a person, or a bare list address,
    at a public domain."""
    parts = split_ident(addr) or (re.fullmatch(r'\s*([^<>\s]+@[^<>\s]+)\s*', addr or '') and
                                  ('list', addr.strip()))
    if not parts:
        die(f'--cc {addr!r}: not "NAME <EMAIL>" or an address')
    why = identity_problem(*parts, allowed)
    if why:
        die(f'--cc {addr!r}: {why}')
    return addr.strip() if parts[0] == 'list' else f'{parts[0]} <{parts[1]}>'
