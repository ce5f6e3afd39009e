//! The CSV format of the Kaggle puzzle sets: a header naming a puzzle column and usually a solution column
//! (`quizzes,solutions`, `id,puzzle,solution,clues,difficulty`, `puzzle,solution`; Hugging Face's
//! `source,question,answer,rating`), then one puzzle per row.
//! Output: the same CSV with the solution column filled in (added at the end when the header has none); a failed
//! record gets `error: REASON` in that column, quoted when it holds a comma. Fields may be quoted (`"..."`, `""` for
//! a quote); a record is one line. A row whose quoted field stays open at the line end, with a `"` inside an
//! unquoted field (the two halves of a quoted field that spans lines) or with text after a closing quote, is a
//! malformed record, written back with that field quoted so that every output row is one well-formed CSV row; a
//! malformed row shorter than the header is filled with empty fields to the output's width, one longer than the
//! header is written whole with the marker after it (no field of it is dropped).

use std::io::Write as _;
use std::ops::Range;

use super::Answerer;
use super::{end_record, strip_cr, Place};
use crate::grid::Grid;
use crate::record::{
    Answer, ChunkReport, CsvAnswer, Failure, Record, RecordError, SolutionError, TextLayout,
};

/// The puzzle column's names, by default: the first of these in the header (in the header's order) is it.
pub(crate) const PUZZLE_NAMES: [&str; 5] = ["quizzes", "quiz", "puzzles", "puzzle", "question"];
/// The solution column's names, by default: the first of these in the header (after the puzzle column) is it.
pub(crate) const SOLUTION_NAMES: [&str; 3] = ["solutions", "solution", "answer"];

/// The names a user gave the puzzle and solution columns (`--column`, `--solution-column`); `None` for the
/// default names. Names match whole fields, trimmed, in any case.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ColumnNames {
    /// The puzzle column's name.
    pub puzzle: Option<String>,
    /// The solution column's name (the column `check` reads claims from, and `solve` fills).
    pub solution: Option<String>,
}

impl ColumnNames {
    fn is_puzzle(&self, name: &str) -> bool {
        match &self.puzzle {
            Some(n) => n.trim().eq_ignore_ascii_case(name),
            None => PUZZLE_NAMES.contains(&name),
        }
    }

    /// The first name the user gave that no field of `header` has.
    pub(crate) fn missing(&self, header: &[u8]) -> Option<String> {
        let mut found = [self.puzzle.is_none(), self.solution.is_none()];
        split(header, |_, f| {
            let name = String::from_utf8_lossy(header[f.inner].trim_ascii()).to_ascii_lowercase();
            found[0] |= self.is_puzzle(&name);
            found[1] |= self.is_solution(&name);
        });
        match found {
            [false, _] => self.puzzle.clone(),
            [_, false] => self.solution.clone(),
            _ => None,
        }
    }

    /// The first name the user gave that two fields of `header` have, or a solution column the user named that
    /// only the puzzle column has: which column is meant is then unclear.
    pub(crate) fn ambiguous(&self, header: &[u8]) -> Option<String> {
        let mut puzzle = None;
        let (mut puzzles, mut solutions, mut clash) = (0, 0, false);
        split(header, |i, f| {
            let name = String::from_utf8_lossy(header[f.inner].trim_ascii()).to_ascii_lowercase();
            let is_puzzle = self.is_puzzle(&name);
            if is_puzzle && puzzle.is_none() {
                puzzle = Some(i);
            }
            puzzles += usize::from(is_puzzle);
            if self.is_solution(&name) {
                if puzzle == Some(i) {
                    clash = true;
                } else {
                    solutions += 1;
                }
            }
        });
        if self.puzzle.is_some() && puzzles > 1 {
            self.puzzle.clone()
        } else if self.solution.is_some() && (solutions > 1 || clash && solutions == 0) {
            self.solution.clone()
        } else {
            None
        }
    }

    /// The puzzle column and the solution column among `names` (column names in order, as a CSV header or a
    /// table's schema has them), and how many names there are: the first name that is a puzzle column's, then the
    /// first other name that is a solution column's. Names are compared trimmed and in lower case.
    pub(crate) fn pick<'a>(
        &self,
        names: impl IntoIterator<Item = &'a [u8]>,
    ) -> (Option<usize>, Option<usize>, usize) {
        let (mut puzzle, mut solution, mut count) = (None, None, 0);
        for (i, name) in names.into_iter().enumerate() {
            let name = String::from_utf8_lossy(name.trim_ascii()).to_ascii_lowercase();
            if puzzle.is_none() && self.is_puzzle(&name) {
                puzzle = Some(i);
            } else if solution.is_none() && self.is_solution(&name) {
                solution = Some(i);
            }
            count = i + 1;
        }
        (puzzle, solution, count)
    }

    /// A column among `names` (as for [`ColumnNames::pick`]) that holds solutions but is not the solution column
    /// `pick` finds: named as a solution column by default or by the user. A job that rewrites the puzzle column
    /// and the solution column would leave it as it was; its name, as the header has it.
    pub(crate) fn other_solution(&self, names: &[&[u8]]) -> Option<String> {
        let (puzzle, solution, _) = self.pick(names.iter().copied());
        names.iter().enumerate().find_map(|(i, name)| {
            let lower = String::from_utf8_lossy(name.trim_ascii()).to_ascii_lowercase();
            let holds_solutions =
                SOLUTION_NAMES.contains(&lower.as_str()) || self.is_solution(&lower);
            (holds_solutions && Some(i) != puzzle && Some(i) != solution)
                .then(|| String::from_utf8_lossy(name.trim_ascii()).into_owned())
        })
    }

    fn is_solution(&self, name: &str) -> bool {
        match &self.solution {
            Some(n) => n.trim().eq_ignore_ascii_case(name),
            None => SOLUTION_NAMES.contains(&name),
        }
    }
}

/// Where the puzzle and the answer go, from the header.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(not(feature = "internals"), allow(unreachable_pub))] // in `Plan`, for `crate::internals`
pub struct Columns {
    /// 0-based index of the puzzle column.
    pub puzzle: usize,
    /// 0-based index of the column the answer goes into (`fields` when it is appended).
    pub solution: usize,
    /// Number of fields in the header.
    pub fields: usize,
    /// Answer columns after the first one (appended columns of [`CsvAnswer::Append`]).
    pub extra: usize,
    /// 0-based index of the header's own solution column, whose text a job may check, if it has one.
    pub claim: Option<usize>,
    /// Where the job's answer goes.
    pub answer: CsvAnswer,
}

impl Columns {
    /// The fields of a header line (without its line ending), unquoted.
    pub(crate) fn header_names(header: &[u8]) -> Vec<&[u8]> {
        let mut fields = Vec::new();
        split(header, |_, f| fields.push(&header[f.inner]));
        fields
    }

    /// Reads a header line (without its line ending) for the columns `names` names; `None` when no field names a
    /// puzzle column, or when a solution column named by the user is missing.
    pub(crate) fn from_header(header: &[u8], names: &ColumnNames) -> Option<Columns> {
        let (puzzle, solution, fields) = names.pick(Columns::header_names(header));
        if names.solution.is_some() && solution.is_none() {
            return None;
        }
        Some(Columns {
            puzzle: puzzle?,
            solution: solution.unwrap_or(fields),
            fields,
            extra: 0,
            claim: solution,
            answer: CsvAnswer::Solution,
        })
    }

    /// The columns for a job whose answer goes where `answer` says.
    pub(crate) fn answering(self, answer: CsvAnswer) -> Columns {
        match answer {
            CsvAnswer::Solution => self,
            CsvAnswer::Append(names) => Columns {
                solution: self.fields,
                extra: names.len().saturating_sub(1),
                answer,
                ..self
            },
            CsvAnswer::Rewrite | CsvAnswer::Row => Columns { answer, ..self },
        }
    }

    /// The column that holds a failed record's marker: the answer column, or the puzzle column when the job
    /// rewrites the row.
    pub(crate) fn marker_column(&self) -> usize {
        match self.answer {
            CsvAnswer::Solution | CsvAnswer::Append(_) => self.solution,
            CsvAnswer::Rewrite | CsvAnswer::Row => self.puzzle,
        }
    }

    /// True when the header has no solution column and one is added at the end.
    pub(crate) fn appends_solution(&self) -> bool {
        self.solution == self.fields
    }

    /// The name of the solution column added to `header` (the header these columns were read from): Kaggle's
    /// `solutions` beside a plural puzzle column (`quizzes`, `puzzles`), `solution` beside `quiz` or `puzzle`.
    pub(crate) fn added_solution_name(&self, header: &[u8]) -> &'static str {
        let mut plural = false;
        split(header, |i, f| {
            if i == self.puzzle {
                plural = header[f.inner]
                    .trim_ascii()
                    .to_ascii_lowercase()
                    .ends_with(b"s");
            }
        });
        if plural {
            "solutions"
        } else {
            "solution"
        }
    }

    /// Fields of an output row.
    pub(crate) fn output_fields(&self) -> usize {
        match self.answer {
            CsvAnswer::Solution | CsvAnswer::Append(_) => {
                self.fields.max(self.solution + 1) + self.extra
            }
            CsvAnswer::Rewrite | CsvAnswer::Row => self.fields,
        }
    }
}

/// One field: `whole` includes any quotes, `inner` is the text inside them.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Field {
    whole: Range<usize>,
    inner: Range<usize>,
}

/// How a line's quotes stand, besides its fields.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Quotes {
    /// A quoted field is left open at the end of the line.
    open: bool,
    /// A field that does not start with `"` holds one.
    stray: bool,
    /// A quoted field has text after its closing quote.
    after: bool,
}

/// Calls `each(index, field)` for every field of `line`; returns the number of fields and how its quotes stand.
fn split(line: &[u8], mut each: impl FnMut(usize, Field)) -> (usize, Quotes) {
    let mut pos = 0;
    let mut index = 0;
    let mut stray = false;
    let mut after = false;
    loop {
        let (field, next, open) = if line.get(pos) == Some(&b'"') {
            let mut j = pos + 1;
            loop {
                match memchr::memchr(b'"', &line[j..]) {
                    Some(k) if line.get(j + k + 1) == Some(&b'"') => j += k + 2,
                    Some(k) => {
                        let close = j + k;
                        // Text after the closing quote up to the comma stays part of the field (whole), which
                        // makes the row malformed.
                        let end =
                            memchr::memchr(b',', &line[close..]).map_or(line.len(), |c| close + c);
                        after |= end > close + 1;
                        break (
                            Field {
                                whole: pos..end,
                                inner: pos + 1..close,
                            },
                            end,
                            false,
                        );
                    }
                    None => {
                        let end = line.len();
                        break (
                            Field {
                                whole: pos..end,
                                inner: pos + 1..end,
                            },
                            end,
                            true,
                        );
                    }
                }
            }
        } else {
            // One pass finds the comma and any quote before it.
            let rest = &line[pos..];
            let end = match memchr::memchr2(b',', b'"', rest) {
                Some(q) if rest[q] == b'"' => {
                    stray = true;
                    memchr::memchr(b',', &rest[q..]).map_or(line.len(), |c| pos + q + c)
                }
                Some(c) => pos + c,
                None => line.len(),
            };
            (
                Field {
                    whole: pos..end,
                    inner: pos..end,
                },
                end,
                false,
            )
        };
        each(index, field);
        index += 1;
        if open || next >= line.len() {
            return (index, Quotes { open, stray, after });
        }
        pos = next + 1;
    }
}

/// Answers the row on line `n` (0-based in its chunk at `place`) at byte `position` of its input, `text` without
/// its newline.
#[allow(clippy::too_many_arguments)]
pub(crate) fn record<J: Answerer + ?Sized>(
    cols: &Columns,
    job: &J,
    place: Place,
    n: u64,
    position: u64,
    text: &[u8],
    out: &mut Vec<u8>,
    report: &mut ChunkReport,
) {
    let read = strip_cr(text);
    let first = Located::of(cols, read);
    let mended = (first.quotes != Quotes::default()).then(|| mend_quotes(read, first.quotes));
    let (row, located, bad_quotes) = match &mended {
        Some((fixed, e)) => (&fixed[..], Located::of(cols, fixed), Some(e)),
        None => (read, first, None),
    };
    let Located {
        puzzle,
        claim,
        answer,
        found,
        ..
    } = located;
    let from = out.len();
    let group = place.record.map(|first| first + report.records);
    place.open_json(out, n, puzzle.as_ref().map(|p| &row[p.inner.clone()]));
    let start = out.len();
    let result = if let Some(e) = bad_quotes {
        Err(Failure::Malformed(e.clone()))
    } else if found != cols.fields {
        Err(Failure::Malformed(RecordError::FieldCount {
            expected: cols.fields,
            found,
        }))
    } else {
        let field = puzzle
            .clone()
            .expect("the puzzle column is within the header's fields");
        match Grid::parse_line(&row[field.inner]) {
            Ok(grid) => {
                let record = Record {
                    puzzle: &grid,
                    claim: claim.as_ref().map(|c| &row[c.inner.clone()]),
                    position,
                    text: row,
                };
                match cols.answer {
                    _ if place.json.is_some() => place.run(job, &record, TextLayout::Json, out),
                    CsvAnswer::Solution | CsvAnswer::Append(_) => {
                        let rest = before_answer(row, answer.clone(), found, cols, out);
                        job.run_record(&record, TextLayout::CsvField, out)
                            .inspect(|_| out.extend_from_slice(&row[rest]))
                    }
                    CsvAnswer::Row => job.run_record(&record, TextLayout::CsvField, out),
                    CsvAnswer::Rewrite => copies(job, &record, field.whole, claim, group, out),
                }
            }
            Err(e) => Err(Failure::Malformed(e.into())),
        }
    };
    let json = place.json.is_some();
    end_record(
        out,
        (from, start),
        n,
        result,
        json,
        report,
        |out, failure| {
            marked_row(cols, row, (puzzle, answer, found), failure, out);
            write_group(out, group);
        },
    );
}

/// A failed row's output: the row with the marker in its answer field (the solution or appended columns, the
/// columns added left empty) or in place of its puzzle field, a row shorter than the header filled with empty
/// fields to the output's width; a row longer than the header (which field is which cannot be told) whole, the
/// marker after it. `fields` are the row's puzzle field, answer field and number of fields.
fn marked_row(
    cols: &Columns,
    row: &[u8],
    fields: (Option<Field>, Option<Range<usize>>, usize),
    failure: &Failure,
    out: &mut Vec<u8>,
) {
    let (puzzle, answer, found) = fields;
    match (cols.answer, puzzle) {
        // More fields than the header: which field is which cannot be told, so every one is kept and the marker
        // follows them.
        _ if found > cols.fields => {
            out.extend_from_slice(row);
            out.push(b',');
            write_marker_field(out, failure);
        }
        (CsvAnswer::Solution | CsvAnswer::Append(_), _) => {
            let rest = before_answer(row, answer, found, cols, out);
            write_marker_field(out, failure);
            out.extend(std::iter::repeat_n(b',', cols.extra));
            out.extend_from_slice(&row[rest]);
            // Fewer fields than the header: empty ones fill the row to the output's width.
            let pad = cols
                .output_fields()
                .saturating_sub(found.max(cols.solution + 1) + cols.extra);
            out.extend(std::iter::repeat_n(b',', pad));
        }
        (_, Some(p)) => {
            out.extend_from_slice(&row[..p.whole.start]);
            write_marker_field(out, failure);
            out.extend_from_slice(&row[p.whole.end..]);
            out.extend(std::iter::repeat_n(b',', cols.fields.saturating_sub(found)));
        }
        // A row too short to reach the puzzle column: empty fields up to it, the marker there, empty ones after.
        (_, None) => {
            out.extend_from_slice(row);
            out.extend(std::iter::repeat_n(b',', cols.puzzle + 1 - found));
            write_marker_field(out, failure);
            let pad = cols.fields.saturating_sub(cols.puzzle + 1);
            out.extend(std::iter::repeat_n(b',', pad));
        }
    }
}

/// The fields of a row a job needs, found in one pass.
struct Located {
    puzzle: Option<Field>,
    claim: Option<Field>,
    /// The whole of the answer field.
    answer: Option<Range<usize>>,
    /// Number of fields.
    found: usize,
    quotes: Quotes,
}

impl Located {
    fn of(cols: &Columns, row: &[u8]) -> Located {
        let (mut puzzle, mut claim, mut answer) = (None, None, None);
        let (found, quotes) = split(row, |i, f| {
            if i == cols.solution {
                answer = Some(f.whole.clone());
            }
            if Some(i) == cols.claim {
                claim = Some(f.clone());
            }
            if i == cols.puzzle {
                puzzle = Some(f);
            }
        });
        Located {
            puzzle,
            claim,
            answer,
            found,
            quotes,
        }
    }
}

/// For a row whose `quotes` are wrong (a quoted field left open at its end, a `"` inside an unquoted field, text
/// after a closing quote): the row with each such field made one well-formed field (the open one closed, so it
/// reads as the text it holds; the others quoted, so they read as they are written) and why the row is malformed.
fn mend_quotes(row: &[u8], quotes: Quotes) -> (Vec<u8>, RecordError) {
    let mut fixed = Vec::with_capacity(row.len() + 8);
    split(row, |i, f| {
        if i > 0 {
            fixed.push(b',');
        }
        let text = &row[f.whole.clone()];
        let unquoted_with_quote = f.whole == f.inner && memchr::memchr(b'"', text).is_some();
        let text_after_quote = f.whole.end > f.inner.end + 1;
        if unquoted_with_quote || text_after_quote {
            fixed.push(b'"');
            for &b in text {
                fixed.extend_from_slice(if b == b'"' {
                    b"\"\""
                } else {
                    std::slice::from_ref(&b)
                });
            }
            fixed.push(b'"');
        } else {
            fixed.extend_from_slice(text);
        }
    });
    if quotes.open {
        fixed.push(b'"');
        (fixed, RecordError::UnterminatedQuote)
    } else if quotes.stray {
        (fixed, RecordError::StrayQuote)
    } else {
        (fixed, RecordError::TextAfterQuote)
    }
}

/// The `group` field ending a row of a job with several copies, if any: `,N`.
fn write_group(out: &mut Vec<u8>, group: Option<u64>) {
    if let Some(g) = group {
        let _ = write!(out, ",{g}");
    }
}

/// [`CsvAnswer::Rewrite`]: the row rewritten ([`rewrite`]) once for each of the job's [`Answerer::copies`], the rows
/// separated by newlines, each ended by its `group` field when there is one.
fn copies<J: Answerer + ?Sized>(
    job: &J,
    record: &Record<'_>,
    puzzle: Range<usize>,
    claim: Option<Field>,
    group: Option<u64>,
    out: &mut Vec<u8>,
) -> Result<Answer, Failure> {
    let mut answer = Answer::Written;
    for copy in 0..job.copies() {
        if copy > 0 {
            out.push(b'\n');
        }
        answer = rewrite(job, record, copy, puzzle.clone(), claim.clone(), out)?;
        write_group(out, group);
    }
    Ok(answer)
}

/// [`CsvAnswer::Rewrite`]: the row with the puzzle field replaced by the job's answer (for `copy`) and the claimed
/// solution field (when not empty) by the job's answer for the claim read as a puzzle, every other byte kept.
fn rewrite<J: Answerer + ?Sized>(
    job: &J,
    record: &Record<'_>,
    copy: u32,
    puzzle: Range<usize>,
    claim: Option<Field>,
    out: &mut Vec<u8>,
) -> Result<Answer, Failure> {
    let row = record.text;
    let claim = claim.filter(|c| !row[c.inner.clone()].trim_ascii().is_empty());
    let solution = match &claim {
        Some(c) => Some(
            Grid::parse_line(&row[c.inner.clone()])
                .map_err(|e| Failure::WrongSolution(SolutionError::Unreadable(e)))?,
        ),
        None => None,
    };
    let mut edits = [Some((puzzle, record.puzzle)), None];
    if let (Some(c), Some(g)) = (claim, solution.as_ref()) {
        edits[1] = Some((c.whole, g));
    }
    edits.sort_by_key(|e| e.as_ref().map_or(usize::MAX, |(r, _)| r.start));
    let mut pos = 0;
    let mut answer = Answer::Written;
    for (range, grid) in edits.into_iter().flatten() {
        out.extend_from_slice(&row[pos..range.start]);
        let part = Record {
            puzzle: grid,
            claim: None,
            ..*record
        };
        let a = job.run_copy(&part, copy, TextLayout::CsvField, out)?;
        if std::ptr::eq(grid, record.puzzle) {
            answer = a;
        }
        pos = range.end;
    }
    out.extend_from_slice(&row[pos..]);
    Ok(answer)
}

/// Writes the row up to the answer field (padding a short row with empty fields, or adding the appended column)
/// and returns the range of the row that follows the answer.
fn before_answer(
    row: &[u8],
    answer: Option<Range<usize>>,
    found: usize,
    cols: &Columns,
    out: &mut Vec<u8>,
) -> Range<usize> {
    match answer {
        Some(field) => {
            out.extend_from_slice(&row[..field.start]);
            field.end..row.len()
        }
        None => {
            out.extend_from_slice(row);
            for _ in found..=cols.solution {
                out.push(b',');
            }
            row.len()..row.len()
        }
    }
}

/// `error: REASON` as one CSV field, quoted when needed.
fn write_marker_field(out: &mut Vec<u8>, failure: &Failure) {
    let text = format!("error: {failure}");
    if text.contains([',', '"', '\n', '\r']) {
        out.push(b'"');
        out.extend_from_slice(text.replace('"', "\"\"").as_bytes());
        out.push(b'"');
    } else {
        out.extend_from_slice(text.as_bytes());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // The first row of data/kaggle.csv (answer obtained independently, see data/README.md).
    const PUZZLE: &str =
        "002610000403000601001000000000031000160400780020500040009004308080700204000100060";
    const SOLUTION: &str =
        "892617435453982671671345892947831526165429783328576149719264358586793214234158967";

    fn run(header: &str, body: &str) -> (String, ChunkReport) {
        let cols = Columns::from_header(header.as_bytes(), &ColumnNames::default()).unwrap();
        crate::format::solve_chunk(&crate::format::Plan::Csv(cols), body)
    }

    #[test]
    fn header_variants() {
        let c = Columns::from_header(b"quizzes,solutions", &ColumnNames::default()).unwrap();
        assert_eq!((c.puzzle, c.solution, c.fields), (0, 1, 2));
        let c = Columns::from_header(
            b"id,puzzle,solution,clues,difficulty",
            &ColumnNames::default(),
        )
        .unwrap();
        assert_eq!((c.puzzle, c.solution, c.fields), (1, 2, 5));
        let c = Columns::from_header(b"\"Puzzle\" , id", &ColumnNames::default()).unwrap();
        assert_eq!((c.puzzle, c.solution, c.fields), (0, 2, 2));
        assert!(c.appends_solution());
        assert_eq!(c.added_solution_name(b"\"Puzzle\" , id"), "solution");
        for (header, name) in [
            ("quizzes", "solutions"),
            ("id,Puzzles", "solutions"),
            ("quiz,x", "solution"),
            ("\"quizzes\"", "solutions"),
        ] {
            let c = Columns::from_header(header.as_bytes(), &ColumnNames::default()).unwrap();
            assert_eq!(c.added_solution_name(header.as_bytes()), name, "{header}");
        }
        assert_eq!(Columns::from_header(b"a,b", &ColumnNames::default()), None);
        let c = Columns::from_header(b"source,question,answer,rating", &ColumnNames::default())
            .unwrap();
        assert_eq!((c.puzzle, c.solution, c.claim), (1, 2, Some(2)));
        let named = ColumnNames {
            puzzle: Some("Board".into()),
            solution: Some("answer".into()),
        };
        let c = Columns::from_header(b"puzzle,board,ANSWER,solution", &named).unwrap();
        assert_eq!((c.puzzle, c.solution, c.claim), (1, 2, Some(2)));
        assert_eq!(Columns::from_header(b"puzzle,answer", &named), None);
        let only_puzzle = ColumnNames {
            puzzle: Some("board".into()),
            solution: None,
        };
        assert_eq!(
            Columns::from_header(b"board,solution", &only_puzzle)
                .unwrap()
                .claim,
            Some(1)
        );
        let no_solution = ColumnNames {
            puzzle: None,
            solution: Some("answer".into()),
        };
        assert_eq!(
            Columns::from_header(b"quizzes,solutions", &no_solution),
            None
        );
    }

    #[test]
    fn fills_the_solution_column_and_keeps_other_fields() {
        let body = format!("7,{PUZZLE},,27,2.2\r\n\"a,b\",\"{PUZZLE}\",old,27,x");
        let (out, report) = run("id,puzzle,solution,clues,difficulty", &body);
        assert_eq!(
            out,
            format!("7,{PUZZLE},{SOLUTION},27,2.2\n\"a,b\",\"{PUZZLE}\",{SOLUTION},27,x\n")
        );
        assert_eq!((report.records, report.failures.len()), (2, 0));
        let (out, _) = run("puzzle", PUZZLE);
        assert_eq!(out, format!("{PUZZLE},{SOLUTION}\n"));
    }

    /// The number of fields of `row` when it reads as RFC 4180 fields (every field unquoted without a `"`, or
    /// quoted with its inner quotes doubled), else `None`.
    fn well_formed(row: &str) -> Option<usize> {
        let (mut count, mut rest) = (0, row.as_bytes());
        loop {
            count += 1;
            let end = if rest.first() == Some(&b'"') {
                let mut i = 1;
                loop {
                    match (rest.get(i), rest.get(i + 1)) {
                        (Some(b'"'), Some(b'"')) => i += 2,
                        (Some(b'"'), _) => break i + 1,
                        (Some(_), _) => i += 1,
                        (None, _) => return None,
                    }
                }
            } else {
                let end = rest.iter().position(|&b| b == b',').unwrap_or(rest.len());
                if rest[..end].contains(&b'"') {
                    return None;
                }
                end
            };
            match rest.get(end) {
                None => return Some(count),
                Some(b',') => rest = &rest[end + 1..],
                Some(_) => return None,
            }
        }
    }

    #[test]
    fn a_quoted_field_spanning_lines_gives_two_malformed_rows_each_well_formed() {
        // The id field "a<newline>b": its two halves are two malformed records, every other field kept, and each
        // output row is one well-formed row (the first, short, filled with empty fields to the header's width).
        let body = format!("\"a\nb\",{PUZZLE},,27\n\"x\"\"y\",{PUZZLE},,9\n");
        let (out, report) = run("id,puzzle,solution,clues", &body);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(
            lines,
            [
                "\"a\",,error: malformed: unterminated quoted CSV field (a record is one line: a quoted field \
                 cannot span lines),",
                &format!(
                    "\"b\"\"\",{PUZZLE},error: malformed: a quote inside an unquoted CSV field (the end of a \
                     quoted field that spans lines?),27"
                ),
                &format!("\"x\"\"y\",{PUZZLE},{SOLUTION},9"),
            ]
        );
        let widths: Vec<_> = lines.iter().map(|l| well_formed(l)).collect();
        assert_eq!(widths, [Some(4), Some(4), Some(4)]);
        assert_eq!(
            report.failures.iter().map(|f| f.line).collect::<Vec<_>>(),
            [0, 1]
        );
    }

    #[test]
    fn failures_go_into_the_solution_column() {
        let clash = format!("1{}", &PUZZLE[1..]);
        let body = format!("{clash},\n{PUZZLE}\n\"{PUZZLE},\n1,2,3\n");
        let (out, report) = run("quizzes,solutions", &body);
        let lines: Vec<&str> = out.lines().collect();
        assert!(lines[0].starts_with(&format!(
            "{clash},\"error: clashing givens: row 1 has two 1s"
        )));
        assert_eq!(
            lines[1],
            format!("{PUZZLE},\"error: malformed: expected 2 CSV fields, found 1\"")
        );
        assert_eq!(
            lines[2],
            format!(
                "\"{PUZZLE},\",error: malformed: unterminated quoted CSV field (a record is one line: a quoted \
                 field cannot span lines)"
            )
        );
        // A row longer than the header is kept whole, the marker after it (it replaced the row's second field).
        assert_eq!(
            lines[3],
            "1,2,3,\"error: malformed: expected 2 CSV fields, found 3\""
        );
        assert_eq!(report.failures.len(), 4);
        let widths: Vec<_> = lines.iter().map(|l| well_formed(l)).collect();
        assert_eq!(widths, [Some(2), Some(2), Some(2), Some(4)]);
        assert_eq!(
            report.failures.iter().map(|f| f.line).collect::<Vec<_>>(),
            [0, 1, 2, 3]
        );
    }
}
