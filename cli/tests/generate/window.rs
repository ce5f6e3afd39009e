//! `sudoku generate --puzzles` with Sudoku Explainer windows (`--er`, `--ep`, `--ed`), a pattern of givens
//! (`--pattern`) and `--json`: every puzzle checked with the library's solver (one solution, no clue can go) and
//! re-rated by the library's SE rater, the same bytes at `-j1` and `-j2`, and each bad value a usage error naming
//! its flag.

use sudoku_batch::human::{rate_se, SeRating, Tenths};
use sudoku_batch::{count_solutions, solve_unique, Grid};

use crate::util::{run, tempdir, Run};

/// `sudoku` with the words of `line` as arguments.
fn words(line: &str) -> Run {
    run(&line.split_whitespace().collect::<Vec<_>>())
}

fn grids(out: &str) -> Vec<Grid> {
    out.lines().map(|l| l.parse().unwrap()).collect()
}

/// One solution, and every clue needed.
fn assert_unique_and_minimal(p: &Grid) {
    assert!(solve_unique(p).is_ok(), "{p}");
    for cell in (0..81).filter(|&c| p.get(c) != 0) {
        let mut fewer = *p;
        fewer.set(cell, 0);
        assert_eq!(
            count_solutions(&fewer, 2).unwrap().solutions,
            2,
            "{p}: clue {cell} can go"
        );
    }
}

fn inside(r: Option<Tenths>, min: u8, max: u8) -> bool {
    r.is_some_and(|t| (min..=max).contains(&t.0))
}

#[test]
fn puzzles_fall_in_their_er_window_whatever_the_threads() {
    let line = "generate --puzzles 6 --format line --er 4.0..6.2 --seed 3";
    let a = words(&format!("{line} -j 1"));
    assert_eq!(a.code, 0, "{}", a.stderr);
    assert!(a
        .stderr
        .starts_with("sudoku: generated 6 puzzles (seed 3, "));
    let b = words(&format!("{line} -j 2"));
    assert_eq!(a.stdout, b.stdout, "the thread count changed the output");
    let puzzles = grids(&a.out());
    assert_eq!(puzzles.len(), 6);
    for p in &puzzles {
        assert_unique_and_minimal(p);
        let r = rate_se(p).unwrap();
        assert!(inside(r.er, 40, 62), "{p}: {r}");
    }
    // Another window, another seed: other puzzles, each inside its window.
    let c = words("generate --puzzles 4 --format line --er 2.0..3.9 --seed 3");
    assert_ne!(c.stdout, a.stdout);
    for p in grids(&c.out()) {
        let r = rate_se(&p).unwrap();
        assert!(inside(r.er, 20, 39), "{p}: {r}");
    }
}

#[test]
fn ep_and_ed_windows_combine_with_er_symmetry_and_clues() {
    let r = words(
        "generate --puzzles 4 --format line --er 3.0..7.5 --ep 1.0..2.0 --ed 1.0..1.5 --symmetry rotate180 \
         --seed 8",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    for p in grids(&r.out()) {
        // Minimal among symmetric puzzles: no pair of clues can go.
        assert!(solve_unique(&p).is_ok(), "{p}");
        for cell in (0..81).filter(|&c| p.get(c) != 0) {
            let mut fewer = p;
            fewer.set(cell, 0);
            fewer.set(80 - cell, 0);
            assert_eq!(count_solutions(&fewer, 2).unwrap().solutions, 2, "{p}");
        }
        for cell in 0..81 {
            assert_eq!(
                p.get(cell) == 0,
                p.get(80 - cell) == 0,
                "{p} is not symmetric"
            );
        }
        let s = rate_se(&p).unwrap();
        assert!(
            inside(s.er, 30, 75) && inside(s.ep, 10, 20) && inside(s.ed, 10, 15),
            "{p}: {s}"
        );
    }
    let r = words("generate --puzzles 3 --format line --clues 28 --er 2.0..4.4 --seed 8");
    assert_eq!(r.code, 0, "{}", r.stderr);
    for p in grids(&r.out()) {
        assert_eq!(p.clue_count(), 28);
        assert!(solve_unique(&p).is_ok());
        assert!(inside(rate_se(&p).unwrap().er, 20, 44), "{p}");
    }
}

#[test]
fn json_gives_each_puzzle_its_solution_and_se_ratings() {
    let r = words("generate --puzzles 3 --json --er 3.0..6.0 --seed 2 -j 2");
    assert_eq!(r.code, 0, "{}", r.stderr);
    let lines: Vec<String> = r.out().lines().map(str::to_string).collect();
    assert_eq!(lines.len(), 3);
    let text = words("generate --puzzles 3 --format line --er 3.0..6.0 --seed 2 -j 1").out();
    for ((i, line), want) in lines.iter().enumerate().zip(text.lines()) {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(v["index"], i as u64);
        assert_eq!(v["puzzle"], want);
        let p: Grid = want.parse().unwrap();
        let solution: Grid = v["solution"].as_str().unwrap().parse().unwrap();
        assert_eq!(solve_unique(&p).unwrap().solution, solution);
        assert_eq!(v["clues"], p.clue_count() as u64);
        let s: SeRating = rate_se(&p).unwrap();
        let num = |t: Option<Tenths>| serde_json::json!(f64::from(t.unwrap().0) / 10.0);
        assert_eq!(
            (&v["er"], &v["ep"], &v["ed"]),
            (&num(s.er), &num(s.ep), &num(s.ed)),
            "{line}"
        );
        assert_eq!(v["hardest"], s.hardest.unwrap().name());
    }
}

/// A pattern of 41 cells, a checkerboard: about 3 boards in 10 have one solution on it.
const MASK: &str =
    "x.x.x.x.x.x.x.x.x.x.x.x.x.x.x.x.x.x.x.x.x.x.x.x.x.x.x.x.x.x.x.x.x.x.x.x.x.x.x.x.x";

#[test]
fn puzzles_on_a_pattern_have_their_clues_only_there() {
    let mask = MASK;
    let r = words(&format!(
        "generate --puzzles 3 --format line --pattern {mask} --er 2.0..6.0 --seed 4"
    ));
    assert_eq!(r.code, 0, "{}", r.stderr);
    let puzzles = grids(&r.out());
    assert_eq!(puzzles.len(), 3);
    for p in &puzzles {
        assert_unique_and_minimal(p);
        assert!(inside(rate_se(p).unwrap().er, 20, 60), "{p}");
        for (cell, m) in mask.chars().enumerate() {
            assert!(p.get(cell) == 0 || m == 'x', "{p} against {mask}");
        }
    }
    // The same pattern from a file of nine rows gives the same puzzles.
    let dir = tempdir();
    let path = dir.path().join("pattern.txt");
    let rows: String = mask
        .as_bytes()
        .chunks(9)
        .map(|r| format!("{}\n", std::str::from_utf8(r).unwrap()))
        .collect();
    std::fs::write(&path, rows).unwrap();
    let f = words(&format!(
        "generate --puzzles 3 --format line --pattern {} --er 2.0..6.0 --seed 4",
        path.display()
    ));
    assert_eq!(f.code, 0, "{}", f.stderr);
    assert_eq!(f.stdout, r.stdout);
}

#[test]
fn bad_windows_and_patterns_are_usage_errors_naming_the_flag() {
    for (args, flag, why) in [
        ("--er 8.0..7.0", "--er", "MIN 8.0 is above MAX 7.0"),
        ("--er 0.5..3.0", "--er", "0.5 is outside"),
        ("--ep 7.0..12.0", "--ep", "12.0 is outside"),
        ("--ed 7", "--ed", "expected MIN..MAX"),
        ("--er 7.25..8", "--er", "expected MIN..MAX"),
        ("--er x..y", "--er", "expected MIN..MAX"),
        ("--pattern xx..", "--pattern", "not 4"),
        ("--pattern no-such-file", "--pattern", "no such file"),
    ] {
        let r = words(&format!("generate --puzzles 1 {args}"));
        assert_eq!(r.code, 2, "{args}");
        let first = r.stderr.lines().next().unwrap_or("");
        assert!(
            first.contains(flag) && first.contains(why),
            "{args}: {}",
            r.stderr
        );
    }
    for args in [
        "generate --er 7..8",
        "generate 10 --er 7..8",
        "generate --puzzles 1 --clues 30 --pattern x",
        "generate --puzzles 1 --symmetry mirror --pattern x",
        "generate --puzzles 1 --json --format grid",
    ] {
        let r = words(args);
        assert_eq!(r.code, 2, "{args}: {}", r.stderr);
    }
    // Windows no puzzle can meet together: refused before any work, naming both.
    let r = words("generate --puzzles 1 --er 7.0..8.0 --ep 8.5..9.0");
    assert_eq!(r.code, 2);
    assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
    assert!(
        r.stderr
            .contains("--ep 8.5..9.0 and --er 7.0..8.0 cannot both hold"),
        "{}",
        r.stderr
    );
}
