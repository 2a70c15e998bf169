#!/usr/bin/env python3
"""The generator's difficulty measure against published ratings: a Markdown table per rated set.

usage: scripts/difficulty.py [--shared ../shared] [--per 500] [--work DIR]

Measures (examples/difficulty, i.e. satdoku::generate::Difficulty::measure) the first PER puzzles of
each krazydad 9x9 tier (EZ, NO, IM, CH, TF, ST, IN: the publisher's own seven levels, easiest first)
and of the sets whose hardness is known as a whole (17-clue, unbiased, top1465, the forum's hardest:
1106 and 1905 rated above 11 by Sudoku Explainer), then prints the share of each level, the median
guesses, the mean share filled by singles, and Spearman's rank correlation of the krazydad tier with
the guesses and with the share left to more than singles (ties get their mean rank).
"""

import argparse
import csv
import os
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TIERS = ["EZ", "NO", "IM", "CH", "TF", "ST", "IN"]
LEVELS = ["easy", "medium", "hard", "extreme"]


def ranks(xs):
    """Ranks 1..n, ties sharing their mean rank."""
    order = sorted(range(len(xs)), key=lambda i: xs[i])
    r = [0.0] * len(xs)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and xs[order[j + 1]] == xs[order[i]]:
            j += 1
        for k in range(i, j + 1):
            r[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return r


def spearman(a, b):
    ra, rb = ranks(a), ranks(b)
    ma, mb = statistics.fmean(ra), statistics.fmean(rb)
    cov = sum((x - ma) * (y - mb) for x, y in zip(ra, rb))
    va = sum((x - ma) ** 2 for x in ra)
    vb = sum((y - mb) ** 2 for y in rb)
    return cov / (va * vb) ** 0.5


def measure(binary, path, per):
    out = subprocess.run([binary, "--max", str(per), path], check=True, capture_output=True,
                         text=True).stdout
    rows = []
    for line in out.splitlines()[1:]:
        _, _, level, singles, nodes, guesses = line.split("\t")
        rows.append((level, float(singles), int(nodes), int(guesses)))
    return rows


def summary(name, rows):
    n = len(rows)
    shares = " | ".join(f"{100 * sum(r[0] == l for r in rows) / n:.0f} %" for l in LEVELS)
    med = statistics.median(r[3] for r in rows)
    single = statistics.fmean(r[1] for r in rows)
    return f"| {name} | {n} | {shares} | {med:g} | {single:.2f} |"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--shared", default=os.path.join(ROOT, "..", "shared"))
    ap.add_argument("--per", type=int, default=500)
    ap.add_argument("--work", default="/tmp/satdoku-difficulty")
    args = ap.parse_args()
    data = os.path.join(args.shared, "datasets")
    os.makedirs(args.work, exist_ok=True)
    subprocess.run(["cargo", "build", "--release", "--quiet", "--example", "difficulty"], cwd=ROOT,
                   check=True)
    binary = os.path.join(ROOT, "target", "release", "examples", "difficulty")

    # krazydad: the first PER puzzles of each tier, one file per tier.
    tiers = {t: [] for t in TIERS}
    with open(os.path.join(data, "9x9-krazydad.csv")) as f:
        for row in csv.DictReader(f):
            t = row["DIFFICULTY"]
            if t in tiers and len(tiers[t]) < args.per:
                tiers[t].append(row["PUZZLE"])
    header = ("| set | puzzles | easy | medium | hard | extreme | median guesses | "
              "singles fill (mean) |\n|---|---|---|---|---|---|---|---|")
    print("#### krazydad 9x9 tiers (the publisher's rating, easiest first)\n")
    print(header)
    tier_of, guesses, nodes, beyond, level_of = [], [], [], [], []
    for k, t in enumerate(TIERS):
        path = os.path.join(args.work, f"krazydad-{t}.txt")
        with open(path, "w") as f:
            f.write("\n".join(tiers[t]) + "\n")
        rows = measure(binary, path, args.per)
        print(summary(t, rows))
        tier_of += [k] * len(rows)
        guesses += [r[3] for r in rows]
        nodes += [r[2] for r in rows]
        level_of += [r[0] for r in rows]
        beyond += [1 - r[1] for r in rows]
    levels = [LEVELS.index(r) for r in level_of]
    print(f"\nSpearman's rank correlation with the tier over {len(tier_of)} puzzles: level "
          f"{spearman(tier_of, levels):.2f}, guesses {spearman(tier_of, guesses):.2f}, nodes "
          f"{spearman(tier_of, nodes):.2f}, share not filled by singles "
          f"{spearman(tier_of, beyond):.2f}.\n")

    print("#### Sets rated as a whole\n")
    print(header)
    for name, file in [("17-clue", "17-clue.txt"), ("unbiased (first 1,000)", "unbiased-first1000.txt"),
                       ("top1465", "top1465.txt"), ("forum-hardest-1106", "forum-hardest-1106.txt"),
                       ("forum-hardest-1905 (SE > 11)", "forum-hardest-1905-11plus.txt")]:
        print(summary(name, measure(binary, os.path.join(data, file), args.per)))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
