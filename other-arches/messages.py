#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""No paragraph of the series' commit messages repeated in another patch.

    messages.py PATCH...

Reads each patch's message (from its subject to the "---" line, without
its trailers), and prints "pass messages_no_text_repeated", or "fail
..." with "# " lines naming each run of RUN words or more that two
patches share: what is said for every architecture belongs once in the
cover letter, and each patch says what is particular to its own.
"""

import re
import sys

RUN = 20
TRAILER = re.compile(r'^(Fixes|Cc|Link|Assisted-by|Signed-off-by|Reported-by|Tested-by): ')


def words(path):
    """The words of the message of PATH after its subject, trailers left out."""
    text = open(path, errors='replace').read()
    head, _, _ = text.partition('\n---\n')
    body = head.split('\n\n', 1)[1] if '\n\n' in head else ''
    return ' '.join(l for l in body.split('\n') if not TRAILER.match(l)).split()


def main():
    seen, shared = {}, {}
    for path in sys.argv[1:]:
        name = re.sub(r'.*/(\d+)-.*', r'\1', path)
        w = words(path)
        for i in range(len(w) - RUN + 1):
            run = ' '.join(w[i:i + RUN])
            other = seen.setdefault(run, name)
            if other != name:
                shared.setdefault((other, name), run)
    for (a, b), run in sorted(shared.items()):
        print(f'# patches {a} and {b} share: "{run} ..."')
    print(f'{"fail" if shared else "pass"} messages_no_text_repeated')
    return 0


if __name__ == '__main__':
    sys.exit(main())
