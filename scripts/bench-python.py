#!/usr/bin/env python3
"""Batch throughput of the Python package against the CLI and pip-installable Python solvers, on the
same 9x9 puzzles (issue 27's benchmark); prints a Markdown table.

Rows, each on the first --count puzzles of FILE (default: the shared 17-clue list):
- `satdoku solve --jobs 1 [--unique] -q FILE > /dev/null`: the CLI, whole process (start-up, reading,
  parsing, printing included); CPU = user + sys of the child.
- `satdoku.solve_batch(array, jobs=1[, unique=True])` from a (B, 81) uint8 array already in memory;
  CPU = this process's CPU time over the call (every thread).
- `satdoku.solve_batch(satdoku.read_file(FILE), ...)`: the same, reading the file too.
- peers, one Python call per puzzle, when installed, on the first --peers-count puzzles: rustoku (`rustoku.solve`, `count_solutions(p, 2)`
  for unique), python-sat (CaDiCaL 1.5.3 on the plain extended CNF: one solver, the
  givens as assumptions; unique: a second solve with the first model blocked, then the blocking clause
  removed through an activation literal), py-sudoku (pure Python; on the first 10 puzzles only).
(lib-sudoku 2.2, "a blazing fast sudoku library built in rust", took 69 s on the first 17-clue puzzle
and is left out.)
Rounds are interleaved (every row once, then the next round) and the median is reported: the machine
is shared. Everything runs on one core (`jobs=1`), so puzzles/s per CPU-second is the per-core figure.

usage: scripts/bench-python.py [--file FILE] [--count N] [--peers-count M] [--rounds R] [--bin PATH]
                               [--unique]
"""

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

import satdoku

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def puzzles_of(path, count):
    lines = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if len(line) >= 81 and not line.startswith("#"):
                lines.append(line[:81])
                if len(lines) == count:
                    break
    return lines


def children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def timed(fn):
    """(wall seconds, CPU seconds of this process and its children) of fn()."""
    c0, p0, w0 = children_cpu(), time.process_time(), time.perf_counter()
    fn()
    return time.perf_counter() - w0, (time.process_time() - p0) + (children_cpu() - c0)


def pysat_solver(unique):
    from pysat.solvers import Solver

    def var(r, c, d):
        return r * 81 + c * 9 + d

    s = Solver(name="cadical153")
    cells = [[(r, c) for c in range(9)] for r in range(9)]
    units = cells + [[(r, c) for r in range(9)] for c in range(9)]
    units += [[(3 * (b // 3) + i // 3, 3 * (b % 3) + i % 3) for i in range(9)] for b in range(9)]
    for r in range(9):
        for c in range(9):
            s.add_clause([var(r, c, d) for d in range(1, 10)])
            for d in range(1, 10):
                for e in range(d + 1, 10):
                    s.add_clause([-var(r, c, d), -var(r, c, e)])
    for unit in units:
        for d in range(1, 10):
            s.add_clause([var(r, c, d) for r, c in unit])
            for i in range(9):
                for j in range(i + 1, 9):
                    (r1, c1), (r2, c2) = unit[i], unit[j]
                    s.add_clause([-var(r1, c1, d), -var(r2, c2, d)])
    state = {"next": 9 * 81 + 1}

    def solve(p):
        givens = [var(i // 9, i % 9, int(ch)) for i, ch in enumerate(p) if ch not in ".0"]
        if not s.solve(assumptions=givens):
            return None
        model = [v for v in s.get_model() if 0 < v <= 729]
        if unique:
            act = state["next"]
            state["next"] += 1
            s.add_clause([-act] + [-v for v in model])
            again = s.solve(assumptions=givens + [act])
            s.add_clause([-act])  # retire the blocking clause
            return model, again
        return model

    return solve


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--file", default=os.path.join(ROOT, "..", "shared", "datasets", "17-clue.txt"))
    ap.add_argument("--count", type=int, default=10_000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--peers-count", type=int, default=2_000, help="puzzles for the peers (slower)")
    ap.add_argument("--bin", default=os.path.join(ROOT, "target", "release", "satdoku"))
    ap.add_argument("--unique", action="store_true")
    args = ap.parse_args()

    lines = puzzles_of(args.file, args.count)
    n = len(lines)
    few = lines[: args.peers_count]
    m = len(few)
    array = np.array([[0 if ch in ".0" else int(ch) for ch in p] for p in lines], dtype=np.uint8)
    work = tempfile.mkdtemp()
    path = os.path.join(work, "puzzles.txt")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    flag = ["--unique"] if args.unique else []
    # The answers, to check that every row solves the same puzzles.
    reference = satdoku.solve_batch(array, unique=args.unique, jobs=1)
    assert (reference.status == (satdoku.Status.UNIQUE if args.unique else satdoku.Status.SOLVED).code).all()

    rows = {}

    def cli():
        with open(os.devnull, "w") as out:
            subprocess.run([args.bin, "solve", "--jobs", "1", "-q", *flag, path], stdout=out, check=True)

    rows["CLI `satdoku solve --jobs 1" + (" --unique" if args.unique else "") + "`"] = (cli, n)
    rows["`solve_batch(array, jobs=1)`"] = (lambda: satdoku.solve_batch(array, unique=args.unique, jobs=1), n)
    rows["`solve_batch(read_file(f), jobs=1)`"] = (
        lambda: satdoku.solve_batch(satdoku.read_file(path), unique=args.unique, jobs=1),
        n,
    )
    try:
        import rustoku

        if args.unique:
            rows[f"rustoku 0.16 (`count_solutions(p, 2)`; first {m})"] = (lambda: [rustoku.count_solutions(p, 2) for p in few], m)
        else:
            rows[f"rustoku 0.16 (`solve(p)`; first {m})"] = (lambda: [rustoku.solve(p) for p in few], m)
    except ImportError:
        pass
    try:
        solve = pysat_solver(args.unique)
        rows[f"python-sat 1.9 (CaDiCaL 1.5.3, extended CNF, assumptions; first {m})"] = (lambda: [solve(p) for p in few], m)
    except ImportError:
        pass
    try:
        from sudoku import Sudoku

        ten = lines[:10]

        def pysudoku():
            for p in ten:
                board = [[int(ch) if ch not in ".0" else None for ch in p[r * 9 : r * 9 + 9]] for r in range(9)]
                Sudoku(3, 3, board=board).solve()

        rows["py-sudoku 2.0 (pure Python; first 10)"] = (pysudoku, len(ten))
    except ImportError:
        pass

    times = {name: [] for name in rows}
    for _ in range(args.rounds):
        for name, (fn, _count) in rows.items():
            times[name].append(timed(fn))
            print(f"  {name}: {times[name][-1][0]:.2f} s", file=sys.stderr)
    cli_cpu = statistics.median(c for _, c in times[next(iter(rows))]) / n
    print(f"{n} puzzles of {os.path.basename(args.file)}, {'--unique' if args.unique else 'first solution'}, "
          f"median of {args.rounds} interleaved rounds, one core\n")
    print("| what | puzzles/s (wall) | puzzles per CPU-second | CPU per puzzle vs the CLI |")
    print("|---|---:|---:|---:|")
    for name, (_, count) in rows.items():
        wall = statistics.median(w for w, _ in times[name])
        cpu = statistics.median(c for _, c in times[name])
        print(f"| {name} | {count / wall:,.0f} | {count / cpu:,.0f} | {cpu / count / cli_cpu:.2f}x |")


if __name__ == "__main__":
    main()
