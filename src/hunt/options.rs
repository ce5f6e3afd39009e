//! What a hunt is asked for ([`HuntOptions`], the [`Seed`]s) and what it reports ([`HuntEvent`]: each [`Find`],
//! the [`HuntProgress`]; at the end a [`HuntSummary`] and its [`Ending`]).

use std::time::Duration;

use crate::grid::{Grid, TextLayout};
use crate::human::{with_board, SeRating, Tenths};
use crate::ordered::Threads;

use super::moves::Move;

/// What to hunt for, and how.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HuntOptions {
    /// The lowest ER of a find.
    pub min_er: Tenths,
    /// The moves, gone through in this order around each node.
    pub moves: Vec<Move>,
    /// Keep only minimal candidates (no clue can go).
    pub minimal: bool,
    /// Stop after this long.
    pub time: Option<Duration>,
    /// Stop after this many finds.
    pub limit: Option<u64>,
    /// Worker threads.
    pub threads: Threads,
    /// The order of each neighbourhood's removal sets is drawn from this.
    pub seed: u64,
}

impl HuntOptions {
    /// Finds rated `min_er` or more with the defaults: `{-1+1}` moves, minimal candidates, no time or count limit,
    /// every core, seed 0.
    pub fn new(min_er: Tenths) -> HuntOptions {
        HuntOptions {
            min_er,
            moves: vec![Move::MINUS1_PLUS1],
            minimal: true,
            time: None,
            limit: None,
            threads: Threads::Auto,
            seed: 0,
        }
    }
}

/// A puzzle to start from, and its ER when known (a seed without one is rated first, to take its place in the
/// frontier; the ER given only orders the search).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Seed {
    /// The puzzle: one solution.
    pub puzzle: Grid,
    /// Its ER, if known.
    pub er: Option<Tenths>,
}

/// A puzzle found, with its full SE rating (ER at least the one asked for).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Find {
    /// The puzzle: one solution, a class not seen before.
    pub puzzle: Grid,
    /// Its ratings.
    pub rating: SeRating,
}

impl Find {
    /// Appends the line `rate --scale se` writes for the puzzle: `PUZZLE ER EP ED HARDEST` (`.` blanks), no line
    /// end.
    pub fn write_line(&self, out: &mut Vec<u8>) {
        with_board(&self.puzzle, TextLayout::Line, &self.rating, out)
            .expect("writing to a Vec cannot fail");
    }
}

/// How far a hunt has gone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct HuntProgress {
    /// Candidates whose solutions were counted.
    pub tried: u64,
    /// Candidates with one solution (and minimal, when asked).
    pub unique: u64,
    /// Candidates of new classes rated (as far as needed to tell).
    pub rated: u64,
    /// Finds reported.
    pub found: u64,
    /// Nodes waiting in the frontier.
    pub frontier: usize,
    /// Time since the start.
    pub elapsed: Duration,
}

/// What a hunt tells its caller as it goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HuntEvent {
    /// A find, reported once.
    Found(Find),
    /// The progress, a few times a second.
    Progress(HuntProgress),
}

/// Why a hunt ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Ending {
    /// The number of finds asked for was reached.
    Limit,
    /// The time given ran out.
    Time,
    /// The caller's stop flag was set.
    Stopped,
    /// No node had anything left to try.
    Exhausted,
}

/// What a hunt did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HuntSummary {
    /// The counts at the end.
    pub progress: HuntProgress,
    /// Why it ended.
    pub ending: Ending,
    /// Worker threads used.
    pub threads: usize,
}
