//! A table's rows answered: where the puzzles are and where the answers go ([`Plan`], from the table's schema and
//! the job's [`CsvAnswer`]), and a chunk of rows answered by the job into the output batch and its report (each
//! row once per copy, with a `group` column, for a job with several copies: [`Job::copies`]).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use arrow_array::builder::StringBuilder;
use arrow_array::{Array, ArrayRef, RecordBatch};
use arrow_schema::{DataType, Field, Schema, SchemaRef};

use super::column::{is_text, type_name, Texts};
use super::table::TableError;
use crate::format::csv::ColumnNames;
use crate::grid::Grid;
use crate::record::{
    Answer, ChunkReport, CsvAnswer, Failure, Job, Record, RecordError, SolutionError, TextLayout,
};

/// Where the puzzles are and where the answers go.
pub(super) struct Plan {
    pub(super) puzzle: usize,
    /// The solution column: the claims a job may check, and the column `solve` fills.
    pub(super) claim: Option<usize>,
    answer: CsvAnswer,
    /// Answer columns appended (for `CsvAnswer::Solution` without a solution column, or `Append`).
    pub(super) appended: usize,
    /// Rows are rewritten once per copy of the job ([`Job::copies`]), a `group` column (int64) added last.
    group: bool,
    pub(super) schema: SchemaRef,
}

/// The names of a schema's columns, for messages.
fn column_list(schema: &Schema) -> String {
    let names: Vec<String> = schema
        .fields()
        .iter()
        .map(|f| format!("{:?}", f.name()))
        .collect();
    names.join(", ")
}

/// The plan of a table of `schema` for a job whose answer goes where `answer` says: the puzzle and solution columns
/// picked by `names` (checked to hold text), and the output schema (with a `group` column when a job that
/// rewrites rows makes `copies` of each, more than one).
pub(super) fn plan(
    schema: &SchemaRef,
    names: &ColumnNames,
    answer: CsvAnswer,
    copies: u32,
) -> Result<Plan, TableError> {
    let column_names: Vec<&[u8]> = schema
        .fields()
        .iter()
        .map(|f| f.name().as_bytes())
        .collect();
    let (puzzle, claim, _) = names.pick(column_names.iter().copied());
    let missing = |name: &String| TableError::NoNamedColumn {
        name: name.clone(),
        columns: column_list(schema),
    };
    let Some(puzzle) = puzzle else {
        return Err(match &names.puzzle {
            Some(n) => missing(n),
            None => TableError::NoPuzzleColumn {
                columns: column_list(schema),
            },
        });
    };
    if let (Some(n), None) = (&names.solution, claim) {
        return Err(missing(n));
    }
    if answer == CsvAnswer::Rewrite {
        if let Some(name) = names.other_solution(&column_names) {
            return Err(TableError::SecondSolutionColumn {
                name,
                columns: column_list(schema),
            });
        }
    }
    check_text(schema, puzzle, claim)?;
    let group = copies > 1 && answer == CsvAnswer::Rewrite;
    let (out_schema, appended) = answer_schema(schema, puzzle, claim, answer, group);
    Ok(Plan {
        puzzle,
        claim,
        answer,
        appended,
        group,
        schema: out_schema,
    })
}

/// Fails when the puzzle column or the solution column does not hold text.
fn check_text(schema: &Schema, puzzle: usize, claim: Option<usize>) -> Result<(), TableError> {
    for (i, solutions) in [(puzzle, false)]
        .into_iter()
        .chain(claim.map(|c| (c, true)))
    {
        let f = schema.field(i);
        if !is_text(f.data_type()) {
            let (column, data_type) = (f.name().clone(), type_name(f.data_type()));
            return Err(if solutions {
                TableError::SolutionNotText { column, data_type }
            } else {
                TableError::NotText { column, data_type }
            });
        }
    }
    Ok(())
}

/// The output schema (every input column; the answer columns text; with `group`, a `group` column last) and the
/// number of answer columns appended.
fn answer_schema(
    schema: &SchemaRef,
    puzzle: usize,
    claim: Option<usize>,
    answer: CsvAnswer,
    group: bool,
) -> (SchemaRef, usize) {
    let text = |name: &str| Arc::new(Field::new(name, DataType::Utf8, true));
    let mut fields: Vec<Arc<Field>> = schema.fields().iter().cloned().collect();
    let mut appended = 0;
    match answer {
        CsvAnswer::Solution => match claim {
            Some(c) => fields[c] = text(schema.field(c).name()),
            None => {
                let plural = schema
                    .field(puzzle)
                    .name()
                    .trim()
                    .to_ascii_lowercase()
                    .ends_with('s');
                fields.push(text(if plural { "solutions" } else { "solution" }));
                appended = 1;
            }
        },
        CsvAnswer::Append(names) => {
            fields.extend(names.iter().map(|n| text(n)));
            appended = names.len();
        }
        CsvAnswer::Rewrite | CsvAnswer::Row => {
            for c in std::iter::once(puzzle).chain(claim.filter(|_| answer == CsvAnswer::Rewrite)) {
                fields[c] = text(schema.field(c).name());
            }
        }
    }
    if group {
        fields.push(Arc::new(Field::new("group", DataType::Int64, false)));
    }
    let out = Arc::new(Schema::new_with_metadata(fields, schema.metadata().clone()));
    (out, appended)
}

/// Answers every row of `batch` (whose first row is row `first` of its input, 0-based): the output batch and
/// the report, rows standing for lines (a failure's `line` and `record` are its row in the batch, `out_end` the
/// rows up to and including it; a key's `out_start` is its row).
pub(super) fn answer<J: Job + ?Sized>(
    plan: &Plan,
    job: &J,
    batch: &RecordBatch,
    first: u64,
    cancel: &AtomicBool,
) -> (RecordBatch, ChunkReport) {
    if plan.group {
        return answer_copies(plan, job, batch, first, cancel);
    }
    let n = batch.num_rows();
    let mut report = ChunkReport {
        lines: n as u64,
        ..ChunkReport::default()
    };
    let puzzles = Texts::of(batch.column(plan.puzzle));
    let claims = plan.claim.map(|c| Texts::of(batch.column(c)));
    let mut cols = Columns::new(plan, n);
    let mut buf = Vec::with_capacity(256);
    let mut claim_buf = Vec::with_capacity(128);
    for i in 0..n {
        if cancel.load(Ordering::Relaxed) {
            // The run is stopping: the rest is never delivered.
            break;
        }
        let text = puzzles.get(i);
        let claim = claims.as_ref().and_then(|c| c.get(i));
        buf.clear();
        claim_buf.clear();
        let row = Row {
            text,
            claim,
            position: first + i as u64,
        };
        match row.answer(plan, job, &mut buf, &mut claim_buf) {
            Ok(answer) => {
                cols.answered(plan, &row, &buf, &claim_buf);
                match answer {
                    Answer::Written => report.solved(),
                    Answer::FirstOf(key) => report.keyed(key, i, i + 1),
                    Answer::Part(part) => report.routed((part, 0), i, i + 1),
                    Answer::Tagged(tag) => report.routed((0, tag), i, i + 1),
                }
            }
            Err(failure) => {
                // The marker of a failed record, as the CSV path writes it (unquoted: a table needs none).
                buf.clear();
                crate::format::write_marker(&mut buf, &failure);
                cols.failed(&row, &buf);
                report.failed(i as u64, failure, i + 1);
            }
        }
    }
    let done = report.records as usize;
    (cols.finish(plan, batch, done), report)
}

/// One row's texts: its puzzle (null or not) and its claimed solution, at its 0-based row of the input.
struct Row<'a> {
    text: Option<&'a [u8]>,
    claim: Option<&'a [u8]>,
    position: u64,
}

impl Row<'_> {
    /// The job's answer for the row, into `buf` (and `claim_buf`, for `CsvAnswer::Rewrite`), or why it has none.
    fn answer<J: Job + ?Sized>(
        &self,
        plan: &Plan,
        job: &J,
        buf: &mut Vec<u8>,
        claim_buf: &mut Vec<u8>,
    ) -> Result<Answer, Failure> {
        let t = self.text.ok_or(Failure::Malformed(RecordError::Null))?;
        let grid = Grid::parse_line(t).map_err(|e| Failure::Malformed(e.into()))?;
        let record = Record {
            puzzle: &grid,
            claim: self.claim,
            position: self.position,
            text: t,
        };
        match plan.answer {
            CsvAnswer::Rewrite => rewrite(job, &record, 0, buf, claim_buf),
            _ => job.run_record(&record, TextLayout::CsvField, buf),
        }
    }
}

/// The answer columns of a chunk being built: appended ones, or the puzzle column (and the claim column, for
/// `CsvAnswer::Rewrite`).
struct Columns {
    cols: Vec<StringBuilder>,
    claim_col: Option<StringBuilder>,
}

impl Columns {
    fn new(plan: &Plan, n: usize) -> Columns {
        let builder = || StringBuilder::with_capacity(n, n * 82);
        Columns {
            cols: (0..plan.appended.max(1)).map(|_| builder()).collect(),
            claim_col: (plan.answer == CsvAnswer::Rewrite && plan.claim.is_some()).then(builder),
        }
    }

    /// Takes the job's answer for `row`: `buf` (and `claim_buf`, the answer for its claim).
    fn answered(&mut self, plan: &Plan, row: &Row<'_>, buf: &[u8], claim_buf: &[u8]) {
        match plan.answer {
            CsvAnswer::Solution | CsvAnswer::Append(_) => {
                let mut fields = buf.split(|&b| b == b',');
                for c in self.cols.iter_mut() {
                    match fields.next() {
                        Some(f) => c.append_value(String::from_utf8_lossy(f)),
                        None => c.append_null(),
                    }
                }
            }
            CsvAnswer::Rewrite => {
                self.cols[0].append_value(String::from_utf8_lossy(buf));
                if let Some(c) = &mut self.claim_col {
                    if claim_buf.is_empty() {
                        c.append_option(row.claim.map(String::from_utf8_lossy));
                    } else {
                        c.append_value(String::from_utf8_lossy(claim_buf));
                    }
                }
            }
            // The row is kept as it is.
            CsvAnswer::Row => self.cols[0].append_option(row.text.map(String::from_utf8_lossy)),
        }
    }

    /// Takes the marker of a failed `row`: in the first answer column, the others null, the claim kept.
    fn failed(&mut self, row: &Row<'_>, marker: &[u8]) {
        self.cols[0].append_value(String::from_utf8_lossy(marker));
        for c in self.cols.iter_mut().skip(1) {
            c.append_null();
        }
        if let Some(c) = &mut self.claim_col {
            c.append_option(row.claim.map(String::from_utf8_lossy));
        }
    }

    /// The output batch: the first `done` rows of `batch` with the answer columns in their places.
    fn finish(self, plan: &Plan, batch: &RecordBatch, done: usize) -> RecordBatch {
        let mut columns: Vec<ArrayRef> = batch.columns().iter().map(|c| c.slice(0, done)).collect();
        let mut built = self
            .cols
            .into_iter()
            .map(|mut b| Arc::new(b.finish()) as ArrayRef);
        match plan.answer {
            CsvAnswer::Solution | CsvAnswer::Append(_) if plan.appended > 0 => {
                columns.extend(built)
            }
            CsvAnswer::Solution | CsvAnswer::Append(_) => {
                columns[plan.claim.expect("a solution column")] = built.next().expect("one")
            }
            CsvAnswer::Rewrite | CsvAnswer::Row => {
                columns[plan.puzzle] = built.next().expect("one");
                if let (Some(c), Some(mut b)) = (plan.claim, self.claim_col) {
                    columns[c] = Arc::new(b.finish());
                }
            }
        }
        RecordBatch::try_new(plan.schema.clone(), columns)
            .expect("the columns follow the plan's schema")
    }
}

/// [`answer`] for a job with several copies of each row ([`Job::copies`]): each row answered once per copy,
/// every other column repeated, the `group` column (the row's number in the input) added; a failed row is one
/// row with its marker. The report's rows are input rows, but a failure's `out_end` counts output rows.
fn answer_copies<J: Job + ?Sized>(
    plan: &Plan,
    job: &J,
    batch: &RecordBatch,
    first: u64,
    cancel: &AtomicBool,
) -> (RecordBatch, ChunkReport) {
    let n = batch.num_rows();
    let copies = job.copies() as usize;
    let mut report = ChunkReport {
        lines: n as u64,
        ..ChunkReport::default()
    };
    let puzzles = Texts::of(batch.column(plan.puzzle));
    let claims = plan.claim.map(|c| Texts::of(batch.column(c)));
    let builder = || StringBuilder::with_capacity(n * copies, n * copies * 82);
    let mut puzzle_col = builder();
    let mut claim_col = plan.claim.map(|_| builder());
    // The input row of each output row.
    let mut rows: Vec<u32> = Vec::with_capacity(n * copies);
    let mut made = vec![(Vec::new(), Vec::new()); copies];
    for i in 0..n {
        if cancel.load(Ordering::Relaxed) {
            break;
        }
        let text = puzzles.get(i);
        let claim = claims.as_ref().and_then(|c| c.get(i));
        let result = rewrite_copies(job, text, claim, first + i as u64, &mut made);
        let lossy = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
        match result {
            Ok(()) => {
                for (p, s) in &made {
                    puzzle_col.append_value(lossy(p));
                    if let Some(c) = &mut claim_col {
                        if s.is_empty() {
                            c.append_option(claim.map(lossy));
                        } else {
                            c.append_value(lossy(s));
                        }
                    }
                    rows.push(i as u32);
                }
                report.solved();
            }
            Err(failure) => {
                let mut marker = Vec::new();
                crate::format::write_marker(&mut marker, &failure);
                puzzle_col.append_value(lossy(&marker));
                if let Some(c) = &mut claim_col {
                    c.append_option(claim.map(lossy));
                }
                rows.push(i as u32);
                report.failed(i as u64, failure, rows.len());
            }
        }
    }
    let columns = CopyColumns {
        puzzle: puzzle_col,
        claim: claim_col,
        rows,
    };
    (columns.finish(plan, batch, first), report)
}

/// Every copy of one row (its puzzle `text`, its `claim`, its number `position` in the run) rewritten by `job`
/// into `made`, a puzzle and a claim per copy.
fn rewrite_copies<J: Job + ?Sized>(
    job: &J,
    text: Option<&[u8]>,
    claim: Option<&[u8]>,
    position: u64,
    made: &mut [(Vec<u8>, Vec<u8>)],
) -> Result<(), Failure> {
    let t = text.ok_or(Failure::Malformed(RecordError::Null))?;
    let grid = Grid::parse_line(t).map_err(|e| Failure::Malformed(e.into()))?;
    let record = Record {
        puzzle: &grid,
        claim,
        position,
        text: t,
    };
    made.iter_mut().zip(0u32..).try_for_each(|((p, s), copy)| {
        p.clear();
        s.clear();
        rewrite(job, &record, copy, p, s).map(|_| ())
    })
}

/// The columns [`answer_copies`] builds: the rewritten puzzles and claims, and the input row of each output row.
struct CopyColumns {
    puzzle: StringBuilder,
    claim: Option<StringBuilder>,
    rows: Vec<u32>,
}

impl CopyColumns {
    /// The output batch of `batch` (whose first row is number `first` in the run): every column's rows repeated as
    /// `rows` says, the puzzle and claim columns replaced, the `group` column added.
    fn finish(mut self, plan: &Plan, batch: &RecordBatch, first: u64) -> RecordBatch {
        let groups = self.rows.iter().map(|&r| (first + u64::from(r)) as i64);
        let groups = arrow_array::Int64Array::from_iter_values(groups);
        let take = arrow_array::UInt32Array::from(self.rows);
        let mut columns: Vec<ArrayRef> = batch
            .columns()
            .iter()
            .map(|c| arrow_select::take::take(c, &take, None).expect("rows of the batch"))
            .collect();
        columns[plan.puzzle] = Arc::new(self.puzzle.finish());
        if let (Some(c), Some(b)) = (plan.claim, &mut self.claim) {
            columns[c] = Arc::new(b.finish());
        }
        columns.push(Arc::new(groups));
        RecordBatch::try_new(plan.schema.clone(), columns)
            .expect("the columns follow the plan's schema")
    }
}

/// `CsvAnswer::Rewrite`: the job's answer for the puzzle (its copy `copy`) into `out`, and for the claim (when
/// not empty) read as a puzzle into `claim_out`.
fn rewrite<J: Job + ?Sized>(
    job: &J,
    record: &Record<'_>,
    copy: u32,
    out: &mut Vec<u8>,
    claim_out: &mut Vec<u8>,
) -> Result<Answer, Failure> {
    if let Some(c) = record.claim.filter(|c| !c.trim_ascii().is_empty()) {
        let solution = Grid::parse_line(c)
            .map_err(|e| Failure::WrongSolution(SolutionError::Unreadable(e)))?;
        let part = Record {
            puzzle: &solution,
            claim: None,
            ..*record
        };
        job.run_copy(&part, copy, TextLayout::CsvField, claim_out)?;
    }
    let part = Record {
        claim: None,
        ..*record
    };
    job.run_copy(&part, copy, TextLayout::CsvField, out)
}
