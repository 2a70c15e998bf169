"""Batches: the same answers as the CLI's JSON for the same file, bad rows as error rows, NumPy in
and out, and Ctrl-C."""

import os
import signal
import threading

import numpy as np
import pytest

import satdoku
from satdoku import Status

from conftest import FIXTURES, cli_json, line_array, planted


def compare_with_cli(path, *cli_args, **options):
    """solve_batch over `path` against `satdoku solve ARGS PATH --output json`: same number of
    records, same status, count, solution text and error for every puzzle."""
    records = cli_json("solve", *cli_args, str(path))
    batch = satdoku.solve_batch(satdoku.read_file(path), detail=True, **options)
    assert len(records) == len(batch) > 0
    for i, rec in enumerate(records):
        assert rec["index"] == i
        assert Status.from_code(batch.status[i]) == rec["status"], (i, rec)
        if "count" in rec:
            assert int(batch.count[i]) == rec["count"], (i, rec)
        if "solution" in rec:
            assert batch.details[i]["texts"] == [rec["solution"]], (i, rec)
        if "solutions" in rec:
            assert len(batch.details[i]["texts"]) == 2
        if rec["status"] == "error":
            assert batch.messages[i] == rec["error"], (i, rec)
    return records, batch


def test_top95_equals_the_cli():
    compare_with_cli(FIXTURES / "top95.txt", "--unique", unique=True)


def test_pe96_equals_the_cli_and_project_euler():
    _, batch = compare_with_cli(FIXTURES / "pe96.txt")
    corners = batch.solution[:, :3].astype(int) @ np.array([100, 10, 1])
    assert corners.sum() == 24702  # Project Euler 96's published answer


def test_counting_and_multiple_equal_the_cli():
    compare_with_cli(FIXTURES / "serg-benchmark-head200.txt", "--limit", "3", limit=3)
    compare_with_cli(FIXTURES / "9x9-sudoku-acs-logic-solvable.txt", "--limit", "30", limit=30)


def test_large_grids_and_variants_equal_the_cli():
    compare_with_cli(FIXTURES / "16x16-sudoku-acs-sample.txt", "--unique", unique=True)
    compare_with_cli(FIXTURES / "variants" / "mixed.txt", "--unique", unique=True)
    compare_with_cli(FIXTURES / "variants" / "jigsaw.txt")


def test_bad_rows_are_error_rows_and_the_cli_says_the_same():
    compare_with_cli(FIXTURES / "bad" / "trailing-notes.txt")
    compare_with_cli(FIXTURES / "bad" / "duplicate-box.txt")


def test_check_batch_equals_cli_check():
    path = FIXTURES / "top95.txt"
    records = cli_json("check", str(path))
    batch = satdoku.check_batch(satdoku.read_file(path))
    assert [r["status"] for r in records] == [w.value for w in batch.words()]
    assert all(r["agree"] for r in records) and (batch.agree == 1).all()


def test_array_rows_with_problems_keep_the_batch():
    base = line_array(FIXTURES / "top95.txt")[:6].copy()
    base[1, :2] = [5, 5]  # two 5s in row 1 (and the 5 at r1c1 may already be a given)
    base[1, 2:9] = 0
    base[3, 10] = 9
    base[3, 11] = 9  # two 9s in row 2
    base[3, 12:18] = 0
    grid = base.astype(np.uint16)
    grid[4, 0] = 12  # out of range for 9x9
    batch = satdoku.solve_batch(grid, unique=True)
    words = batch.words()
    assert words[0] == words[2] == words[5] == Status.UNIQUE
    assert words[1] == words[3] == words[4] == Status.ERROR
    assert batch.messages[1] == "<array>[1]: row 1 has 5 twice, at r1c1 and r1c2"
    assert batch.messages[3] == "<array>[3]: row 2 has 9 twice, at r2c2 and r2c3"
    assert batch.messages[4] == "<array>[4]: value 12 at r1c1 is out of range 1..=9"
    assert not batch.solution[[1, 3, 4]].any()
    # Strings: a bad string is its row's error, with the reader's message.
    strings = satdoku.solve_batch(["1" * 3, (FIXTURES / "top95.txt").read_text().splitlines()[0]])
    assert strings.words() == [Status.ERROR, Status.SOLVED]
    assert strings.messages[0].startswith("<strings>[0]:1:4: too short for any grid")


def test_numpy_shapes_and_types():
    base = line_array(FIXTURES / "top95.txt")[:10]
    a = satdoku.solve_batch(base)
    b = satdoku.solve_batch(base.reshape(10, 9, 9).astype(np.uint16))
    c = satdoku.solve_batch(base.astype(np.int64), jobs=1)
    assert a.solution.dtype == np.uint8 and a.solution.shape == (10, 81)
    assert (a.solution == b.solution).all() and (a.solution == c.solution).all()
    assert a.counts() == {"solved": 10}
    first = next(a.records())
    assert (first["index"], first["status"], first["backend"]) == (0, "solved", "dfs")
    assert first["solution"] == a.solution[0].tolist()
    for field in ("status", "count", "nodes", "micros", "backend"):
        assert len(getattr(a, field)) == 10
    with pytest.raises(ValueError, match="N\\*N"):
        satdoku.solve_batch(np.zeros((2, 80), dtype=np.uint8))
    with pytest.raises(ValueError, match="unsigned integers"):
        satdoku.solve_batch(np.zeros((2, 81), dtype=np.float32))
    empty = satdoku.solve_batch(np.zeros((0, 81), dtype=np.uint8))
    assert len(empty) == 0
    # 16x16 from an array, results in uint8.
    r16 = satdoku.solve((FIXTURES / "16x16-poj3076-sample.txt").read_text())
    givens = np.array([satdoku.read_file(FIXTURES / "16x16-poj3076-sample.txt").row_values(0)[0]], dtype=np.uint8)
    b16 = satdoku.solve_batch(givens)
    assert (b16.solution[0] == r16.solution.reshape(-1)).all()


def test_verify_batch_names_each_broken_rule():
    puzzles = line_array(FIXTURES / "top95.txt")[:4]
    solved = satdoku.solve_batch(puzzles).solution.copy()
    solved[1, 80] = 0
    solved[2, 0], solved[2, 9] = solved[2, 9], solved[2, 0]
    v = satdoku.verify_batch(puzzles, solved)
    assert v.words()[0] == v.words()[3] == Status.VALID
    assert v.words()[1] == v.words()[2] == Status.INVALID
    assert v.messages[1] == "invalid: cell r9c9 is empty"
    assert "twice" in v.messages[2] or "was changed" in v.messages[2]
    with pytest.raises(ValueError, match="4 puzzles but 3 solutions"):
        satdoku.verify_batch(puzzles, solved[:3])


def test_jobs_do_not_change_answers():
    base = planted(line_array(FIXTURES / "17-clue-head200.txt"), 300, seed=7)
    one = satdoku.solve_batch(base, unique=True, jobs=1)
    four = satdoku.solve_batch(base, unique=True, jobs=4)
    assert (one.status == four.status).all() and (one.solution == four.solution).all()
    assert one.words() == [Status.UNIQUE] * 300


def test_a_short_batch_of_slow_puzzles_is_shared_among_the_workers():
    # Workers take turns claiming rows; a short batch must not go mostly to one of them (chunks
    # of 8 put 8 of 10 slow puzzles on one of two threads), and a long one goes 8 rows at a time.
    from satdoku import _satdoku

    for rows, jobs in [(10, 2), (24, 2), (7, 3), (1, 4), (1000, 2)]:
        claims = _satdoku._claims(rows, jobs)
        # Every row once, in order.
        assert [r for a, b in claims for r in range(a, b)] == list(range(rows))
        assert all(1 <= b - a <= 8 for a, b in claims)
        # No claim more than an even share of what was left for twice the workers.
        assert all(b - a <= -(-(rows - a) // (2 * jobs)) for a, b in claims), claims
        # Taking turns, no worker gets more than its share and a claim besides.
        for w in range(jobs):
            mine = sum(b - a for a, b in claims[w::jobs])
            assert mine <= rows / jobs + 8, (rows, jobs, w, mine)
    assert _satdoku._claims(1000, 2)[:3] == [(0, 8), (8, 16), (16, 24)]


def test_ctrl_c_stops_the_batch_and_keeps_the_rows_done():
    # Counting 50,000 solutions of an empty grid takes milliseconds a row, so 5,000 rows take over
    # a minute on one job (a batch of easy puzzles can finish before the signal on a fast machine);
    # SIGINT after 0.3 s must stop the batch long before it is done. No clock is asserted: the rows
    # finished are counted.
    limit = 50_000
    big = np.zeros((5_000, 81), dtype=np.uint8)
    timer = threading.Timer(0.3, os.kill, args=(os.getpid(), signal.SIGINT))
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt) as stopped:
            satdoku.count_batch(big, limit=limit, jobs=1)
    finally:
        timer.cancel()
    partial = stopped.value.partial
    done = partial.status != Status.NOT_RUN.code
    assert 0 < done.sum() < len(big) // 2, done.sum()
    # The rows that ran are answered in full (an empty grid has far more than `limit` solutions),
    # but for the one the job was counting when the signal came, which may end `unknown` with the
    # solutions it had counted; those that did not run are empty.
    full = partial.status == Status.MULTIPLE.code
    cut = partial.status == Status.UNKNOWN.code
    assert (full | cut)[done].all() and cut.sum() <= 1, partial.status[done]
    assert (partial.count[full] == limit).all() and (partial.count[cut] < limit).all()
    assert not partial.count[~done].any()
    assert not partial.solution[~done].any()
    # And the module still works afterwards.
    base = line_array(FIXTURES / "17-clue-head200.txt")[:5]
    assert satdoku.solve_batch(base).words() == [Status.SOLVED] * 5
