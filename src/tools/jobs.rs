//! The batch jobs of the solver and the dataset tools, each a [`Job`] on the one batch pipeline: [`Solve`] (a
//! solution), [`Check`] (claimed solutions), [`Count`] (solutions per puzzle), [`Canon`] (a canonical form),
//! [`Dedupe`] (first record of each equivalence class) and [`Shuffle`] (a random equivalent record). The rating job
//! is `human`'s `Rater`, which also counts the ratings for its histograms.
//!
//! ```
//! use sudoku_batch::batch::{self, InputSpec, BatchOptions};
//! use sudoku_batch::output::Target;
//! use sudoku_batch::tools::Count;
//!
//! let dir = tempfile::tempdir().unwrap();
//! let out = dir.path().join("counts.txt");
//! let puzzles = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n\
//!                .................................................................................\n";
//! let input = InputSpec::Bytes { name: "example".into(), data: puzzles.into() };
//! batch::run_batch(vec![input], &Target::File(out.clone()), &Count { limit: 10 }, &BatchOptions::default(), &mut ())
//!     .unwrap();
//! assert_eq!(std::fs::read_to_string(&out).unwrap(), "1\n10+\n");
//! ```

use std::io::Write;

use crate::format::json::{json_field, json_key};
use crate::grid::Grid;
use crate::record::{Answer, CsvAnswer, Failure, Job, Record, SolutionError, TextLayout};
use crate::solver;

use super::canon::{canon_as, class_key, Form};
use crate::grid::Transform;

/// `sudoku solve`: each puzzle solved (the first solution found, or with `unique` the proven-unique one), the answer
/// its solution.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Solve {
    /// Treat puzzles with more than one solution as failures ([`Failure::SeveralSolutions`]).
    pub unique: bool,
}

impl Job for Solve {
    fn json_status(&self) -> &'static str {
        "solved"
    }

    #[inline]
    fn run(&self, puzzle: &Grid, layout: TextLayout, out: &mut Vec<u8>) -> Result<(), Failure> {
        let solved = if self.unique {
            solver::solve_unique(puzzle)
        } else {
            solver::solve(puzzle)
        }?;
        if layout == TextLayout::Json {
            json_key(out, "solution");
            solved.solution.write(layout, b'0', out);
            json_field(out, "guesses", &solved.stats.guesses);
        } else {
            solved.solution.write(layout, b'0', out);
        }
        Ok(())
    }
}

/// `sudoku check`: is the solution a record carries a solution of its puzzle? The answer is `ok`; a wrong claim is
/// a [`Failure::WrongSolution`] saying why, a record without one is [`SolutionError::Missing`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Check {
    /// Also require the puzzle to have no other solution ([`Failure::SeveralSolutions`] otherwise).
    pub unique: bool,
}

impl Check {
    /// Checks `claim` against `puzzle`: a full board, breaking no rule, keeping every given.
    pub(crate) fn verify(puzzle: &Grid, claim: Option<&[u8]>) -> Result<(), SolutionError> {
        let text = claim.ok_or(SolutionError::Missing)?;
        let solution = Grid::parse_line(text).map_err(SolutionError::Unreadable)?;
        Check::verify_grid(puzzle, &solution)
    }

    /// The verdict on `puzzle` given what [`Check::verify`] (or [`Check::verify_grid`]) said of its claim: the
    /// claim's error, else with `unique` a second solution ([`Failure::SeveralSolutions`]).
    pub(crate) fn verdict(
        &self,
        puzzle: &Grid,
        claim: Result<(), SolutionError>,
    ) -> Result<(), Failure> {
        claim.map_err(Failure::WrongSolution)?;
        if self.unique {
            let count = solver::count_solutions(puzzle, 2).map_err(Failure::ClashingGivens)?;
            if count.solutions > 1 {
                return Err(Failure::SeveralSolutions);
            }
        }
        Ok(())
    }

    /// Checks a claimed solution already read as a board: as [`Check::verify`] after its parse.
    pub(crate) fn verify_grid(puzzle: &Grid, solution: &Grid) -> Result<(), SolutionError> {
        if !solution.is_valid_solution() {
            // The rare bad claim: find out why (the fast test above only says whether).
            if let Some(blank) = solution.cells().iter().position(|&d| d == 0) {
                return Err(SolutionError::Blank(blank));
            }
            solution.check_givens().map_err(SolutionError::Breaks)?;
        }
        let differs = |(&given, &digit): (&u8, &u8)| (given != 0) & (given != digit);
        let (givens, digits) = (puzzle.cells(), solution.cells());
        // Branch-free first (it vectorizes); the changed cell is looked for only when there is one.
        if !givens
            .iter()
            .zip(digits)
            .fold(false, |any, c| any | differs(c))
        {
            return Ok(());
        }
        match givens.iter().zip(digits).position(differs) {
            Some(cell) => Err(SolutionError::ChangesGiven(cell)),
            None => Ok(()),
        }
    }
}

impl Job for Check {
    /// Without a record there is no claim to check.
    fn run(&self, _puzzle: &Grid, _layout: TextLayout, _out: &mut Vec<u8>) -> Result<(), Failure> {
        Err(Failure::WrongSolution(SolutionError::Missing))
    }

    fn run_record(
        &self,
        record: &Record<'_>,
        layout: TextLayout,
        out: &mut Vec<u8>,
    ) -> Result<Answer, Failure> {
        self.verdict(record.puzzle, Check::verify(record.puzzle, record.claim))?;
        // In JSON, the status ("ok") is the whole answer.
        if layout != TextLayout::Json {
            out.extend_from_slice(b"ok");
        }
        Ok(Answer::Written)
    }

    fn csv_answer(&self) -> CsvAnswer {
        CsvAnswer::Append(&["check"])
    }
}

/// `sudoku count`: the number of solutions of each puzzle, the search stopped at `limit`. The answer is the count,
/// or `LIMIT+` when the search stopped there (there may be more); a puzzle without a solution counts 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Count {
    /// Where the search stops (at least 1).
    pub limit: u64,
}

impl Job for Count {
    fn json_status(&self) -> &'static str {
        "counted"
    }

    fn run(&self, puzzle: &Grid, layout: TextLayout, out: &mut Vec<u8>) -> Result<(), Failure> {
        let count = solver::count_solutions(puzzle, self.limit).map_err(Failure::ClashingGivens)?;
        if layout == TextLayout::Json {
            json_field(out, "count", &count.solutions);
            json_field(out, "capped", &count.hit_limit);
        } else {
            let plus = if count.hit_limit { "+" } else { "" };
            let _ = write!(out, "{}{plus}", count.solutions);
        }
        Ok(())
    }

    fn csv_answer(&self) -> CsvAnswer {
        CsvAnswer::Append(&["count"])
    }
}

/// `sudoku canon`: the canonical form of each record in [`Canon::form`]
/// ([`Canonicalizer::canon_as`](super::Canonicalizer::canon_as)), in the record's layout, blanks written as the
/// form's [`Form::blank`] (`0` for the minlex form, `.` for the pattern-first one).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Canon {
    /// Which canonical form.
    pub form: Form,
}

impl Job for Canon {
    fn run(&self, puzzle: &Grid, layout: TextLayout, out: &mut Vec<u8>) -> Result<(), Failure> {
        let form = canon_as(puzzle, self.form).map_err(Failure::ClashingGivens)?;
        if layout == TextLayout::Json {
            json_key(out, "canon");
        }
        form.write(layout, self.form.blank(), out);
        Ok(())
    }

    fn csv_answer(&self) -> CsvAnswer {
        CsvAnswer::Append(&["canon"])
    }
}

/// `sudoku dedupe`: each record as it was read, kept only when no earlier record of the run is equivalent to it
/// (same canonical form, compared by its 32-byte [`Key`](super::Key)). The batch run holds one key per distinct record. The
/// key is always of the [`Form::Minlex`] form: two records are equivalent exactly when their forms are equal,
/// whichever form, so the choice changes nothing kept or left out.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Dedupe;

impl Job for Dedupe {
    /// Without the record's text: the puzzle itself, `0` for blanks (it is kept or dropped by
    /// [`Job::run_record`] alone).
    fn run(&self, puzzle: &Grid, layout: TextLayout, out: &mut Vec<u8>) -> Result<(), Failure> {
        puzzle.write(layout, b'0', out);
        Ok(())
    }

    fn run_record(
        &self,
        record: &Record<'_>,
        _layout: TextLayout,
        out: &mut Vec<u8>,
    ) -> Result<Answer, Failure> {
        let key = class_key(record.puzzle).map_err(Failure::ClashingGivens)?;
        out.extend_from_slice(record.text);
        Ok(Answer::FirstOf(key.to_bytes()))
    }

    fn csv_answer(&self) -> CsvAnswer {
        CsvAnswer::Row
    }
}

/// `sudoku shuffle`: each record through a uniformly random validity-preserving transformation
/// ([`Transform::random`]) drawn from the seed and the record's byte offset in its input, so the output depends on
/// nothing else (not on threads or chunk sizes). A claimed solution (a `PUZZLE SOLUTION` line, a CSV solution
/// column) goes through the same transformation, so it stays the solution of the shuffled puzzle. Blanks are
/// written as a line or grid record wrote them (`.` when its text has one, else `0`), as `0` in a CSV.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Shuffle {
    /// The seed.
    pub seed: u64,
}

impl Job for Shuffle {
    fn run(&self, puzzle: &Grid, layout: TextLayout, out: &mut Vec<u8>) -> Result<(), Failure> {
        Transform::random(self.seed, 0)
            .apply(puzzle)
            .write(layout, b'0', out);
        Ok(())
    }

    fn run_record(
        &self,
        record: &Record<'_>,
        layout: TextLayout,
        out: &mut Vec<u8>,
    ) -> Result<Answer, Failure> {
        // The first of one copy is this job's answer.
        let one = super::Copies {
            seed: self.seed,
            copies: 1,
            keep_original: false,
        };
        one.run_copy(record, 0, layout, out)
    }

    fn csv_answer(&self) -> CsvAnswer {
        CsvAnswer::Rewrite
    }
}

#[cfg(test)]
mod tests {
    use super::super::canon::canon;
    use super::*;
    use crate::grid::samples::{g, HARD, HARD_SOLUTION};
    use crate::record::FailureKind;

    const PUZZLE: &str =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

    #[test]
    fn solve_writes_each_layout() {
        let p: Grid = PUZZLE.parse().unwrap();
        let mut out = Vec::new();
        Solve::default()
            .run(&p, TextLayout::Line, &mut out)
            .unwrap();
        let line = Grid::parse_line(&out).unwrap();
        assert!(line.is_solution_of(&p));
        let mut grid = Vec::new();
        Solve::default()
            .run(&p, TextLayout::Grid, &mut grid)
            .unwrap();
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
            .run(&clash, TextLayout::Line, &mut Vec::new())
            .unwrap_err();
        assert_eq!(e.kind(), FailureKind::ClashingGivens);
        assert!(e
            .to_string()
            .starts_with("clashing givens: row 1 has two 1s"));
        let e = Solve { unique: true }
            .run(&Grid::EMPTY, TextLayout::Line, &mut Vec::new())
            .unwrap_err();
        assert_eq!(e, Failure::SeveralSolutions);
        // Without --unique the empty board has an answer.
        let mut out = Vec::new();
        Solve::default()
            .run(&Grid::EMPTY, TextLayout::Line, &mut out)
            .unwrap();
        assert!(Grid::parse_line(&out).unwrap().is_valid_solution());
    }

    fn check(claim: &str) -> Result<(), SolutionError> {
        Check::verify(&g(HARD), Some(claim.as_bytes()))
    }

    fn with(text: &str, cell: usize, digit: u8) -> String {
        let mut b = text.as_bytes().to_vec();
        b[cell] = digit;
        String::from_utf8(b).unwrap()
    }

    #[test]
    fn check_says_what_is_wrong_with_a_claim() {
        assert_eq!(check(HARD_SOLUTION), Ok(()));
        assert_eq!(Check::verify(&g(HARD), None), Err(SolutionError::Missing));
        assert!(matches!(check("123"), Err(SolutionError::Unreadable(_))));
        assert_eq!(
            check(&with(HARD_SOLUTION, 10, b'.')),
            Err(SolutionError::Blank(10))
        );
        // HARD's first given is r1c1 = 4: a board with the digits 4 and 1 swapped everywhere is valid but
        // changes it.
        let swapped: String = HARD_SOLUTION
            .chars()
            .map(|c| match c {
                '4' => '1',
                '1' => '4',
                c => c,
            })
            .collect();
        assert_eq!(check(&swapped), Err(SolutionError::ChangesGiven(0)));
        let e = check(&with(HARD_SOLUTION, 20, HARD_SOLUTION.as_bytes()[19])).unwrap_err();
        assert!(matches!(e, SolutionError::Breaks(_)));
        assert!(
            e.to_string().starts_with("invalid solution: row 3 has two"),
            "{e}"
        );
        assert_eq!(
            SolutionError::ChangesGiven(15).to_string(),
            "solution changes given r2c7"
        );
    }

    #[test]
    fn count_writes_capped_counts() {
        let mut out = Vec::new();
        Count { limit: 2 }
            .run(&g(HARD), TextLayout::Line, &mut out)
            .unwrap();
        out.push(b' ');
        Count { limit: 5 }
            .run(&Grid::EMPTY, TextLayout::Line, &mut out)
            .unwrap();
        assert_eq!(out, b"1 5+");
        let clash = g(&with(HARD, 1, b'4'));
        let e = Count { limit: 2 }
            .run(&clash, TextLayout::Line, &mut out)
            .unwrap_err();
        assert_eq!(e.kind(), FailureKind::ClashingGivens);
    }

    #[test]
    fn shuffle_keeps_the_claim_the_solution_of_the_puzzle() {
        let text = format!("{HARD} {HARD_SOLUTION}");
        let record = Record {
            puzzle: &g(HARD),
            claim: Some(HARD_SOLUTION.as_bytes()),
            position: 123,
            text: text.as_bytes(),
        };
        let mut out = Vec::new();
        Shuffle { seed: 9 }
            .run_record(&record, TextLayout::Line, &mut out)
            .unwrap();
        let out = String::from_utf8(out).unwrap();
        let (p, s) = out.split_at(81);
        let (p, s) = (g(p), g(&s[1..]));
        assert!(s.is_solution_of(&p));
        assert_ne!(p, g(HARD));
        assert_eq!(canon(&p), canon(&g(HARD)));
        assert!(out.contains('.'), "the record's blank notation is kept");
    }
}
