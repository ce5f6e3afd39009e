//! SE's `LinkedSet` of potentials of one state, as the dynamic chains keep them: a node for each candidate key met,
//! in insertion order, and the pool of such sets a thread recycles from one producer call to the next.

use super::potential::NONE;

/// Its nodes are numbered in its order: a key joins it with a node newer than those of the keys before it (the
/// dynamic chains add a potential as they make its node), which [`LSet::insert`] checks in debug builds.
#[derive(Clone)]
pub(super) struct LSet {
    /// The node of each key, or [`NONE`].
    pub idx: [u32; 729],
    /// The keys in insertion order.
    pub order: Vec<u16>,
}

impl LSet {
    /// The empty set.
    pub(super) const EMPTY: LSet = LSet {
        idx: [NONE; 729],
        order: Vec::new(),
    };

    pub(super) fn get(&self, k: usize) -> Option<u32> {
        let i = self.idx[k];
        (i != NONE).then_some(i)
    }
    pub(super) fn insert(&mut self, k: usize, node: u32) {
        self.check_newer(node);
        if self.idx[k] == NONE {
            self.idx[k] = node;
            self.order.push(k as u16);
        }
    }
    /// Adds key `k`, not in the set yet, with its node.
    #[inline]
    pub(super) fn insert_new(&mut self, k: usize, node: u32) {
        debug_assert_eq!(self.idx[k], NONE, "a new key");
        self.check_newer(node);
        self.idx[k] = node;
        self.order.push(k as u16);
    }
    /// Debug builds: `node` is newer than the set's last one (the set's order is that of its nodes).
    #[inline]
    fn check_newer(&self, node: u32) {
        debug_assert!(
            self.order
                .last()
                .is_none_or(|&l| self.idx[l as usize] < node),
            "a set's nodes come in its order"
        );
    }
    /// Empties the set (its storage is kept for reuse).
    pub(super) fn clear(&mut self) {
        for &k in &self.order {
            self.idx[k as usize] = NONE;
        }
        self.order.clear();
    }
}

/// Sets emptied for reuse: a set is large (one slot per candidate), so the chains recycle them rather than clear
/// or copy fresh ones; a thread keeps its sets from one producer call to the next ([`SETS`]).
// Boxed: a set moves (into the outcome lists, out of the chains) as a pointer, not as its 3 KB.
#[allow(clippy::vec_box)]
#[derive(Default)]
pub(super) struct Pool(pub Vec<Box<LSet>>);

thread_local! {
    /// This thread's sets between producer calls.
    pub(super) static SETS: std::cell::Cell<Pool> = std::cell::Cell::new(Pool::default());
}

impl Pool {
    /// At most this many sets (about 3 KB each) are kept between producer calls.
    pub(super) const KEPT: usize = 1024;

    pub(super) fn take(&mut self) -> Box<LSet> {
        self.0.pop().unwrap_or_else(|| Box::new(LSet::EMPTY))
    }
    pub(super) fn give(&mut self, mut set: Box<LSet>) {
        set.clear();
        self.0.push(set);
    }
}
