//! Difficulty ratings: the hardest technique a puzzle needs, a numeric score, the guesses made, and a level named
//! like QQWing's; plus the per-file histogram `rate` prints.
//!
//! A puzzle is solved with the techniques tried easiest first (see [`Technique::ALL`]), so the hardest technique
//! used is the hardest one *needed* along that path. The level follows from it:
//!
//! | level | hardest technique needed | QQWing's rule |
//! |---|---|---|
//! | `simple` | naked single | singles only |
//! | `easy` | hidden single | hidden singles |
//! | `intermediate` | pointing, claiming, naked/hidden pair or triple | pointing, box-line, naked/hidden pairs |
//! | `expert` | X-Wing or any technique after it in [`Technique::ALL`], or a guess | guesses |
//!
//! QQWing knows no triples, fish, links or wings and guesses where they are needed, so it calls such puzzles
//! expert; here triples sit with the pairs in `intermediate`, and the rest stays `expert`.
//!
//! The hardest technique and the score count every step of the path, steps under guesses that later failed
//! included (a person does that work too): the score is the sum of [`Technique::weight`] over those steps plus
//! [`GUESS_WEIGHT`] per guess.

use std::fmt;

use crate::format::json::json_field;
use crate::grid::{Conflict, Grid};
use crate::record::Failure;
use crate::solver::{self, SolveError};

use super::explainer::{Event, Explainer};
use super::technique::{Level, Technique, TechniqueSet};

/// Points a guess adds to the score.
pub(crate) const GUESS_WEIGHT: u32 = 40;

/// The rating of one puzzle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rating {
    /// The level.
    pub level: Level,
    /// The hardest technique used; `None` when the puzzle was already full.
    pub hardest: Option<Technique>,
    /// Technique weights summed over the path, plus 40 per guess.
    pub score: u32,
    /// Guesses made.
    pub guesses: u32,
    /// Technique steps taken (all levels).
    pub steps: u32,
}

impl fmt::Display for Rating {
    /// `LEVEL SCORE GUESSES HARDEST` separated by single spaces (`-` for no technique): the `rate` output fields.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let hardest = self.hardest.map_or("-", |t| t.name());
        write!(
            f,
            "{} {} {} {hardest}",
            self.level, self.score, self.guesses
        )
    }
}

/// A puzzle's rating on either scale ([`Rating`], [`SeRating`](super::SeRating)) as `rate` and `explain --json`
/// write it: its [`Display`](fmt::Display) is the text fields separated by single spaces (no field holds a space),
/// [`RatingFields::write_json`] the JSON fields.
pub(crate) trait RatingFields: fmt::Display {
    /// Appends the rating's JSON fields, each after a comma.
    fn write_json(&self, out: &mut Vec<u8>);
}

impl RatingFields for Rating {
    /// `level`, `score`, `guesses`, `hardest`.
    fn write_json(&self, out: &mut Vec<u8>) {
        json_field(out, "level", self.level.name());
        json_field(out, "score", &self.score);
        json_field(out, "guesses", &self.guesses);
        json_field(out, "hardest", &self.hardest.map(|t| t.name()));
    }
}

/// Why a puzzle cannot be rated.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RateError {
    /// The givens break a rule.
    #[error("clashing givens: {0}")]
    InvalidGivens(#[from] Conflict),
    /// No solution exists.
    #[error("no solution")]
    NoSolution,
    /// Several solutions exist: a rating needs a proper puzzle.
    #[error("more than one solution")]
    MultipleSolutions,
}

/// A puzzle that cannot be rated fails as a batch record does: the same three kinds as a solve.
impl From<RateError> for Failure {
    fn from(e: RateError) -> Failure {
        match e {
            RateError::InvalidGivens(c) => Failure::ClashingGivens(c),
            RateError::NoSolution => Failure::NoSolution,
            RateError::MultipleSolutions => Failure::SeveralSolutions,
        }
    }
}

impl From<SolveError> for RateError {
    fn from(e: SolveError) -> RateError {
        match e {
            SolveError::InvalidGivens(c) => RateError::InvalidGivens(c),
            SolveError::NoSolution => RateError::NoSolution,
            SolveError::MultipleSolutions { .. } => RateError::MultipleSolutions,
        }
    }
}

/// Rates a puzzle with every technique. Cost: the human-style path (microseconds for singles-only puzzles, more
/// when the path stalls and guesses), plus a uniqueness check by the fast solver when the path guessed.
pub fn rate(puzzle: &Grid) -> Result<Rating, RateError> {
    rate_with(puzzle, TechniqueSet::ALL)
}

/// Rates a puzzle using only `techniques` (guessing where they stall).
pub fn rate_with(puzzle: &Grid, techniques: TechniqueSet) -> Result<Rating, RateError> {
    rate_seeing(puzzle, techniques, |_| {})
}

/// Rates a puzzle as [`rate_with`] does, handing `seen` each event of the path as it is taken (the path's last
/// event, [`Event::Solved`], included; a path that ends in [`Event::NoSolution`] fails before handing it over).
pub(super) fn rate_seeing(
    puzzle: &Grid,
    techniques: TechniqueSet,
    mut seen: impl FnMut(&Event),
) -> Result<Rating, RateError> {
    let mut tally = Tally::default();
    for event in Explainer::with_techniques(puzzle, techniques)? {
        if let Event::NoSolution { .. } = event {
            return Err(RateError::NoSolution);
        }
        tally.add(&event);
        seen(&event);
    }
    let rating = tally.rating();
    // Every technique step holds in every solution, so a path that solved the puzzle without a guess proves the
    // solution unique. After a guess the path only shows that one solution exists: ask the solver.
    if rating.guesses > 0 {
        solver::solve_unique(puzzle)?;
    }
    Ok(rating)
}

/// Builds a [`Rating`] from the events of a solving path.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Tally {
    hardest: Option<Technique>,
    score: u32,
    guesses: u32,
    steps: u32,
}

impl Tally {
    /// Counts one event.
    pub(super) fn add(&mut self, event: &Event) {
        match event {
            Event::Step { step, .. } => {
                let t = step.technique;
                self.steps += 1;
                self.score += t.weight();
                self.hardest = self.hardest.max(Some(t));
            }
            Event::Guess { .. } => {
                self.guesses += 1;
                self.score += GUESS_WEIGHT;
            }
            _ => {}
        }
    }

    /// The rating of the events counted so far.
    pub(super) fn rating(&self) -> Rating {
        let level = if self.guesses > 0 {
            Level::Expert
        } else {
            self.hardest.map_or(Level::Simple, Technique::level)
        };
        Rating {
            level,
            hardest: self.hardest,
            score: self.score,
            guesses: self.guesses,
            steps: self.steps,
        }
    }
}

/// Counts of ratings: per level, per hardest technique, failures; printed at the end of `rate`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Histogram {
    /// Puzzles per level, indexed like [`Level::ALL`].
    pub levels: [u64; 4],
    /// Puzzles per hardest technique, indexed like [`Technique::ALL`]; puzzles that needed a guess are counted
    /// under `guessed` instead.
    pub hardest: [u64; Technique::ALL.len()],
    /// Puzzles that needed at least one guess.
    pub guessed: u64,
    /// Puzzles already full (no step).
    pub full: u64,
    /// Records that could not be rated.
    pub failed: u64,
    /// Sum of scores.
    pub score_sum: u64,
}

impl Histogram {
    /// Puzzles rated.
    pub fn rated(&self) -> u64 {
        self.levels.iter().sum()
    }
}

impl fmt::Display for Histogram {
    /// A table per level and per hardest technique with counts, shares and bars.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let total = self.rated().max(1);
        let bar = |n: u64| "#".repeat(((n * 40 + total / 2) / total) as usize);
        let share = |n: u64| 100.0 * n as f64 / total as f64;
        writeln!(f, "level         puzzles   share")?;
        for l in Level::ALL {
            let n = self.levels[l as usize];
            writeln!(f, "{:<12} {n:>8} {:>6.1}%  {}", l.name(), share(n), bar(n))?;
        }
        writeln!(f, "hardest technique (puzzles solved without guessing)")?;
        for t in Technique::ALL {
            let n = self.hardest[t.index()];
            if n > 0 {
                writeln!(f, "{:<14} {n:>8} {:>6.1}%  {}", t.name(), share(n), bar(n))?;
            }
        }
        writeln!(
            f,
            "{:<14} {:>8} {:>6.1}%  {}",
            "guesses",
            self.guessed,
            share(self.guessed),
            bar(self.guessed)
        )?;
        if self.full > 0 {
            writeln!(f, "{:<14} {:>8}", "already-full", self.full)?;
        }
        write!(
            f,
            "mean score {:.1}; failed records {}",
            self.score_sum as f64 / total as f64,
            self.failed
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::human::candidates::Candidates;
    use crate::human::house::{CellSet, HouseSet};
    use crate::human::step::Finding;

    fn golden() -> Vec<Grid> {
        include_str!("../../data/puzzles.txt")
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .map(|l| l.parse().unwrap())
            .collect()
    }

    /// Solved without a guess using only `set`?
    fn solves(p: &Grid, set: TechniqueSet) -> bool {
        rate_with(p, set).unwrap().guesses == 0
    }

    #[test]
    fn levels_say_which_techniques_a_puzzle_needs() {
        let mut seen = [0; 4];
        for p in golden() {
            let r = rate(&p).unwrap();
            seen[r.level as usize] += 1;
            let singles = TechniqueSet::up_to(Technique::HiddenSingle);
            assert_eq!(
                r.level == Level::Simple,
                solves(&p, TechniqueSet::up_to(Technique::NakedSingle)),
                "{p}"
            );
            assert_eq!(r.level <= Level::Easy, solves(&p, singles), "{p}");
            assert_eq!(
                r.level <= Level::Intermediate,
                solves(&p, TechniqueSet::up_to(Technique::HiddenTriple)),
                "{p}"
            );
            assert_eq!(
                r.level == Level::Expert,
                r.guesses > 0 || r.hardest >= Some(Technique::XWing)
            );
            assert!(r.score >= r.steps && r.score >= GUESS_WEIGHT * r.guesses);
        }
        // The golden set holds puzzles of every level, so each branch above was taken.
        assert!(seen.iter().all(|&n| n > 0), "{seen:?}");
    }

    /// A minimal puzzle (found among 40,000 that this crate generated) whose only way forward without guessing is
    /// one X-Wing.
    const X_WING: &str =
        "000000061060020000500000470016004850090000000407080010001500900054800000900072000";

    #[test]
    fn a_puzzle_built_around_an_x_wing_needs_it() {
        let p: Grid = X_WING.parse().unwrap();
        let r = rate(&p).unwrap();
        assert_eq!(r.hardest, Some(Technique::XWing));
        assert_eq!(r.guesses, 0);
        assert_eq!(r.level, Level::Expert);
        // Every other technique, Swordfish and the wings included, stalls without it.
        let others = TechniqueSet::ALL.without(Technique::XWing);
        let stalls = Explainer::with_techniques(&p, others)
            .unwrap()
            .any(|e| matches!(e, Event::Stalled { .. }));
        assert!(stalls);
        // The X-Wing step fits the definition on the grid it was found in: in the two base lines the digit's
        // places lie in the two cover lines, and every elimination is in a cover line outside the base lines.
        let mut path = Explainer::new(&p).unwrap();
        let mut before: Candidates = *path.candidates();
        let mut found = 0;
        while let Some(e) = path.next() {
            if let Event::Step { step, .. } = e {
                if let Finding::Fish { digit, base, cover } = step.pattern {
                    assert_eq!(step.technique, Technique::XWing);
                    let cells = |h: HouseSet| h.iter().fold(CellSet::EMPTY, |s, h| s | h.cells());
                    assert_eq!((base.len(), cover.len()), (2, 2));
                    let places = before.places(digit);
                    assert_eq!(places & cells(base) & !cells(cover), CellSet::EMPTY);
                    for h in base.iter() {
                        assert_eq!((places & h.cells()).len(), 2);
                    }
                    let gone = step.eliminations.cells(digit);
                    assert!(!gone.is_empty());
                    assert_eq!(gone & !(cells(cover) & !cells(base)), CellSet::EMPTY);
                    found += 1;
                }
            }
            before = *path.candidates();
        }
        assert_eq!(found, 1);
    }

    #[test]
    fn bad_puzzles_are_not_rated() {
        assert_eq!(rate(&Grid::EMPTY), Err(RateError::MultipleSolutions));
        let mut p = Grid::EMPTY;
        for (cell, d) in (1..=8).enumerate() {
            p.set(cell, d);
        }
        p.set(80, 9);
        assert_eq!(rate(&p), Err(RateError::NoSolution));
        p.set(79, 9);
        assert!(matches!(rate(&p), Err(RateError::InvalidGivens(_))));
    }

    #[test]
    fn levels_parse_by_name() {
        assert_eq!(
            "intermediate".parse::<Level>().unwrap(),
            Level::Intermediate
        );
        assert!("hard".parse::<Level>().is_err());
    }
}
