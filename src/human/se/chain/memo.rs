//! The memo of the nested producers' hints: the hints each nested producer found on the working grids met lately,
//! kept within one byte budget for the whole process, shared by every rating thread whatever their number.
//!
//! A nested producer's hints depend on its working grid alone, and the dynamic chains meet the same working grids
//! again and again (the assumptions of one cell and of the next steps of a rating lead to the same grids), so a
//! grid met lately is answered from the memo. What the memo holds is counted in bytes, generously (see
//! [`entry_bytes`]), never past [`MEMO_BYTES`]: two generations of at most half the budget each, the newer moved
//! to the older when full (the older then dropped), a hint found in the older moved to the newer. A producer's
//! answer is the same with or without the memo, so the budget changes the speed, never a rating.
//!
//! Its tables, and the other tables keyed by working grids, are [`GridMap`]s.

use std::collections::HashMap;
use std::mem::size_of;
use std::sync::{Arc, LazyLock, Mutex, MutexGuard, PoisonError};

use super::hint::NestedHint;
use super::kind::Kind;
use crate::human::house::DigitSet;

/// A nested producer, as the memo tells them apart.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(super) enum Producer {
    /// [`super::forcing::nested_hints`].
    Chains,
    /// [`super::multiple::nested_hints`].
    Multiple,
    /// [`super::chaining::nested_hints`] of this kind (level 4).
    Dynamic(Kind),
}

/// A producer and the working grid it ran on (all its hints depend on them: for [`Producer::Chains`] and
/// [`Producer::Multiple`] the candidates, the digits' places following from them; for [`Producer::Dynamic`],
/// which also reads the placed cells, their values too).
type Key = (Producer, [u16; 81]);

/// A table keyed by working grids (arrays of 81 cells' candidates), hashed with foldhash's fast hasher with a
/// fixed seed instead of std's SipHash (quicker on their 162 bytes). It is not keyed by a random seed: the grids
/// are those the rating reaches, not keys an input chooses, and a collision costs time only, never a wrong answer.
pub(super) type GridMap<K, V> = HashMap<K, V, foldhash::fast::FixedState>;

/// The hints of one working grid, shared by the memo and the chains reading them.
pub(super) type Hints = Arc<[NestedHint]>;

/// The bytes the memo of the process may hold, all rating threads together.
pub(super) const MEMO_BYTES: usize = 48 << 20;

/// One generation: its hints, and the bytes counted for them (each entry's [`entry_bytes`], with its table slots
/// counted from its insertion on, since a table never shrinks when an entry leaves it).
#[derive(Default)]
struct Generation {
    map: GridMap<Key, Hints>,
    /// The [`heap_bytes`] of the entries now in `map`.
    heap: usize,
    /// Entries ever inserted in `map` (its table is sized for at most that many).
    inserted: usize,
}

impl Generation {
    /// The bytes counted for this generation: its entries' heap and its table.
    fn bytes(&self) -> usize {
        self.heap + table_bytes(self.inserted)
    }
}

/// The memo: two [`Generation`]s within a budget.
pub(super) struct Memo {
    new: Generation,
    old: Generation,
    budget: usize,
    /// The most bytes counted at once so far.
    peak: usize,
    /// Generations dropped so far.
    #[cfg(test)]
    dropped: usize,
}

/// Bytes of one table slot: an entry and its control byte.
const SLOT: usize = size_of::<(Key, Hints)>() + 1;

/// A table's bytes, for at most `entries` entries: a table holds at least half as many entries as it has slots
/// (or fewer than four), so four slots per entry (it may double when one more comes) and eight more bound it.
fn table_bytes(entries: usize) -> usize {
    (4 * entries + 8) * SLOT
}

/// What one allocation is counted beyond its bytes (the allocator's header and rounding).
const ALLOCATION: usize = 16;

/// The heap bytes of `hints` as the memo holds them: the shared slice (its counts and hints) and each hint's
/// lists at their capacity, each allocation with its overhead.
fn heap_bytes(hints: &[NestedHint]) -> usize {
    let list = |cap: usize, item: usize| {
        if cap == 0 {
            0
        } else {
            cap * item + ALLOCATION
        }
    };
    let lists: usize = hints
        .iter()
        .map(|h| {
            list(h.removes.capacity(), size_of::<(u8, DigitSet)>())
                + list(h.causes.capacity(), size_of::<(u8, u8, u8)>())
                + list(h.identity.capacity(), size_of::<u16>())
        })
        .sum();
    2 * size_of::<usize>() + size_of_val(hints) + ALLOCATION + lists
}

/// What an entry holding `hints` adds to its generation's bytes.
fn entry_bytes(hints: &[NestedHint]) -> usize {
    heap_bytes(hints) + 4 * SLOT
}

impl Memo {
    /// An empty memo that holds at most `budget` bytes.
    pub(super) fn new(budget: usize) -> Memo {
        Memo {
            new: Generation::default(),
            old: Generation::default(),
            budget,
            peak: 0,
            #[cfg(test)]
            dropped: 0,
        }
    }

    /// The bytes counted for what the memo holds now (never above its budget).
    pub(super) fn bytes(&self) -> usize {
        self.new.bytes() + self.old.bytes()
    }

    /// The most bytes counted at once so far.
    #[cfg(test)]
    pub(super) fn peak(&self) -> usize {
        self.peak
    }

    /// The hints remembered for `key`, the entry moved to the newer generation when it was in the older (when
    /// there is room: else it stays there).
    fn get(&mut self, key: &Key) -> Option<Hints> {
        if let Some(h) = self.new.map.get(key) {
            return Some(h.clone());
        }
        let h = self.old.map.get(key)?.clone();
        if self.new.bytes() + entry_bytes(&h) <= self.budget / 2 {
            let h = self.old.map.remove(key).expect("found above");
            let heap = heap_bytes(&h);
            self.old.heap -= heap;
            self.new.heap += heap;
            self.new.inserted += 1;
            self.new.map.insert(*key, h.clone());
            self.peak = self.peak.max(self.bytes());
            return Some(h);
        }
        Some(h)
    }

    /// Remembers `hints` for `key`, in the newer generation; when that would pass half the budget, the older
    /// generation is dropped first and the newer one becomes the older. Hints that would not fit in an empty
    /// generation are not remembered.
    fn insert(&mut self, key: Key, hints: &Hints) {
        let bytes = entry_bytes(hints);
        if table_bytes(0) + bytes > self.budget / 2 || self.new.map.contains_key(&key) {
            return;
        }
        if self.new.bytes() + bytes > self.budget / 2 {
            self.old = std::mem::take(&mut self.new);
            #[cfg(test)]
            {
                self.dropped += 1;
            }
        }
        self.new.heap += heap_bytes(hints);
        self.new.inserted += 1;
        self.new.map.insert(key, hints.clone());
        self.peak = self.peak.max(self.bytes());
    }

    /// The bytes counted afresh from what the memo holds, its tables from their capacities (a table of capacity
    /// `c` has at most `2 c` slots): never above [`Memo::bytes`].
    #[cfg(test)]
    pub(super) fn recount(&self) -> usize {
        [&self.new, &self.old]
            .iter()
            .map(|g| {
                let heap: usize = g.map.values().map(|h| heap_bytes(h)).sum();
                heap + 2 * g.map.capacity() * SLOT
            })
            .sum()
    }
}

/// The memo of the process.
static MEMO: LazyLock<Mutex<Memo>> = LazyLock::new(|| Mutex::new(Memo::new(MEMO_BYTES)));

#[cfg(test)]
thread_local! {
    /// A memo of this thread's own, replacing the process's for the tests that set it.
    static OWN: std::cell::RefCell<Option<Arc<Mutex<Memo>>>> = const { std::cell::RefCell::new(None) };
}

/// Runs `f` with this thread's memo of its own (tests: a small budget, say) instead of the process's.
#[cfg(test)]
pub(super) fn with_own<R>(memo: Arc<Mutex<Memo>>, f: impl FnOnce() -> R) -> R {
    OWN.with(|o| *o.borrow_mut() = Some(memo));
    let r = f();
    OWN.with(|o| *o.borrow_mut() = None);
    r
}

/// Runs `f` on the memo, locked (a lock poisoned by a panic elsewhere is taken as it is: the memo is whole
/// between calls).
fn locked<R>(f: impl FnOnce(&mut Memo) -> R) -> R {
    #[cfg(test)]
    if let Some(own) = OWN.with(|o| o.borrow().clone()) {
        return f(&mut lock(&own));
    }
    f(&mut lock(&MEMO))
}

fn lock(m: &Mutex<Memo>) -> MutexGuard<'_, Memo> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The hints of `producer` on the working grid `grid` (`hints_of` finds them), from the memo when they are
/// there, else found (the memo unlocked meanwhile, so other threads go on) and remembered.
pub(super) fn hints(
    producer: Producer,
    grid: &[u16; 81],
    hints_of: impl FnOnce() -> Vec<NestedHint>,
) -> Hints {
    let key: Key = (producer, *grid);
    if let Some(h) = locked(|m| m.get(&key)) {
        return h;
    }
    let mut found = hints_of();
    for h in &mut found {
        h.removes.shrink_to_fit();
        h.causes.shrink_to_fit();
        h.identity.shrink_to_fit();
    }
    let hints: Hints = found.into();
    locked(|m| m.insert(key, &hints));
    hints
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Grid;
    use crate::human::candidates::Candidates;
    use crate::human::se::{SePath, SeStep, SeTechnique};

    /// The first steps of two puzzles that reach the nested producers of levels 2 and 3 (Forcing Chains and
    /// Multiple Forcing Chains on the working grids), and the level-4 step (Dynamic Forcing Chains on them) of
    /// `tests::nested_dynamic_forcing_chains_step_is_serates`, rated with `memo` as this thread's memo.
    fn nested_steps(memo: &Arc<Mutex<Memo>>) -> Vec<SeStep> {
        with_own(memo.clone(), || {
            let mut steps = Vec::new();
            for (p, n) in [
                ("1....6...4....9.3..8.2..6....4.....7.9..2.8..5......1....3...7..3...29....58.....", 5),
                (".......8...6.8.1..7....3..4.47..5...5..32............53....4..7......9...1.9...6.", 6),
            ] {
                let p: Grid = p.parse().unwrap();
                steps.extend(SePath::new(&p).unwrap().take(n));
                let m = lock(memo);
                assert!(m.recount() <= m.bytes());
            }
            let p: Grid =
                "9..76.5..6...8.9....5..9...5....78....183...........2.3..9..7......76.49.......5."
                    .parse()
                    .unwrap();
            let mut c = Candidates::new(&p).unwrap();
            let removed: [(&[usize], u8); 12] = [
                (&[55, 56, 72, 73, 74], 8),
                (&[53], 6),
                (&[73], 1),
                (&[44], 4),
                (&[53], 4),
                (&[80], 2),
                (&[74], 4),
                (&[64], 1),
                (&[64], 8),
                (&[74], 2),
                (&[53], 1),
                (&[12], 3),
            ];
            for (cells, d) in removed {
                for &cell in cells {
                    assert!(c.eliminate(cell, d));
                }
            }
            steps.extend(SeTechnique::NestedDynamicForcingChain.find(&c));
            let m = lock(memo);
            assert!(m.recount() <= m.bytes());
            steps
        })
    }

    #[test]
    fn a_small_budget_bounds_the_memo_and_changes_no_step() {
        let unlimited = Arc::new(Mutex::new(Memo::new(usize::MAX)));
        let want = nested_steps(&unlimited);
        let techniques: Vec<SeTechnique> = want.iter().map(|s| s.technique).collect();
        assert!(techniques.contains(&SeTechnique::NestedForcingChain));
        assert!(techniques.contains(&SeTechnique::NestedMultipleForcingChain));
        assert!(techniques.contains(&SeTechnique::NestedDynamicForcingChain));
        let held = lock(&unlimited).peak();
        for budget in [held / 8, held / 3] {
            let small = Arc::new(Mutex::new(Memo::new(budget)));
            let steps = nested_steps(&small);
            assert_eq!(steps, want, "budget {budget} of {held}");
            let m = lock(&small);
            assert!(m.peak() <= budget, "{} > {budget}", m.peak());
            // The budget did bind: generations were dropped.
            assert!(m.dropped > 0, "budget {budget} of {held}");
        }
    }

    #[test]
    fn grids_one_candidate_apart_hash_apart_in_the_low_and_high_bits() {
        // Every grid one candidate (or one placed value) away from a base grid: the bits a table takes its slot
        // from (the low ones) and its tag from (the top seven) both take many values.
        use std::hash::BuildHasher;
        let base: [u16; 81] = std::array::from_fn(|c| 0x1FF >> (c % 7));
        let mut grids = Vec::new();
        for cell in 0..81 {
            for bit in (0..9).chain([15]) {
                let mut g = base;
                g[cell] ^= 1 << bit;
                grids.push(g);
            }
        }
        let build = foldhash::fast::FixedState::default();
        let hashes: Vec<u64> = grids.iter().map(|g| build.hash_one(g)).collect();
        let distinct = |f: &dyn Fn(u64) -> u64| {
            let mut v: Vec<u64> = hashes.iter().map(|&h| f(h)).collect();
            v.sort_unstable();
            v.dedup();
            v.len()
        };
        assert_eq!(distinct(&|h| h), grids.len());
        // 810 grids in 1024 slots, and in 128 tags: far more values than a hash of few good bits gives.
        assert!(
            distinct(&|h| h & 0x3FF) > 450,
            "{}",
            distinct(&|h| h & 0x3FF)
        );
        assert!(distinct(&|h| h >> 57) > 120, "{}", distinct(&|h| h >> 57));
        // The producer is hashed too.
        let keys = [(Producer::Chains, base), (Producer::Multiple, base)];
        assert_ne!(build.hash_one(keys[0]), build.hash_one(keys[1]));
    }

    #[test]
    fn hints_larger_than_half_the_budget_are_not_kept() {
        let budget = 2 * (table_bytes(0) + entry_bytes(&[])) + 1;
        let memo = Arc::new(Mutex::new(Memo::new(budget)));
        let hint = || NestedHint {
            complexity: 3,
            removes: vec![(4, DigitSet::single(2))],
            causes: vec![(1, 2, 0)],
            identity: vec![7, 8, 9],
        };
        with_own(memo.clone(), || {
            let grid = [0u16; 81];
            let found = hints(Producer::Chains, &grid, || vec![hint()]);
            assert_eq!(found.len(), 1);
            assert_eq!(lock(&memo).bytes(), table_bytes(0) * 2);
            // Empty hints fit, and are answered from the memo.
            let other = [1u16; 81];
            assert!(hints(Producer::Multiple, &other, Vec::new).is_empty());
            assert!(hints(Producer::Multiple, &other, || vec![hint()]).is_empty());
            let m = lock(&memo);
            assert_eq!(m.bytes(), 2 * table_bytes(0) + entry_bytes(&[]));
            assert!(m.peak() <= budget);
        });
    }
}
