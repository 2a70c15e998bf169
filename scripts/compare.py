#!/usr/bin/env python3
"""Side-by-side timing of satdoku and its peers, as issue 5 defines it; prints Markdown tables.

Ours: whole-process CPU time (user + sys) of `satdoku solve --jobs 1 [--unique] [--backend sat] FILE >
/dev/null`, divided by the number of puzzles: start-up, reading, parsing and printing included.
Peers: the in-process per-puzzle CPU medians printed by the harnesses in ../shared/peers (the `sudoku`
crate and tdoku's fast solver for the native table, varisat on the plain extended CNF with a fresh
solver per puzzle for the SAT table).
Rounds are interleaved (every program on one file, then the next file, then the next round) and the
median over rounds is reported, because the machine is shared and noisy.

usage: scripts/compare.py [--shared DIR] [--rounds R] [--work DIR]
                          [--only dfs|sat|batch|large|big|default|certify] [--before BIN]

`big`: the rkkautsar grids from 81x81 up and hard 25x25 puzzles, our SAT backend on varisat and on
CaDiCaL in-process beside the Debian `cadical` binary on our own DIMACS (whole-process CPU time each;
for the binary, counting to two is a second run with the first model's blocking clause added).
`default`: the rkkautsar grids with DEFAULT flags (`satdoku solve [--unique] FILE`: the auto backend),
built without features (auto's SAT phase on varisat) and with `--features cadical` (on CaDiCaL), wall
and CPU seconds of the whole process, beside the `cadical` binary on our DIMACS (issue 15's targets).
`dfs`: ours with the default backend and with `--backend dfs`; with `--before BIN` (a satdoku binary
built from an earlier commit) that binary's `--backend dfs` in the same rounds, as columns of their own.
`certify`: certified `--unique` against plain `--unique` on the 9x9, 16x16 and 25x25 sets; with
`--before BIN` (a satdoku binary built from an earlier commit) its certified run is timed in the same
rounds, as a column of its own.
"""

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def sh(cmd, **kw):
    return subprocess.run(cmd, check=True, **kw)


def wall_cpu_of(cmd):
    """Wall and user + sys CPU seconds of a child process."""
    start = time.monotonic()
    with open(os.devnull, "w") as null:
        p = subprocess.Popen(cmd, stdout=null, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
        _, status, usage = os.wait4(p.pid, 0)
    wall = time.monotonic() - start
    if os.waitstatus_to_exitcode(status) not in (0, 1):
        sys.exit(f"{cmd}: exit {os.waitstatus_to_exitcode(status)}")
    return wall, usage.ru_utime + usage.ru_stime


def cpu_of(cmd, stdin_path=None):
    """User + sys CPU seconds of a child process, from wait4's rusage."""
    with open(os.devnull, "w") as null:
        stdin = open(stdin_path) if stdin_path else subprocess.DEVNULL
        p = subprocess.Popen(cmd, stdout=null, stderr=subprocess.PIPE, stdin=stdin)
        _, status, usage = os.wait4(p.pid, 0)
        p.returncode = os.waitstatus_to_exitcode(status)
        if p.returncode not in (0, 1):
            sys.exit(f"{cmd}: exit {p.returncode}: {p.stderr.read().decode()}")
        return usage.ru_utime + usage.ru_stime


def count_puzzles(path):
    with open(path) as f:
        return sum(1 for line in f if line.strip() and not line.startswith("#"))


def build_peers(shared, work):
    peers = {}
    for name, binary in [("rust-sudoku", "peer-rust-sudoku"), ("varisat-naive", "peer-varisat-naive")]:
        dst = os.path.join(work, name)
        if not os.path.exists(dst):
            shutil.copytree(os.path.join(shared, "peers", name), dst)
            for root, dirs, files in os.walk(dst):
                os.chmod(root, 0o755)
                for f in files:
                    os.chmod(os.path.join(root, f), 0o644)
        sh(["cargo", "build", "--release", "--quiet"], cwd=dst)
        peers[name] = os.path.join(dst, "target", "release", binary)
    # tdoku: its own build script (g++ -O3 -march=native), in a writable copy of the shared sources.
    dst = os.path.join(work, "tdoku")
    if not os.path.exists(dst):
        # The sources only: a binary built in the shared directory by hand is rebuilt here.
        shutil.copytree(os.path.join(shared, "peers", "tdoku"), dst,
                        ignore=shutil.ignore_patterns("peer-tdoku"))
        for root, dirs, files in os.walk(dst):
            os.chmod(root, 0o755)
            for f in files:
                os.chmod(os.path.join(root, f), 0o755 if f.endswith(".sh") else 0o644)
    if not os.path.exists(os.path.join(dst, "peer-tdoku")):
        sh([os.path.join(dst, "build.sh")], cwd=dst, stderr=subprocess.DEVNULL)
    peers["tdoku"] = os.path.join(dst, "peer-tdoku")
    return peers


def peer_median(cmd):
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    m = re.search(r"cpu_us_per_puzzle_median=([0-9.]+)", out)
    if not m:
        sys.exit(f"no median in {cmd}: {out}")
    return float(m.group(1))


def inputs(shared, work):
    data = os.path.join(shared, "datasets")
    files = {}
    # Sets that the native backend runs through in well under a second are concatenated (17-clue 5
    # times, top1465 10 times), so that start-up is amortised and the CPU time read from rusage is
    # long enough to be steady (a single 0.1 s run of 17-clue varies by +-8%).
    for name, src, times in [("17-clue", "17-clue.txt", 5), ("top1465", "top1465.txt", 10)]:
        path = os.path.join(work, f"{name}x{times}.txt")
        with open(path, "w") as out:
            text = open(os.path.join(data, src)).read()
            for _ in range(times):
                out.write(text if text.endswith("\n") else text + "\n")
        files[name] = path
    files["forum-hardest"] = os.path.join(data, "forum-hardest-1905-11plus.txt")
    # The SAT runs take the first 5,000 puzzles of the large files (the baseline runs on the same).
    originals = {"17-clue": os.path.join(data, "17-clue.txt"), "forum-hardest": files["forum-hardest"]}
    for name in ["17-clue", "forum-hardest"]:
        small = os.path.join(work, f"{name}-5000.txt")
        with open(originals[name]) as f, open(small, "w") as out:
            kept = 0
            for line in f:
                if line.strip() and not line.startswith("#"):
                    out.write(line)
                    kept += 1
                    if kept == 5000:
                        break
        files[name + "-5000"] = small
    return files


MODES = ["first", "count2"]


def unique(mode):
    """Our flag for a mode: counting to 2 is `--unique`."""
    return ["--unique"] if mode == "count2" else []


def interleaved(rounds, cases):
    """Times each case, ours then each peer, case after case, round after round (the machine is noisy).

    cases: (key, our command, puzzles in its file, peer commands). Yields (key, our median µs per
    puzzle of whole-process CPU, each peer's median of its own per-puzzle medians), in case order.
    """
    ours, peer = {}, {}
    for _ in range(rounds):
        for key, our_cmd, puzzles, peer_cmds in cases:
            ours.setdefault(key, []).append(cpu_of(our_cmd) * 1e6 / puzzles)
            for i, peer_cmd in enumerate(peer_cmds):
                peer.setdefault((key, i), []).append(peer_median(peer_cmd))
    for key, _, _, peer_cmds in cases:
        yield key, statistics.median(ours[key]), [statistics.median(peer[(key, i)]) for i in range(len(peer_cmds))]


def table(title, header, rows):
    print(f"\n### {title}\n")
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for r in rows:
        print("| " + " | ".join(r) + " |")


def default_flags(shared, work, rounds):
    """Issue 15's rkkautsar targets with default flags, both builds, beside the cadical binary."""
    builds = {}
    for name, features in [("default", []), ("cadical", ["--features", "cadical"])]:
        sh(["cargo", "build", "--release", "--quiet", *features], cwd=ROOT)
        builds[name] = os.path.join(work, f"satdoku-{name}")
        shutil.copy(os.path.join(ROOT, "target", "release", "satdoku"), builds[name])
    data = os.path.join(shared, "datasets")
    rows = []
    for n, i in [("81x81", 1), ("100x100", 1), ("144x144", 1), ("144x144", 2), ("225x225", 2),
                 ("400x400", 1), ("64x64", 2)]:
        path = os.path.join(data, f"{n}-rkkautsar-{i}.txt")
        cnf_dir = os.path.join(work, "cnf-default-" + os.path.basename(path))
        shutil.rmtree(cnf_dir, ignore_errors=True)
        sh([builds["cadical"], "encode", "-q", "--out-dir", cnf_dir, path])
        cnf = os.path.join(cnf_dir, sorted(os.listdir(cnf_dir))[0])
        times = {}
        for _ in range(rounds):
            for name, binary in builds.items():
                for mode in MODES:
                    times.setdefault((name, mode), []).append(
                        wall_cpu_of([binary, "solve", "-q", *unique(mode), path]))
            f, u = cadical_unique(cnf, work)
            times.setdefault(("binary", "first"), []).append((f, f))
            times.setdefault(("binary", "count2"), []).append((u, u))
        cells = []
        for mode in MODES:
            for name in ["default", "cadical"]:
                w = statistics.median(t[0] for t in times[(name, mode)])
                c = statistics.median(t[1] for t in times[(name, mode)])
                cells.append(f"{w:.2f} / {c:.2f}")
            cells.append(f"{statistics.median(t[1] for t in times[('binary', mode)]):.2f}")
        rows.append([f"{n}-rkkautsar-{i}", *cells])
    table(
        "rkkautsar grids with default flags (wall / CPU seconds, whole process; the binary: CPU)",
        ["file", "first: default build", "first: cadical build", "first: cadical binary",
         "unique: default build", "unique: cadical build", "unique: cadical binary"],
        rows,
    )


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--shared", default=os.path.join(ROOT, "..", "shared"))
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--work", default="/tmp/satdoku-compare")
    ap.add_argument("--only", choices=["dfs", "sat", "batch", "large", "big", "default", "certify"])
    ap.add_argument("--before", help="dfs, certify: an earlier satdoku binary, timed beside ours")
    args = ap.parse_args()
    os.makedirs(args.work, exist_ok=True)
    features = ["--features", "cadical"] if args.only in ("big", "certify") else []
    sh(["cargo", "build", "--release", "--quiet", *features], cwd=ROOT)
    ours = os.path.join(ROOT, "target", "release", "satdoku")
    if args.only == "big":
        return big(ours, args.shared, args.work, args.rounds)
    if args.only == "default":
        return default_flags(args.shared, args.work, args.rounds)
    if args.only == "certify":
        return certify(ours, args.shared, args.work, args.rounds, args.before)
    peers = build_peers(args.shared, args.work)
    files = inputs(args.shared, args.work)
    n = {k: count_puzzles(v) for k, v in files.items()}
    sets = ["17-clue", "top1465", "forum-hardest"]

    if args.only in (None, "dfs"):
        # Ours with the default backend and with `--backend dfs`, and with `--before BIN` that binary
        # (`--backend dfs`), each timed right after the other in every round.
        variants = [("auto", ours, []), ("dfs", ours, ["--backend", "dfs"])]
        if args.before:
            variants.append(("before", args.before, ["--backend", "dfs"]))
        cases = []
        for s in sets:
            for mode in MODES:
                for k, (name, binary, flags) in enumerate(variants):
                    peer_cmds = [[peers[p], "--mode", mode, "--secs", "2", files[s]]
                                 for p in ["rust-sudoku", "tdoku"]] if k == 0 else []
                    cases.append(((s, mode, name), [binary, "solve", "--jobs", "1", *flags,
                                                    *unique(mode), files[s]], n[s], peer_cmds))
        got = {}
        for (s, mode, name), o, peer_figures in interleaved(args.rounds, cases):
            got[(s, mode, name)] = (o, peer_figures)
        rows = []
        for s in sets:
            for mode in MODES:
                o, (p, t) = got[(s, mode, "auto")]
                d, _ = got[(s, mode, "dfs")]
                row = [s, mode, f"{n[s]:,}", f"{p:.2f}", f"{t:.2f}", f"{o:.2f}", f"{d:.2f}",
                       f"{o / p:.2f}x / {d / p:.2f}x", f"{o / t:.2f}x / {d / t:.2f}x"]
                if args.before:
                    b, _ = got[(s, mode, "before")]
                    row += [f"{b:.2f}", f"{d / b:.2f}x"]
                rows.append(row)
        header = ["set", "mode", "puzzles", "sudoku crate", "tdoku", "satdoku (default)",
                  "satdoku --backend dfs", "ours / sudoku crate (default / dfs)",
                  "ours / tdoku (default / dfs)"]
        if args.before:
            header += ["before (dfs)", "dfs / before"]
        table(
            "Native backend vs the `sudoku` crate and tdoku (µs of CPU per puzzle; ours whole-process)",
            header,
            rows,
        )

    if args.only in (None, "sat"):
        sat_sets = [("17-clue", "17-clue-5000"), ("top1465", "top1465"), ("forum-hardest", "forum-hardest-5000")]
        cases = [
            ((s, f, mode), [ours, "solve", "--jobs", "1", "--backend", "sat", *unique(mode), files[f]], n[f],
             [[peers["varisat-naive"], "--mode", "fresh", *(["--count2"] if mode == "count2" else []),
               "--secs", "2", files[f]]])
            for s, f in sat_sets
            for mode in MODES
        ]
        rows = []
        for (s, f, mode), o, (p,) in interleaved(args.rounds, cases):
            rows.append([s, mode, f"{n[f]:,}", f"{p:.0f}", f"{o:.0f}", f"{p / o:.1f}x"])
        table(
            "SAT backend vs naive varisat (µs of CPU per puzzle; ours whole-process)",
            ["set", "mode", "puzzles", "naive varisat", "satdoku sat", "speed-up"],
            rows,
        )

    if args.only in (None, "batch"):
        rows = []
        f = files["forum-hardest"]
        for jobs in [1, 2]:
            walls = []
            for _ in range(args.rounds):

                t0 = time.monotonic()
                with open(os.devnull, "w") as null:
                    sh([ours, "solve", "--jobs", str(jobs), f], stdout=null)
                walls.append(time.monotonic() - t0)
            w = statistics.median(walls)
            rows.append([str(jobs), f"{w:.2f}", f"{n['forum-hardest'] / w:,.0f}"])
        rows[1].append(f"{float(rows[0][1]) / float(rows[1][1]):.2f}x")
        rows[0].append("1.00x")
        table(
            "Batch throughput, forum-hardest-1905-11plus (wall time)",
            ["--jobs", "seconds", "puzzles/s", "vs 1 job"],
            rows,
        )

    if args.only in (None, "large"):
        large(ours, args.shared, args.work)


def unique_25x25(ours, shared, work):
    """The 25x25 sudoku_acs instances that both backends prove unique (a puzzle either backend cannot
    settle in 10 s is left out; the datasets README finds all such ones to have several solutions)."""
    src = os.path.join(shared, "datasets", "25x25-sudoku-acs-general.txt")
    out = subprocess.run(
        [ours, "check", "--timeout", "10", "--output", "json", "--quiet", src],
        capture_output=True, text=True,
    ).stdout
    import json

    keep = {r["index"] for r in map(json.loads, out.splitlines()) if r["status"] == "unique"}
    blocks, current = [], []
    for line in open(src):
        if line.startswith("# file:") and current:
            blocks.append(current)
            current = []
        current.append(line)
    blocks.append(current)
    path = os.path.join(work, "25x25-unique.txt")
    with open(path, "w") as f:
        for i, b in enumerate(blocks):
            if i in keep:
                f.writelines(b)
    return path, len(keep), len(blocks)


def large(ours, shared, work):
    hex16 = os.path.join(shared, "datasets", "16x16-krazydad.csv")
    path25, kept, total = unique_25x25(ours, shared, work)
    print(f"\n25x25: {kept} of {total} sudoku_acs instances proven unique by both backends")
    for title, path in [("16x16-krazydad.csv (all unique)", hex16), ("25x25 sudoku_acs, unique instances", path25)]:
        out = subprocess.run(
            [ours, "study", "--backends", "dfs,sat", "--encodings", "pruned", path],
            check=True, capture_output=True, text=True,
        ).stdout
        print(f"\n### {title}\n")
        print(out.split("\n\n", 2)[-1].strip())


def cadical_run(cnf):
    """CPU seconds of the Debian `cadical` binary on `cnf`, and its model (None if UNSAT)."""
    p = subprocess.Popen(["cadical", "-q", cnf], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    out = p.stdout.read().decode()
    _, status, usage = os.wait4(p.pid, 0)
    model = None
    if "s SATISFIABLE" in out:
        model = [int(x) for line in out.splitlines() if line.startswith("v ") for x in line[2:].split()]
    return usage.ru_utime + usage.ru_stime, model


def cell_vars_of(cnf):
    """The number of cell variables a CNF of ours declares (comment line `... 1..C`)."""
    with open(cnf) as f:
        for line in f:
            if line.startswith("c cell variable"):
                return int(line.rsplit("..", 1)[1])
            if line.startswith("p "):
                break
    sys.exit(f"{cnf}: no cell variable line")


def cadical_unique(cnf, work):
    """The binary counting to two: a first run, then the CNF with that model's blocking clause."""
    first, model = cadical_run(cnf)
    if model is None:
        return first, first
    cells = cell_vars_of(cnf)
    block = [-x for x in model if 0 < x <= cells]
    with open(cnf) as f:
        text = f.read()
    head, body = text.split("\np cnf ", 1)
    counts, rest = body.split("\n", 1)
    v, c = counts.split()
    second = os.path.join(work, "blocked.cnf")
    with open(second, "w") as f:
        f.write(f"{head}\np cnf {v} {int(c) + 1}\n{rest}{' '.join(map(str, block))} 0\n")
    again, _ = cadical_run(second)
    return first, first + again


def hard_25x25(ours, work):
    """40 unique 25x25 puzzles 45-65 % filled (`satdoku generate`, seed 7), made once per work dir.

    (Until the generate command, examples/plant made this set, with other puzzles: the tables
    before it were measured on plant's.)"""
    path = os.path.join(work, "hard-25x25.txt")
    if not os.path.exists(path):
        with open(path, "w") as out:
            sh([ours, "generate", "-q", "--box", "5x5", "--givens", "45%..65%", "--count", "40",
                "--seed", "7"], stdout=out)
    return path


def big(ours, shared, work, rounds):
    data = os.path.join(shared, "datasets")
    files = [os.path.join(data, f"{n}-rkkautsar-{i}.txt")
             for n, i in [("81x81", 1), ("100x100", 1), ("144x144", 1), ("144x144", 2), ("225x225", 2),
                          ("400x400", 1), ("64x64", 2)]]
    files.append(hard_25x25(ours, work))
    rows = []
    for path in files:
        name = os.path.basename(path)
        cnf_dir = os.path.join(work, "cnf-" + name)
        shutil.rmtree(cnf_dir, ignore_errors=True)
        sh([ours, "encode", "-q", "--out-dir", cnf_dir, path])
        cnfs = sorted(os.path.join(cnf_dir, f) for f in os.listdir(cnf_dir))
        times = {}
        for _ in range(rounds):
            for solver in ["varisat", "cadical"]:
                for mode in MODES:
                    cmd = [ours, "solve", "-q", "--jobs", "1", "--backend", "sat", "--sat-solver", solver,
                           *unique(mode), path]
                    times.setdefault((solver, mode), []).append(cpu_of(cmd))
            first = unique_ = 0.0
            for cnf in cnfs:
                f, u = cadical_unique(cnf, work)
                first += f
                unique_ += u
            times.setdefault(("binary", "first"), []).append(first)
            times.setdefault(("binary", "count2"), []).append(unique_)
        med = {k: statistics.median(v) for k, v in times.items()}
        cells = [f"{med[(s, m)]:.2f}" for m in MODES for s in ["varisat", "cadical", "binary"]]
        ratio = [f"{med[('binary', m)] / med[('cadical', m)]:.2f}x" for m in MODES]
        rows.append([name, str(len(cnfs)), *cells, *ratio])
    table(
        "Large grids: SAT backend in-process vs the cadical binary on our DIMACS (CPU seconds per file,"
        " whole process)",
        ["file", "puzzles", "first: varisat", "first: cadical", "first: cadical binary",
         "unique: varisat", "unique: cadical", "unique: cadical binary",
         "binary / in-process (first)", "binary / in-process (unique)"],
        rows,
    )


def certify(ours, shared, work, rounds, before=None):
    data = os.path.join(shared, "datasets")
    sets = [("17-clue (first 5,000)", inputs(shared, work)["17-clue-5000"]),
            ("top1465", os.path.join(data, "top1465.txt")),
            ("forum-hardest-1106", os.path.join(data, "forum-hardest-1106.txt")),
            ("16x16-sudoku-acs (every 10th)", None),
            ("hard 25x25", hard_25x25(ours, work))]
    acs16 = os.path.join(work, "16x16-acs-200.txt")
    with open(os.path.join(data, "16x16-sudoku-acs-general.txt")) as f, open(acs16, "w") as out:
        blocks = f.read().split("# file:")
        out.write("".join("# file:" + b for b in blocks[1::10]))
    sets[3] = (sets[3][0], acs16)
    certified = [("certified", ours)] + ([("before", before)] if before else [])
    rows = []
    for label, path in sets:
        times = {}
        for _ in range(rounds):
            for solver in ["varisat", "cadical"]:
                for backend in ["auto", "sat"]:
                    cmd = [ours, "solve", "-q", "--jobs", "1", "--unique", "--backend", backend,
                           "--sat-solver", solver, path]
                    times.setdefault((solver, backend), []).append(cpu_of(cmd))
                for key, binary in certified:
                    certs = os.path.join(work, "certs")
                    shutil.rmtree(certs, ignore_errors=True)
                    cmd = [binary, "solve", "-q", "--jobs", "1", "--unique", "--backend", "sat",
                           "--sat-solver", solver, "--certify", certs, path]
                    times.setdefault((solver, key), []).append(cpu_of(cmd))
        med = {k: statistics.median(v) for k, v in times.items()}
        for solver in ["varisat", "cadical"]:
            a, s_, c = med[(solver, "auto")], med[(solver, "sat")], med[(solver, "certified")]
            row = [label, solver, f"{a:.2f}", f"{s_:.2f}"]
            if before:
                b = med[(solver, "before")]
                row += [f"{b:.2f}", f"{b / s_:.2f}x"]
            row += [f"{c:.2f}", f"{c / s_:.2f}x", f"{c / a:.1f}x"]
            rows.append(row)
    header = ["set", "SAT solver", "plain (default backend)", "plain (--backend sat)"]
    if before:
        header += ["certified, before", "before / plain sat"]
    header += ["certified (--backend sat)", "certified / plain sat", "certified / plain default"]
    table("Certified --unique vs plain --unique (CPU seconds per file, whole process)", header, rows)


if __name__ == "__main__":
    main()
