"""satdoku: Sudoku-family grids (4x4 to 400x400, variants) solved by two independent backends.

The same library as the ``satdoku`` command-line tool, without a subprocess: a native depth-first
search and a SAT encoding solved in-process (varisat, or CaDiCaL in a build with the ``cadical``
feature), every grid either returns checked by an independent verifier, DRAT certificates for
``unique`` and ``none``.

One puzzle (a string in any format the CLI reads, variant lines included; a list of lists; a NumPy
array of shape (N, N) or (N*N,); a :class:`pathlib.Path` to a file of one puzzle)::

    import satdoku
    r = satdoku.solve("4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......", unique=True)
    r.status          # Status.UNIQUE ("unique")
    r.solution        # a (9, 9) NumPy array
    satdoku.verify(puzzle, r.solution).valid   # True

A batch (a NumPy uint8/uint16 array of shape (B, N*N), 0 blank; a list of strings; a file read by
:func:`read_file`) runs on every core in Rust with the GIL released, and gives arrays back::

    b = satdoku.solve_batch(array, unique=True, jobs=4)
    b.status          # uint8 codes, Status(...).code
    b.solution        # (B, N*N), 0 where there is none
    b.messages        # {row: message} for bad rows and problems

Ctrl-C stops a batch within a second and raises KeyboardInterrupt; the rows finished so far are on
the exception's ``partial`` attribute (rows not run have status ``not-run``).
"""

from __future__ import annotations

import enum
import os
from dataclasses import dataclass, field
from typing import Any, Dict, Iterator, List, Optional, Sequence, Tuple, Union

import numpy as np

from . import _satdoku
from ._satdoku import Puzzles

__all__ = [
    "Batch",
    "Certificate",
    "CheckResult",
    "InternalError",
    "ParseError",
    "Puzzles",
    "Result",
    "SolveError",
    "Status",
    "Verification",
    "certify",
    "certify_batch",
    "check",
    "check_batch",
    "check_certificate",
    "count",
    "count_batch",
    "encode",
    "encode_batch",
    "read_file",
    "read_text",
    "sat_solvers",
    "solve",
    "solve_batch",
    "verify",
    "verify_batch",
]

__version__: str = _satdoku.VERSION


class Status(str, enum.Enum):
    """A puzzle's status: the words of the CLI's JSON ``status`` field.

    A member compares equal to its word (``Status.UNIQUE == "unique"``); ``.code`` is its value in
    the ``status`` arrays of a :class:`Batch`.
    """

    SOLVED = "solved"
    """A solution found; uniqueness not asked."""
    UNIQUE = "unique"
    """The only solution (proven)."""
    MULTIPLE = "multiple"
    """At least two solutions (``count`` says how many were counted)."""
    NONE = "none"
    """No solution (proven)."""
    UNKNOWN = "unknown"
    """A limit (timeout, budget) was hit first."""
    DISAGREE = "disagree"
    """The two backends contradict each other (a bug in one of them)."""
    INTERNAL_ERROR = "internal-error"
    """A backend returned a grid the independent verifier rejects (never shown as an answer)."""
    ERROR = "error"
    """Bad input (the message says where and what), or a puzzle a backend cannot attempt."""
    NOT_RUN = "not-run"
    """The batch was interrupted before this row ran."""
    VALID = "valid"
    """verify: the solution passes (and with ``unique=True``, is proven the only one)."""
    INVALID = "invalid"
    """verify: the solution breaks a rule (the message names it)."""
    NOT_UNIQUE = "not-unique"
    """verify with ``unique=True``: valid, but another solution exists."""
    UNDECIDED = "undecided"
    """verify with ``unique=True``: valid; uniqueness not decided within the limits."""
    UNCONFIRMED = "unconfirmed"
    """verify with ``unique=True``: valid; unique according to one backend only."""

    @property
    def code(self) -> int:
        """The value of this status in a :class:`Batch`'s ``status`` array."""
        return _CODES[self.value]

    @classmethod
    def from_code(cls, code: int) -> "Status":
        """The status of a code of a ``status`` array."""
        return cls(_satdoku.STATUS_WORDS[int(code)])

    def __str__(self) -> str:
        return self.value


_CODES = {w: i for i, w in enumerate(_satdoku.STATUS_WORDS)}
_BACKENDS = ("", "dfs", "sat", "both")


class ParseError(ValueError):
    """A puzzle that cannot be read: ``FILE:LINE:COLUMN: message``, as the CLI prints it."""


class SolveError(ValueError):
    """A puzzle the backend cannot attempt (too large for it, a cage it cannot encode, ...)."""


class InternalError(RuntimeError):
    """A backend returned a grid that the independent verifier rejects: a bug, never an answer."""


PuzzleLike = Union[str, "os.PathLike[str]", Sequence[Sequence[int]], np.ndarray, Puzzles]
BatchLike = Union[np.ndarray, Sequence[str], "os.PathLike[str]", Puzzles]

# ---------------------------------------------------------------------------------------------
# Reading


def read_text(
    text: str,
    *,
    name: str = "<string>",
    format: Optional[str] = None,
    symbols: Optional[str] = None,
    box: Optional[str] = None,
    variant: Sequence[str] = (),
    column: Optional[str] = None,
) -> Puzzles:
    """Every puzzle of ``text``, read as ``satdoku solve`` reads a file named ``name``.

    The format (line, block, letters, ints, csv), the grid side and the symbols are detected as the
    CLI detects them, or forced: ``format`` (``--format``), ``symbols`` (``--symbols``, e.g.
    ``"0-9a-f"``), ``box`` (``--box``, e.g. ``"2x3"``), ``variant`` (``--variant``: ``x``,
    ``windoku``, ``disjoint-groups``, ``anti-knight``, ``anti-king``, ``non-consecutive``) and
    ``column`` (``--column``, CSV). Variant lines after a grid (``variant:``, a region map,
    ``cage SUM r1c1 ...``, ``solution:``) are read as the CLI reads them. Puzzles that cannot be
    read are rows with status ``error`` in every batch (the message is ``FILE:LINE:COLUMN: ...``).
    """
    return _satdoku.read_text(
        text, name, format=format, symbols=symbols, box_shape=box, variants=list(variant), column=column
    )


def read_file(
    path: "Union[str, os.PathLike[str]]",
    *,
    format: Optional[str] = None,
    symbols: Optional[str] = None,
    box: Optional[str] = None,
    variant: Sequence[str] = (),
    column: Optional[str] = None,
) -> Puzzles:
    """Every puzzle of the file at ``path``, as ``satdoku solve PATH`` reads it (see
    :func:`read_text` for the options).

    Raises ``FileNotFoundError`` / ``OSError`` (``PATH: cannot read: ...``) for a file that cannot be
    opened; bad puzzles in it are error rows, not exceptions.
    """
    return _satdoku.read_file(
        os.fspath(path), format=format, symbols=symbols, box_shape=box, variants=list(variant), column=column
    )


def _array_puzzles(array: np.ndarray, box: Optional[str], variant: Sequence[str], clashes: bool = False) -> Puzzles:
    a = np.asarray(array)
    if a.ndim == 3 and a.shape[1] == a.shape[2]:
        a = a.reshape(a.shape[0], -1)
    if a.ndim != 2:
        raise ValueError(f"expected an array of shape (B, N*N) or (B, N, N), got shape {a.shape}")
    if a.size and not np.issubdtype(a.dtype, np.integer):
        raise ValueError(f"expected an array of unsigned integers (uint8, uint16), got {a.dtype}")
    if a.dtype != np.uint16:
        if a.size and (a.min() < 0 or a.max() > 400):
            bad = int(np.argmax((a < 0) | (a > 400)))
            raise ValueError(
                f"<array>[{bad // a.shape[1]}]: value {a.flat[bad]} is out of range (0 blank, 1..=N a digit, N <= 400)"
            )
        a = a.astype(np.uint16)
    return _satdoku.from_array(np.ascontiguousarray(a), box_shape=box, variants=list(variant), allow_clashes=clashes)


def _batch(puzzles: BatchLike, opts: Dict[str, Any], clashes: bool = False) -> Puzzles:
    """Any batch input as Puzzles."""
    if isinstance(puzzles, Puzzles):
        return puzzles
    if isinstance(puzzles, np.ndarray):
        return _array_puzzles(puzzles, opts.get("box"), opts.get("variant", ()), clashes)
    if isinstance(puzzles, os.PathLike):
        return _satdoku.read_file(
            os.fspath(puzzles),
            format=opts.get("format"),
            symbols=opts.get("symbols"),
            box_shape=opts.get("box"),
            variants=list(opts.get("variant", ())),
            column=opts.get("column"),
            allow_clashes=clashes,
        )
    if isinstance(puzzles, str):
        return _satdoku.read_text(
            puzzles,
            "<string>",
            format=opts.get("format"),
            symbols=opts.get("symbols"),
            box_shape=opts.get("box"),
            variants=list(opts.get("variant", ())),
            column=opts.get("column"),
            allow_clashes=clashes,
        )
    items = list(puzzles)
    if all(isinstance(p, str) for p in items):
        return _satdoku.from_strings(
            items,
            format=opts.get("format"),
            symbols=opts.get("symbols"),
            box_shape=opts.get("box"),
            variants=list(opts.get("variant", ())),
            allow_clashes=clashes,
        )
    return _array_puzzles(np.asarray(items), opts.get("box"), opts.get("variant", ()), clashes)


def _one(puzzle: PuzzleLike, opts: Dict[str, Any], clashes: bool = False) -> Puzzles:
    """One puzzle as a Puzzles of one row; a puzzle that cannot be read raises ParseError."""
    if isinstance(puzzle, Puzzles):
        p = puzzle
    elif isinstance(puzzle, (str, os.PathLike)):
        p = _batch(puzzle, opts, clashes)
    else:
        a = np.asarray(puzzle)
        if a.ndim == 2 and a.shape[0] == a.shape[1]:
            a = a.reshape(1, -1)
        elif a.ndim == 1:
            a = a.reshape(1, -1)
        else:
            raise ValueError(f"expected one puzzle: shape (N, N) or (N*N,), got {a.shape}; batches go to the *_batch functions")
        p = _array_puzzles(a, opts.get("box"), opts.get("variant", ()), clashes)
    if len(p) != 1:
        raise ValueError(f"expected one puzzle, found {len(p)}: use the *_batch functions for several")
    values, error = p.row_values(0)
    if error is not None:
        raise ParseError(error)
    return p


# ---------------------------------------------------------------------------------------------
# Results


@dataclass
class Batch:
    """The results of a batch, one entry per input row, in input order.

    ``status``: uint8 codes (``Status.X.code``; ``words()`` gives the :class:`Status` of each row).
    ``solution``: (B, N*N) uint8 (uint16 above N = 255), row-major, 0 where there is none; under
    ``multiple`` the first of the two solutions found; for ``verify`` the solution verified.
    ``count``: solutions counted (exact when ``complete``). ``nodes``, ``guesses``, ``conflicts``:
    the work (native: search nodes and guesses; SAT: solver calls, decisions, conflicts).
    ``micros``: wall time of each row's solve(s). ``backend``: which answered (``backends()``).
    ``agree`` (two backends): 1, 0, or -1 when only one settled it. ``dfs_status``/``sat_status``,
    ``dfs_micros``/``sat_micros``, ``dfs_nodes``/``sat_nodes``: each backend's own answer (two
    backends). ``certified``: 1, 0, or -1 when not asked. ``messages``: ``{row: message}`` for rows
    with an error, a problem or a violation.
    """

    status: np.ndarray
    solution: np.ndarray
    count: np.ndarray
    complete: np.ndarray
    nodes: np.ndarray
    guesses: np.ndarray
    conflicts: np.ndarray
    micros: np.ndarray
    backend: np.ndarray
    agree: np.ndarray
    certified: np.ndarray
    dfs_status: np.ndarray
    sat_status: np.ndarray
    dfs_micros: np.ndarray
    sat_micros: np.ndarray
    dfs_nodes: np.ndarray
    sat_nodes: np.ndarray
    messages: Dict[int, str]
    n: int
    details: Optional[List[Dict[str, Any]]] = field(default=None, repr=False)

    def __len__(self) -> int:
        return len(self.status)

    def words(self) -> List[Status]:
        """Each row's :class:`Status`."""
        return [Status.from_code(c) for c in self.status]

    def backends(self) -> List[str]:
        """Each row's answering backend: ``dfs``, ``sat``, ``both`` or ``""``."""
        return [_BACKENDS[b] for b in self.backend]

    def counts(self) -> Dict[str, int]:
        """Rows per status word (like the CLI's summary line)."""
        words, numbers = np.unique(self.status, return_counts=True)
        return {_satdoku.STATUS_WORDS[w]: int(k) for w, k in zip(words, numbers)}

    def records(self) -> Iterator[Dict[str, Any]]:
        """One dict per row with the CLI's JSON field names: ``index``, ``status``, ``backend``,
        ``count``, ``complete``, ``solution`` (row-major values, a list), ``micros``, ``nodes``,
        ``error`` (for rows with a message)."""
        for i in range(len(self)):
            r: Dict[str, Any] = {
                "index": i,
                "status": _satdoku.STATUS_WORDS[self.status[i]],
                "backend": _BACKENDS[self.backend[i]],
                "count": int(self.count[i]),
                "complete": bool(self.complete[i]),
                "micros": int(self.micros[i]),
                "nodes": int(self.nodes[i]),
            }
            if self.solution.shape[1] and self.solution[i].any():
                r["solution"] = self.solution[i].tolist()
            if i in self.messages:
                r["error"] = self.messages[i]
            yield r


def _to_batch(d: Dict[str, Any]) -> Batch:
    return Batch(
        status=d["status"],
        solution=d["solution"],
        count=d["count"],
        complete=d["complete"],
        nodes=d["nodes"],
        guesses=d["guesses"],
        conflicts=d["conflicts"],
        micros=d["micros"],
        backend=d["backend"],
        agree=d["agree"],
        certified=d["certified"],
        dfs_status=d["dfs_status"],
        sat_status=d["sat_status"],
        dfs_micros=d["dfs_micros"],
        sat_micros=d["sat_micros"],
        dfs_nodes=d["dfs_nodes"],
        sat_nodes=d["sat_nodes"],
        messages=dict(d["messages"]),
        n=d["n"],
        details=d.get("details"),
    )


def _run(puzzles: Puzzles, op: str, **kw: Any) -> Batch:
    d = _satdoku.run_batch(puzzles, op, **kw)
    batch = _to_batch(d)
    interrupted = d["interrupted"]
    if interrupted is not None:
        try:
            interrupted.partial = batch
        except AttributeError:  # pragma: no cover - an exception type without a __dict__
            pass
        raise interrupted
    return batch


@dataclass
class Result:
    """One puzzle's answer.

    ``status``: the :class:`Status` (the CLI's JSON ``status``). ``solution``: the solution as an
    (N, N) array (``None`` when there is none to print: ``none``, ``unknown``, ``multiple``);
    ``solutions``: both grids under ``multiple``. ``text``: the solution as the CLI's JSON
    ``solution`` string, in the puzzle's symbols (``texts``: both, under ``multiple``). ``count``
    and ``complete``: solutions counted, and whether that count is exact. ``backend``: ``dfs``,
    ``sat`` or ``both``. ``micros``, ``nodes``, ``guesses``, ``conflicts``: the work.
    ``expected``: the comparison with a solution given with the puzzle (``match``, ``differs``,
    ``missed``, ``invalid``, ``unsettled``), ``expected_problem`` what is wrong; ``note``: the text
    after a one-line grid. ``message``: a note such as why a certificate is missing.
    """

    status: Status
    solution: Optional[np.ndarray]
    solutions: Tuple[np.ndarray, ...]
    text: Optional[str]
    texts: Tuple[str, ...]
    count: int
    complete: bool
    backend: str
    micros: int
    nodes: int
    guesses: int
    conflicts: int
    expected: Optional[str] = None
    expected_problem: Optional[str] = None
    note: Optional[str] = None
    message: Optional[str] = None

    def __bool__(self) -> bool:
        """True when a solution was found (solved or unique)."""
        return self.status in (Status.SOLVED, Status.UNIQUE)


@dataclass
class CheckResult(Result):
    """:func:`check`'s answer: the agreed :class:`Result` and each backend's own.

    ``agree``: True, False (``disagree``, ``internal-error``), or None (one backend or neither
    settled it). ``problems``: what differs. ``dfs`` and ``sat``: each backend's status word,
    micros and nodes.
    """

    agree: Optional[bool] = None
    problems: Optional[str] = None
    dfs: Dict[str, Any] = field(default_factory=dict)
    sat: Dict[str, Any] = field(default_factory=dict)


@dataclass
class Verification:
    """:func:`verify`'s answer: ``status`` ``valid``, ``invalid`` (``message`` names the first
    rule broken: an empty cell, a digit out of range, a changed given, a unit or cage holding a
    digit twice, a broken relation), or with ``unique=True`` also ``not-unique`` (``other`` is
    another solution), ``undecided``, ``unconfirmed``, ``disagree``. ``bool(v)`` is ``v.valid``."""

    status: Status
    message: Optional[str]
    other: Optional[np.ndarray] = None

    @property
    def valid(self) -> bool:
        """Whether the solution passed (and, if asked, is proven unique)."""
        return self.status == Status.VALID

    def __bool__(self) -> bool:
        return self.valid


@dataclass
class Certificate:
    """:func:`certify`'s answer: ``status`` (``unique`` or ``none`` are certified; ``multiple``
    never is), the ``solution``, ``certified`` (the proof was made and checked by satdoku's own DRAT
    checker), ``cnf`` and ``drat`` (the plain CNF and the DRAT proof that it is unsatisfiable, as
    bytes: ``rate p.cnf p.drat`` or ``drat-trim`` check them), and ``paths`` when written to a
    directory."""

    status: Status
    solution: Optional[np.ndarray]
    certified: bool
    cnf: Optional[bytes]
    drat: Optional[bytes]
    message: Optional[str] = None
    paths: Optional[Tuple[str, str]] = None


def _raise_for(b: Batch, i: int = 0) -> None:
    s = Status.from_code(b.status[i])
    if s == Status.ERROR:
        raise SolveError(b.messages.get(i, "error"))
    if s == Status.INTERNAL_ERROR:
        raise InternalError(b.messages.get(i, "internal error"))


def _grid(values: Any, n: int) -> np.ndarray:
    return np.asarray(values).reshape(n, n)


def _result(b: Batch, i: int = 0) -> Result:
    _raise_for(b, i)
    status = Status.from_code(b.status[i])
    d = (b.details or [{}] * len(b))[i]
    n = b.n
    first = b.solution[i].reshape(n, n).copy()
    texts = tuple(d.get("texts", ()))
    if status == Status.MULTIPLE:
        solutions: Tuple[np.ndarray, ...] = (first, _grid(d["second"], n).astype(first.dtype))
    elif status in (Status.SOLVED, Status.UNIQUE):
        solutions = (first,)
    else:
        solutions = ()
    return Result(
        status=status,
        solution=first if status in (Status.SOLVED, Status.UNIQUE) else None,
        solutions=solutions,
        text=texts[0] if status in (Status.SOLVED, Status.UNIQUE) and texts else None,
        texts=texts,
        count=int(b.count[i]),
        complete=bool(b.complete[i]),
        backend=_BACKENDS[b.backend[i]],
        micros=int(b.micros[i]),
        nodes=int(b.nodes[i]),
        guesses=int(b.guesses[i]),
        conflicts=int(b.conflicts[i]),
        expected=d.get("expected"),
        expected_problem=d.get("expected_problem"),
        note=d.get("note"),
        message=b.messages.get(i),
    )


# ---------------------------------------------------------------------------------------------
# The operations

_SOLVE_DOC = """
    Statuses (``Status``, the CLI's JSON ``status`` words): ``solved`` (a solution found,
    uniqueness not asked), ``unique``, ``multiple`` (``count`` solutions counted: exact when
    ``complete``, else the limit), ``none``, ``unknown`` (``timeout`` or ``budget`` ran out first),
    ``disagree`` (``backend="both"``: the backends contradict each other), ``internal-error`` (a
    backend returned a grid the independent verifier rejects; never shown as an answer), ``error``
    (bad input: ``FILE:LINE:COLUMN: message``).

    Options (the CLI's flags):
      unique      count solutions up to 2 and report unique / multiple / none (``--unique``)
      limit       count solutions up to K, K >= 1 (``--limit``; 1 = first solution only)
      backend     ``auto`` (default: the native search first, within a node budget that grows
                  with the grid, then the SAT backend with the rest of the time), ``dfs`` (the
                  native depth-first search), ``sat`` (the SAT encoding), ``both`` (both,
                  cross-checked: answered only if they agree)
      timeout     give up on a puzzle after SECS seconds (status ``unknown``); with two
                  backends each gets SECS (``--timeout``)
      budget      give up after N search nodes of the native backend, or N conflicts of
                  CaDiCaL (varisat counts none: it is bounded by ``timeout`` only) (``--budget``)
      encoding    CNF encoding of the SAT backend: ``minimal``, ``efficient``, ``extended``,
                  ``pruned`` (default, the fastest measured) (``--encoding``)
      amo         at-most-one constraints: ``auto`` (default), ``pairwise``, ``sequential``,
                  ``product``, ``commander``, ``bimander`` (``--amo``)
      simplify    what the SAT backend's own code does first: ``none``, ``propagate``,
                  ``probe`` (default) (``--simplify``)
      cage_encoding  killer cages: ``combinations`` (default) or ``sequential``
      sat_solver  ``varisat`` or ``cadical`` (a build with the ``cadical`` feature); default
                  varisat, and for ``auto`` CaDiCaL when the build has it (``--sat-solver``)
      format, symbols, box, variant, column   how to read text input (``--format``,
                  ``--symbols``, ``--box``, ``--variant``, ``--column``): see :func:`read_text`

    Every grid returned has passed the independent verifier (``satdoku::verify``) first.
"""


def _kw(unique: bool, limit: Optional[int]) -> int:
    if unique and limit is not None:
        raise ValueError("unique and limit exclude each other (unique is limit=2)")
    if limit is not None and limit < 1:
        raise ValueError(f"limit={limit}: expected K >= 1")
    return 2 if unique else (limit or 1)


def _read_opts(format: Optional[str], symbols: Optional[str], box: Optional[str], variant: Sequence[str], column: Optional[str] = None) -> Dict[str, Any]:
    return {"format": format, "symbols": symbols, "box": box, "variant": tuple(variant), "column": column}


def solve(
    puzzle: PuzzleLike,
    *,
    unique: bool = False,
    limit: Optional[int] = None,
    backend: str = "auto",
    timeout: Optional[float] = None,
    budget: Optional[int] = None,
    encoding: str = "pruned",
    amo: str = "auto",
    simplify: str = "probe",
    cage_encoding: str = "combinations",
    sat_solver: Optional[str] = None,
    format: Optional[str] = None,
    symbols: Optional[str] = None,
    box: Optional[str] = None,
    variant: Sequence[str] = (),
) -> Result:
    p = _one(puzzle, _read_opts(format, symbols, box, variant))
    b = _run(
        p, "solve", backend=backend, max_solutions=_kw(unique, limit), timeout=timeout, budget=budget,
        encoding=encoding, amo=amo, simplify=simplify, cage_encoding=cage_encoding,
        sat_solver=sat_solver, jobs=1, detail=True,
    )
    return _result(b)


solve.__doc__ = """Solve one puzzle (``satdoku solve``): a :class:`Result`.

    ``puzzle``: a string in any format the CLI reads (variant lines included), a list of lists, a
    NumPy array of shape (N, N) or (N*N,) (0 blank), a ``pathlib.Path`` to a file of one puzzle,
    or a :class:`Puzzles` of one row.

    Raises :class:`ParseError` for a puzzle that cannot be read (``FILE:LINE:COLUMN: message``),
    :class:`SolveError` for one the backend cannot attempt, :class:`InternalError` for a grid the
    verifier rejects.
""" + _SOLVE_DOC


def count(puzzle: PuzzleLike, limit: int = 2, **options: Any) -> Result:
    """Count the solutions of one puzzle up to ``limit`` (``satdoku solve --limit K``).

    ``result.count`` is the number counted, exact when ``result.complete``; the status is
    ``unique`` (1), ``multiple`` (2 or more), ``none`` or ``unknown`` (a limit ran out below
    ``limit``: a count cut short is not an answer). ``limit=2`` tells unique from multiple.
    Options as :func:`solve`.
    """
    return solve(puzzle, limit=limit, **options)


def solve_batch(
    puzzles: BatchLike,
    *,
    unique: bool = False,
    limit: Optional[int] = None,
    backend: str = "auto",
    timeout: Optional[float] = None,
    budget: Optional[int] = None,
    jobs: Optional[int] = None,
    encoding: str = "pruned",
    amo: str = "auto",
    simplify: str = "probe",
    cage_encoding: str = "combinations",
    sat_solver: Optional[str] = None,
    format: Optional[str] = None,
    symbols: Optional[str] = None,
    box: Optional[str] = None,
    variant: Sequence[str] = (),
    column: Optional[str] = None,
    detail: bool = False,
) -> Batch:
    p = _batch(puzzles, _read_opts(format, symbols, box, variant, column))
    return _run(
        p, "solve", backend=backend, max_solutions=_kw(unique, limit), timeout=timeout, budget=budget,
        encoding=encoding, amo=amo, simplify=simplify, cage_encoding=cage_encoding,
        sat_solver=sat_solver, jobs=jobs, detail=detail,
    )


solve_batch.__doc__ = """Solve a batch (``satdoku solve`` over a file): a :class:`Batch`, one entry per row.

    ``puzzles``: a NumPy array of shape (B, N*N) or (B, N, N) (uint8/uint16, 0 blank; classic
    rules of the box shape ``box``, default for N, plus ``variant``), a list of strings (one
    puzzle each, any format), a ``pathlib.Path`` to a file, a string holding a file's text, or
    :class:`Puzzles` (:func:`read_file`, :func:`read_text`). A row that cannot be read, or that a
    backend cannot attempt, gets status ``error`` and its message in ``messages``: a batch never
    fails for a bad row.

    ``jobs``: worker threads (``--jobs``; default every core, at most 4 per core). The batch runs in
    Rust with the GIL released; Ctrl-C stops it within a second and raises ``KeyboardInterrupt``,
    whose ``partial`` attribute holds the rows finished (the others ``not-run``). ``detail=True``
    keeps per-row texts (for :func:`solve`).
""" + _SOLVE_DOC


def count_batch(puzzles: BatchLike, limit: int = 2, **options: Any) -> Batch:
    """Count every puzzle's solutions up to ``limit`` (``satdoku solve --limit K``): ``count``
    and ``complete`` per row. Options as :func:`solve_batch`."""
    return solve_batch(puzzles, limit=limit, **options)


def check(
    puzzle: PuzzleLike,
    *,
    limit: int = 2,
    timeout: Optional[float] = None,
    budget: Optional[int] = None,
    encoding: str = "pruned",
    amo: str = "auto",
    simplify: str = "probe",
    cage_encoding: str = "combinations",
    sat_solver: Optional[str] = None,
    format: Optional[str] = None,
    symbols: Optional[str] = None,
    box: Optional[str] = None,
    variant: Sequence[str] = (),
) -> CheckResult:
    """Cross-check one puzzle (``satdoku check``): both backends count solutions up to ``limit``
    (default 2), each within its own ``timeout`` / ``budget``.

    They agree when their statuses match (none, unique, multiple), every grid either returns passes
    the independent verifier, a unique solution is the same grid from both, and a backend claiming
    several solutions gives two different ones. A puzzle that only one backend settles is reported
    with that backend's answer and ``agree`` None. ``status`` is the agreed status, the one
    backend's when only one settled it, ``unknown``, ``disagree`` or ``internal-error``;
    ``problems`` says what differs. Other options as :func:`solve`.
    """
    p = _one(puzzle, _read_opts(format, symbols, box, variant))
    b = _run(
        p, "check", max_solutions=limit, timeout=timeout, budget=budget, encoding=encoding, amo=amo,
        simplify=simplify, cage_encoding=cage_encoding, sat_solver=sat_solver, jobs=1, detail=True,
    )
    status = Status.from_code(b.status[0])
    if status == Status.ERROR:
        raise SolveError(b.messages.get(0, "error"))
    base = _result(_with_status(b, Status.UNKNOWN)) if status in (Status.DISAGREE, Status.INTERNAL_ERROR) else _result(b)
    agree = {1: True, 0: False}.get(int(b.agree[0]))
    return CheckResult(
        **{**base.__dict__, "status": status},
        agree=agree,
        problems=b.messages.get(0),
        dfs={"status": Status.from_code(b.dfs_status[0]), "micros": int(b.dfs_micros[0]), "nodes": int(b.dfs_nodes[0])},
        sat={"status": Status.from_code(b.sat_status[0]), "micros": int(b.sat_micros[0]), "nodes": int(b.sat_nodes[0])},
    )


def _with_status(b: Batch, status: Status) -> Batch:
    c = Batch(**b.__dict__)
    c.status = b.status.copy()
    c.status[0] = status.code
    return c


def check_batch(
    puzzles: BatchLike,
    *,
    limit: int = 2,
    timeout: Optional[float] = None,
    budget: Optional[int] = None,
    jobs: Optional[int] = None,
    encoding: str = "pruned",
    amo: str = "auto",
    simplify: str = "probe",
    cage_encoding: str = "combinations",
    sat_solver: Optional[str] = None,
    format: Optional[str] = None,
    symbols: Optional[str] = None,
    box: Optional[str] = None,
    variant: Sequence[str] = (),
    column: Optional[str] = None,
) -> Batch:
    """Cross-check every puzzle (``satdoku check``; see :func:`check`): ``status`` (agreed),
    ``agree`` (1, 0, -1 unknown), ``dfs_status``/``sat_status``, ``dfs_micros``/``sat_micros``,
    ``dfs_nodes``/``sat_nodes``, and ``messages`` with the problems. Inputs, ``jobs`` and
    interruption as :func:`solve_batch`."""
    p = _batch(puzzles, _read_opts(format, symbols, box, variant, column))
    return _run(
        p, "check", max_solutions=limit, timeout=timeout, budget=budget, encoding=encoding, amo=amo,
        simplify=simplify, cage_encoding=cage_encoding, sat_solver=sat_solver, jobs=jobs,
    )


def verify(
    puzzle: PuzzleLike,
    solution: PuzzleLike,
    *,
    unique: bool = False,
    timeout: Optional[float] = None,
    budget: Optional[int] = None,
    sat_solver: Optional[str] = None,
    format: Optional[str] = None,
    symbols: Optional[str] = None,
    box: Optional[str] = None,
    variant: Sequence[str] = (),
) -> Verification:
    """Check a solution made elsewhere (``satdoku verify``): it must fill every cell with a digit in
    range, keep every given of its puzzle, hold each digit once in every row, column and box (and
    region, diagonal, cage), and keep every relation of the puzzle's variants.

    With ``unique=True`` both backends must also prove that the puzzle has no other solution (each
    within ``timeout`` / ``budget``). The solution may be given in any form a puzzle may; the
    puzzle's rules (variant lines) apply. Returns a :class:`Verification` whose ``message`` names
    the first rule broken, e.g. ``invalid: row 3 holds 5 twice, at r3c1 and r3c4``.
    """
    opts = _read_opts(format, symbols, box, variant)
    p = _one(puzzle, opts)
    s = _one(solution, {**opts, "variant": ()}, clashes=True)
    b = _run(p, "verify", solutions=s, unique=unique, max_solutions=2, timeout=timeout, budget=budget, sat_solver=sat_solver, jobs=1, detail=True)
    status = Status.from_code(b.status[0])
    other = (b.details or [{}])[0].get("other")
    return Verification(status=status, message=b.messages.get(0), other=None if other is None else _grid(other, b.n))


def verify_batch(
    puzzles: BatchLike,
    solutions: BatchLike,
    *,
    unique: bool = False,
    timeout: Optional[float] = None,
    budget: Optional[int] = None,
    jobs: Optional[int] = None,
    sat_solver: Optional[str] = None,
    format: Optional[str] = None,
    symbols: Optional[str] = None,
    box: Optional[str] = None,
    variant: Sequence[str] = (),
) -> Batch:
    """Check solution i against puzzle i for every row (``satdoku verify``; see :func:`verify`):
    ``status`` ``valid`` / ``invalid`` (and with ``unique=True`` ``not-unique``, ``undecided``,
    ``unconfirmed``, ``disagree``), ``messages`` naming the rule each invalid solution breaks.
    Both sides take any batch input; they must have the same number of rows."""
    opts = _read_opts(format, symbols, box, variant)
    p = _batch(puzzles, opts)
    s = _batch(solutions, {**opts, "variant": ()}, clashes=True)
    return _run(p, "verify", solutions=s, unique=unique, max_solutions=2, timeout=timeout, budget=budget, sat_solver=sat_solver, jobs=jobs)


def encode(
    puzzle: PuzzleLike,
    *,
    encoding: str = "pruned",
    amo: str = "auto",
    cage_encoding: str = "combinations",
    path: "Optional[Union[str, os.PathLike[str]]]" = None,
    format: Optional[str] = None,
    symbols: Optional[str] = None,
    box: Optional[str] = None,
    variant: Sequence[str] = (),
) -> str:
    """The puzzle as DIMACS CNF for any SAT solver (``satdoku encode``): the text, also written to
    ``path`` if given.

    The plain encodings (``minimal``, ``efficient``, ``extended``) number the cell variables
    x(r, c, d) = r*N*N + c*N + d (0-based r, c; d in 1..N); ``pruned`` (default) numbers only the
    open candidates. The comment lines name the encoding, the shape, the puzzle and its rules, so
    that ``satdoku decode --cnf`` reads a model back.
    """
    p = _one(puzzle, _read_opts(format, symbols, box, variant))
    text = _satdoku.encode(p, 0, encoding=encoding, amo=amo, cage_encoding=cage_encoding).decode()
    if path is not None:
        with open(path, "w") as f:
            f.write(text)
    return text


def encode_batch(
    puzzles: BatchLike,
    *,
    encoding: str = "pruned",
    amo: str = "auto",
    cage_encoding: str = "combinations",
    format: Optional[str] = None,
    symbols: Optional[str] = None,
    box: Optional[str] = None,
    variant: Sequence[str] = (),
    column: Optional[str] = None,
) -> List[Union[bytes, ParseError]]:
    """Every puzzle as DIMACS CNF bytes (see :func:`encode`); a row that cannot be read gives its
    :class:`ParseError` in its place."""
    p = _batch(puzzles, _read_opts(format, symbols, box, variant, column))
    out: List[Union[bytes, ParseError]] = []
    for i in range(len(p)):
        _, error = p.row_values(i)
        if error is not None:
            out.append(ParseError(error))
        else:
            out.append(_satdoku.encode(p, i, encoding=encoding, amo=amo, cage_encoding=cage_encoding))
    return out


def certify(
    puzzle: PuzzleLike,
    *,
    dir: "Optional[Union[str, os.PathLike[str]]]" = None,
    timeout: Optional[float] = None,
    budget: Optional[int] = None,
    sat_solver: Optional[str] = None,
    format: Optional[str] = None,
    symbols: Optional[str] = None,
    box: Optional[str] = None,
    variant: Sequence[str] = (),
) -> Certificate:
    """Settle uniqueness and certify the answer (``satdoku solve --unique --certify DIR``).

    For ``unique`` or ``none``: the plain CNF of the puzzle (the extended encoding with pairwise
    at-most-one over x(r, c, d) = r*N*N + c*N + d, the givens as unit clauses, and for ``unique``
    one clause excluding the solution) and a DRAT proof that it is unsatisfiable, checked by
    satdoku's own DRAT checker before it is returned; with ``dir``, also written as
    ``DIR/puzzle-000000.cnf`` and ``.drat``. ``multiple`` is never certified. A certificate that
    cannot be made within the limits leaves the answer uncertified (``certified`` False, ``message``
    says why).
    """
    p = _one(puzzle, _read_opts(format, symbols, box, variant))
    b = _run(
        p, "certify", max_solutions=2, timeout=timeout, budget=budget, sat_solver=sat_solver, jobs=1,
        detail=True, certify_dir=None if dir is None else os.fspath(dir),
    )
    r = _result(b)
    d = (b.details or [{}])[0]
    paths = None
    if dir is not None and b.certified[0] == 1:
        paths = (os.path.join(dir, "puzzle-000000.cnf"), os.path.join(dir, "puzzle-000000.drat"))
    return Certificate(
        status=r.status,
        solution=r.solution,
        certified=bool(b.certified[0] == 1),
        cnf=d.get("cnf"),
        drat=d.get("drat"),
        message=r.message,
        paths=paths,
    )


def certify_batch(
    puzzles: BatchLike,
    dir: "Optional[Union[str, os.PathLike[str]]]" = None,
    *,
    timeout: Optional[float] = None,
    budget: Optional[int] = None,
    jobs: Optional[int] = None,
    sat_solver: Optional[str] = None,
    format: Optional[str] = None,
    symbols: Optional[str] = None,
    box: Optional[str] = None,
    variant: Sequence[str] = (),
    column: Optional[str] = None,
) -> Batch:
    """Settle and certify every puzzle (see :func:`certify`): ``status``, ``solution``, and
    ``certified`` (1 certified and checked, 0 not, with the reason in ``messages``; -1 for
    ``multiple``); with ``dir``, the files ``DIR/puzzle-<row, 6 digits>.cnf`` and ``.drat``, as the
    CLI names them."""
    p = _batch(puzzles, _read_opts(format, symbols, box, variant, column))
    return _run(
        p, "certify", max_solutions=2, timeout=timeout, budget=budget, sat_solver=sat_solver, jobs=jobs,
        certify_dir=None if dir is None else os.fspath(dir),
    )


def check_certificate(
    cnf: bytes,
    drat: bytes,
    puzzle: Optional[PuzzleLike] = None,
    *,
    solution: Optional[PuzzleLike] = None,
    format: Optional[str] = None,
    symbols: Optional[str] = None,
    box: Optional[str] = None,
    variant: Sequence[str] = (),
) -> None:
    """Check a certificate with satdoku's own DRAT checker (backward, as DRAT-trim and ``rate``
    check): returns if ``drat`` refutes ``cnf``, raises ``ValueError`` saying what fails otherwise.

    Given the ``puzzle`` (read as :func:`solve` reads it), also check that the certificate is the
    puzzle's, trusting nothing in the files but their clauses: every clause of ``cnf`` must be one
    of the puzzle's plain CNF (the extended encoding of the empty grid under its rules), a given's
    unit clause, or, for a ``unique`` certificate, the clause excluding ``solution``, which must
    solve the puzzle. Without ``puzzle``, a refuted CNF says nothing about which puzzle it was.
    """
    if puzzle is None:
        if solution is not None:
            raise ValueError("check_certificate: a solution is checked against its puzzle; pass puzzle=")
        _satdoku.check_drat(bytes(cnf), bytes(drat))
        return
    opts = _read_opts(format, symbols, box, variant)
    p = _one(puzzle, opts)
    s = None if solution is None else _one(solution, {**opts, "variant": ()}, clashes=True)
    _satdoku.check_certificate(p, bytes(cnf), bytes(drat), s)


def sat_solvers() -> List[str]:
    """The SAT solvers this build has: ``varisat``, and ``cadical`` in a build with the feature."""
    return list(_satdoku.sat_solvers())
