#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Make a patch directory ready to mail, in the sender's name.

    tools/series.d/send_ready.py
        [--author 'NAME <EMAIL>' --changes TEXT] [--version N]
        [--in-reply-to MSGID] [--link URL] [--cc 'NAME <EMAIL>']...
        [--upstream K=SHA,...] [--fixes K=SHA,...] [--tree MAINLINE_TREE]
        [--drop-assisted-by] [PATCHDIR] OUTDIR
    tools/series.d/send_ready.py --check PATCHDIR...   its checks, as KTAP

The committed patch files are a reference copy: no person's identity,
no sign-off. This copies PATCHDIR's *.patch files (default: patches/,
the mainline series) to OUTDIR (new, or empty), ready for
`git send-email OUTDIR/*.patch`:

- Only the series meant for mail: patches/, patches/other-arches,
  patches/dma-kasan, patches/stable-6.12 and patches/stable-6.1, known
  by their path from patches/ up. A test series (stable-6.12-tests:
  for neither stable nor mainline) and any other directory are refused
  by name.
- From: is the sender, `git config user.name` and `user.email`, and
  each patch ends with the sender's Signed-off-by:. A sign-off
  certifies the Developer's Certificate of Origin: only the person who
  sends may add it, never a tool on its own
  (Documentation/process/coding-assistants.rst). A sign-off or From:
  that no person gave (the repository's placeholder, or any identity
  at an address that is not public) is dropped or replaced.
- Every committed patch carries "Assisted-by: LLM" (7.3's
  coding-assistants.rst form): the patches were written with an
  assistant. The line stays, moved just above the sender's sign-off; a
  patch without one is refused. --drop-assisted-by removes it, which
  is only true of patches the sender rewrote without an assistant.
- Patches 1-2 of the ARM series (in patches/, found by their
  subjects) are Karl Mehltretter's change carried forward: they are refused without --author, his identity as
  on his posting of 10 Sep 2026 to linux-arm-kernel, and --changes.
  They get his From:, his sign-off, "[SENDER'S NAME: CHANGES]", then
  the sender's sign-off (the kernel's form for carrying a patch,
  Documentation/maintainer/modifying-patches.rst); the other patches
  are the sender's. The cover letter's shortlog names each author for
  his patches and gets him in Cc:.
- The mainline series is the next version of his series: --version N
  is required there ("[PATCH vN k/n]"), and accepted anywhere.
  --in-reply-to MSGID makes the cover letter a reply to his thread
  (In-Reply-To:, References:); --link URL puts "Link: URL" in the
  cover letter, above its trailers; --cc adds the people of his thread
  that get_maintainer.pl does not name to every file.
- To: and Cc: headers on every patch from the diff's
  scripts/get_maintainer.pl: maintainers and reviewers in To:, lists
  in Cc:; the cover letter gets the union. The mainline series' come
  from --tree, a current mainline clone, or without it from the
  mainline base tree (tools/base-tree), never from a stable one (6.12
  names Xiang Chen for dma_map_benchmark, 7.3 Barry Song and Qinxin
  Xia). A stable backport's come from its own base tree, and it goes
  To: stable@vger.kernel.org, with everyone else in Cc:.
- A stable backport (patches with a "commit <to be filled> upstream."
  line) is refused until --upstream gives the mainline commit id of
  each such patch, K=SHA with 40 hex digits, which fills that line.
  The backport then takes that commit's author (From:) and the last
  paragraph of its message as merged (its sign-offs, Karl's and the
  maintainer's among them), followed by the backport's "[ 6.x: ... ]"
  note, its Assisted-by: line and the sender's sign-off, unless the
  sender signed the upstream commit already (stable-kernel-rules.rst);
  --author is refused there. --fixes fills "Fixes: <to be filled>" lines. Both are looked up in
  --tree, a clone of mainline: an upstream id must be a commit there
  with the patch's subject that changes every file the backport
  changes, a Fixes: id one that changes a file the patch changes;
  neither may be the base commit made from Debian's tarball.

It refuses, writing nothing, when the sender's identity is unset, is
the placeholder, is not a person's name (an account's such as root,
or a name holding <, >, @ or quotes), or is at an address without a
public domain (no dot, .local, .internal, home.arpa, the example and
test domains of RFC 2606 and RFC 6761) or a no-reply one; the same for
--author and --cc; and when a patch's author is a person other than
the sender or --author.
"""

import sys

import send_check
import send_make


def main(argv):
    if len(argv) >= 3 and argv[1] == '--check':
        return send_check.check(argv[2:])
    return send_make.main(argv[1:])


if __name__ == '__main__':
    sys.exit(main(sys.argv))
