//! Record formats: which ones exist, how an input's format is detected (or forced), and how a chunk of records is
//! turned into output through a [`Job`](crate::record::Job). One file per format: [`line`](mod@line)
//! (81-character lines), [`grid`] (nine rows of digits, a blank line between boards) and [`csv`] (the Kaggle
//! layouts).
//!
//! Common to every format: `#` comment lines and blank lines are skipped, a `\r` before `\n` is ignored, the last
//! record needs no final newline, a UTF-8 byte-order mark at the start is skipped. Output lines end in `\n`.
//!
//! A record is one line (line and CSV formats) or a run of non-blank lines (grid format). One longer than
//! [`MAX_RECORD`] bytes, comment or not, is a malformed record ([`RecordError::TooLong`]) whose marker stands alone
//! (its text is not kept); the batch chunker passes over such records without holding them, so memory stays flat.
//!
//! A record without an answer is marked, never dropped: its answer is replaced by `error: REASON` (a line, a
//! one-line grid record, or the solution field of a CSV row).
//!
//! With JSON Lines output (`json` given to [`prepare`], a [`Place`] with `json` to [`process`]) every format writes
//! one object per record, `{"line":L,"puzzle":"TEXT",...}`: `line` is the record's 1-based line in its input (of
//! its first row for a grid record), `puzzle` its puzzle text as read, then the job's fields
//! ([`crate::record::TextLayout::Json`]), or for a failed record `"status":KIND,"error":REASON` with KIND one of
//! [`crate::record::FailureKind::key`]. Keys and values are written by serde_json; the braces and commas around
//! them are written here, straight into the chunk's output buffer.

mod answerer;
pub(crate) mod csv;
pub(crate) mod grid;
pub(crate) mod json;
pub(crate) mod line;
mod whole;

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::record::{Answer, ChunkReport, CsvAnswer, Failure, Record, RecordError};
pub(crate) use answerer::Answerer;
use json::{json_field, json_key, json_str};
pub use whole::read_all;

/// A record format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// One puzzle per line: 81 characters, `1`-`9` for givens, `0` or `.` for blanks.
    Line,
    /// Nine lines of nine digits separated by single spaces (`0` blank), a blank line between boards.
    Grid,
    /// A CSV with a header naming a puzzle column (`quizzes`, `puzzle`) and usually a solution column.
    Csv,
}

impl std::str::FromStr for Format {
    type Err = UnknownFormat;

    /// A format by its name: `line`, `grid` or `csv` (the names of the command line's `--format`).
    fn from_str(name: &str) -> Result<Format, UnknownFormat> {
        match name {
            "line" => Ok(Format::Line),
            "grid" => Ok(Format::Grid),
            "csv" => Ok(Format::Csv),
            _ => Err(UnknownFormat(name.to_string())),
        }
    }
}

/// A format name that is none of `line`, `grid` and `csv` (see [`Format`]'s `FromStr`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid format '{0}' (possible values: line, grid, csv)")]
pub struct UnknownFormat(pub String);

/// How to read the records of one input, decided once from its first record (or forced).
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(not(feature = "internals"), allow(unreachable_pub))] // for `crate::internals`
pub enum Plan {
    /// See [`Format::Line`].
    Line,
    /// See [`Format::Grid`].
    Grid,
    /// See [`Format::Csv`], with the columns found in the header.
    Csv(csv::Columns),
}

/// Where records may end: what the chunker of a batch run cuts at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Boundary {
    /// After any `\n` (line and CSV formats).
    Line,
    /// After a blank line (grid format).
    BlankLine,
}

impl Plan {
    /// Where this plan's records may end.
    pub(crate) fn boundary(&self) -> Boundary {
        match self {
            Plan::Grid => Boundary::BlankLine,
            Plan::Line | Plan::Csv(_) => Boundary::Line,
        }
    }

    /// The byte written before every output record, which a run drops before the very first record of its output
    /// (the blank line between grid records), if any.
    pub(crate) fn separator(&self) -> Option<u8> {
        match self {
            Plan::Grid => Some(grid::SEPARATOR),
            Plan::Line | Plan::Csv(_) => None,
        }
    }
}

/// The plan for an input plus what comes before its first record.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(not(feature = "internals"), allow(unreachable_pub))] // for `crate::internals`
pub struct Prepared {
    /// How to read the records.
    pub plan: Plan,
    /// Bytes at the start of the input that are not records (a byte-order mark, and for a CSV the lines up to and
    /// including the header).
    pub skip: usize,
    /// Output to write before the first record (a CSV header).
    pub preamble: Vec<u8>,
}

impl Prepared {
    /// The comment and blank lines before a CSV header in `head` (the start of the input this was prepared from),
    /// each ending in `\n` without its `\r`, for pipe mode; nothing for the other plans.
    pub(crate) fn lines_before_header(&self, head: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        if let Plan::Csv(_) = self.plan {
            let skipped = &head[..self.skip];
            let mut lines = LineIter::new(skipped.strip_prefix(BOM).unwrap_or(skipped)).peekable();
            // The last line skipped is the header itself.
            while let (Some((_, _, line)), Some(_)) = (lines.next(), lines.peek()) {
                out.extend_from_slice(strip_cr(line));
                out.push(b'\n');
            }
        }
        out
    }
}

/// Why an input cannot be read at all (as opposed to one bad record).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum FormatError {
    /// A CSV header longer than the longest record, 4,096 bytes.
    #[error("line {line}: the CSV header is longer than {MAX_RECORD} bytes")]
    HeaderTooLong {
        /// 1-based line of the header.
        line: u64,
    },
    /// A CSV whose first line names no puzzle column.
    #[error("line {line}: the CSV header names no puzzle column (quizzes, quiz, puzzles, puzzle or question; or see --column): {header:?}")]
    NoPuzzleColumn {
        /// 1-based line of the header.
        line: u64,
        /// The header as found (cut at 80 characters).
        header: String,
    },
    /// A CSV header where a column the user named is not one column: two fields have the name, or the solution
    /// column named is the puzzle column.
    #[error("line {line}: the CSV header has the column {name:?} twice, or as both the puzzle and the solution column: {header:?}")]
    AmbiguousColumn {
        /// 1-based line of the header.
        line: u64,
        /// The name asked for.
        name: String,
        /// The header as found (cut at 80 characters).
        header: String,
    },
    /// A CSV header with a second solution column (named `solutions`, `solution`, `answer` or as the user named the
    /// solution column) for a job that rewrites the puzzle and its solution (`shuffle`): that column would be left
    /// as it was, no longer the solution of its row's puzzle.
    #[error("line {line}: the CSV header has a second solution column {name:?}, which rewriting the puzzles would leave unchanged (and wrong): keep one solution column: {header:?}")]
    SecondSolutionColumn {
        /// 1-based line of the header.
        line: u64,
        /// The second solution column's name.
        name: String,
        /// The header as found (cut at 80 characters).
        header: String,
    },
    /// A CSV header without a column the user named.
    #[error("line {line}: the CSV header has no column named {name:?}: {header:?}")]
    NoNamedColumn {
        /// 1-based line of the header.
        line: u64,
        /// The name asked for.
        name: String,
        /// The header as found (cut at 80 characters).
        header: String,
    },
}

const BOM: &[u8] = b"\xEF\xBB\xBF";

/// The longest record, in bytes without its final newline: far more than any valid line or grid record (82 bytes for
/// a line, about 170 for a grid), and room for a CSV row with long text columns beside its puzzle (a Hugging Face
/// set's explanation). Longer ones are malformed records.
#[cfg_attr(not(feature = "internals"), allow(unreachable_pub))] // for `crate::internals`
pub const MAX_RECORD: usize = 64 * 1024;

/// How far detection reads for the first record: when only blank and comment lines fill the first this many
/// bytes, the input is read as lines (or as the forced format).
const HEAD_LIMIT: usize = 64 * 1024;

/// Decides how to read an input from its first bytes: `forced`, or detected from the first record. `head` is the
/// start of the input; `at_eof` says whether it is all of it. Returns `Ok(None)` when `head` ends inside the first
/// record and more bytes are needed to decide.
///
/// Detection: a first record naming a puzzle column, or containing a comma after a first field that is not puzzle
/// text (17 or more digits and dots), is a CSV header; one shorter than 81 characters with spaces inside is a grid
/// row; anything else is read as lines.
#[cfg_attr(not(feature = "internals"), allow(unreachable_pub))] // for `crate::internals`
pub fn prepare(
    head: &[u8],
    at_eof: bool,
    forced: Option<Format>,
    answer: CsvAnswer,
    json: bool,
    names: &csv::ColumnNames,
) -> Result<Option<Prepared>, FormatError> {
    // Never look further than detection needs (a mapped input is all "head": its pages are not to be touched).
    let room = BOM.len() + HEAD_LIMIT + MAX_RECORD + 1;
    let at_eof = at_eof && head.len() <= room;
    let head = &head[..head.len().min(room)];
    let bom = if head.starts_with(BOM) { BOM.len() } else { 0 };
    let mut lines = LineIter::new(&head[bom..]);
    let first = loop {
        match lines.next() {
            None => break None,
            Some((n, start, text)) if !is_skipped(text) => break Some((n, start, text)),
            Some(_) => {}
        }
    };
    let Some((n, start, text)) = first else {
        if !at_eof && head.len() < HEAD_LIMIT {
            return Ok(None);
        }
        // No record at all: any plan gives the same (empty) output.
        return Ok(Some(Prepared {
            plan: plan_without_header(forced.unwrap_or(Format::Line)),
            skip: bom,
            preamble: Vec::new(),
        }));
    };
    let terminated = bom + start + text.len() < head.len();
    let oversized = text.len() > MAX_RECORD;
    if !terminated && !at_eof && !oversized {
        return Ok(None);
    }
    let format =
        forced.unwrap_or_else(|| detect(text[..text.len().min(MAX_RECORD)].trim_ascii(), names));
    if format == Format::Csv && oversized {
        return Err(FormatError::HeaderTooLong { line: n + 1 });
    }
    if format != Format::Csv {
        return Ok(Some(Prepared {
            plan: plan_without_header(format),
            skip: bom,
            preamble: Vec::new(),
        }));
    }
    let (columns, mut preamble) = csv_header(strip_cr(text), n + 1, answer, names)?;
    if json {
        preamble.clear();
    }
    let skip = (bom + start + text.len() + 1).min(head.len());
    Ok(Some(Prepared {
        plan: Plan::Csv(columns),
        skip,
        preamble,
    }))
}

/// A CSV input's header `header` (its line `line`, 1-based) read for a job whose answer goes where `answer` says:
/// its columns, and the header line the output starts with (the added answer columns named).
fn csv_header(
    header: &[u8],
    line: u64,
    answer: CsvAnswer,
    names: &csv::ColumnNames,
) -> Result<(csv::Columns, Vec<u8>), FormatError> {
    let shown = || String::from_utf8_lossy(&header[..header.len().min(80)]).into_owned();
    if let Some(name) = names.ambiguous(header) {
        return Err(FormatError::AmbiguousColumn {
            line,
            name,
            header: shown(),
        });
    }
    if answer == CsvAnswer::Rewrite {
        if let Some(name) = names.other_solution(&csv::Columns::header_names(header)) {
            return Err(FormatError::SecondSolutionColumn {
                line,
                name,
                header: shown(),
            });
        }
    }
    let columns = csv::Columns::from_header(header, names)
        .ok_or_else(|| match names.missing(header) {
            Some(name) => FormatError::NoNamedColumn {
                line,
                name,
                header: shown(),
            },
            None => FormatError::NoPuzzleColumn {
                line,
                header: shown(),
            },
        })?
        .answering(answer);
    let mut preamble = header.to_vec();
    match answer {
        CsvAnswer::Solution if columns.appends_solution() => {
            preamble.push(b',');
            preamble.extend_from_slice(columns.added_solution_name(header).as_bytes());
        }
        CsvAnswer::Solution | CsvAnswer::Rewrite | CsvAnswer::Row => {}
        CsvAnswer::Append(names) => {
            for name in names {
                preamble.push(b',');
                preamble.extend_from_slice(name.as_bytes());
            }
        }
    }
    preamble.push(b'\n');
    Ok((columns, preamble))
}

fn plan_without_header(format: Format) -> Plan {
    match format {
        Format::Line => Plan::Line,
        Format::Grid => Plan::Grid,
        // A CSV without any line has no header to read; it has no records either.
        Format::Csv => Plan::Line,
    }
}

fn detect(first: &[u8], names: &csv::ColumnNames) -> Format {
    // A first field of 17 or more digits and dots is a puzzle (perhaps a bad one), not a column's name: the record
    // is a `PUZZLE,SOLUTION` line, and the file one of them.
    let field = first.split(|&b| b == b',').next().unwrap_or(first);
    let puzzle_like = field.len() >= 17 && field.iter().all(|&b| b.is_ascii_digit() || b == b'.');
    if line::split_pair(first).is_some() {
        Format::Line
    } else if csv::Columns::from_header(first, names).is_some()
        || (first.contains(&b',') && !puzzle_like)
    {
        Format::Csv
    } else if first.len() < 81 && first.contains(&b' ') {
        Format::Grid
    } else {
        Format::Line
    }
}

/// What happens to comment and blank lines.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) enum Skipped {
    /// They are left out of the output (the default).
    #[default]
    Drop,
    /// Pipe mode: each is written back unchanged (without a `\r`), so that every input line gives exactly one
    /// output line. Only for the line and CSV plans: a 9-line grid record is not one line.
    Keep,
}

/// Where a chunk sits in its input and how its records are written.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Place {
    /// Byte offset of the chunk in its input.
    pub base: u64,
    /// For JSON Lines output, the 0-based line of the input at which the chunk starts; `None` for the format's own
    /// output.
    pub json: Option<u64>,
    /// What happens to comment and blank lines.
    pub skipped: Skipped,
    /// For a CSV whose rows get a `group` column ([`Answerer::copies`] above 1), the number in the run of the chunk's
    /// first record; `None` otherwise.
    pub record: Option<u64>,
}

impl Place {
    /// Runs `job` on `record`, the answer shaped for `own`, or in JSON mode after the `"status"` field the job
    /// names ([`Answerer::json_status`]): the one place the status of an answered record is written (a failed one's is
    /// written by `end_record`, in place of everything from it on).
    pub(crate) fn run<J: Answerer + ?Sized>(
        &self,
        job: &J,
        record: &Record<'_>,
        own: crate::record::TextLayout,
        out: &mut Vec<u8>,
    ) -> Result<Answer, Failure> {
        if self.json.is_some() {
            json_field(out, "status", job.json_status());
            job.run_record(record, crate::record::TextLayout::Json, out)
        } else {
            job.run_record(record, own, out)
        }
    }

    /// Opens the JSON object of a record on 0-based chunk line `n` (JSON mode only): `{"line":L` and, when the
    /// record's puzzle text is known, `,"puzzle":"TEXT"`.
    pub(crate) fn open_json(&self, out: &mut Vec<u8>, n: u64, puzzle: Option<&[u8]>) {
        if let Some(first) = self.json {
            let _ = write!(out, "{{\"line\":{}", first + n + 1);
            if let Some(text) = puzzle {
                json_key(out, "puzzle");
                json_str(out, text);
            }
        }
    }
}

/// Runs `job` on every record of `data` (a chunk at `place` in its input, that starts at the beginning of a line and
/// ends at a record boundary, as the batch chunker cuts them) and appends one output record per input record to
/// `out`. Stops early, leaving the report incomplete, when `cancel` is set.
pub(crate) fn process<J: Answerer + ?Sized>(
    plan: &Plan,
    job: &J,
    data: &[u8],
    place: Place,
    out: &mut Vec<u8>,
    cancel: &AtomicBool,
) -> ChunkReport {
    let mut report = ChunkReport::default();
    if *plan == Plan::Grid {
        grid::process(job, data, place, out, &mut report, cancel);
        return report;
    }
    let mut lines = LineIter::new(data);
    for (n, start, text) in lines.by_ref() {
        let position = place.base + start as u64;
        let oversized = text.len() > MAX_RECORD;
        if !oversized && is_skipped(text) {
            if place.skipped == Skipped::Keep {
                out.extend_from_slice(strip_cr(text));
                out.push(b'\n');
            }
            continue;
        }
        if cancel.load(Ordering::Relaxed) {
            return report;
        }
        match plan {
            _ if oversized => oversized_record(plan, place, n, out, &mut report),
            Plan::Csv(cols) => csv::record(cols, job, place, n, position, text, out, &mut report),
            _ => line::record(job, place, n, position, text, out, &mut report),
        }
    }
    report.lines = lines.newlines();
    report
}

/// The output of one record longer than [`MAX_RECORD`] that the chunker passed over without holding it; it spans
/// `lines` newlines of the input.
pub(crate) fn oversized(plan: &Plan, place: Place, lines: u64, out: &mut Vec<u8>) -> ChunkReport {
    let mut report = ChunkReport::default();
    oversized_record(plan, place, 0, out, &mut report);
    report.lines = lines;
    report
}

/// Marks a record longer than [`MAX_RECORD`] on line `n` of its chunk: the marker alone (in the answer column of
/// an otherwise empty CSV row), since the record's text is not kept.
pub(crate) fn oversized_record(
    plan: &Plan,
    place: Place,
    n: u64,
    out: &mut Vec<u8>,
    report: &mut ChunkReport,
) {
    let failure = Failure::Malformed(RecordError::TooLong { limit: MAX_RECORD });
    let from = out.len();
    let json = place.json.is_some();
    match plan {
        _ if json => place.open_json(out, n, None),
        Plan::Grid => out.push(grid::SEPARATOR),
        Plan::Csv(cols) => out.extend(std::iter::repeat_n(b',', cols.marker_column())),
        Plan::Line => {}
    }
    let start = out.len();
    end_record(
        out,
        (from, start),
        n,
        Err(failure),
        json,
        report,
        |out, failure| {
            write_marker(out, failure);
            if let Plan::Csv(cols) = plan {
                let after = cols.output_fields() - cols.marker_column() - 1;
                out.extend(std::iter::repeat_n(b',', after));
            }
        },
    );
}

/// The records of a chunk of line or CSV records: its lines that are not skipped ([`is_skipped`]).
pub(crate) fn records_in_lines(data: &[u8]) -> u64 {
    LineIter::new(data)
        .filter(|(_, _, line)| line.len() > MAX_RECORD || !is_skipped(line))
        .count() as u64
}

/// True for a line that holds no record: blank, or a `#` comment.
#[inline]
pub(crate) fn is_skipped(line: &[u8]) -> bool {
    match line.trim_ascii_start().first() {
        None => true,
        Some(&b) => b == b'#',
    }
}

#[inline]
pub(crate) fn strip_cr(line: &[u8]) -> &[u8] {
    line.strip_suffix(b"\r").unwrap_or(line)
}

/// Ends one record's output, which began at `span.0` (its separator or the opening of its JSON object included)
/// and whose answer began at `span.1`: the newline after the job's answer (and the closing brace in JSON mode), or,
/// for a failure, the marker written by `mark` (in JSON mode, the status and error fields) in place of whatever the
/// job appended after `span.1`.
#[inline]
pub(crate) fn end_record(
    out: &mut Vec<u8>,
    span: (usize, usize),
    line: u64,
    result: Result<Answer, Failure>,
    json: bool,
    report: &mut ChunkReport,
    mark: impl FnOnce(&mut Vec<u8>, &Failure),
) {
    match result {
        Ok(answer) => {
            if json {
                out.push(b'}');
            }
            out.push(b'\n');
            match answer {
                Answer::Written => report.solved(),
                Answer::FirstOf(key) => report.keyed(key, span.0, out.len()),
                Answer::Part(part) => report.routed((part, 0), span.0, out.len()),
                Answer::Tagged(tag) => report.routed((0, tag), span.0, out.len()),
            }
        }
        Err(failure) => {
            out.truncate(span.1);
            if json {
                json_field(out, "status", failure.kind().key());
                json_field(out, "error", &failure.to_string());
                out.push(b'}');
            } else {
                mark(out, &failure);
            }
            out.push(b'\n');
            report.failed(line, failure, out.len());
        }
    }
}

/// Appends the failure marker `error: REASON`.
pub(crate) fn write_marker(out: &mut Vec<u8>, failure: &Failure) {
    // Writing into a Vec cannot fail.
    let _ = write!(out, "error: {failure}");
}

/// The lines of a chunk without their `\n`: `(0-based line index, byte offset, text)`. After the last line,
/// [`LineIter::newlines`] is the number of `\n` seen.
pub(crate) struct LineIter<'a> {
    data: &'a [u8],
    pos: usize,
    index: u64,
}

impl<'a> LineIter<'a> {
    pub(crate) fn new(data: &'a [u8]) -> LineIter<'a> {
        LineIter {
            data,
            pos: 0,
            index: 0,
        }
    }

    /// Newlines passed so far.
    pub(crate) fn newlines(&self) -> u64 {
        if self.pos > self.data.len() {
            // The last line had no newline.
            self.index - 1
        } else {
            self.index
        }
    }
}

impl<'a> Iterator for LineIter<'a> {
    type Item = (u64, usize, &'a [u8]);

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        if self.pos >= self.data.len() {
            return None;
        }
        let start = self.pos;
        let rest = &self.data[start..];
        let (text, next) = match memchr::memchr(b'\n', rest) {
            Some(i) => (&rest[..i], start + i + 1),
            None => (rest, self.data.len() + 1),
        };
        self.pos = next;
        let n = self.index;
        self.index += 1;
        Some((n, start, text))
    }
}

/// Solves the records of `text` read with `plan`, as one chunk: the output as text and the report.
#[cfg(test)]
pub(crate) fn solve_chunk(plan: &Plan, text: &str) -> (String, ChunkReport) {
    let mut out = Vec::new();
    let job = crate::tools::Solve::default();
    let report = process(
        plan,
        &job,
        text.as_bytes(),
        Place::default(),
        &mut out,
        &AtomicBool::new(false),
    );
    (String::from_utf8(out).unwrap(), report)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lines_before_a_csv_header_are_kept_without_bom_or_cr() {
        let names = csv::ColumnNames::default();
        for (text, kept) in [
            (
                &b"\xEF\xBB\xBF# one\r\n\nquizzes,solutions\r\n1,2\n"[..],
                &b"# one\n\n"[..],
            ),
            (b"# one\nquizzes,solutions", b"# one\n"),
            (b"quizzes,solutions\n", b""),
        ] {
            let p = prepare(text, true, None, CsvAnswer::Solution, false, &names)
                .unwrap()
                .unwrap();
            assert!(matches!(p.plan, Plan::Csv(_)));
            assert_eq!(p.lines_before_header(text), kept, "{text:?}");
        }
        let p = prepare(
            b"# one\n1.2\n",
            true,
            None,
            CsvAnswer::Solution,
            false,
            &names,
        );
        assert_eq!(
            p.unwrap().unwrap().lines_before_header(b"# one\n1.2\n"),
            b""
        );
    }

    #[test]
    fn formats_by_name() {
        for (name, f) in [
            ("line", Format::Line),
            ("grid", Format::Grid),
            ("csv", Format::Csv),
        ] {
            assert_eq!(name.parse(), Ok(f));
        }
        let e = "Line".parse::<Format>().unwrap_err();
        assert_eq!(
            e.to_string(),
            "invalid format 'Line' (possible values: line, grid, csv)"
        );
    }

    #[test]
    fn line_iter_counts_newlines_with_and_without_final_newline() {
        let mut it = LineIter::new(b"a\nb\n");
        assert_eq!(it.next(), Some((0, 0, &b"a"[..])));
        assert_eq!(it.next(), Some((1, 2, &b"b"[..])));
        assert_eq!(it.next(), None);
        assert_eq!(it.newlines(), 2);
        let mut it = LineIter::new(b"a\nb");
        assert_eq!(it.by_ref().count(), 2);
        assert_eq!(it.newlines(), 1);
        let mut it = LineIter::new(b"\n\n");
        assert_eq!(it.by_ref().count(), 2);
        assert_eq!(it.newlines(), 2);
    }

    #[test]
    fn detects_each_format_from_the_first_record() {
        let p = |t: &str| {
            prepare(
                t.as_bytes(),
                true,
                None,
                Default::default(),
                false,
                &Default::default(),
            )
            .unwrap()
            .unwrap()
        };
        assert_eq!(p("# c\n\n..1\n").plan, Plan::Line);
        assert_eq!(p("1 2 3 4 5 6 7 8 9\n").plan, Plan::Grid);
        let csv = p("# made by hand\r\nquizzes,solutions\r\n0000,\r\n");
        assert!(matches!(csv.plan, Plan::Csv(_)));
        assert_eq!(csv.skip, "# made by hand\r\nquizzes,solutions\r\n".len());
        assert_eq!(csv.preamble, b"quizzes,solutions\n");
        assert_eq!(p("").plan, Plan::Line);
        assert_eq!(p("# only comments\n\n").skip, 0);
        // A bad `PUZZLE,SOLUTION` line first (80 cells) is a line, not a CSV header that names no puzzle column
        // (which failed the whole file).
        let bad_pair = format!("{},{}\n", "0".repeat(80), "1".repeat(81));
        assert_eq!(p(&bad_pair).plan, Plan::Line);
        assert!(matches!(p("id,puzzle\n").plan, Plan::Csv(_)));
        let header = prepare(
            b"a,b\n",
            true,
            None,
            Default::default(),
            false,
            &Default::default(),
        );
        assert!(
            matches!(header, Err(FormatError::NoPuzzleColumn { .. })),
            "{header:?}"
        );
    }

    #[test]
    fn forced_format_wins_and_bom_is_skipped() {
        let p = prepare(
            b"\xEF\xBB\xBF1 2 3\n",
            true,
            Some(Format::Line),
            Default::default(),
            false,
            &Default::default(),
        )
        .unwrap()
        .unwrap();
        assert_eq!((p.plan, p.skip), (Plan::Line, 3));
        let e = prepare(
            b"1 2 3\n",
            true,
            Some(Format::Csv),
            Default::default(),
            false,
            &Default::default(),
        )
        .unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 1: the CSV header names no puzzle column (quizzes, quiz, puzzles, puzzle or question; or see --column): \"1 2 3\""
        );
    }

    #[test]
    fn an_unfinished_first_record_asks_for_more() {
        let head =
            |t: &[u8], eof| prepare(t, eof, None, Default::default(), false, &Default::default());
        assert_eq!(head(b"# x\nquizzes,sol", false).unwrap(), None);
        assert_eq!(head(b"# x\n", false).unwrap(), None);
        let p = head(b"quizzes,solutions", true).unwrap().unwrap();
        assert_eq!(p.skip, "quizzes,solutions".len());
    }
}
