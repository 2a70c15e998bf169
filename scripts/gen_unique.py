#!/usr/bin/env python3
"""Generates unique puzzles at a chosen fill, as the sudoku_acs sets were made: a random solved grid
(a pattern solution under random relabelling, band/row/stack/column permutations and transposition),
then givens removed in random order while the puzzle stays unique (a removal after which
`satdoku solve --unique` finds two solutions is taken back), until the target fill is reached or no
given can go. Every puzzle printed is unique by satdoku's check and keeps the planted solution.
Puzzles whose removals come to an end above the target fill are printed all the same.

Prints the puzzles in the ints format (N rows of N integers, 0 blank), each after a `# file:` line
naming its seed and fill, so that the file reads like the sudoku_acs sets.

usage: scripts/gen_unique.py [--box 5] [--count 50] [--fill 0.45-0.65] [--seed 1]
                             [--satdoku target/release/satdoku] [--timeout 60]
"""

import argparse
import json
import os
import random
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def solved(box, rng):
    """A random solved grid with box x box boxes: value(r, c) = (box·(r mod box) + r div box + c)
    mod N + 1, then symmetries that keep it valid."""
    n = box * box
    base = [[(box * (r % box) + r // box + c) % n + 1 for c in range(n)] for r in range(n)]
    relabel = list(range(1, n + 1))
    rng.shuffle(relabel)

    def order():
        bands = list(range(box))
        rng.shuffle(bands)
        out = []
        for b in bands:
            inner = list(range(box))
            rng.shuffle(inner)
            out.extend(b * box + i for i in inner)
        return out

    rows, cols = order(), order()
    grid = [[relabel[base[r][c] - 1] for c in cols] for r in rows]
    if rng.random() < 0.5:
        grid = [list(col) for col in zip(*grid)]
    return grid


def text(grid):
    return "\n".join(" ".join(str(v) for v in row) for row in grid) + "\n"


def check(satdoku, grid, timeout):
    """satdoku's answer for one puzzle: (status, [solutions as flat lists])."""
    out = subprocess.run(
        [satdoku, "solve", "--unique", "--output", "json", "-q", "--timeout", str(timeout), "-"],
        input=text(grid), capture_output=True, text=True,
    ).stdout
    record = json.loads(out.splitlines()[0])
    grids = [record["solution"]] if "solution" in record else record.get("solutions", [])
    return record["status"], [list(map(int, g.split())) for g in grids]


def puzzle(box, fill, rng, satdoku, timeout):
    n = box * box
    grid = solved(box, rng)
    cells = list(range(n * n))
    rng.shuffle(cells)
    target = round(fill * n * n)
    given = n * n
    for i in cells:
        if given <= target:
            break
        r, c = divmod(i, n)
        v, grid[r][c] = grid[r][c], 0
        status, _ = check(satdoku, grid, timeout)
        if status == "unique":
            given -= 1
        elif status == "multiple":
            grid[r][c] = v
        else:
            return None
    return grid


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--box", type=int, default=5)
    ap.add_argument("--count", type=int, default=50)
    ap.add_argument("--fill", default="0.45-0.65")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--satdoku", default=os.path.join(ROOT, "target", "release", "satdoku"))
    ap.add_argument("--timeout", type=float, default=60)
    args = ap.parse_args()
    lo, hi = (float(x) for x in args.fill.split("-"))
    made = 0
    k = 0
    while made < args.count:
        seed = args.seed * 1_000_003 + k
        k += 1
        rng = random.Random(seed)
        fill = lo + (hi - lo) * rng.random()
        grid = puzzle(args.box, fill, rng, args.satdoku, args.timeout)
        if grid is None:
            print(f"seed {seed}: not settled within {args.timeout} s, skipped", file=sys.stderr)
            continue
        n = args.box * args.box
        given = sum(v != 0 for row in grid for v in row)
        print(f"# file: gen-{n}x{n}-seed{seed}-fill{round(100 * given / (n * n))}")
        sys.stdout.write(text(grid))
        sys.stdout.flush()
        made += 1


if __name__ == "__main__":
    main()
