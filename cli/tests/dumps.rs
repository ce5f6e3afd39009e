//! Dumps as they come. Compressed inputs and outputs: files made by the real tools (the fixtures of `data/` were written by gzip -9n,
//! zstd -19, xz -9 and bzip2 -9; `kaggle.csv.gz` is two gzip members; more are made at run time by the tools when
//! they are installed) give exactly the bytes of the plain file, from files and standard input, on every batch
//! subcommand; truncated and corrupt ones fail naming the file, with exit 2 and no output file. CSV columns named
//! by `--column` and `--solution-column` (the layout of the Hugging Face sets: `question`, `answer`).

use std::path::Path;
use std::process::Command;

use crate::util::*;

const FIXTURES: [&str; 4] = [
    "puzzles.txt.gz",
    "puzzles.txt.zst",
    "puzzles.txt.xz",
    "puzzles.txt.bz2",
];

/// The compressing tools and the extension of what they write.
const TOOLS: [(&str, &str); 4] = [
    ("gzip", "gz"),
    ("zstd", "zst"),
    ("xz", "xz"),
    ("bzip2", "bz2"),
];

/// `TOOL -c < plain`, or `None` with a notice when the tool is not installed.
fn compress_with(tool: &str, plain: &Path) -> Option<Vec<u8>> {
    let out = Command::new(tool)
        .arg("-c")
        .stdin(std::fs::File::open(plain).unwrap())
        .output();
    match out {
        Ok(o) if o.status.success() => Some(o.stdout),
        _ => {
            eprintln!("notice: {tool} not usable here; its run-time part skipped");
            None
        }
    }
}

#[test]
fn the_fixtures_give_the_plain_files_answers_from_files_and_stdin() {
    let expect = read_data("puzzles.solutions.txt");
    for name in FIXTURES {
        let path = data(name);
        for extra in [&[][..], &["--no-mmap"], &["-j1"]] {
            let mut args = vec!["solve", &*path];
            args.extend_from_slice(extra);
            let r = run(&args);
            assert_eq!(r.code, 0, "{name} {extra:?}: {}", r.stderr);
            assert!(r.out() == expect, "{name} {extra:?}");
        }
        let bytes = std::fs::read(data_path(name)).unwrap();
        let r = run_in(None, &["solve"], &bytes);
        assert_eq!(r.code, 0, "{name} on stdin: {}", r.stderr);
        assert!(r.out() == expect, "{name} on stdin");
        let r = run_in(None, &["solve", "-"], &bytes);
        assert!(r.out() == expect, "{name} on stdin as -");
    }
}

#[test]
fn a_two_member_gzip_csv_is_read_whole() {
    let plain = run(&["solve", &data("kaggle.csv")]);
    assert_eq!(plain.code, 0, "{}", plain.stderr);
    let packed = run(&["solve", &data("kaggle.csv.gz")]);
    assert_eq!(packed.code, 0, "{}", packed.stderr);
    assert_eq!(packed.out(), plain.out());
    assert_eq!(packed.out().lines().count(), 21);
}

#[test]
fn every_batch_subcommand_reads_compressed_inputs() {
    for sub in [
        &["count"][..],
        &["check"],
        &["canon"],
        &["dedupe"],
        &["shuffle", "--seed", "7"],
        &["rate"],
        &["solve", "--json"],
    ] {
        let plain = run(&[sub, &[&*data("puzzles.txt")]].concat());
        for name in FIXTURES {
            let r = run(&[sub, &[&*data(name)]].concat());
            assert_eq!(r.code, plain.code, "{sub:?} {name}: {}", r.stderr);
            assert!(r.stdout == plain.stdout, "{sub:?} {name}");
        }
    }
}

#[test]
fn files_made_at_run_time_by_the_tools_match_the_plain_ones() {
    let dir = tempfile::tempdir().unwrap();
    // Larger than a few decoding blocks (256 KiB each) and chunks, with a grid file and a CSV beside it.
    let big = dir.path().join("big.txt");
    std::fs::write(&big, read_data("puzzles.txt").repeat(100)).unwrap();
    let inputs = [
        big,
        data_path("grid.txt").into(),
        data_path("kaggle.csv").into(),
    ];
    for plain in &inputs {
        let expect = run(&["solve", "-j2", plain.to_str().unwrap()]);
        assert_eq!(expect.code, 0, "{}", expect.stderr);
        for (tool, ext) in TOOLS {
            let Some(packed) = compress_with(tool, plain) else {
                continue;
            };
            let path = dir.path().join(format!("in.{ext}"));
            std::fs::write(&path, &packed).unwrap();
            let r = run(&["solve", "-j2", path.to_str().unwrap()]);
            assert_eq!(r.code, 0, "{tool} {}: {}", plain.display(), r.stderr);
            assert!(r.stdout == expect.stdout, "{tool} {}", plain.display());
            let r = run_in(None, &["solve", "-j2"], &packed);
            assert!(
                r.stdout == expect.stdout,
                "{tool} on stdin {}",
                plain.display()
            );
        }
    }
}

#[test]
fn truncated_or_corrupt_input_fails_naming_the_file_and_leaves_no_output() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.txt");
    for name in FIXTURES {
        let good = std::fs::read(data_path(name)).unwrap();
        let mut corrupt = good.clone();
        let mid = corrupt.len() / 2;
        for b in &mut corrupt[mid..mid + 8] {
            *b ^= 0x5a;
        }
        let mut trailing = good.clone();
        trailing.extend_from_slice(b"not compressed\n");
        for (what, bytes) in [
            ("truncated", good[..good.len() - 6].to_vec()),
            ("half", good[..good.len() / 2].to_vec()),
            ("corrupt", corrupt),
            ("trailing", trailing),
        ] {
            let path = dir.path().join(format!("{what}-{name}"));
            std::fs::write(&path, &bytes).unwrap();
            let r = run(&["solve", path.to_str().unwrap(), "-o", out.to_str().unwrap()]);
            assert_eq!(r.code, 2, "{what} {name}: {}", r.stderr);
            let shown = format!("sudoku: {}: read failed: ", path.display());
            assert!(r.stderr.starts_with(&shown), "{what} {name}: {}", r.stderr);
            assert!(!out.exists(), "{what} {name}");
            let r = run_in(None, &["solve"], &bytes);
            assert_eq!(r.code, 2, "{what} {name} on stdin: {}", r.stderr);
            assert!(
                r.stderr.starts_with("sudoku: <stdin>: read failed: "),
                "{}",
                r.stderr
            );
        }
    }
}

#[test]
fn a_plain_file_that_merely_starts_like_bzip2_is_plain() {
    let r = run_in(None, &["solve"], b"BZh9\n");
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.out().starts_with("error: "), "{}", r.out());
}

/// `TOOL -dc FILE`, or `None` with a notice when the tool is not installed.
fn decompress_with(tool: &str, packed: &Path) -> Option<Vec<u8>> {
    match Command::new(tool).arg("-dc").arg(packed).output() {
        Ok(o) if o.status.success() => Some(o.stdout),
        Ok(o) => panic!(
            "{tool} -dc {}: {}",
            packed.display(),
            String::from_utf8_lossy(&o.stderr)
        ),
        Err(_) => {
            eprintln!("notice: {tool} not usable here; its run-time part skipped");
            None
        }
    }
}

#[test]
fn output_named_for_a_codec_is_compressed_and_the_tools_read_it() {
    let dir = tempfile::tempdir().unwrap();
    let expect = read_data("puzzles.solutions.txt");
    for (tool, ext) in TOOLS {
        let out = dir.path().join(format!("out.txt.{ext}"));
        let r = run(&["solve", &data("puzzles.txt"), "-o", out.to_str().unwrap()]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        let packed = std::fs::read(&out).unwrap();
        assert!(packed.len() < expect.len() / 2, "{ext}: not compressed");
        // The same bytes come back through our own reader, and through the tool when it is here.
        let back = run(&["canon", out.to_str().unwrap()]);
        let plain = run_in(None, &["canon"], expect.as_bytes());
        assert!(
            back.code == 0 && back.stdout == plain.stdout,
            "{ext}: {}",
            back.stderr
        );
        if let Some(text) = decompress_with(tool, &out) {
            assert!(text == expect.as_bytes(), "{tool}");
        }
        // Standard output with --compress: the same stream.
        let r = run(&["solve", &data("puzzles.txt"), "--compress", tool]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        let piped = dir.path().join(format!("piped.{ext}"));
        std::fs::write(&piped, &r.stdout).unwrap();
        if let Some(text) = decompress_with(tool, &piped) {
            assert!(text == expect.as_bytes(), "{tool} --compress");
        }
    }
}

#[test]
fn a_failed_run_leaves_no_compressed_output_and_compress_wants_stdout() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.gz");
    let r = run(&[
        "solve",
        "--fail-fast",
        &data("bad.txt"),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(!out.exists());
    let r = run(&[
        "solve",
        &data("puzzles.txt"),
        "-o",
        out.to_str().unwrap(),
        "--compress",
        "xz",
    ]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(!out.exists());
    let r = run(&["solve", &data("puzzles.txt"), "--compress", "zip"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr.contains("expected gzip, zstd, xz or bzip2"),
        "{}",
        r.stderr
    );
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

const HARD: &str =
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
const HARD_SOLUTION: &str =
    "417369825632158947958724316825437169791586432346912758289643571573291684164875293";

#[test]
fn named_csv_columns_are_read_and_filled_and_other_fields_kept() {
    // The Hugging Face layout: `question` is a default puzzle name; `answer` is named.
    let csv = format!("source,question,answer,rating\nforum,{HARD},,3.5\n\"a,b\",{HARD},,1\n");
    let r = run_in(
        None,
        &["solve", "--solution-column", "Answer"],
        csv.as_bytes(),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let expect = format!(
        "source,question,answer,rating\nforum,{HARD},{HARD_SOLUTION},3.5\n\"a,b\",{HARD},{HARD_SOLUTION},1\n"
    );
    assert_eq!(r.out(), expect);
    // check reads the claims from the named column, and a wrong claim fails only its own record.
    let wrong = expect.replacen(HARD_SOLUTION, &HARD_SOLUTION.replace("417", "471"), 1);
    let r = run_in(
        None,
        &["check", "--solution-column", "answer"],
        wrong.as_bytes(),
    );
    assert_eq!(r.code, 1, "{}", r.stderr);
    let rows: Vec<&str> = r
        .stdout
        .split(|&b| b == b'\n')
        .map(|l| std::str::from_utf8(l).unwrap())
        .collect();
    assert!(
        rows[1].starts_with("forum,") && !rows[1].ends_with(",ok"),
        "{}",
        rows[1]
    );
    assert!(rows[2].ends_with(",ok"), "{}", rows[2]);
    // --column picks another column than the default names would (and a one-column CSV is still a CSV).
    let two = format!("puzzle,board\n{},{HARD}\n", ".".repeat(81));
    let r = run_in(None, &["solve", "--column", "BOARD"], two.as_bytes());
    assert_eq!(
        r.out(),
        format!(
            "puzzle,board,solution\n{},{HARD},{HARD_SOLUTION}\n",
            ".".repeat(81)
        )
    );
    let r = run_in(
        None,
        &["count", "--column", "board"],
        format!("board\n{HARD}\n").as_bytes(),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.out(), format!("board,count\n{HARD},1\n"));
}

#[test]
fn a_named_column_that_is_missing_is_an_error_naming_it() {
    let csv = format!("quizzes,solutions\n{HARD},\n");
    for (flag, name) in [("--column", "board"), ("--solution-column", "answer")] {
        let r = run_in(None, &["solve", flag, name], csv.as_bytes());
        assert_eq!(r.code, 2, "{}", r.stderr);
        assert!(
            r.stderr.contains(&format!(
                "<stdin>: line 1: the CSV header has no column named \"{name}\""
            )),
            "{}",
            r.stderr
        );
        assert!(r.stdout.is_empty());
    }
}

#[test]
fn a_named_column_that_is_not_one_column_is_an_error_naming_it() {
    // Two fields with the name asked for, or the solution column named as the puzzle column: which one is meant
    // is unclear, so nothing is written rather than the first one filled by a guess.
    for (header, flag, name) in [
        ("id,Board,board", "--column", "board"),
        ("quizzes,answer,ANSWER", "--solution-column", "answer"),
        ("quizzes,solutions", "--solution-column", "quizzes"),
        ("id,board", "--column=board --solution-column", "board"),
    ] {
        let csv = format!("{header}\n1,{HARD},\n");
        let mut args = vec!["solve"];
        args.extend(flag.split(' '));
        args.push(name);
        let r = run_in(None, &args, csv.as_bytes());
        assert_eq!(r.code, 2, "{header}: {}", r.stderr);
        assert!(
            r.stderr.contains(&format!(
                "<stdin>: line 1: the CSV header has the column \"{name}\" twice, or as both the puzzle and the solution column: \"{header}\""
            )),
            "{header}: {}",
            r.stderr
        );
        assert!(r.stdout.is_empty(), "{header}");
    }
}

#[test]
fn explain_reads_compressed_files_and_stdin_and_names_a_truncated_one() {
    let plain = run(&["explain", &data("grid.txt")]);
    assert_eq!(plain.code, 0, "{}", plain.stderr);
    let gz = std::fs::read(data_path("puzzles.txt.gz")).unwrap();
    let from_plain = run(&["explain", &data("puzzles.txt")]);
    for r in [
        run(&["explain", &data("puzzles.txt.gz")]),
        run(&["explain", &data("puzzles.txt.xz")]),
        run_in(None, &["explain", "-"], &gz),
    ] {
        assert_eq!(r.code, from_plain.code, "{}", r.stderr);
        assert!(r.out() == from_plain.out());
    }
    let dir = tempdir();
    let cut = dir.path().join("cut.gz");
    std::fs::write(&cut, &gz[..gz.len() / 2]).unwrap();
    let r = run(&["explain", cut.to_str().unwrap()]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("cut.gz") && r.stderr.contains("gzip"),
        "{}",
        r.stderr
    );
    assert!(r.stdout.is_empty());
}

/// `data/puzzles.txt` 100 times over (more text than two blocks the decoder hands on, and than a chunk), compressed by the crate's
/// own writer into `dir/NAME`; returns the compressed bytes and the true answers.
fn many_times(dir: &Path, name: &str) -> (Vec<u8>, Vec<u8>) {
    let path = dir.join(name);
    let mut sink =
        sudoku_batch::output::Sink::create(&sudoku_batch::output::Target::File(path.clone()))
            .unwrap();
    sink.write_all(read_data("puzzles.txt").repeat(100).as_bytes())
        .unwrap();
    sink.finish().unwrap();
    let expect = read_data("puzzles.solutions.txt").repeat(100).into_bytes();
    (std::fs::read(&path).unwrap(), expect)
}

#[test]
fn a_damaged_stream_whose_made_up_records_reached_stdout_says_the_output_is_not_to_be_trusted() {
    let dir = tempdir();
    let out = dir.path().join("out.txt");
    for name in ["many.txt.gz", "many.txt.bz2"] {
        let (good, expect) = many_times(dir.path(), name);
        let r = run_in(None, &["solve", "-q"], &good);
        assert!(r.code == 0 && r.stdout == expect, "{name}: {}", r.stderr);
        // Seeded flips of one bit, until one decodes to text that is not the true text and yet reaches the
        // checksum: its records, made up, went to standard output before the damage was found. (With -j1 a chunk
        // is written before the next is read; more threads read a window of chunks ahead, so this input, smaller
        // than the window, would be found damaged before any output.)
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut found = false;
        for _ in 0..300 {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            let at = 20 + (seed >> 33) as usize % (good.len() - 40);
            let mut bad = good.clone();
            bad[at] ^= 1 << ((seed >> 29) & 7);
            let r = run_in(None, &["solve", "-q", "-j1"], &bad);
            if r.stdout.is_empty() || expect.starts_with(&r.stdout) {
                // Nothing made up reached standard output (the damage was found first, or the text was right).
                assert!(
                    r.code == 2 || r.stdout == expect,
                    "{name} at {at}: {}",
                    r.stderr
                );
                continue;
            }
            found = true;
            assert_eq!(r.code, 2, "{name} at {at}: {}", r.stderr);
            // The made-up records' own failures may come first; the run's error is the last line.
            let last = r.stderr.lines().last().unwrap_or_default();
            assert!(
                last.starts_with("sudoku: <stdin>: read failed: ")
                    && last.contains("; the output already written is not to be trusted"),
                "{name} at {at}: {}",
                r.stderr
            );
            // With -o, nothing is written: no file, and nothing to distrust.
            let path = dir.path().join(format!("bad-{name}"));
            std::fs::write(&path, &bad).unwrap();
            let r = run(&[
                "solve",
                "-q",
                "-j1",
                path.to_str().unwrap(),
                "-o",
                out.to_str().unwrap(),
            ]);
            assert_eq!(r.code, 2, "{name} at {at}: {}", r.stderr);
            assert!(r.stderr.contains("read failed"), "{}", r.stderr);
            assert!(!r.stderr.contains("not to be trusted"), "{}", r.stderr);
            assert!(!out.exists(), "{name} at {at}");
            assert!(r.stdout.is_empty());
            break;
        }
        assert!(found, "{name}: no seeded flip gave made-up records");
    }
}
