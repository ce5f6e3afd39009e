//! `sudoku hunt`, end to end: every find has one solution (`solve --unique`), is rated as `rate --scale se` rates
//! it (the same line, byte for byte) and at least --min-er, and is of a class neither a seed's, a --known
//! puzzle's, nor another find's (`canon`); the same finds at -j1 from one run to the next; Ctrl-C keeps the finds;
//! bad seeds and moves are refused with where and why.

use std::collections::HashSet;
use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use crate::util::{self, puzzle_lines, read_data, run, tempdir, Run};

/// A puzzle of `data/se_sample_hard.txt` (serate's ER 9.0) whose neighbourhood holds several puzzles rated 9.0
/// and more, cut to its 81 characters.
fn seed() -> String {
    let line = &puzzle_lines(&read_data("se_sample_hard.txt"))[39];
    assert!(line.starts_with("72........6......8..89"), "{line}");
    line[..81].to_string()
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.to_str().unwrap().to_string()
}

/// `sudoku ARGS` with `input` on standard input; must exit 0.
fn ok_with(args: &[&str], input: &str) -> String {
    let r = util::run_in(None, args, input.as_bytes());
    assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
    r.out()
}

/// The minlex forms of `puzzles`, one per puzzle.
fn classes(puzzles: &[String]) -> Vec<String> {
    let out = ok_with(&["canon", "-q", "-"], &(puzzles.join("\n") + "\n"));
    out.lines().map(str::to_string).collect()
}

fn hunt(args: &[&str]) -> Run {
    let r = run(&[&["hunt"], args].concat());
    assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
    r
}

#[test]
fn finds_are_unique_rated_as_rate_rates_them_and_all_new() {
    let dir = tempdir();
    let seeds = write(dir.path(), "seed.txt", &format!("{}\n", seed()));
    // A first hunt gives puzzles that are then declared known: the second hunt must go past them.
    let first = hunt(&[&seeds, "--min-er", "9.0", "--limit", "2", "-j1", "-q"]).out();
    assert_eq!(first.lines().count(), 2, "{first}");
    let known = write(dir.path(), "known.txt", &first);
    let out = dir.path().join("finds.txt");
    let r = hunt(&[
        &seeds,
        "--min-er",
        "9.0",
        "--limit",
        "5",
        "-j1",
        "--known",
        &known,
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(
        r.stderr
            .contains("sudoku: hunt found 5 new puzzles rated 9.0 or more"),
        "{}",
        r.stderr
    );
    assert!(r.stderr.contains("ended by --limit 5"), "{}", r.stderr);
    let text = std::fs::read_to_string(&out).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 5, "{text}");
    let puzzles: Vec<String> = lines.iter().map(|l| l[..81].to_string()).collect();
    let list = puzzles.join("\n") + "\n";

    // One solution each.
    ok_with(&["solve", "--unique", "-q", "-"], &list);
    // Rated as `rate --scale se` rates them: the very same lines.
    assert_eq!(ok_with(&["rate", "--scale", "se", "-q", "-"], &list), text);
    for l in &lines {
        let er: f64 = l.split(' ').nth(1).unwrap().parse().unwrap();
        assert!(er >= 9.0, "{l}");
    }
    // New classes, each once.
    let found = classes(&puzzles);
    let old: HashSet<String> = classes(&[seed()])
        .into_iter()
        .chain(classes(
            &puzzle_lines(&first)
                .iter()
                .map(|l| l[..81].to_string())
                .collect::<Vec<_>>(),
        ))
        .collect();
    assert_eq!(old.len(), 3);
    let distinct: HashSet<&String> = found.iter().collect();
    assert_eq!(distinct.len(), found.len(), "a class found twice");
    for (c, l) in found.iter().zip(&lines) {
        assert!(!old.contains(c), "{l}: a seed's or a known puzzle's class");
    }

    // One thread, no --time: the same finds again.
    let again = hunt(&[
        &seeds, "--min-er", "9.0", "--limit", "5", "-j1", "--known", &known, "-q",
    ]);
    assert_eq!(again.out(), text);
}

#[test]
fn two_by_two_moves_and_rated_seed_files_work() {
    // The seeds as `rate --scale se` wrote them (the ER after each puzzle orders the search): a find of
    // {-2+2} only differs from its parent by two clues out, two in.
    let r = hunt(&[
        &util::data("se_sample_hard.txt"),
        "--min-er",
        "9.0",
        "--moves=-2+2",
        "--limit",
        "1",
        "-j2",
        "-q",
    ]);
    let line = r.out();
    assert_eq!(line.lines().count(), 1, "{line}");
    let find = &line[..81];
    let seeds: Vec<String> = puzzle_lines(&read_data("se_sample_hard.txt"))
        .iter()
        .map(|l| l[..81].to_string())
        .collect();
    let parent = seeds.iter().find(|s| {
        let (mut out, mut add) = (0, 0);
        for (a, b) in s.bytes().zip(find.bytes()) {
            match (a, b) {
                (b'.', b'.') => {}
                (b'.', _) => add += 1,
                (_, b'.') => out += 1,
                (x, y) => {
                    if x != y {
                        return false;
                    }
                }
            }
        }
        (out, add) == (2, 2)
    });
    assert!(
        parent.is_some(),
        "{find} is two clues out, two in from no seed"
    );
}

/// A --time too long for the clock (1e19 s) is no deadline: the hunt ends at its --limit (it panicked adding the
/// time to the start, then hung).
#[test]
fn a_time_beyond_the_clock_is_no_deadline() {
    let dir = tempdir();
    let seeds = write(dir.path(), "seed.txt", &format!("{}\n", seed()));
    let r = hunt(&[
        &seeds, "--min-er", "9.0", "--limit", "1", "--time", "1e19", "-j1", "-q",
    ]);
    assert_eq!(r.out().lines().count(), 1, "{}", r.stderr);
    let r = run(&["hunt", &seeds, "--min-er", "9", "--time", "1e20"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("below 1.8e19"), "{}", r.stderr);
}

#[test]
fn ctrl_c_keeps_every_find_in_the_output() {
    let dir = tempdir();
    let seeds = write(dir.path(), "seed.txt", &format!("{}\n", seed()));
    let out = dir.path().join("finds.txt");
    let child = util::sudoku()
        .args([
            "hunt",
            &seeds,
            "--min-er",
            "8.5",
            "--time",
            "120",
            "-j1",
            "-o",
            out.to_str().unwrap(),
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_secs(3));
    let sent = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    let r: Run = child.wait_with_output().unwrap().into();
    assert_eq!(r.code, 130, "{}", r.stderr);
    assert!(r.stderr.contains("ended by interrupted"), "{}", r.stderr);
    let text = std::fs::read_to_string(&out).expect("the output is in place");
    assert!(text.lines().count() >= 1, "nothing found in 3 s");
    let puzzles: Vec<String> = text.lines().map(|l| l[..81].to_string()).collect();
    let list = puzzles.join("\n") + "\n";
    assert_eq!(ok_with(&["rate", "--scale", "se", "-q", "-"], &list), text);
}

#[test]
fn bad_seeds_and_moves_are_refused_with_where_and_why() {
    let dir = tempdir();
    let s = seed();
    let bad = write(
        dir.path(),
        "bad.txt",
        &format!("# seeds\n{s}\n{}x\n", &s[..80]),
    );
    let r = run(&["hunt", &bad, "--min-er", "9"]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.starts_with(&format!("sudoku: {bad}:3: ")),
        "{}",
        r.stderr
    );
    let several = write(
        dir.path(),
        "several.txt",
        &format!("{s}\n{}\n", ".".repeat(81)),
    );
    let r = run(&["hunt", &several, "--min-er", "9"]);
    assert_eq!(r.code, 2);
    assert_eq!(
        r.stderr,
        format!("sudoku: {several}:2: more than one solution\n")
    );
    let empty = write(dir.path(), "empty.txt", "# nothing\n");
    let r = run(&["hunt", &empty, "--min-er", "9"]);
    assert_eq!(
        (r.code, r.stderr.as_str()),
        (2, format!("sudoku: {empty}: no puzzle in it\n").as_str())
    );
    let good = write(dir.path(), "good.txt", &format!("{s}\n"));
    let r = run(&["hunt", &good, "--min-er", "9", "--known", &bad]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.starts_with(&format!("sudoku: {bad}:3: ")),
        "{}",
        r.stderr
    );
    for (flag, args) in [
        ("--moves", ["--min-er", "9", "--moves=-3+1"]),
        ("--moves", ["--min-er", "9", "--moves=1+1"]),
        ("--min-er", ["--min-er", "x", "-j1"]),
        ("--time", ["--min-er", "9", "--time=0"]),
    ] {
        let r = run(&[&["hunt", good.as_str()], &args[..]].concat());
        assert_eq!(r.code, 2, "{args:?}");
        assert!(r.stderr.contains(flag), "{args:?}: {}", r.stderr);
    }
}
