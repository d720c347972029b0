#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The boards' mapping-only test next to the cache model, for model.md.

The reported runs wrote 100 buffers of 4,096 bytes (409,600 bytes), each
mapped DMA_FROM_DEVICE and unmapped with no device transfer, and counted
the bytes that changed. The model runs the same on the backend and core
each board uses, with that core's finite L1 (arch-arm/model/cache.c):
scenario boards100 with buffers that were not in the cache when the CPU
wrote them, boards100warm with buffers the CPU had read before (every
line cached). A read-allocate cache sends writes that miss to memory, so
the two bracket what a board can lose.

    boards.py --runs            KEY BACKEND CONFIG CACHEMODEL-OPTIONS...
    boards.py --lost            the KEYs of the boards that reported the loss
    boards.py RESULTS BASE      the Markdown section

RESULTS: arch-arm/model/run's result lines, "TREE BACKEND CONFIG SCENARIO k=v...";
the board runs are under backend "board-KEY".
The board figures are the report's (../shared/CONTEXT.md), kept only here.
"""

import sys

TOTAL = 409600

# key, CPU, backend, configuration, cachemodel options, reported base,
# reported with the fix
BOARDS = [
    ("arm11", "ARM11 MPCore (ARMv6, New Nintendo 2DS XL, UP kernel)", "v6",
     "omap2plus", "--core arm11mpcore --alloc read",
     "lost 402,080 of 409,600 (98 %)",
     "none lost with the v6 fix (no run count given)"),
    ("arm926", "ARM926EJ-S (ARMv5TEJ, SAM9X75)", "arm926", "v4v5wb",
     "--core arm926ejs",
     "eleven runs lost 339,936 to 351,744 of 409,600 (83-86 %)",
     "five 100-iteration runs each lost 0 of 409,600"),
    ("a72", "Cortex-A72 (AArch32, LPAE)", "v7", "omap2plus",
     "--core cortex-a72",
     "no loss in 22 runs of the existing kernel", "not reported"),
    ("a72-upgrade", "Cortex-A72, invalidate performed as clean+invalidate",
     "v7", "omap2plus", "--core cortex-a72 --inv-as-flush",
     "(the same board)", "not reported"),
]

# The boards whose owners reported the loss on the existing kernel:
# tools/run's verdict asks the model to lose on their cores too.
REPORTED_LOSS = ("arm11", "arm926")


def results(path):
    out = {}
    for line in open(path, encoding="utf-8"):
        f = line.split()
        if len(f) < 5:
            continue
        kv = dict(x.split("=", 1) for x in f[4:] if "=" in x)
        out[tuple(f[:4])] = kv
    return out


def lost(res, tree, key, cfg, scen):
    r = res.get((tree, "board-" + key, cfg, scen))
    if not r or "lost" not in r:
        sys.exit("boards.py: no %s result for board %s (%s)" %
                 (scen, key, tree))
    return int(r["lost"])


def fmt(n):
    return "%s (%d %%)" % (format(n, ","), round(100 * n / TOTAL))


def reading(key, cold, warm, res, cfg):
    if key == "arm11":
        return ("The board's UP kernel maps memory write-back without "
                "write-allocate (PMD_FLAGS_UP = PMD_SECT_WB in proc-v6.S), so "
                "a write that misses goes to memory: in the model a buffer "
                "not cached when written loses %s, one whose lines were "
                "cached loses %s. The board's 98 %% lies between: most of its "
                "buffers' lines were cached when written. Which ones depends "
                "on what the test read before writing, which the report does "
                "not give. An outer cache (not modelled behind this core) "
                "would not change the cold case: ARMv6 gives the outer level "
                "the same write-back no-write-allocate attributes (TEX 000, "
                "C 1, B 1), so a write that misses the L1 misses it too, "
                "unless the platform's L2 forces write-allocate. With the "
                "fix both are 0, as on the board." % (fmt(cold), fmt(warm)))
    if key == "arm926":
        return ("The ARM926EJ-S allocates on reads only: a buffer not cached "
                "when written loses %s in the model, one whose lines were all "
                "cached loses %s. The board's 83-86 %% lies between, as if "
                "that share of the lines was cached when the test wrote them. "
                "With the series both are 0, as on the board."
                % (fmt(cold), fmt(warm)))
    if key == "a72":
        up = lost(res, "base", "a72-upgrade", cfg, "boards100")
        return ("Write-allocate, and 4 KiB fits the 32 KiB L1, so the model "
                "loses %s when an invalidate discards dirty lines, as the "
                "architecture allows; %s when the core performs the "
                "invalidate as clean+invalidate (the reviewers' point that "
                "many Arm cores do). The board's no loss agrees with the "
                "second; the model does not show which one this core does, "
                "and no loss here does not show other v7 cores are safe."
                % (fmt(cold), fmt(up)))
    sys.exit("boards.py: no reading for board %s" % key)


def main():
    if sys.argv[1:] == ["--runs"]:
        for key, _, b, cfg, opts, _, _ in BOARDS:
            print(key, b, cfg, opts)
        return
    if sys.argv[1:] == ["--lost"]:
        print(" ".join(REPORTED_LOSS))
        return
    if len(sys.argv) != 3:
        sys.exit("usage: boards.py --runs | --lost | RESULTS BASE")
    res, base = results(sys.argv[1]), sys.argv[2]
    print("## The boards' test")
    print()
    print("100 buffers of 4,096 bytes, each written by the CPU, mapped")
    print("DMA_FROM_DEVICE and unmapped with no device write; bytes changed,")
    print("model (%s, the board's core's finite L1: \"Modelled cores\" below)" % base)
    print("next to what the board owners reported in the review thread of")
    print("this series (quoted as they gave them; none of these boards was")
    print("measured here). Cold: the buffers were not in the cache when the")
    print("CPU wrote them (scenario `boards100`); warm: the CPU had read them")
    print("before (`boards100warm`).")
    print()
    print("| CPU | model backend / config, options | model, base, cold | model, base, warm "
          "| model, patched (cold / warm) | reported, base | reported, with the fix |")
    print("| --- | --- | ---: | ---: | ---: | --- | --- |")
    for key, cpu, b, cfg, opts, rep, repfix in BOARDS:
        cold = lost(res, "base", key, cfg, "boards100")
        warm = lost(res, "base", key, cfg, "boards100warm")
        pc = lost(res, "patched", key, cfg, "boards100")
        pw = lost(res, "patched", key, cfg, "boards100warm")
        print("| %s | %s / %s, `%s` | %s | %s | %s / %s | %s | %s |" %
              (cpu, b, cfg, opts, fmt(cold), fmt(warm), format(pc, ","),
               format(pw, ","), rep, repfix))
    print()
    for key, cpu, b, cfg, opts, _, _ in BOARDS:
        if key == "a72-upgrade":
            continue
        cold = lost(res, "base", key, cfg, "boards100")
        warm = lost(res, "base", key, cfg, "boards100warm")
        print("- %s: %s" % (cpu, reading(key, cold, warm, res, cfg)))


if __name__ == "__main__":
    main()
