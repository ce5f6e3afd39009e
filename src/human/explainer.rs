//! The solving path as an iterator of typed [`Event`]s: technique steps, easiest technique first; when none
//! applies, a stall and a guess (cell with fewest candidates, lowest digit first) at a new guess level; a
//! contradiction under a guess backtracks to the level before it and removes the guessed digit.

use std::fmt;

use crate::grid::{cell_name, Conflict, Grid};

use super::candidates::{Candidates, Contradiction};
use super::house::DigitSet;
use super::step::Step;
use super::technique::TechniqueSet;
use super::techniques;

/// One event of a solving path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event {
    /// A technique placed a digit or removed candidates.
    Step {
        /// Guess level (0 = no guess outstanding).
        level: u32,
        /// The step.
        step: Step,
    },
    /// No technique of the set applies; a guess follows.
    Stalled {
        /// Guess level.
        level: u32,
    },
    /// A digit tried in a cell; `level` is the new guess level (1 for the first guess).
    Guess {
        /// Guess level after the guess.
        level: u32,
        /// 0-based cell.
        cell: usize,
        /// The digit tried.
        digit: u8,
        /// The cell's candidates when the guess was made.
        candidates: DigitSet,
    },
    /// The grid broke a rule under the guess of `level`: that guess was wrong.
    Contradiction {
        /// The failed guess level.
        level: u32,
        /// What broke.
        reason: Contradiction,
    },
    /// Back to guess level `level`; the failed guess's digit is removed from its cell.
    Backtrack {
        /// The guess level now.
        level: u32,
        /// 0-based cell of the failed guess.
        cell: usize,
        /// The digit that failed.
        digit: u8,
    },
    /// Every cell is filled: the path ends.
    Solved {
        /// The completed grid.
        solution: Grid,
    },
    /// A contradiction with no guess outstanding: the puzzle has no solution; the path ends.
    NoSolution {
        /// What broke.
        reason: Contradiction,
    },
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::Step { step, .. } => write!(f, "{step}"),
            Event::Stalled { .. } => f.write_str("no technique applies: guessing"),
            Event::Guess {
                level,
                cell,
                digit,
                candidates,
            } => write!(
                f,
                "guess (level {level}): {} = {digit} (candidates {candidates})",
                cell_name(*cell)
            ),
            Event::Contradiction { level, reason } => {
                write!(f, "contradiction (level {level}): {reason}")
            }
            Event::Backtrack { level, cell, digit } => write!(
                f,
                "backtrack to level {level}: {}<>{digit}",
                cell_name(*cell)
            ),
            Event::Solved { .. } => f.write_str("solved"),
            Event::NoSolution { reason } => write!(f, "no solution: {reason}"),
        }
    }
}

/// A saved state: the grid before a guess, and the guess.
#[derive(Clone, Copy)]
struct Frame {
    before: Candidates,
    cell: usize,
    digit: u8,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// Look for a technique step.
    Search,
    /// A stall was reported: guess next.
    Guess,
    /// A contradiction was reported: undo the last guess next.
    Backtrack,
    /// The path has ended.
    Done,
}

/// Iterator over the solving path of one puzzle. Ends after [`Event::Solved`] or [`Event::NoSolution`].
///
/// On a puzzle with several solutions the path ends at the first solution it reaches. Memory: one saved grid per
/// outstanding guess (at most 81).
pub struct Explainer {
    grid: Candidates,
    techniques: TechniqueSet,
    stack: Vec<Frame>,
    phase: Phase,
}

impl Explainer {
    /// A path using every technique.
    pub fn new(puzzle: &Grid) -> Result<Explainer, Conflict> {
        Explainer::with_techniques(puzzle, TechniqueSet::ALL)
    }

    /// A path using only `techniques` (guessing when they stall).
    pub fn with_techniques(puzzle: &Grid, techniques: TechniqueSet) -> Result<Explainer, Conflict> {
        Ok(Explainer {
            grid: Candidates::new(puzzle)?,
            techniques,
            stack: Vec::new(),
            phase: Phase::Search,
        })
    }

    /// The candidate grid as it is after the last event.
    pub(crate) fn candidates(&self) -> &Candidates {
        &self.grid
    }

    /// The current guess level.
    pub fn level(&self) -> u32 {
        self.stack.len() as u32
    }

    fn finish(&mut self, e: Event) -> Option<Event> {
        self.phase = Phase::Done;
        Some(e)
    }

    /// Ends the path (no guess outstanding) or prepares to undo the last guess.
    fn contradiction(&mut self, level: u32, reason: Contradiction) -> Option<Event> {
        if level == 0 {
            return self.finish(Event::NoSolution { reason });
        }
        self.phase = Phase::Backtrack;
        Some(Event::Contradiction { level, reason })
    }
}

impl Iterator for Explainer {
    type Item = Event;

    fn next(&mut self) -> Option<Event> {
        let level = self.level();
        match self.phase {
            Phase::Done => None,
            Phase::Backtrack => {
                let frame = self.stack.pop().expect("a guess to undo");
                self.grid = frame.before;
                self.grid.eliminate(frame.cell, frame.digit);
                self.phase = Phase::Search;
                Some(Event::Backtrack {
                    level: level - 1,
                    cell: frame.cell,
                    digit: frame.digit,
                })
            }
            Phase::Search | Phase::Guess => {
                // An empty cell is checked at every event; a digit without a place in a house only when the
                // techniques stall (the full check costs more, and a grid that fills up without an empty cell
                // breaks no rule, so a missing digit always shows by then).
                if let Some(reason) = self.grid.empty_cell() {
                    return self.contradiction(level, reason);
                }
                if self.grid.is_solved() {
                    let solution = self.grid.grid();
                    return self.finish(Event::Solved { solution });
                }
                if self.phase == Phase::Search {
                    if let Some(step) = techniques::find(&self.grid, self.techniques) {
                        step.apply(&mut self.grid);
                        return Some(Event::Step { level, step });
                    }
                    if let Some(reason) = self.grid.contradiction() {
                        return self.contradiction(level, reason);
                    }
                    self.phase = Phase::Guess;
                    return Some(Event::Stalled { level });
                }
                // Guess on the open cell with the fewest candidates (the lowest such cell), lowest digit first.
                let g = &self.grid;
                let cell = g
                    .open()
                    .iter()
                    .min_by_key(|&c| g.get(c).len())
                    .expect("an open cell");
                let candidates = g.get(cell);
                let digit = candidates.first().expect("no empty cell after the check");
                self.stack.push(Frame {
                    before: self.grid,
                    cell,
                    digit,
                });
                self.grid.place(cell, digit);
                self.phase = Phase::Search;
                Some(Event::Guess {
                    level: level + 1,
                    cell,
                    digit,
                    candidates,
                })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::human::technique::Technique;

    const HARD: &str =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    const HARD_SOLUTION: &str =
        "417369825632158947958724316825437169791586432346912758289643571573291684164875293";

    #[test]
    fn guessing_alone_still_solves_and_levels_balance() {
        let p: Grid = HARD.parse().unwrap();
        let mut guesses = 0;
        let mut backtracks = 0;
        let mut last = None;
        for e in Explainer::with_techniques(&p, TechniqueSet::NONE).unwrap() {
            match e {
                Event::Guess { .. } => guesses += 1,
                Event::Backtrack { .. } => backtracks += 1,
                Event::Step { .. } => panic!("no technique was allowed: {e}"),
                _ => {}
            }
            last = Some(e);
        }
        assert!(backtracks < guesses);
        assert_eq!(
            last,
            Some(Event::Solved {
                solution: HARD_SOLUTION.parse().unwrap()
            })
        );
    }

    #[test]
    fn a_puzzle_without_solution_ends_in_no_solution() {
        // Row 1 needs a 9 at r1c9, but column 9 has a 9 lower down.
        let mut p = Grid::EMPTY;
        for (cell, d) in (1..=8).enumerate() {
            p.set(cell, d);
        }
        p.set(80, 9);
        let events: Vec<Event> = Explainer::new(&p).unwrap().collect();
        assert!(
            matches!(events.last(), Some(Event::NoSolution { .. })),
            "{events:?}"
        );
    }

    #[test]
    fn clashing_givens_are_refused() {
        let p: Grid =
            "11..............................................................................."
                .parse()
                .unwrap();
        assert!(Explainer::new(&p).is_err());
    }

    /// From the forum's hardest list: techniques stall at once.
    const STALLS: &str =
        "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3";

    #[test]
    fn events_read_as_sentences() {
        let p: Grid = STALLS.parse().unwrap();
        let events: Vec<Event> = Explainer::new(&p).unwrap().collect();
        let text: Vec<String> = events.iter().map(|e| e.to_string()).collect();
        assert!(text.iter().any(|t| t.starts_with("hidden single in ")));
        assert!(text.iter().any(|t| t == "no technique applies: guessing"));
        assert!(text
            .iter()
            .any(|t| t.starts_with("guess (level 1): r") && t.contains("(candidates ")));
        assert!(text.iter().any(|t| t.starts_with("contradiction (level ")));
        assert!(text.iter().any(|t| t.starts_with("backtrack to level ")));
        assert_eq!(text.last().unwrap(), "solved");
        match events.last() {
            Some(Event::Solved { solution }) => assert!(solution.is_solution_of(&p)),
            other => panic!("{other:?}"),
        }
        let steps = events
            .iter()
            .filter(|e| matches!(e, Event::Step { step, .. } if step.technique == Technique::NakedSingle))
            .count();
        assert!(steps > 0);
    }
}
