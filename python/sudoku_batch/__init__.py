"""sudoku_batch: solve, rate and generate 9x9 Sudoku puzzles in bulk, on all cores, from Python.

The engine is the Rust library behind the ``sudoku`` command line tool. Every batch call releases the GIL for
the whole batch and runs on ``threads`` threads (``None``: one per core; an int from 1 to ``MAX_THREADS``; 1 runs
on the calling thread). The array calls take and return numpy arrays and make no Python object per puzzle.

Boards as arrays are ``uint8`` arrays of shape ``(N, 81)``: row-major cells, 0 for a blank, 1-9 for a digit.
Boards as strings are 81 characters, ``0`` or ``.`` for a blank (the CLI's line notation).

>>> import numpy as np, sudoku_batch as sb
>>> sb.solve(["4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"])[0][:9]
'417369825'
"""

from __future__ import annotations

import enum
import json
import os
from typing import Any, Dict, List, Optional, Sequence, Union

import numpy as np

from . import _native
from ._dataset import SIDES, canon, check, classes, dedupe, explain, shuffle, split
from .arrow import _codes_to_cells, arrow_to_grids, is_arrow
from ._native import (
    LEVELS,
    MAX_THREADS,
    TECHNIQUES,
    count_solutions,
    generate_boards,
    generate_puzzles,
    solve,
    solve_array,
)

__version__: str = _native.__version__

__all__ = [
    "Status",
    "LEVELS",
    "MAX_THREADS",
    "SIDES",
    "TECHNIQUES",
    "arrow_to_grids",
    "canon",
    "check",
    "classes",
    "count_solutions",
    "dedupe",
    "explain",
    "generate_boards",
    "generate_puzzles",
    "rate",
    "shuffle",
    "solve",
    "solve_array",
    "solve_file",
    "split",
    "to_array",
    "to_strings",
]


class Status(enum.IntEnum):
    """The per-puzzle codes of ``solve_array``, ``rate`` and the dataset tools (``canon``, ``check``, ...) (an ``int8`` array compares equal to these), negated in
    ``count_solutions`` for a puzzle it cannot count."""

    SOLVED = 0
    """Solved (or rated)."""
    MALFORMED = 1
    """Not a puzzle: a value above 9 in an array row, or a string that is not 81 cells of ``0``-``9`` or ``.``."""
    CLASHING_GIVENS = 2
    """Two givens break a rule (the same digit twice in a row, column or box)."""
    NO_SOLUTION = 3
    """The givens are consistent but no completion exists."""
    SEVERAL_SOLUTIONS = 4
    """More than one solution (only with ``unique=True``, and always for ``rate``)."""
    WRONG_SOLUTION = 5
    """``check`` only: the claimed solution is not a solution of the puzzle (``error`` says why)."""


PathLike = Union[str, "os.PathLike[str]"]


def solve_file(
    input: Union[PathLike, Sequence[PathLike]],
    output: Optional[PathLike],
    *,
    unique: bool = False,
    threads: Optional[int] = None,
    format: Optional[str] = None,
    mmap: bool = True,
    fail_fast: bool = False,
    max_errors: Optional[int] = 100,
    keep_lines: bool = False,
) -> Dict[str, Any]:
    """Run the file pipeline of ``sudoku solve INPUT... -o OUTPUT`` and return its summary.

    The same bytes as the command line tool: inputs memory-mapped and cut into chunks solved on all cores,
    one output record per input record in input order, failures marked in place, and a file ``output``
    written whole or not at all (a temporary file renamed into place). ``output`` of ``None`` or ``"-"`` is
    standard output. ``input`` is one path or a list of paths, read as the command line reads its arguments
    (``"-"``: standard input; a puzzle's text that names no file: that puzzle); ``format`` is
    ``"auto"`` (the default), ``"line"``, ``"grid"`` or ``"csv"``. ``keep_lines=True`` is the pipe mode of
    ``--keep-lines``: comment and blank lines are written back, one output line per input line.

    Returns the dict of ``sudoku solve --stats json`` (``records``, ``solved``, ``failed``, ``failures`` by
    kind, ``seconds``, ``puzzles_per_second``, ``threads``, ``inputs``, ``bytes_in``, ``bytes_out``,
    ``stopped``) plus ``errors``: the first ``max_errors`` per-record messages as the CLI prints them
    (``FILE:LINE: reason``; ``None`` keeps all), and ``errors_hidden``: how many more there were.

    Raises ``OSError`` when an input cannot be read or the output cannot be written, ``ValueError`` for a bad
    option or an input that is not a puzzle file, with the CLI's messages. The GIL is released for the run.
    """
    if isinstance(input, (str, bytes, os.PathLike)):
        inputs = [input]
    else:
        inputs = list(input)
    summary, errors, hidden = _native.solve_file(
        inputs,
        output,
        unique=unique,
        threads=threads,
        format=format,
        mmap=mmap,
        fail_fast=fail_fast,
        max_errors=max_errors,
        keep_lines=keep_lines,
    )
    result: Dict[str, Any] = json.loads(summary)
    result["errors"] = errors
    result["errors_hidden"] = hidden
    return result


def rate(
    puzzles: Any,
    *,
    threads: Optional[int] = None,
    names: bool = False,
    scale: str = "levels",
    max_se: Optional[float] = None,
    techniques: bool = False,
) -> Dict[str, Any]:
    """Rate puzzles (a list of strings, a ``uint8 (N, 81)`` array or an Arrow string array) as ``sudoku rate``: a
    dict of numpy arrays (pass it to ``pandas.DataFrame``). A puzzle needs exactly one solution to be rated.

    ``scale="levels"`` (the default): ``level``, ``score``, ``guesses``, ``hardest`` and ``status``; where
    ``status`` is not 0, ``score`` and ``guesses`` are -1. ``level`` and ``hardest`` are codes by default:
    ``int8`` indices into ``LEVELS`` and ``TECHNIQUES`` (-1 where the puzzle was not rated, or, for ``hardest``,
    where no technique was needed). With ``names=True`` they are the names instead, as ``sudoku rate`` and
    ``sudoku_batch.spark.rate`` write them: object arrays of ``str``, ``None`` where the code is -1.
    ``sudoku_batch.spark.rate`` takes the same ``names`` switch.

    ``scale="se"``: Sudoku Explainer's ratings, as ``sudoku rate --scale se`` (``max_se=X``: ``--max-se X``, the
    path stops before the first step rated above X): ``er``, ``ep``, ``ed`` (``float64``, ``2.3``; NaN where the
    path stopped before knowing it, and then ``above`` says what it is above: 10.5 where SE's ladder ends, else
    ``max_se``), ``hardest`` (object array of the SE technique names of ER's step, ``None`` where none was
    needed or ER is unknown), ``steps`` (``int32``) and
    ``status``. Milliseconds per puzzle, seconds for the hardest, on all cores.

    ``techniques=True`` adds ``techniques``: per puzzle a dict ``{technique name: steps}`` of the techniques its
    path used (``None`` where it was not rated), as ``sudoku rate --json`` gives them; it walks each path a second
    time.
    """
    puzzles = arrow_to_grids(puzzles) if is_arrow(puzzles) else puzzles
    if scale == "se":
        result = _native.rate_se(puzzles, max_se=max_se, threads=threads)
        result["hardest"] = np.array(result["hardest"], dtype=object)
    elif scale != "levels":
        raise ValueError(f'scale must be "levels" or "se", not {scale!r}')
    elif max_se is not None:
        raise ValueError('max_se rates on SE\'s scale: add scale="se"')
    else:
        result = _native.rate(puzzles, threads=threads)
        if names:
            result["level"] = _names(result["level"], LEVELS)
            result["hardest"] = _names(result["hardest"], TECHNIQUES)
    if techniques:
        result["techniques"], _ = _native.technique_counts(
            puzzles, scale=scale, max_se=max_se, threads=threads
        )
    return result


def _names(codes: "Any", table: Sequence[str]) -> "Any":
    """Codes (-1 for none) as an object array of names, ``None`` for -1."""
    import numpy as np

    lookup = np.array(list(table) + [None], dtype=object)
    return lookup[np.where(codes >= 0, codes, len(table))]


def to_array(puzzles: Any) -> "Any":
    """Puzzle strings (81 characters, ``0`` or ``.`` for blanks) as a ``uint8 (N, 81)`` array, vectorized: a list
    or numpy array of ``str``, or an Arrow string array (pyarrow ``Array`` or ``ChunkedArray``, e.g.
    ``pa.array(df["puzzle"])`` or a Parquet column), which is read straight from its buffers
    (``arrow_to_grids``, the fast path: no Python object per row).

    A string of another length, or with another character (or a null), gives a row with the value 255 in it,
    which the array calls report as ``Status.MALFORMED``. (Unlike ``solve``, surrounding whitespace is not
    trimmed.)
    """
    if is_arrow(puzzles):
        return arrow_to_grids(puzzles)
    text = np.asarray(puzzles, dtype="U82").reshape(-1)
    codes = text.view(np.uint32).reshape(len(text), 82)[:, :81]
    cells = _codes_to_cells(codes)
    cells[np.char.str_len(text) != 81] = 255
    return cells


def to_strings(grids: "Any", blank: str = ".") -> List[str]:
    """Boards as 81-character strings (``blank`` for 0): the rows of an ``(N, 81)`` array, or one board of shape
    ``(81,)`` (a list of one string). Any integer or float array (or nested list) whose values are whole numbers
    from 0 to 9 is taken. Another shape, or a value outside 0-9 (256, -1, 2.5, NaN), raises ``ValueError``; for a
    value it names the first one by row and column."""
    import numpy as np

    array = np.asarray(grids)
    if array.ndim == 1 and array.shape[0] == 81:
        array = array.reshape(1, 81)
        where = lambda row, col: f"grids[{col}]"  # noqa: E731
    elif array.ndim == 2 and array.shape[1] == 81:
        where = lambda row, col: f"grids[{row}, {col}]"  # noqa: E731
    else:
        raise ValueError(f"grids must have shape (N, 81) or (81,), got {array.shape}")
    if array.dtype.kind not in "iuf":
        raise ValueError(f"grids must hold numbers 0 (blank) to 9, got dtype {array.dtype}")
    # Compared as they are, before any cast: a cast would wrap 256 to 0 and turn NaN into anything.
    bad = ~((array >= 0) & (array <= 9))
    if array.dtype.kind == "f":
        bad |= array != np.floor(array)
    if bad.any():
        row, col = (int(i) for i in np.argwhere(bad)[0])
        raise ValueError(f"{where(row, col)} is {array[row, col]}: cells are 0 (blank) to 9")
    cells = np.ascontiguousarray(array, dtype=np.uint8)
    text = cells + np.uint8(ord("0"))
    text[cells == 0] = ord(blank)
    return [row.tobytes().decode("ascii") for row in text]
