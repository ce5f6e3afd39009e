//! The chains of one dynamic producer call, and those carried over from the call one nesting level below on the
//! same grid: a dynamic chain of nesting level `n` (1 to 3) follows exactly what the chain of level `n - 1` from
//! the same assumption follows, until that one has nothing left, and only then asks for more (see
//! [`super::nested::find`]); SE asks level `n` on a grid only when level `n - 1` found nothing there. So a call
//! that found nothing leaves its engine and its chains' outcomes to the thread's next call, and that call, when it
//! is the level above on the same grid, continues each chain from where it ended ([`Engine::resume`]) instead of
//! growing it again from its assumption.

use std::cell::Cell;

use super::dynamic::{Engine, Outcome};
use super::hint::NestedHint;
use super::kind::Kind;
use super::linked::{Pool, SETS};
use super::potential::key;
use crate::human::candidates::Candidates;

/// What a producer call that found nothing left for the level above: its grid, its nesting level, its engine
/// (the chains' potentials) and the outcome of each chain it grew, at `key * 2 + on` of its assumption.
struct Left {
    grid: Candidates,
    level: u8,
    engine: Engine,
    outcomes: Vec<Option<Outcome>>,
}

thread_local! {
    /// What this thread's last producer call left, if it may be continued.
    static LEFT: Cell<Option<Box<Left>>> = const { Cell::new(None) };
}

/// Drops what this thread's last producer call left: the next call grows its chains afresh.
#[cfg(test)]
pub(super) fn forget() {
    drop(LEFT.take());
}

/// Whether a producer of `kind` continues the chains of the level below (dynamic chains of levels 1 to 3).
fn continues(kind: Kind) -> bool {
    matches!(kind, Kind::DynamicPlus | Kind::NestedFc | Kind::NestedMfc)
}

/// Whether a producer of `kind` leaves its chains to the level above (dynamic chains of levels 0 to 2).
fn leaves(kind: Kind) -> bool {
    matches!(kind, Kind::Dynamic | Kind::DynamicPlus | Kind::NestedFc)
}

/// Where the outcome of the chain from "(cell, v) on/off" is kept.
fn slot(cell: u8, v: u8, on: bool) -> usize {
    key(cell, v) * 2 + usize::from(on)
}

/// The chains of one producer call: its engine, the thread's pool of sets, the outcomes the call one level below
/// left (taken as they are continued) and, for a producer whose level above may continue them, its own outcomes.
pub(super) struct Chains {
    pub e: Engine,
    sets: Pool,
    below: Vec<Option<Outcome>>,
    kept: Option<Vec<Option<Outcome>>>,
}

impl Chains {
    /// The chains of a producer of `kind` on `c` (`nest` as [`Engine::new`] takes it): they continue what this
    /// thread's last call left when that call was the level below on the same grid.
    pub(super) fn new(
        c: &Candidates,
        kind: Kind,
        nest: fn(&Candidates, Kind) -> Vec<NestedHint>,
    ) -> Chains {
        let mut sets = SETS.take();
        let (e, below) = match LEFT.take() {
            Some(left) if continues(kind) && left.level + 1 == kind.level() && left.grid == *c => {
                let Left {
                    mut engine,
                    outcomes,
                    ..
                } = *left;
                engine.kind = kind;
                (engine, outcomes)
            }
            other => {
                for o in other.into_iter().flat_map(|l| l.outcomes).flatten() {
                    sets.give(o.to_on);
                    sets.give(o.to_off);
                }
                (Engine::new(c, kind, nest), Vec::new())
            }
        };
        let kept = leaves(kind).then(|| std::iter::repeat_with(|| None).take(1458).collect());
        Chains {
            e,
            sets,
            below,
            kept,
        }
    }

    /// The chain from assuming candidate `v` of `cell` on or off: the level below's continued, else grown.
    pub(super) fn assume(&mut self, cell: u8, v: u8, on: bool) -> Outcome {
        match self.below.get_mut(slot(cell, v, on)).and_then(Option::take) {
            Some(o) => self.e.resume(o),
            None => self.e.assume(&mut self.sets, cell, v, on),
        }
    }

    /// The chain from "(cell, v) on/off" is no longer used by this call: kept for the level above, else its sets
    /// go back to the pool.
    pub(super) fn done(&mut self, cell: u8, v: u8, on: bool, o: Outcome) {
        match &mut self.kept {
            Some(kept) => kept[slot(cell, v, on)] = Some(o),
            None => {
                self.sets.give(o.to_on);
                self.sets.give(o.to_off);
            }
        }
    }

    /// Whether the engine may drop its potentials when no outcome of this call rests on them: not while chains
    /// of the level below are continued or chains are kept for the level above.
    pub(super) fn may_forget(&self) -> bool {
        self.below.is_empty() && self.kept.is_none()
    }

    /// The end of the call on `c`: its chains are left to the level above when it `found` nothing and that level
    /// may continue them; every other set goes back to the thread's pool.
    pub(super) fn finish(mut self, c: &Candidates, found: bool) {
        let mut unused = std::mem::take(&mut self.below);
        let kept = self.kept.take();
        let left = match kept {
            Some(outcomes) if !found => Some(outcomes),
            other => {
                unused.extend(other.into_iter().flatten());
                None
            }
        };
        for o in unused.into_iter().flatten() {
            self.sets.give(o.to_on);
            self.sets.give(o.to_off);
        }
        self.sets.0.truncate(Pool::KEPT);
        SETS.set(self.sets);
        if let Some(outcomes) = left {
            LEFT.set(Some(Box::new(Left {
                grid: *c,
                level: self.e.kind.level(),
                engine: self.e,
                outcomes,
            })));
        }
    }
}
