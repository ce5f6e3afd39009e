//! Helpers for the integration tests: running the `sudoku` binary, finding data files, and an answer checker
//! written independently of the crate (it knows only the rules of Sudoku).

#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The finished result of one run of the binary.
pub struct Run {
    /// Exit code (-1 when killed by a signal).
    pub code: i32,
    /// Standard output, as bytes.
    pub stdout: Vec<u8>,
    /// Standard error, as text.
    pub stderr: String,
}

impl Run {
    /// Standard output as text.
    pub fn out(&self) -> String {
        String::from_utf8(self.stdout.clone()).expect("output is UTF-8")
    }

    /// The stderr lines that are not the summary (its timing differs from run to run).
    pub fn messages(&self) -> Vec<String> {
        self.stderr
            .lines()
            .filter(|l| !l.contains(" solved; ") && !l.contains(" solved, "))
            .map(str::to_string)
            .collect()
    }
}

impl From<Output> for Run {
    fn from(o: Output) -> Run {
        Run {
            code: o.status.code().unwrap_or(-1),
            stdout: o.stdout,
            stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
        }
    }
}

/// A command for the `sudoku` binary built for these tests.
/// The `sudoku` binary under test, without the status lines it writes every few seconds to a standard error that
/// is not a terminal (a slow debug run would get some; `tests/solve.rs` tests them on their own).
pub fn sudoku() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_sudoku"));
    cmd.env("SUDOKU_STATUS_INTERVAL", "off");
    cmd
}

/// Runs `sudoku ARGS` in `dir` (the crate root when `None`) with `stdin` as its input.
pub fn run_in(dir: Option<&Path>, args: &[&str], stdin: &[u8]) -> Run {
    let mut cmd = sudoku();
    cmd.args(args)
        .current_dir(dir.unwrap_or(Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("start sudoku");
    let mut input = child.stdin.take().unwrap();
    let data = stdin.to_vec();
    let feeder = std::thread::spawn(move || {
        // The child may stop reading early; that is its business.
        let _ = input.write_all(&data);
    });
    let out = child.wait_with_output().expect("wait for sudoku");
    feeder.join().unwrap();
    out.into()
}

/// Runs `sudoku ARGS` from the crate root with empty standard input.
pub fn run(args: &[&str]) -> Run {
    run_in(None, args, b"")
}

/// The repository's root, where `data/` is (the binary's crate is `cli/` below it).
pub const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/..");

/// A file of `data/`, as a path relative to the repository's root, where [`run`] runs the binary (and as its
/// messages name it).
pub fn data(name: &str) -> String {
    format!("data/{name}")
}

/// A file of `data/`, as a path for the test itself to open (the test binary runs in `cli/`).
pub fn data_path(name: &str) -> String {
    format!("{ROOT}/data/{name}")
}

/// The text of a file of `data/`.
pub fn read_data(name: &str) -> String {
    std::fs::read_to_string(
        Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
            .join("data")
            .join(name),
    )
    .expect("data file")
}

/// A dataset of `../shared/data`, or `None` with a notice when it is not there (a plain clone has no such folder).
/// The notice is written straight to the process's standard error, past the test harness's capture, so that it
/// shows in a plain `cargo test` run among the results: a skipped part never passes silently.
pub fn shared_data(name: &str) -> Option<PathBuf> {
    let p = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .join("../shared/data")
        .join(name);
    if p.is_file() {
        Some(p)
    } else {
        skipped(&format!("{} not found", p.display()));
        None
    }
}

/// Says, past the test harness's capture, that part of a test did not run and why.
pub fn skipped(why: &str) {
    use std::io::Write;
    let thread = std::thread::current();
    let test = thread.name().unwrap_or("a test");
    let _ = writeln!(std::io::stderr().lock(), "SKIPPED part of {test}: {why}");
}

/// The puzzle records of a line-format text: lines that are neither blank nor `#` comments, trimmed.
pub fn puzzle_lines(text: &str) -> Vec<String> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(str::to_string)
        .collect()
}

/// True when `solution` (81 digits) obeys the rules and keeps every given of `puzzle` (81 cells, `0`/`.` blank).
/// Independent of the crate: only the rules.
pub fn solves(puzzle: &str, solution: &str) -> bool {
    let p: Vec<char> = puzzle.chars().collect();
    let s: Vec<u8> = solution.bytes().collect();
    if p.len() != 81 || s.len() != 81 || !s.iter().all(|b| (b'1'..=b'9').contains(b)) {
        return false;
    }
    if (0..81).any(|i| p[i] != '0' && p[i] != '.' && p[i] as u8 != s[i]) {
        return false;
    }
    let units = (0..9).flat_map(|u| {
        [
            (0..9).map(|i| u * 9 + i).collect::<Vec<_>>(),
            (0..9).map(|i| i * 9 + u).collect(),
            (0..9)
                .map(|i| (u / 3 * 3 + i / 3) * 9 + u % 3 * 3 + i % 3)
                .collect(),
        ]
    });
    units
        .into_iter()
        .all(|cells| (1..=9).all(|d| cells.iter().filter(|&&c| s[c] == b'0' + d).count() == 1))
}

/// The 81 cells of a 9-line grid (digits separated by spaces) as a line.
pub fn grid_to_line(grid: &str) -> String {
    grid.split_whitespace().collect()
}

/// A fresh temporary directory.
pub fn tempdir() -> tempfile::TempDir {
    tempfile::tempdir().expect("temporary directory")
}
