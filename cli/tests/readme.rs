//! The examples of README.md, the pages of docs/ and python/README.md run as written: every line of their `sh` blocks, in order, from
//! a copy of the repository's `data/` (so the files they write land in a scratch directory, never in the
//! checkout), with the binary under test first on `PATH`. Lines that build, install or run the long scripts
//! (`cargo`, `pip`, `scripts/`, `bash`) are left to CI's own steps; the Python blocks run in the Python package's
//! tests (python/tests/test_readme.py). The `Examples:` of every `--help` (also the EXAMPLES of the manual pages)
//! run the same way.

use std::path::Path;
use std::process::{Command, Stdio};

/// The lines of the `sh` blocks of a Markdown file, with their line numbers.
fn shell_lines(markdown: &str) -> Vec<(usize, String)> {
    let mut lines = Vec::new();
    let mut inside = false;
    for (n, line) in markdown.lines().enumerate() {
        if let Some(fence) = line.strip_prefix("```") {
            inside = !inside && fence.trim() == "sh";
            continue;
        }
        if inside && !line.trim().is_empty() {
            lines.push((n + 1, line.to_string()));
        }
    }
    lines
}

/// Lines left to other CI steps: builds, installs, the benchmark scripts.
fn left_to_ci(line: &str) -> bool {
    let first = line.split_whitespace().next().unwrap_or("");
    ["cargo", "pip", "bash", "python", "python3"].contains(&first) || first.starts_with("scripts/")
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
    }
}

/// Runs `lines` (name, line) one after the other in a scratch copy of `data/` with the binary under test first on
/// `PATH`; each must exit with 0, or 1 for an example whose comment says its records fail (`--unique` on puzzles
/// with several solutions), never with a usage error, a missing file or command (2, 127). Returns how many ran.
fn run_examples(lines: &[(String, String)]) -> usize {
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_sudoku")).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let has_man = Command::new("man").arg("-w").arg("man").output().is_ok();
    let scratch = tempfile::tempdir().unwrap();
    copy_dir(&root.join("data"), &scratch.path().join("data"));
    let mut ran = 0;
    for (place, line) in lines {
        if left_to_ci(line) || (line.contains("man -l") && !has_man) {
            continue;
        }
        let out = Command::new("bash")
            .arg("-c")
            .arg(format!("set -o pipefail; {line}"))
            .current_dir(scratch.path())
            .env("PATH", &path)
            .env("HOME", scratch.path())
            .env("MANPAGER", "cat")
            .env("SUDOKU_STATUS_INTERVAL", "off")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        // Exit 1 only where the example's comment says records fail: anywhere else it is an example gone wrong.
        let fails_on_purpose = line
            .split_once('#')
            .is_some_and(|(_, note)| note.contains("fail"));
        assert!(
            out.status.code() == Some(0) || fails_on_purpose && out.status.code() == Some(1),
            "{place}: `{line}` exited with {:?}: {}",
            out.status.code(),
            String::from_utf8_lossy(&out.stderr)
        );
        ran += 1;
    }
    ran
}

#[test]
fn every_readme_shell_example_runs_as_written() {
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
    let mut ran = 0;
    let mut pages = vec!["README.md".to_string(), "python/README.md".to_string()];
    let mut docs: Vec<String> = std::fs::read_dir(root.join("docs"))
        .unwrap()
        .map(|e| format!("docs/{}", e.unwrap().file_name().to_string_lossy()))
        .filter(|name| name.ends_with(".md"))
        .collect();
    docs.sort();
    pages.extend(docs);
    for readme in &pages {
        let text = std::fs::read_to_string(root.join(readme)).unwrap();
        let lines: Vec<(String, String)> = shell_lines(&text)
            .into_iter()
            .map(|(n, line)| (format!("{readme}:{n}"), line))
            .collect();
        ran += run_examples(&lines);
    }
    assert!(ran >= 25, "only {ran} example lines found");
}

#[test]
fn every_help_example_runs_as_written() {
    let mut lines = Vec::new();
    for sub in [
        None,
        Some("solve"),
        Some("bench"),
        Some("generate"),
        Some("rate"),
        Some("explain"),
        Some("check"),
        Some("count"),
        Some("canon"),
        Some("dedupe"),
        Some("shuffle"),
        Some("split"),
        Some("export"),
        Some("completions"),
        Some("man"),
    ] {
        let mut cmd = crate::util::sudoku();
        cmd.args(sub).arg("--help");
        let help = String::from_utf8(cmd.output().unwrap().stdout).unwrap();
        let name = format!("sudoku {} --help", sub.unwrap_or(""));
        let examples = examples_of(&help);
        assert!(!examples.is_empty(), "{name}: no examples");
        lines.extend(examples.into_iter().map(|l| (name.clone(), l)));
    }
    assert!(run_examples(&lines) >= 25);
}

/// The commands under a `--help` text's `Examples:`: each indented line, its description (after two spaces in a
/// row) turned into a shell comment.
fn examples_of(help: &str) -> Vec<String> {
    help.split_once("\nExamples:\n")
        .map(|(_, rest)| rest)
        .unwrap_or("")
        .lines()
        .take_while(|l| l.starts_with("  "))
        .map(|l| match l.trim().split_once("  ") {
            // The description becomes the line's comment (it may say the records fail on purpose).
            Some((command, note)) => format!("{command}  # {}", note.trim()),
            None => l.trim().to_string(),
        })
        .collect()
}
