"""Solve a data set of puzzles on Spark through the command-line tool: ``RDD.pipe``.

Every executor needs the ``satdoku`` binary on its PATH (``cargo install --path .`` from the
repository root, or ship it with ``--files`` and call it as ``./satdoku``). Each partition's
elements are written to ``satdoku solve --output json -q -`` one per line (a puzzle string:
N*N symbols, ``.`` or ``0`` blank, as in the Kaggle sets); the tool prints exactly one JSON
record per input puzzle, **in input order**, bad puzzles included (``"status": "error"`` with the
reader's message), so the n-th output line of a partition is the answer to its n-th element and
``zip`` pairs them. ``index`` in each record counts from 0 in each partition. Two things to keep
the pairing one to one: an element must be one puzzle on one line (no header, no comment lines, no
blank elements), and an empty partition still gets one record (``no puzzle found``): the script
skips empty partitions.

    spark-submit python/examples/spark_pipe.py puzzles.csv --column quizzes --out solved/

(Spark is not among the tested engines; what this relies on, one record per line in order, is tested
in python/tests/test_cluster.py with the same command.)
"""

import argparse
import json


def solve_partition(lines, command):
    """The records for one partition's puzzle lines (what ``RDD.pipe`` does, with the pairing)."""
    import subprocess

    lines = list(lines)
    if not lines:
        return []
    out = subprocess.run(command, input="".join(line + "\n" for line in lines), capture_output=True, text=True)
    records = [json.loads(r) for r in out.stdout.splitlines()]
    assert len(records) == len(lines), out.stderr
    return [dict(record, puzzle=line) for line, record in zip(lines, records)]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("path")
    parser.add_argument("--column", default="quizzes")
    parser.add_argument("--out", required=True)
    parser.add_argument("--unique", action="store_true")
    parser.add_argument("--satdoku", default="satdoku", help="the binary on the executors")
    args = parser.parse_args()

    from pyspark.sql import SparkSession

    spark = SparkSession.builder.appName("satdoku").getOrCreate()
    puzzles = spark.read.csv(args.path, header=True).select(args.column).rdd.map(lambda row: row[0].strip())
    command = [args.satdoku, "solve", "--output", "json", "-q", *(["--unique"] if args.unique else []), "-"]
    # RDD.pipe(command) is the plain form: puzzles.pipe(" ".join(command)) gives the JSON lines in the
    # partition's order. mapPartitions does the same and keeps each puzzle beside its record.
    records = puzzles.mapPartitions(lambda part: solve_partition(part, command))
    records.map(json.dumps).saveAsTextFile(args.out)
    spark.stop()


if __name__ == "__main__":
    main()
