"""Type stubs of the extension module ``sudoku_batch._native`` (re-exported by ``sudoku_batch``)."""

import os
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple, Union, overload

import numpy as np
import numpy.typing as npt

Grids = npt.NDArray[np.uint8]
"""A ``uint8`` array of shape ``(N, 81)``: 0 for a blank, 1-9 for a digit."""

STATUS_CODES: Dict[str, int]
LEVELS: List[str]
TECHNIQUES: List[str]
MAX_THREADS: int
SIDES: List[str]
__version__: str

def solve(
    puzzles: Iterable[str], *, unique: bool = False, threads: Optional[int] = None
) -> List[Optional[str]]:
    """Solve puzzle strings; ``None`` where a puzzle failed."""

def solve_array(
    grids: Grids, *, unique: bool = False, threads: Optional[int] = None
) -> Tuple[Grids, npt.NDArray[np.int8]]:
    """Solve the rows of a ``uint8 (N, 81)`` array: ``(solutions, status)``."""

@overload
def count_solutions(
    puzzles: Grids, *, limit: int = 2, threads: Optional[int] = None
) -> npt.NDArray[np.int64]: ...
@overload
def count_solutions(
    puzzles: Iterable[str], *, limit: int = 2, threads: Optional[int] = None
) -> List[int]: ...
def rate(
    puzzles: Union[Grids, Iterable[str]], *, threads: Optional[int] = None
) -> Dict[str, npt.NDArray[np.int8] | npt.NDArray[np.int32]]:
    """Rate puzzles: arrays ``level``, ``score``, ``guesses``, ``hardest``, ``status``."""

def generate_boards(
    n: int,
    *,
    seed: int = 0,
    random: bool = False,
    first: Optional[int] = None,
    threads: Optional[int] = None,
) -> Grids:
    """``n`` distinct solved boards, as ``sudoku generate`` makes them."""

def generate_puzzles(
    n: int,
    *,
    seed: int = 0,
    difficulty: Optional[str] = None,
    symmetry: Optional[str] = None,
    clues: Optional[int] = None,
    er: Optional[Tuple[float, float]] = None,
    ep: Optional[Tuple[float, float]] = None,
    ed: Optional[Tuple[float, float]] = None,
    pattern: Optional[str] = None,
    threads: Optional[int] = None,
) -> Tuple[Grids, Grids]:
    """``n`` puzzles with one solution: ``(puzzles, solutions)``."""

def solve_file(
    inputs: Sequence[Union[str, os.PathLike[str]]],
    output: Optional[Union[str, os.PathLike[str]]],
    *,
    unique: bool = False,
    threads: Optional[int] = None,
    format: Optional[str] = None,
    mmap: bool = True,
    fail_fast: bool = False,
    max_errors: Optional[int] = None,
    keep_lines: bool = False,
) -> Tuple[str, List[str], int]:
    """The native half of ``sudoku_batch.solve_file``: ``(summary_json, messages, hidden)``."""

Puzzles = Union[Grids, Iterable[str]]
"""A batch: a ``uint8 (N, 81)`` array or an iterable of puzzle strings."""

def technique_counts(
    puzzles: Puzzles,
    *,
    scale: str = "levels",
    max_se: Optional[float] = None,
    threads: Optional[int] = None,
) -> Tuple[List[Optional[Dict[str, int]]], npt.NDArray[np.int8]]:
    """Per puzzle ``{technique name: steps}`` (``None`` where not rated), and the ``status`` codes."""

def rate_se(
    puzzles: Puzzles, *, max_se: Optional[float] = None, threads: Optional[int] = None
) -> Dict[str, Any]:
    """SE ratings: ``er``, ``ep``, ``ed``, ``above`` (float64), ``hardest`` (list), ``steps``, ``status``."""

def canon(
    puzzles: Puzzles, *, form: str = "minlex", transforms: bool = False, threads: Optional[int] = None
) -> Dict[str, npt.NDArray[Any]]:
    """Canonical forms: ``canon``, ``status`` (and ``transpose``, ``rows``, ``cols``, ``digits``)."""

def classes(puzzles: Puzzles, *, threads: Optional[int] = None) -> Dict[str, npt.NDArray[Any]]:
    """Classes numbered in order of first appearance: ``group`` (int64), ``status``."""

def split(
    puzzles: Puzzles,
    *,
    test: float,
    val: float = 0.0,
    seed: int = 0,
    strata: Optional[Iterable[str]] = None,
    threads: Optional[int] = None,
) -> Dict[str, npt.NDArray[np.int8]]:
    """Sides of ``sudoku split``: ``side`` (int8, -1 failed), ``status``."""

def shuffle(
    puzzles: Puzzles,
    solutions: Optional[Puzzles] = None,
    *,
    copies: int = 1,
    seed: int = 0,
    keep_original: bool = False,
    threads: Optional[int] = None,
) -> Tuple[Grids, Optional[Grids], npt.NDArray[np.int64]]:
    """Copies of ``sudoku shuffle --copies``: ``(puzzles, solutions, group)``."""

def check(
    puzzles: Puzzles, solutions: Puzzles, *, unique: bool = False, threads: Optional[int] = None
) -> Dict[str, Any]:
    """Verdicts of ``sudoku check``: ``status`` (int8), ``error`` (list of reasons or None)."""

def explain(
    puzzle: str, *, scale: str = "levels", max_se: Optional[float] = None
) -> Tuple[str, Optional[str], Optional[str]]:
    """``(status, error, fields)``: ``fields`` the JSON object of ``explain --json``'s fields after ``status``."""
