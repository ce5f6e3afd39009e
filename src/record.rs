//! The per-record contract between the formats and the jobs: the [`Job`] trait (a parsed puzzle in, answer bytes
//! out), the ways a record can fail ([`Failure`], [`RecordError`]), where an answer goes in a CSV row
//! ([`CsvAnswer`]), what one chunk of records held ([`ChunkReport`]) and the [`Observer`] a run reports to.
//!
//! The formats own everything around a record (reading, splitting, parsing, failure marking); a job only turns
//! one [`Grid`] into answer bytes. The crate's jobs live in `tools` (`Solve`, `Check`, `Count`, ...) and in
//! `human` (the `Rater`, which also counts the ratings); any other per-puzzle work reuses the pipeline by
//! implementing [`Job`] (or passing a closure).

pub(crate) use crate::grid::TextLayout;
use crate::grid::{Conflict, Grid, ParseError};
use crate::solver::SolveError;

/// Where a job's answer goes in a CSV row.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum CsvAnswer {
    /// Into the solution column (`solution` or `solutions`), added at the end when the header has none.
    #[default]
    Solution,
    /// Into new columns with these names (at least one), added at the end: every input field is kept.
    Append(&'static [&'static str]),
    /// In place of the puzzle field; the claimed solution field, when the header has one, gets the job's answer for
    /// the claim read as a puzzle (same record position). Every other field is kept.
    Rewrite,
    /// The job writes the whole row ([`Record::text`] is the row); a failed record gets its marker in the puzzle
    /// field.
    Row,
}

/// Why one record could not be read as a puzzle.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RecordError {
    /// The puzzle text itself is wrong (a bad character, the wrong length, a bad grid row).
    #[error(transparent)]
    Cells(#[from] ParseError),
    /// A CSV row with another number of fields than the header.
    #[error("expected {expected} CSV fields, found {found}")]
    FieldCount {
        /// Fields in the header.
        expected: usize,
        /// Fields in the row.
        found: usize,
    },
    /// A CSV field opened with `"` and never closed on its line (a record is one line: a quoted field cannot hold
    /// a line break).
    #[error(
        "unterminated quoted CSV field (a record is one line: a quoted field cannot span lines)"
    )]
    UnterminatedQuote,
    /// A `"` inside a CSV field that does not start with one: not RFC 4180, and what is left of a quoted field
    /// that spanned lines.
    #[error("a quote inside an unquoted CSV field (the end of a quoted field that spans lines?)")]
    StrayQuote,
    /// Text between a CSV field's closing quote and the comma after it (`"abc"def`): not RFC 4180, and readers
    /// differ on what the field holds.
    #[error("text after the closing quote of a CSV field")]
    TextAfterQuote,
    /// A table row whose puzzle field is null (Parquet, Arrow IPC).
    #[error("the puzzle field is null")]
    Null,
    /// A record longer than the format layer's limit, `format::MAX_RECORD` bytes (its text is not kept in the output).
    #[error("record longer than {limit} bytes")]
    TooLong {
        /// The limit in bytes.
        limit: usize,
    },
}

/// One record as a job sees it.
#[derive(Debug, Clone, Copy)]
pub struct Record<'a> {
    /// The puzzle.
    pub puzzle: &'a Grid,
    /// The answer the record already carries, as text: a CSV row's solution field, or the second half of a
    /// `PUZZLE SOLUTION` / `PUZZLE,SOLUTION` line; `None` when it carries none.
    pub claim: Option<&'a [u8]>,
    /// The record's byte offset in its input: it depends on the input alone, never on threads or chunk sizes.
    pub position: u64,
    /// The record as read, without its final line end: the line, the CSV row, or the grid record's rows.
    pub text: &'a [u8],
}

/// What a job made of a record, besides the answer bytes it wrote.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Answer {
    /// The answer is written and kept.
    #[default]
    Written,
    /// The answer is written and kept only for the first record of the run with this key, in input order; the
    /// batch run drops the later ones from the output and counts them ([`crate::batch::Counts::dropped`]).
    FirstOf([u8; 32]),
    /// The answer is written to output part `n` of a run with several outputs (`split`:
    /// [`crate::batch::run_routed`]); a run with one output writes it like [`Answer::Written`].
    Part(u8),
    /// The answer is written to the output part the run's [`Router`](crate::batch::Router) gives for this tag,
    /// asked in input order ([`crate::batch::run_routed_by`]); a run without a router writes it to part 0.
    Tagged(u128),
}

/// Work to do on each record of a batch. `run` appends the answer for `puzzle` to `out`, shaped for `layout`, or
/// says why there is none (then whatever it appended is discarded and the record is marked as failed).
///
/// `run` is called from several threads at once and should not allocate: `out` has room reserved.
pub trait Job: Sync {
    /// Appends the answer for one puzzle, or returns why there is none.
    fn run(&self, puzzle: &Grid, layout: TextLayout, out: &mut Vec<u8>) -> Result<(), Failure>;

    /// Appends the answer for one whole record: what the formats call. The default answers its puzzle with
    /// [`Job::run`]; jobs that need the record's claimed answer or its position override it.
    fn run_record(
        &self,
        record: &Record<'_>,
        layout: TextLayout,
        out: &mut Vec<u8>,
    ) -> Result<Answer, Failure> {
        self.run(record.puzzle, layout, out)?;
        Ok(Answer::Written)
    }

    /// The `"status"` of a record this job answered, in JSON Lines output (the format layer writes it before the
    /// job's own fields; a failed record's status is its failure kind).
    fn json_status(&self) -> &'static str {
        "ok"
    }

    /// The names of the fields of a line-format answer line, written first when the run asks for it (the batch
    /// option `header`); `None` (the default) for a job whose line output is the answer alone.
    fn line_header(&self) -> Option<&'static str> {
        None
    }

    /// How many output records each input record gives (`shuffle --copies`): 1, the default. A job with more
    /// writes them all itself in the line and grid layouts (one line or grid each, in order, separated by what
    /// separates records); a CSV or table row answered with [`CsvAnswer::Rewrite`] is written once per copy by the
    /// format, each through [`Job::run_copy`], with a `group` column added (the input record's number in the run,
    /// from 0).
    fn copies(&self) -> u32 {
        1
    }

    /// The answer for copy `copy` (below [`Job::copies`]) of a record: the default is [`Job::run_record`].
    fn run_copy(
        &self,
        record: &Record<'_>,
        copy: u32,
        layout: TextLayout,
        out: &mut Vec<u8>,
    ) -> Result<Answer, Failure> {
        let _ = copy;
        self.run_record(record, layout, out)
    }

    /// Where the answer goes in a CSV row: the solution column (the default), or new columns appended after every
    /// input field, in which case [`TextLayout::CsvField`] answers are those fields joined by commas.
    fn csv_answer(&self) -> CsvAnswer {
        CsvAnswer::Solution
    }
}

impl<F> Job for F
where
    F: Fn(&Grid, TextLayout, &mut Vec<u8>) -> Result<(), Failure> + Sync,
{
    #[inline]
    fn run(&self, puzzle: &Grid, layout: TextLayout, out: &mut Vec<u8>) -> Result<(), Failure> {
        self(puzzle, layout, out)
    }
}

/// A name (a file path, as bytes) as messages show it: printable text as it is; control characters (a newline, a
/// carriage return, ESC, DEL) escaped as Rust writes them (`\n`, `\u{1b}`) and bytes that are not UTF-8 as `\xNN`,
/// the way a bad character of a record is shown, so that no name can forge a message line or a terminal sequence.
pub fn display_name(name: &[u8]) -> String {
    let mut shown = String::with_capacity(name.len());
    for piece in name.utf8_chunks() {
        for c in piece.valid().chars() {
            if c.is_control() {
                shown.extend(c.escape_debug());
            } else {
                shown.push(c);
            }
        }
        for b in piece.invalid() {
            shown.push_str(&format!("\\x{b:02x}"));
        }
    }
    shown
}

/// Why a record has no answer. The text (`Display`) is what the output marker and the stderr message say.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Failure {
    /// The record could not be read as a puzzle.
    #[error("malformed: {0}")]
    Malformed(#[from] RecordError),
    /// Two givens clash: the puzzle breaks the rules before any solving.
    #[error("clashing givens: {0}")]
    ClashingGivens(Conflict),
    /// The givens are consistent but no completion exists.
    #[error("no solution")]
    NoSolution,
    /// A unique solution was asked for and there are at least two.
    #[error("more than one solution")]
    SeveralSolutions,
    /// The answer the record carries is not a solution of its puzzle.
    #[error("{0}")]
    WrongSolution(SolutionError),
}

/// Why a claimed solution is wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SolutionError {
    /// The record carries no solution to check.
    #[error("no solution given")]
    Missing,
    /// The solution's text is not a full board (a bad character, the wrong length, a blank cell).
    #[error("invalid solution: {0}")]
    Unreadable(ParseError),
    /// The solution has a blank cell.
    #[error("invalid solution: r{}c{} is blank", .0 / 9 + 1, .0 % 9 + 1)]
    Blank(usize),
    /// The solution breaks a rule.
    #[error("invalid solution: {0}")]
    Breaks(Conflict),
    /// The solution changes a given of the puzzle (0-based cell).
    #[error("solution changes given r{}c{}", .0 / 9 + 1, .0 % 9 + 1)]
    ChangesGiven(usize),
}

impl From<SolveError> for Failure {
    fn from(e: SolveError) -> Failure {
        match e {
            SolveError::InvalidGivens(c) => Failure::ClashingGivens(c),
            SolveError::NoSolution => Failure::NoSolution,
            SolveError::MultipleSolutions { .. } => Failure::SeveralSolutions,
        }
    }
}

impl Failure {
    /// The kind of failure, for counting.
    pub fn kind(&self) -> FailureKind {
        match self {
            Failure::Malformed(_) => FailureKind::Malformed,
            Failure::ClashingGivens(_) => FailureKind::ClashingGivens,
            Failure::NoSolution => FailureKind::NoSolution,
            Failure::SeveralSolutions => FailureKind::SeveralSolutions,
            Failure::WrongSolution(_) => FailureKind::WrongSolution,
        }
    }
}

/// The kinds of [`Failure`], for counts in the summary.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FailureKind {
    /// See [`Failure::Malformed`].
    Malformed,
    /// See [`Failure::ClashingGivens`].
    ClashingGivens,
    /// See [`Failure::NoSolution`].
    NoSolution,
    /// See [`Failure::SeveralSolutions`].
    SeveralSolutions,
    /// See [`Failure::WrongSolution`].
    WrongSolution,
}

impl FailureKind {
    /// Every kind, in summary order.
    pub const ALL: [FailureKind; FailureKind::COUNT] = [
        FailureKind::Malformed,
        FailureKind::ClashingGivens,
        FailureKind::NoSolution,
        FailureKind::SeveralSolutions,
        FailureKind::WrongSolution,
    ];

    /// Number of kinds.
    pub(crate) const COUNT: usize = 5;

    /// Key for the JSON summary.
    pub fn key(self) -> &'static str {
        match self {
            FailureKind::Malformed => "malformed",
            FailureKind::ClashingGivens => "clashing_givens",
            FailureKind::NoSolution => "no_solution",
            FailureKind::SeveralSolutions => "several_solutions",
            FailureKind::WrongSolution => "wrong_solution",
        }
    }

    /// Position in [`FailureKind::ALL`].
    pub(crate) fn index(self) -> usize {
        self as usize
    }
}

/// A record that failed, as found in its chunk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct RecordFailure {
    /// 0-based line of the record (for a grid, of its bad row) counted from the start of the chunk.
    pub line: u64,
    /// 0-based record number counted from the start of the chunk.
    pub record: u64,
    /// What went wrong.
    pub failure: Failure,
    /// End of this record's output (marker and newline included) in the chunk's output buffer.
    pub out_end: usize,
}

/// What one chunk held.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct ChunkReport {
    /// Newlines in the chunk, to number the lines of the next one.
    pub lines: u64,
    /// Records answered or marked.
    pub records: u64,
    /// Failed records by [`FailureKind::index`].
    pub failed: [u64; FailureKind::COUNT],
    /// Every failed record, in order.
    pub failures: Vec<RecordFailure>,
    /// The records answered with [`Answer::FirstOf`], in order.
    pub keyed: Vec<Keyed>,
    /// The records answered with [`Answer::Part`] or [`Answer::Tagged`], in order.
    pub routed: Vec<Routed>,
}

/// A record answered with [`Answer::Part`] or [`Answer::Tagged`]: its part, its tag and where its output lies in
/// the chunk's output buffer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Routed {
    /// The output part (for a tagged record, 0 until the run's router gives it).
    pub part: u8,
    /// The tag of a record answered with [`Answer::Tagged`] (0 for [`Answer::Part`]).
    pub tag: u128,
    /// Start of the record's output (its separator included).
    pub out_start: usize,
    /// End of the record's output (its newline included).
    pub out_end: usize,
}

/// A record answered with [`Answer::FirstOf`]: its key and where its output lies in the chunk's output buffer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Keyed {
    /// The key.
    pub key: [u8; 32],
    /// Start of the record's output (its separator included).
    pub out_start: usize,
    /// End of the record's output (its newline included).
    pub out_end: usize,
}

impl ChunkReport {
    /// Counts a record that got its answer.
    #[inline]
    pub(crate) fn solved(&mut self) {
        self.records += 1;
    }

    /// Counts a record answered with a key: kept only if its key is new to the run.
    pub(crate) fn keyed(&mut self, key: [u8; 32], out_start: usize, out_end: usize) {
        self.keyed.push(Keyed {
            key,
            out_start,
            out_end,
        });
        self.records += 1;
    }

    /// Counts a record answered for output part `part` (or, [`Answer::Tagged`], with `tag` for the router).
    pub(crate) fn routed(&mut self, (part, tag): (u8, u128), out_start: usize, out_end: usize) {
        self.routed.push(Routed {
            part,
            tag,
            out_start,
            out_end,
        });
        self.records += 1;
    }

    /// Counts a failed record: its 0-based line in the chunk, why, and where its output ends.
    pub(crate) fn failed(&mut self, line: u64, failure: Failure, out_end: usize) {
        self.failed[failure.kind().index()] += 1;
        self.failures.push(RecordFailure {
            line,
            record: self.records,
            failure,
            out_end,
        });
        self.records += 1;
    }
}

/// Where a record is in its input, as the observer is told it: a 1-based line of a text input (for a grid, the line
/// of its bad row; a CSV's header is line 1), or a 1-based row of a table (Parquet, Arrow), its header not counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum Position {
    /// A 1-based line of a text input.
    Line(u64),
    /// A 1-based row of a table.
    Row(u64),
}

impl Position {
    /// The 1-based number, line or row.
    pub fn number(self) -> u64 {
        match self {
            Position::Line(n) | Position::Row(n) => n,
        }
    }

    /// The place in the input named `input` as messages give it: `input:12` for a line (as compilers do),
    /// `input: row 12` for a row of a table.
    pub fn within(self, input: &str) -> String {
        match self {
            Position::Line(n) => format!("{input}:{n}"),
            Position::Row(n) => format!("{input}: row {n}"),
        }
    }
}

/// `line 12`, `row 12`.
impl std::fmt::Display for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Position::Line(n) => write!(f, "line {n}"),
            Position::Row(n) => write!(f, "row {n}"),
        }
    }
}

/// What a run tells as it goes. The library never prints: a front end (the `sudoku` binary, the Python module)
/// decides what to show. Called on the run's calling thread, in input order. `()` is the observer that ignores
/// everything.
pub trait Observer {
    /// A record failed: the input as named, where in it, and why.
    fn failure(&mut self, input: &str, at: Position, failure: &Failure) {
        let _ = (input, at, failure);
    }

    /// How far the run has come. Called after every chunk, in order.
    fn progress(&mut self, progress: Progress) {
        let _ = progress;
    }
}

/// How far a run has come, as told to [`Observer::progress`]: what is finished (records, boards or puzzles) and
/// how much of the whole that is.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Progress {
    /// Records answered so far (a batch run), or boards or puzzles made (a generation run).
    pub items: u64,
    /// The work done so far, in the unit of `total`: input bytes read for a batch run (records differ in size,
    /// bytes are what is known ahead), the same as `items` for a generation run.
    pub done: u64,
    /// The whole of `done` when it is known ahead: the size of the regular-file inputs, the count asked for.
    pub total: Option<u64>,
}

impl Observer for () {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_name_their_unit() {
        assert_eq!(Position::Line(12).within("a.txt"), "a.txt:12");
        assert_eq!(Position::Row(3).within("t.parquet"), "t.parquet: row 3");
        assert_eq!(Position::Row(3).to_string(), "row 3");
        assert_eq!(Position::Line(7).number(), 7);
    }

    const PUZZLE: &str =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

    #[test]
    fn a_closure_is_a_job() {
        let clues = |g: &Grid, _: TextLayout, out: &mut Vec<u8>| -> Result<(), Failure> {
            out.extend_from_slice(g.clue_count().to_string().as_bytes());
            Ok(())
        };
        let mut out = Vec::new();
        clues
            .run(&PUZZLE.parse().unwrap(), TextLayout::Line, &mut out)
            .unwrap();
        assert_eq!(out, b"17");
    }
}
