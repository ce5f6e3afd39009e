//! A whole input held in memory read at once ([`read_all`]), as a batch run reads it, into its records' grids.

use std::cell::RefCell;
use std::sync::atomic::AtomicBool;

use super::{csv, prepare, process, Answerer, Format, FormatError, Place};
use crate::grid::{Grid, TextLayout};
use crate::record::{Answer, CsvAnswer, Failure, Record};

/// The grids of a whole input as [`read_all`] reads it: every record read as a puzzle, kept with the byte offset
/// of its record; nothing is written.
#[derive(Default)]
struct Grids(RefCell<Vec<(u64, Grid)>>);

impl Answerer for Grids {
    fn run_record(
        &self,
        record: &Record<'_>,
        _: TextLayout,
        _: &mut Vec<u8>,
    ) -> Result<Answer, Failure> {
        self.0.borrow_mut().push((record.position, *record.puzzle));
        Ok(Answer::Written)
    }

    /// [`read_all`] writes no JSON Lines; an answered record's status would be that of every job that keeps the
    /// default.
    fn json_status(&self) -> &'static str {
        "ok"
    }
}

/// Every record of `data`, a whole input held in memory, read as a batch run reads it (detection or `forced`,
/// comments, grid blocks, CSV columns, the same errors): for small inputs such as the puzzles of `explain`. Each
/// record comes with its 1-based line (where it starts: a grid record's first row, or for a malformed one its bad
/// row) and its puzzle or why it has none.
#[allow(clippy::type_complexity)] // a line and a result: a type of its own would say no more
pub fn read_all(
    data: &[u8],
    forced: Option<Format>,
) -> Result<Vec<(u64, Result<Grid, Failure>)>, FormatError> {
    let names = csv::ColumnNames::default();
    let prepared = prepare(data, true, forced, CsvAnswer::Solution, false, &names)?
        .expect("the whole input is at hand");
    let skipped = memchr::memchr_iter(b'\n', &data[..prepared.skip]).count() as u64;
    let grids = Grids::default();
    let mut out = Vec::new();
    let body = &data[prepared.skip..];
    let report = process(
        &prepared.plan,
        &grids,
        body,
        Place {
            base: prepared.skip as u64,
            ..Place::default()
        },
        &mut out,
        &AtomicBool::new(false),
    );
    let mut good = grids.0.into_inner().into_iter();
    let mut bad = report.failures.into_iter().peekable();
    // Lines counted up to each good record's offset, front to back.
    let (mut counted, mut lines) = (0usize, 0u64);
    Ok((0..report.records)
        .map(|i| match bad.next_if(|f| f.record == i) {
            Some(f) => (skipped + f.line + 1, Err(f.failure)),
            None => {
                let (at, grid) = good.next().expect("one grid per record that did not fail");
                let at = (at as usize).clamp(counted, data.len());
                lines += memchr::memchr_iter(b'\n', &data[counted..at]).count() as u64;
                counted = at;
                (lines + 1, Ok(grid))
            }
        })
        .collect())
}
