//! Parquet and Arrow IPC tables. The fixtures `data/puzzles.parquet`, `.arrow` (IPC file) and `.arrows` (IPC
//! stream) were written by pyarrow (see data/README.md): the 100 puzzles of `puzzles.txt` in a `question` column
//! with `id`, `answer` (their solutions) and `rating` columns, then a null puzzle and a 3-character one, in row
//! groups (record batches) of 40 rows. Every output keeps those columns and adds the answers; its values are read
//! back here with the `parquet`/`arrow` crates (the Python tests read them with pyarrow).

use arrow_array::cast::AsArray;
use arrow_array::{Array, RecordBatch};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

use crate::util::*;

const KINDS: [(&str, &[u8]); 3] = [
    ("puzzles.parquet", b"PAR1"),
    ("puzzles.arrow", b"ARROW1"),
    ("puzzles.arrows", &[0xFF; 4]),
];

/// Writes `batch` to `path` as a Parquet file, with the writer's `props` (the crate's defaults when `None`).
pub fn write_parquet(
    path: &std::path::Path,
    batch: &RecordBatch,
    props: Option<parquet::file::properties::WriterProperties>,
) {
    let file = std::fs::File::create(path).unwrap();
    let mut w = parquet::arrow::ArrowWriter::try_new(file, batch.schema(), props).unwrap();
    w.write(batch).unwrap();
    w.close().unwrap();
}

/// Every batch of a table in `bytes`, read by the kind its first bytes say.
pub fn read_table(bytes: &[u8]) -> Vec<RecordBatch> {
    if bytes.starts_with(b"PAR1") {
        let dir = tempdir();
        let path = dir.path().join("t.parquet");
        std::fs::write(&path, bytes).unwrap();
        ParquetRecordBatchReaderBuilder::try_new(std::fs::File::open(&path).unwrap())
            .unwrap()
            .build()
            .unwrap()
            .map(Result::unwrap)
            .collect()
    } else if bytes.starts_with(b"ARROW1") {
        arrow_ipc::reader::FileReader::try_new(std::io::Cursor::new(bytes.to_vec()), None)
            .unwrap()
            .map(Result::unwrap)
            .collect()
    } else {
        arrow_ipc::reader::StreamReader::try_new(std::io::Cursor::new(bytes.to_vec()), None)
            .unwrap()
            .map(Result::unwrap)
            .collect()
    }
}

/// The column `name` of every batch, as optional strings.
pub fn texts(batches: &[RecordBatch], name: &str) -> Vec<Option<String>> {
    batches
        .iter()
        .flat_map(|b| {
            let c = b
                .column_by_name(name)
                .unwrap_or_else(|| panic!("no {name}"));
            let c = c.as_string::<i32>();
            (0..c.len())
                .map(|i| c.is_valid(i).then(|| c.value(i).to_string()))
                .collect::<Vec<_>>()
        })
        .collect()
}

fn names(batches: &[RecordBatch]) -> Vec<String> {
    batches[0]
        .schema()
        .fields()
        .iter()
        .map(|f| f.name().clone())
        .collect()
}

pub fn ids(batches: &[RecordBatch]) -> Vec<i64> {
    batches
        .iter()
        .flat_map(|b| {
            b.column_by_name("id")
                .unwrap()
                .as_primitive::<arrow_array::types::Int64Type>()
                .values()
                .to_vec()
        })
        .collect()
}

pub fn solutions() -> Vec<Option<String>> {
    read_data("puzzles.solutions.txt")
        .lines()
        .map(|l| Some(l.to_string()))
        .collect()
}

#[test]
fn solve_keeps_every_column_and_adds_the_solutions_in_each_kind() {
    let input = read_table(&std::fs::read(data_path("puzzles.parquet")).unwrap());
    let puzzles = texts(&input, "question");
    for (name, magic) in KINDS {
        let dir = tempdir();
        let out = dir.path().join("out");
        let r = run(&["solve", &data(name), "-o", out.to_str().unwrap()]);
        assert_eq!(r.code, 1, "{name}: {}", r.stderr);
        assert!(r.stderr.contains(&format!(
            "{name}: row 101: malformed: the puzzle field is null"
        )));
        assert!(r
            .stderr
            .contains(&format!("{name}: row 102: malformed: expected 81 cells")));
        let bytes = std::fs::read(&out).unwrap();
        assert!(bytes.starts_with(magic), "{name}: the input's kind");
        let t = read_table(&bytes);
        // `answer` is the solution column: filled in place.
        assert_eq!(names(&t), ["id", "question", "answer", "rating"], "{name}");
        assert_eq!(ids(&t), (1..=102).collect::<Vec<i64>>());
        assert_eq!(texts(&t, "question"), puzzles);
        let solved = texts(&t, "answer");
        assert_eq!(solved[..100], solutions()[..], "{name}");
        assert_eq!(
            solved[100..],
            [
                Some("error: malformed: the puzzle field is null".to_string()),
                Some("error: malformed: expected 81 cells, found 3".to_string())
            ]
        );
    }
}

#[test]
fn the_same_bytes_whatever_the_threads_chunks_and_input_path() {
    for (name, _) in KINDS {
        let dir = tempdir();
        let out = |tag: &str| dir.path().join(tag).to_str().unwrap().to_string();
        let first = run(&["solve", &data(name), "-j1", "-o", &out("a")]);
        assert_eq!(first.code, 1);
        let expect = std::fs::read(out("a")).unwrap();
        let path = data(name);
        for extra in [
            &["-j2"][..],
            &["-j3", "--chunk-size", "700"],
            &["--no-mmap"],
        ] {
            let mut args = vec!["solve", &*path];
            args.extend_from_slice(extra);
            let r = run(&args);
            assert_eq!(r.code, 1, "{name} {extra:?}: {}", r.stderr);
            assert!(r.stdout == expect, "{name} {extra:?}");
        }
        // Standard input: a stream is read as it comes, a file is copied to a temporary file first.
        let r = run_in(None, &["solve"], &std::fs::read(data_path(name)).unwrap());
        assert_eq!(r.code, 1, "{name} on stdin: {}", r.stderr);
        assert!(r.stdout == expect, "{name} on stdin");
    }
}

#[test]
fn each_job_keeps_the_columns_appends_its_own_or_rewrites_in_place() {
    let dir = tempdir();
    for (cmd, added) in [
        ("check", &["check"][..]),
        ("count", &["count"]),
        ("canon", &["canon"]),
        ("rate", &["level", "score", "guesses", "hardest"]),
        ("shuffle", &[]),
        ("dedupe", &[]),
    ] {
        let out = dir.path().join(format!("{cmd}.parquet"));
        let r = run(&[
            cmd,
            &data("puzzles.parquet"),
            "--solution-column",
            "answer",
            "-o",
            out.to_str().unwrap(),
        ]);
        assert_eq!(r.code, 1, "{cmd}: {}", r.stderr);
        let t = read_table(&std::fs::read(&out).unwrap());
        let mut expect = vec!["id", "question", "answer", "rating"];
        expect.extend_from_slice(added);
        assert_eq!(names(&t), expect, "{cmd}");
        assert_eq!(ids(&t), (1..=102).collect::<Vec<i64>>(), "{cmd}");
        let questions = texts(&t, "question");
        let answers = texts(&t, "answer");
        match cmd {
            // The named solution column holds the claims checked.
            "check" => {
                let check = texts(&t, "check");
                assert!(check[..100].iter().all(|c| c.as_deref() == Some("ok")));
                assert!(check[100..]
                    .iter()
                    .all(|c| c.as_deref().unwrap().starts_with("error: malformed")));
            }
            "count" => assert!(texts(&t, "count")[..100]
                .iter()
                .all(|c| c.as_deref() == Some("1"))),
            // A shuffled solution still solves its shuffled puzzle.
            "shuffle" => {
                for (q, a) in questions[..100].iter().zip(&answers[..100]) {
                    let (q, a) = (q.as_deref().unwrap(), a.as_deref().unwrap());
                    assert!(solves(q, a), "{q} {a}");
                }
                assert_ne!(questions[..100], texts(&read_input(), "question")[..100]);
            }
            _ => {}
        }
        if matches!(cmd, "shuffle" | "dedupe") {
            assert_eq!(
                questions[100],
                Some("error: malformed: the puzzle field is null".into())
            );
        }
    }
}

#[test]
fn shuffle_finds_the_answer_column_without_flags_and_transforms_it_with_the_question() {
    let dir = tempdir();
    // The table `cmd` writes for puzzles.parquet (whose two bad rows fail).
    let output_of = |cmd: &str| {
        let out = dir.path().join(format!("{cmd}.parquet"));
        let r = run(&[cmd, &data("puzzles.parquet"), "-o", out.to_str().unwrap()]);
        assert_eq!(r.code, 1, "{cmd}: {}", r.stderr);
        read_table(&std::fs::read(&out).unwrap())
    };
    let t = output_of("shuffle");
    assert_eq!(names(&t), ["id", "question", "answer", "rating"]);
    let (questions, answers) = (texts(&t, "question"), texts(&t, "answer"));
    let originals = texts(&read_input(), "question");
    let mut shuffled = String::new();
    for i in 0..100 {
        let (q, a) = (
            questions[i].as_deref().unwrap(),
            answers[i].as_deref().unwrap(),
        );
        assert!(solves(q, a), "row {}: {q} {a}", i + 1);
        shuffled.push_str(&format!("{q}\n"));
    }
    assert_ne!(questions[..100], originals[..100]);
    // Each shuffled question is equivalent to its original; it has one solution, so its answer is the original
    // answer transformed alike.
    let canon = |text: &str| run_in(None, &["canon", "-q", "-"], text.as_bytes()).out();
    let original: String = originals[..100]
        .iter()
        .map(|q| format!("{}\n", q.as_deref().unwrap()))
        .collect();
    assert_eq!(canon(&shuffled), canon(&original));
    // `check` finds the answer column alike.
    let check = texts(&output_of("check"), "check");
    assert!(check[..100].iter().all(|c| c.as_deref() == Some("ok")));
}

/// Runs `solve INPUT -o OUT EXTRA...` for each case and asserts exit 2, a message naming the input, and no output.
pub fn refused(cases: &[(&str, Vec<&str>, &str)], out: &std::path::Path) {
    for (input, extra, message) in cases {
        let mut args = vec!["solve", input, "-o", out.to_str().unwrap()];
        args.extend_from_slice(extra);
        let r = run(&args);
        assert_eq!(r.code, 2, "{input} {extra:?}: {}", r.stderr);
        assert!(
            r.stderr.starts_with(&format!("sudoku: {input}: {message}")),
            "{input} {extra:?}: {}",
            r.stderr
        );
        assert!(!out.exists(), "{input} {extra:?}: no output");
    }
}

fn read_input() -> Vec<RecordBatch> {
    read_table(&std::fs::read(data_path("puzzles.parquet")).unwrap())
}

#[test]
fn bad_tables_and_columns_fail_naming_the_file_and_leave_no_output() {
    let dir = tempdir();
    let whole = std::fs::read(data_path("puzzles.parquet")).unwrap();
    let cut = dir.path().join("cut.parquet");
    std::fs::write(&cut, &whole[..whole.len() / 2]).unwrap();
    let mut bad = whole.clone();
    bad[4..whole.len() / 2].fill(b'x');
    let corrupt = dir.path().join("corrupt.parquet");
    std::fs::write(&corrupt, &bad).unwrap();
    let arrow = std::fs::read(data_path("puzzles.arrows")).unwrap();
    let cut_stream = dir.path().join("cut.arrows");
    std::fs::write(&cut_stream, &arrow[..arrow.len() - 3000]).unwrap();
    let out = dir.path().join("out.parquet");
    let cases: [(&str, Vec<&str>, &str); 6] = [
        (
            cut.to_str().unwrap(),
            vec![],
            "not a whole Parquet file: it starts with PAR1 but does not end with it",
        ),
        (
            corrupt.to_str().unwrap(),
            vec![],
            "cannot read the Parquet data",
        ),
        (
            cut_stream.to_str().unwrap(),
            vec![],
            "cannot read the Arrow IPC stream data",
        ),
        (
            "data/puzzles.parquet",
            vec!["--column", "rating"],
            "column \"rating\" is of type float64, not text",
        ),
        (
            "data/puzzles.parquet",
            vec!["--column", "nope"],
            "no column named \"nope\"; the columns: \"id\", \"question\", \"answer\", \"rating\"",
        ),
        (
            "data/puzzles.parquet",
            vec!["data/puzzles.txt"],
            "a Parquet input must be the only input of its run",
        ),
    ];
    refused(&cases, &out);
    let r = run(&["solve", "data/puzzles.parquet", "--json"]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("--json is for text inputs"),
        "{}",
        r.stderr
    );
}
