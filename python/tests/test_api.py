"""Every API on one puzzle and on a batch, on 9x9, 16x16, 25x25 and variants; answers judged by the
independent checker (`verify`) and by known solutions from outside (published solution files, the
solutions stated with the variant puzzles)."""

import pathlib
import re
import shutil
import subprocess

import numpy as np
import pytest

import satdoku
from satdoku import Status

from conftest import FIXTURES

TOP95_1 = (FIXTURES / "top95.txt").read_text().splitlines()[0]
POJ = (FIXTURES / "16x16-poj3076-sample.txt").read_text()
POJ_SOLUTION = (FIXTURES / "16x16-poj3076-sample.solution.txt").read_text()
RK25 = (FIXTURES / "25x25-rkkautsar-1.txt").read_text()


def variant_puzzle(name: str, k: int = 0) -> str:
    """The k-th puzzle of a variant fixture, with its rule lines and stated solution."""
    text = (FIXTURES / "variants" / name).read_text()
    chunks = [c for c in text.split("# id:") if c.strip()]
    return "# id:" + chunks[k]


X = variant_puzzle("x.txt")
# The X puzzle's grid alone, without its rule and solution lines.
X_GRID = "\n".join([line for line in X.splitlines() if not line.startswith("#")][:9])
KILLER = variant_puzzle("killer.txt")

CASES = {
    "9x9": (TOP95_1, 9),
    "16x16": (POJ, 16),
    "25x25": (RK25, 25),
    "x": (X, 9),
    "killer": (KILLER, 9),
}


@pytest.fixture(params=sorted(CASES))
def case(request):
    return CASES[request.param]


def test_solve_unique_verified_and_counted(case):
    text, n = case
    r = satdoku.solve(text, unique=True)
    assert r.status == Status.UNIQUE
    assert r.solution.shape == (n, n)
    assert r.count == 1 and r.complete
    # The independent checker, called from Python on the grid we got.
    assert satdoku.verify(text, r.solution).valid
    # Givens kept.
    givens = satdoku.read_text(text).row_values(0)[0]
    flat = r.solution.reshape(-1)
    assert all(g == 0 or g == v for g, v in zip(givens, flat))
    c = satdoku.count(text, limit=5)
    assert (c.status, c.count, c.complete) == (Status.UNIQUE, 1, True)


def test_check_agrees(case):
    text, n = case
    c = satdoku.check(text)
    assert c.status == Status.UNIQUE
    assert c.agree is True
    assert c.dfs["status"] == Status.UNIQUE and c.sat["status"] == Status.UNIQUE
    assert c.solution.shape == (n, n)


def test_encode_is_dimacs(case):
    text, n = case
    cnf = satdoku.encode(text, encoding="extended")
    header = [line for line in cnf.splitlines() if line.startswith("p cnf")]
    assert len(header) == 1
    variables = int(header[0].split()[2])
    assert variables >= n * n * n  # the cell variables x(r, c, d) come first
    assert f"{n}x{n} grid" in cnf


def test_certify_checked(case, tmp_path):
    text, n = case
    cert = satdoku.certify(text, dir=tmp_path)
    assert cert.status == Status.UNIQUE and cert.certified, cert.message
    assert cert.cnf.startswith(b"c ") and b"p cnf" in cert.cnf
    satdoku.check_certificate(cert.cnf, cert.drat)
    assert pathlib.Path(cert.paths[0]).read_bytes() == cert.cnf
    # A proof cut short no longer refutes the CNF.
    lemmas = cert.drat.splitlines()
    with pytest.raises(ValueError):
        satdoku.check_certificate(cert.cnf, b"\n".join(lemmas[: len(lemmas) // 3]) + b"\n")
    rate = shutil.which("rate")
    if rate:
        run = subprocess.run([rate, *cert.paths], capture_output=True, text=True)
        assert run.returncode == 0 and "s VERIFIED" in run.stdout, run.stdout + run.stderr


def test_check_certificate_ties_the_certificate_to_its_puzzle(case, tmp_path):
    text, n = case
    cert = satdoku.certify(text)
    assert cert.status == Status.UNIQUE and cert.certified, cert.message
    # The certificate is this puzzle's: its clauses are the puzzle's plain CNF's, its solution solves it.
    satdoku.check_certificate(cert.cnf, cert.drat, text, solution=cert.solution)
    # Given with a solution that is not one, it is refused before the proof is read.
    wrong = cert.solution.copy()
    wrong[0, 0], wrong[0, 1] = wrong[0, 1], wrong[0, 0]
    with pytest.raises(ValueError, match="solution"):
        satdoku.check_certificate(cert.cnf, cert.drat, text, solution=wrong)
    # A clause the plain CNF does not have is named by its line, even if the proof still refutes.
    lines = cert.cnf.decode().splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith("p cnf"))
    variables, clauses = lines[header].split()[2:4]
    lines[header] = f"p cnf {variables} {int(clauses) + 1}"
    lines.append("1 2 3 0")
    bad = ("\n".join(lines) + "\n").encode()
    satdoku.check_certificate(bad, cert.drat)  # the proof alone says nothing about the puzzle
    with pytest.raises(ValueError, match="not one of the puzzle's plain CNF"):
        satdoku.check_certificate(bad, cert.drat, text, solution=cert.solution)


def test_check_certificate_refuses_another_puzzles_certificate():
    first, second = (FIXTURES / "top95.txt").read_text().splitlines()[:2]
    cert = satdoku.certify(first)
    assert cert.certified, cert.message
    with pytest.raises(ValueError, match="not one of the puzzle's plain CNF"):
        satdoku.check_certificate(cert.cnf, cert.drat, second)
    with pytest.raises(ValueError, match="pass puzzle="):
        satdoku.check_certificate(cert.cnf, cert.drat, solution=cert.solution)


def test_batch_matches_single(case):
    text, n = case
    single = satdoku.solve(text, unique=True)
    batch = satdoku.solve_batch([text, text, text], unique=True, jobs=2)
    assert batch.words() == [Status.UNIQUE] * 3
    assert batch.solution.shape == (3, n * n)
    for row in batch.solution:
        assert (row == single.solution.reshape(-1)).all()
    checked = satdoku.check_batch([text, text], jobs=2)
    assert checked.words() == [Status.UNIQUE] * 2 and (checked.agree == 1).all()
    verified = satdoku.verify_batch([text], single.solution.reshape(1, -1))
    assert verified.words() == [Status.VALID]
    certified = satdoku.certify_batch([text])
    assert certified.words() == [Status.UNIQUE] and certified.certified[0] == 1
    cnfs = satdoku.encode_batch([text, "garbage"])
    assert isinstance(cnfs[0], bytes) and isinstance(cnfs[1], satdoku.ParseError)


def test_known_solutions_from_outside():
    # POJ 3076's published sample output.
    r = satdoku.solve(POJ, unique=True)
    assert r.text == "".join(POJ_SOLUTION.split())
    # The solution stated with the X puzzle (the `solution:` block): `expected` compares.
    x = satdoku.solve(X)
    assert x.expected == "match" and x.expected_problem is None
    k = satdoku.solve(KILLER, unique=True)
    assert k.status == Status.UNIQUE and k.expected == "match"


def test_variant_rules_apply():
    # The X puzzle without its variant line has more than one solution; with --variant x it is unique.
    grid_only = X_GRID
    assert satdoku.count(grid_only, limit=2).status == Status.MULTIPLE
    assert satdoku.count(grid_only, limit=2, variant=["x"]).status == Status.UNIQUE
    # The same from an array, with the variant given as an option.
    values = satdoku.read_text(grid_only).row_values(0)[0]
    array = np.array([values], dtype=np.uint8)
    assert satdoku.solve_batch(array, unique=True).words() == [Status.MULTIPLE]
    assert satdoku.solve_batch(array, unique=True, variant=["x"]).words() == [Status.UNIQUE]


def test_verify_names_the_broken_rule():
    r = satdoku.solve(TOP95_1)
    puzzle = satdoku.read_text(TOP95_1).row_values(0)[0]
    # Swap two open cells of row 1 that hold different digits: each column then holds a digit twice.
    open_cells = [c for c in range(9) if puzzle[c] == 0]
    a, b = open_cells[0], open_cells[1]
    bad = r.solution.copy()
    bad[0, a], bad[0, b] = bad[0, b], bad[0, a]
    v = satdoku.verify(TOP95_1, bad)
    assert v.status == Status.INVALID and not v
    assert v.message.startswith(f"invalid: column {a + 1} holds {bad[0, a]} twice, at r1c{a + 1} and r")
    # A changed given.
    given = next(c for c in range(81) if puzzle[c])
    changed = r.solution.reshape(-1).copy()
    changed[given] = changed[given] % 9 + 1
    v = satdoku.verify(TOP95_1, changed)
    assert "was changed to" in v.message
    # An empty cell.
    empty = r.solution.reshape(-1).copy()
    empty[40] = 0
    assert satdoku.verify(TOP95_1, empty).message == "invalid: cell r5c5 is empty"
    # A killer cage whose sum is off, with the cages kept: digits 1 and 2 swapped everywhere keep
    # every unit valid but break the cage sums.
    k = satdoku.solve(KILLER)
    swapped = k.solution.copy()
    ones, twos = swapped == 1, swapped == 2
    swapped[ones], swapped[twos] = 2, 1
    assert not any(satdoku.read_text(KILLER).row_values(0)[0]), "the killer has no givens"
    v = satdoku.verify(KILLER, swapped)
    assert v.status == Status.INVALID
    assert re.fullmatch(r"invalid: cage at r\dc\d \(sum \d+\) sums to \d+", v.message), v.message
    # The same grid against the classic rules alone (no cages) is valid: the cages are the rule broken.
    assert satdoku.verify("." * 81, swapped).valid


def test_verify_unique_finds_another_solution():
    grid_only = X_GRID
    one = satdoku.solve(grid_only)
    v = satdoku.verify(grid_only, one.solution, unique=True)
    assert v.status == Status.NOT_UNIQUE
    assert v.other is not None and (v.other != one.solution).any()
    assert satdoku.verify(grid_only, v.other).valid
    assert satdoku.verify(TOP95_1, satdoku.solve(TOP95_1).solution, unique=True).status == Status.VALID


def test_inputs_of_every_kind_agree():
    r = satdoku.solve(TOP95_1)
    values = satdoku.read_text(TOP95_1).row_values(0)[0]
    as_list = [values[i * 9 : (i + 1) * 9] for i in range(9)]
    for puzzle in (as_list, np.array(as_list, dtype=np.uint8), np.array(values, dtype=np.uint16)):
        assert (satdoku.solve(puzzle).solution == r.solution).all()
    assert (satdoku.solve(pathlib.Path(FIXTURES / "norvig-hardest.txt").read_text().splitlines()[0]).status == Status.SOLVED)


def test_errors_are_exceptions_with_the_cli_messages(tmp_path):
    with pytest.raises(satdoku.ParseError, match=r"^<string>:1:4: too short for any grid"):
        satdoku.solve("123")
    dup = "11" + "." * 79
    with pytest.raises(satdoku.ParseError, match=r"^<string>:1:2: row 1 has 1 twice, at r1c1 and r1c2$"):
        satdoku.solve(dup)
    with pytest.raises(FileNotFoundError, match="nope.txt: cannot read"):
        satdoku.read_file(tmp_path / "nope.txt")
    with pytest.raises(ValueError, match="several"):
        satdoku.solve(pathlib.Path(FIXTURES / "top95.txt"))
    with pytest.raises(ValueError, match="backend"):
        satdoku.solve(TOP95_1, backend="magic")
    with pytest.raises(ValueError, match="unique and limit"):
        satdoku.solve(TOP95_1, unique=True, limit=3)
    # A file's bad puzzle keeps its FILE:LINE:COLUMN.
    bad = FIXTURES / "bad" / "wrong-length.txt"
    batch = satdoku.solve_batch(satdoku.read_file(bad))
    errors = [m for m in batch.messages.values() if "wrong length" in m]
    assert errors == [f"{bad}:2:81: wrong length: expected 81 symbols for 9x9, found 80"]


def test_help_says_what_the_cli_says():
    for text in ("--timeout", "--budget", "unknown", "internal-error", "--encoding"):
        assert text in satdoku.solve.__doc__ and text in satdoku.solve_batch.__doc__
    assert "independent verifier" in satdoku.solve.__doc__
    assert "each within its own" in satdoku.check.__doc__
