//! `sudoku solve` and `sudoku -s`: answers checked against the rules and the golden files of `data/`, every
//! failure kind, the input forms (files, stdin, argument; line, grid, CSV), and the promise that chunked parallel
//! runs write exactly the bytes of the sequential run.

use crate::util::*;

const HARD: &str =
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

// ---- answers -------------------------------------------------------------------------------------------------

#[test]
fn line_file_matches_golden_solutions_and_obeys_the_rules() {
    let r = run(&["solve", &data("puzzles.txt")]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.out(), read_data("puzzles.solutions.txt"));
    for (p, s) in puzzle_lines(&read_data("puzzles.txt"))
        .iter()
        .zip(r.out().lines())
    {
        assert!(solves(p, s), "{p} -> {s}");
    }
    assert!(
        r.stderr.starts_with("sudoku: 100 records, 100 solved; "),
        "{}",
        r.stderr
    );
}

#[test]
fn grid_file_matches_golden_solutions() {
    let r = run(&["solve", &data("grid.txt")]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.out(), read_data("grid.solutions.txt"));
    let puzzles: Vec<String> = read_data("grid.txt")
        .split("\n\n")
        .map(grid_to_line)
        .collect();
    let solutions: Vec<String> = r.out().split("\n\n").map(grid_to_line).collect();
    assert_eq!(puzzles.len(), 10);
    assert_eq!(solutions.len(), 10);
    for (p, s) in puzzles.iter().zip(&solutions) {
        assert!(solves(p, s));
    }
}

#[test]
fn kaggle_csv_gets_its_solution_column_filled() {
    // The file already holds independently obtained solutions: blank them and get them back.
    let kaggle = read_data("kaggle.csv");
    let blanked: String = kaggle
        .lines()
        .map(|l| match l.split_once(',') {
            Some((q, _)) if q != "quizzes" => format!("{q},\n"),
            _ => format!("{l}\n"),
        })
        .collect();
    let r = run_in(None, &["solve", "-"], blanked.as_bytes());
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.out(), kaggle);
    let r = run(&["solve", &data("kaggle.csv")]);
    assert_eq!(r.out(), kaggle);
}

#[test]
fn csv_header_variants() {
    let kaggle = read_data("kaggle.csv");
    let rows: Vec<(&str, &str)> = kaggle
        .lines()
        .skip(1)
        .map(|l| l.split_once(',').unwrap())
        .collect();
    // id,puzzle,solution,clues,difficulty with `.` blanks and an empty solution column.
    let mut text = String::from("id,puzzle,solution,clues,difficulty\r\n");
    for (i, (q, _)) in rows.iter().enumerate() {
        text.push_str(&format!(
            "{i},{},,{},1.5\r\n",
            q.replace('0', "."),
            81 - q.matches('0').count()
        ));
    }
    let r = run_in(None, &["solve"], text.as_bytes());
    assert_eq!(r.code, 0, "{}", r.stderr);
    let out = r.out();
    let mut lines = out.lines();
    assert_eq!(lines.next(), Some("id,puzzle,solution,clues,difficulty"));
    for (i, (line, (_, s))) in lines.zip(&rows).enumerate() {
        let f: Vec<&str> = line.split(',').collect();
        assert_eq!(f.len(), 5);
        assert_eq!((f[0], f[2]), (i.to_string().as_str(), *s));
    }
    // puzzle only: a solution column is added.
    let text: String = std::iter::once("puzzle\n".to_string())
        .chain(rows.iter().map(|(q, _)| format!("{q}\n")))
        .collect();
    let r = run_in(None, &["solve"], text.as_bytes());
    let expect: String = std::iter::once("puzzle,solution\n".to_string())
        .chain(rows.iter().map(|(q, s)| format!("{q},{s}\n")))
        .collect();
    assert_eq!(r.out(), expect);
}

#[test]
fn a_puzzle_given_as_an_argument() {
    let r = run(&["solve", HARD]);
    assert_eq!(r.code, 0);
    assert_eq!(r.out().trim_end().len(), 81);
    assert!(solves(HARD, r.out().trim_end()));
    let r = run(&["solve", &HARD[..80]]);
    assert_eq!(r.code, 1);
    assert_eq!(r.out(), "error: malformed: expected 81 cells, found 80\n");
    assert!(r
        .stderr
        .starts_with("sudoku: <argument>:1: malformed: expected 81 cells, found 80\n"));
    // Too few cells to be taken for a puzzle, and no such file: the message says both.
    let r = run(&["solve", "123"]);
    assert_eq!(
        (r.code, r.stdout.as_slice(), r.stderr.as_str()),
        (
            2,
            &b""[..],
            "sudoku: 123: no such file, and not a puzzle either: a puzzle has 81 cells (1-9, and 0 or . for \
             blanks), this has 3\n"
        )
    );
}

#[test]
fn bench_prints_nothing_before_an_error_about_its_only_file() {
    let r = run(&["bench", "--seconds", "0", "nosuch.txt"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert_eq!(r.out(), "");
    assert!(r.stderr.starts_with("sudoku: nosuch.txt: "), "{}", r.stderr);
    // With a good file after it, the table (head and one row) follows the error.
    let r = run(&[
        "bench",
        "--seconds",
        "0",
        "nosuch.txt",
        &data("puzzles.txt"),
    ]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    let out = r.out();
    assert_eq!(out.lines().count(), 3, "{out}");
    assert!(out.starts_with("first-solution search"), "{out}");
}

// ---- failures ------------------------------------------------------------------------------------------------

#[test]
fn mixed_good_and_bad_records_match_bad_expected() {
    let r = run(&["solve", &data("bad.txt")]);
    assert_eq!(r.code, 1);
    let expected = read_data("bad.expected");
    let out = r.out();
    assert_eq!(out.lines().count(), expected.lines().count());
    for (got, want) in out.lines().zip(expected.lines()) {
        match want.strip_prefix("solved ") {
            Some(solution) => assert_eq!(got, solution),
            None => assert_eq!(got, format!("error: {want}")),
        }
    }
    assert_eq!(
        r.messages(),
        [
            "sudoku: data/bad.txt:2: malformed: cell 17 (row 2, col 8): invalid character 'x'",
            "sudoku: data/bad.txt:3: malformed: expected 81 cells, found 80",
            "sudoku: data/bad.txt:4: clashing givens: row 4 has two 7s (r4c2, r4c6)",
            "sudoku: data/bad.txt:6: no solution",
        ]
    );
    assert!(r
        .stderr
        .contains("sudoku: 7 records, 3 solved, 2 malformed, 1 clashing givens, 1 no solution; "));
}

#[test]
fn several_solutions_fail_only_with_unique() {
    let r = run(&["solve", &data("several_solutions.txt")]);
    assert_eq!(r.code, 0);
    let puzzles = puzzle_lines(&read_data("several_solutions.txt"));
    for (p, s) in puzzles.iter().zip(r.out().lines()) {
        assert!(solves(p, s));
    }
    let r = run(&["solve", "--unique", &data("several_solutions.txt")]);
    assert_eq!(r.code, 1);
    assert_eq!(
        r.out(),
        "error: more than one solution\n".repeat(puzzles.len())
    );
    assert!(r
        .stderr
        .contains("sudoku: data/several_solutions.txt:2: more than one solution\n"));
    assert!(r
        .stderr
        .contains(&format!("0 solved, {} several solutions", puzzles.len())));
}

#[test]
fn no_solution_records_are_marked() {
    let r = run(&["solve", "--unique", &data("no_solution.txt")]);
    assert_eq!(r.code, 1);
    let n = puzzle_lines(&read_data("no_solution.txt")).len();
    assert_eq!(r.out(), "error: no solution\n".repeat(n));
}

#[test]
fn truncated_last_record_is_marked_not_dropped() {
    let text = format!("{HARD}\n{}", &HARD[..40]);
    let r = run_in(None, &["solve"], text.as_bytes());
    assert_eq!(r.code, 1);
    let out = r.out();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2);
    assert!(solves(HARD, lines[0]));
    assert_eq!(lines[1], "error: malformed: expected 81 cells, found 40");
    assert!(r.stderr.contains("sudoku: <stdin>:2: malformed"));

    let grids = read_data("grid.txt");
    let cut: String = grids
        .lines()
        .take(10 + 5)
        .map(|l| format!("{l}\n"))
        .collect();
    let r = run_in(None, &["solve"], cut.as_bytes());
    assert_eq!(r.code, 1);
    assert!(
        r.out()
            .ends_with("\n\nerror: malformed: expected 9 rows, found 5\n"),
        "{}",
        r.out()
    );
    assert!(r
        .stderr
        .contains("sudoku: <stdin>:11: malformed: expected 9 rows, found 5"));
}

#[test]
fn empty_input_and_only_comments_give_empty_output() {
    for text in ["", "# nothing here\n\n   \n# still nothing"] {
        let r = run_in(None, &["solve"], text.as_bytes());
        assert_eq!(r.code, 0);
        assert!(r.stdout.is_empty());
        assert!(
            r.stderr.starts_with("sudoku: 0 records, 0 solved; "),
            "{}",
            r.stderr
        );
    }
    let dir = tempdir();
    let empty = dir.path().join("empty.txt");
    std::fs::write(&empty, "").unwrap();
    let r = run(&["solve", empty.to_str().unwrap()]);
    assert_eq!((r.code, r.stdout.len()), (0, 0));
}

#[test]
fn fail_fast_stops_at_the_first_failed_record() {
    let r = run(&["solve", "--fail-fast", &data("bad.txt")]);
    assert_eq!(r.code, 1);
    let out = r.out();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(
        lines[1],
        "error: malformed: cell 17 (row 2, col 8): invalid character 'x'"
    );
    assert_eq!(r.messages().len(), 1);
    assert!(r.stderr.contains("2 records, 1 solved, 1 malformed"));
    assert!(r.stderr.contains("stopped at the first failed record"));
    // With -o the file is not created.
    let dir = tempdir();
    let out = dir.path().join("out.txt");
    let r = run(&[
        "solve",
        "--fail-fast",
        "-j2",
        "--chunk-size",
        "1",
        &data("bad.txt"),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(r.code, 1);
    assert!(!out.exists());
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    // The summary names no output file (it said "output in OUT").
    assert!(!r.stderr.contains("output in"), "{}", r.stderr);
}

/// Under -q a failure list cut short by --max-errors still says so (it ended silently); -q --max-errors 0 is
/// silent.
#[test]
fn quiet_still_tells_that_failures_were_held_back() {
    let r = run(&["solve", "-q", "--max-errors", "1", &data("bad.txt")]);
    assert_eq!(r.code, 1);
    assert_eq!(r.messages().len(), 2, "{}", r.stderr);
    assert!(
        r.stderr.contains("3 more failed records not shown"),
        "{}",
        r.stderr
    );
    let r = run(&["solve", "-q", "--max-errors", "0", &data("bad.txt")]);
    assert_eq!((r.code, r.stderr.as_str()), (1, ""));
}

#[test]
fn max_errors_limits_messages_not_counts() {
    let r = run(&["solve", "--max-errors", "1", &data("bad.txt")]);
    assert_eq!(r.code, 1);
    assert_eq!(
        r.messages(),
        [
            "sudoku: data/bad.txt:2: malformed: cell 17 (row 2, col 8): invalid character 'x'",
            "sudoku: 3 more failed records not shown (--max-errors 1; --max-errors all shows every one)",
        ]
    );
    assert!(r
        .stderr
        .contains("2 malformed, 1 clashing givens, 1 no solution"));
}

#[test]
fn failure_messages_stop_at_100_by_default_and_all_shows_every_one() {
    let input = "x\n".repeat(250);
    let r = run_in(None, &["solve", "-"], input.as_bytes());
    assert_eq!(r.code, 1);
    let messages = r.messages();
    let per_record: Vec<&String> = messages
        .iter()
        .filter(|m| m.starts_with("sudoku: <stdin>:"))
        .collect();
    assert_eq!(per_record.len(), 100, "{}", r.stderr);
    assert_eq!(per_record[99].split(':').nth(2), Some("100"));
    assert!(messages.contains(
        &"sudoku: 150 more failed records not shown (--max-errors 100; --max-errors all shows every one)".into()
    ));
    assert!(r.stderr.contains("250 malformed"), "{}", r.stderr);
    assert_eq!(r.out().lines().count(), 250);
    let r = run_in(
        None,
        &["solve", "--max-errors", "all", "-"],
        input.as_bytes(),
    );
    let messages = r.messages();
    assert_eq!(
        messages
            .iter()
            .filter(|m| m.starts_with("sudoku: <stdin>:"))
            .count(),
        250
    );
    assert!(!r.stderr.contains("not shown"), "{}", r.stderr);
}

#[test]
fn stats_json_and_quiet() {
    let r = run(&["solve", "--stats", "json", "-q", &data("bad.txt")]);
    let json = r.stderr.lines().last().unwrap();
    assert!(json.starts_with(
        "{\"records\":7,\"solved\":3,\"failed\":4,\"failures\":{\"malformed\":2,\"clashing_givens\":1,\
         \"no_solution\":1,\"several_solutions\":0,\"wrong_solution\":0},\"dropped\":0,\"seconds\":"
    ), "{json}");
    assert!(json.ends_with("\"stopped\":false}"));
    let r = run(&["solve", "-q", &data("puzzles.txt")]);
    assert_eq!((r.code, r.stderr.as_str()), (0, ""));
}

// ---- the chunking invariant ----------------------------------------------------------------------------------

/// Runs every variant of scheduling and input reading on `file` and checks that each writes the bytes and the
/// messages of the plain sequential run.
fn assert_same_bytes_every_way(file: &str, extra: &[&str]) {
    let args = |more: &[&str]| -> Vec<String> {
        let mut a = vec!["solve".to_string(), file.to_string()];
        a.extend(extra.iter().map(|s| s.to_string()));
        a.extend(more.iter().map(|s| s.to_string()));
        a
    };
    let call = |a: Vec<String>| run(&a.iter().map(String::as_str).collect::<Vec<_>>());
    let reference = call(args(&["-j1"]));
    assert!(!reference.stdout.is_empty());
    for more in [
        &["-j1", "--chunk-size", "1"][..],
        &["-j2", "--chunk-size", "1"],
        &["-j2", "--chunk-size", "97"],
        &["-j3", "--chunk-size", "1000"],
        &["-j2"],
        &["-j2", "--chunk-size", "1", "--no-mmap"],
        &["-j1", "--chunk-size", "50", "--no-mmap"],
    ] {
        let r = call(args(more));
        assert_eq!(r.code, reference.code, "{file} {more:?}");
        assert!(
            r.stdout == reference.stdout,
            "{file} {more:?}: output differs"
        );
        assert_eq!(r.messages(), reference.messages(), "{file} {more:?}");
    }
    let text =
        std::fs::read(std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).join(file))
            .unwrap();
    let mut a: Vec<&str> = vec!["solve", "-j2", "--chunk-size", "13"];
    a.extend(extra);
    let r = run_in(None, &a, &text);
    assert!(
        r.stdout == reference.stdout,
        "{file} from stdin: output differs"
    );
    let renamed: Vec<String> = reference
        .messages()
        .iter()
        .map(|m| m.replace(file, "<stdin>"))
        .collect();
    assert_eq!(r.messages(), renamed);
}

/// A temporary copy of several data files, joined, in the crate's `target` folder (so the path is relative).
fn joined(name: &str, parts: &[&str]) -> String {
    let dir =
        std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).join("target/test-inputs");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join(name), parts.concat()).unwrap();
    format!("target/test-inputs/{name}")
}

#[test]
fn chunked_equals_sequential_for_lines() {
    let crlf = read_data("several_solutions.txt").replace('\n', "\r\n");
    let file = joined(
        "mixed-lines.txt",
        &[
            &read_data("bad.txt"),
            &read_data("puzzles.txt"),
            "\n\n# gap\n",
            &crlf,
            &HARD[..50],
        ],
    );
    assert_same_bytes_every_way(&file, &[]);
    assert_same_bytes_every_way(&file, &["--unique"]);
}

#[test]
fn chunked_equals_sequential_for_grids() {
    let grids = read_data("grid.txt");
    let eight: String = grids.lines().take(8).map(|l| format!("{l}\n")).collect();
    let file = joined(
        "mixed-grids.txt",
        &[
            "# boards\n\n",
            &grids,
            "\n\n",
            &eight,
            "\n",
            &grids.replace('\n', "\r\n"),
            "\n\n\n",
            &eight,
        ],
    );
    assert_same_bytes_every_way(&file, &[]);
}

#[test]
fn chunked_equals_sequential_for_csv() {
    let kaggle = read_data("kaggle.csv");
    let rows: String = kaggle.lines().skip(1).map(|l| format!("{l}\n")).collect();
    let file = joined(
        "mixed.csv",
        &[
            &kaggle,
            "# comment\n1,2,3\n",
            &rows.replace("00", "11"),
            &rows,
            "x",
        ],
    );
    assert_same_bytes_every_way(&file, &[]);
}

#[test]
fn quoted_line_breaks_in_csv_give_the_same_well_formed_rows_at_any_chunk_size() {
    let puzzles = puzzle_lines(&read_data("puzzles.txt"));
    let mut text = String::from("id,puzzle,solution,note\n");
    for (i, p) in puzzles.iter().take(30).enumerate() {
        match i % 3 {
            0 => text.push_str(&format!("\"id\n{i}\",{p},,x\n")),
            1 => text.push_str(&format!("{i},{p},,\"two\r\nlines\"\n")),
            _ => text.push_str(&format!("\"{i}\",{p},,\"a \"\"quoted\"\" note\"\n")),
        }
    }
    let file = joined("quoted-breaks.csv", &[&text]);
    assert_same_bytes_every_way(&file, &[]);
    let r = run(&["solve", "-q", &file]);
    assert_eq!(r.code, 1);
    let out = r.out();
    let rows: Vec<&str> = out.lines().collect();
    assert_eq!(rows.len(), 1 + 10 * 2 + 10 * 2 + 10);
    // No row is left with an open quote: each has an even number of quotes, so no reader joins two rows.
    assert!(
        rows.iter().all(|r| r.matches('"').count() % 2 == 0),
        "{out}"
    );
    // The whole records are solved; each half of a broken one is marked, the puzzle kept in its place.
    let solved: Vec<&str> = rows
        .iter()
        .filter(|r| !r.contains("error: "))
        .copied()
        .collect();
    assert_eq!(solved.len(), 1 + 10);
    for row in &solved[1..] {
        let f: Vec<&str> = row.split(',').collect();
        assert!(solves(f[1], f[2]), "{row}");
    }
    assert_eq!(
        rows[1],
        "\"id\",,error: malformed: unterminated quoted CSV field (a record is one line: a quoted field cannot span \
         lines),"
    );
    assert_eq!(
        rows[2],
        format!(
            "\"0\"\"\",{},error: malformed: a quote inside an unquoted CSV field (the end of a quoted field that \
             spans lines?),x",
            puzzles[0]
        )
    );
}

#[test]
fn chunked_equals_sequential_on_a_shared_dataset() {
    let Some(path) = shared_data("puzzles3_magictour_top1465") else {
        return;
    };
    let p = path.to_str().unwrap();
    let one = run(&["solve", "-j1", p]);
    let two = run(&["solve", "-j2", "--chunk-size", "4096", p]);
    assert_eq!(one.code, 0);
    assert!(one.stdout == two.stdout);
    let puzzles = puzzle_lines(&std::fs::read_to_string(&path).unwrap());
    assert_eq!(one.out().lines().count(), puzzles.len());
    for (p, s) in puzzles.iter().zip(one.out().lines()) {
        assert!(solves(p, s), "{p}");
    }
}

// ---- inputs, outputs, exit codes -----------------------------------------------------------------------------

#[test]
fn stdin_by_dash_and_by_default() {
    let text = read_data("puzzles.txt");
    for args in [&["solve", "-"][..], &["solve"], &["solve", "-j1", "-"]] {
        let r = run_in(None, args, text.as_bytes());
        assert_eq!(r.code, 0, "{args:?}");
        assert_eq!(r.out(), read_data("puzzles.solutions.txt"), "{args:?}");
    }
    let r = run_in(None, &["solve", "-", "-"], b"");
    assert_eq!(r.code, 2);
    assert!(r
        .stderr
        .contains("standard input (-) is named more than once"));
}

#[test]
fn several_inputs_in_order_with_their_own_names() {
    let r = run(&["solve", &data("bad.txt"), &data("puzzles.txt")]);
    assert_eq!(r.code, 1);
    let expect = format!(
        "{}{}",
        run(&["solve", &data("bad.txt")]).out(),
        read_data("puzzles.solutions.txt")
    );
    assert_eq!(r.out(), expect);
    assert!(r.stderr.contains("sudoku: 107 records, 103 solved"));
}

/// CSV inputs with the same header, one after the other, give one CSV: the header once (it came again at the start
/// of each input's rows, which a CSV reader took for a record). A different header, or other records between,
/// still starts its input's rows.
#[test]
fn csv_inputs_with_the_same_header_give_one_csv() {
    let dir = tempdir();
    let kaggle = read_data("kaggle.csv");
    let (header, rows) = kaggle.split_once('\n').unwrap();
    let rows: Vec<&str> = rows.lines().collect();
    let part = |name: &str, head: &str, rows: &[&str]| {
        let p = dir.path().join(name);
        std::fs::write(&p, format!("{head}\n{}\n", rows.join("\n"))).unwrap();
        p.to_str().unwrap().to_string()
    };
    let (a, b) = (
        part("a.csv", header, &rows[..3]),
        part("b.csv", header, &rows[3..5]),
    );
    let whole = part("whole.csv", header, &rows[..5]);
    for job in ["solve", "check", "canon", "rate"] {
        let r = run(&[job, "-q", &a, &b]);
        assert_eq!(r.out(), run(&[job, "-q", &whole]).out(), "{job}");
    }
    let other = part("other.csv", "puzzle,solution", &rows[3..5]);
    let r = run(&["solve", "-q", &a, &other]);
    assert_eq!(r.out().matches("quizzes,solutions\n").count(), 1);
    assert_eq!(r.out().matches("puzzle,solution\n").count(), 1);
    let r = run(&["solve", "-q", &a, &data("puzzles.txt"), &b]);
    assert_eq!(r.out().matches(&format!("{header}\n")).count(), 2);
}

/// A CSV row with a long text column (a Hugging Face set's step-by-step explanation, here 20,000 bytes) is a record
/// like any other: solved, its fields kept (rows past 4096 bytes were marked as too long, every field dropped).
#[test]
fn a_csv_row_with_a_long_text_column_is_answered_and_kept() {
    let kaggle = read_data("kaggle.csv");
    let row = kaggle.lines().nth(1).unwrap();
    let (puzzle, solution) = row.split_once(',').unwrap();
    let explanation = format!("\"{}\"", "step, then ".repeat(2_000));
    let text = format!("question,answer,explanation\n{puzzle},,{explanation}\n");
    let r = run_in(None, &["solve", "-q", "-"], text.as_bytes());
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(
        r.out(),
        format!("question,answer,explanation\n{puzzle},{solution},{explanation}\n")
    );
}

/// Malformed CSV rows lose no field: a row longer than the header is kept whole with the marker after it (the
/// marker took the place of one of its fields), a shorter one is filled to the header's width (`solve` wrote it
/// short), and text after a closing quote makes the row malformed (it was dropped and the puzzle solved).
#[test]
fn malformed_csv_rows_keep_every_field() {
    let kaggle = read_data("kaggle.csv");
    let puzzle = kaggle.lines().nth(1).unwrap().split_once(',').unwrap().0;
    let marker = |n, found| format!("\"error: malformed: expected {n} CSV fields, found {found}\"");
    let long = format!("id,puzzle,note\n7,{puzzle},a,b,c\n");
    for (job, column) in [
        ("solve", "solution"),
        ("check", "check"),
        ("count", "count"),
    ] {
        let r = run_in(None, &[job, "-q", "-"], long.as_bytes());
        assert_eq!(r.code, 1, "{job}: {}", r.stderr);
        let expect = format!(
            "id,puzzle,note,{column}\n7,{puzzle},a,b,c,{}\n",
            marker(3, 5)
        );
        assert_eq!(r.out(), expect, "{job}");
    }
    let short = format!("id,puzzle,solution,note\n5\n6,{puzzle}\n");
    let r = run_in(None, &["solve", "-q", "-"], short.as_bytes());
    assert_eq!(
        r.out(),
        format!(
            "id,puzzle,solution,note\n5,,{},\n6,{puzzle},{},\n",
            marker(4, 1),
            marker(4, 2)
        )
    );
    let r = run_in(None, &["shuffle", "-q", "-"], short.as_bytes());
    assert_eq!(
        r.out(),
        format!(
            "id,puzzle,solution,note\n5,{},,\n6,{},,\n",
            marker(4, 1),
            marker(4, 2)
        )
    );
    let after = format!("quizzes,note\n\"{puzzle}\"junk,n\n");
    let r = run_in(None, &["solve", "-q", "-"], after.as_bytes());
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert_eq!(
        r.out(),
        format!(
            "quizzes,note,solutions\n\"\"\"{puzzle}\"\"junk\",n,\
             error: malformed: text after the closing quote of a CSV field\n"
        )
    );
    assert!(r
        .stderr
        .contains("<stdin>:2: malformed: text after the closing quote"));
}

#[test]
fn output_file_appears_whole() {
    let dir = tempdir();
    let out = dir.path().join("solutions.txt");
    std::fs::write(&out, "old").unwrap();
    let r = run(&["solve", &data("puzzles.txt"), "-o", out.to_str().unwrap()]);
    assert_eq!(r.code, 0);
    assert!(r.stdout.is_empty());
    assert_eq!(
        std::fs::read_to_string(&out).unwrap(),
        read_data("puzzles.solutions.txt")
    );
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        1,
        "no temporary file left"
    );
    // A fatal error leaves the earlier file untouched.
    std::fs::write(&out, "old").unwrap();
    let r = run(&[
        "solve",
        &data("puzzles.txt"),
        "no-such-file.txt",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(r.code, 2);
    assert_eq!(
        r.stderr,
        "sudoku: no-such-file.txt: No such file or directory (os error 2)\n"
    );
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "old");
    let r = run(&[
        "solve",
        &data("puzzles.txt"),
        "-o",
        "/nonexistent-dir/out.txt",
    ]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr
            .starts_with("sudoku: /nonexistent-dir/out.txt: cannot create output file"),
        "{}",
        r.stderr
    );
}

#[test]
fn full_disk_on_stdout_is_an_error() {
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        eprintln!("notice: /dev/full not available; test skipped");
        return;
    };
    let out = sudoku()
        .args(["solve", &data("puzzles.txt")])
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .stdout(full)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("<stdout>: write failed: No space left on device"),
        "{err}"
    );
}

#[test]
fn a_closed_output_pipe_ends_the_run_quietly() {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;
    let big = joined("big.txt", &vec![read_data("puzzles.txt").as_str(); 300]);
    for threads in ["-j1", "-j2"] {
        let mut child = sudoku()
            .args(["solve", threads, &big])
            .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut first = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut first)
            .unwrap();
        assert_eq!(first.len(), 82);
        // The reader is gone now.
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{threads}");
        assert_eq!(String::from_utf8_lossy(&out.stderr), "", "{threads}");
    }
}

#[test]
fn forced_format_overrides_detection() {
    let r = run(&["solve", "--format", "line", &data("grid.txt")]);
    assert_eq!(r.code, 1);
    assert!(r.out().lines().all(|l| l.starts_with("error: malformed")));
    assert_eq!(r.out().lines().count(), 90);
    let r = run(&["solve", "--format", "csv", &data("puzzles.txt")]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr
            .contains("data/puzzles.txt: line 3: the CSV header names no puzzle column"),
        "{}",
        r.stderr
    );
}

#[test]
fn usage_errors_exit_2() {
    for args in [
        &["solve", "-j", "0"][..],
        &["solve", "--format", "xml"],
        &["solve", "--bogus"],
        &[],
    ] {
        let r = run(args);
        assert_eq!(r.code, 2, "{args:?}");
    }
    let r = run(&["solve", "no-such-file.txt"]);
    assert_eq!(r.code, 2);
    assert_eq!(
        r.stderr,
        "sudoku: no-such-file.txt: No such file or directory (os error 2)\n"
    );
    // A directory is refused in the same words by the batch subcommands and by explain.
    for cmd in ["solve", "explain"] {
        let r = run(&[cmd, "data"]);
        assert_eq!(
            (r.code, r.stderr.as_str()),
            (2, "sudoku: data: is a directory\n"),
            "{cmd}"
        );
    }
}

// ---- the classic form ----------------------------------------------------------------------------------------

#[test]
fn classic_s_writes_sudoku_txt_in_the_current_directory() {
    let dir = tempdir();
    let grid =
        std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).join("data/grid.txt");
    let r = run_in(Some(dir.path()), &["-s", grid.to_str().unwrap()], b"");
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.is_empty());
    let written = std::fs::read_to_string(dir.path().join("sudoku.txt")).unwrap();
    assert_eq!(written, read_data("grid.solutions.txt"));
    assert!(written.lines().all(|l| !l.ends_with(' ')));
}

#[test]
fn classic_s_errors_exit_2_with_a_message() {
    let dir = tempdir();
    let r = run_in(Some(dir.path()), &["-s", "missing.txt"], b"");
    assert_eq!(r.code, 2);
    assert_eq!(
        r.stderr,
        "sudoku: missing.txt: No such file or directory (os error 2)\n"
    );
    assert!(!dir.path().join("sudoku.txt").exists());
    let r = run_in(Some(dir.path()), &["-s"], b"");
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("a value is required for '-s <FILE>'"));
    let r = run_in(Some(dir.path()), &["-s", "x", "solve"], b"");
    assert_eq!(r.code, 2);
}

#[test]
fn quiet_with_max_errors_0_is_silent_and_q_is_accepted_everywhere() {
    let r = run(&["solve", "-q", "--max-errors", "0", &data("bad.txt")]);
    assert_eq!(r.code, 1);
    assert_eq!(r.stderr, "");
    assert_eq!(r.out().lines().count(), 7);
    // Without -q the count of held-back messages is told.
    let r = run(&["solve", "--max-errors", "0", &data("bad.txt")]);
    assert!(
        r.stderr
            .contains("sudoku: 4 more failed records not shown (--max-errors 0; --max-errors all shows every one)"),
        "{}",
        r.stderr
    );
    for args in [
        &["generate", "3", "-q"][..],
        &["rate", "-q", "data/puzzles.txt"],
        &["explain", "-q", "data/puzzles.txt"],
        &["generate", "-q", "--puzzles", "2", "--format", "line"],
    ] {
        let r = run(args);
        assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
        assert_eq!(r.stderr, "", "{args:?}");
    }
    let dir = tempdir();
    let r = run_in(Some(dir.path()), &["-q", "-c", "1"], b"");
    assert_eq!((r.code, r.stderr.as_str()), (0, ""));
    assert!(dir.path().join("sudoku.txt").is_file());
    // One thread rule everywhere.
    for sub in ["solve", "rate", "generate"] {
        let r = run(&[sub, "-j", "100000", "data/puzzles.txt"]);
        assert_eq!(r.code, 2);
        assert!(
            r.stderr
                .contains("the thread count must be a whole number from 1 to 1024"),
            "{sub}: {}",
            r.stderr
        );
    }
}

// ---- pipe mode -----------------------------------------------------------------------------------------------

#[test]
fn keep_lines_gives_one_output_line_per_input_line() {
    let puzzles = read_data("puzzles.txt");
    let bad = read_data("bad.txt");
    let expected_bad: Vec<String> = read_data("bad.expected")
        .lines()
        .map(String::from)
        .collect();
    // Comments, blank lines, CRLF, bad records and a last line without a newline, on small chunks and two threads.
    let input = format!(
        "# top\r\n\n{puzzles}\n  \n{}\n# end",
        bad.trim_end().replace('\n', "\r\n")
    );
    let in_lines: Vec<&str> = input.split('\n').collect();
    for args in [
        vec!["solve", "--keep-lines", "-j", "1"],
        vec!["solve", "--keep-lines", "-j", "2", "--chunk-size", "100"],
    ] {
        let r = run_in(None, &args, input.as_bytes());
        assert_eq!(r.code, 1, "{}", r.stderr);
        let out = r.out();
        let out_lines: Vec<&str> = out.strip_suffix('\n').unwrap().split('\n').collect();
        assert_eq!(out_lines.len(), in_lines.len(), "{args:?}");
        let mut bad_seen = 0;
        for (i, o) in in_lines.iter().zip(&out_lines) {
            let i = i.strip_suffix('\r').unwrap_or(i);
            if i.trim().is_empty() || i.starts_with('#') {
                assert_eq!(i, *o, "passed through unchanged");
            } else if let Some(msg) = o.strip_prefix("error: ") {
                assert!(expected_bad.iter().any(|e| e == msg), "{msg}");
                bad_seen += 1;
            } else {
                assert!(solves(i, o), "{i} -> {o}");
            }
        }
        assert_eq!(bad_seen, 4);
    }
    // A CSV keeps its leading comment lines before the header; grids have no pipe mode.
    let csv = "# made by hand\nquizzes,solutions\n\n".to_string() + HARD + ",\n";
    let r = run_in(None, &["solve", "--keep-lines"], csv.as_bytes());
    let out = r.out();
    let out: Vec<&str> = out.lines().collect();
    assert_eq!(out.len(), 4);
    assert_eq!(&out[..3], ["# made by hand", "quizzes,solutions", ""]);
    let (p, s) = out[3].split_once(',').unwrap();
    assert!(p == HARD && solves(HARD, s));
    let r = run(&["solve", "--keep-lines", &data("grid.txt")]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr
            .contains("reads line or CSV records, not 9-line grids"),
        "{}",
        r.stderr
    );
}

/// Pipe mode on a pipe or FIFO whose writer stays open and waits: each line is answered as soon as it is written,
/// not when a chunk fills or the writer closes. (The 10 s bound is a correctness bound: without the answer the
/// run would wait for ever.)
#[test]
fn keep_lines_answers_each_line_of_a_pipe_or_fifo_kept_open() {
    use std::io::{BufRead, BufReader, Write};
    use std::process::Stdio;
    use std::sync::mpsc;
    use std::time::Duration;
    let dir = tempdir();
    let fifo = dir.path().join("fifo");
    let have_fifo = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success());
    if !have_fifo {
        skipped("mkfifo not usable: the FIFO part");
    }
    let fifo_arg = fifo.to_str().unwrap();
    let mut runs = vec![
        vec!["solve", "--keep-lines", "-j1", "-q"],
        vec!["solve", "--keep-lines", "-j2", "-q"],
    ];
    if have_fifo {
        runs.push(vec!["solve", "--keep-lines", "-j2", "-q", fifo_arg]);
    }
    for args in runs {
        let mut child = sudoku()
            .args(&args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut input: Box<dyn Write> = if args.last() == Some(&fifo_arg) {
            Box::new(std::fs::OpenOptions::new().write(true).open(&fifo).unwrap())
        } else {
            Box::new(child.stdin.take().unwrap())
        };
        let (tx, rx) = mpsc::channel();
        let mut out = BufReader::new(child.stdout.take().unwrap());
        let reader = std::thread::spawn(move || loop {
            let mut line = String::new();
            if out.read_line(&mut line).unwrap_or(0) == 0 || tx.send(line).is_err() {
                return;
            }
        });
        for (line, check) in [
            (HARD, &(|o: &str| solves(HARD, o)) as &dyn Fn(&str) -> bool),
            ("# a comment", &|o: &str| o == "# a comment"),
            ("x", &|o: &str| o.starts_with("error: malformed")),
            (HARD, &|o: &str| solves(HARD, o)),
        ] {
            input.write_all(format!("{line}\n").as_bytes()).unwrap();
            input.flush().unwrap();
            let answer = rx
                .recv_timeout(Duration::from_secs(10))
                .unwrap_or_else(|_| {
                    panic!("{args:?}: no answer to {line:?} while the input is open")
                });
            assert!(
                check(answer.trim_end_matches('\n')),
                "{args:?}: {line:?} -> {answer:?}"
            );
        }
        drop(input);
        let status = child.wait().unwrap();
        reader.join().unwrap();
        assert_eq!(status.code(), Some(1), "{args:?}: one malformed record");
    }
}
