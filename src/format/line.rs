//! The line format: one puzzle per line, 81 characters (`1`-`9` givens, `0` or `.` blanks), optionally followed by
//! a claimed solution after one space, tab or comma (`PUZZLE SOLUTION`, 163 characters: what `sudoku check` reads; other jobs ignore the claim).
//! Output: one line per record, the job's answer or `error: REASON`.

use super::Answerer;
use super::{end_record, strip_cr, write_marker, Place};
use crate::grid::{Grid, CELLS};
use crate::record::{ChunkReport, Failure, Record, TextLayout};

/// Answers the record on line `n` (0-based in its chunk at `place`) at byte `position` of its input, `text` without
/// its newline.
#[inline]
pub(crate) fn record<J: Answerer + ?Sized>(
    job: &J,
    place: Place,
    n: u64,
    position: u64,
    text: &[u8],
    out: &mut Vec<u8>,
    report: &mut ChunkReport,
) {
    let from = out.len();
    let (puzzle, claim) = match split_pair(text) {
        Some((p, c)) => (p, Some(c)),
        None => (text, None),
    };
    place.open_json(out, n, Some(strip_cr(puzzle)));
    let start = out.len();
    let result = match Grid::parse_line(puzzle) {
        Ok(puzzle) => {
            let record = Record {
                puzzle: &puzzle,
                claim,
                position,
                text,
            };
            place.run(job, &record, TextLayout::Line, out)
        }
        Err(e) => Err(Failure::Malformed(e.into())),
    };
    let json = place.json.is_some();
    end_record(out, (from, start), n, result, json, report, write_marker);
}

/// A `PUZZLE SOLUTION` line (two 81-character fields separated by one space, tab or comma, before an optional
/// `\r`): the two fields. Any other length is one field, read as a puzzle (so a line with more or fewer characters
/// is a malformed record, never a puzzle with some text ignored).
#[inline]
pub(crate) fn split_pair(text: &[u8]) -> Option<(&[u8], &[u8])> {
    let text = strip_cr(text);
    if text.len() == 2 * CELLS + 1 && matches!(text[CELLS], b' ' | b'\t' | b',') {
        Some((&text[..CELLS], &text[CELLS + 1..]))
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::FailureKind;
    use crate::tools::Solve;

    fn run(text: &str) -> (String, ChunkReport) {
        crate::format::solve_chunk(&crate::format::Plan::Line, text)
    }

    const PUZZLE: &str =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    const SOLUTION: &str =
        "417369825632158947958724316825437169791586432346912758289643571573291684164875293";

    #[test]
    fn one_output_line_per_record_with_crlf_comments_and_no_final_newline() {
        let input = format!("# head\r\n{PUZZLE}\r\n\r\n  \n{PUZZLE}x\n{PUZZLE}");
        let (out, report) = run(&input);
        let bad = "error: malformed: expected 81 cells, found 82";
        assert_eq!(out, format!("{SOLUTION}\n{bad}\n{SOLUTION}\n"));
        assert_eq!(report.records, 3);
        assert_eq!(report.lines, 5);
        assert_eq!(report.failures.len(), 1);
        let f = &report.failures[0];
        assert_eq!((f.line, f.record), (4, 1));
        assert_eq!(f.failure.kind(), FailureKind::Malformed);
        assert_eq!(f.out_end, SOLUTION.len() + 1 + bad.len() + 1);
    }

    #[test]
    fn cancel_stops_before_the_next_record() {
        let mut out = Vec::new();
        let report = crate::format::process(
            &crate::format::Plan::Line,
            &Solve::default(),
            format!("{PUZZLE}\n").as_bytes(),
            crate::format::Place::default(),
            &mut out,
            &std::sync::atomic::AtomicBool::new(true),
        );
        assert!(out.is_empty());
        assert_eq!(report.records, 0);
    }
}
