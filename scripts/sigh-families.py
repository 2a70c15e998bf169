#!/usr/bin/env python3
"""satdoku and sigh's engine side by side on sigh's variant corpus, per constraint family.

Usage:
    node ../shared/peers/sigh/corpus.mjs --mode count CORPUS > SIGH.jsonl
    scripts/sigh-families.py [--satdoku BIN] [--timeout S] [--backend B] [--out OUT.jsonl]
                             [--repeat R] [--repeat-under S] CORPUS SIGH.jsonl

CORPUS is sigh's corpus (`../shared/datasets/variants-sigh/puzzles.jsonl`: one JSON object a line,
`input` the constraint string, `types` its constraint types, `solution` the published one if any);
SIGH.jsonl what `corpus.mjs` printed for it (`index`, `count`, `solution`, `cpu_ms`). The puzzles
are grouped by constraint type (a puzzle counts in every type it uses; `classic` for none), and
each family's file is solved by one `satdoku solve --unique --output json --format sigh --jobs 1`
process (counting to two, like sigh's count mode), its CPU time (user + system, from the process's
rusage: the process's start and reading included) recorded. Prints, per family, the puzzles both
read, whether the answers agree (the count and, for unique ones, the solution), and the CPU time
of each (sigh's in-process `cpu_ms` summed, module loading not counted; satdoku's also less its
start-up, the median CPU of a process over an empty file, for the families of a few milliseconds;
and satdoku's per-puzzle times summed, the records' `micros`: wall, not CPU, but resolving the
families of a millisecond).

With `--repeat R`, a family whose sigh total is under `--repeat-under` seconds (default 0.1) is
solved again from a file holding each of its puzzles that satdoku reads R times in a row, and its
satdoku CPU figures are per repetition: the process's CPU over R (start-up spread over the
repetitions), and less start-up the process's CPU less one start-up, over R. A process's CPU is
counted in the kernel's ticks, so a family of a millisecond or two is otherwise below what it
resolves; each repetition reads, builds and solves the puzzle afresh (nothing is kept from one
record to the next but the memory allocator's pages), so this is the cost of a puzzle in a warm
process, as sigh's `cpu_ms` is.
"""

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile


def run_file(binary, path, timeout, backend):
    """One satdoku process over a file of puzzles: (records in order, CPU seconds)."""
    cmd = [binary, "solve", "--unique", "--output", "json", "--format", "sigh", "-q",
           "--jobs", "1", "--timeout", str(timeout), path]
    if backend:
        cmd += ["--backend", backend]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL).stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    recs = [json.loads(l) for l in out.decode().splitlines() if l.startswith("{")]
    return recs, cpu


def joined(solution):
    """Our solution as sigh prints it: the cells' numbers joined (letters A, B, ... for 1, 2, ...)."""
    if solution is None:
        return None
    return "".join(str(ord(ch) - ord("A") + 1) if ch.isalpha() else ch for ch in solution)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("corpus")
    ap.add_argument("sigh")
    ap.add_argument("--satdoku", default="target/release/satdoku")
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("--backend", default=None)
    ap.add_argument("--out", default=None, help="write satdoku's records (with cpu_s) here")
    ap.add_argument("--only", default=None, help="comma-separated corpus indices")
    ap.add_argument("--repeat", type=int, default=1,
                    help="the small families' puzzles this many times each (their CPU per repetition)")
    ap.add_argument("--repeat-under", type=float, default=0.1,
                    help="families whose sigh CPU total is under this many seconds are repeated")
    args = ap.parse_args()
    if args.repeat < 1:
        ap.error("--repeat must be at least 1")

    corpus = [json.loads(l) for l in open(args.corpus) if l.strip()]
    sigh = {}
    for l in open(args.sigh):
        if l.strip():
            r = json.loads(l)
            sigh[r["index"]] = r
    only = set(int(x) for x in args.only.split(",")) if args.only else None
    # The puzzles both read (sigh printed no error, satdoku reads the types), by family.
    families = {}
    for i, p in enumerate(corpus):
        if (only is not None and i not in only) or i not in sigh or sigh[i].get("error"):
            continue
        for t in p["types"] or ["classic"]:
            families.setdefault(t, []).append(i)
    work = tempfile.mkdtemp(prefix="sigh-families-")
    empty = os.path.join(work, "empty.txt")
    open(empty, "w").close()
    out = open(args.out, "w") if args.out else None
    ours, cpu, repeats = {}, {}, {}
    for t, idx in sorted(families.items()):
        path = os.path.join(work, "family.txt")
        sigh_total = sum(sigh[i]["cpu_ms"] for i in idx) / 1000
        r = args.repeat if sigh_total < args.repeat_under else 1
        repeats[t] = r
        with open(path, "w") as f:
            for i in idx:
                # One line a puzzle: some inputs are spread over lines (sigh reads them whole).
                f.write("".join(corpus[i]["input"].split()) + "\n")
        recs, c = run_file(args.satdoku, path, args.timeout, args.backend)
        kept = []
        for rec in recs:
            i = idx[rec["index"]]
            if rec.get("status") == "error":
                continue
            rec["corpus_index"] = i
            ours.setdefault(i, rec)
            kept.append(i)
            if out:
                out.write(json.dumps({"family": t, **rec}) + "\n")
                out.flush()
        families[t] = kept
        if r > 1 and kept:
            # Again, each puzzle read R times in a row (those it could not read left out, as
            # sigh's figure leaves them out): the CPU of the repeated file.
            with open(path, "w") as f:
                for i in kept:
                    f.write(("".join(corpus[i]["input"].split()) + "\n") * r)
            c = run_file(args.satdoku, path, args.timeout, args.backend)[1]
        cpu[t] = c
        print(f"{t}: {len(kept)} of {len(idx)} read, {c:.2f} s CPU ({r} repetitions)", file=sys.stderr)

    def count_of(rec):
        return {"unique": 1, "none": 0, "multiple": 2}.get(rec.get("status"))

    rows = []
    # Each puzzle once: sigh's CPU, and satdoku's per-puzzle time (its records' `micros`).
    total = {"n": 0, "agree": 0, "sigh": 0.0, "ours": 0.0}
    seen = set()
    for t, idx in sorted(families.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        n = agree = 0
        cs = ms = 0.0
        worst = (0.0, None)
        for i in idx:
            rec, s = ours[i], sigh[i]
            n += 1
            c = count_of(rec)
            same = c is not None and c == s["count"] and (c != 1 or joined(rec.get("solution")) == s["solution"])
            agree += same
            cs += s["cpu_ms"] / 1000
            ms += rec.get("micros", 0) / 1e6
            worst = max(worst, (rec.get("micros", 0) / 1e6, i))
            if i not in seen:
                seen.add(i)
                total["n"] += 1
                total["agree"] += same
                total["sigh"] += s["cpu_ms"] / 1000
                total["ours"] += rec.get("micros", 0) / 1e6
        if n:
            rows.append((t, n, agree, cs, cpu[t], ms, worst, repeats[t]))
    # satdoku's start-up (a process over an empty file), to subtract from its figures for the
    # families whose total is a few milliseconds: sigh's `cpu_ms` leaves its start-up out.
    start = sorted(run_file(args.satdoku, empty, args.timeout, args.backend)[1] for _ in range(7))[3]
    print(f"satdoku's start-up (median of 7 processes over an empty file): {start * 1000:.2f} ms CPU",
          file=sys.stderr)

    def ratio(a, b):
        return f"{a / b:.2f}x" if b > 0 else "-"

    # The last two figures: satdoku's own per-puzzle times (the records' `micros`: wall time of
    # each puzzle's answer in the process, reading and start-up left out, as sigh's `cpu_ms`
    # leaves its own out), which resolve the families of a millisecond that process CPU, counted
    # in the kernel's ticks, does not; wall, so a race's second thread is not in them.
    # Repeated families: satdoku's CPU per repetition (the start-up once in the process's figure).
    print("| family | puzzles | answers agree | sigh CPU s | satdoku CPU s | satdoku / sigh "
          "| satdoku less start-up | ratio | satdoku per puzzle s (wall) | ratio | repetitions "
          "| slowest (satdoku wall s, #) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    for t, n, agree, cs, co, ms, worst, r in rows:
        less = max(co - start, 0.0) / r
        co /= r
        print(f"| {t} | {n} | {agree} | {cs:.3f} | {co:.3f} | {ratio(co, cs)} | {less:.4f} | {ratio(less, cs)} "
              f"| {ms:.4f} | {ratio(ms, cs)} | {r} | {worst[0]:.2f} (#{worst[1]}) |")
    print(f"| all (each puzzle once; satdoku: per-puzzle time) | {total['n']} | {total['agree']} "
          f"| {total['sigh']:.2f} | {total['ours']:.2f} | {total['ours'] / max(total['sigh'], 1e-9):.2f}x | |")


if __name__ == "__main__":
    sys.exit(main())
