"""The dataset tools of the ``sudoku`` command line in Python: ``canon``, ``classes`` and ``dedupe``, ``split``,
``shuffle``, ``check`` and ``explain``, each giving the CLI's answers (re-exported by ``sudoku_batch``).

Every batch call takes its puzzles as a list of strings, a ``uint8 (N, 81)`` array or an Arrow string array
(pyarrow ``Array`` or ``ChunkedArray``, read straight from its buffers by ``sudoku_batch.arrow.arrow_to_grids``),
releases the GIL for the whole batch, and is stopped by Ctrl-C within milliseconds (``KeyboardInterrupt``).
"""

from __future__ import annotations

import json
from typing import Any, Dict, Optional, Sequence, Tuple

import numpy as np

from . import _native
from .arrow import arrow_to_grids, is_arrow

__all__ = ["canon", "check", "classes", "dedupe", "explain", "shuffle", "split", "SIDES"]

SIDES: Sequence[str] = tuple(_native.SIDES)
"""The sides of ``split``, by their code: ``("train", "test", "val")``."""


def _puzzles(obj: Any) -> Any:
    """A batch argument as the native calls take it: an Arrow string array becomes a ``uint8 (N, 81)`` array."""
    return arrow_to_grids(obj) if is_arrow(obj) else obj


def canon(
    puzzles: Any, *, form: str = "minlex", transforms: bool = False, threads: Optional[int] = None
) -> Dict[str, Any]:
    """The canonical form of each puzzle (or solved grid), as ``sudoku canon`` writes it (``form="minlex"``, the
    default) or ``sudoku canon --pattern-first`` (``form="pattern-first"``). Returns a dict of numpy arrays:
    ``canon`` (``uint8 (N, 81)``, 0 for a blank, zeros where the puzzle failed; ``to_strings(r["canon"], "0")``
    gives the CLI's lines) and ``status`` (``int8``: ``Status.SOLVED``, ``MALFORMED`` or ``CLASHING_GIVENS``).

    With ``transforms=True`` also the transform that gives each form (the identity where the puzzle failed):
    ``transpose`` (``bool (N,)``), ``rows`` and ``cols`` (``uint8 (N, 9)``) and ``digits`` (``uint8 (N, 10)``).
    Cell ``(r, c)`` of the form is ``digits[d]``, ``d`` being the puzzle's cell ``(rows[r], cols[c])`` (of the
    transposed puzzle when ``transpose``); in numpy, for one puzzle ``p`` as a ``(9, 9)`` array:
    ``digits[(p.T if transpose else p)[np.ix_(rows, cols)]]``. It costs nothing more than the form.
    """
    return _native.canon(_puzzles(puzzles), form=form, transforms=transforms, threads=threads)


def classes(puzzles: Any, *, threads: Optional[int] = None) -> Dict[str, Any]:
    """The equivalence class of each puzzle: a dict of ``group`` (``int64``, the classes numbered from 0 in order of
    first appearance, -1 where the puzzle failed: the numbers of ``sudoku export --to npy``'s ``group.npy``) and
    ``status`` (``int8``: ``SOLVED``, ``MALFORMED`` or ``CLASHING_GIVENS``). Two puzzles are in one class exactly
    when they have the same canonical form. Memory: 32 bytes per puzzle during the call, and a map entry per
    class."""
    return _native.classes(_puzzles(puzzles), threads=threads)


def dedupe(puzzles: Any, *, threads: Optional[int] = None) -> np.ndarray:
    """The indices (``int64``, increasing) of the puzzles ``sudoku dedupe`` keeps: the first of each class, in input
    order. Puzzles that fail (malformed, clashing givens) are left out, as the CLI leaves them out of its kept
    records."""
    group = classes(puzzles, threads=threads)["group"]
    valid = np.flatnonzero(group >= 0)
    _, first = np.unique(group[valid], return_index=True)
    return valid[np.sort(first)]


def split(
    puzzles: Any,
    *,
    test: float,
    val: float = 0.0,
    seed: int = 0,
    strata: Optional[Sequence[str]] = None,
    threads: Optional[int] = None,
) -> Dict[str, Any]:
    """The side of each puzzle, as ``sudoku split --test TEST --val VAL --seed SEED`` assigns it: a dict of ``side``
    (``int8``: 0 train, 1 test, 2 validation, the indices of ``SIDES``; -1 where the puzzle failed) and
    ``status`` (``int8``). Every class falls wholly on one side, drawn by a seeded hash of its canonical form, so
    the answer for a puzzle depends on nothing else (not on the other puzzles, the order or ``threads``): each
    side holds its fraction of the classes up to the spread of independent draws.

    ``strata`` (a list of N strings: a column's values as the CLI reads them from a CSV, e.g. a rating written as
    ``"3.5"``) splits each stratum on its own, as ``--stratify COLUMN`` does; every puzzle of a class must have
    the same stratum. ``test + val`` must be at most 1 (``ValueError`` otherwise)."""
    return _native.split(_puzzles(puzzles), test=test, val=val, seed=seed, strata=strata, threads=threads)


def shuffle(
    puzzles: Any,
    solutions: Any = None,
    *,
    copies: int = 1,
    seed: int = 0,
    keep_original: bool = False,
    threads: Optional[int] = None,
) -> Tuple[np.ndarray, Optional[np.ndarray], np.ndarray]:
    """``copies`` uniformly random equivalent copies of each puzzle (with ``keep_original``, the puzzle itself
    first), each solution (``solutions``: N boards, as strings or an array) through its copy's transform. Returns
    ``(puzzles, solutions, group)``: two ``uint8 (N * K, 81)`` arrays (``solutions`` is ``None`` when none were
    given) and ``group`` (``int64``, the input puzzle's index), for ``K = copies + keep_original``, the copies of
    puzzle ``i`` in rows ``K * i`` to ``K * i + K - 1``.

    The transforms are those ``sudoku shuffle --copies K --seed SEED [--keep-original]`` draws for a Parquet or
    Arrow table whose row ``i`` is puzzle ``i`` (they depend on the seed, the row number and the copy number only:
    the same copies whatever ``threads`` is). A line file draws from the record's byte offset instead, so its
    copies differ. A puzzle or solution that cannot be read raises ``ValueError`` naming its index."""
    return _native.shuffle(
        _puzzles(puzzles),
        None if solutions is None else _puzzles(solutions),
        copies=copies,
        seed=seed,
        keep_original=keep_original,
        threads=threads,
    )


def check(
    puzzles: Any, solutions: Any, *, unique: bool = False, threads: Optional[int] = None
) -> Dict[str, Any]:
    """Checks ``solutions[i]`` against ``puzzles[i]`` as ``sudoku check`` (``unique=True``: ``--unique``): a dict of
    ``status`` (``int8``: ``SOLVED`` when the solution is a full board that breaks no rule and keeps every given,
    else ``MALFORMED`` (the puzzle), ``CLASHING_GIVENS``, ``SEVERAL_SOLUTIONS`` (with ``unique``) or
    ``WRONG_SOLUTION``) and ``error``: a list, ``None`` where the check passed, else the CLI's reason
    (``"invalid solution: row 3 has two 5s (r3c1, r3c4)"``, ``"solution changes given r2c7"``). The two batches
    must be of one length (``ValueError`` otherwise)."""
    return _native.check(_puzzles(puzzles), _puzzles(solutions), unique=unique, threads=threads)


def explain(puzzle: str, *, scale: str = "levels", max_se: Optional[float] = None) -> Dict[str, Any]:
    """One puzzle's solving path: the object ``sudoku explain --json [--scale se] [--max-se X]`` writes for it,
    without ``line``: ``puzzle``, ``status`` (``"explained"``), the rating fields (``level``, ``score``,
    ``guesses``, ``hardest`` on the level scale; ``er``, ``ep``, ``ed``, ``hardest`` on SE's), ``solution`` and
    ``steps``, a list of dicts with the keys ``technique``, ``rating``, (``depth`` on the level scale), ``place``
    and ``eliminate`` (``[[row, col, digit], ...]``, 1-based; docs/explain-json.md). A puzzle without a path gets
    ``status`` set to its failure's kind (``malformed``, ``clashing_givens``, ``no_solution``,
    ``several_solutions``) and ``error`` to the reason, as in the CLI. The GIL is released while it runs."""
    if not isinstance(puzzle, str):
        raise TypeError(f"puzzle must be one puzzle string, not {type(puzzle).__name__}")
    status, error, fields = _native.explain(puzzle, scale=scale, max_se=max_se)
    result: Dict[str, Any] = {"puzzle": puzzle, "status": status}
    if fields is None:
        result["error"] = error
    else:
        result.update(json.loads(fields))
    return result
