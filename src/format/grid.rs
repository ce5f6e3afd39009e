//! The grid format: nine rows of nine digits separated by single spaces (`0` or `.` blank), a blank line between
//! boards, none needed after the last. A record is a run of lines without a blank line inside (`#` comment lines
//! inside it are ignored); a run of anything but nine good rows is a malformed record. Output: the answer as nine
//! rows, or the one line `error: REASON`, with a blank line between records.

use std::borrow::Cow;
use std::sync::atomic::{AtomicBool, Ordering};

use super::Answerer;
use super::{
    end_record, is_skipped, oversized_record, write_marker, LineIter, Place, Plan, MAX_RECORD,
};
use crate::grid::{Grid, ParseError};
use crate::record::{ChunkReport, Failure, Record, RecordError, TextLayout};

/// Separator written before every record. The pipeline drops it before the very first record of the output.
pub(crate) const SEPARATOR: u8 = b'\n';

/// A run of content lines: byte range, 0-based line of each of its first ten rows, and whether comments sit inside.
struct Block {
    start: usize,
    end: usize,
    rows: [u64; 10],
    count: usize,
    comments: bool,
}

pub(crate) fn process<J: Answerer + ?Sized>(
    job: &J,
    data: &[u8],
    place: Place,
    out: &mut Vec<u8>,
    report: &mut ChunkReport,
    cancel: &AtomicBool,
) {
    let mut lines = LineIter::new(data);
    let mut block: Option<Block> = None;
    // The run of non-blank lines (rows and comments) being read: its start, its first line and its end.
    let mut run: Option<(usize, u64)> = None;
    let mut run_end = 0;
    let mut finish =
        |run: (usize, u64), run_end: usize, block: Option<Block>, out: &mut Vec<u8>| {
            if run_end - run.0 > MAX_RECORD {
                oversized_record(&Plan::Grid, place, run.1, out, report);
            } else if let Some(b) = block {
                record(job, data, place, &b, out, report);
            }
        };
    for (n, start, text) in lines.by_ref() {
        let long = text.len() > MAX_RECORD;
        let trimmed = text.trim_ascii();
        if !long && trimmed.is_empty() {
            if let Some(r) = run.take() {
                if cancel.load(Ordering::Relaxed) {
                    return;
                }
                finish(r, run_end, block.take(), out);
            }
            continue;
        }
        run.get_or_insert((start, n));
        run_end = start + text.len();
        if !long && trimmed[0] == b'#' {
            if let Some(b) = block.as_mut() {
                b.comments = true;
            }
            continue;
        }
        let end = start + text.len();
        match block.as_mut() {
            None => {
                let mut rows = [0; 10];
                rows[0] = n;
                block = Some(Block {
                    start,
                    end,
                    rows,
                    count: 1,
                    comments: false,
                });
            }
            Some(b) => {
                if b.count < b.rows.len() {
                    b.rows[b.count] = n;
                }
                b.count += 1;
                b.end = end;
            }
        }
    }
    if let Some(r) = run {
        if !cancel.load(Ordering::Relaxed) {
            finish(r, run_end, block, out);
        }
    }
    report.lines = lines.newlines();
}

fn record<J: Answerer + ?Sized>(
    job: &J,
    data: &[u8],
    place: Place,
    block: &Block,
    out: &mut Vec<u8>,
    report: &mut ChunkReport,
) {
    let from = out.len();
    if place.json.is_none() {
        out.push(SEPARATOR);
    }
    let text: Cow<[u8]> = if block.comments {
        // Rare: copy the rows without the comment lines between them.
        let mut rows = Vec::with_capacity(block.end - block.start);
        for (_, _, line) in LineIter::new(&data[block.start..block.end]) {
            if !is_skipped(line) {
                rows.extend_from_slice(line);
                rows.push(b'\n');
            }
        }
        rows.pop();
        Cow::Owned(rows)
    } else {
        Cow::Borrowed(&data[block.start..block.end])
    };
    place.open_json(out, block.rows[0], Some(&text));
    let start = out.len();
    let result = match Grid::parse_grid(&text) {
        Ok(puzzle) => {
            let record = Record {
                puzzle: &puzzle,
                claim: None,
                position: place.base + block.start as u64,
                text: &text,
            };
            place.run(job, &record, TextLayout::Grid, out)
        }
        Err(e) => Err(Failure::Malformed(RecordError::Cells(e))),
    };
    let line = match &result {
        Ok(_) => 0,
        Err(failure) => error_line(block, failure),
    };
    let json = place.json.is_some();
    end_record(out, (from, start), line, result, json, report, write_marker);
}

/// The line to blame: the bad row where the error names one, otherwise the record's first line.
fn error_line(block: &Block, failure: &Failure) -> u64 {
    let row = match failure {
        Failure::Malformed(RecordError::Cells(ParseError::InvalidChar { cell, .. })) => {
            (cell - 1) / 9
        }
        Failure::Malformed(RecordError::Cells(ParseError::BadGridRow { row, .. })) => row - 1,
        _ => 0,
    };
    block.rows[row.min(block.count - 1).min(block.rows.len() - 1)]
}

#[cfg(test)]
mod tests {
    use super::*;

    const PUZZLE: &str =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

    fn run(text: &str) -> (String, ChunkReport) {
        crate::format::solve_chunk(&crate::format::Plan::Grid, text)
    }

    fn board() -> String {
        PUZZLE.parse::<Grid>().unwrap().to_grid_string()
    }

    fn solution() -> String {
        crate::solver::solve(&PUZZLE.parse().unwrap())
            .unwrap()
            .solution
            .to_grid_string()
    }

    #[test]
    fn boards_separated_by_blank_lines_with_comments_and_crlf() {
        let b = board();
        let mut rows: Vec<&str> = b.lines().collect();
        rows.insert(4, "# a comment inside a board");
        let with_comment = rows.join("\r\n");
        let input = format!("# first\n{b}\n\n\n{with_comment}");
        let (out, report) = run(&input);
        let s = solution();
        assert_eq!(out, format!("\n{s}\n{s}"));
        assert_eq!((report.records, report.failures.len()), (2, 0));
        assert_eq!(report.lines, input.matches('\n').count() as u64);
    }

    #[test]
    fn bad_rows_are_blamed_on_their_line() {
        let b = board();
        let mut rows: Vec<&str> = b.lines().collect();
        assert_eq!(rows[2], "0 0 0 7 0 0 0 0 0");
        rows[2] = "0 0 x 7 0 0 0 0 0";
        let (out, report) = run(&format!("{}\n\n{}", rows.join("\n"), board()));
        assert_eq!(report.records, 2);
        let f = &report.failures[0];
        // Row 3 of the first board, the third line of the input.
        assert_eq!(f.line, 2);
        assert_eq!(
            out.split('\n').nth(1).unwrap(),
            "error: malformed: cell 21 (row 3, col 3): invalid character 'x'"
        );
        let short: String = board().lines().take(8).map(|l| format!("{l}\n")).collect();
        let (out, report) = run(&format!("\n\n{short}"));
        assert_eq!(out, "\nerror: malformed: expected 9 rows, found 8\n");
        assert_eq!(report.failures[0].line, 2);
    }
}
