#!/usr/bin/env python3
"""Writes fixtures/variants-sigh/puzzles.txt from the shared corpus of sigh's constraint strings.

Usage: python3 scripts/sigh-corpus.py ../shared/datasets/variants-sigh/puzzles.jsonl \
           > fixtures/variants-sigh/puzzles.txt

One entry per corpus line, in corpus order: `# N: NAME (COLLECTION)`, `# types: ...` and `# src:`
comment lines, the constraint string on one line (sigh drops all whitespace from it, so the
whitespace inside the corpus strings is dropped here too), then `solution: ...` when the corpus has a
published solution (row-major, in sigh's short form: digits, or letters A.. above 9).
"""
import json
import re
import sys

with open(sys.argv[1], encoding="utf-8") as f:
    rows = [json.loads(line) for line in f if line.strip()]
print("# sigh's variant corpus (../shared/datasets/variants-sigh/puzzles.jsonl), MIT: see LICENSE-sigh-Interactive-Sudoku-Solver.")
print("# Written by scripts/sigh-corpus.py; one constraint string a line, whitespace removed.")
for i, r in enumerate(rows):
    print()
    name = r["name"].replace("\n", " ")
    print(f"# {i}: {name} ({r['collection']})")
    print(f"# types: {' '.join(r['types']) or 'classic'}")
    if r.get("src"):
        print(f"# src: {r['src']}")
    print(re.sub(r"\s+", "", r["input"]))
    if r.get("solution"):
        print(f"solution: {r['solution']}")
