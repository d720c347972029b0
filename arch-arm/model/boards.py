#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The boards' mapping-only test next to the cache model, for model.md.

The reported runs wrote 100 buffers of 4,096 bytes (409,600 bytes), each
mapped DMA_FROM_DEVICE and unmapped with no device transfer, and counted
the bytes that changed. The model runs the same (scenario boards100) on
the backend each board's CPU uses. Prints a Markdown section.

    boards.py RESULTS BASE

RESULTS: tools/model's result lines, "TREE BACKEND CONFIG SCENARIO k=v...".
The board figures are the report's (../shared/CONTEXT.md), kept only here.
"""

import sys

TOTAL = 409600

# CPU, backend, configuration, reported base, reported with the fix, reading
BOARDS = [
    ("ARM11 MPCore (ARMv6, UP kernel)", "v6", "omap2plus",
     "lost 402,080 of 409,600 (98 %)",
     "none lost with the v6 fix (no run count given)",
     "The model's cache has no capacity, so every line the CPU wrote is "
     "still dirty at map and all of it is lost; the board lost 7,520 bytes "
     "fewer. Explaining that would take the core's finite geometry with "
     "natural eviction, what the board's test ran between the writes and "
     "the map, and any outer cache (none of which is modelled here). "
     "Where omap2plus sets CONFIG_DMA_CACHE_RWFO (6.1), the modelled v6 "
     "code is that SMP variant, not the UP kernel's."),
    ("ARM926EJ-S (ARMv5TEJ, SAM9X75)", "arm926", "v4v5wb",
     "eleven runs lost 339,936 to 351,744 of 409,600 (83-86 %)",
     "five 100-iteration runs each lost 0 of 409,600",
     "The model allocates a line on every write; issue 12 notes that the "
     "ARM926EJ-S allocates on reads only, where a write that misses goes "
     "to memory and cannot be lost. Explaining 83-86 % would take the "
     "core's set-associative geometry with read allocation and which lines "
     "the test had cached "
     "before writing. With the series both show 0."),
    ("Cortex-A72 (AArch32, LPAE)", "v7", "omap2plus",
     "no loss in 22 runs of the existing kernel",
     "not reported",
     "Disagrees: the model discards a dirty line on an invalidate, as the "
     "architecture allows, so the base loses everything. The reviewers "
     "noted that many Arm CPUs upgrade invalidate to clean+invalidate; a "
     "core that did would lose nothing. The model does not model that "
     "(its v7 core is Unicorn's Cortex-A15), so a board without loss does "
     "not show other v7 cores are safe, and the model's loss does not show "
     "this one loses."),
]


def results(path):
    out = {}
    for line in open(path, encoding="utf-8"):
        f = line.split()
        if len(f) < 5:
            continue
        kv = dict(x.split("=", 1) for x in f[4:] if "=" in x)
        out[tuple(f[:4])] = kv
    return out


def lost(res, tree, backend, cfg):
    r = res.get((tree, backend, cfg, "boards100"))
    if not r or "lost" not in r:
        sys.exit("boards.py: no boards100 result for %s %s %s" %
                 (tree, backend, cfg))
    n = int(r["lost"])
    return "%s of %s (%d %%)" % (format(n, ","), format(TOTAL, ","),
                                 round(100 * n / TOTAL))


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: boards.py RESULTS BASE")
    res, base = results(sys.argv[1]), sys.argv[2]
    print("## The boards' test")
    print()
    print("100 buffers of 4,096 bytes, each written by the CPU, mapped")
    print("DMA_FROM_DEVICE and unmapped with no device write (scenario")
    print("`boards100`); bytes changed, model (%s) next to what the board" % base)
    print("owners reported in the review thread of this series (quoted as they")
    print("gave them; none of these boards was measured here).")
    print()
    print("| CPU | model backend / config | model, base | model, patched "
          "| reported, base | reported, with the fix |")
    print("| --- | --- | ---: | ---: | --- | --- |")
    for cpu, b, cfg, rep, repfix, _ in BOARDS:
        print("| %s | %s / %s | %s | %s | %s | %s |" %
              (cpu, b, cfg, lost(res, "base", b, cfg),
               lost(res, "patched", b, cfg), rep, repfix))
    print()
    for cpu, _, _, _, _, reading in BOARDS:
        print("- %s: %s" % (cpu, reading))


if __name__ == "__main__":
    main()
