"""The Spark stages in local mode (local[2]) on 100,000 puzzles, and the RDD.pipe recipe with the `sudoku` binary.

Skipped, with the reason, when pyspark or Java is missing (`pip install './python[spark]'` brings pyspark)."""

import os
import shutil
import sys

import numpy as np
import pytest

pyspark = pytest.importorskip("pyspark", reason="pyspark is not installed (pip install './python[spark]')")
pa = pytest.importorskip("pyarrow", reason="pyarrow is not installed (pip install './python[spark]')")

import sudoku_batch as sb  # noqa: E402
from sudoku_batch import Status  # noqa: E402
from sudoku_batch import spark as sbs  # noqa: E402

from conftest import DATA, check_solutions, puzzle_lines, sudoku_bin, to_cells  # noqa: E402

if not (os.environ.get("JAVA_HOME") or shutil.which("java")):
    pytest.skip("no Java: Spark needs a JVM (Java 17)", allow_module_level=True)

PUZZLES = puzzle_lines(DATA / "puzzles.txt")
ANSWERS = puzzle_lines(DATA / "puzzles.solutions.txt")
COPIES = 1000  # 100 puzzles x 1000 = 100,000 rows


@pytest.fixture(scope="module")
def spark():
    from pyspark.sql import SparkSession

    # The executors' Python must be this one, which has sudoku_batch installed.
    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable
    session = (
        SparkSession.builder.master("local[2]")
        .appName("sudoku-batch-tests")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.sql.execution.arrow.pyspark.enabled", "true")
        .config("spark.driver.memory", "2g")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


@pytest.fixture(scope="module")
def big_file(tmp_path_factory):
    """100,000 puzzles, then a clash, a no-solution puzzle, a malformed line, an empty line and a comment."""
    path = tmp_path_factory.mktemp("spark") / "puzzles.txt"
    extra = ["11" + PUZZLES[0][2:], puzzle_lines(DATA / "no_solution.txt")[0], "x" * 81, "", "  # a comment"]
    path.write_text("\n".join(PUZZLES * COPIES + extra) + "\n")
    return path


def test_solve_a_dataframe_of_100k_puzzles(spark, big_file):
    df = spark.read.text(str(big_file)).withColumnRenamed("value", "puzzle").repartition(4)
    out = sbs.solve(df, unique=True).toPandas()
    assert list(out.columns) == ["puzzle", "solution", "status"]
    # The blank line and the comment are left out, as the CLI skips them.
    assert len(out) == 100 * COPIES + 3
    by_puzzle = dict(zip(PUZZLES, ANSWERS))
    good = out[out.puzzle.isin(by_puzzle)]
    assert len(good) == 100 * COPIES
    assert (good.status == Status.SOLVED).all()
    # Every answer: the shipped one, and checked against the rules and the givens.
    assert (good.solution == good.puzzle.map(by_puzzle)).all()
    check_solutions(to_cells(good.puzzle.tolist()), to_cells(good.solution.tolist()))
    rest = out[~out.puzzle.isin(by_puzzle)].sort_values("status")
    assert rest.status.tolist() == [Status.MALFORMED, Status.CLASHING_GIVENS, Status.NO_SOLUTION]
    assert rest.solution.isna().all()


def test_nulls_and_other_columns_are_kept(spark):
    rows = [(1, PUZZLES[0]), (2, None), (3, PUZZLES[1][:80]), (4, PUZZLES[2])]
    df = spark.createDataFrame(rows, "id long, quiz string")
    out = sorted(sbs.solve(df, "quiz").collect())
    assert [r.id for r in out] == [1, 2, 3, 4]
    assert [r.status for r in out] == [0, Status.MALFORMED, Status.MALFORMED, 0]
    assert [r.solution for r in out] == [ANSWERS[0], None, None, ANSWERS[2]]
    with pytest.raises(ValueError, match="no column 'puzzle'"):
        sbs.solve(df)
    with pytest.raises(ValueError, match="already has column"):
        sbs.solve(df.withColumnRenamed("id", "status"), "quiz")
    # The column's type is checked on the driver, before any task runs.
    with pytest.raises(TypeError, match="must hold strings, not long"):
        sbs.solve(df, "id")
    with pytest.raises(TypeError, match="must hold strings, not long"):
        sbs.rate(df, "id")


def test_rate_a_dataframe(spark):
    df = spark.createDataFrame([(p,) for p in PUZZLES[:30]] + [(puzzle_lines(DATA / "several_solutions.txt")[0],)], "puzzle string")
    out = sbs.rate(df).toPandas()
    r = sb.rate(PUZZLES[:30])
    got = out.set_index("puzzle").loc[PUZZLES[:30]]
    assert got.level.tolist() == [sb.LEVELS[i] for i in r["level"]]
    assert got.score.tolist() == r["score"].tolist()
    assert got.guesses.tolist() == r["guesses"].tolist()
    assert got.hardest.tolist() == [sb.TECHNIQUES[i] if i >= 0 else None for i in r["hardest"]]
    several = out[out.status != 0]
    assert several.status.tolist() == [Status.SEVERAL_SOLUTIONS]
    assert several.level.isna().all() and several.score.isna().all()
    # The same values as sb.rate(..., names=True), row for row; names=False gives the codes of sb.rate.
    named = sb.rate(PUZZLES[:30], names=True)
    assert got.level.tolist() == named["level"].tolist()
    assert got.hardest.tolist() == named["hardest"].tolist()
    codes = sbs.rate(df, names=False).toPandas().set_index("puzzle").loc[PUZZLES[:30]]
    assert codes.level.tolist() == r["level"].tolist()
    assert codes.hardest.fillna(-1).astype(int).tolist() == r["hardest"].tolist()


def test_rate_on_se_scale_canon_and_check_of_a_dataframe(spark):
    several = puzzle_lines(DATA / "several_solutions.txt")[0]
    clash = "11" + PUZZLES[0][2:]
    puzzles = PUZZLES[:20] + [several, clash]
    df = spark.createDataFrame([(p,) for p in puzzles], "puzzle string").repartition(2)
    out = sbs.rate(df, scale="se").toPandas().set_index("puzzle").loc[puzzles]
    r = sb.rate(puzzles, scale="se")
    for key in ("er", "ep", "ed"):
        assert out[key].fillna(-1).tolist() == np.nan_to_num(r[key], nan=-1).tolist()
    assert out.hardest.tolist() == r["hardest"].tolist()
    assert out.status.tolist() == r["status"].tolist() == [0] * 20 + [Status.SEVERAL_SOLUTIONS, Status.CLASHING_GIVENS]
    with pytest.raises(ValueError, match="max_se must be"):
        sbs.rate(df, scale="se", max_se=0.2)
    for form, blank in (("minlex", "0"), ("pattern-first", ".")):
        forms = sbs.canon(df, form=form).toPandas().set_index("puzzle").loc[puzzles]
        c = sb.canon(puzzles, form=form)
        assert forms.canon.tolist()[:21] == sb.to_strings(c["canon"][:21], blank)
        assert forms.canon.tolist()[21] is None and forms.status.tolist() == c["status"].tolist()
    claims = sb.solve(PUZZLES[:20])
    claims[3] = claims[4]
    pairs = spark.createDataFrame(list(zip(PUZZLES[:20], claims)), "puzzle string, solution string")
    checked = sbs.check(pairs).toPandas().set_index("puzzle").loc[PUZZLES[:20]]
    v = sb.check(PUZZLES[:20], claims)
    assert checked.status.tolist() == v["status"].tolist() and checked.status.tolist()[3] == Status.WRONG_SOLUTION
    assert checked.error.tolist()[3] == v["error"][3] and checked.error.isna().sum() == 19
    with pytest.raises(ValueError, match="no column 'answer'"):
        sbs.check(pairs, solution_column="answer")


def test_comment_and_blank_rows_are_skipped_as_the_cli_skips_them(spark):
    rows = ["# header comment", PUZZLES[0], "", "   ", "\t# indented", PUZZLES[1], None]
    df = spark.createDataFrame([(p,) for p in rows], "puzzle string")
    solved = sbs.solve(df).toPandas()
    assert solved.puzzle.tolist() == [PUZZLES[0], PUZZLES[1], None]
    assert solved.status.tolist() == [0, 0, Status.MALFORMED]
    assert sbs.rate(df).toPandas().puzzle.tolist() == [PUZZLES[0], PUZZLES[1], None]


def test_arrow_conversion_of_sliced_and_ragged_columns():
    col = pa.array(["x", PUZZLES[0], None, PUZZLES[1] + " ", PUZZLES[2]]).slice(1)
    cells = sbs.arrow_to_grids(col)
    assert (cells[0] == to_cells([PUZZLES[0]])[0]).all() and (cells[3] == to_cells([PUZZLES[2]])[0]).all()
    assert (cells[1] == 255).all() and (cells[2] == 255).all()
    strings = sbs.grids_to_arrow(to_cells(ANSWERS[:3]), np.array([True, False, True]))
    assert strings.to_pylist() == [ANSWERS[0], None, ANSWERS[2]]


def test_rdd_pipe_recipe_with_the_binary(spark, big_file):
    exe = sudoku_bin()
    if exe is None:
        pytest.skip("no sudoku binary: run `cargo build --release` at the repository root or set SUDOKU_BIN")
    lines = spark.sparkContext.textFile(str(big_file), minPartitions=4)
    # One output line per input line in every partition, so the two RDDs zip.
    solved = lines.pipe(f"{exe} solve --keep-lines --quiet --max-errors 0")
    pairs = lines.zip(solved).collect()
    assert len(pairs) == 100 * COPIES + 5
    by_puzzle = dict(zip(PUZZLES, ANSWERS))
    marked = 0
    for puzzle, answer in pairs:
        if puzzle in by_puzzle:
            assert answer == by_puzzle[puzzle]
        elif puzzle == "" or puzzle.lstrip().startswith("#"):
            assert answer == puzzle
        else:
            assert answer.startswith("error: ")
            marked += 1
    assert marked == 3


def test_the_stage_works_when_the_venv_python_is_run_without_activating_it(tmp_path):
    """Spark starts its Python workers with `python3` from PATH unless told otherwise: with the virtualenv's python
    run directly (its bin/ not on PATH), that `python3` lacks sudoku_batch, and the stage failed with
    ModuleNotFoundError. Importing sudoku_batch.spark points the workers at the driver's interpreter."""
    import subprocess

    script = tmp_path / "stage.py"
    script.write_text(
        "from pyspark.sql import SparkSession\n"
        "from sudoku_batch import spark as sbs\n"
        "spark = SparkSession.builder.master('local[2]').config('spark.ui.enabled', 'false').getOrCreate()\n"
        f"df = spark.createDataFrame([(p,) for p in {PUZZLES[:10]!r}], ['puzzle'])\n"
        "rows = sbs.solve(df).collect()\n"
        "print(sum(r.solution is not None for r in rows))\n"
        "spark.stop()\n"
    )
    env = {k: v for k, v in os.environ.items() if k not in ("PYSPARK_PYTHON", "PYSPARK_DRIVER_PYTHON", "VIRTUAL_ENV")}
    venv_bin = os.path.dirname(sys.executable)
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep) if os.path.abspath(p) != venv_bin)
    out = subprocess.run([sys.executable, str(script)], env=env, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-3000:]
    assert out.stdout.strip().splitlines()[-1] == "10", out.stdout
