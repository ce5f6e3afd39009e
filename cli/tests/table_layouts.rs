//! Tables in the layouts other writers give: compressed Arrow IPC (pyarrow's Feather default LZ4, zstd), dictionary
//! (pandas `category`) columns, many small row groups or batches; and the inputs a table run refuses with a clear
//! message: a table compressed whole, `--format`, columns of other types (named as Arrow names them). The fixtures
//! `data/puzzles.feather`, `puzzles.zstd.arrows`, `categories.parquet` and `categories.arrow` were written by
//! pyarrow and pandas (data/README.md) from the table of `data/puzzles.parquet`.

use std::sync::Arc;

use arrow_array::{ArrayRef, Int64Array, RecordBatch, StringArray};
use arrow_schema::{DataType, Field, Schema};

use crate::tables::{ids, read_table, refused, solutions, texts, write_parquet};
use crate::util::*;

/// The 100 solutions, then the markers of rows 101 (null) and 102 (3 characters).
fn solved_column() -> Vec<Option<String>> {
    let mut expect = solutions();
    expect.push(Some("error: malformed: the puzzle field is null".into()));
    expect.push(Some("error: malformed: expected 81 cells, found 3".into()));
    expect
}

#[test]
fn compressed_arrow_ipc_inputs_are_read_as_pyarrow_writes_them() {
    for (name, magic) in [
        ("puzzles.feather", &b"ARROW1"[..]),
        ("puzzles.zstd.arrows", &[0xFF; 4]),
    ] {
        let dir = tempdir();
        let out = dir.path().join("out");
        let r = run(&["solve", &data(name), "-o", out.to_str().unwrap()]);
        assert_eq!(r.code, 1, "{name}: {}", r.stderr);
        let bytes = std::fs::read(&out).unwrap();
        assert!(bytes.starts_with(magic), "{name}");
        let t = read_table(&bytes);
        assert_eq!(ids(&t), (1..=102).collect::<Vec<i64>>(), "{name}");
        assert_eq!(texts(&t, "answer"), solved_column(), "{name}");
    }
}

#[test]
fn table_outputs_are_compressed_as_asked_and_a_codec_the_kind_cannot_take_is_refused() {
    let dir = tempdir();
    for input in ["puzzles.arrow", "puzzles.arrows", "puzzles.parquet"] {
        let out = |tag: &str| dir.path().join(format!("{tag}.{input}"));
        let plain = {
            let r = run(&[
                "solve",
                &data(input),
                "--table-compression",
                "none",
                "-o",
                out("none").to_str().unwrap(),
            ]);
            assert_eq!(r.code, 1, "{input}: {}", r.stderr);
            std::fs::read(out("none")).unwrap()
        };
        // Arrow IPC is not compressed unless asked (as pyarrow's IPC writers): the default is `none`.
        if !input.ends_with("parquet") {
            let r = run(&[
                "solve",
                &data(input),
                "-o",
                out("default").to_str().unwrap(),
            ]);
            assert_eq!(r.code, 1);
            assert!(std::fs::read(out("default")).unwrap() == plain, "{input}");
        }
        for codec in ["lz4", "zstd"] {
            let r = run(&[
                "solve",
                &data(input),
                "--table-compression",
                codec,
                "-o",
                out(codec).to_str().unwrap(),
            ]);
            assert_eq!(r.code, 1, "{input} {codec}: {}", r.stderr);
            let bytes = std::fs::read(out(codec)).unwrap();
            assert!(bytes.len() < plain.len(), "{input} {codec}: compressed");
            let (t, p) = (read_table(&bytes), read_table(&plain));
            assert_eq!(texts(&t, "answer"), solved_column(), "{input} {codec}");
            assert_eq!(texts(&t, "question"), texts(&p, "question"));
            assert_eq!(ids(&t), ids(&p));
        }
        let r = run(&[
            "solve",
            &data(input),
            "--table-compression",
            "snappy",
            "-o",
            out("snappy").to_str().unwrap(),
        ]);
        if input.ends_with("parquet") {
            assert_eq!(r.code, 1, "{}", r.stderr);
        } else {
            assert_eq!(r.code, 2, "{input}: {}", r.stderr);
            let message = format!(
                "sudoku: {}: an Arrow IPC output cannot be compressed with snappy: it takes lz4, zstd or none",
                data(input)
            );
            assert!(r.stderr.starts_with(&message), "{}", r.stderr);
            assert!(!out("snappy").exists(), "{input}: no output");
        }
    }
}

#[test]
fn dictionary_columns_read_as_the_strings_they_stand_for() {
    // pandas `category` columns: dictionary<values=utf8, indices=int8> in Parquet, large_utf8 values in IPC.
    for name in ["categories.parquet", "categories.arrow"] {
        let dir = tempdir();
        let out = dir.path().join("out");
        let out_arg = out.to_str().unwrap();
        let r = run(&["solve", &data(name), "-o", out_arg]);
        assert_eq!(r.code, 1, "{name}: {}", r.stderr);
        assert!(r
            .stderr
            .contains(&format!("{name}: row 102: malformed: expected 81 cells")));
        let t = read_table(&std::fs::read(&out).unwrap());
        assert_eq!(texts(&t, "answer"), solved_column(), "{name}");
        // The solution column holds the claims checked, read through its dictionary too.
        let r = run(&[
            "check",
            &data(name),
            "--solution-column",
            "answer",
            "-o",
            out_arg,
        ]);
        assert_eq!(r.code, 1, "{name}: {}", r.stderr);
        let check = texts(&read_table(&std::fs::read(&out).unwrap()), "check");
        assert!(
            check[..100].iter().all(|c| c.as_deref() == Some("ok")),
            "{name}: {check:?}"
        );
    }
}

/// A table of `rows` rows of `data/puzzles.txt`'s puzzles (cycled) with an `id` column, written with row groups or
/// record batches of `per` rows, as the kind `ext` says.
pub(crate) fn layout(path: &std::path::Path, rows: usize, per: usize) -> Vec<String> {
    let puzzles = puzzle_lines(&read_data("puzzles.txt"));
    let all: Vec<String> = (0..rows)
        .map(|i| puzzles[i % puzzles.len()].clone())
        .collect();
    let schema = Arc::new(Schema::new(vec![
        Field::new("id", DataType::Int64, false),
        Field::new("question", DataType::Utf8, true),
    ]));
    let file = std::fs::File::create(path).unwrap();
    let batches = (0..rows).step_by(per.max(1)).map(|at| {
        let end = (at + per).min(rows);
        let columns: Vec<ArrayRef> = vec![
            Arc::new(Int64Array::from_iter_values(at as i64..end as i64)),
            Arc::new(StringArray::from_iter_values(&all[at..end])),
        ];
        RecordBatch::try_new(schema.clone(), columns).unwrap()
    });
    if path.extension().unwrap() == "parquet" {
        let props = parquet::file::properties::WriterProperties::builder()
            .set_max_row_group_size(per)
            .build();
        let mut w =
            parquet::arrow::ArrowWriter::try_new(file, schema.clone(), Some(props)).unwrap();
        for b in batches {
            w.write(&b).unwrap();
            w.flush().unwrap();
        }
        w.close().unwrap();
    } else {
        let mut w = arrow_ipc::writer::StreamWriter::try_new(file, &schema).unwrap();
        for b in batches {
            w.write(&b).unwrap();
        }
        w.finish().unwrap();
    }
    all
}

#[test]
fn many_small_row_groups_and_batches_are_read_whole_in_order_into_full_chunks() {
    let dir = tempdir();
    for (name, rows, per) in [
        ("one.parquet", 5000, 1),
        ("odd.parquet", 9000, 999),
        ("one.arrows", 5000, 1),
        ("empty.parquet", 0, 1),
    ] {
        let input = dir.path().join(name);
        let puzzles = layout(&input, rows, per);
        let out = dir.path().join(format!("out.{name}"));
        let r = run(&[
            "canon",
            input.to_str().unwrap(),
            "-j2",
            "-o",
            out.to_str().unwrap(),
        ]);
        assert_eq!(r.code, 0, "{name}: {}", r.stderr);
        let bytes = std::fs::read(&out).unwrap();
        let t = read_table(&bytes);
        let got = texts(&t, "question");
        assert_eq!(got.len(), rows, "{name}");
        assert!(
            got.iter()
                .zip(&puzzles)
                .all(|(g, p)| g.as_deref() == Some(p)),
            "{name}: the rows in order"
        );
        assert_eq!(ids(&t), (0..rows as i64).collect::<Vec<_>>(), "{name}");
        assert!(texts(&t, "canon")
            .iter()
            .all(|c| c.as_ref().unwrap().len() == 81));
        if name.ends_with("parquet") && rows > 0 {
            // The output's row groups are chunks of 4,096 rows whatever the input's row groups.
            let path = dir.path().join("read.parquet");
            std::fs::write(&path, &bytes).unwrap();
            let meta = parquet::file::reader::FileReader::metadata(
                &parquet::file::serialized_reader::SerializedFileReader::new(
                    std::fs::File::open(&path).unwrap(),
                )
                .unwrap(),
            )
            .clone();
            let sizes: Vec<i64> = meta.row_groups().iter().map(|g| g.num_rows()).collect();
            let mut expect = vec![4096; rows / 4096];
            expect.push((rows % 4096) as i64);
            assert_eq!(sizes, expect, "{name}");
        }
    }
}

#[test]
fn a_table_compressed_whole_is_refused_naming_the_file() {
    use std::io::Write;
    let dir = tempdir();
    let input = dir.path().join("puzzles.parquet.gz");
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(&std::fs::read(data_path("puzzles.parquet")).unwrap())
        .unwrap();
    std::fs::write(&input, gz.finish().unwrap()).unwrap();
    let out = dir.path().join("out");
    let arg = input.to_str().unwrap();
    let r = run(&["solve", arg, "-o", out.to_str().unwrap()]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr.starts_with(&format!(
            "sudoku: {arg}: a compressed Parquet input: decompress it first"
        )),
        "{}",
        r.stderr
    );
    assert!(!out.exists());
    // On standard input too.
    let r = run_in(None, &["solve"], &std::fs::read(&input).unwrap());
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr.contains("a compressed Parquet input"),
        "{}",
        r.stderr
    );
}

#[test]
fn a_text_format_on_a_table_and_columns_of_other_types_are_errors_that_say_so() {
    let dir = tempdir();
    let out = dir.path().join("out");
    // A list-typed puzzle column, written by our own reader's crate.
    let listed = dir.path().join("listed.arrow");
    {
        use arrow_array::builder::{ListBuilder, StringBuilder};
        let mut b = ListBuilder::new(StringBuilder::new());
        b.values().append_value("1.......");
        b.append(true);
        let column: ArrayRef = Arc::new(b.finish());
        let batch = RecordBatch::try_from_iter([("question", column)]).unwrap();
        let file = std::fs::File::create(&listed).unwrap();
        let mut w = arrow_ipc::writer::FileWriter::try_new(file, &batch.schema()).unwrap();
        w.write(&batch).unwrap();
        w.finish().unwrap();
    }
    let listed = listed.to_str().unwrap();
    let parquet = data("puzzles.parquet");
    let cases: [(&str, Vec<&str>, &str); 5] = [
        (
            &parquet,
            vec!["--format", "line"],
            "--format line is for text inputs; a Parquet input is read as a table",
        ),
        (
            &parquet,
            vec!["--format", "csv"],
            "--format csv is for text inputs; a Parquet input is read as a table",
        ),
        (
            &parquet,
            vec!["--column", "rating"],
            "column \"rating\" is of type float64, not text (utf8): puzzles are strings",
        ),
        (
            &parquet,
            vec!["--solution-column", "rating"],
            "the solution column \"rating\" is of type float64, not text (utf8): solutions are strings",
        ),
        (
            listed,
            vec![],
            "column \"question\" is of type list<utf8>, not text (utf8)",
        ),
    ];
    refused(&cases, &out);
}

#[test]
fn a_footer_pointing_outside_the_file_is_an_error_naming_it_not_a_panic() {
    // One byte of data/puzzles.parquet's footer changed: a column chunk's offset turns negative.
    let dir = tempdir();
    let mut bytes = std::fs::read(data_path("puzzles.parquet")).unwrap();
    assert_eq!(bytes[16249], 0xAE);
    bytes[16249] = 5;
    let input = dir.path().join("offset.parquet");
    std::fs::write(&input, &bytes).unwrap();
    let out = dir.path().join("out");
    let r = run(&[
        "solve",
        input.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr.starts_with(&format!(
            "sudoku: {}: cannot read the Parquet data (at row 1): ",
            input.to_str().unwrap()
        )) && r.stderr.contains("outside the file"),
        "{}",
        r.stderr
    );
    assert!(!out.exists());
}

#[test]
fn a_compressed_column_chunk_larger_uncompressed_than_the_file_is_read() {
    // 20,000 puzzles in one zstd column chunk, without a dictionary: 1.6 MB uncompressed in a far smaller file.
    let dir = tempdir();
    let input = dir.path().join("zstd.parquet");
    let puzzles = puzzle_lines(&read_data("puzzles.txt"));
    let all: Vec<&str> = (0..20_000)
        .map(|i| puzzles[i % puzzles.len()].as_str())
        .collect();
    let schema = Arc::new(Schema::new(vec![Field::new(
        "question",
        DataType::Utf8,
        false,
    )]));
    let batch = RecordBatch::try_new(
        schema.clone(),
        vec![Arc::new(StringArray::from_iter_values(&all)) as ArrayRef],
    )
    .unwrap();
    let props = parquet::file::properties::WriterProperties::builder()
        .set_dictionary_enabled(false)
        .set_compression(parquet::basic::Compression::ZSTD(Default::default()))
        .build();
    write_parquet(&input, &batch, Some(props));
    let size = std::fs::metadata(&input).unwrap().len();
    assert!(size < 81 * 20_000 / 4, "{size}");
    let out = dir.path().join("out.parquet");
    let r = run(&[
        "solve",
        input.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let t = read_table(&std::fs::read(&out).unwrap());
    let questions: Vec<Option<String>> = all.iter().map(|p| Some(p.to_string())).collect();
    assert_eq!(texts(&t, "question"), questions);
}

#[test]
fn a_long_value_in_any_column_leaves_the_parquet_output_s_statistics_short() {
    // A 100,000-byte note: the output's statistics keep at most 64 bytes of a value. They kept all of it, and a
    // value of some megabytes made page headers that pyarrow refuses to read.
    let dir = tempdir();
    let input = dir.path().join("long.parquet");
    let puzzles = puzzle_lines(&read_data("puzzles.txt"));
    let long = "z".repeat(100_000);
    let notes = ["a", long.as_str(), "b"];
    let batch = RecordBatch::try_from_iter([
        (
            "question",
            Arc::new(StringArray::from_iter_values(&puzzles[..3])) as ArrayRef,
        ),
        ("note", Arc::new(StringArray::from_iter_values(notes)) as _),
    ])
    .unwrap();
    write_parquet(&input, &batch, None);
    let out = dir.path().join("out.parquet");
    let r = run(&[
        "solve",
        "-q",
        input.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let t = read_table(&std::fs::read(&out).unwrap());
    let expected: Vec<Option<String>> = notes.iter().map(|n| Some(n.to_string())).collect();
    assert_eq!(texts(&t, "note"), expected);
    use parquet::file::reader::FileReader as _;
    let reader =
        parquet::file::reader::SerializedFileReader::new(std::fs::File::open(&out).unwrap())
            .unwrap();
    let mut seen = 0;
    for group in reader.metadata().row_groups() {
        for column in group.columns() {
            let stats = column.statistics().expect("statistics are written");
            for value in [stats.min_bytes_opt(), stats.max_bytes_opt()]
                .into_iter()
                .flatten()
            {
                assert!(value.len() <= 64, "{}", value.len());
                seen += 1;
            }
        }
    }
    assert!(seen >= 4, "{seen}");
}
