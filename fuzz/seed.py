#!/usr/bin/env python3
"""Writes the seed corpora of the fuzz targets from the fixtures (run once; fuzzing then grows them).

Parser targets get each fixture (cut to its first 4 KiB at a line end, except the 64x64 one) behind
three option bytes (see `options_from` in bodies.rs): none, and for some fixtures the options they need.
`round_trip` and `solve_check` get puzzles of the fixtures as (cell, value) pairs.
"""
import hashlib
import pathlib

ROOT = pathlib.Path(__file__).resolve().parent
FIXTURES = ROOT.parent / "fixtures"
CORPUS = ROOT / "corpus"
PARSERS = ["parse_auto", "parse_line", "parse_block", "parse_letters", "parse_ints", "parse_csv"]


def put(target, data):
    d = CORPUS / target
    d.mkdir(parents=True, exist_ok=True)
    (d / hashlib.sha1(data).hexdigest()).write_bytes(data)


def head(data, limit=4096):
    if len(data) <= limit:
        return data
    cut = data.rfind(b"\n", 0, limit)
    return data[: cut + 1] if cut > 0 else data[:limit]


# Options bytes: shape (0x24 is 2x4), alphabet index into SPECS (1-based), column index into COLUMNS.
SPECIAL = {
    "bad/no-box-8x8.txt": [bytes([0x24, 0, 0]), bytes([0x33, 0, 0])],
    "36x36-uio-inf1010.txt": [bytes([0, 13, 0])],
    "16x16-hex.csv": [bytes([0, 8, 0]), bytes([0, 0, 5])],
    "kaggle-style.csv": [bytes([0, 0, 2]), bytes([0, 0, 9])],
    "16x16-poj3076-sample.txt": [bytes([0, 10, 0]), bytes([0x44, 7, 0])],
    "pe96.txt": [bytes([0x33, 4, 0]), bytes([0x22, 0, 0])],
}

for path in sorted(FIXTURES.rglob("*")):
    if not path.is_file() or path.suffix == ".md" or path.name.startswith("."):
        continue
    name = str(path.relative_to(FIXTURES))
    data = path.read_bytes()
    if "64x64" not in name:
        data = head(data)
    for opts in [bytes(3)] + SPECIAL.get(name, []):
        for t in PARSERS:
            put(t, opts + data)


def grids(path, n):
    """One-line puzzles of side n from a line-format fixture."""
    for line in (FIXTURES / path).read_text().splitlines():
        line = line.strip()
        if len(line) == n * n and not line.startswith("#"):
            yield [0 if ch in ".0" else int(ch, 36) for ch in line]


def pairs(values, wide=False):
    out = bytearray()
    for i, v in enumerate(values):
        if v:
            out += (bytes([i >> 8, i & 255]) if wide else bytes([i])) + bytes([v - 1])
    return bytes(out)


# solve_check: byte 0 = shape (3 is 3x3, 0 is 2x2) | 4 keeps clashes | limit bits (8: 2, 16: 3, 24: 300).
for k, g in enumerate(grids("top95.txt", 9)):
    if k >= 8:
        break
    put("solve_check", bytes([3 | 8]) + pairs(g))
for k, g in enumerate(grids("17-clue-head200.txt", 9)):
    if k >= 4:
        break
    put("solve_check", bytes([3 | 24]) + pairs(g))
put("solve_check", bytes([0 | 24]))
put("solve_check", bytes([1 | 8, 0, 0, 7, 1]))
put("solve_check", bytes([2 | 4 | 8, 0, 0, 1, 0]))

# round_trip: style, alphabet sequence, then grid_from's bytes (shape index, then pairs).
SHAPES = [(2, 2), (2, 3), (3, 2), (3, 3), (2, 4), (4, 2), (3, 4), (4, 3), (4, 4), (4, 5), (5, 5), (6, 6), (8, 8)]
for k, g in enumerate(grids("top95.txt", 9)):
    if k >= 8:
        break
    put("round_trip", bytes([k, k % 5, SHAPES.index((3, 3))]) + pairs(g))
sol = (FIXTURES / "16x16-poj3076-sample.solution.txt").read_text().split()
vals = [ord(ch) - ord("A") + 1 for row in sol for ch in row]
for style in range(8):
    put("round_trip", bytes([style | 64, 2, SHAPES.index((4, 4))]) + pairs(vals))
put("round_trip", bytes([4, 0, SHAPES.index((8, 8))]) + pairs([(i * 7) % 64 + 1 if i % 5 == 0 else 0 for i in range(4096)], wide=True))

# parse_sigh: each constraint string of the sigh corpus alone, and a few files of several (with the
# corpus file's comment and `solution:` lines between them).
sigh = (FIXTURES / "variants-sigh" / "puzzles.txt").read_bytes()
strings = [l for l in sigh.splitlines() if l.startswith(b".")]
for s in strings:
    put("parse_sigh", s + b"\n")
put("parse_sigh", head(sigh))
put("parse_sigh", b"\n".join(strings[:3]))
