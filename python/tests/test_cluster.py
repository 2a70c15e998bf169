"""The batch API on a cluster: a Dask LocalCluster of 2 worker processes solves a 10,000-puzzle file
(CSV and Parquet) through the example script, with the same results as one process; and the CLI route
for Spark (`RDD.pipe` over `satdoku solve --output json -`), one record per line in order."""

import json
import pathlib
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

import satdoku
from satdoku import Status

from conftest import FIXTURES, cli_path, line_array, planted

EXAMPLES = pathlib.Path(__file__).resolve().parents[1] / "examples"
sys.path.insert(0, str(EXAMPLES))
import dask_solve  # noqa: E402

distributed = pytest.importorskip("dask.distributed")


@pytest.fixture(scope="module")
def dataset(tmp_path_factory):
    """10,000 puzzles planted from the 17-clue and top1465 heads (seeded: the same every run), with
    a few bad rows, as a Kaggle-style CSV (`quizzes` column) and as Parquet."""
    base = np.concatenate([line_array(FIXTURES / "17-clue-head200.txt"), line_array(FIXTURES / "top1465-head200.txt")])
    puzzles = planted(base, 10_000, seed=2024)
    strings = ["".join(map(str, row)) for row in puzzles]
    strings[17] = strings[17][:80]  # too short
    strings[4242] = "x" + strings[4242][1:]  # unknown symbol
    folder = tmp_path_factory.mktemp("dataset")
    frame = pd.DataFrame({"quizzes": strings})
    frame.to_csv(folder / "puzzles.csv", index=False)
    frame.to_parquet(folder / "puzzles.parquet")
    return folder, strings


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
    with distributed.Client(cluster) as c:
        c.upload_file(str(EXAMPLES / "dask_solve.py"))
        yield c
    cluster.close()


def single_process(strings):
    """The same data set in this process, through the same partition function."""
    return dask_solve.solve_partition(pd.DataFrame({"quizzes": strings}), "quizzes", True, None, None)


@pytest.mark.parametrize("name", ["puzzles.csv", "puzzles.parquet"])
def test_two_workers_equal_one_process(dataset, client, name):
    folder, strings = dataset
    result = dask_solve.solve_dataset(str(folder / name), client, unique=True, blocksize="100KB")
    assert client.run(lambda: 1).keys().__len__() == 2, "two workers"
    local = single_process(strings)
    assert len(result) == len(strings) == 10_000
    assert list(result.index) == list(range(10_000)), "input order"
    # Messages name a row by its place in its partition (`<strings>[k]`): compare them without it.
    def same(frame):
        frame = frame.drop(columns=["micros"]).reset_index(drop=True)
        frame["message"] = frame["message"].str.replace(r"^<strings>\[\d+\]", "<strings>[]", regex=True)
        return frame

    pd.testing.assert_frame_equal(same(result), same(local))
    counts = result["status"].value_counts().to_dict()
    assert counts == {"unique": 9_998, "error": 2}
    assert result["verified"].sum() == 9_998
    assert result.loc[17, "message"].startswith("<strings>[")
    assert "wrong length" in result.loc[17, "message"] or "too short" in result.loc[17, "message"]
    assert "unknown symbol 'x'" in result.loc[4242, "message"]


def test_the_batch_api_itself_equals_a_cluster_run(dataset, client):
    # A direct map over NumPy chunks (no dataframe), as a user with arrays would write it.
    _, strings = dataset
    good = [s for i, s in enumerate(strings) if i not in (17, 4242)]
    array = dask_solve.to_array(pd.Series(good))
    chunks = np.array_split(array, 8)
    futures = client.map(lambda a: satdoku.solve_batch(a, unique=True, jobs=1).solution, chunks)
    distributed_solutions = np.concatenate(client.gather(futures))
    assert (distributed_solutions == satdoku.solve_batch(array, unique=True).solution).all()


def test_spark_route_pipe_gives_one_record_per_line_in_order(dataset):
    """What `RDD.pipe(["satdoku", "solve", "--output", "json", "-q", "-"])` does to each partition:
    the partition's elements written one per line to the command's standard input, its standard
    output read back line by line. The CLI writes exactly one JSON record per input puzzle, in input
    order, so zipping a partition with its output lines pairs every puzzle with its answer."""
    _, strings = dataset
    partitions = [strings[k : k + 1_500] for k in range(0, 3_000, 1_500)]
    for part in partitions:
        run = subprocess.run(
            [cli_path(), "solve", "--output", "json", "-q", "--unique", "-"],
            input="".join(s + "\n" for s in part),
            capture_output=True,
            text=True,
        )
        lines = run.stdout.splitlines()
        assert len(lines) == len(part)
        records = [json.loads(line) for line in lines]
        assert [r["index"] for r in records] == list(range(len(part)))
        expected = satdoku.solve_batch(part, unique=True)
        assert [r["status"] for r in records] == [w.value for w in expected.words()]
    # An empty partition still gets one record (the CLI says the input holds no puzzle): filter
    # empty partitions out, or drop that record, before zipping.
    run = subprocess.run([cli_path(), "solve", "--output", "json", "-q", "-"], input="", capture_output=True, text=True)
    assert [json.loads(line)["status"] for line in run.stdout.splitlines()] == ["error"]
