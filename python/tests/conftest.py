"""Shared helpers of the pytest suite: where the data and the `sudoku` binary are, and an answer check that does
not use the code under test."""

import os
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

REPO = Path(__file__).resolve().parents[2]
DATA = REPO / "data"


def sudoku_bin():
    """The `sudoku` binary to compare with: $SUDOKU_BIN, else the workspace's release or debug build."""
    for candidate in (os.environ.get("SUDOKU_BIN"), REPO / "target/release/sudoku", REPO / "target/debug/sudoku"):
        if candidate and Path(candidate).is_file():
            return str(candidate)
    return shutil.which("sudoku")


@pytest.fixture(scope="session")
def cli():
    """Runs the `sudoku` binary and returns the CompletedProcess (skips when there is none)."""
    exe = sudoku_bin()
    if exe is None:
        pytest.skip("no sudoku binary: run `cargo build --release` at the repository root or set SUDOKU_BIN")

    def run(*args, **kw):
        return subprocess.run([exe, *map(str, args)], capture_output=True, **kw)

    return run


def puzzle_lines(path):
    """The 81-character puzzle lines of a file (comments and blank lines skipped)."""
    return [l for l in Path(path).read_text().splitlines() if l and not l.startswith("#")]


def to_cells(lines):
    """Puzzle strings as a uint8 (N, 81) array, written here with plain Python (independent of the package)."""
    return np.array([[0 if c in ".0" else int(c) for c in line] for line in lines], dtype=np.uint8).reshape(-1, 81)


def check_solutions(puzzles, solutions):
    """Asserts that every row of `solutions` is a full valid board that keeps the givens of `puzzles`."""
    puzzles = np.asarray(puzzles)
    solutions = np.asarray(solutions)
    assert solutions.shape == puzzles.shape
    digits = np.arange(1, 10)
    boards = solutions.reshape(-1, 9, 9)
    rows = np.sort(boards, axis=2)
    cols = np.sort(boards.transpose(0, 2, 1), axis=2)
    boxes = np.sort(boards.reshape(-1, 3, 3, 3, 3).transpose(0, 1, 3, 2, 4).reshape(-1, 9, 9), axis=2)
    for name, units in (("row", rows), ("column", cols), ("box", boxes)):
        bad = np.nonzero(~(units == digits).all(axis=(1, 2)))[0]
        assert bad.size == 0, f"board {bad[:5]} breaks a {name}"
    givens = puzzles > 0
    changed = np.nonzero((givens & (solutions != puzzles)).any(axis=1))[0]
    assert changed.size == 0, f"boards {changed[:5]} change a given"
