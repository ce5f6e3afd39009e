//! `sudoku export --to npy`: a dataset as numpy arrays ([`export_npy`]): the puzzles, their labels (the solution
//! each record carries, else the solved board) and the number of each record's equivalence class.
//!
//! The records go through the batch pipeline once (every core, any input format), each answered with a
//! fixed-size binary row into a temporary file beside the outputs: a text input's rows are its output, in order; a
//! Parquet or Arrow table's rows are written by the workers straight to their place in the file (row `i` at `i`
//! times the row size: a failed row leaves a hole of zeros), and the table's own output is left empty. The rows are
//! then read back in order and written into the three arrays, the classes numbered in order of first appearance
//! (one map entry per distinct class, 32 bytes of key and 8 of number plus the map's overhead: the only memory that
//! grows with the input). Each array file is written through the crate's output rules: it appears whole or not at
//! all.

use std::collections::HashMap;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use crate::batch::{self, BatchError, BatchOptions, BatchSummary, InputSpec, Router};
use crate::grid::{Grid, CELLS};
use crate::output::{OutputError, Sink, Target, WorkFile};
use crate::record::{Answer, CsvAnswer, Failure, Job, Observer, Record, TextLayout};
use crate::solver;

use super::canon::class_key;
use super::jobs::Check;

/// The bytes of one exported row in the temporary file: [`MARK`], the puzzle's cells (0 for blanks), the label's
/// cells, the class key, and where the label came from (1: the record's own solution, 0: solved).
const ROW: usize = 1 + 2 * CELLS + 32 + 1;

/// The first byte of a row: no line of text starts with it (it is not UTF-8's first byte of anything), so the
/// other lines of the temporary file (a CSV header, failure markers, the blank lines between grid records) are
/// told apart from rows by it.
const MARK: u8 = 0xFF;

/// Why an export could not finish (a failed record is not this: it is left out and counted).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ExportError {
    /// The run over the inputs failed.
    #[error(transparent)]
    Batch(#[from] BatchError),
    /// An output file could not be written.
    #[error(transparent)]
    Output(#[from] OutputError),
    /// The temporary file of the rows could not be read back.
    #[error("{}: {source}", crate::record::display_name(.path.as_os_str().as_encoded_bytes()))]
    Read {
        /// The temporary file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// A Parquet or Arrow table on standard input: not exported (give its file).
    #[error("export reads a Parquet or Arrow table from its file, not from standard input")]
    Table,
}

/// What an export wrote.
#[derive(Debug, Clone, PartialEq)]
pub struct ExportSummary {
    /// The run over the inputs (records read, failures by kind).
    pub batch: BatchSummary,
    /// Rows in the arrays: the records that did not fail.
    pub rows: u64,
    /// Distinct equivalence classes among them (the values of `group.npy` are `0..classes`).
    pub classes: u64,
    /// Rows whose label is the solution the record carried.
    pub labels_given: u64,
    /// Rows whose label was found by solving (the record carried no solution).
    pub labels_solved: u64,
}

/// The job of an export: one binary [`ROW`] per record, and a newline: in its output (a text input), or at its
/// row's place in `rows` (a table input: its output is left empty).
struct ExportRow<'a> {
    rows: Option<&'a File>,
    /// The first error met writing to `rows`.
    error: Mutex<Option<io::Error>>,
}

/// Sends every record nowhere (a table input's rows are written by the job itself).
struct Nowhere;

impl Router for Nowhere {
    fn part(&mut self, _: u128) -> io::Result<u8> {
        Ok(u8::MAX)
    }
}

impl Job for ExportRow<'_> {
    fn run(&self, puzzle: &Grid, layout: TextLayout, out: &mut Vec<u8>) -> Result<(), Failure> {
        let record = Record {
            puzzle,
            claim: None,
            position: 0,
            text: &[],
        };
        self.run_record(&record, layout, out).map(|_| ())
    }

    /// The label is the record's claim when it has one (checked: a wrong one fails the record), else the unique
    /// solution (a puzzle with none or several fails).
    fn run_record(
        &self,
        record: &Record<'_>,
        _layout: TextLayout,
        out: &mut Vec<u8>,
    ) -> Result<Answer, Failure> {
        let key = class_key(record.puzzle).map_err(Failure::ClashingGivens)?;
        let claim = record.claim.filter(|c| !c.trim_ascii().is_empty());
        let (label, given) = match claim {
            Some(text) => {
                Check::verify(record.puzzle, Some(text)).map_err(Failure::WrongSolution)?;
                let label = Grid::parse_line(text).expect("a verified claim reads as a grid");
                (label, true)
            }
            None => (solver::solve_unique(record.puzzle)?.solution, false),
        };
        let mut row = [0u8; ROW + 1];
        row[0] = MARK;
        row[1..1 + CELLS].copy_from_slice(record.puzzle.cells());
        row[1 + CELLS..1 + 2 * CELLS].copy_from_slice(label.cells());
        row[1 + 2 * CELLS..ROW - 1].copy_from_slice(&key.to_bytes());
        row[ROW - 1] = u8::from(given);
        row[ROW] = b'\n';
        let Some(rows) = self.rows else {
            // The text path ends the record's output with its own newline.
            out.extend_from_slice(&row[..ROW]);
            return Ok(Answer::Written);
        };
        use std::os::unix::fs::FileExt;
        if let Err(e) = rows.write_all_at(&row, record.position * (ROW as u64 + 1)) {
            let mut first = self.error.lock().unwrap_or_else(|e| e.into_inner());
            first.get_or_insert(e);
        }
        Ok(Answer::Tagged(0))
    }

    fn csv_answer(&self) -> CsvAnswer {
        CsvAnswer::Row
    }
}

/// The header of a version 1.0 `.npy` file of type `descr` and shape `shape` (Python's tuple text), padded with
/// spaces so that the data starts at a multiple of 64 bytes.
pub(crate) fn npy_header(descr: &str, shape: &str) -> Vec<u8> {
    let dict = format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': {shape}, }}");
    let total = (10 + dict.len() + 1).div_ceil(64) * 64;
    let mut h = b"\x93NUMPY\x01\x00".to_vec();
    h.extend_from_slice(&((total - 10) as u16).to_le_bytes());
    h.extend_from_slice(dict.as_bytes());
    h.resize(total - 1, b' ');
    h.push(b'\n');
    h
}

/// One array file being written.
struct Array {
    sink: Sink,
    buf: Vec<u8>,
}

impl Array {
    fn create(path: PathBuf, header: Vec<u8>) -> Result<Array, OutputError> {
        let mut sink = Sink::create(&Target::File(path))?;
        sink.write_all(&header)?;
        Ok(Array {
            sink,
            buf: Vec::with_capacity(1 << 20),
        })
    }

    fn push(&mut self, bytes: &[u8]) -> Result<(), OutputError> {
        self.buf.extend_from_slice(bytes);
        if self.buf.len() >= 1 << 20 {
            self.sink.write_all(&self.buf)?;
            self.buf.clear();
        }
        Ok(())
    }

    fn finish(mut self) -> Result<(), OutputError> {
        self.sink.write_all(&self.buf)?;
        self.sink.finish()
    }
}

/// Exports the records of `inputs` into `dir` (which must exist): `inputs.npy` (N, 81) `uint8`, 0 for a blank;
/// `labels.npy` (N, 81) `uint8`, the solution the record carries (a CSV's solution column, the second half of a
/// `PUZZLE SOLUTION` line; checked) or else the puzzle's unique solution; `group.npy` (N,) `int64`, the record's
/// equivalence class numbered from 0 in order of first appearance. A record that fails (malformed, clashing
/// givens, a wrong claimed solution, no or several solutions) is told to `observer`, counted and left out. The
/// caller writes whatever else it wants beside them (the binary writes `dataset.json` from the summary).
///
/// # Errors
/// [`ExportError`]: an input that cannot be read, an output that cannot be written, a table on standard input.
pub fn export_npy(
    inputs: Vec<InputSpec>,
    dir: &Path,
    opts: &BatchOptions,
    observer: &mut dyn Observer,
) -> Result<ExportSummary, ExportError> {
    let temp = dir.join(format!(".sudoku-export-{}.rows", std::process::id()));
    let opts = BatchOptions {
        json: false,
        keep_lines: false,
        header: false,
        ..opts.clone()
    };
    let table_rows = match inputs.as_slice() {
        [InputSpec::Path(path)] if is_table(path) => Some(temp.with_extension("table")),
        _ => None,
    };
    // Both removed at the end, or by a signal's clean-up.
    let _work = (
        WorkFile::listed(temp.clone()),
        table_rows.clone().map(WorkFile::listed),
    );
    let result = match &table_rows {
        None => {
            let job = ExportRow {
                rows: None,
                error: Mutex::new(None),
            };
            let target = Target::File(temp.clone());
            batch::run_batch(inputs, &target, &job, &opts, observer).map_err(ExportError::from)
        }
        Some(path) => export_table(inputs, (path, &temp), &opts, observer),
    };
    let read_from = table_rows.as_deref().unwrap_or(&temp);
    result.and_then(|summary| {
        let rows = summary.counts.solved();
        let fixed = table_rows.is_some();
        write_arrays(read_from, dir, rows, fixed).map(|(classes, given)| ExportSummary {
            batch: summary,
            rows,
            classes,
            labels_given: given,
            labels_solved: rows - given,
        })
    })
}

/// True when the file at `path` starts with a Parquet or Arrow table's magic.
fn is_table(path: &Path) -> bool {
    let mut head = [0u8; 8];
    let n = File::open(path)
        .and_then(|mut f| f.read(&mut head))
        .unwrap_or(0);
    batch::TableKind::detect(&head[..n]).is_some()
}

/// Exports a table input (`inputs`, its one file): every row written by the workers at its place in the file at
/// `rows` (created here), the run's own output, to `empty`, left without rows.
fn export_table(
    inputs: Vec<InputSpec>,
    (rows, empty): (&Path, &Path),
    opts: &BatchOptions,
    observer: &mut dyn Observer,
) -> Result<BatchSummary, ExportError> {
    let read = |source| ExportError::Read {
        path: rows.to_path_buf(),
        source,
    };
    let file = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .open(rows)
        .map_err(read)?;
    let job = ExportRow {
        rows: Some(&file),
        error: Mutex::new(None),
    };
    let target = [Target::File(empty.to_path_buf())];
    let (summary, _) = batch::run_routed_by(inputs, &target, &job, &mut Nowhere, opts, observer)?;
    let error = job.error.into_inner().unwrap_or_else(|e| e.into_inner());
    match error {
        Some(e) => Err(read(e)),
        None => Ok(summary),
    }
}

/// Reads the rows of `temp` into the three arrays of `rows` rows in `dir`; returns the classes and the rows whose
/// label was given. `temp` is the pipeline's output (rows, and lines that are not rows — a CSV header, failure
/// markers, the blank lines between grid records), or, `fixed`, rows in place (a failed row's place all zeros).
fn write_arrays(
    temp: &Path,
    dir: &Path,
    rows: u64,
    fixed: bool,
) -> Result<(u64, u64), ExportError> {
    let read = |source| ExportError::Read {
        path: temp.to_path_buf(),
        source,
    };
    let mut file = BufReader::with_capacity(1 << 20, std::fs::File::open(temp).map_err(read)?);
    let head = file.fill_buf().map_err(read)?;
    if batch::TableKind::detect(head).is_some() {
        return Err(ExportError::Table);
    }
    let mut inputs = Array::create(
        dir.join("inputs.npy"),
        npy_header("|u1", &format!("({rows}, 81)")),
    )?;
    let mut labels = Array::create(
        dir.join("labels.npy"),
        npy_header("|u1", &format!("({rows}, 81)")),
    )?;
    let mut groups = Array::create(
        dir.join("group.npy"),
        npy_header("<i8", &format!("({rows},)")),
    )?;
    let mut classes: HashMap<[u8; 32], u64> = HashMap::new();
    let (mut seen, mut given) = (0u64, 0u64);
    let mut row = [0u8; ROW + 1];
    let mut skipped = Vec::new();
    while let Some(&first) = file.fill_buf().map_err(read)?.first() {
        if first != MARK {
            // Not a row: a line or a failed row's place to pass over.
            skipped.clear();
            if fixed {
                (&mut file)
                    .take(ROW as u64 + 1)
                    .read_to_end(&mut skipped)
                    .map_err(read)?;
            } else {
                file.read_until(b'\n', &mut skipped).map_err(read)?;
            }
            continue;
        }
        file.read_exact(&mut row).map_err(read)?;
        let key: [u8; 32] = row[1 + 2 * CELLS..ROW - 1].try_into().expect("32 bytes");
        let next = classes.len() as u64;
        let class = *classes.entry(key).or_insert(next);
        inputs.push(&row[1..1 + CELLS])?;
        labels.push(&row[1 + CELLS..1 + 2 * CELLS])?;
        groups.push(&(class as i64).to_le_bytes())?;
        given += u64::from(row[ROW - 1]);
        seen += 1;
    }
    if seen != rows {
        return Err(read(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("{seen} rows read back, {rows} written"),
        )));
    }
    inputs.finish()?;
    labels.finish()?;
    groups.finish()?;
    Ok((classes.len() as u64, given))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn npy_headers_align_the_data_and_end_in_a_newline() {
        for shape in ["(0, 81)", "(12345678901234, 81)", "(3,)"] {
            let h = npy_header("|u1", shape);
            assert_eq!(h.len() % 64, 0);
            assert_eq!(&h[..8], b"\x93NUMPY\x01\x00");
            assert_eq!(usize::from(u16::from_le_bytes([h[8], h[9]])), h.len() - 10);
            assert_eq!(h.last(), Some(&b'\n'));
            let text = std::str::from_utf8(&h[10..]).unwrap();
            assert!(text.starts_with(&format!(
                "{{'descr': '|u1', 'fortran_order': False, 'shape': {shape}, }}"
            )));
        }
    }
}
