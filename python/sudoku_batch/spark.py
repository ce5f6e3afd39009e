"""Spark stages: solve, rate (levels or SE's scale), canonicalize or check a DataFrame column of puzzle strings on
the executors.

Each Arrow record batch of a partition goes to ``solve_array`` (or ``rate``, ``canon``, ``check``) in one call through
``DataFrame.mapInArrow``: the strings are turned into a ``uint8 (N, 81)`` array and the answers back into an
Arrow column with numpy, with no Python loop over rows. Needs the ``spark`` extra
(``pip install 'sudoku-batch[spark]'``: pyspark, pyarrow, pandas) on the driver and the executors.

Importing this module makes Spark's Python workers run the driver's own interpreter (``PYSPARK_PYTHON`` set to
``sys.executable``) unless the user has set ``PYSPARK_PYTHON``: Spark otherwise starts ``python3`` from ``PATH``,
which lacks this package when the driver is a virtualenv's python run without activating the virtualenv. Import it
before the SparkSession is created (the setting is read then).

>>> from sudoku_batch import spark as sbs
>>> solved = sbs.solve(spark.read.text("puzzles.txt").withColumnRenamed("value", "puzzle"))  # doctest: +SKIP
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Any, Iterator, Optional

import numpy as np

from . import LEVELS, TECHNIQUES
from . import canon as _canon
from . import check as _check_solutions
from . import rate as _rate
from . import solve_array as _solve_array
from .arrow import arrow_to_grids, grids_to_arrow

if TYPE_CHECKING:  # pragma: no cover
    import pyarrow as pa
    from pyspark.sql import DataFrame

__all__ = ["solve", "rate", "canon", "check", "arrow_to_grids", "grids_to_arrow"]

if sys.executable:
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)


def solve(df: "DataFrame", column: str = "puzzle", *, unique: bool = False) -> "DataFrame":
    """``df`` with two columns added: ``solution`` (string, 81 digits; null when the puzzle failed) and
    ``status`` (int, a ``sudoku_batch.Status`` code). ``column`` holds puzzle strings (81 characters, ``0`` or
    ``.`` for blanks); a null or a string of another length is ``Status.MALFORMED``. Every input column is kept.
    Rows whose puzzle is blank or a ``#`` comment are left out, as the CLI skips such lines.
    """
    from pyspark.sql.types import IntegerType, StringType, StructField, StructType

    _check(df, column, ("solution", "status"))
    df = _records(df, column)
    schema = StructType(
        df.schema.fields
        + [StructField("solution", StringType(), True), StructField("status", IntegerType(), False)]
    )

    def stage(batches: Iterator["pa.RecordBatch"]) -> Iterator["pa.RecordBatch"]:
        import pyarrow as pa

        for batch in batches:
            grids = arrow_to_grids(batch.column(column))
            solutions, status = _solve_array(grids, unique=unique, threads=1)
            yield pa.RecordBatch.from_arrays(
                batch.columns + [grids_to_arrow(solutions, status == 0), pa.array(status.astype(np.int32), pa.int32())],
                names=batch.schema.names + ["solution", "status"],
            )

    return df.mapInArrow(stage, schema)


def rate(
    df: "DataFrame",
    column: str = "puzzle",
    *,
    names: bool = True,
    scale: str = "levels",
    max_se: Optional[float] = None,
) -> "DataFrame":
    """``df`` with the columns of ``sudoku rate`` added: ``level`` (string: simple, easy, intermediate,
    expert), ``score`` (int), ``guesses`` (int), ``hardest`` (string technique name, null when none was needed)
    and ``status`` (int, a ``sudoku_batch.Status`` code; a puzzle needs exactly one solution to be rated, and
    the other columns are null where ``status`` is not 0). With ``names=False``, ``level`` and ``hardest`` are
    the int codes of ``sudoku_batch.rate`` instead (indices into ``LEVELS`` and ``TECHNIQUES``; null for none).
    The values are those of ``sudoku_batch.rate(puzzles, names=...)`` row for row. Rows whose puzzle is blank or
    a ``#`` comment are left out, as the CLI skips such lines.

    With ``scale="se"`` (and ``max_se``, as ``sudoku rate --scale se --max-se X``) the columns are Sudoku
    Explainer's instead, those of ``sudoku_batch.rate(puzzles, scale="se")``: ``er``, ``ep``, ``ed`` (double,
    null where unknown), ``hardest`` (string, SE's technique name) and ``status``.
    """
    from pyspark.sql.types import IntegerType, StringType, StructField, StructType

    if scale == "se":
        return _rate_se(df, column, max_se)
    if scale != "levels" or max_se is not None:
        raise ValueError(f'scale must be "levels" or "se" (max_se with "se" only), not {scale!r}')
    _check(df, column, ("level", "score", "guesses", "hardest", "status"))
    df = _records(df, column)
    label = StringType() if names else IntegerType()
    schema = StructType(
        df.schema.fields
        + [
            StructField("level", label, True),
            StructField("score", IntegerType(), True),
            StructField("guesses", IntegerType(), True),
            StructField("hardest", label, True),
            StructField("status", IntegerType(), False),
        ]
    )
    levels_names = np.array(LEVELS, dtype=object)
    technique_names = np.array(TECHNIQUES, dtype=object)

    def labels(codes: np.ndarray, table: np.ndarray) -> "pa.Array":
        import pyarrow as pa

        valid = codes >= 0
        indices = pa.array(np.where(valid, codes, 0).astype(np.int32), mask=~valid)
        if not names:
            return indices
        return pa.DictionaryArray.from_arrays(indices, pa.array(table, pa.string())).dictionary_decode()

    def stage(batches: Iterator["pa.RecordBatch"]) -> Iterator["pa.RecordBatch"]:
        import pyarrow as pa

        for batch in batches:
            r = _rate(arrow_to_grids(batch.column(column)), threads=1)
            failed = r["status"] != 0
            cols = [
                labels(r["level"], levels_names),
                pa.array(r["score"], pa.int32(), mask=failed),
                pa.array(r["guesses"], pa.int32(), mask=failed),
                labels(r["hardest"], technique_names),
                pa.array(r["status"].astype(np.int32), pa.int32()),
            ]
            yield pa.RecordBatch.from_arrays(
                batch.columns + cols,
                names=batch.schema.names + ["level", "score", "guesses", "hardest", "status"],
            )

    return df.mapInArrow(stage, schema)


def _rate_se(df: "DataFrame", column: str, max_se: Optional[float]) -> "DataFrame":
    """The stage of ``rate(df, scale="se")``."""
    from pyspark.sql.types import DoubleType, IntegerType, StringType, StructField, StructType

    added = ("er", "ep", "ed", "hardest", "status")
    _check(df, column, added)
    df = _records(df, column)
    schema = StructType(
        df.schema.fields
        + [StructField(name, DoubleType(), True) for name in ("er", "ep", "ed")]
        + [StructField("hardest", StringType(), True), StructField("status", IntegerType(), False)]
    )
    _rate(np.zeros((0, 81), np.uint8), scale="se", max_se=max_se)  # a bad max_se is refused on the driver

    def stage(batches: Iterator["pa.RecordBatch"]) -> Iterator["pa.RecordBatch"]:
        import pyarrow as pa

        for batch in batches:
            r = _rate(arrow_to_grids(batch.column(column)), scale="se", max_se=max_se, threads=1)
            cols = [pa.array(r[k], pa.float64(), mask=np.isnan(r[k])) for k in ("er", "ep", "ed")]
            cols += [pa.array(r["hardest"], pa.string()), pa.array(r["status"].astype(np.int32), pa.int32())]
            yield pa.RecordBatch.from_arrays(batch.columns + cols, names=batch.schema.names + list(added))

    return df.mapInArrow(stage, schema)


def canon(df: "DataFrame", column: str = "puzzle", *, form: str = "minlex") -> "DataFrame":
    """``df`` with two columns added: ``canon`` (string, the canonical form ``sudoku canon`` writes: ``0`` for
    blanks, or with ``form="pattern-first"`` that of ``sudoku canon --pattern-first``, ``.`` for blanks; null where
    the puzzle failed) and ``status`` (int: 0, ``Status.MALFORMED`` or ``Status.CLASHING_GIVENS``). Rows whose
    puzzle is blank or a ``#`` comment are left out, as the CLI skips such lines."""
    from pyspark.sql.types import IntegerType, StringType, StructField, StructType

    _check(df, column, ("canon", "status"))
    df = _records(df, column)
    schema = StructType(
        df.schema.fields + [StructField("canon", StringType(), True), StructField("status", IntegerType(), False)]
    )
    blank = "." if form in ("pattern-first", "pattern_first") else "0"
    _canon(np.zeros((0, 81), np.uint8), form=form)  # a bad form is refused on the driver

    def stage(batches: Iterator["pa.RecordBatch"]) -> Iterator["pa.RecordBatch"]:
        import pyarrow as pa

        for batch in batches:
            r = _canon(arrow_to_grids(batch.column(column)), form=form, threads=1)
            ok = r["status"] == 0
            yield pa.RecordBatch.from_arrays(
                batch.columns + [grids_to_arrow(r["canon"], ok, blank), pa.array(r["status"].astype(np.int32))],
                names=batch.schema.names + ["canon", "status"],
            )

    return df.mapInArrow(stage, schema)


def check(
    df: "DataFrame", column: str = "puzzle", solution_column: str = "solution", *, unique: bool = False
) -> "DataFrame":
    """``df`` with two columns added, the verdicts of ``sudoku check`` (``unique=True``: ``--unique``) on each row's
    claimed solution (``solution_column``, strings of 81 digits): ``status`` (int: 0 when the solution is right,
    else a ``sudoku_batch.Status`` code, ``WRONG_SOLUTION`` for a wrong one) and ``error`` (string, the CLI's
    reason; null when right). Rows whose puzzle is blank or a ``#`` comment are left out."""
    from pyspark.sql.types import IntegerType, StringType, StructField, StructType

    _check(df, column, ("status", "error"))
    if solution_column not in df.schema.names:
        raise ValueError(f"no column {solution_column!r} in the DataFrame (columns: {', '.join(df.schema.names)})")
    df = _records(df, column)
    schema = StructType(
        df.schema.fields + [StructField("status", IntegerType(), False), StructField("error", StringType(), True)]
    )

    def stage(batches: Iterator["pa.RecordBatch"]) -> Iterator["pa.RecordBatch"]:
        import pyarrow as pa

        for batch in batches:
            puzzles = arrow_to_grids(batch.column(column))
            claims = arrow_to_grids(batch.column(solution_column).cast(pa.string()))
            r = _check_solutions(puzzles, claims, unique=unique, threads=1)
            yield pa.RecordBatch.from_arrays(
                batch.columns + [pa.array(r["status"].astype(np.int32)), pa.array(r["error"], pa.string())],
                names=batch.schema.names + ["status", "error"],
            )

    return df.mapInArrow(stage, schema)


def _records(df: "DataFrame", column: str) -> "DataFrame":
    """``df`` without the rows the CLI skips: a puzzle that is blank or whitespace, or a ``#`` comment (after
    leading whitespace). Nulls stay (they are ``Status.MALFORMED``)."""
    from pyspark.sql import functions as F

    c = F.col(column)
    return df.filter(c.isNull() | ~c.rlike(r"^\s*(#|$)"))


def _check(df: Any, column: str, added: tuple) -> None:
    names = df.schema.names
    if column not in names:
        raise ValueError(f"no column {column!r} in the DataFrame (columns: {', '.join(names)})")
    clash = [c for c in added if c in names]
    if clash:
        raise ValueError(f"the DataFrame already has column(s) {', '.join(clash)}; rename them first")
    # The schema is known here on the driver: a column of another type is refused before any task runs.
    kind = df.schema[column].dataType.typeName()
    if kind != "string":
        raise TypeError(f"the puzzle column {column!r} must hold strings, not {kind}")
