#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The board owner's recipe of Documentation/board.md, for kunit/module-run.

  board.py config PAGE       the settings of the recipe's scripts/config
                             line, one CONFIG_NAME=y|m|n a line
  board.py args PAGE         that line's arguments, word for word, one a
                             line
  board.py commands PAGE     the commands run on the board, one a line,
                             word for word (the lines after the
                             "# on the board" comment)
  board.py results LOG OUT   the file the recipe's cat printed on the
                             console LOG (between "recipe: begin" and
                             "recipe: end"), written to OUT; fails when
                             the recipe reported an error or printed none

The recipe is the indented block between "<!-- board recipe -->" and
"<!-- end board recipe -->".
"""

import sys

BEGIN, END = '<!-- board recipe -->', '<!-- end board recipe -->'
BOARD = '# on the board'
SETTING = {'-e': 'y', '-m': 'm', '-d': 'n'}


def die(msg):
    sys.exit(f'board.py: {msg}')


def recipe(path):
    with open(path, encoding='utf-8') as f:
        lines = f.read().splitlines()
    try:
        block = lines[lines.index(BEGIN) + 1:lines.index(END)]
    except ValueError:
        die(f'{path}: no "{BEGIN}" ... "{END}" block')
    return [line[4:] for line in block if line.startswith('    ')]


def config_args(path):
    for line in recipe(path):
        words = line.split('#')[0].split()
        if words[:1] != ['./scripts/config']:
            continue
        if len(words) % 2 != 1:
            die(f'{path}: cannot read "{line}"')
        for opt in words[1::2]:
            if opt not in SETTING:
                die(f'{path}: scripts/config option {opt} is not -e, -m or -d')
        return words[1:]
    die(f'{path}: the recipe has no ./scripts/config line')


def config(path):
    words = config_args(path)
    for opt, name in zip(words[0::2], words[1::2]):
        print(f'CONFIG_{name}={SETTING[opt]}')


def commands(path):
    lines = recipe(path)
    starts = [i for i, line in enumerate(lines) if line.startswith(BOARD)]
    if not starts or starts[0] + 1 == len(lines):
        die(f'{path}: the recipe has no "{BOARD}" line followed by commands')
    for line in lines[starts[0] + 1:]:
        print(line)


def results(log, out):
    with open(log, encoding='utf-8', errors='replace') as f:
        lines = [line.rstrip('\r\n') for line in f]
    errors = [line for line in lines if line.startswith('recipe: error')]
    for line in errors:
        print(f'# {line}')
    begin = [i for i, line in enumerate(lines) if line.startswith('recipe: begin ')]
    end = [i for i, line in enumerate(lines) if line.startswith('recipe: end ')]
    if errors or not begin or not end or end[-1] < begin[-1]:
        die(f'{log}: the recipe printed no results')
    with open(out, 'w', encoding='utf-8') as f:
        f.write('\n'.join(lines[begin[-1] + 1:end[-1]]) + '\n')


def main(argv):
    if len(argv) == 3 and argv[1] == 'config':
        config(argv[2])
    elif len(argv) == 3 and argv[1] == 'args':
        print('\n'.join(config_args(argv[2])))
    elif len(argv) == 3 and argv[1] == 'commands':
        commands(argv[2])
    elif len(argv) == 4 and argv[1] == 'results':
        results(argv[2], argv[3])
    else:
        die('usage: board.py config|args|commands PAGE | results LOG OUT')


if __name__ == '__main__':
    main(sys.argv)
