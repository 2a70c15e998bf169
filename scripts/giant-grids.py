#!/usr/bin/env python3
"""Empty and sparse giant grids: writes them and times `satdoku solve` on each (BENCHMARKS.md, "Empty
and sparse giant grids").

usage: scripts/giant-grids.py [--bin target/release/satdoku] [--work DIR] [--sizes 64,100,400]
                              [--givens 0,1,5] [--seeds 1,2] [--timeout 20] [--before BIN]

For each size N (a square box, or RxC as `8x9`) and share of givens: an empty grid, or a planted one
that keeps that percentage of the cells of a valid solution (the pattern solution, digits relabelled,
rows permuted within bands and bands permuted, the same for columns: `random.Random(seed)`), chosen
by the same seeded RNG. Written as ints (N rows of N integers, 0 blank). Each is solved with default
flags (`solve --timeout T --output json`, plus `--box RxC` when not square) under `/usr/bin/time`;
prints a Markdown table of status, backend, nodes, CPU seconds (user + system) and peak resident MB,
with a column for `--before BIN` (an older binary, side by side in the same run) when given.
"""

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile


def shape(spec):
    """(box rows, box cols) of `64` (8x8) or `8x9`."""
    if "x" in spec:
        r, c = spec.split("x")
        return int(r), int(c)
    n = int(spec)
    b = int(round(n**0.5))
    if b * b != n:
        sys.exit(f"{n} has no square box: write it as RxC")
    return b, b


def planted(r, c, percent, seed):
    """A valid solution with `percent` of its cells kept (0 blank), as rows of ints."""
    n = r * c
    rng = random.Random(seed)
    digits = list(range(1, n + 1))
    rng.shuffle(digits)

    def order(groups, size):
        out = []
        for g in rng.sample(range(groups), groups):
            out += [g * size + k for k in rng.sample(range(size), size)]
        return out

    rows = order(c, r)  # n / r = c bands of r rows
    cols = order(r, c)  # n / c = r stacks of c columns
    keep = set(rng.sample(range(n * n), round(n * n * percent / 100)))

    def value(i, j):
        a, b = rows[i], cols[j]
        return digits[(c * (a % r) + a // r + b) % n]

    return [[value(i, j) if i * n + j in keep else 0 for j in range(n)] for i in range(n)]


def run(binary, path, box, timeout):
    """(status, backend, nodes, cpu seconds, max RSS MB) of one solve."""
    cmd = ["/usr/bin/time", "-f", "%U %S %M", binary, "solve", "--timeout", str(timeout)]
    cmd += ["--output", "json"] + (["--box", box] if box else []) + [path]
    p = subprocess.run(cmd, capture_output=True, text=True)
    user, system, rss = p.stderr.strip().splitlines()[-1].split()
    rec = json.loads(p.stdout.splitlines()[0]) if p.stdout.strip() else {}
    cpu = float(user) + float(system)
    return rec.get("status", "?"), rec.get("backend", "-"), rec.get("nodes", 0), cpu, int(rss) // 1024


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", default="target/release/satdoku")
    ap.add_argument("--before", help="an older binary, run side by side")
    ap.add_argument("--work", help="where to write the grids (default: a temporary directory)")
    ap.add_argument("--sizes", default="64,81,100,144,225,256,289,324,361,400,8x9,9x10,10x11")
    ap.add_argument("--givens", default="0", help="percentages of cells given, 0 for empty")
    ap.add_argument("--seeds", default="1")
    ap.add_argument("--timeout", type=float, default=20)
    args = ap.parse_args()
    work = args.work or tempfile.mkdtemp(prefix="giant-grids-")
    os.makedirs(work, exist_ok=True)
    bins = [("now", args.bin)] + ([("before", args.before)] if args.before else [])
    head = "| grid | box | givens % | seed |"
    for name, _ in bins:
        head += f" {name}: status (backend) | nodes | CPU s | MB |"
    print(head)
    print("|---|---|---:|---:|" + "---|---:|---:|---:|" * len(bins))
    for spec in args.sizes.split(","):
        r, c = shape(spec)
        n = r * c
        box = None if r == c else f"{r}x{c}"
        for pct in [float(p) for p in args.givens.split(",")]:
            for seed in [int(s) for s in args.seeds.split(",")] if pct else [0]:
                grid = planted(r, c, pct, seed)
                path = os.path.join(work, f"{n}x{n}-{r}x{c}-{pct:g}-{seed}.txt")
                with open(path, "w") as f:
                    f.write("\n".join(" ".join(map(str, row)) for row in grid) + "\n")
                line = f"| {n}x{n} | {r}x{c} | {pct:g} | {seed if pct else '-'} |"
                for _, binary in bins:
                    status, by, nodes, cpu, mb = run(binary, path, box, args.timeout)
                    line += f" {status} ({by}) | {nodes:,} | {cpu:.2f} | {mb} |"
                print(line, flush=True)


if __name__ == "__main__":
    main()
