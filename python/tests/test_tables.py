"""The `sudoku` binary's Parquet and Arrow IPC output, read with pyarrow: tables written here by pyarrow go in, and
what comes out keeps every input column, adds the answer columns, and holds answers checked by the rules."""

import pytest

from conftest import DATA, check_solutions, puzzle_lines, to_cells

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")
ipc = pytest.importorskip("pyarrow.ipc")


def table_of(puzzles, string_type=None):
    """A Hugging Face-like table: id, question (the puzzles), difficulty."""
    n = len(puzzles)
    return pa.table(
        {
            "id": pa.array(range(n), pa.int32()),
            "question": pa.array(puzzles, string_type or pa.string()),
            "difficulty": pa.array([f"d{i % 3}" for i in range(n)]),
        }
    )


@pytest.fixture(scope="module")
def puzzles():
    return puzzle_lines(DATA / "puzzles.txt")


@pytest.mark.parametrize("string_type", ["string", "large_string"])
def test_solve_parquet_keeps_the_columns_and_solves_every_row(cli, tmp_path, puzzles, string_type):
    src = tmp_path / "in.parquet"
    table = table_of(puzzles, getattr(pa, string_type)())
    pq.write_table(table, src, row_group_size=30, compression="zstd")
    out = tmp_path / "out.parquet"
    r = cli("solve", src, "-o", out)
    assert r.returncode == 0, r.stderr
    got = pq.read_table(out)
    assert got.column_names == ["id", "question", "difficulty", "solution"]
    assert got.select(["id", "difficulty"]).equals(table.select(["id", "difficulty"]))
    assert got.column("question").to_pylist() == puzzles
    solutions = got.column("solution").to_pylist()
    check_solutions(to_cells(puzzles), to_cells(solutions))
    assert solutions == (DATA / "puzzles.solutions.txt").read_text().splitlines()


def test_failed_rows_keep_their_place_with_the_marker(cli, tmp_path, puzzles):
    src = tmp_path / "in.parquet"
    rows = [puzzles[0], None, "1" * 81, "x", puzzles[1]]
    pq.write_table(table_of(rows), src)
    r = cli("solve", src, "-o", tmp_path / "out.parquet")
    assert r.returncode == 1
    assert f"{src}: row 2: malformed: the puzzle field is null" in r.stderr.decode()
    got = pq.read_table(tmp_path / "out.parquet").column("solution").to_pylist()
    assert len(got) == 5
    assert got[1] == "error: malformed: the puzzle field is null"
    assert got[2].startswith("error: clashing givens")
    assert got[3].startswith("error: malformed")
    check_solutions(to_cells([puzzles[0], puzzles[1]]), to_cells([got[0], got[4]]))


def test_dedupe_drops_repeats_and_keeps_the_first_rows_whole(cli, tmp_path, puzzles):
    src = tmp_path / "in.parquet"
    rows = puzzles[:10] + puzzles[:5]
    pq.write_table(table_of(rows), src, row_group_size=4)
    r = cli("dedupe", src, "-o", tmp_path / "out.parquet")
    assert r.returncode == 0, r.stderr
    got = pq.read_table(tmp_path / "out.parquet")
    assert got.column("id").to_pylist() == list(range(10))
    assert got.column("question").to_pylist() == puzzles[:10]


def test_arrow_ipc_stream_in_gives_a_stream_out_through_pipes(cli, tmp_path, puzzles):
    sink = pa.BufferOutputStream()
    table = table_of(puzzles[:20])
    with ipc.new_stream(sink, table.schema) as w:
        w.write_table(table, max_chunksize=7)
    r = cli("rate", "-", input=sink.getvalue().to_pybytes())
    assert r.returncode == 0, r.stderr
    got = ipc.open_stream(r.stdout).read_all()
    assert got.column_names == ["id", "question", "difficulty", "level", "score", "guesses", "hardest"]
    assert got.select(["id", "question", "difficulty"]).equals(table)
    assert all(level for level in got.column("level").to_pylist())


def test_parquet_on_standard_input_is_read_whole(cli, tmp_path, puzzles):
    src = tmp_path / "in.parquet"
    pq.write_table(table_of(puzzles), src)
    r = cli("count", "-", input=src.read_bytes())
    assert r.returncode == 0, r.stderr
    got = pq.read_table(pa.BufferReader(r.stdout))
    assert got.column("count").to_pylist() == ["1"] * len(puzzles)
