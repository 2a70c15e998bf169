"""Type stubs of the native half of the package (``satdoku._satdoku``, built from python/src/ with
PyO3). Use the functions of :mod:`satdoku`; these are their building blocks."""

from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np
import numpy.typing as npt

STATUS_WORDS: List[str]
VERSION: str

class Puzzles:
    """Puzzles for the batch functions: a file, a text, an array or strings, one row per puzzle
    (a row that cannot be read holds its error message instead)."""

    def __len__(self) -> int: ...
    @property
    def n(self) -> int:
        """The grid side N of the batch (0 when no puzzle could be read)."""
    @property
    def name(self) -> str:
        """The name the input goes by in messages (a file name, ``<string>``, ``<array>``, ``<strings>``)."""
    @property
    def lines(self) -> List[int]:
        """The 1-based line where each puzzle starts (1 for arrays and strings)."""
    @property
    def notes(self) -> List[str]:
        """What the reader said about how it read the input (an alphabet chosen between readings)."""
    def row_values(self, i: int) -> Tuple[Optional[List[int]], Optional[str]]:
        """Row ``i``'s givens (row-major, 0 blank) and ``None``, or ``None`` and its error message."""
    def row_rules(self, i: int) -> List[str]:
        """Row ``i``'s rules beside the classic ones: variant names, ``jigsaw``, ``killer``."""

def read_text(
    text: str,
    name: str,
    *,
    format: Optional[str] = None,
    symbols: Optional[str] = None,
    box_shape: Optional[str] = None,
    variants: Sequence[str] = ...,
    column: Optional[str] = None,
    allow_clashes: bool = False,
) -> Puzzles: ...
def read_file(
    path: str,
    *,
    format: Optional[str] = None,
    symbols: Optional[str] = None,
    box_shape: Optional[str] = None,
    variants: Sequence[str] = ...,
    column: Optional[str] = None,
    allow_clashes: bool = False,
) -> Puzzles: ...
def from_array(
    array: npt.NDArray[np.uint16],
    *,
    box_shape: Optional[str] = None,
    variants: Sequence[str] = ...,
    allow_clashes: bool = False,
) -> Puzzles: ...
def from_strings(
    texts: Sequence[str],
    *,
    format: Optional[str] = None,
    symbols: Optional[str] = None,
    box_shape: Optional[str] = None,
    variants: Sequence[str] = ...,
    allow_clashes: bool = False,
) -> Puzzles: ...
def run_batch(
    puzzles: Puzzles,
    op: str,
    *,
    backend: str = "auto",
    max_solutions: int = 1,
    timeout: Optional[float] = None,
    budget: Optional[int] = None,
    encoding: str = "pruned",
    amo: str = "auto",
    simplify: str = "probe",
    cage_encoding: str = "combinations",
    sat_solver: Optional[str] = None,
    jobs: Optional[int] = None,
    detail: bool = False,
    solutions: Optional[Puzzles] = None,
    unique: bool = False,
    certify_dir: Optional[str] = None,
) -> Dict[str, Any]:
    """Runs ``op`` (``solve``, ``check``, ``verify``, ``certify``) over every row: a dict of NumPy
    arrays (``status``, ``solution``, ``count``, ...), ``messages``, ``n``, ``details`` (with
    ``detail``) and ``interrupted`` (the exception a signal raised, or None)."""
def encode(
    puzzles: Puzzles, row: int, *, encoding: str = "pruned", amo: str = "auto", cage_encoding: str = "combinations"
) -> bytes: ...
def sat_solvers() -> List[str]: ...
def check_drat(cnf: bytes, drat: bytes) -> None: ...
def check_certificate(puzzle: Puzzles, cnf: bytes, drat: bytes, solution: Optional[Puzzles] = None) -> None: ...
