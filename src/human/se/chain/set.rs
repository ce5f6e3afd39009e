//! A set of the 729 candidates (cell, digit), by their [`key`](super::potential::key): twelve words of bits, so
//! that the chains' sets of potentials meet, join and test in a few word operations.

/// A set of candidate keys (bit `k % 64` of word `k / 64` for key `k`).
#[derive(Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Set729(pub [u64; 12]);

impl Set729 {
    /// Whether key `k` is in the set.
    #[inline]
    pub(super) fn contains(&self, k: usize) -> bool {
        self.0[k / 64] >> (k % 64) & 1 != 0
    }

    /// Puts key `k` in the set.
    #[inline]
    pub(super) fn insert(&mut self, k: usize) {
        self.0[k / 64] |= 1 << (k % 64);
    }

    /// Whether the set holds no key.
    #[inline]
    pub(super) fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_go_in_and_are_found_alone() {
        let mut s = Set729::default();
        assert!(s.is_empty());
        for k in [0, 63, 64, 500, 728] {
            s.insert(k);
        }
        assert!(!s.is_empty());
        for k in 0..729 {
            assert_eq!(s.contains(k), [0, 63, 64, 500, 728].contains(&k), "{k}");
        }
    }
}
