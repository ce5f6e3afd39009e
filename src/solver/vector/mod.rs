//! The vector engine ([`super::Engine::Vector`]): a search on boxes and bands instead of digit masks. Each box is
//! 16 lanes of digit sets (its nine cells and its six "not in this mini-line" literals), each band keeps per digit
//! which of its six placement patterns remain; singles, box/line reductions and their consequences follow from
//! lane-wise rules inside a box and from the patterns of a band ([`state`]). A guess splits one band's digit two
//! ways: its first remaining pattern, or every other one, in the band with fewest patterns left; so hard puzzles
//! need fewer guesses than guessing cells.
//!
//! The engine is portable code written lane by lane; it is compiled three times: portable, for x86-64-v3 (AVX2,
//! BMI1, BMI2, LZCNT, POPCNT), where the compiler makes each lane operation a few 256-bit instructions, and for
//! x86-64-v3 with AVX-512F, BW, VL and BITALG (`avx512`: fewer instructions for shuffles, counts and three-input
//! logic; built by rustc 1.89 and newer only, see build.rs). [`run`] picks the copy after a run-time check of the
//! processor, as the bitmask engine does.

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(all(target_arch = "x86_64", vector_avx512))]
mod avx512;
mod lanes;
mod layout;
mod state;

use std::sync::atomic::AtomicBool;

use super::Outcome;
use crate::grid::Grid;
use lanes::Portable;
use state::State;

/// Searches `puzzle` until `limit` solutions (at least 1) are found or the tree is exhausted. Givens that clash
/// give no solution and no guess (the caller tells that case apart with `Grid::check_givens`).
pub(super) fn run(puzzle: &Grid, limit: u64, stop: Option<&AtomicBool>) -> Outcome {
    #[cfg(all(target_arch = "x86_64", vector_avx512))]
    if avx512::has_v4() {
        // SAFETY: `run_v4` needs exactly the processor features `has_v4` has just found on this processor.
        return unsafe { run_v4(puzzle, limit, stop) };
    }
    #[cfg(target_arch = "x86_64")]
    if super::processor::has_v3() {
        // SAFETY: `run_v3` needs exactly the processor features `has_v3` has just found on this processor.
        return unsafe { run_v3(puzzle, limit, stop) };
    }
    run_portable(puzzle, limit, stop)
}

/// Whether [`run`] runs the engine's AVX-512 copy on this processor (the copy `super::auto` hands searches for many
/// solutions to).
pub(super) fn has_avx512_copy() -> bool {
    #[cfg(all(target_arch = "x86_64", vector_avx512))]
    if avx512::has_v4() {
        return true;
    }
    false
}

/// What each copy of the engine this processor can run finds for `puzzle` up to `limit`: the copy's name, the
/// count, the first solution and the guesses; the portable copy first. For tests that check the copies agree.
#[cfg(feature = "internals")]
pub fn every_copy(puzzle: &Grid, limit: u64) -> Vec<(&'static str, u64, Option<Grid>, u32)> {
    let row = |name, o: Outcome| (name, o.found, o.first, o.stats.guesses);
    let mut out = Vec::new();
    out.push(row("portable", run_portable(puzzle, limit, None)));
    #[cfg(target_arch = "x86_64")]
    if super::processor::has_v3() {
        // SAFETY: `run_v3` needs exactly the processor features `has_v3` has just found.
        out.push(row("x86-64-v3", unsafe { run_v3(puzzle, limit, None) }));
    }
    #[cfg(all(target_arch = "x86_64", vector_avx512))]
    if avx512::has_v4() {
        // SAFETY: `run_v4` needs exactly the processor features `has_v4` has just found.
        out.push(row("avx512", unsafe { run_v4(puzzle, limit, None) }));
    }
    out
}

/// [`run`] in the portable build.
fn run_portable(puzzle: &Grid, limit: u64, stop: Option<&AtomicBool>) -> Outcome {
    let mut search = Search::new(limit, stop);
    if let Some(mut st) = State::<Portable>::from_grid(puzzle) {
        search.search(&mut st);
    }
    search.out
}

/// [`run`] compiled for x86-64-v3: the same code, other instructions.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
fn run_v3(puzzle: &Grid, limit: u64, stop: Option<&AtomicBool>) -> Outcome {
    let mut search = Search::new(limit, stop);
    if let Some(mut st) = State::<avx2::Avx2>::from_grid(puzzle) {
        search.search_v3(&mut st);
    }
    search.out
}

/// [`run`] compiled with AVX-512 (F, BW, VL, BITALG) besides x86-64-v3: the same code, on the lanes of
/// `avx512`.
#[cfg(all(target_arch = "x86_64", vector_avx512))]
#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt,avx512f,avx512bw,avx512vl,avx512bitalg")]
fn run_v4(puzzle: &Grid, limit: u64, stop: Option<&AtomicBool>) -> Outcome {
    let mut search = Search::new(limit, stop);
    if let Some(mut st) = State::<avx512::Avx512>::from_grid(puzzle) {
        search.search_v4(&mut st);
    }
    search.out
}

/// One search in progress: the limit and what has been found.
struct Search<'s> {
    limit: u64,
    /// Polled every few thousand solutions (`Outcome::count`): once set, the search ends with what it has found.
    stop: Option<&'s AtomicBool>,
    out: Outcome,
}

/// The body of [`Search::search`] and of its x86-64-v3 copy; `$recurse` names the function itself, so that each
/// copy recurses into itself.
macro_rules! search_body {
    ($self:ident, $st:ident, $recurse:ident) => {
        loop {
            let Some(branch) = $st.choose() else {
                if $self.out.count($self.stop, || $st.solution()) {
                    $self.limit = $self.out.found;
                }
                return;
            };
            // Two guesses: the digit's first remaining pattern (in a copy), then all its others (in this frame).
            $self.out.stats.guesses = $self.out.stats.guesses.saturating_add(1);
            let mut child = *$st;
            if child.apply(&branch, true) {
                $self.$recurse(&mut child);
                if $self.out.found >= $self.limit {
                    return;
                }
            }
            $self.out.stats.guesses = $self.out.stats.guesses.saturating_add(1);
            if !$st.apply(&branch, false) {
                return;
            }
        }
    };
}

impl<'s> Search<'s> {
    fn new(limit: u64, stop: Option<&'s AtomicBool>) -> Search<'s> {
        Search {
            limit: limit.max(1),
            stop,
            out: Outcome {
                found: 0,
                first: None,
                stats: super::SolveStats::default(),
            },
        }
    }

    /// Explores the subtree of `st` (which it uses up); returns early once the limit is reached.
    fn search(&mut self, st: &mut State<Portable>) {
        search_body!(self, st, search)
    }

    /// [`Search::search`] compiled for x86-64-v3.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
    fn search_v3(&mut self, st: &mut State<avx2::Avx2>) {
        search_body!(self, st, search_v3)
    }

    /// [`Search::search`] compiled with AVX-512 (see [`run_v4`]).
    #[cfg(all(target_arch = "x86_64", vector_avx512))]
    #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt,avx512f,avx512bw,avx512vl,avx512bitalg")]
    fn search_v4(&mut self, st: &mut State<avx512::Avx512>) {
        search_body!(self, st, search_v4)
    }
}

#[cfg(test)]
mod tests;
