"""Solve and verify a data set of puzzles (CSV or Parquet, one puzzle per row) on a Dask cluster.

Each partition becomes a NumPy array of shape (rows, N*N) and goes through satdoku's batch API on
the worker: ``solve_batch`` (GIL released, ``jobs`` threads), then ``verify_batch`` of the solutions
found against the puzzles (the independent checker), so every row of the output says what the
solver found and whether the checker accepts it. Output: the input's rows in order with
``status``, ``solution``, ``count``, ``verified``, ``micros``, ``nodes`` and ``message``, written as
Parquet or CSV.

    python python/examples/dask_solve.py puzzles.csv --column quizzes --out solved.parquet
    python python/examples/dask_solve.py puzzles.parquet --scheduler tcp://host:8786 --unique

Without ``--scheduler`` a LocalCluster of ``--workers`` processes is started. On a real cluster the
workers need ``pip install ./python`` (the same package) and this file (the script uploads it with
``Client.upload_file``). Puzzle strings are N*N symbols: ``1-9`` then ``A``... for the digits,
``.``, ``0`` (up to 9x9), ``-`` or ``_`` for a blank, as in the Kaggle and sudoku-extreme sets.
"""

from __future__ import annotations

import argparse
import os
from typing import Optional

import numpy as np
import pandas as pd

import satdoku

SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def to_array(puzzles: pd.Series) -> Optional[np.ndarray]:
    """Puzzle strings (all of one length N*N) as a (rows, N*N) uint8 array, 0 blank: the fast path.
    ``None`` if some string is not of that form: the partition then goes to satdoku as strings,
    each read by the CLI's reader, so that a bad row gets the reader's message as its error."""
    strings = puzzles.astype(str).str.strip().str.upper().tolist()
    if not strings:
        return np.zeros((0, 81), dtype=np.uint8)
    width = max(len(s) for s in strings)
    n = int(round(width**0.5))
    table = np.full(256, 255, dtype=np.uint8)
    for blank in ".0-_":
        table[ord(blank)] = 0
    for value, symbol in enumerate(SYMBOLS[:n], start=1):
        table[ord(symbol)] = value
    out = np.full((len(strings), n * n), 255, dtype=np.uint8)
    for i, s in enumerate(strings):
        if len(s) == n * n and s.isascii():
            out[i] = table[np.frombuffer(s.encode(), dtype=np.uint8)]
    return None if (out == 255).any() else out


def to_strings(solutions: np.ndarray) -> list:
    """Rows of digits back to strings (empty where there is no solution)."""
    symbols = np.frombuffer((("." + SYMBOLS).encode()), dtype=np.uint8)
    return ["" if not row.any() else symbols[row].tobytes().decode() for row in solutions]


def solve_partition(frame: pd.DataFrame, column: str, unique: bool, jobs: Optional[int], timeout: Optional[float]) -> pd.DataFrame:
    """One partition: solve every puzzle, verify every solution found, one output row per input row."""
    array = to_array(frame[column])
    puzzles = array if array is not None else frame[column].astype(str).tolist()
    solved = satdoku.solve_batch(puzzles, unique=unique, jobs=jobs, timeout=timeout)
    found = np.isin(solved.status, [satdoku.Status.SOLVED.code, satdoku.Status.UNIQUE.code])
    checked = satdoku.verify_batch(puzzles, solved.solution, jobs=jobs)
    verified = found & (checked.status == satdoku.Status.VALID.code)
    messages = [solved.messages.get(i, "") for i in range(len(frame))]
    return pd.DataFrame(
        {
            "status": [w.value for w in solved.words()],
            "solution": to_strings(np.where(found[:, None], solved.solution, 0)),
            "count": solved.count.astype("int64"),
            "verified": verified,
            "micros": solved.micros.astype("int64"),
            "nodes": solved.nodes.astype("int64"),
            "message": messages,
        },
        index=frame.index,
    )


META = pd.DataFrame(
    {
        "status": pd.Series(dtype="object"),
        "solution": pd.Series(dtype="object"),
        "count": pd.Series(dtype="int64"),
        "verified": pd.Series(dtype="bool"),
        "micros": pd.Series(dtype="int64"),
        "nodes": pd.Series(dtype="int64"),
        "message": pd.Series(dtype="object"),
    }
)


def solve_dataset(path: str, client, column: str = "quizzes", unique: bool = False, jobs: Optional[int] = 1,
                  timeout: Optional[float] = None, blocksize: str = "4MB") -> pd.DataFrame:
    """The solved data set as one pandas DataFrame, in input order (computed on `client`)."""
    import dask.dataframe as dd

    if path.endswith(".parquet") or os.path.isdir(path):
        frame = dd.read_parquet(path, columns=[column])
    else:
        frame = dd.read_csv(path, usecols=[column], dtype={column: str}, blocksize=blocksize)
    solved = frame.map_partitions(solve_partition, column, unique, jobs, timeout, meta=META)
    # CSV partitions number their rows from 0 each: number them across the data set.
    return client.compute(solved).result().reset_index(drop=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("path", help="a CSV file or a Parquet file/folder of puzzles")
    parser.add_argument("--column", default="quizzes", help="the puzzle column (default: quizzes)")
    parser.add_argument("--out", help="write the results here (.parquet or .csv)")
    parser.add_argument("--unique", action="store_true", help="prove uniqueness (count to 2)")
    parser.add_argument("--timeout", type=float, help="seconds per puzzle (status unknown past it)")
    parser.add_argument("--scheduler", help="a running scheduler's address; default: a LocalCluster")
    parser.add_argument("--workers", type=int, default=2, help="LocalCluster worker processes")
    parser.add_argument("--jobs", type=int, default=1, help="satdoku threads per partition")
    args = parser.parse_args()

    from dask.distributed import Client, LocalCluster

    cluster = None if args.scheduler else LocalCluster(n_workers=args.workers, threads_per_worker=1)
    with Client(args.scheduler or cluster) as client:
        client.upload_file(__file__)
        result = solve_dataset(args.path, client, args.column, args.unique, args.jobs, args.timeout)
    if cluster is not None:
        cluster.close()
    print(result["status"].value_counts().to_string())
    print(f"verified: {int(result['verified'].sum())} of {len(result)}")
    if args.out:
        if args.out.endswith(".parquet"):
            result.to_parquet(args.out)
        else:
            result.to_csv(args.out)


if __name__ == "__main__":
    main()
