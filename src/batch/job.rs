//! What the pipeline does with one record: the [`Job`] trait (a parsed puzzle in, answer bytes and an outcome out),
//! the ways a record can fail, and [`Solve`], the job behind `sudoku solve`.
//!
//! The pipeline owns everything around a record (reading, splitting, parsing, failure marking, order, output); a
//! job only turns one [`Grid`] into answer bytes. Solving is one job; rating or any other per-puzzle work can reuse
//! the pipeline by implementing [`Job`] (or passing a closure).

use crate::format::csv::CsvAnswer;
use crate::format::RecordError;
use crate::grid::{Conflict, Grid, CELLS, GRID_TEXT_LEN};
use crate::solver::{self, SolveError};

/// The shape of the answer the record format expects from a job.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// One line (no newline): an 81-character line record.
    Line,
    /// Several lines, the last without its newline: a 9-line grid record.
    Grid,
    /// One CSV field (no newline, no bare comma or quote), or with [`CsvAnswer::Append`] that many fields joined
    /// by commas.
    CsvField,
}

/// Work to do on each record of a batch. `run` appends the answer for `puzzle` to `out`, shaped for `layout`, or
/// says why there is none (then whatever it appended is discarded and the record is marked as failed).
///
/// `run` is called from several threads at once and should not allocate: `out` has room reserved.
pub trait Job: Sync {
    /// Appends the answer for one puzzle, or returns why there is none.
    fn run(&self, puzzle: &Grid, layout: Layout, out: &mut Vec<u8>) -> Result<(), Failure>;

    /// Where the answer goes in a CSV row: the solution column (the default), or new columns appended after every
    /// input field, in which case [`Layout::CsvField`] answers are those fields joined by commas.
    fn csv_answer(&self) -> CsvAnswer {
        CsvAnswer::Solution
    }
}

impl<F> Job for F
where
    F: Fn(&Grid, Layout, &mut Vec<u8>) -> Result<(), Failure> + Sync,
{
    #[inline]
    fn run(&self, puzzle: &Grid, layout: Layout, out: &mut Vec<u8>) -> Result<(), Failure> {
        self(puzzle, layout, out)
    }
}

/// Solve each puzzle (the first solution found, or with `unique` the proven-unique one) and write the solution.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Solve {
    /// Treat puzzles with more than one solution as failures ([`Failure::SeveralSolutions`]).
    pub unique: bool,
}

impl Job for Solve {
    #[inline]
    fn run(&self, puzzle: &Grid, layout: Layout, out: &mut Vec<u8>) -> Result<(), Failure> {
        let solved = if self.unique {
            solver::solve_unique(puzzle)
        } else {
            solver::solve(puzzle)
        }?;
        write_grid(&solved.solution, layout, out);
        Ok(())
    }
}

/// Appends a board shaped for `layout`: 81 digits for a line or a CSV field (`0` for blanks), nine rows of digits
/// separated by single spaces for a grid (no newline after the last row).
#[inline]
pub fn write_grid(grid: &Grid, layout: Layout, out: &mut Vec<u8>) {
    match layout {
        Layout::Line | Layout::CsvField => {
            let mut text = [0u8; CELLS];
            grid.write_line(&mut text, b'0');
            out.extend_from_slice(&text);
        }
        Layout::Grid => {
            let mut text = [0u8; GRID_TEXT_LEN];
            grid.write_grid(&mut text);
            out.extend_from_slice(&text[..GRID_TEXT_LEN - 1]);
        }
    }
}

/// Why a record has no answer. The text (`Display`) is what the output marker and the stderr message say.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
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
}

impl FailureKind {
    /// Every kind, in summary order.
    pub const ALL: [FailureKind; 4] = [
        FailureKind::Malformed,
        FailureKind::ClashingGivens,
        FailureKind::NoSolution,
        FailureKind::SeveralSolutions,
    ];

    /// Words for the text summary.
    pub fn label(self) -> &'static str {
        match self {
            FailureKind::Malformed => "malformed",
            FailureKind::ClashingGivens => "clashing givens",
            FailureKind::NoSolution => "no solution",
            FailureKind::SeveralSolutions => "several solutions",
        }
    }

    /// Key for the JSON summary.
    pub fn key(self) -> &'static str {
        match self {
            FailureKind::Malformed => "malformed",
            FailureKind::ClashingGivens => "clashing_givens",
            FailureKind::NoSolution => "no_solution",
            FailureKind::SeveralSolutions => "several_solutions",
        }
    }

    /// Position in [`FailureKind::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PUZZLE: &str =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

    #[test]
    fn solve_writes_each_layout() {
        let p: Grid = PUZZLE.parse().unwrap();
        let mut out = Vec::new();
        Solve::default().run(&p, Layout::Line, &mut out).unwrap();
        let line = Grid::parse_line(&out).unwrap();
        assert!(line.is_solution_of(&p));
        let mut grid = Vec::new();
        Solve::default().run(&p, Layout::Grid, &mut grid).unwrap();
        assert_eq!(
            grid.len(),
            161,
            "nine rows of 17 characters, eight newlines"
        );
        assert!(!grid.ends_with(b"\n"));
        assert_eq!(Grid::parse_grid(&grid).unwrap(), line);
    }

    #[test]
    fn solver_errors_map_to_failure_kinds() {
        let clash: Grid =
            "11..............................................................................."
                .parse()
                .unwrap();
        let e = Solve::default()
            .run(&clash, Layout::Line, &mut Vec::new())
            .unwrap_err();
        assert_eq!(e.kind(), FailureKind::ClashingGivens);
        assert!(e
            .to_string()
            .starts_with("clashing givens: row 1 has two 1s"));
        let e = Solve { unique: true }
            .run(&Grid::EMPTY, Layout::Line, &mut Vec::new())
            .unwrap_err();
        assert_eq!(e, Failure::SeveralSolutions);
        // Without --unique the empty board has an answer.
        let mut out = Vec::new();
        Solve::default()
            .run(&Grid::EMPTY, Layout::Line, &mut out)
            .unwrap();
        assert!(Grid::parse_line(&out).unwrap().is_valid_solution());
    }

    #[test]
    fn a_closure_is_a_job() {
        let clues = |g: &Grid, _: Layout, out: &mut Vec<u8>| -> Result<(), Failure> {
            out.extend_from_slice(g.clue_count().to_string().as_bytes());
            Ok(())
        };
        let mut out = Vec::new();
        clues
            .run(&PUZZLE.parse().unwrap(), Layout::Line, &mut out)
            .unwrap();
        assert_eq!(out, b"17");
    }
}
