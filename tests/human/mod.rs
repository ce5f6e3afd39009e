//! `explain`, `rate` and `generate-puzzles` end to end: exit codes, output records and their order, messages
//! with positions, reproducibility from the seed, and the properties of what comes out (checked with the
//! library's solver, not with the code that made it).

use std::path::Path;
use std::process::{Command, Output};

use sudoku_batch::human::{rate, Level};
use sudoku_batch::{count_solutions, solve_unique, Grid};

fn sudoku(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sudoku"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run sudoku")
}

/// `sudoku` with the words of `line` as arguments.
fn run(line: &str) -> Output {
    sudoku(&line.split_whitespace().collect::<Vec<_>>())
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("utf-8 output")
}

fn code(o: &Output) -> i32 {
    o.status.code().expect("exit code")
}

const HARD: &str =
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
/// From the forum's hardest list: the techniques stall at once.
const STALLS: &str =
    "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3";

#[test]
fn explain_names_every_step_and_ends_with_the_solution_and_rating() {
    let o = sudoku(&["explain", HARD]);
    assert_eq!(code(&o), 0, "{}", text(&o.stderr));
    let out = text(&o.stdout);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], format!("puzzle: {HARD}"));
    let steps: Vec<&str> = lines.iter().filter(|l| l.contains(". ")).copied().collect();
    assert!(steps.len() > 50);
    for (n, l) in steps.iter().enumerate() {
        let (num, what) = l.trim_start().split_once(". ").unwrap();
        assert_eq!(num.parse::<usize>().unwrap(), n + 1, "{l}");
        assert!(
            what.contains(" = ") || what.contains("<>"),
            "a step that places or eliminates nothing: {l}"
        );
    }
    let solved = lines[lines.len() - 2].strip_prefix("solved: ").unwrap();
    let solution: Grid = solved.parse().unwrap();
    assert!(solution.is_solution_of(&HARD.parse().unwrap()));
    assert!(lines[lines.len() - 1].starts_with("rating: "));
}

#[test]
fn explain_shows_candidates_and_guesses_with_levels() {
    let o = sudoku(&["explain", "--candidates", HARD]);
    assert_eq!(code(&o), 0);
    let out = text(&o.stdout);
    // One grid at the start and one after each step (13 lines each, ruled with +---).
    let grids = out.lines().filter(|l| l.starts_with("+-")).count() / 4;
    let steps = out.lines().filter(|l| l.contains(". ")).count();
    assert!(grids >= steps, "{grids} grids for {steps} steps");

    let o = sudoku(&["explain", STALLS]);
    assert_eq!(code(&o), 0);
    let out = text(&o.stdout);
    assert!(out.contains("no technique applies: guessing"));
    assert!(out.contains("guess (level 1): r"));
    assert!(out.contains("contradiction (level "));
    assert!(out.contains("backtrack to level "));
    // Lines under a guess are indented by their level.
    assert!(out
        .lines()
        .any(|l| l.starts_with("         guess (level 2)")));
}

#[test]
fn explain_reads_a_file_and_reports_bad_puzzles() {
    // The first puzzle of a file, in the 9-line notation.
    let o = sudoku(&["explain", "data/grid.txt"]);
    assert_eq!(code(&o), 0, "{}", text(&o.stderr));
    let first = std::fs::read_to_string("data/puzzles.txt").unwrap();
    let first = first.lines().find(|l| !l.starts_with('#')).unwrap();
    assert!(text(&o.stdout).starts_with(&format!("puzzle: {first}\n")));

    let o = sudoku(&["explain", "12x"]);
    assert_eq!(code(&o), 2);
    assert!(text(&o.stderr).starts_with("sudoku: <argument>: "));

    let several = std::fs::read_to_string("data/several_solutions.txt").unwrap();
    let several = several.lines().find(|l| !l.starts_with('#')).unwrap();
    let o = sudoku(&["explain", several]);
    assert_eq!(code(&o), 1);
    assert!(text(&o.stdout).contains("more than one solution"));
    assert_eq!(
        text(&o.stderr),
        "sudoku: <argument>: more than one solution\n"
    );

    let none = std::fs::read_to_string("data/no_solution.txt").unwrap();
    let none = none.lines().find(|l| !l.starts_with('#')).unwrap();
    let o = sudoku(&["explain", none]);
    assert_eq!(code(&o), 1);
    assert!(text(&o.stdout)
        .lines()
        .last()
        .unwrap()
        .starts_with("no solution: "));

    let clash = format!("11{}", ".".repeat(79));
    let o = sudoku(&["explain", &clash]);
    assert_eq!(code(&o), 1);
    assert!(text(&o.stderr).contains("clashing givens: row 1 has two 1s"));
}

/// Puzzle lines of a file, as `rate` echoes them (`.` for blanks).
fn puzzle_lines(path: &str) -> Vec<String> {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(path))
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.trim().replace('0', "."))
        .collect()
}

#[test]
fn rate_gives_one_line_per_puzzle_in_order_whatever_the_threads() {
    let o = sudoku(&["rate", "-j", "2", "data/puzzles.txt"]);
    assert_eq!(code(&o), 0, "{}", text(&o.stderr));
    let out = text(&o.stdout);
    let puzzles = puzzle_lines("data/puzzles.txt");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), puzzles.len());
    for (line, puzzle) in lines.iter().zip(&puzzles) {
        let f: Vec<&str> = line.split(' ').collect();
        assert_eq!(f.len(), 5, "{line}");
        assert_eq!(f[0], puzzle);
        let level: Level = f[1].parse().unwrap();
        let guesses: u32 = f[3].parse().unwrap();
        let score: u32 = f[2].parse().unwrap();
        assert!(score > 0);
        if guesses > 0 {
            assert_eq!(level, Level::Expert, "{line}");
        }
        // The same rating as the library gives.
        let r = rate(&puzzle.parse().unwrap()).unwrap();
        assert_eq!(r.to_string(), f[1..].join(" "));
    }
    let err = text(&o.stderr);
    assert!(
        err.starts_with("rate: 100 records, 100 rated, 0 failed, "),
        "{err}"
    );
    for level in ["simple", "easy", "intermediate", "expert"] {
        assert!(err.lines().any(|l| l.starts_with(level)), "{err}");
    }
    let one = sudoku(&["rate", "-j", "1", "data/puzzles.txt"]);
    assert_eq!(one.stdout, o.stdout);
}

#[test]
fn rate_marks_bad_records_in_place_and_goes_on() {
    let o = sudoku(&[
        "rate",
        "data/bad.txt",
        "nonexistent.txt",
        "data/puzzles.txt",
    ]);
    assert_eq!(code(&o), 2, "an unreadable input is an I/O error");
    let out = text(&o.stdout);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 7 + 100);
    let first = puzzle_lines("data/bad.txt")[0].clone();
    assert!(lines[0].starts_with(&format!("{first} ")), "{}", lines[0]);
    assert_eq!(lines[0].split(' ').count(), 5);
    assert_eq!(
        &lines[7..],
        puzzle_lines("data/puzzles.txt")
            .iter()
            .zip(&lines[7..])
            .map(|(p, l)| {
                assert!(l.starts_with(p.as_str()));
                *l
            })
            .collect::<Vec<_>>()
            .as_slice()
    );
    assert_eq!(
        lines[1],
        "error: cell 17 (row 2, col 8): invalid character 'x'"
    );
    assert_eq!(lines[2], "error: expected 81 cells, found 80");
    assert_eq!(
        lines[3],
        "error: clashing givens: row 4 has two 7s (r4c2, r4c6)"
    );
    assert_eq!(lines[5], "error: no solution");
    let err = text(&o.stderr);
    assert!(err.contains("sudoku: data/bad.txt:2: cell 17 (row 2, col 8): invalid character 'x'\n"));
    assert!(err.contains("sudoku: data/bad.txt:6: no solution\n"));
    assert!(err.contains("sudoku: nonexistent.txt: "));
    assert!(
        err.contains("rate: 107 records, 103 rated, 4 failed"),
        "{err}"
    );

    let o = sudoku(&["rate", "data/several_solutions.txt"]);
    assert_eq!(code(&o), 1);
    assert!(text(&o.stdout)
        .lines()
        .all(|l| l == "error: more than one solution"));
}

fn grids(out: &[u8]) -> Vec<Grid> {
    text(out).lines().map(|l| l.parse().unwrap()).collect()
}

#[test]
fn generated_puzzles_are_unique_minimal_and_reproducible() {
    let a = run("generate-puzzles --puzzles 40 --seed 5 -j 1");
    assert_eq!(code(&a), 0, "{}", text(&a.stderr));
    assert!(text(&a.stderr).starts_with("generate-puzzles: seed 5, 40 puzzles"));
    let b = run("generate-puzzles --puzzles 40 --seed 5 -j 2");
    assert_eq!(a.stdout, b.stdout, "the thread count changed the output");
    let c = run("generate-puzzles --puzzles 40 --seed 6");
    assert_ne!(a.stdout, c.stdout);
    let puzzles = grids(&a.stdout);
    assert_eq!(puzzles.len(), 40);
    for p in puzzles.iter().take(8) {
        assert!(solve_unique(p).is_ok(), "{p}");
        for cell in (0..81).filter(|&c| p.get(c) != 0) {
            let mut fewer = *p;
            fewer.set(cell, 0);
            assert_eq!(
                count_solutions(&fewer, 2).unwrap().solutions,
                2,
                "{p} is not minimal"
            );
        }
    }
    // A file output holds the same bytes.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("p.txt");
    let f = sudoku(&[
        "generate-puzzles",
        "--puzzles",
        "40",
        "--seed",
        "5",
        "-o",
        path.to_str().unwrap(),
    ]);
    assert_eq!(code(&f), 0);
    assert!(f.stdout.is_empty());
    assert_eq!(std::fs::read(&path).unwrap(), a.stdout);
}

#[test]
fn generated_puzzles_meet_clues_symmetry_and_difficulty() {
    let o = run("generate-puzzles --puzzles 6 --clues 30 --symmetry rotate180 --seed 1");
    assert_eq!(code(&o), 0, "{}", text(&o.stderr));
    for p in grids(&o.stdout) {
        assert_eq!(p.clue_count(), 30);
        assert!(solve_unique(&p).is_ok());
        for cell in 0..81 {
            assert_eq!(
                p.get(cell) == 0,
                p.get(80 - cell) == 0,
                "{p} is not symmetric"
            );
        }
    }
    let o = run("generate-puzzles --puzzles 6 --difficulty intermediate --seed 1");
    assert_eq!(code(&o), 0);
    for p in grids(&o.stdout) {
        assert_eq!(rate(&p).unwrap().level, Level::Intermediate);
    }
}

#[test]
fn generate_puzzles_refuses_goals_it_cannot_meet() {
    let o = run("generate-puzzles --puzzles 1 --clues 16");
    assert_eq!(code(&o), 2);
    assert!(text(&o.stderr).contains("--clues 16: a puzzle with one solution has 17 to 81 clues"));
    let o = run("generate-puzzles --puzzles 1 --clues 30 --symmetry rotate90");
    assert_eq!(code(&o), 2);
    assert!(text(&o.stderr).contains("cannot be made with --symmetry rotate90"));
    let o = run("generate-puzzles --puzzles 1 --clues 30 --difficulty easy");
    assert_eq!(code(&o), 2);
    let o = run("generate-puzzles --puzzles 1 --difficulty hard");
    assert_eq!(code(&o), 2);
    assert!(text(&o.stderr).contains("simple, easy, intermediate, expert"));
}
