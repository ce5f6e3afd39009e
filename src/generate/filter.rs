//! The record of which boards a `--random` run has made: a Bloom filter of board fingerprints, sized once from the
//! number of boards asked for (2 bytes per board), so memory is known at the start and never grows.
//!
//! A Bloom filter never forgets: a board made before always reads as "maybe seen", so a repeat is never missed.
//! It may also say "maybe seen" of a new board (about 1 in 1,000 once full, about 1 in 6,000 averaged over a run
//! as it fills); such a board is only made again, which costs time, not correctness. Blocked layout (Putze, Sanders
//! and Singler, "Cache-, hash- and space-efficient Bloom filters", 2007): every probe of one fingerprint falls in
//! the same 64-byte block, one cache line.

use std::collections::TryReserveError;

use crate::grid::rng::mix64;

/// Filter bits per board: with [`PROBES`] probes in 512-bit blocks, about 0.1% of new boards read as seen.
pub(super) const BITS_PER_BOARD: u64 = 16;

/// Bits set and tested per fingerprint (9 bits of a mixed fingerprint each).
const PROBES: u32 = 7;

/// The smallest filter, in boards, so that short runs keep a low false-positive rate too.
const MIN_BOARDS: u64 = 4096;

/// A fixed-size Bloom filter of 64-bit fingerprints.
#[derive(Debug, Clone)]
pub(super) struct Filter {
    blocks: Vec<[u64; 8]>,
}

impl Filter {
    /// A filter for `boards` fingerprints: `boards * BITS_PER_BOARD / 8` bytes (at least 8 KiB), allocated now,
    /// or the allocation's error when that much memory cannot be had.
    pub(super) fn for_boards(boards: u64) -> Result<Filter, TryReserveError> {
        let len = usize::try_from(Self::blocks_for(boards)).unwrap_or(usize::MAX);
        let mut blocks = Vec::new();
        blocks.try_reserve_exact(len)?;
        blocks.resize(len, [0u64; 8]);
        Ok(Filter { blocks })
    }

    /// Bytes a filter for `boards` fingerprints takes (saturating for impossible sizes).
    pub(super) fn bytes_for(boards: u64) -> u64 {
        Self::blocks_for(boards).saturating_mul(64)
    }

    /// 512-bit blocks for `boards` fingerprints.
    fn blocks_for(boards: u64) -> u64 {
        boards
            .max(MIN_BOARDS)
            .saturating_mul(BITS_PER_BOARD)
            .div_ceil(512)
    }

    /// Bytes held by the filter.
    #[cfg(test)]
    fn bytes(&self) -> usize {
        std::mem::size_of_val(self.blocks.as_slice())
    }

    /// Records `print`. Returns `true` when it may have been recorded before (then certainly, if it was); `false`
    /// when it certainly was not.
    pub(super) fn insert(&mut self, print: u64) -> bool {
        let n = self.blocks.len() as u128;
        // The high bits of print * n pick the block evenly without a division; the probes come from a second mix.
        let block = &mut self.blocks[((u128::from(print) * n) >> 64) as usize];
        let mut h = mix64(print ^ 0x5bd1_e995_d3a2_646c);
        let mut seen = true;
        for _ in 0..PROBES {
            let bit = (h & 511) as usize;
            h >>= 9;
            let (word, mask) = (bit >> 6, 1u64 << (bit & 63));
            seen &= block[word] & mask != 0;
            block[word] |= mask;
        }
        seen
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_recorded_fingerprint_always_reads_as_seen() {
        let mut f = Filter::for_boards(10_000).unwrap();
        let prints: Vec<u64> = (0..10_000u64).map(|i| mix64(i ^ 77)).collect();
        for &p in &prints {
            f.insert(p);
        }
        for &p in &prints {
            assert!(f.insert(p), "{p:#x} was recorded");
        }
    }

    #[test]
    fn new_fingerprints_rarely_read_as_seen_at_full_load() {
        let n = 100_000u64;
        let mut f = Filter::for_boards(n).unwrap();
        assert_eq!(f.bytes() as u64, n * BITS_PER_BOARD / 8);
        let false_positives = (0..n).filter(|&i| f.insert(mix64(i))).count();
        // All n are distinct; the rate climbs from 0 to its full-load value as the filter fills, so the total is
        // well under 1 in 1,000 of n. Deterministic: same inputs, same count.
        assert!(
            false_positives < 100,
            "{false_positives} false positives in {n}"
        );
        let fresh = (n..2 * n).filter(|&i| f.insert(mix64(i))).count();
        // A second n on top (twice the designed load) still stays under 2%.
        assert!(fresh < 2_000, "{fresh}");
    }

    #[test]
    fn an_impossible_size_is_an_error_not_an_abort() {
        assert!(Filter::for_boards(u64::MAX).is_err());
    }
}
