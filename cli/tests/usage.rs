//! What a newcomer meets first: the short usage, typo suggestions pointing at the subcommand's help, the status
//! lines on a log, the summary naming the output file, the manual pages and the examples of `--help`.

use std::process::Stdio;

use crate::util::{data, run, sudoku};

/// Runs `sudoku ARGS` from the crate root with status lines every `interval` seconds on its (piped) stderr.
fn with_status(interval: &str, args: &[&str]) -> crate::util::Run {
    sudoku()
        .env("SUDOKU_STATUS_INTERVAL", interval)
        .args(args)
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .stdin(Stdio::null())
        .output()
        .unwrap()
        .into()
}

#[test]
fn no_arguments_print_a_short_usage() {
    let r = run(&[]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.lines().count() <= 12, "{}", r.stderr);
    assert!(r.stderr.contains("sudoku solve FILE"), "{}", r.stderr);
    assert!(r.stdout.is_empty());
}

#[test]
fn typos_get_a_suggestion_and_the_subcommands_help() {
    let r = run(&["sovle", "data/puzzles.txt"]);
    assert_eq!(r.code, 2);
    assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
    assert!(r.stderr.contains("'solve'"), "{}", r.stderr);
    let r = run(&["solve", "--uniqe", "data/puzzles.txt"]);
    assert_eq!(r.code, 2);
    assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
    assert!(
        r.stderr.contains("'--unique'") && r.stderr.contains("(see 'sudoku solve --help')"),
        "{}",
        r.stderr
    );
    let r = run(&["generate", "10", "--formt", "line"]);
    assert!(
        r.stderr.contains("'--format'") && r.stderr.contains("'sudoku generate --help'"),
        "{}",
        r.stderr
    );
    // The classic form's stray word is still named as such.
    let r = run(&["-c", "5", "extra"]);
    assert_eq!(
        r.stderr,
        "sudoku: unexpected argument 'extra' (see 'sudoku --help')\n"
    );
}

#[test]
fn a_log_gets_status_lines_counting_records_within_80_columns() {
    let r = with_status(
        "0.000001",
        &["solve", "-j1", "--chunk-size", "900", &data("puzzles.txt")],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let status: Vec<&str> = r
        .stderr
        .lines()
        .filter(|l| l.contains(" records, ") && l.contains("/s, "))
        .collect();
    assert!(status.len() >= 5, "{}", r.stderr);
    let mut last = 0;
    for line in &status {
        assert!(line.len() <= 80, "{line}");
        assert!(line.ends_with(" left"), "{line}");
        let n: u64 = line["sudoku: ".len()..]
            .split(' ')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        assert!(n > last && n <= 100, "{line}");
        last = n;
    }
    // Boards, and nothing with -q.
    let r = with_status(
        "0.000001",
        &["generate", "20000", "--format", "line", "-o", "/dev/null"],
    );
    assert!(
        r.stderr
            .lines()
            .any(|l| l.contains(" boards, ") && l.ends_with(" left")),
        "{}",
        r.stderr
    );
    let r = with_status(
        "0.000001",
        &["solve", "-q", "--chunk-size", "900", &data("puzzles.txt")],
    );
    assert_eq!(r.stderr, "");
}

#[test]
fn the_summary_names_the_output_file() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("solutions.txt");
    let r = run(&["solve", &data("puzzles.txt"), "-o", out.to_str().unwrap()]);
    assert_eq!(r.code, 0);
    assert!(
        r.stderr
            .trim_end()
            .ends_with(&format!("; output in {}", out.display())),
        "{}",
        r.stderr
    );
}

#[test]
fn a_quizzes_csv_gets_kaggles_solutions_column() {
    let r = crate::util::run_in(
        None,
        &["solve", "-"],
        format!(
            "quizzes\n{}\n",
            crate::util::puzzle_lines(&crate::util::read_data("puzzles.txt"))[0]
        )
        .as_bytes(),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.out().lines().next(), Some("quizzes,solutions"));
    let r = crate::util::run_in(None, &["solve", "-"], b"puzzle\n4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n");
    assert_eq!(r.out().lines().next(), Some("puzzle,solution"));
}

#[test]
fn every_subcommand_has_examples_and_a_manual_page() {
    let dir = tempfile::tempdir().unwrap();
    let r = run(&["man", "--dir", dir.path().to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    for sub in [
        "solve", "rate", "explain", "generate", "check", "count", "canon", "dedupe", "shuffle",
        "bench",
    ] {
        let help = run(&[sub, "--help"]);
        assert!(
            help.out().contains("\nExamples:\n  "),
            "{sub}: {}",
            help.out()
        );
        let page = std::fs::read_to_string(dir.path().join(format!("sudoku-{sub}.1"))).unwrap();
        assert!(page.contains(".SH EXAMPLES"), "{sub}");
        assert_eq!(run(&["man", sub]).out(), page, "{sub}");
    }
    let r = run(&["man", "sovle"]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("no page for 'sovle'"), "{}", r.stderr);
}

#[test]
fn rate_writes_a_header_line_when_asked() {
    let plain = run(&["rate", "-q", &data("puzzles.txt")]);
    let with = run(&["rate", "-q", "--header", &data("puzzles.txt")]);
    assert_eq!(with.code, 0, "{}", with.stderr);
    let out = with.out();
    let (first, rest) = out.split_once('\n').unwrap();
    assert_eq!(first, "puzzle level score guesses hardest");
    assert_eq!(rest, plain.out());
    // Two inputs, one header.
    let two = run(&[
        "rate",
        "-q",
        "--header",
        &data("puzzles.txt"),
        &data("puzzles.txt"),
    ]);
    assert_eq!(two.out().matches("puzzle level").count(), 1);
}

#[test]
fn explain_puts_the_rating_first_and_last() {
    let r = run(&[
        "explain",
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
    ]);
    let out = r.out();
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        lines[1].starts_with("rating: intermediate (score 109"),
        "{out}"
    );
    assert_eq!(lines[1], *lines.last().unwrap());
}

#[test]
fn a_status_interval_too_long_for_a_duration_means_no_status_lines() {
    for interval in ["1e30", "inf", "nan", "-3"] {
        let r = with_status(interval, &["solve", &data("puzzles.txt")]);
        assert_eq!(r.code, 0, "{interval}: {}", r.stderr);
        assert_eq!(r.out().lines().count(), 100, "{interval}");
        assert!(!r.stderr.contains("panicked"), "{interval}: {}", r.stderr);
        assert_eq!(r.stderr.lines().count(), 1, "{interval}: {}", r.stderr);
    }
}

#[test]
fn man_dir_on_a_file_says_it_cannot_make_the_folder_and_leaves_the_file_alone() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("notes.txt");
    std::fs::write(&file, "mine\n").unwrap();
    let r = run(&["man", "--dir", file.to_str().unwrap()]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr.starts_with(&format!(
            "sudoku: {}: cannot create the folder for the pages: ",
            file.display()
        )),
        "{}",
        r.stderr
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "mine\n");
}
