"""The Python API against shipped answers, the rules, and the `sudoku` binary's bytes."""

import json
import os
import threading
import time

import numpy as np
import pytest

import sudoku_batch as sb
from sudoku_batch import Status

from conftest import DATA, check_solutions, puzzle_lines, to_cells

PUZZLES = puzzle_lines(DATA / "puzzles.txt")
ANSWERS = puzzle_lines(DATA / "puzzles.solutions.txt")
NO_SOLUTION = puzzle_lines(DATA / "no_solution.txt")
SEVERAL = puzzle_lines(DATA / "several_solutions.txt")
HARD = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
# The puzzle of data/puzzles.txt that takes the solver most guesses (400): long runs that Ctrl-C must cut short.
SLOW = "...4.67....7..........7..152.........9.2....8..4.6.1..38.....9....6.3.....6.1.5.."
CLASH = "11" + HARD[2:]


def test_status_names_match_the_library_codes():
    native = sb._native.STATUS_CODES
    for s in Status:
        assert native[s.name] == s.value
    assert len(Status) == len(native) == 6


def test_solve_strings_give_the_shipped_answers():
    assert len(PUZZLES) == len(ANSWERS) == 100
    assert sb.solve(PUZZLES) == ANSWERS
    assert sb.solve(PUZZLES, unique=True, threads=1) == ANSWERS
    # Zeros for blanks, surrounding whitespace, a tuple and a numpy string array are read too.
    assert sb.solve((" " + HARD.replace(".", "0") + "\r\n",)) == sb.solve([HARD])
    assert sb.solve(np.array(PUZZLES[:5])) == ANSWERS[:5]


def test_solve_strings_fail_with_none():
    got = sb.solve([HARD, CLASH, NO_SOLUTION[0], SEVERAL[0], HARD[:80], HARD + "1", "x" * 81], unique=True)
    assert got[0] is not None and got[1:] == [None] * 6


def test_solve_array_checks_against_rules_givens_and_answers():
    grids = to_cells(PUZZLES)
    solutions, status = sb.solve_array(grids)
    assert solutions.dtype == np.uint8 and solutions.shape == (100, 81)
    assert status.dtype == np.int8 and status.shape == (100,)
    assert (status == Status.SOLVED).all()
    check_solutions(grids, solutions)
    assert (solutions == to_cells(ANSWERS)).all()


def test_every_status_code():
    malformed = to_cells([HARD])
    malformed[0, 40] = 10
    grids = np.concatenate([to_cells([HARD, CLASH, NO_SOLUTION[0], SEVERAL[0]]), malformed])
    solutions, status = sb.solve_array(grids, unique=True)
    assert status.tolist() == [
        Status.SOLVED,
        Status.CLASHING_GIVENS,
        Status.NO_SOLUTION,
        Status.SEVERAL_SOLUTIONS,
        Status.MALFORMED,
    ]
    assert (solutions[1:] == 0).all()
    check_solutions(grids[:1], solutions[:1])
    # Without unique=True a puzzle with several solutions gets one of them.
    solutions, status = sb.solve_array(grids[3:4])
    assert status.tolist() == [Status.SOLVED]
    check_solutions(grids[3:4], solutions)
    # Every no-solution and several-solution puzzle shipped.
    _, status = sb.solve_array(to_cells(NO_SOLUTION))
    assert (status == Status.NO_SOLUTION).all()
    _, status = sb.solve_array(to_cells(SEVERAL), unique=True)
    assert (status == Status.SEVERAL_SOLUTIONS).all()


def test_non_contiguous_input():
    grids = to_cells(PUZZLES)
    expect, _ = sb.solve_array(grids)
    wide = np.zeros((100, 100), dtype=np.uint8)
    wide[:, 7:88] = grids
    views = {
        "fortran": (np.asfortranarray(grids), expect),
        "every other row": (grids[::2], expect[::2]),
        "reversed": (grids[::-1], expect[::-1]),
        "columns of a wider array": (wide[:, 7:88], expect),
        "read-only": (np.frombuffer(grids.tobytes(), dtype=np.uint8).reshape(100, 81), expect),
    }
    for name, (view, want) in views.items():
        got, status = sb.solve_array(view)
        assert (status == 0).all(), name
        assert (got == want).all(), name
        assert got.flags.c_contiguous


@pytest.mark.parametrize(
    "bad",
    [
        np.zeros((3, 81), dtype=np.int64),
        np.zeros((3, 81), dtype=np.int8),
        np.zeros((3, 81), dtype=np.float32),
        np.zeros((3, 80), dtype=np.uint8),
        np.zeros(81, dtype=np.uint8),
        np.zeros((3, 9, 9), dtype=np.uint8),
    ],
)
def test_bad_dtype_or_shape_is_a_value_error(bad):
    with pytest.raises(ValueError, match=r"must be a numpy uint8 array of shape \(N, 81\), got dtype"):
        sb.solve_array(bad)


def test_not_an_array():
    with pytest.raises(TypeError, match="must be a numpy uint8 array"):
        sb.solve_array([[0] * 81])
    with pytest.raises(TypeError, match="not one string"):
        sb.solve(HARD)
    with pytest.raises(TypeError, match=r"puzzles\[1\] must be a string"):
        sb.solve([HARD, 5])


def test_empty_batches():
    s, st = sb.solve_array(np.zeros((0, 81), dtype=np.uint8))
    assert s.shape == (0, 81) and st.shape == (0,)
    assert sb.solve([]) == []


@pytest.mark.parametrize("threads", [0, -1, 1025])
def test_bad_thread_counts(threads):
    with pytest.raises(ValueError, match=f"the thread count must be a whole number from 1 to 1024, not {threads}"):
        sb.solve([HARD], threads=threads)


def test_thread_counts_give_the_same_results():
    grids = np.tile(to_cells(PUZZLES), (7, 1))
    one = sb.solve_array(grids, threads=1)
    for threads in (None, 2, 3):
        other = sb.solve_array(grids, threads=threads)
        assert (other[0] == one[0]).all() and (other[1] == one[1]).all()
    assert sb.solve(PUZZLES, threads=1) == sb.solve(PUZZLES, threads=None)


def test_count_solutions():
    counts = sb.count_solutions(to_cells([HARD, CLASH, NO_SOLUTION[0], SEVERAL[0]]), limit=2)
    assert counts.dtype == np.int64
    assert counts.tolist() == [1, -sb.Status.CLASHING_GIVENS, 0, 2]
    assert sb.count_solutions(["." * 81, HARD, "x"], limit=10) == [10, 1, -sb.Status.MALFORMED]
    assert sb.count_solutions(SEVERAL, limit=1) == [1] * len(SEVERAL)
    assert all(c >= 2 for c in sb.count_solutions(SEVERAL))


def test_rate_agrees_with_the_cli(cli):
    out = cli("rate", DATA / "puzzles.txt", "-q").stdout.decode().splitlines()
    fields = [line.split() for line in out]
    r = sb.rate(to_cells(PUZZLES))
    assert set(r) == {"level", "score", "guesses", "hardest", "status"}
    assert (r["status"] == 0).all()
    assert [sb.LEVELS[i] for i in r["level"]] == [f[1] for f in fields]
    assert r["score"].tolist() == [int(f[2]) for f in fields]
    assert r["guesses"].tolist() == [int(f[3]) for f in fields]
    assert [sb.TECHNIQUES[i] if i >= 0 else "-" for i in r["hardest"]] == [f[4] for f in fields]
    # Strings give the same; failures are -1 with a status.
    r2 = sb.rate(PUZZLES[:3] + [CLASH, SEVERAL[0]], threads=1)
    assert r2["status"].tolist() == [0, 0, 0, Status.CLASHING_GIVENS, Status.SEVERAL_SOLUTIONS]
    assert r2["level"].tolist()[3:] == [-1, -1] and (r2["score"][:3] == r["score"][:3]).all()
    # names=True: the CLI's (and Spark's) names, None where there is none.
    named = sb.rate(PUZZLES[:3] + [CLASH], threads=1, names=True)
    assert named["level"].tolist() == [f[1] for f in fields[:3]] + [None]
    assert [h or "-" for h in named["hardest"].tolist()[:3]] == [f[4] for f in fields[:3]]
    assert named["hardest"][3] is None and named["score"][3] == -1


@pytest.mark.parametrize(
    "options,flags",
    [
        ({}, []),
        ({"seed": 7, "first": 3}, ["--seed", "7", "--first", "3"]),
        ({"random": True, "seed": 2}, ["--random", "--seed", "2"]),
        ({"random": True, "first": 9, "threads": 1}, ["--random", "--first", "9", "-j", "1"]),
    ],
)
def test_generate_boards_are_the_cli_boards(cli, options, flags):
    n = 5000
    boards = sb.generate_boards(n, **options)
    assert boards.shape == (n, 81) and boards.dtype == np.uint8
    check_solutions(np.zeros_like(boards), boards)
    text = cli("generate", n, "--format", "line", "-q", *flags).stdout
    expect = (boards + ord("0")).astype(np.uint8)
    expect = np.concatenate([expect, np.full((n, 1), ord("\n"), np.uint8)], axis=1)
    assert expect.tobytes() == text


def test_generate_boards_errors():
    with pytest.raises(ValueError, match="the first digit must be 1 to 9, not 0"):
        sb.generate_boards(3, first=0)
    with pytest.raises(ValueError, match="cannot generate 135444234241 distinct boards.*random=True"):
        sb.generate_boards(135444234241, first=1)


def test_generate_puzzles_are_the_cli_puzzles(cli):
    puzzles, solutions = sb.generate_puzzles(12, seed=4, clues=30, symmetry="rotate180")
    assert ((puzzles > 0).sum(axis=1) == 30).all()
    check_solutions(puzzles, solutions)
    assert sb.count_solutions(puzzles).tolist() == [1] * 12
    text = cli("generate", "--puzzles", 12, "--seed", 4, "--clues", 30, "--symmetry", "rotate180",
               "--format", "line", "-q").stdout.decode().splitlines()
    assert sb.to_strings(puzzles) == text
    minimal, _ = sb.generate_puzzles(4, seed=1, threads=1)
    assert sb.to_strings(minimal) == cli("generate", "--puzzles", 4, "--seed", 1, "--format", "line", "-q").stdout.decode().splitlines()
    with pytest.raises(ValueError, match="clues 5: a puzzle with one solution has 17 to 81 clues"):
        sb.generate_puzzles(1, clues=5)
    with pytest.raises(ValueError, match="unknown level"):
        sb.generate_puzzles(1, difficulty="nightmare")
    with pytest.raises(ValueError, match="unknown symmetry"):
        sb.generate_puzzles(1, symmetry="spiral")


def test_generate_puzzles_in_se_windows_are_the_cli_puzzles(cli):
    puzzles, solutions = sb.generate_puzzles(4, seed=3, er=(4.0, 6.2), ed=(1, 2.3), threads=2)
    check_solutions(puzzles, solutions)
    assert sb.count_solutions(puzzles).tolist() == [1] * 4
    lines = sb.to_strings(puzzles)
    text = cli("generate", "--puzzles", 4, "--seed", 3, "--er", "4.0..6.2", "--ed", "1..2.3", "--format", "line",
               "-j", 1, "-q").stdout.decode().splitlines()
    assert lines == text
    # Re-rated by the SE rater: every puzzle inside both windows.
    rated = cli("rate", "--scale", "se", "-q", "-", input="\n".join(lines).encode()).stdout.decode().splitlines()
    for line in rated:
        _, er, _, ed, _ = line.split()
        assert 4.0 <= float(er) <= 6.2 and 1.0 <= float(ed) <= 2.3, line
    # A pattern of givens: clues only on its x cells (a 41-cell checkerboard; docs/ratings.md says why not fewer).
    mask = "".join("x" if (i // 9 + i % 9) % 2 == 0 else "." for i in range(81))
    on_pattern, _ = sb.generate_puzzles(2, seed=5, pattern=mask)
    assert sb.count_solutions(on_pattern).tolist() == [1] * 2
    for p in sb.to_strings(on_pattern):
        assert all(m == "x" for c, m in zip(p, mask) if c != "."), p
    with pytest.raises(ValueError, match=r"er=\(8.0, 7.0\): MIN 8.0 is above MAX 7.0"):
        sb.generate_puzzles(1, er=(8.0, 7.0))
    with pytest.raises(ValueError, match=r"ep=\(7.25, 8.0\): expected MIN..MAX"):
        sb.generate_puzzles(1, ep=(7.25, 8.0))
    with pytest.raises(ValueError, match="outside SE's scale"):
        sb.generate_puzzles(1, ed=(0.5, 3.0))
    with pytest.raises(ValueError, match="pattern: a pattern has 81 cells"):
        sb.generate_puzzles(1, pattern="x.x")


@pytest.mark.parametrize("name", ["puzzles.txt", "bad.txt", "grid.txt", "kaggle.csv", "no_solution.txt"])
@pytest.mark.parametrize("unique", [False, True])
@pytest.mark.parametrize("keep_lines", [False, True])
def test_solve_file_writes_the_cli_bytes(cli, tmp_path, name, unique, keep_lines):
    flags = (["--unique"] if unique else []) + (["--keep-lines"] if keep_lines else [])
    ours, theirs = tmp_path / "ours", tmp_path / "theirs"
    if keep_lines and name == "grid.txt":
        with pytest.raises(ValueError, match="not 9-line grids"):
            sb.solve_file(DATA / name, ours, keep_lines=True)
        return
    summary = sb.solve_file(DATA / name, ours, unique=unique, max_errors=None, keep_lines=keep_lines)
    run = cli("solve", DATA / name, "-o", theirs, "--stats", "json", *flags)
    assert ours.read_bytes() == theirs.read_bytes()
    stderr = run.stderr.decode().splitlines()
    cli_summary = json.loads(stderr[-1])
    for key in ("records", "solved", "failed", "failures", "inputs", "bytes_in", "bytes_out", "stopped"):
        assert summary[key] == cli_summary[key], key
    assert [f"sudoku: {m}" for m in summary["errors"]] == stderr[:-1]
    assert run.returncode == (1 if summary["failed"] else 0)


def test_solve_file_options_and_errors(cli, tmp_path):
    out = tmp_path / "out"
    s = sb.solve_file([DATA / "bad.txt", DATA / "puzzles.txt"], out, max_errors=1, threads=1)
    assert s["inputs"] == 2 and s["failed"] == 4 and len(s["errors"]) == 1 and s["errors_hidden"] == 3
    stopped = tmp_path / "stopped"
    s = sb.solve_file(DATA / "bad.txt", stopped, fail_fast=True, mmap=False)
    assert s["stopped"] and s["records"] == 2 and not stopped.exists()
    missing = tmp_path / "missing.txt"
    with pytest.raises(OSError) as e:
        sb.solve_file(missing, out)
    assert f"sudoku: {e.value}" == cli("solve", missing, "-o", out).stderr.decode().strip()
    with pytest.raises(ValueError, match="invalid format 'xml'"):
        sb.solve_file(DATA / "puzzles.txt", out, format="xml")
    # The inputs follow the command line's rule: a puzzle's text that names no file is that puzzle.
    s = sb.solve_file(HARD, out, format="line")
    assert s["records"] == 1 and s["solved"] == 1
    assert out.read_bytes() == cli("solve", HARD).stdout
    with pytest.raises(ValueError, match="not 0"):
        sb.solve_file(DATA / "puzzles.txt", out, threads=0)
    with pytest.raises(OSError):
        sb.solve_file(DATA / "puzzles.txt", tmp_path / "no" / "such" / "dir" / "out")


def test_to_array_and_to_strings():
    cells = sb.to_array(PUZZLES + [HARD[:80], HARD + "1", "x" + HARD[1:]])
    assert (cells[:100] == to_cells(PUZZLES)).all()
    _, status = sb.solve_array(cells)
    assert status[100:].tolist() == [Status.MALFORMED] * 3
    assert sb.to_strings(to_cells(PUZZLES)) == PUZZLES


def test_the_gil_is_released_during_a_batch():
    grids = np.tile(to_cells(PUZZLES), (400, 1))
    span = {}

    def work():
        span["start"] = time.perf_counter()
        sb.solve_array(grids, threads=1)
        span["end"] = time.perf_counter()

    worker = threading.Thread(target=work)
    ticks = []
    worker.start()
    while worker.is_alive():
        ticks.append(time.perf_counter())
    worker.join()
    inside = [t for t in ticks if span["start"] < t < span["end"]]
    took = span["end"] - span["start"]
    assert took > 0.05, "the batch is too short to tell"
    # With the GIL held for the whole call this thread could not tick at all inside it.
    assert len(inside) > 1000, (len(inside), took)
    assert inside[-1] - inside[0] > 0.8 * took


def rss():
    """Resident memory of this process now, in bytes (Linux)."""
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


@pytest.mark.skipif(not os.path.exists("/proc/self/statm"), reason="needs /proc to read resident memory")
def test_a_million_puzzles_in_flat_memory():
    n = 1_000_000
    grids = sb.generate_boards(n, seed=3)
    rng = np.random.default_rng(0)
    for start in range(0, n, 50_000):
        part = grids[start : start + 50_000]
        part[rng.random(part.shape) < 0.45] = 0
    before = rss()
    peak = [before]
    done = threading.Event()

    def sample():
        while not done.is_set():
            peak[0] = max(peak[0], rss())
            time.sleep(0.002)

    sampler = threading.Thread(target=sample)
    sampler.start()
    solutions, status = sb.solve_array(grids)
    done.set()
    sampler.join()
    assert (status == 0).all()
    check_solutions(grids, solutions)
    # Resident memory grows by the two result arrays (81 MB + 1 MB) and a constant, never by a copy of the input
    # or anything per puzzle. (The sampler runs during the call because the GIL is released.)
    grown = peak[0] - before
    assert grown < n * 82 + 32 * 2**20, grown
    assert peak[0] > before + n * 40, "the sampler saw the results being written"


def test_requests_that_cannot_fit_raise_before_allocating():
    for call in (lambda: sb.generate_boards(10**12), lambda: sb.generate_puzzles(10**12)):
        with pytest.raises(MemoryError):
            call()
    # The interpreter is still here and works.
    assert sb.generate_boards(2).shape == (2, 81)


def test_count_solutions_refuses_limit_0_like_the_cli():
    with pytest.raises(ValueError, match="limit must be at least 1"):
        sb.count_solutions([HARD], limit=0)


def test_misleading_inputs_get_clear_messages():
    with pytest.raises(TypeError, match="not bytes"):
        sb.solve(HARD.encode())
    with pytest.raises(ValueError, match=r"puzzles\[1\] is not valid text"):
        sb.solve([HARD, "\ud800" * 81])
    with pytest.raises(ValueError, match=r"grids\[0, 3\] is 10"):
        sb.to_strings(np.array([[0, 1, 2, 10] + [0] * 77], dtype=np.uint8))


# The target is 100 ms (unloaded, the calls stop in a few tens of ms); the bound leaves room for a busy CI machine.
STOP_BOUND = 0.3


@pytest.fixture
def ctrl_c_raises():
    """Python's own SIGINT handler for the test, as in an interactive session: a process started in the background
    by a non-interactive shell (`cmd &`, nohup) inherits SIGINT ignored, and Python then never raises
    KeyboardInterrupt."""
    import signal

    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, before)


def interrupt_after(seconds):
    """Sends SIGINT to this process after `seconds`, as Ctrl-C does; returns the time it was sent."""
    import signal

    sent = {}

    def fire():
        sent["at"] = time.perf_counter()
        os.kill(os.getpid(), signal.SIGINT)

    timer = threading.Timer(seconds, fire)
    timer.start()
    return timer, sent


@pytest.mark.skipif(threading.current_thread() is not threading.main_thread(), reason="signals need the main thread")
def test_ctrl_c_stops_a_long_count_soon(ctrl_c_raises):
    timer, sent = interrupt_after(0.2)
    with pytest.raises(KeyboardInterrupt):
        sb.count_solutions(["." * 81], limit=10**9)
    took = time.perf_counter() - sent["at"]
    timer.join()
    assert took < STOP_BOUND, took


@pytest.mark.skipif(threading.current_thread() is not threading.main_thread(), reason="signals need the main thread")
def test_ctrl_c_stops_solve_file_and_leaves_the_target_as_it_was(tmp_path, ctrl_c_raises):
    src = tmp_path / "many.txt"
    src.write_text((SLOW + "\n") * 200_000)
    out = tmp_path / "out.txt"
    out.write_text("keep me\n")
    timer, sent = interrupt_after(0.2)
    with pytest.raises(KeyboardInterrupt):
        sb.solve_file(src, out, threads=2)
    took = time.perf_counter() - sent["at"]
    timer.join()
    assert took < STOP_BOUND, took
    assert out.read_text() == "keep me\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["many.txt", "out.txt"]
    # Array calls and generation stop too. The puzzle being made is finished first: about a millisecond in a
    # release build, up to a few hundred in a debug one.
    for call, bound in (
        (lambda: sb.solve_array(np.tile(to_cells([SLOW]), (300_000, 1)), threads=1), STOP_BOUND),
        (lambda: sb.generate_puzzles(100_000, threads=1), 1.0),
        # A rare SE window: the rating in progress stops at its next step.
        (lambda: sb.generate_puzzles(100, er=(9.0, 9.9), threads=2), 1.0),
    ):
        timer, sent = interrupt_after(0.2)
        with pytest.raises(KeyboardInterrupt):
            call()
        took = time.perf_counter() - sent["at"]
        timer.join()
        assert took < bound, took
