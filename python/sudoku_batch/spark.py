"""Spark stages: solve or rate a DataFrame column of puzzle strings on the executors.

Each Arrow record batch of a partition goes to ``solve_array`` (or ``rate``) in one call through
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
from typing import TYPE_CHECKING, Any, Iterator

import numpy as np

from . import LEVELS, TECHNIQUES, _codes_to_cells
from . import rate as _rate
from . import solve_array as _solve_array

if TYPE_CHECKING:  # pragma: no cover
    import pyarrow as pa
    from pyspark.sql import DataFrame

__all__ = ["solve", "rate", "arrow_to_grids", "grids_to_arrow"]

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


def rate(df: "DataFrame", column: str = "puzzle", *, names: bool = True) -> "DataFrame":
    """``df`` with the columns of ``sudoku rate`` added: ``level`` (string: simple, easy, intermediate,
    expert), ``score`` (int), ``guesses`` (int), ``hardest`` (string technique name, null when none was needed)
    and ``status`` (int, a ``sudoku_batch.Status`` code; a puzzle needs exactly one solution to be rated, and
    the other columns are null where ``status`` is not 0). With ``names=False``, ``level`` and ``hardest`` are
    the int codes of ``sudoku_batch.rate`` instead (indices into ``LEVELS`` and ``TECHNIQUES``; null for none).
    The values are those of ``sudoku_batch.rate(puzzles, names=...)`` row for row. Rows whose puzzle is blank or
    a ``#`` comment are left out, as the CLI skips such lines.
    """
    from pyspark.sql.types import IntegerType, StringType, StructField, StructType

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


def arrow_to_grids(column: "pa.Array") -> np.ndarray:
    """An Arrow string column of puzzles as a ``uint8 (N, 81)`` array, read straight from the Arrow buffers:
    nulls, strings of another length than 81 and bad characters give rows with 255 (``Status.MALFORMED``)."""
    import pyarrow as pa

    if isinstance(column, pa.ChunkedArray):
        column = column.combine_chunks()
    if pa.types.is_large_string(column.type):
        offset_type = np.int64
    elif pa.types.is_string(column.type):
        offset_type = np.int32
    else:
        raise TypeError(f"the puzzle column must hold strings, not {column.type}")
    n = len(column)
    _, offsets_buf, data_buf = column.buffers()
    offsets = np.frombuffer(offsets_buf, dtype=offset_type)[column.offset : column.offset + n + 1]
    data = np.frombuffer(data_buf, dtype=np.uint8) if data_buf is not None else np.zeros(0, np.uint8)
    lengths = np.diff(offsets)
    good = lengths == 81
    if column.null_count:
        good &= column.is_valid().to_numpy(zero_copy_only=False)
    if n and good.all() and offsets[-1] - offsets[0] == 81 * n:
        # The common case: one run of N * 81 bytes.
        codes = data[offsets[0] : offsets[-1]].reshape(n, 81)
        return _codes_to_cells(codes)
    cells = np.full((n, 81), 255, dtype=np.uint8)
    if good.any():
        starts = offsets[:-1][good]
        rows = data[starts[:, None] + np.arange(81)]
        cells[good] = _codes_to_cells(rows)
    return cells


def grids_to_arrow(grids: np.ndarray, valid: np.ndarray) -> "pa.Array":
    """Rows of a ``uint8 (N, 81)`` array of digits 1-9 as an Arrow string column of 81-digit strings, null
    where ``valid`` is false, built from one data buffer (no Python object per row)."""
    import pyarrow as pa

    n = len(grids)
    text = np.ascontiguousarray(grids, dtype=np.uint8) + np.uint8(ord("0"))
    offsets = np.arange(0, 81 * (n + 1), 81, dtype=np.int32)
    validity = pa.py_buffer(np.packbits(valid.astype(bool), bitorder="little"))
    return pa.StringArray.from_buffers(
        n,
        pa.py_buffer(offsets),
        pa.py_buffer(text),
        validity,
        null_count=int(n - np.count_nonzero(valid)),
    )


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
