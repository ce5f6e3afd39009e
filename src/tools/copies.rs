//! `sudoku shuffle --copies K`: the [`Copies`] job, K uniformly random equivalent copies of each record (and the
//! record itself first with `keep_original`), for augmenting a training set.

use crate::grid::{Grid, Transform, CELLS};
use crate::record::{Answer, CsvAnswer, Failure, Job, Record, SolutionError, TextLayout};

/// `sudoku shuffle --copies K`: each record written `copies` times, each copy through its own uniformly random
/// validity-preserving transformation, drawn from the seed, the record's byte offset in its input and the copy's
/// number ([`Transform::random`] for copy 0, so the first copy is what plain `shuffle` writes); with
/// `keep_original` the record itself (through no transformation) comes first, then the `copies` random ones. A
/// claimed solution goes through its copy's transformation, so each copy's solution stays the solution of its
/// puzzle.
///
/// Line and grid records give one line (or grid) per copy, in order; a CSV or table row gives one row per copy
/// with every field kept and a `group` column added: the input record's number in the run, from 0
/// ([`Job::copies`]). Blanks are written as [`Shuffle`](super::Shuffle) writes them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Copies {
    /// The seed.
    pub seed: u64,
    /// Random copies per record (at least 1).
    pub copies: u32,
    /// Write the record itself before its copies.
    pub keep_original: bool,
}

impl Copies {
    /// The transformation of output copy `copy` (from 0 to [`Job::copies`] - 1) of the record at `position`
    /// (its byte offset in a text input, its row in a table).
    pub fn transform(&self, position: u64, copy: u32) -> Transform {
        match (self.keep_original, copy) {
            (true, 0) => Transform::IDENTITY,
            (true, c) => Transform::random_copy(self.seed, position, c - 1),
            (false, c) => Transform::random_copy(self.seed, position, c),
        }
    }

    /// Writes copy `copy` of `record` in `layout` (a line's claim after its separator).
    fn write_copy(
        &self,
        record: &Record<'_>,
        copy: u32,
        layout: TextLayout,
        out: &mut Vec<u8>,
    ) -> Result<(), Failure> {
        let transform = self.transform(record.position, copy);
        let blank = if layout != TextLayout::CsvField && memchr::memchr(b'.', record.text).is_some()
        {
            b'.'
        } else {
            b'0'
        };
        transform.apply(record.puzzle).write(layout, blank, out);
        if let (TextLayout::Line, Some(claim)) = (layout, record.claim) {
            let solution = Grid::parse_line(claim)
                .map_err(|e| Failure::WrongSolution(SolutionError::Unreadable(e)))?;
            // The separator the line had between its two halves.
            out.push(record.text[CELLS]);
            transform.apply(&solution).write(layout, blank, out);
        }
        Ok(())
    }
}

impl Job for Copies {
    fn run(&self, puzzle: &Grid, layout: TextLayout, out: &mut Vec<u8>) -> Result<(), Failure> {
        self.transform(0, 0).apply(puzzle).write(layout, b'0', out);
        Ok(())
    }

    /// Every copy, in the line and grid layouts; the first alone in a CSV field (the format asks for each copy
    /// with [`Job::run_copy`]).
    fn run_record(
        &self,
        record: &Record<'_>,
        layout: TextLayout,
        out: &mut Vec<u8>,
    ) -> Result<Answer, Failure> {
        let separator: &[u8] = match layout {
            TextLayout::Line => b"\n",
            TextLayout::Grid => b"\n\n",
            _ => return self.run_copy(record, 0, layout, out),
        };
        for copy in 0..self.copies() {
            if copy > 0 {
                out.extend_from_slice(separator);
            }
            self.write_copy(record, copy, layout, out)?;
        }
        Ok(Answer::Written)
    }

    fn copies(&self) -> u32 {
        self.copies.max(1) + u32::from(self.keep_original)
    }

    fn run_copy(
        &self,
        record: &Record<'_>,
        copy: u32,
        layout: TextLayout,
        out: &mut Vec<u8>,
    ) -> Result<Answer, Failure> {
        self.write_copy(record, copy, layout, out)?;
        Ok(Answer::Written)
    }

    fn csv_answer(&self) -> CsvAnswer {
        CsvAnswer::Rewrite
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::samples::{g, HARD, HARD_SOLUTION};
    use crate::tools::{canon, Shuffle};

    #[test]
    fn each_copy_is_equivalent_keeps_its_solution_and_the_first_is_shuffles() {
        let text = format!("{HARD} {HARD_SOLUTION}");
        let record = Record {
            puzzle: &g(HARD),
            claim: Some(HARD_SOLUTION.as_bytes()),
            position: 99,
            text: text.as_bytes(),
        };
        let job = Copies {
            seed: 4,
            copies: 3,
            keep_original: true,
        };
        let mut out = Vec::new();
        job.run_record(&record, TextLayout::Line, &mut out).unwrap();
        let out = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 4);
        assert_eq!(lines[0], text, "the record itself first");
        let mut shuffled = Vec::new();
        Shuffle { seed: 4 }
            .run_record(&record, TextLayout::Line, &mut shuffled)
            .unwrap();
        assert_eq!(lines[1].as_bytes(), shuffled, "copy 0 is plain shuffle's");
        for l in &lines[1..] {
            let (p, s) = l.split_at(81);
            let (p, s) = (g(p), g(&s[1..]));
            assert!(s.is_solution_of(&p));
            assert_eq!(canon(&p), canon(&g(HARD)));
        }
        assert_ne!(lines[1], lines[2]);
        assert_ne!(lines[2], lines[3]);
    }
}
