#!/usr/bin/env python3
"""`satdoku generate` timed side by side with the `sudoku` crate's generator (BENCHMARKS.md,
"Generation").

usage: scripts/bench-generate.py [--peer PEER_GEN] [--rounds 3] [--only NAMES]

Ours: whole-process CPU (user + sys) of `satdoku generate --jobs 1 -q ... > /dev/null`, divided by
the puzzles made; the 16x16, 25x25 and killer rows also give the wall time with every core
(`--jobs` default) and, for killers, the median of the records' `micros` (wall time per puzzle, one
job). PEER_GEN is a harness outside this repository (see BENCHMARKS.md) that prints
`puzzles_per_cpu_sec=…` for `PEER_GEN none|rotational SECS` (thread CPU time, in process). Rows run
interleaved, ours and the peer's, one round after the other; the median of the rounds is reported.
"""

import argparse
import json
import os
import re
import statistics
import subprocess
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OURS = os.path.join(ROOT, "target", "release", "satdoku")


def cpu_wall(cmd):
    """CPU (user + sys of the child) and wall seconds, and standard output."""
    before = os.times()
    start = time.monotonic()
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    wall = time.monotonic() - start
    after = os.times()
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    return cpu, wall, out


def peer(peer_gen, symmetry, secs=3):
    out = subprocess.run([peer_gen, symmetry, str(secs)], check=True, capture_output=True, text=True).stdout
    return float(re.search(r"puzzles_per_cpu_sec=([0-9.]+)", out).group(1))


def ours(args, count, jobs="1"):
    cmd = [OURS, "generate", "-q", "--count", str(count), "--seed", "1"] + args
    if jobs:
        cmd += ["--jobs", jobs]
    cpu, wall, out = cpu_wall(cmd)
    return count / cpu, count / wall, out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--peer")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--only", default="minimal,rotational,16,25,killer")
    a = ap.parse_args()
    only = a.only.split(",")
    subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
    rows = {}

    def add(key, value):
        rows.setdefault(key, []).append(value)

    for _ in range(a.rounds):
        for sym, name in [("none", "minimal"), ("rotational", "rotational")]:
            if name not in only:
                continue
            flag = ["--symmetry", sym]
            if a.peer:
                add((name, "sudoku crate"), peer(a.peer, sym))
            add((name, "satdoku"), ours(flag, 20000)[0])
            add((name, "satdoku --fast"), ours(flag + ["--fast"], 20000)[0])
        for size, count in [("16", 200), ("25", 20)]:
            if size not in only:
                continue
            flag = ["--size", size, "--givens", "45%..65%"]
            per_cpu = ours(flag, count)[0]
            per_wall = ours(flag, count, jobs=None)[1]
            add((f"{size}x{size} 45-65 %", "per CPU second"), per_cpu)
            add((f"{size}x{size} 45-65 %", "per second, every core"), per_wall)
        if "killer" in only:
            cpu, _, out = cpu_wall([OURS, "generate", "-q", "--count", "20", "--seed", "1", "--killer",
                                    "--no-givens", "--jobs", "1", "--output", "json"])
            micros = [json.loads(l)["micros"] for l in out.splitlines()]
            add(("pure killer 9x9", "median wall s per puzzle"), statistics.median(micros) / 1e6)
            add(("pure killer 9x9", "CPU s per puzzle"), cpu / 20)
    print("| what | who | median of rounds | rounds |\n|---|---|---|---|")
    for (what, who), vs in rows.items():
        print(f"| {what} | {who} | {statistics.median(vs):.3g} | {', '.join(f'{v:.3g}' for v in vs)} |")
    print(f"\nload average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
