#!/usr/bin/env python3
"""Unit propagation alone over DIMACS files: how many formulas it satisfies, refutes, or leaves open.

An independent measure of the "solved by propagation alone" share for formulas that `satdoku study`
takes too long to run (it solves each puzzle as well), e.g. the killers:

    satdoku encode --cage-encoding sequential --out-dir DIR fixtures/variants/killer.txt
    scripts/propagate.py DIR/*.cnf
"""
import sys


def propagate(path):
    clauses = []
    with open(path) as f:
        for line in f:
            if not line.strip() or line[0] in "cp%":
                continue
            lits = [int(x) for x in line.split()]
            clauses.append([l for l in lits if l != 0])
    value = {}
    changed = True
    while changed:
        changed = False
        for clause in clauses:
            open_lits = []
            for lit in clause:
                v = value.get(abs(lit))
                if v is None:
                    open_lits.append(lit)
                elif v == (lit > 0):
                    break
            else:
                if not open_lits:
                    return "refuted"
                if len(open_lits) == 1:
                    value[abs(open_lits[0])] = open_lits[0] > 0
                    changed = True
    satisfied = all(any(value.get(abs(l)) == (l > 0) for l in c) for c in clauses)
    return "satisfied" if satisfied else "open"


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: propagate.py FILE.cnf ...")
    results = [propagate(p) for p in sys.argv[1:]]
    counts = {k: results.count(k) for k in ("satisfied", "refuted", "open")}
    print(f"{len(results)} formulas: " + ", ".join(f"{n} {k}" for k, n in counts.items()))


if __name__ == "__main__":
    main()
