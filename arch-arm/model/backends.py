#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The 32-bit ARM cache backends of a kernel tree, for arch-arm/model/run.

Prints one line per struct cpu_cache_fns table: its name, the routine
its dma_map_area and dma_unmap_area slots call, and the preprocessor
condition (or Kconfig option) that builds it.

Since 6.6 the tables are C initialisers in arch/arm/mm/cache.c. Before,
each backend's .S file expands the assembler macro define_cache_functions
NAME (proc-macros.S), whose slots are NAME_dma_map_area and
NAME_dma_unmap_area; those may be aliases (.equ, globl_equ, or an alias
macro such as proc-feroceon.S's range_alias), resolved here to the
routine they name, as cache.c spells it.

    backends.py TREE
"""

import os
import re
import sys

MM = "arch/arm/mm"


def from_cache_c(path):
    """Tables of 6.6+ arch/arm/mm/cache.c."""
    out, guard, name, slots = [], "", None, {}
    for line in open(path, encoding="utf-8"):
        m = re.match(r"#\s*if(?:def)?\s+(.*)", line)
        if m:
            guard = m.group(1).strip()
        m = re.match(r"struct cpu_cache_fns (\w+)_cache_fns", line)
        if m:
            name, slots = m.group(1), {}
        m = re.search(r"\.(dma_map_area|dma_unmap_area)\s*=\s*(\w+)", line)
        if m and name:
            slots[m.group(1)] = m.group(2)
        if line.startswith("};") and name:
            out.append((name, slots.get("dma_map_area", "?"),
                        slots.get("dma_unmap_area", "?"), guard))
            name = None
    return out


def aliases(text):
    """SYMBOL -> TARGET for .equ/.set/globl_equ and alias macros."""
    equ = {}
    for m in re.finditer(r"^\s*(?:\.equ|\.set|globl_equ)\s+(\w+)\s*,\s*(\w+)",
                         text, re.M):
        equ[m.group(1)] = m.group(2)
    # .macro NAME ARG ... .equ P_\ARG , Q_\ARG ... .endm, then NAME x
    for m in re.finditer(r"^\s*\.macro\s+(\w+)\s+(\w+)(.*?)^\s*\.endm",
                         text, re.M | re.S):
        mac, arg, body = m.groups()
        e = re.search(r"\.equ\s+(\w*)\\%s\s*,\s*(\w*)\\%s" % (arg, arg), body)
        if not e:
            continue
        for c in re.finditer(r"^\s*%s\s+(\w+)\s*$" % mac, text, re.M):
            equ[e.group(1) + c.group(1)] = e.group(2) + c.group(1)
    return equ


def resolve(sym, equ, slot):
    """Follow aliases while they name another routine of the same slot."""
    seen = set()
    while sym in equ and equ[sym].endswith(slot) and sym not in seen:
        seen.add(sym)
        sym = equ[sym]
    return sym


def from_macros(tree):
    """Tables of define_cache_functions (before 6.6)."""
    mk = open(os.path.join(tree, MM, "Makefile"), encoding="utf-8").read()
    obj_cfg = dict((o, c) for c, o in
                   re.findall(r"obj-\$\((CONFIG_\w+)\)\s*\+=\s*(\S+)\.o", mk))
    out = []
    for f in sorted(os.listdir(os.path.join(tree, MM))):
        if not f.endswith(".S") or f == "proc-macros.S":
            continue
        text = open(os.path.join(tree, MM, f), encoding="utf-8").read()
        equ = aliases(text)
        guards = []
        for line in text.splitlines():
            m = re.match(r"#\s*(if|ifdef|ifndef|else|endif)\b\s*(.*)", line)
            if m:
                if m.group(1) in ("if", "ifdef"):
                    guards.append(m.group(2).strip())
                elif m.group(1) == "ifndef":
                    guards.append("!" + m.group(2).strip())
                elif m.group(1) == "else" and guards:
                    guards[-1] = "!(%s)" % guards[-1]
                elif m.group(1) == "endif" and guards:
                    guards.pop()
                continue
            m = re.match(r"\s*define_cache_functions\s+(\w+)", line)
            if not m:
                continue
            name = m.group(1)
            cfg = obj_cfg.get(f[:-2], "?")
            guard = " && ".join([cfg] + [g for g in guards if g != cfg])
            out.append((name,
                        resolve(name + "_dma_map_area", equ, "_dma_map_area"),
                        resolve(name + "_dma_unmap_area", equ, "_dma_unmap_area"),
                        guard))
    return out


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: backends.py TREE")
    tree = sys.argv[1]
    cache_c = os.path.join(tree, MM, "cache.c")
    tables = from_cache_c(cache_c) if os.path.exists(cache_c) else from_macros(tree)
    if not tables:
        sys.exit("backends.py: no cpu_cache_fns tables in %s" % tree)
    for t in tables:
        print(" ".join(t))


if __name__ == "__main__":
    main()
