//! Patterns of givens (`--pattern`): the cells a generated puzzle may have clues in, read from 81 characters of
//! `x` (a clue may stand here) and `.` (a blank), and the puzzle a solved board gives on a pattern when that puzzle
//! has one solution (clue removal then makes it minimal within the pattern).

use std::fmt;
use std::str::FromStr;

use crate::grid::{Grid, CELLS};
use crate::solver;

/// Fewest clues a proper puzzle can have (there is no 16-clue puzzle).
pub(crate) const MIN_CLUES: usize = 17;

/// The cells that may hold clues: every puzzle of a run has its clues among them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct CluePattern {
    /// Bit `cell` set for a clue.
    cells: u128,
}

impl CluePattern {
    /// The pattern of `puzzle`'s givens.
    pub fn of(puzzle: &Grid) -> CluePattern {
        let cells = (0..CELLS)
            .filter(|&c| puzzle.get(c) != 0)
            .fold(0u128, |m, c| m | 1 << c);
        CluePattern { cells }
    }

    /// Whether `cell` holds a clue.
    pub fn has(self, cell: usize) -> bool {
        self.cells >> cell & 1 != 0
    }

    /// The number of clues.
    pub fn clues(self) -> usize {
        self.cells.count_ones() as usize
    }

    /// The puzzle `solution` gives on the pattern (its digits on the pattern's cells) when it has one solution;
    /// `None` otherwise. Cost: one solution count.
    pub(crate) fn puzzle_from(self, solution: &Grid) -> Option<Grid> {
        let mut puzzle = *solution;
        for cell in (0..CELLS).filter(|&c| !self.has(c)) {
            puzzle.set(cell, 0);
        }
        (solutions(&puzzle) == 1).then_some(puzzle)
    }
}

/// Solutions of `g`, counted up to 2.
fn solutions(g: &Grid) -> u64 {
    solver::count_solutions(g, 2).map_or(0, |c| c.solutions)
}

impl fmt::Display for CluePattern {
    /// 81 characters, `x` for a clue, `.` for a blank.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text: String = (0..CELLS)
            .map(|c| if self.has(c) { 'x' } else { '.' })
            .collect();
        f.write_str(&text)
    }
}

impl FromStr for CluePattern {
    type Err = PatternError;

    /// 81 characters of `x` or `X` (a clue) and `.` (a blank), in rows from the top left; white space anywhere
    /// (nine lines of nine, say) is skipped.
    fn from_str(text: &str) -> Result<CluePattern, PatternError> {
        let mut cells = 0u128;
        let mut n = 0usize;
        for (i, ch) in text.chars().enumerate() {
            if ch.is_whitespace() {
                continue;
            }
            let clue = match ch {
                'x' | 'X' => true,
                '.' => false,
                _ => {
                    return Err(PatternError::Character {
                        position: i + 1,
                        found: ch,
                    })
                }
            };
            if n == CELLS {
                return Err(PatternError::Length(n + 1));
            }
            if clue {
                cells |= 1 << n;
            }
            n += 1;
        }
        if n != CELLS {
            return Err(PatternError::Length(n));
        }
        let p = CluePattern { cells };
        if p.clues() < MIN_CLUES {
            return Err(PatternError::TooFewClues(p.clues()));
        }
        Ok(p)
    }
}

/// Why a pattern of givens is not one.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PatternError {
    /// A character other than `x`, `X`, `.` and white space.
    #[error("character {position} is {found:?}: a pattern is 81 characters of x (a clue) and . (a blank)")]
    Character {
        /// 1-based position in the text.
        position: usize,
        /// The character found.
        found: char,
    },
    /// Not 81 cells (more is reported as 82).
    #[error("a pattern has 81 cells (x for a clue, . for a blank), not {}", if *.0 > 81 { "more".to_string() } else { .0.to_string() })]
    Length(usize),
    /// Fewer than 17 clues: no puzzle on it has one solution.
    #[error("the pattern has {0} clues: a puzzle with one solution has at least 17")]
    TooFewClues(usize),
}

#[cfg(test)]
mod tests {
    use super::*;

    const MASK: &str =
        "x.x.x.x.x.x.x.x.x.x.x.x.x.x.x.x.x.x.x.x.x.x.x.x.x.x.x.x.x.x.x.x.x.x.x.x.x.x.x.x.x";

    #[test]
    fn patterns_are_read_in_any_layout_and_bad_ones_refused_where() {
        let p: CluePattern = MASK.parse().unwrap();
        assert_eq!(p.clues(), 41);
        assert_eq!(p.to_string(), MASK);
        let rows: String = MASK
            .as_bytes()
            .chunks(9)
            .map(|r| format!("{}\n", std::str::from_utf8(r).unwrap().replace('x', "X")))
            .collect();
        assert_eq!(rows.parse::<CluePattern>(), Ok(p));
        assert_eq!(
            MASK[..80].parse::<CluePattern>(),
            Err(PatternError::Length(80))
        );
        assert_eq!(
            format!("{MASK}x").parse::<CluePattern>(),
            Err(PatternError::Length(82))
        );
        let bad = MASK.replacen('.', "0", 1);
        assert_eq!(
            bad.parse::<CluePattern>(),
            Err(PatternError::Character {
                position: 2,
                found: '0'
            })
        );
        let sparse = format!("{}{}", "x".repeat(16), ".".repeat(65));
        assert_eq!(
            sparse.parse::<CluePattern>(),
            Err(PatternError::TooFewClues(16))
        );
    }

    #[test]
    fn a_board_gives_a_puzzle_on_a_pattern_only_when_it_is_unique() {
        let puzzle: Grid =
            "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
                .parse()
                .unwrap();
        let solution = solver::solve_unique(&puzzle).unwrap().solution;
        let p = CluePattern::of(&puzzle);
        assert_eq!(p.clues(), puzzle.clue_count());
        assert_eq!(p.puzzle_from(&solution), Some(puzzle));
        assert_eq!(
            CluePattern::of(&solution).puzzle_from(&solution),
            Some(solution)
        );
        // The top three rows alone leave the rest open: several solutions, no puzzle.
        let rows: CluePattern = format!("{}{}", "x".repeat(27), ".".repeat(54))
            .parse()
            .unwrap();
        assert_eq!(rows.puzzle_from(&solution), None);
    }
}
