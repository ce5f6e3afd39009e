"""Arrow string columns of puzzles to and from ``uint8 (N, 81)`` arrays, straight from and into the Arrow buffers
(no Python object per row): the fast path from pyarrow, pandas (``pa.array(series)``, a Parquet column) and Spark
into every array call of ``sudoku_batch``, which also take Arrow arrays themselves and convert them here.

>>> import pyarrow as pa, sudoku_batch as sb
>>> grids = sb.arrow.arrow_to_grids(pa.array(["4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"]))
>>> grids.shape, int(grids[0, 0])
((1, 81), 4)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:  # pragma: no cover
    import pyarrow as pa

__all__ = ["arrow_to_grids", "grids_to_arrow", "is_arrow"]


def is_arrow(obj: Any) -> bool:
    """True for a pyarrow ``Array`` or ``ChunkedArray`` (without importing pyarrow when it is not loaded)."""
    module = type(obj).__module__ or ""
    return module.startswith("pyarrow") and hasattr(obj, "type") and hasattr(obj, "null_count")


def _codes_to_cells(codes: "Any") -> "Any":
    """Character codes (an integer array of shape ``(N, 81)``) to cell values: ``1``-``9`` to 1-9, ``0`` and
    ``.`` to 0, anything else to 255."""
    cells = codes.astype(np.int64) - ord("0")
    dots = codes == ord(".")
    cells[((cells < 0) | (cells > 9)) & ~dots] = 255
    cells[dots] = 0
    return cells.astype(np.uint8)


def arrow_to_grids(column: "pa.Array") -> np.ndarray:
    """An Arrow string column of puzzles (``string`` or ``large_string``, chunked or not) as a ``uint8 (N, 81)``
    array, read straight from the Arrow buffers: nulls, strings of another length than 81 and bad characters give
    rows with 255 (``Status.MALFORMED``). Unlike the string calls, surrounding whitespace is not trimmed."""
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


def grids_to_arrow(grids: np.ndarray, valid: np.ndarray, blank: str = "0") -> "pa.Array":
    """Rows of a ``uint8 (N, 81)`` array of digits 0-9 as an Arrow string column of 81-character strings
    (``blank`` for 0), null where ``valid`` is false, built from one data buffer (no Python object per row)."""
    import pyarrow as pa

    n = len(grids)
    cells = np.ascontiguousarray(grids, dtype=np.uint8)
    text = cells + np.uint8(ord("0"))
    if blank != "0":
        text[cells == 0] = ord(blank)
    offsets = np.arange(0, 81 * (n + 1), 81, dtype=np.int32)
    validity = pa.py_buffer(np.packbits(valid.astype(bool), bitorder="little"))
    return pa.StringArray.from_buffers(
        n,
        pa.py_buffer(offsets),
        pa.py_buffer(text),
        validity,
        null_count=int(n - np.count_nonzero(valid)),
    )
