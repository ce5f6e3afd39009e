//! The small deterministic random number generator behind seeds and random fills: SplitMix64, with one stream
//! per (seed, board index, attempt) so that results never depend on which thread made a board.

/// SplitMix64's output function: a bijective 64-bit mixer (Steele, Lea and Flood, "Fast splittable
/// pseudorandom number generators", 2014).
#[inline]
pub(crate) const fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

const GOLDEN_GAMMA: u64 = 0x9e37_79b9_7f4a_7c15;

/// A SplitMix64 stream. Not for cryptography; fast and well mixed, which is all board shuffling needs.
#[derive(Debug, Clone)]
pub(crate) struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A stream that starts from `seed`.
    pub(crate) fn new(seed: u64) -> SplitMix64 {
        SplitMix64 { state: seed }
    }

    /// The stream for one board: a function of the run's seed, the board's index and the attempt number only.
    pub(crate) fn for_board(seed: u64, index: u64, attempt: u32) -> SplitMix64 {
        let s = mix64(seed ^ GOLDEN_GAMMA);
        let s = mix64(s ^ index);
        SplitMix64::new(mix64(s ^ u64::from(attempt).wrapping_mul(GOLDEN_GAMMA)))
    }

    /// The next 64 random bits.
    #[inline]
    pub(crate) fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(GOLDEN_GAMMA);
        mix64(self.state)
    }

    /// A number in `0..n` (`n` > 0), by the multiply-high method; the bias is below 2^-50 for the small `n`
    /// used here.
    #[inline]
    pub(crate) fn below(&mut self, n: u32) -> u32 {
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_splitmix64_outputs() {
        // Reference values of SplitMix64 seeded with 1234567 (from the public-domain C reference by Vigna).
        let mut r = SplitMix64::new(1234567);
        assert_eq!(r.next_u64(), 6457827717110365317);
        assert_eq!(r.next_u64(), 3203168211198807973);
        assert_eq!(r.next_u64(), 9817491932198370423);
    }

    #[test]
    fn board_streams_differ_by_seed_index_and_attempt() {
        let a = SplitMix64::for_board(1, 2, 0).next_u64();
        assert_eq!(a, SplitMix64::for_board(1, 2, 0).next_u64());
        assert_ne!(a, SplitMix64::for_board(2, 2, 0).next_u64());
        assert_ne!(a, SplitMix64::for_board(1, 3, 0).next_u64());
        assert_ne!(a, SplitMix64::for_board(1, 2, 1).next_u64());
    }

    #[test]
    fn below_stays_in_range_and_reaches_every_value() {
        let mut r = SplitMix64::new(7);
        let mut seen = [0u32; 9];
        for _ in 0..9000 {
            let v = r.below(9) as usize;
            seen[v] += 1;
        }
        assert!(seen.iter().all(|&n| n > 800), "{seen:?}");
    }
}
