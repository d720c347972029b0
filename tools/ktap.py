# SPDX-License-Identifier: GPL-2.0
"""KTAP output for the Python checks in tools/, as tools/lib.sh's for shell."""


def report(tests):
    """Print (ok, name, diagnostic) tuples as KTAP and the closing line.

    Returns the exit status: 0 if every test passed, else 1.
    """
    print('KTAP version 1')
    print(f'1..{len(tests)}')
    passed = 0
    for i, (ok, name, why) in enumerate(tests, 1):
        print(f'# {why}')
        print(f'{"ok" if ok else "not ok"} {i} {name}')
        passed += ok
    print(f'{passed} passed, {len(tests) - passed} failed, 0 skipped')
    return 0 if passed == len(tests) else 1
