"""The dataset tools in Python (canon, classes and dedupe, split, shuffle, check, rate on SE's scale, explain)
against the `sudoku` binary's answers on data/ and on a few hundred puzzles of the shared sets, and their
properties (canon of a random transform is canon of the original; split puts no class on two sides)."""

import json
import os
import threading
import time
from pathlib import Path

import numpy as np
import pytest

import sudoku_batch as sb
from sudoku_batch import Status

from conftest import DATA, REPO, check_solutions, puzzle_lines, to_cells
from test_api import STOP_BOUND, ctrl_c_raises, interrupt_after  # noqa: F401 (a fixture)

PUZZLES = puzzle_lines(DATA / "puzzles.txt")
ANSWERS = puzzle_lines(DATA / "puzzles.solutions.txt")
HARD = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
CLASH = "11" + HARD[2:]
SHARED = Path(os.environ.get("SUDOKU_SHARED_DATA", REPO.parent / "shared" / "data"))


def shared(name, n):
    """The first `n` puzzles of a shared set, or a skip saying why there are none."""
    path = SHARED / name
    if not path.is_file():
        pytest.skip(f"{path} is absent (set SUDOKU_SHARED_DATA to the shared data directory)")
    return [line.split()[0] for line in puzzle_lines(path)[:n]]


def lines_of(cli, *args):
    """The output lines of the binary run with `args` (it must succeed)."""
    done = cli(*args)
    assert done.returncode == 0, done.stderr.decode()
    return done.stdout.decode().splitlines()


def random_copies(puzzles, seed):
    """Random equivalent copies of `puzzles` made here with numpy (independent of the package): a transposition,
    band/row and stack/column orders and a relabelling, each drawn uniformly."""
    rng = np.random.default_rng(seed)
    out = []
    for p in to_cells(puzzles):
        g = p.reshape(9, 9)
        if rng.integers(2):
            g = g.T
        lines = lambda: np.concatenate([3 * b + rng.permutation(3) for b in rng.permutation(3)])  # noqa: E731
        g = g[np.ix_(lines(), lines())]
        digits = np.concatenate([[0], rng.permutation(9) + 1])
        out.append(digits[g].reshape(81).astype(np.uint8))
    return np.array(out, dtype=np.uint8).reshape(-1, 81)


@pytest.fixture(scope="module")
def samples():
    """Puzzles of data/ and, when present, 300 of each of two shared sets."""
    sets = {"data": PUZZLES}
    for name in ("puzzles2_17_clue", "puzzles3_magictour_top1465"):
        if (SHARED / name).is_file():
            sets[name] = shared(name, 300)
    return sets


def write_lines(path, lines):
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.mark.parametrize("form,flags,blank", [("minlex", [], "0"), ("pattern-first", ["--pattern-first"], ".")])
def test_canon_is_the_cli_canon(cli, samples, tmp_path, form, flags, blank):
    for name, puzzles in samples.items():
        path = write_lines(tmp_path / f"{name}.txt", puzzles)
        expected = lines_of(cli, "canon", *flags, path)
        got = sb.canon(puzzles, form=form)
        assert (got["status"] == Status.SOLVED).all()
        assert sb.to_strings(got["canon"], blank) == expected, name
        # The same from an array and from an Arrow array.
        assert (sb.canon(to_cells(puzzles), form=form)["canon"] == got["canon"]).all()
    if form == "minlex":
        pytest.importorskip("pyarrow")
        import pyarrow as pa

        assert (sb.canon(pa.array(PUZZLES))["canon"] == sb.canon(PUZZLES)["canon"]).all()


def test_canon_of_a_random_transform_is_canon_of_the_original(samples):
    for name, puzzles in samples.items():
        forms = sb.canon(puzzles)["canon"]
        for seed in (1, 2):
            copies = random_copies(puzzles, seed)
            assert not (copies == to_cells(puzzles)).all()
            assert (sb.canon(copies)["canon"] == forms).all(), name
    # Solved grids too (their search is another one).
    grids = to_cells(ANSWERS)
    assert (sb.canon(random_copies(ANSWERS, 3))["canon"] == sb.canon(grids)["canon"]).all()


def test_canon_transforms_give_the_forms_and_failures_have_codes():
    puzzles = PUZZLES[:20] + [CLASH, "x" * 81]
    got = sb.canon(puzzles, transforms=True, threads=2)
    assert got["status"].tolist() == [0] * 20 + [Status.CLASHING_GIVENS, Status.MALFORMED]
    assert (got["canon"][20:] == 0).all()
    cells = to_cells(puzzles[:20])
    for i, p in enumerate(cells):
        g = p.reshape(9, 9)
        src = g.T if got["transpose"][i] else g
        applied = got["digits"][i][src[np.ix_(got["rows"][i], got["cols"][i])]]
        assert (applied.reshape(81) == got["canon"][i]).all(), i
        assert sorted(got["rows"][i]) == list(range(9)) and got["digits"][i][0] == 0
    assert (got["rows"][20:] == np.arange(9)).all(), "the identity where the puzzle failed"


def equivalent_set(cli, tmp_path, puzzles):
    """The puzzles, then a shuffled copy of each (the binary's `shuffle`), then the puzzles again: three records
    per class, in known places."""
    path = write_lines(tmp_path / "base.txt", puzzles)
    copies = lines_of(cli, "shuffle", "--seed", "4", path)
    assert len(copies) == len(puzzles)
    return puzzles + copies + puzzles


def test_classes_and_dedupe_are_the_cli_dedupe_and_export_groups(cli, samples, tmp_path):
    for name, puzzles in samples.items():
        records = equivalent_set(cli, tmp_path, puzzles)
        path = write_lines(tmp_path / f"{name}.txt", records)
        kept = lines_of(cli, "dedupe", path)
        idx = sb.dedupe(records)
        assert idx.dtype == np.int64
        assert [records[i] for i in idx] == kept, name
        group = sb.classes(records)["group"]
        n = len(puzzles)
        # Classes by construction: record i, its copy and its repeat share one class.
        assert (group[:n] == group[n : 2 * n]).all() and (group[:n] == group[2 * n :]).all()
        out = tmp_path / f"{name}-npy"
        done = cli("export", path, "--to", "npy", "--out-dir", out)
        assert done.returncode == 0, done.stderr.decode()
        assert (np.load(out / "group.npy") == group).all(), name
    got = sb.classes([HARD, CLASH, "x", HARD])
    assert got["group"].tolist() == [0, -1, -1, 0]
    assert got["status"].tolist() == [0, Status.CLASHING_GIVENS, Status.MALFORMED, 0]
    assert sb.dedupe([CLASH, HARD, HARD]).tolist() == [1]


@pytest.mark.parametrize("test,val,seed", [(0.3, 0.2, 5), (0.5, 0.0, 0)])
def test_split_is_the_cli_split_and_keeps_classes_on_one_side(cli, samples, tmp_path, test, val, seed):
    for name, puzzles in samples.items():
        records = equivalent_set(cli, tmp_path, puzzles)
        path = write_lines(tmp_path / f"{name}.txt", records)
        out = tmp_path / f"{name}-{seed}"
        args = ["split", path, "--test", test, "--seed", seed, "--out-dir", out]
        if val:
            args += ["--val", val]
        done = cli(*args)
        assert done.returncode == 0, done.stderr.decode()
        side = sb.split(records, test=test, val=val, seed=seed)["side"]
        for code, side_name in enumerate(sb.SIDES):
            file = out / f"{side_name}.txt"
            expected = file.read_text().splitlines() if file.exists() else []
            assert [r for r, s in zip(records, side) if s == code] == expected, (name, side_name)
        # No class on two sides: every class's records share a side.
        group = sb.classes(records)["group"]
        for g in np.unique(group):
            assert len(np.unique(side[group == g])) == 1
    got = sb.split([HARD, CLASH, "x"], test=0.5)
    assert got["side"].tolist()[1:] == [-1, -1]
    assert got["status"].tolist() == [0, Status.CLASHING_GIVENS, Status.MALFORMED]
    with pytest.raises(ValueError, match="add up to at most 1"):
        sb.split([HARD], test=0.7, val=0.4)


def test_split_strata_are_the_cli_stratify(cli, tmp_path):
    rows = [line.split(",") for line in (DATA / "kaggle.csv").read_text().splitlines()[1:]]
    puzzles = [r[0] for r in rows]
    ratings = [str(sb.rate([p])["score"][0] % 3) for p in puzzles]
    path = tmp_path / "rated.csv"
    path.write_text("quizzes,rating\n" + "".join(f"{p},{r}\n" for p, r in zip(puzzles, ratings)))
    out = tmp_path / "sets"
    done = cli("split", path, "--test", "0.4", "--seed", "2", "--stratify", "rating", "--out-dir", out)
    assert done.returncode == 0, done.stderr.decode()
    side = sb.split(puzzles, test=0.4, seed=2, strata=ratings)["side"]
    for code, name in enumerate(sb.SIDES):
        file = out / f"{name}.csv"
        expected = file.read_text().splitlines()[1:] if file.exists() else []
        got = [f"{p},{r}" for p, r, s in zip(puzzles, ratings, side) if s == code]
        assert got == expected, name
    with pytest.raises(ValueError, match="strata holds 1 values for 2 puzzles"):
        sb.split([HARD, HARD], test=0.5, strata=["a"])


@pytest.mark.parametrize("copies,keep", [(3, False), (2, True)])
def test_shuffle_copies_are_the_cli_copies_of_a_table(cli, tmp_path, copies, keep):
    """The same bytes as `shuffle --copies` on a Parquet table of the same rows (a table's record position is
    its row number; a line file's is its byte offset, which gives other copies)."""
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    path = tmp_path / "pairs.parquet"
    pq.write_table(pa.table({"puzzle": PUZZLES, "solution": ANSWERS}), path)
    out = tmp_path / "copies.parquet"
    args = ["shuffle", path, "--copies", copies, "--seed", "11", "-o", out] + (["--keep-original"] if keep else [])
    done = cli(*args)
    assert done.returncode == 0, done.stderr.decode()
    table = pq.read_table(out)
    k = copies + keep
    p, s, group = sb.shuffle(PUZZLES, ANSWERS, copies=copies, seed=11, keep_original=keep)
    assert p.shape == s.shape == (100 * k, 81) and group.dtype == np.int64
    assert sb.to_strings(p, "0") == table.column("puzzle").to_pylist()
    assert sb.to_strings(s, "0") == table.column("solution").to_pylist()
    assert group.tolist() == table.column("group").to_pylist() == np.repeat(np.arange(100), k).tolist()
    check_solutions(p, s)
    if keep:
        assert (p[::k] == to_cells(PUZZLES)).all()
    # Every copy is in its original's class; the same copies whatever the input kind or thread count.
    assert (sb.classes(p)["group"] == group).all()
    p2, none, _ = sb.shuffle(to_cells(PUZZLES), copies=copies, seed=11, keep_original=keep, threads=1)
    assert none is None and (p2 == p).all()


def test_shuffle_refuses_an_unreadable_puzzle_by_its_index():
    with pytest.raises(ValueError, match=r"puzzles\[1\] cannot be read"):
        sb.shuffle([HARD, "12"], copies=2)
    with pytest.raises(ValueError, match=r"solutions\[0\] cannot be read"):
        sb.shuffle([HARD], ["x"])
    with pytest.raises(ValueError, match="copies must be at least 1"):
        sb.shuffle([HARD], copies=0)


def test_check_gives_the_cli_verdicts(cli, tmp_path):
    wrong = ANSWERS[1][1] + ANSWERS[1][0] + ANSWERS[1][2:]
    changes = list(ANSWERS[3])
    given = next(i for i, c in enumerate(PUZZLES[3]) if c not in ".0")
    free = next(i for i, c in enumerate(PUZZLES[3]) if c in ".0" and i // 9 == given // 9)
    changes[given], changes[free] = changes[free], changes[given]
    solutions = [ANSWERS[0], wrong, ANSWERS[2][:80] + ".", "".join(changes), ANSWERS[4], ANSWERS[5]]
    puzzles = PUZZLES[:5] + [CLASH]
    path = write_lines(tmp_path / "pairs.txt", [f"{p} {s}" for p, s in zip(puzzles, solutions)])
    done = cli("check", "--json", path)
    expected = [json.loads(line) for line in done.stdout.decode().splitlines()]
    got = sb.check(puzzles, solutions)
    kinds = {int(s): s.name.lower() for s in Status}
    kinds[0] = "ok"
    assert [kinds[int(c)] for c in got["status"]] == [e["status"] for e in expected]
    assert got["error"] == [e.get("error") for e in expected]
    # A clashing puzzle with a full board: the claim changes a given (the CLI checks the claim first).
    assert got["status"].tolist() == [0, 5, 5, 5, 0, 5]
    # Arrays give the same verdicts; with unique=True a puzzle with several solutions fails.
    again = sb.check(to_cells(puzzles), to_cells([s.replace(".", "0") for s in solutions]))
    assert again["status"].tolist() == got["status"].tolist()
    several = puzzle_lines(DATA / "several_solutions.txt")[0]
    one = sb.solve([several])
    assert sb.check([several], one)["status"].tolist() == [0]
    assert sb.check([several], one, unique=True)["status"].tolist() == [Status.SEVERAL_SOLUTIONS]
    with pytest.raises(ValueError, match="solutions holds 1 boards for 2 puzzles"):
        sb.check([HARD, HARD], [ANSWERS[0]])


def test_check_of_the_shared_sets_is_the_cli_check(cli, samples, tmp_path):
    for name, puzzles in samples.items():
        solutions = sb.solve(puzzles)
        assert (sb.check(puzzles, solutions)["status"] == 0).all(), name
        # Each puzzle with the next one's solution: mostly wrong (17-clue puzzles may share a grid).
        shifted = solutions[1:] + solutions[:1]
        path = write_lines(tmp_path / f"{name}.txt", [f"{p} {s}" for p, s in zip(puzzles, shifted)])
        expected = [json.loads(line) for line in cli("check", "--json", path).stdout.decode().splitlines()]
        got = sb.check(puzzles, shifted)
        assert (got["status"] == Status.WRONG_SOLUTION).sum() > len(puzzles) // 2
        assert [e["status"] == "ok" for e in expected] == (got["status"] == 0).tolist(), name
        assert got["error"] == [e.get("error") for e in expected], name


def se_expected(cli, path, *flags):
    return [json.loads(line) for line in lines_of(cli, "rate", "--scale", "se", "--json", *flags, path)]


def test_rate_on_se_scale_is_the_cli_rating(cli, tmp_path):
    puzzles = [line.split()[0] for line in puzzle_lines(DATA / "se_sample.txt")[:60]]
    try:
        puzzles += shared("puzzles2_17_clue", 100)
    except pytest.skip.Exception:
        pass
    path = write_lines(tmp_path / "se.txt", puzzles)
    for flags, max_se in (([], None), (["--max-se", "3.0"], 3.0)):
        expected = se_expected(cli, path, *flags)
        got = sb.rate(puzzles, scale="se", max_se=max_se)
        assert (got["status"] == 0).all()
        for i, e in enumerate(expected):
            for key in ("er", "ep", "ed"):
                value = got[key][i]
                assert (e[key] is None and np.isnan(value)) or e[key] == pytest.approx(value), (i, key)
            assert e["hardest"] == got["hardest"][i], i
            if e["er"] is None:
                assert e["above"] == pytest.approx(got["above"][i])
            else:
                assert np.isnan(got["above"][i])
    bad = sb.rate([HARD, CLASH, "x"], scale="se")
    assert bad["status"].tolist() == [0, Status.CLASHING_GIVENS, Status.MALFORMED]
    assert np.isnan(bad["er"][1:]).all() and bad["hardest"][1] is None
    with pytest.raises(ValueError, match="max_se must be"):
        sb.rate([HARD], scale="se", max_se=0.5)
    with pytest.raises(ValueError, match="scale must be"):
        sb.rate([HARD], scale="hard")


@pytest.mark.parametrize("flags,kw", [([], {}), (["--scale", "se"], {"scale": "se"})])
def test_rate_technique_counts_are_the_cli_counts(cli, tmp_path, flags, kw):
    puzzles = PUZZLES[:20] + [CLASH, "x" * 81]
    path = write_lines(tmp_path / "few.txt", puzzles)
    done = cli("rate", "--json", *flags, path)
    assert done.returncode == 1, done.stderr.decode()  # the two bad records
    expected = [json.loads(line) for line in done.stdout.decode().splitlines()]
    assert len(expected) == len(puzzles)
    got = sb.rate(puzzles, techniques=True, **kw)
    assert len(got["techniques"]) == len(puzzles)
    for i, e in enumerate(expected):
        if e["status"] == "rated":
            # The same counts in the same order.
            assert list(got["techniques"][i].items()) == list(e["techniques"].items()), i
            assert sum(got["techniques"][i].values()) > 0
        else:
            assert got["techniques"][i] is None, i
    assert got["status"].tolist()[-2:] == [Status.CLASHING_GIVENS, Status.MALFORMED]


@pytest.mark.parametrize("flags,kw", [([], {}), (["--scale", "se"], {"scale": "se"})])
def test_explain_is_the_cli_explain_json(cli, tmp_path, flags, kw):
    puzzles = PUZZLES[:5] + [CLASH, puzzle_lines(DATA / "several_solutions.txt")[0], "x" * 81]
    path = write_lines(tmp_path / "few.txt", puzzles)
    done = cli("explain", "--json", *flags, path)
    expected = [json.loads(line) for line in done.stdout.decode().splitlines()]
    assert len(expected) == len(puzzles)
    for p, e in zip(puzzles, expected):
        got = sb.explain(p, **kw)
        del e["line"]
        assert got == e
    got = sb.explain(PUZZLES[0], **kw)
    assert got["status"] == "explained" and set(got["steps"][0]) >= {"technique", "rating", "place", "eliminate"}
    with pytest.raises(TypeError):
        sb.explain(PUZZLES[:1])


def test_arrow_arrays_are_taken_by_to_array_and_the_tools():
    pa = pytest.importorskip("pyarrow")
    column = pa.chunked_array([PUZZLES[:40], PUZZLES[40:] + [None]])
    grids = sb.to_array(column)
    assert grids.shape == (101, 81) and (grids[:100] == to_cells(PUZZLES)).all() and (grids[100] == 255).all()
    assert sb.rate(column)["status"].tolist() == [0] * 100 + [Status.MALFORMED]
    assert (sb.classes(column)["group"][:100] == sb.classes(PUZZLES)["group"]).all()


@pytest.mark.skipif(threading.current_thread() is not threading.main_thread(), reason="signals need the main thread")
def test_ctrl_c_stops_the_dataset_tools(ctrl_c_raises):
    """Each long call stops within the bound of the other calls (test_api.py) once Ctrl-C comes; the SE rating in
    progress stops at its next step."""
    many = np.tile(to_cells(PUZZLES), (20_000, 1))  # 2,000,000 puzzles
    hardest = to_cells([line.split()[0] for line in puzzle_lines(DATA / "se_sample_hard.txt")])
    for call, bound in (
        (lambda: sb.canon(many, threads=1), STOP_BOUND),
        (lambda: sb.classes(many, threads=1), STOP_BOUND),
        (lambda: sb.split(many, test=0.1, threads=1), STOP_BOUND),
        (lambda: sb.shuffle(many, copies=4, threads=1), STOP_BOUND),
        (lambda: sb.check(many, many, threads=1), STOP_BOUND),
        (lambda: sb.rate(np.tile(hardest, (50, 1)), scale="se", threads=1), 1.0),
    ):
        timer, sent = interrupt_after(0.2)
        with pytest.raises(KeyboardInterrupt):
            call()
        took = time.perf_counter() - sent["at"]
        timer.join()
        assert took < bound, took
