#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""fit.py: testbed/layouts/study's analysis of one guest's lines.

    fit.py LOG

Per case (seeded layout or ASLR run): ops/s, the module's mean instructions
per mmap and per munmap, and the two counts the layout decides for a
munmap of the workload's 128 MiB range (mmap1): PTEs (entries of the range
in the 2 MiB block it shares with the pages above it) and PMDs (entries of
the range inside the 1 GiB region holding those pages).  Then a least-squares
fit over the seeded layouts
    munmap = c0 + c_pte * PTEs + c_pmd * PMDs
and, per group, the mean of mmap, of munmap's residual against that fit and
of ops/s.  Standard library only.
"""
import json
import re
import statistics
import sys

PAGE, PMD, PUD = 4096, 2 << 20, 1 << 30
RANGE = 128 << 20
# The range ends where the pages above it begin: the counters page (one)
# and vvar (four) below the vDSO, as mseal-bench maps them (x86_64, 6.12).
ABOVE = 5 * PAGE


def counts(vdso):
    top = vdso - ABOVE
    ptes = (top % PMD) // PAGE
    low = max(top - RANGE, (top - 1) & ~(PUD - 1))
    pmds = ((top - 1) >> 21) - (low >> 21) + 1
    return ptes, pmds


def solve(rows):
    """Least squares for y = c0 + c1 x1 + c2 x2 (normal equations)."""
    x = [[1.0, a, b] for a, b, _ in rows]
    y = [r[2] for r in rows]
    a = [[sum(x[i][r] * x[i][c] for i in range(len(x))) for c in range(3)] for r in range(3)]
    v = [sum(x[i][r] * y[i] for i in range(len(x))) for r in range(3)]
    for i in range(3):
        for j in range(i + 1, 3):
            f = a[j][i] / a[i][i]
            a[j] = [a[j][k] - f * a[i][k] for k in range(3)]
            v[j] -= f * v[i]
    c = [0.0] * 3
    for i in reversed(range(3)):
        c[i] = (v[i] - sum(a[i][k] * c[k] for k in range(i + 1, 3))) / a[i][i]
    return c


def main():
    cases, order = {}, []
    for line in open(sys.argv[1], errors="replace"):
        m = re.match(r"@@L (\S+) vdso=(\w+) (\{.*\})", line)
        if m:
            cases[m.group(1)] = {"vdso": int(m.group(2), 16), "ops": json.loads(m.group(3))["median"]}
            order.append(m.group(1))
        m = re.match(r"@@J (\S+) (\{.*\})", line)
        if m and m.group(1) in cases:
            s = json.loads(m.group(2))["syscalls"]
            c = cases[m.group(1)]
            for sc in ("mmap", "munmap"):
                c[sc] = s[sc]["ns"]["total"] / max(1, s[sc]["count"])
    if not order:
        sys.exit("fit.py: no @@L lines in %s" % sys.argv[1])
    for c in cases.values():
        c["ptes"], c["pmds"] = counts(c["vdso"])
    seeded = [cases[k] for k in order if k.startswith("seeded-")]
    c0, cpte, cpmd = solve([(c["ptes"], c["pmds"], c["munmap"]) for c in seeded])
    print("munmap = %.0f + %.2f * PTEs + %.1f * PMDs (least squares over %d seeded layouts)"
          % (c0, cpte, cpmd, len(seeded)))
    print("%-12s %14s %7s %6s %6s %7s %7s %7s" % ("case", "vdso", "ops/s", "PTEs", "PMDs", "mmap", "munmap", "resid"))
    for k in order:
        c = cases[k]
        c["resid"] = c["munmap"] - (c0 + cpte * c["ptes"] + cpmd * c["pmds"])
        print("%-12s %14x %7.0f %6d %6d %7.0f %7.0f %7.0f"
              % (k, c["vdso"], c["ops"], c["ptes"], c["pmds"], c["mmap"], c["munmap"], c["resid"]))
    print("%-12s %5s %9s %9s %9s %12s %9s" % ("group", "runs", "ops/s", "ops CV%", "mmap", "munmap resid", "resid sd"))
    for g in ("seeded", "aslr2", "aslr1"):
        cs = [cases[k] for k in order if k.startswith(g + "-")]
        if len(cs) < 2:
            continue
        ops = [c["ops"] for c in cs]
        print("%-12s %5d %9.0f %9.1f %9.0f %12.0f %9.0f"
              % (g, len(cs), statistics.mean(ops), 100 * statistics.stdev(ops) / statistics.mean(ops),
                 statistics.mean(c["mmap"] for c in cs), statistics.mean(c["resid"] for c in cs),
                 statistics.stdev(c["resid"] for c in cs)))


if __name__ == "__main__":
    main()
