"""Shared pieces of the Python tests: the repository's fixtures, the CLI binary, planted puzzles."""

import json
import os
import pathlib
import shutil
import subprocess

import numpy as np
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures"


def cli_path():
    """The `satdoku` binary to compare with: $SATDOKU_BIN, else the repository's release build, else
    one on PATH. CI sets SATDOKU_REQUIRE_CLI=1, so that a missing binary fails instead of skipping."""
    for candidate in (os.environ.get("SATDOKU_BIN"), ROOT / "target" / "release" / "satdoku", shutil.which("satdoku")):
        if candidate and pathlib.Path(candidate).is_file():
            return str(candidate)
    if os.environ.get("SATDOKU_REQUIRE_CLI") == "1":
        pytest.fail("no satdoku binary (cargo build --release, or set SATDOKU_BIN)")
    pytest.skip("no satdoku binary: cargo build --release, or set SATDOKU_BIN")


def cli_json(*args, stdin=None):
    """The CLI's JSON Lines records for `args` (a list of dicts, in output order)."""
    run = subprocess.run(
        [cli_path(), *args, "--output", "json", "-q"],
        input=stdin,
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode in (0, 1, 2, 3), run.stderr
    return [json.loads(line) for line in run.stdout.splitlines()]


def planted(base: np.ndarray, count: int, seed: int) -> np.ndarray:
    """`count` puzzles made from the (B, 81) 9x9 puzzles `base` by transformations that keep the
    number of solutions: a digit relabelling, rows permuted within bands, bands permuted, columns
    likewise, and a transposition, chosen by a seeded generator (so the file is the same every run)."""
    rng = np.random.default_rng(seed)
    out = np.empty((count, 81), dtype=np.uint8)
    for k in range(count):
        grid = base[rng.integers(len(base))].reshape(9, 9)
        relabel = np.concatenate([[0], rng.permutation(9) + 1]).astype(np.uint8)
        grid = relabel[grid]
        rows = np.concatenate([band * 3 + rng.permutation(3) for band in rng.permutation(3)])
        cols = np.concatenate([stack * 3 + rng.permutation(3) for stack in rng.permutation(3)])
        grid = grid[rows][:, cols]
        if rng.integers(2):
            grid = grid.T
        out[k] = grid.reshape(81)
    return out


def line_array(path: pathlib.Path) -> np.ndarray:
    """The 9x9 one-line puzzles of `path` (comment lines skipped) as a (B, 81) uint8 array."""
    rows = []
    for line in path.read_text().splitlines():
        line = line.strip()
        if len(line) >= 81 and not line.startswith("#"):
            rows.append([0 if c in ".0" else int(c) for c in line[:81]])
    return np.array(rows, dtype=np.uint8)
