//! The text `sudoku explain` prints: the numbered solving path (indented by guess level), the candidate grid
//! along the way when asked, how the path ended, and the rating (also right after the puzzle line); or, on SE's
//! scale, SE's path with each step's rating and the puzzle's ER, EP and ED (also right after the puzzle line).

use std::io::{self, Write};

use crate::grid::Grid;
use crate::solver::{self, SolveError};

use super::explainer::{Event, Explainer};
use super::rating::{RateError, Rating, Tally};
use super::se::{rate_se_within, SePath, SeRating, SeTally, Tenths, LADDER_TOP};

/// How an explained path ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// Solved; the puzzle has exactly one solution.
    Solved(Rating),
    /// Solved, but the puzzle has more than one solution: the path ends at the first it reached.
    SolvedOneOfMany(Rating),
    /// The puzzle has no solution.
    NoSolution,
}

/// Writes the explanation of `puzzle` to `out`. With `show_candidates`, the candidate grid is printed at the
/// start and after every event that changes it. The givens must not clash (see [`Grid::check_givens`]).
pub fn write_explanation(
    puzzle: &Grid,
    show_candidates: bool,
    out: &mut dyn Write,
) -> io::Result<Ending> {
    let unique = match solver::solve_unique(puzzle) {
        Ok(_) => Some(true),
        Err(SolveError::MultipleSolutions { .. }) => Some(false),
        Err(_) => None,
    };
    let path = Explainer::new(puzzle).map_err(io::Error::other)?;
    writeln!(out, "puzzle: {}", line_of(puzzle))?;
    // The rating up front too, so that it is seen without reading the whole path: a first walk of the same path.
    let mut ahead = Tally::default();
    let mut solvable = true;
    for event in Explainer::new(puzzle).map_err(io::Error::other)? {
        solvable &= !matches!(event, Event::NoSolution { .. });
        ahead.add(&event);
    }
    if solvable {
        write_rating(out, &ahead.rating())?;
    }
    if unique == Some(false) {
        writeln!(
            out,
            "note: this puzzle has more than one solution; the path ends at the first one it reaches"
        )?;
    }
    if show_candidates {
        write!(out, "{}", path.candidates().render())?;
    }
    let mut tally = Tally::default();
    let mut n = 0;
    let mut path = path;
    while let Some(event) = path.next() {
        tally.add(&event);
        let level = match event {
            Event::Step { level, .. } | Event::Stalled { level } => level,
            Event::Guess { level, .. } | Event::Contradiction { level, .. } => level,
            Event::Backtrack { level, .. } => level,
            Event::Solved { .. } | Event::NoSolution { .. } => 0,
        };
        let indent = "  ".repeat(level as usize);
        match event {
            Event::Step { .. } => {
                n += 1;
                writeln!(out, "{indent}{n:>3}. {event}")?;
            }
            Event::Solved { solution } => {
                writeln!(out, "solved: {}", line_of(&solution))?;
            }
            Event::NoSolution { .. } => writeln!(out, "{event}")?,
            _ => writeln!(out, "{indent}     {event}")?,
        }
        let changed = matches!(
            event,
            Event::Step { .. } | Event::Guess { .. } | Event::Backtrack { .. }
        );
        if show_candidates && changed && !path.candidates().is_solved() {
            write!(out, "{}", path.candidates().render())?;
        }
        if let Event::NoSolution { .. } = event {
            return Ok(Ending::NoSolution);
        }
    }
    let rating = tally.rating();
    write_rating(out, &rating)?;
    Ok(if unique == Some(false) {
        Ending::SolvedOneOfMany(rating)
    } else {
        Ending::Solved(rating)
    })
}

fn write_rating(out: &mut dyn Write, rating: &Rating) -> io::Result<()> {
    let hardest = rating.hardest.map_or("none".to_string(), |t| t.to_string());
    writeln!(
        out,
        "rating: {} (score {}, {} guesses, {} steps, hardest technique: {hardest})",
        rating.level, rating.score, rating.guesses, rating.steps
    )
}

/// Why an SE explanation stopped.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SeExplainError {
    /// The puzzle cannot be rated (clashing givens, no solution, several); nothing was written for it.
    #[error(transparent)]
    Rate(#[from] RateError),
    /// Writing failed.
    #[error(transparent)]
    Io(#[from] io::Error),
}

/// Writes Sudoku Explainer's path of `puzzle` to `out`: each step with its technique and SE rating, then the
/// puzzle's ER/EP/ED (or where the path stopped). With `chains`, each chain step is followed by its chains in the
/// forum's notation, one line per branch (`r6c4=2 -> r6c7<>2 -> ...`; a potential that also rests on others
/// followed by them in brackets; a nested chain's branches indented under the potential it implied); without, a
/// chain step is its one line of conclusions. With `show_candidates`, the candidate grid is printed at the start
/// and after every step. With `max`, the path stops before the first step SE rates above it (what is left unknown
/// is reported as above it, as `rate --max-se` does).
pub fn write_se_explanation(
    puzzle: &Grid,
    show_candidates: bool,
    chains: bool,
    max: Option<Tenths>,
    out: &mut dyn Write,
) -> Result<SeRating, SeExplainError> {
    let max = max.unwrap_or(Tenths(u8::MAX));
    let mut path = SePath::new(puzzle)?.within(max);
    if chains {
        path = path.proving();
    }
    writeln!(out, "puzzle: {}", line_of(puzzle))?;
    // The rating first too, so that it is not only at the end of a long path: the path is walked twice.
    writeln!(
        out,
        "SE rating (ER EP ED hardest): {}",
        rate_se_within(puzzle, max)?
    )?;
    if show_candidates {
        write!(out, "{}", path.candidates().render())?;
    }
    let mut tally = SeTally::default();
    let mut n = 0;
    while let Some(step) = path.next() {
        n += 1;
        tally.add(&step);
        writeln!(out, "{n:>3}. {step}")?;
        if let Some(proof) = &step.pattern.proof {
            proof.write_text(out, "     ")?;
        }
        if show_candidates && !path.is_solved() {
            write!(out, "{}", path.candidates().render())?;
        }
    }
    let solved = path.is_solved();
    let rating = tally.rating_below(solved, path.ceiling());
    if solved {
        writeln!(out, "solved: {}", line_of(&path.candidates().grid()))?;
    } else if max < Tenths(u8::MAX) && path.ceiling() == max {
        writeln!(
            out,
            "stopped: no step SE rates {max} or less applies; the next one rates above {}",
            path.ceiling()
        )?;
    } else {
        writeln!(
            out,
            "stopped: no technique of SE's ladder applies (SE gives up too: serate's \"Beyond solver\"); the \
             ratings are reported above {LADDER_TOP}"
        )?;
    }
    writeln!(out, "SE rating (ER EP ED hardest): {rating}")?;
    Ok(rating)
}

pub(super) fn line_of(g: &Grid) -> String {
    let mut cells = [0u8; 81];
    g.write_line(&mut cells, b'.');
    String::from_utf8_lossy(&cells).into_owned()
}
