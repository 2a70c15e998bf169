#!/usr/bin/env python3
"""Writes relabellings of one square-box puzzle: the same puzzle to a solver up to variable order.

usage: scripts/relabel.py FILE COUNT SEED OUTDIR

FILE holds one N x N puzzle (N a square) as N lines of N whitespace-separated tokens, `.` or `0`
blank (the rkkautsar files). Each copy relabels the digits, permutes the rows within each band and
the bands among themselves, the same for columns and stacks, and transposes half the time; written
as OUTDIR/<name>-SEED-K.txt in the same layout. A solver's time on the copies shows how much of a
figure on the original is its luck with one variable order (BENCHMARKS, 64x64-rkkautsar-1).
"""
import os
import random
import sys


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__.strip().splitlines()[2])
    src, count, seed, outdir = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    tokens = open(src).read().split()
    n = round(len(tokens) ** 0.5)
    b = round(n ** 0.5)
    if n * n != len(tokens) or b * b != n:
        sys.exit(f"{src}: {len(tokens)} tokens are not one N x N grid with square boxes")
    grid = [[0 if t in (".", "0") else int(t) for t in tokens[r * n:(r + 1) * n]] for r in range(n)]
    rng = random.Random(seed)
    name = os.path.splitext(os.path.basename(src))[0]
    os.makedirs(outdir, exist_ok=True)

    def lines():
        bands = list(range(b))
        rng.shuffle(bands)
        order = []
        for band in bands:
            rows = list(range(b))
            rng.shuffle(rows)
            order += [band * b + r for r in rows]
        return order

    for k in range(count):
        digits = list(range(1, n + 1))
        rng.shuffle(digits)
        rows, cols = lines(), lines()
        out = [[grid[rows[r]][cols[c]] for c in range(n)] for r in range(n)]
        if rng.random() < 0.5:
            out = [list(x) for x in zip(*out)]
        width = len(str(n))
        path = os.path.join(outdir, f"{name}-{seed}-{k}.txt")
        with open(path, "w") as f:
            for row in out:
                f.write(" ".join(("." if v == 0 else str(digits[v - 1])).rjust(width) for v in row) + "\n")
        print(path)


if __name__ == "__main__":
    main()
