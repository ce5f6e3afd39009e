//! Nothing the user owns is harmed: output targets that are not plain files (devices, symlinks, FIFOs, the input
//! itself), a full file system, signals in the middle of a run, and hostile inputs (endless lines, NUL bytes) that
//! must end with a clear message or marked records in flat memory.

use std::io::Write;
use std::os::unix::fs::{FileTypeExt, PermissionsExt};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use crate::util::{data, puzzle_lines, read_data, run, run_in, solves, sudoku, tempdir, Run};

const PUZZLE: &str =
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
const SOLUTION: &str =
    "417369825632158947958724316825437169791586432346912758289643571573291684164875293";

/// The names in `dir`, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

fn mkfifo(path: &Path) -> bool {
    Command::new("mkfifo")
        .arg(path)
        .status()
        .is_ok_and(|s| s.success())
}

#[test]
fn a_device_target_is_written_in_place_not_replaced() {
    let r = run(&["solve", "-q", &data("puzzles.txt"), "-o", "/dev/null"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(std::fs::metadata("/dev/null")
        .unwrap()
        .file_type()
        .is_char_device());
    let r = run(&["generate", "-q", "10", "-o", "/dev/null"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(std::fs::metadata("/dev/null")
        .unwrap()
        .file_type()
        .is_char_device());
}

#[test]
fn dev_stdout_as_output_writes_to_standard_output() {
    let r = run_in(
        None,
        &["solve", "-q", "-", "-o", "/dev/stdout"],
        PUZZLE.as_bytes(),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.out(), format!("{SOLUTION}\n"));
}

#[test]
fn a_symlink_target_has_its_file_replaced_and_stays_a_link_with_the_mode_kept() {
    let dir = tempdir();
    let real = dir.path().join("real.txt");
    std::fs::write(&real, "old contents\n").unwrap();
    std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o604)).unwrap();
    let link = dir.path().join("link.txt");
    std::os::unix::fs::symlink("real.txt", &link).unwrap();
    let input = dir.path().join("in.txt");
    std::fs::write(&input, format!("{PUZZLE}\n")).unwrap();
    let r = run(&[
        "solve",
        "-q",
        input.to_str().unwrap(),
        "-o",
        link.to_str().unwrap(),
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(std::fs::read_link(&link).unwrap(), Path::new("real.txt"));
    assert_eq!(
        std::fs::read_to_string(&real).unwrap(),
        format!("{SOLUTION}\n")
    );
    let mode = std::fs::metadata(&real).unwrap().permissions().mode() & 0o7777;
    assert_eq!(mode, 0o604);
    assert_eq!(names(dir.path()), ["in.txt", "link.txt", "real.txt"]);
}

#[test]
fn output_equal_to_the_input_replaces_it_with_the_answers() {
    let text = read_data("puzzles.txt");
    for mmap in [true, false] {
        let dir = tempdir();
        let file = dir.path().join("p.txt");
        std::fs::write(&file, &text).unwrap();
        let f = file.to_str().unwrap();
        let mut args = vec!["solve", "-q", "-j2", "--chunk-size", "200", f, "-o", f];
        if !mmap {
            args.push("--no-mmap");
        }
        let r = run(&args);
        assert_eq!(r.code, 0, "{}", r.stderr);
        let out = std::fs::read_to_string(&file).unwrap();
        let puzzles = puzzle_lines(&text);
        assert_eq!(out.lines().count(), puzzles.len());
        for (p, s) in puzzles.iter().zip(out.lines()) {
            assert!(solves(p, s), "{p} -> {s}");
        }
        assert_eq!(names(dir.path()), ["p.txt"]);
    }
}

#[test]
fn a_full_file_system_is_an_error_and_leaves_no_file() {
    let dir = tempdir();
    let mnt = dir.path().join("small");
    std::fs::create_dir(&mnt).unwrap();
    let mounted = Command::new("mount")
        .args(["-t", "tmpfs", "-o", "size=64k", "tmpfs"])
        .arg(&mnt)
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !mounted {
        eprintln!(
            "skipped: cannot mount a small tmpfs here (needs root); full file system not tested"
        );
        return;
    }
    let out = mnt.join("boards.txt");
    let r = run(&["generate", "-q", "10000", "-o", out.to_str().unwrap()]);
    let left = names(&mnt);
    let _ = Command::new("umount").arg(&mnt).status();
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr.contains("boards.txt: write failed"),
        "{}",
        r.stderr
    );
    assert!(left.is_empty(), "left behind: {left:?}");
}

/// Starts `sudoku solve FIFO -o OUT` with a feeder that writes two puzzles and then holds the FIFO open, sends
/// `signal` once the puzzles were read, and returns the exit code and what is left in the directory.
fn interrupted(signal: &str) -> (Option<i32>, Vec<String>) {
    let dir = tempdir();
    let fifo = dir.path().join("in.fifo");
    assert!(mkfifo(&fifo), "mkfifo");
    let out = dir.path().join("out.txt");
    let mut child = sudoku()
        .args([
            "solve",
            "-q",
            fifo.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut writer = std::fs::OpenOptions::new().write(true).open(&fifo).unwrap();
    writer
        .write_all(format!("{PUZZLE}\n{PUZZLE}\n").as_bytes())
        .unwrap();
    std::thread::sleep(Duration::from_millis(300));
    let sent = Command::new("kill")
        .args([&format!("-{signal}"), &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    let status = child.wait().unwrap();
    drop(writer);
    let left = names(dir.path())
        .into_iter()
        .filter(|n| n != "in.fifo")
        .collect();
    (status.code(), left)
}

#[test]
fn a_signal_mid_run_leaves_nothing_and_exits_128_plus_n() {
    for (signal, n) in [("INT", 2), ("TERM", 15), ("HUP", 1)] {
        let (code, left) = interrupted(signal);
        assert_eq!(code, Some(128 + n), "SIG{signal}");
        assert!(left.is_empty(), "SIG{signal} left {left:?}");
    }
}

#[test]
fn a_fifo_fed_slowly_gets_every_answer_in_order() {
    let dir = tempdir();
    let fifo = dir.path().join("slow.fifo");
    assert!(mkfifo(&fifo), "mkfifo");
    let puzzles = puzzle_lines(&read_data("puzzles.txt"));
    let feed = puzzles.clone();
    let path = fifo.clone();
    let feeder = std::thread::spawn(move || {
        let mut w = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
        for (i, p) in feed.iter().take(20).enumerate() {
            // Records arrive in pieces, split inside lines.
            let line = format!("{p}\n");
            let (a, b) = line.split_at(i % 80 + 1);
            w.write_all(a.as_bytes()).unwrap();
            w.flush().unwrap();
            std::thread::sleep(Duration::from_millis(10));
            w.write_all(b.as_bytes()).unwrap();
        }
    });
    let r = run(&["solve", "-q", "-j2", fifo.to_str().unwrap()]);
    feeder.join().unwrap();
    assert_eq!(r.code, 0, "{}", r.stderr);
    let out = r.out();
    assert_eq!(out.lines().count(), 20);
    for (p, s) in puzzles.iter().zip(out.lines()) {
        assert!(solves(p, s));
    }
}

/// Runs `sudoku ARGS` under `/usr/bin/time` and returns the run and its peak resident set in KiB, or `None` when
/// `/usr/bin/time` is not installed.
fn with_peak_rss(args: &[&str]) -> Option<(Run, u64)> {
    if !Path::new("/usr/bin/time").exists() {
        eprintln!("skipped: /usr/bin/time not found; peak memory not measured");
        return None;
    }
    let dir = tempdir();
    let report = dir.path().join("rss");
    let out = Command::new("/usr/bin/time")
        .args(["-f", "%M", "-o", report.to_str().unwrap()])
        .arg(env!("CARGO_BIN_EXE_sudoku"))
        .args(args)
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let kib = std::fs::read_to_string(&report)
        .unwrap()
        .lines()
        .last()
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    Some((out.into(), kib))
}

/// Peak resident memory allowed on hostile inputs.
const RSS_LIMIT_KIB: u64 = 64 * 1024;

#[test]
fn an_endless_line_ends_with_a_clear_error_in_flat_memory() {
    for extra in [&[][..], &["--no-mmap"][..]] {
        let mut args = vec!["solve", "-q", "/dev/zero"];
        args.extend_from_slice(extra);
        let Some((r, kib)) = with_peak_rss(&args) else {
            return;
        };
        assert_eq!(r.code, 2);
        assert!(
            r.stderr
                .contains("/dev/zero: a record runs on for more than 1024 MiB"),
            "{}",
            r.stderr
        );
        assert!(r.stdout.is_empty());
        assert!(kib < RSS_LIMIT_KIB, "peak RSS {kib} KiB");
    }
}

#[test]
fn a_huge_line_and_a_file_of_nul_bytes_are_marked_records_in_flat_memory() {
    let dir = tempdir();
    let long = dir.path().join("long.txt");
    let mut text = format!("{PUZZLE}\n").into_bytes();
    text.extend(std::iter::repeat_n(b'5', 50 << 20));
    text.extend_from_slice(format!("\n{PUZZLE}\n").as_bytes());
    std::fs::write(&long, &text).unwrap();
    let nul = dir.path().join("nul.bin");
    std::fs::write(&nul, vec![0u8; 50 << 20]).unwrap();
    let marker = "error: malformed: record longer than 65536 bytes";
    for (file, expect) in [
        (&long, format!("{SOLUTION}\n{marker}\n{SOLUTION}\n")),
        (&nul, format!("{marker}\n")),
    ] {
        for extra in [
            &[][..],
            &["--no-mmap"][..],
            &["-j2", "--chunk-size", "100"][..],
        ] {
            let mut args = vec!["solve", "-q", file.to_str().unwrap()];
            args.extend_from_slice(extra);
            let Some((r, kib)) = with_peak_rss(&args) else {
                return;
            };
            assert_eq!(r.code, 1, "{}", r.stderr);
            assert_eq!(r.out(), expect, "{file:?} {extra:?}");
            assert!(r.stderr.contains(":1: malformed") || r.stderr.contains(":2: malformed"));
            assert!(
                kib < RSS_LIMIT_KIB,
                "{file:?} {extra:?}: peak RSS {kib} KiB"
            );
        }
    }
}

#[test]
fn oversized_records_read_the_same_in_every_format_and_chunk_size() {
    // A long line in the line format, a long CSV row, and a grid record of many rows: one marked record each,
    // whatever the chunk size, with the records around them answered.
    let long = "1".repeat(70_000);
    let grid_board = {
        let r = run_in(
            None,
            &["solve", "-q", "--format", "line", "-"],
            PUZZLE.as_bytes(),
        );
        assert_eq!(r.code, 0);
        let cells: Vec<char> = PUZZLE
            .chars()
            .map(|c| if c == '.' { '0' } else { c })
            .collect();
        cells
            .chunks(9)
            .map(|row| {
                row.iter()
                    .map(char::to_string)
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect::<Vec<_>>()
            .join("\n")
    };
    let tall = std::iter::repeat_n("1 2 3 4 5 6 7 8 9", 4000)
        .collect::<Vec<_>>()
        .join("\n");
    let cases = [
        format!("{PUZZLE}\n{long}\n# {long}\n{PUZZLE}\n"),
        format!("quizzes,solutions\n{PUZZLE},\n{long},\n{PUZZLE},\n"),
        format!("{grid_board}\n\n{tall}\n\n{grid_board}\n"),
    ];
    for text in &cases {
        let base = run_in(None, &["solve", "-q", "-j1", "-"], text.as_bytes());
        assert_eq!(base.code, 1, "{}", base.stderr);
        let marks = base.out().matches("record longer than 65536 bytes").count();
        assert!(marks >= 1, "{}", base.out());
        for size in ["1", "7", "100", "4097", "5000", "65536"] {
            let r = run_in(
                None,
                &["solve", "-q", "-j2", "--chunk-size", size, "-"],
                text.as_bytes(),
            );
            assert_eq!(r.out(), base.out(), "chunk size {size}");
            assert_eq!(r.stderr, base.stderr, "chunk size {size}");
        }
    }
}

/// `sudoku ARGS` run by `sh` with `redirect` after it, such as `>&-` (standard output closed), `2>/dev/full` or
/// `2>&1`; standard output and standard error piped back.
fn shell(args: &[&str], redirect: &str) -> Command {
    let mut cmd = Command::new("sh");
    cmd.arg("-c")
        .arg(format!("exec \"$0\" \"$@\" {redirect}"))
        .arg(env!("CARGO_BIN_EXE_sudoku"))
        .args(args)
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    cmd
}

/// Runs `sudoku ARGS` with standard output or standard error redirected (see [`shell`]).
fn run_redirected(args: &[&str], redirect: &str) -> Run {
    shell(args, redirect).output().unwrap().into()
}

/// Runs `sudoku ARGS` with its standard output (and with `stderr_too` its standard error) a pipe whose reader
/// goes away at once.
fn run_into_closed_pipe(args: &[&str], stderr_too: bool) -> Run {
    let mut child = shell(args, if stderr_too { "2>&1" } else { "" })
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    child.wait_with_output().unwrap().into()
}

/// Every subcommand that writes to standard output.
fn stdout_commands() -> Vec<Vec<String>> {
    let puzzles = data("puzzles.txt");
    [
        vec!["--help"],
        vec!["--version"],
        vec!["solve", "--help"],
        vec!["completions", "bash"],
        vec!["completions", "zsh"],
        vec!["man"],
        vec!["explain", PUZZLE],
        vec!["bench", "--seconds", "0", &puzzles],
        vec!["solve", &puzzles],
        vec!["solve", "--json", &puzzles],
        vec!["rate", &puzzles],
        vec!["count", &puzzles],
        vec!["canon", &puzzles],
        vec!["generate", "30"],
        vec!["generate", "--puzzles", "2"],
    ]
    .into_iter()
    .map(|v| v.into_iter().map(str::to_string).collect())
    .collect()
}

#[test]
fn every_output_follows_one_rule_full_closed_pipe_and_closed_stdout() {
    if !Path::new("/dev/full").exists() {
        eprintln!("skipped: /dev/full not found");
        return;
    }
    for args in stdout_commands() {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        // A full disk: exit 2, and the message names <stdout>.
        let r = run_redirected(&args, ">/dev/full");
        assert_eq!(r.code, 2, "{args:?} > /dev/full: {}", r.stderr);
        assert!(
            r.stderr
                .contains("sudoku: <stdout>: write failed: No space left on device"),
            "{args:?}: {}",
            r.stderr
        );
        assert!(!r.stderr.contains("panicked"), "{args:?}: {}", r.stderr);
        // A closed standard output: an error, not output silently lost.
        let r = run_redirected(&args, ">&-");
        assert_eq!(r.code, 2, "{args:?} >&-: {}", r.stderr);
        assert!(
            r.stderr.contains("sudoku: <stdout>: ") && r.stderr.contains("closed"),
            "{args:?}: {}",
            r.stderr
        );
        // A pipe whose reader went away: a quiet success.
        let r = run_into_closed_pipe(&args, false);
        assert_eq!(r.code, 0, "{args:?} | (closed): {}", r.stderr);
        assert!(!r.stderr.contains("<stdout>"), "{args:?}: {}", r.stderr);
        // Standard error into the same closed pipe: never an abort.
        let r = run_into_closed_pipe(&args, true);
        assert_eq!(r.code, 0, "{args:?} 2>&1 | (closed)");
    }
}

#[test]
fn a_full_or_closed_standard_error_never_aborts_a_run() {
    let dir = tempdir();
    let bad = dir.path().join("bad.txt");
    std::fs::write(&bad, "x\n".repeat(5000)).unwrap();
    let bad = bad.to_str().unwrap();
    for redirect in ["2>/dev/full", "2>&-"] {
        for args in [
            &["solve", bad][..],
            &["solve", "-j2", bad][..],
            &["bench", "--seconds", "0", bad][..],
            &["explain", bad][..],
            &["solve", "--no-such-flag"][..],
        ] {
            let r = run_redirected(args, &format!(">/dev/null {redirect}"));
            assert!(
                r.code == 1 || r.code == 2,
                "{args:?} {redirect}: exit {}",
                r.code
            );
        }
    }
    // Standard output and standard error into one pipe that closes after a line (`2>&1 | head -1`).
    let r = run_into_closed_pipe(&["solve", bad], true);
    assert_eq!(r.code, 0);
}

#[test]
fn a_procfs_file_that_reports_no_size_is_read() {
    let environ = Path::new("/proc/self/environ");
    if !environ.exists() {
        eprintln!("skipped: no /proc");
        return;
    }
    for extra in [&[][..], &["--no-mmap"][..], &["-j2"][..]] {
        let out = sudoku()
            .args(["solve", "-q", "--format", "line", "/proc/self/environ"])
            .args(extra)
            .env_clear()
            .env("P", format!("\n{PUZZLE}\n"))
            .output()
            .unwrap();
        let r: Run = out.into();
        // `P=`, the puzzle, and the NUL that ends the variable: three records, one solved.
        assert_eq!(r.code, 1, "{}", r.stderr);
        let out = r.out();
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 3, "{out}");
        assert_eq!(lines[1], SOLUTION);
    }
}

#[test]
fn an_output_name_of_255_bytes_works() {
    let dir = tempdir();
    for len in [243, 244, 250, 255] {
        let target = dir.path().join("n".repeat(len));
        let r = run(&["solve", "-q", "-", "-o", target.to_str().unwrap(), PUZZLE]);
        assert_eq!(r.code, 0, "{len}: {}", r.stderr);
        assert_eq!(
            std::fs::read_to_string(&target).unwrap(),
            format!("{SOLUTION}\n")
        );
        let r = run(&["generate", "-q", "3", "-o", target.to_str().unwrap()]);
        assert_eq!(r.code, 0, "{len}: {}", r.stderr);
        std::fs::remove_file(&target).unwrap();
        assert!(names(dir.path()).is_empty(), "{:?}", names(dir.path()));
    }
}

#[test]
fn file_names_in_messages_are_escaped() {
    let dir = tempdir();
    let evil = dir.path().join("a\nsudoku: forged\x1b[31m.txt");
    std::fs::write(&evil, "x\n").unwrap();
    let shown = format!(
        "{}/a\\nsudoku: forged\\u{{1b}}[31m.txt",
        dir.path().display()
    );
    let r = run(&["solve", "-q", evil.to_str().unwrap()]);
    assert_eq!(r.code, 1);
    assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
    assert!(
        r.stderr
            .starts_with(&format!("sudoku: {shown}:1: malformed")),
        "{}",
        r.stderr
    );
    let r = run(&["bench", "--seconds", "0", evil.to_str().unwrap()]);
    assert!(
        !r.stderr.contains('\x1b') && r.stderr.contains(&shown),
        "{}",
        r.stderr
    );
    let r = run(&["explain", evil.to_str().unwrap()]);
    assert!(
        !r.stderr.contains('\x1b') && r.stderr.contains(&shown),
        "{}",
        r.stderr
    );
    let missing = dir.path().join("gone\n.txt");
    let r = run(&["solve", "-q", missing.to_str().unwrap()]);
    assert_eq!(r.code, 2);
    assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
    let r = run(&[
        "solve",
        "-q",
        "-",
        "-o",
        dir.path().join("no\ndir/x").to_str().unwrap(),
    ]);
    assert_eq!(r.code, 2);
    assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
}

#[test]
fn bench_on_a_missing_file_or_a_directory_exits_2_and_passes_over_a_huge_line() {
    let dir = tempdir();
    let r = run(&["bench", "--seconds", "0", "/nonexistent/x.txt"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr.contains("sudoku: /nonexistent/x.txt: "),
        "{}",
        r.stderr
    );
    let r = run(&["bench", "--seconds", "0", dir.path().to_str().unwrap()]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("is a directory"), "{}", r.stderr);
    let long = dir.path().join("long.txt");
    let mut text = format!("{PUZZLE}\n").into_bytes();
    text.extend(std::iter::repeat_n(b'5', 50 << 20));
    text.extend_from_slice(format!("\n{PUZZLE}\n").as_bytes());
    std::fs::write(&long, &text).unwrap();
    let Some((r, kib)) = with_peak_rss(&["bench", "--seconds", "0", long.to_str().unwrap()]) else {
        return;
    };
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(
        r.stderr.contains(":2: record longer than 65536 bytes"),
        "{}",
        r.stderr
    );
    assert!(kib < RSS_LIMIT_KIB, "peak RSS {kib} KiB");
}

#[test]
fn explain_names_records_by_file_and_line() {
    let dir = tempdir();
    let file = dir.path().join("two.txt");
    std::fs::write(&file, format!("# c\n{PUZZLE}\n\n{}\n", &PUZZLE[..80])).unwrap();
    let name = file.to_str().unwrap();
    let r = run(&["explain", name]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(
        r.stderr.contains(&format!("sudoku: {name}:4: malformed")),
        "{}",
        r.stderr
    );
    let clash = format!("11{}", &PUZZLE[2..]);
    std::fs::write(&file, format!("{PUZZLE}\n{clash}\n")).unwrap();
    let r = run(&["explain", name]);
    assert!(
        r.stderr
            .contains(&format!("sudoku: {name}:2: clashing givens")),
        "{}",
        r.stderr
    );
}

#[test]
fn many_short_malformed_lines_stay_in_flat_memory_at_any_thread_count() {
    let dir = tempdir();
    let file = dir.path().join("x.txt");
    std::fs::write(&file, "x\n".repeat(1_000_000)).unwrap();
    let name = file.to_str().unwrap();
    for j in ["-j1", "-j64", "-j1024"] {
        let Some((r, kib)) = with_peak_rss(&["solve", "-q", "--max-errors", "0", j, name]) else {
            return;
        };
        assert_eq!(r.code, 1, "{}", r.stderr);
        assert_eq!(r.stdout.iter().filter(|&&b| b == b'\n').count(), 1_000_000);
        assert!(kib < RSS_LIMIT_KIB, "{j}: peak RSS {kib} KiB");
    }
}

#[test]
fn negative_values_get_a_clear_message() {
    for args in [
        &["generate", "-1"][..],
        &["solve", "-j", "-1", PUZZLE][..],
        &["count", "--limit", "-1", PUZZLE][..],
        &["solve", "--max-errors", "-1", PUZZLE][..],
        &["generate", "3", "--seed", "-1"][..],
        &["bench", "--seconds", "-1", "x"][..],
    ] {
        let r = run(args);
        assert_eq!(r.code, 2, "{args:?}");
        assert!(
            !r.stderr.contains("unexpected argument"),
            "{args:?}: {}",
            r.stderr
        );
        assert!(r.stderr.contains("-1"), "{args:?}: {}", r.stderr);
        assert_eq!(r.stderr.lines().count(), 1, "{args:?}: {}", r.stderr);
    }
}
