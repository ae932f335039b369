#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""draw-mean.py: how far a set of seeded layouts puts mmap1's mean from
ASLR's, by the page-table model of docs/comparison.md.

    draw-mean.py [STUDY]        (default docs/results/layouts/study.txt)

From the study's seeded rows on src-preseries, a least-squares fit of
1 / ops/s on the PTEs and PMD entries each layout decides (fit.py's
counts), then the model's mean ops/s over:
  - ASLR's expectation: every place of the mmap area's top in a 1 GiB
    region, alike (mmap_rnd_bits 28, x86_64, 4 KiB pages);
  - make demo's mmap1 layouts (boot k of 5 runs 64 k + 1 .. + 32) as
    mseal-bench draws them (scripts/mseal-bench/layout_draw.c, whose
    pinned values this checks first);
  - the same layouts drawn from splitmix64 alone;
  - 160 independent draws: the mean absolute miss over 400 trials.
Prints each against the expectation.  Standard library only.
"""
import random
import sys

from fit import PAGE, counts, solve

M64 = (1 << 64) - 1
ALPHA_PLACE, ALPHA_BLOCK = 0x9E3779B97F4A7C15, 0x7311C2812425CFA0
BITS = 28
# mmap_base's page with rnd 0 (47-bit task size, 8 MiB stack limit, ASLR's
# 16 GiB of stack room and the 1 MiB guard gap), and the vDSO two pages below.
BASE0 = 0x7FFFFFFFF - 2048 - 0x3FFFFF - 256
VDSO_BELOW_BASE = 2


def splitmix64(x):
    x = (x + 0x9E3779B97F4A7C15) & M64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & M64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & M64
    return x ^ (x >> 31)


def draw(n, bits=BITS, table=9):
    """layout_draw.c's bench_layout_rnd_pages(), 4 KiB pages."""
    place = min(bits, table)
    block = min(bits - place, table)
    high = splitmix64(n) & ((1 << (bits - place - block)) - 1)
    kr = lambda a, b: ((n * a) & M64) >> (64 - b) if b else 0
    return high << (place + block) | kr(ALPHA_BLOCK, block) << place | kr(ALPHA_PLACE, place)


def counts_of(rnd):
    """PTEs and PMD entries of mmap1's range for this rnd (fit.py's counts)."""
    return counts((BASE0 - rnd - VDSO_BELOW_BASE) * PAGE)


def main():
    study = sys.argv[1] if len(sys.argv) > 1 else "docs/results/layouts/study.txt"
    if (draw(1), draw(7)) != (50711868, 123507879):
        sys.exit("draw-mean.py: the draw here is not layout_draw.c's (pinned values differ)")
    rows, kernel = [], None
    for line in open(study):
        if line.startswith("=="):
            kernel = line.split()[1]
        f = line.split()
        if kernel == "src-preseries" and f and f[0].startswith("seeded-"):
            rows.append((int(f[3]), int(f[4]), int(f[2])))
    c = solve([(p, m, 1.0 / o) for p, m, o in rows])
    ops = lambda rnd: 1.0 / (c[0] + c[1] * counts_of(rnd)[0] + c[2] * counts_of(rnd)[1])
    worst = max(abs(1.0 / (c[0] + c[1] * p + c[2] * m) / o - 1) for p, m, o in rows)
    expect = sum(ops(r) for r in range(1 << 18)) / (1 << 18)
    demo = [64 * k + i for k in range(5) for i in range(1, 33)]
    mean = lambda rs: sum(ops(r) for r in rs) / len(rs)
    random.seed(1)
    misses = [abs(mean([random.getrandbits(BITS) for _ in demo]) / expect - 1) for _ in range(400)]
    print(f"model: 1/ops = {c[0]:.4g} + {c[1]:.4g} PTEs + {c[2]:.4g} PMDs, "
          f"largest miss on the {len(rows)} seeded rows {100 * worst:.2f} %")
    print(f"ASLR's expectation: {expect:.0f} ops/s")
    for name, rs in (("make demo's 160 mmap1 layouts, layout_draw.c", [draw(n) for n in demo]),
                     ("the same 160 from splitmix64 alone", [splitmix64(n) & ((1 << BITS) - 1) for n in demo])):
        m = mean(rs)
        print(f"{name}: {m:.0f} ops/s, {100 * (m / expect - 1):+.2f} %")
    print(f"160 independent draws: {100 * sum(misses) / len(misses):.2f} % off on average (400 trials)")


if __name__ == "__main__":
    main()
