//! Corrupt Parquet and Arrow IPC tables never abort the process: seeded mutations of the fixtures `data/puzzles.*`
//! run through the library end in a summary or an error naming the file, with no panic escaping; and the crashers
//! kept in `fuzz/corpus/table/` (`crash-*`: panics inside the arrow and parquet readers; allocations of hundreds of
//! gigabytes to petabytes sized by a footer's list count, an IPC block's or message's body length, a compressed IPC
//! buffer read past a block's wrong metadata length, a Parquet page header's uncompressed size or a binary field
//! in it; a page whose bytes no longer match its checksum, once solved as if nothing were wrong) end as exit 2 with
//! one line naming the file, on a path and on standard input.

use std::panic::AssertUnwindSafe;
use std::path::PathBuf;

use sudoku_batch::batch::{self, BatchOptions, InputSpec};
use sudoku_batch::output::Target;
use sudoku_batch::tools::Solve;
use sudoku_batch::Threads;

use crate::util::*;

/// A xorshift generator: the same mutations on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Changes `bytes` in one of four ways: a byte set, a bit flipped, a span of up to 8 bytes filled with an extreme
/// value, or four bytes made an extreme 32-bit integer (lengths and offsets are 32- or 64-bit). Says what it did.
fn mutate(bytes: &mut [u8], rng: &mut Rng) -> String {
    let at = rng.below(bytes.len() - 4);
    match rng.below(4) {
        0 => {
            let v = rng.next() as u8;
            bytes[at] = v;
            format!("byte {at} set to {v:#04x}")
        }
        1 => {
            let bit = rng.below(8);
            bytes[at] ^= 1 << bit;
            format!("bit {bit} of byte {at} flipped")
        }
        2 => {
            let v = [0x00, 0xFF, 0x7F, 0x80][rng.below(4)];
            let n = 1 + rng.below(8);
            let end = (at + n).min(bytes.len());
            bytes[at..end].fill(v);
            format!("bytes {at}..{end} filled with {v:#04x}")
        }
        _ => {
            let v = [0x7FFF_FFFFu32, 0x8000_0000, 0xFFFF_FFFF][rng.below(3)];
            bytes[at..at + 4].copy_from_slice(&v.to_le_bytes());
            format!("bytes {at}..{} set to {v:#x}", at + 4)
        }
    }
}

#[test]
fn seeded_mutations_of_each_table_kind_end_in_a_summary_or_an_error_naming_the_file() {
    let dir = tempdir();
    let out = dir.path().join("out");
    let opts = BatchOptions {
        threads: Threads::Count(1),
        ..BatchOptions::default()
    };
    for (seed, name) in [
        (0x9E37_79B9_7F4A_7C15u64, "puzzles.parquet"),
        (0xD1B5_4A32_D192_ED03, "puzzles.arrow"),
        (0x8CB9_2BA7_2F3D_8DD7, "puzzles.arrows"),
    ] {
        let whole = std::fs::read(data_path(name)).unwrap();
        let mut rng = Rng(seed);
        let (mut finished, mut refused) = (0, 0);
        for i in 0..300 {
            let mut bytes = whole.clone();
            let what = mutate(&mut bytes, &mut rng);
            let input = dir.path().join(format!("{i}.{name}"));
            std::fs::write(&input, &bytes).unwrap();
            let run = std::panic::catch_unwind(AssertUnwindSafe(|| {
                batch::run_batch(
                    vec![InputSpec::Path(input.clone())],
                    &Target::File(out.clone()),
                    &Solve::default(),
                    &opts,
                    &mut (),
                )
            }))
            .unwrap_or_else(|_| panic!("{name} with {what}: a panic escaped the run"));
            match run {
                Ok(summary) => {
                    let written = std::fs::read(&out).expect("a finished run writes its output");
                    assert_eq!(
                        summary.bytes_out,
                        written.len() as u64,
                        "{name} with {what}"
                    );
                    std::fs::remove_file(&out).unwrap();
                    finished += 1;
                }
                Err(e) => {
                    let message = e.to_string();
                    assert!(
                        message.starts_with(&format!("{}: ", input.display())),
                        "{name} with {what}: {message}"
                    );
                    assert!(!out.exists(), "{name} with {what}: no output");
                    refused += 1;
                }
            }
            // The input is left as it was.
            assert!(
                std::fs::read(&input).unwrap() == bytes,
                "{name} with {what}"
            );
            std::fs::remove_file(&input).unwrap();
        }
        // The mutations reach both outcomes: the test is not all refusals at the magic bytes.
        assert!(
            finished > 0 && refused > 0,
            "{name}: {finished} finished, {refused} refused"
        );
    }
}

/// The `crash-*` files of the table fuzz corpus, sorted.
fn crashers() -> Vec<PathBuf> {
    let dir = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).join("fuzz/corpus/table");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.file_name()
                .unwrap()
                .to_str()
                .unwrap()
                .starts_with("crash-")
        })
        .collect();
    files.sort();
    assert!(files.len() >= 3, "{}", dir.display());
    files
}

#[test]
fn each_table_crasher_is_exit_2_with_one_line_naming_the_file_and_no_output() {
    let dir = tempdir();
    let out = dir.path().join("out");
    for path in crashers() {
        let p = path.to_str().unwrap();
        let r = run(&["solve", p, "-o", out.to_str().unwrap()]);
        assert_eq!(r.code, 2, "{p}: {}", r.stderr);
        assert!(
            r.stderr.starts_with(&format!("sudoku: {p}: ")) && r.stderr.lines().count() == 1,
            "{p}: one line naming the file, no panic message: {}",
            r.stderr
        );
        assert!(!out.exists(), "{p}: no output");
        // On standard input: a stream read as it comes, a file copied to a temporary file first.
        let r = run_in(None, &["solve"], &std::fs::read(&path).unwrap());
        assert_eq!(r.code, 2, "{p} on stdin: {}", r.stderr);
        assert!(
            r.stderr.starts_with("sudoku: <stdin>: ") && r.stderr.lines().count() == 1,
            "{p} on stdin: {}",
            r.stderr
        );
    }
}

#[test]
fn sizes_a_table_declares_past_its_bytes_are_named_before_anything_is_allocated() {
    let dir = tempdir();
    let out = dir.path().join("out");
    for (file, message) in [
        (
            "crash-footer-list-count.parquet",
            "corrupt Parquet data (footer and schema): the footer is not valid Thrift: a list declares more \
             elements than bytes are left",
        ),
        (
            "crash-block-body-length.arrow",
            "corrupt Arrow IPC file data (footer and schema): record batch 1 is placed at offset 320 with 320 + \
             4503599627370496 bytes, outside the file's 1480 bytes of messages",
        ),
        (
            "crash-message-body-length.arrows",
            "cannot read the Arrow IPC stream data (at row 1): Io error: message 2: its body declares \
             4503599627370496 bytes, and the stream ends after 840",
        ),
    ] {
        let path = format!("fuzz/corpus/table/{file}");
        let r = run(&["solve", &path, "-o", out.to_str().unwrap()]);
        assert_eq!(r.code, 2, "{file}: {}", r.stderr);
        assert!(
            r.stderr.starts_with(&format!("sudoku: {path}: {message}")),
            "{file}: {}",
            r.stderr
        );
    }
}

/// `bytes` with the Parquet footer's bytes at `at..at + n` replaced by `with` (the footer's length mended).
fn splice_footer(bytes: &[u8], at: usize, n: usize, with: &[u8]) -> Vec<u8> {
    let len = bytes.len();
    let footer = u32::from_le_bytes(bytes[len - 8..len - 4].try_into().unwrap()) as usize;
    let mut out = bytes[..at].to_vec();
    out.extend_from_slice(with);
    out.extend_from_slice(&bytes[at + n..len - 8]);
    out.extend_from_slice(&((footer + with.len() - n) as u32).to_le_bytes());
    out.extend_from_slice(b"PAR1");
    out
}

#[test]
fn a_list_count_in_a_late_row_group_of_a_long_footer_is_refused_before_it_is_allocated() {
    // 3,000 row groups of one row: the footer is read through its buffer many times over before the last group.
    let dir = tempdir();
    let input = dir.path().join("groups.parquet");
    crate::table_layouts::layout(&input, 3000, 1);
    let bytes = std::fs::read(&input).unwrap();
    let len = bytes.len();
    let footer = u32::from_le_bytes(bytes[len - 8..len - 4].try_into().unwrap()) as usize;
    assert!(footer > 256 * 1024, "{footer}");
    // The last row group's list of two column chunks (field 1, a list of 2 structs) made to declare 2^31 - 1 of
    // them: a `Vec::with_capacity` of hundreds of gigabytes, which aborts.
    let last = bytes[..len - 8]
        .windows(2)
        .rposition(|w| w == [0x19, 0x2C])
        .unwrap();
    assert!(last > len - 8 - footer + 64 * 1024);
    let bad = splice_footer(&bytes, last + 1, 1, &[0xFC, 0xFF, 0xFF, 0xFF, 0xFF, 0x07]);
    std::fs::write(&input, &bad).unwrap();
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
            "sudoku: {}: corrupt Parquet data (footer and schema): the footer is not valid Thrift: a list declares \
             more elements than bytes are left (at byte ",
            input.to_str().unwrap()
        )),
        "{}",
        r.stderr
    );
    assert!(!out.exists());
}

#[test]
fn an_uncompressed_length_a_compressed_arrow_buffer_declares_past_any_bound_is_refused() {
    use arrow_ipc::writer::{FileWriter, IpcWriteOptions, StreamWriter};
    use std::sync::Arc;
    let dir = tempdir();
    let puzzles = puzzle_lines(&read_data("puzzles.txt"));
    let schema = Arc::new(arrow_schema::Schema::new(vec![arrow_schema::Field::new(
        "question",
        arrow_schema::DataType::Utf8,
        false,
    )]));
    let batch = arrow_array::RecordBatch::try_new(
        schema.clone(),
        vec![Arc::new(arrow_array::StringArray::from_iter_values(
            &puzzles[..100],
        ))],
    )
    .unwrap();
    let options = IpcWriteOptions::default()
        .try_with_compression(Some(arrow_ipc::CompressionType::LZ4_FRAME))
        .unwrap();
    let mut file = Vec::new();
    let mut w = FileWriter::try_new_with_options(&mut file, &schema, options.clone()).unwrap();
    w.write(&batch).unwrap();
    w.finish().unwrap();
    drop(w);
    let mut stream = Vec::new();
    let mut w = StreamWriter::try_new_with_options(&mut stream, &schema, options).unwrap();
    w.write(&batch).unwrap();
    w.finish().unwrap();
    drop(w);
    // The values buffer's prefix (its uncompressed length: 100 puzzles of 81 bytes), made to say 2^50 bytes (a
    // `Vec::with_capacity` that aborts).
    let values = 8100i64.to_le_bytes();
    for (name, mut bytes, message) in [
        (
            "lz4.arrow",
            file,
            "corrupt Arrow IPC file data (footer and schema): record batch 1: buffer 3 declares 1125899906842624 \
             bytes uncompressed from ",
        ),
        (
            "lz4.arrows",
            stream,
            "cannot read the Arrow IPC stream data (at row 1): Io error: message 2: buffer 3 declares \
             1125899906842624 bytes uncompressed from ",
        ),
    ] {
        // The prefix, followed by an LZ4 frame's magic number.
        let at: Vec<usize> = (0..bytes.len() - 12)
            .filter(|&i| bytes[i..i + 8] == values && bytes[i + 8..i + 12] == [0x04, 0x22, 0x4D, 0x18])
            .collect();
        assert_eq!(at.len(), 1, "{name}");
        bytes[at[0]..at[0] + 8].copy_from_slice(&(1i64 << 50).to_le_bytes());
        let input = dir.path().join(name);
        std::fs::write(&input, &bytes).unwrap();
        let out = dir.path().join("out");
        let r = run(&["solve", input.to_str().unwrap(), "-o", out.to_str().unwrap()]);
        assert_eq!(r.code, 2, "{name}: {}", r.stderr);
        assert!(
            r.stderr
                .starts_with(&format!("sudoku: {}: {message}", input.to_str().unwrap())),
            "{name}: {}",
            r.stderr
        );
        assert!(!out.exists(), "{name}");
    }
}
