#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Read the inner/outer cache maintenance order of a DMA_FROM_DEVICE map
and unmap from arch/arm/mm/dma-mapping.c.

    dmaseq.py TREE [--dir DMA_FROM_DEVICE] [--file dma-mapping-nommu.c]

prints

    map inner,outer_inv
    unmap outer_inv,inner

for __dma_page_cpu_to_dev() and __dma_page_dev_to_cpu() (before 6.14;
arch_sync_dma_for_device() and arch_sync_dma_for_cpu() since, which
take a physical address): their statements in order, with each `if` on the direction evaluated for the
direction asked. "inner" is dma_cache_maint_page(..., dmac_map_area or
dmac_unmap_area), or dmac_map_area()/dmac_unmap_area() called directly
(dma-mapping-nommu.c, --file), "outer_*" the outer_*_range() calls. cachemodel
--outer runs these steps with the compiled backend and cache-l2x0.o, so
a change of the order or of an outer operation in the source is what
the model runs. A condition that depends on anything but the direction
around a maintenance call, or a loop around one, is an error.
"""

import re
import sys

DIRS = {'DMA_BIDIRECTIONAL': 0, 'DMA_TO_DEVICE': 1, 'DMA_FROM_DEVICE': 2,
        'DMA_NONE': 3}
OUTER = {'outer_inv_range': 'outer_inv', 'outer_clean_range': 'outer_clean',
         'outer_flush_range': 'outer_flush'}
FUNCS = (('map', ('__dma_page_cpu_to_dev', 'arch_sync_dma_for_device'),
         'dmac_map_area'),
         ('unmap', ('__dma_page_dev_to_cpu', 'arch_sync_dma_for_cpu'),
          'dmac_unmap_area'))
TOKEN = re.compile(r'\s*(&&|\|\||==|!=|>=|<=|->|[A-Za-z_]\w*|\d\w*|\S)')


class SeqError(Exception):
    pass


def body(src, names):
    """The body of the first of NAMES that SRC defines."""
    for name in names:
        m = re.search(r'^(static )?void ' + re.escape(name) +
                      r'\([^)]*\)\s*\{', src, re.M)
        if m:
            break
    else:
        raise SeqError(f'none of {", ".join(names)} found')
    depth, i = 1, m.end()
    while depth:
        if i >= len(src):
            raise SeqError(f'{name}(): unbalanced braces')
        depth += {'{': 1, '}': -1}.get(src[i], 0)
        i += 1
    return src[m.end():i - 1]


def tokens(text):
    text = re.sub(r'/\*.*?\*/', ' ', text, flags=re.S)
    text = re.sub(r'//[^\n]*', ' ', text)
    return TOKEN.findall(text)


def balanced(toks, i, open_, close):
    """index after the token closing toks[i] (== open_)"""
    depth = 0
    for j in range(i, len(toks)):
        if toks[j] == open_:
            depth += 1
        elif toks[j] == close:
            depth -= 1
            if not depth:
                return j + 1
    raise SeqError('unbalanced ' + open_)


def steps_of(toks, area):
    out = []
    for j, t in enumerate(toks):
        if t in OUTER and j + 1 < len(toks) and toks[j + 1] == '(':
            out.append(OUTER[t])
        elif t == 'dma_cache_maint_page':
            end = balanced(toks, j + 1, '(', ')')
            args = toks[j + 1:end]
            if area not in args:
                raise SeqError(f'dma_cache_maint_page() without {area}')
            out.append('inner')
        elif t == area and j + 1 < len(toks) and toks[j + 1] == '(':
            out.append('inner')
    return out


def cond_value(toks, d):
    py = []
    for t in toks:
        if t == 'dir':
            py.append(str(DIRS[d]))
        elif t in DIRS:
            py.append(str(DIRS[t]))
        elif t == '&&':
            py.append(' and ')
        elif t == '||':
            py.append(' or ')
        elif t == '!':
            py.append(' not ')
        elif t in ('==', '!=', '(', ')'):
            py.append(t)
        else:
            return None
    return bool(eval(''.join(py), {}, {}))


def run(toks, i, area, d, out):
    """execute the statement at toks[i]; return the index after it"""
    t = toks[i]
    if t == '{':
        end = balanced(toks, i, '{', '}')
        j = i + 1
        while j < end - 1:
            j = run(toks, j, area, d, out)
        return end
    if t == 'if':
        cend = balanced(toks, i + 1, '(', ')')
        cond = toks[i + 2:cend - 1]
        sub_then = []
        tend = run(toks, cend, area, d, sub_then)
        sub_else, eend = [], tend
        if tend < len(toks) and toks[tend] == 'else':
            eend = run(toks, tend + 1, area, d, sub_else)
        v = cond_value(cond, d)
        if v is None:
            if sub_then or sub_else:
                raise SeqError('a condition other than the direction '
                               'decides a maintenance call: '
                               + ' '.join(cond))
            return eend
        out.extend(sub_then if v else sub_else)
        return eend
    if t in ('for', 'while', 'do', 'switch'):
        hend = balanced(toks, i + 1, '(', ')') if t != 'do' else i + 1
        sub = []
        end = run(toks, hend, area, d, sub)
        if t == 'do':
            end = balanced(toks, end + 1, '(', ')') + 1
        if sub:
            raise SeqError(f'a maintenance call inside {t}')
        return end
    j = i
    depth = 0
    while j < len(toks) and not (toks[j] == ';' and depth == 0):
        depth += {'(': 1, ')': -1, '{': 1, '}': -1}.get(toks[j], 0)
        j += 1
    out.extend(steps_of(toks[i:j], area))
    return j + 1


def sequences(path, d='DMA_FROM_DEVICE'):
    src = open(path, encoding='utf-8').read()
    res = {}
    for key, fn, area in FUNCS:
        toks = ['{'] + tokens(body(src, fn)) + ['}']
        out = []
        run(toks, 0, area, d, out)
        res[key] = out
    return res


def main():
    args, opts = sys.argv[1:], {'--dir': 'DMA_FROM_DEVICE', '--file': 'dma-mapping.c'}
    if not args or len(args) % 2 == 0:
        sys.exit('usage: dmaseq.py TREE [--dir DMA_FROM_DEVICE] [--file dma-mapping.c]')
    for k, v in zip(args[1::2], args[2::2]):
        if k not in opts:
            sys.exit(f'dmaseq.py: unknown option {k}')
        opts[k] = v
    try:
        res = sequences(f'{args[0]}/arch/arm/mm/{opts["--file"]}', opts['--dir'])
    except (SeqError, OSError) as e:
        sys.exit(f'dmaseq.py: {e}')
    for key in ('map', 'unmap'):
        if not res[key]:
            sys.exit(f'dmaseq.py: no maintenance in the {key} path')
        print(key, ','.join(res[key]))


if __name__ == '__main__':
    main()
