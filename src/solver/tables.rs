//! The solver engine's const tables and the small bit helpers around them: masks of a band's rows, boxes and
//! columns, the lookup tables of placement reasoning (built at compile time), and what the engine's x86-64-v3 copies
//! use instead of some of them (bit extraction and deposit, a vector read of a grid's bit planes).

use crate::grid::POP9;

/// All 27 cells of a band.
pub(super) const BAND: u32 = (1 << 27) - 1;
/// The nine cells of row 0 of a band.
pub(super) const ROW0: u32 = 0x1FF;

/// For the nine bits of one row of a band: which of its three boxes hold at least one bit. Also maps a 9-bit
/// (row, box) pattern (bit `r * 3 + k`) to the rows that have any bit.
const ROW_BOXES: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut x = 0;
    while x < 512 {
        t[x] =
            ((x & 7 != 0) as u8) | (((x & 0o70 != 0) as u8) << 1) | (((x & 0o700 != 0) as u8) << 2);
        x += 1;
    }
    t
};

/// The six ways to give each row of a band its own box (row `r` gets box `PERMS[p][r]`).
const PERMS: [[u8; 3]; 6] = crate::grid::PERMUTATIONS_OF_3;

/// The placements of a 3 x 3 choice table: `x` has bit `i * 3 + j` when line `i` may still take place `j`; each
/// line needs its own place. Returns the union, over every placement that `x` allows, of `unit << (i * 9 + j *
/// step)` for its three (line, place) pairs: zero when no placement is left.
const fn placements(x: usize, unit: u32, step: usize) -> u32 {
    let mut mask = 0u32;
    let mut p = 0;
    while p < 6 {
        let perm = PERMS[p];
        let mut ok = true;
        let mut m = 0u32;
        let mut i = 0;
        while i < 3 {
            ok &= x & (1 << (i * 3 + perm[i] as usize)) != 0;
            m |= unit << (i * 9 + perm[i] as usize * step);
            i += 1;
        }
        if ok {
            mask |= m;
        }
        p += 1;
    }
    mask
}

/// For a 9-bit "which (row, box) pairs still hold the digit" pattern (bit `r * 3 + k`): the cells of every
/// (row, box) pair that belongs to at least one complete placement of the digit in the band (one box per row, one
/// row per box). Zero when no placement is left.
pub(super) const COMPLEX: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut x = 0;
    while x < 512 {
        t[x] = placements(x, 7, 3);
        x += 1;
    }
    t
};

/// For the nine column bits of a band: the cells the other two bands keep, without the columns that are alone in
/// their box here (the digit is locked in them).
pub(super) const KEEP_OTHERS: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut x = 0;
    while x < 512 {
        let mut k = 0;
        let mut locked = 0;
        while k < 3 {
            let cols = (x >> (k * 3)) & 7;
            if cols != 0 && cols & (cols - 1) == 0 {
                locked |= (cols << (k * 3)) as u32;
            }
            k += 1;
        }
        t[x] = !columns(locked);
        x += 1;
    }
    t
};

/// For one stack of one digit, as a 9-bit (band, column) pattern (bit `b * 3 + c`: column `c` of the stack still
/// holds the digit somewhere in band `b`): the pairs that belong to a complete placement (each band its own column),
/// laid out as bits `b * 9 + c`. Zero when no placement is left.
pub(super) const STACK: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut x = 0;
    while x < 512 {
        t[x] = placements(x, 1, 1);
        x += 1;
    }
    t
};

/// For the nine bits of row `r` of a band (`[r][bits]`): every cell of the band but the row's bit when it is the
/// row's only one (a row's lone cell, placed and inverted: a mask that keeps everything else).
pub(super) const BUT_LONE: [[u32; 512]; 3] = {
    let mut t = [[0u32; 512]; 3];
    let mut r = 0;
    while r < 3 {
        let mut x = 0u32;
        while x < 512 {
            let lone = if x & x.wrapping_sub(1) == 0 { x } else { 0 };
            t[r as usize][x as usize] = !(lone << (9 * r));
            x += 1;
        }
        r += 1;
    }
    t
};

/// For a 3-bit set of rows of a band: all their cells.
pub(super) const ROWS: [u32; 8] = {
    let mut t = [0u32; 8];
    let mut x = 0;
    while x < 8 {
        let mut r = 0;
        while r < 3 {
            if x & (1 << r) != 0 {
                t[x] |= ROW0 << (r * 9);
            }
            r += 1;
        }
        x += 1;
    }
    t
};

/// For a 3-bit set of boxes of a band: all their cells.
const BOXES: [u32; 8] = {
    let mut t = [0u32; 8];
    let mut x = 0;
    while x < 8 {
        let mut k = 0;
        while k < 3 {
            if x & (1 << k) != 0 {
                t[x] |= columns(7 << (k * 3));
            }
            k += 1;
        }
        x += 1;
    }
    t
};

/// For a 9-bit (row, box) pattern (bit `r * 3 + k`): every cell of the rows and of the boxes that have a bit.
pub(super) const ROWS_AND_BOXES: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut x = 0;
    while x < 512 {
        let rows = ROW_BOXES[x] as usize;
        let boxes = (x | x >> 3 | x >> 6) & 7;
        t[x] = ROWS[rows] | BOXES[boxes];
        x += 1;
    }
    t
};

/// For a bit position in a band: the cells of its row, box and column inside the band (itself included). Indexed
/// by any 5-bit value; positions past 26 give nothing.
pub(super) const SEEN_FROM: [u32; 32] = {
    let mut t = [0u32; 32];
    let mut p = 0;
    while p < 27 {
        t[p] = ROWS[1 << (p / 9)] | BOXES[1 << (p % 9 / 3)] | columns(1 << (p % 9));
        p += 1;
    }
    t
};

/// For a bit position in a band (any 5-bit value): its column.
pub(super) const COLUMN_OF: [u32; 32] = {
    let mut t = [0u32; 32];
    let mut p = 0;
    while p < 32 {
        t[p] = (p % 9) as u32;
        p += 1;
    }
    t
};

/// The (row, box) pairs of a band's cells `x`: bit `r * 3 + k` when row `r` has a cell of `x` in box `k`.
#[inline(always)]
pub(super) fn row_boxes(x: u32) -> usize {
    ROW_BOXES[(x & ROW0) as usize] as usize
        | (ROW_BOXES[((x >> 9) & ROW0) as usize] as usize) << 3
        | (ROW_BOXES[(x >> 18) as usize] as usize) << 6
}

/// [`row_boxes`] by one bit extraction: in each mini-row (three cells of a row in a box), its two first cells plus 3
/// set the third cell's place when either is set (without carrying out of the mini-row); ORed with the third cell,
/// that place tells whether the mini-row has a cell; then the nine places are gathered.
///
/// # Safety
/// As [`move_bits`].
#[inline(always)]
pub(super) unsafe fn row_boxes_pext(x: u32) -> usize {
    /// The two first cells of each mini-row of a band.
    const FIRST_TWO: u32 = 0o333_333_333;
    /// The third cell of each mini-row of a band.
    const THIRDS: u64 = 0o444_444_444;
    let any = ((x & FIRST_TWO) + FIRST_TWO) | x;
    // SAFETY: the caller's promise.
    unsafe { move_bits(u64::from(any), THIRDS, GATHER) as usize }
}

/// BMI2's bit extraction (`pext`) when `gather`: the bits of `x` at the places of `mask`, gathered at the bottom in
/// their order; else its bit deposit (`pdep`): the low bits of `x`, in their order, put at the places of `mask`.
///
/// # Safety
/// On x86-64, the processor has BMI2 (the caller is compiled for it, or this is a call to an unknown
/// instruction); elsewhere it is a loop, and safe.
#[inline(always)]
pub(super) unsafe fn move_bits(x: u64, mask: u64, gather: bool) -> u64 {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: the caller's promise: the processor has BMI2.
    return unsafe {
        if gather {
            std::arch::x86_64::_pext_u64(x, mask)
        } else {
            std::arch::x86_64::_pdep_u64(x, mask)
        }
    };
    #[cfg(not(target_arch = "x86_64"))]
    bit_by_bit(x, mask, gather)
}

/// Gathers (`pext`), in [`move_bits`].
pub(super) const GATHER: bool = true;
/// Deposits (`pdep`), in [`move_bits`].
pub(super) const DEPOSIT: bool = false;

/// [`move_bits`] one bit at a time.
#[cfg(any(test, not(target_arch = "x86_64")))]
fn bit_by_bit(x: u64, mask: u64, gather: bool) -> u64 {
    let (mut out, mut m, mut at) = (0, mask, 0);
    while m != 0 {
        let place = m.trailing_zeros();
        out |= if gather {
            (x >> place & 1) << at
        } else {
            (x >> at & 1) << place
        };
        m &= m - 1;
        at += 1;
    }
    out
}

/// The four bit planes of each band's values: `[b][k]` has the cells of band `b` whose value has bit `k`, read with
/// vector instructions (each band's 27 bytes at once, one shift and one byte mask per plane).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
pub(super) fn planes_v3(puzzle: &crate::grid::Grid) -> [[u32; 4]; 3] {
    use std::arch::x86_64::{_mm256_movemask_epi8, _mm256_set_epi64x, _mm256_slli_epi16};
    let cells = puzzle.cells();
    let word = |at: usize| {
        let mut w = [0u8; 8];
        w.copy_from_slice(&cells[at..at + 8]);
        i64::from_le_bytes(w)
    };
    // Bytes 0..32, 27..59 and 49..81: band 2 starts at bit 5 of its masks. Shifting the 16-bit lanes left by
    // `7 - k` brings bit `k` of every byte to the byte's top bit (bits crossing into the next byte land lower).
    let mut planes = [[0u32; 4]; 3];
    for (b, at) in [0, 27, 49].into_iter().enumerate() {
        // SAFETY: these intrinsics take no pointers and need AVX2, which this function is compiled for (its
        // only caller, the engine's `run_v3`, runs after `has_v3`). From Rust 1.87 they are safe to call here; the
        // block is for 1.86, the crate's minimum, hence the allowance.
        #[allow(unused_unsafe)]
        let masks = unsafe {
            let v = _mm256_set_epi64x(word(at + 24), word(at + 16), word(at + 8), word(at));
            [
                _mm256_movemask_epi8(_mm256_slli_epi16::<7>(v)),
                _mm256_movemask_epi8(_mm256_slli_epi16::<6>(v)),
                _mm256_movemask_epi8(_mm256_slli_epi16::<5>(v)),
                _mm256_movemask_epi8(_mm256_slli_epi16::<4>(v)),
            ]
        };
        planes[b] = masks.map(|m| {
            if b == 2 {
                m as u32 >> 5
            } else {
                m as u32 & BAND
            }
        });
    }
    planes
}

/// Spreads a 9-bit column set over the three rows of a band.
#[inline(always)]
pub(super) const fn columns(cols: u32) -> u32 {
    cols * 0x40201
}

/// For eight bits: a word with bit `i` moved to bit 0 of byte `i`.
pub(super) const SPREAD: [u64; 256] = {
    let mut t = [0u64; 256];
    let mut x = 0;
    while x < 256 {
        let mut i = 0;
        while i < 8 {
            t[x] |= ((x as u64 >> i) & 1) << (8 * i);
            i += 1;
        }
        x += 1;
    }
    t
};

/// The bits set in a 27-bit mask: one instruction where the processor counts (`HW`, the x86-64-v3 copy), else
/// three table lookups (cheaper than the portable bit-twiddling count). Both give the same number.
#[inline(always)]
pub(super) fn pop27<const HW: bool>(x: u32) -> u32 {
    if HW {
        x.count_ones()
    } else {
        POP9[(x & ROW0) as usize]
            + POP9[((x >> 9) & ROW0) as usize]
            + POP9[((x >> 18) & ROW0) as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bit extraction gives the tables' (row, box) pattern: on every set of mini-rows, each empty or holding
    /// one, two or three cells at random (20 draws per set).
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn the_bit_extraction_reads_the_tables_row_box_pattern() {
        if !crate::solver::processor::has_v3() {
            return;
        }
        let mut below = crate::grid::samples::below(0x2545_F491_4F6C_DD1D);
        for pattern in 0..512u32 {
            for _ in 0..20 {
                let mut x = 0u32;
                for m in (0..9).filter(|m| pattern >> m & 1 != 0) {
                    let cells = 1 + below(7) as u32;
                    x |= cells << (3 * m);
                }
                // SAFETY: `has_v3` found BMI2.
                let got = unsafe { row_boxes_pext(x) };
                assert_eq!(
                    (got, row_boxes(x)),
                    (pattern as usize, pattern as usize),
                    "{x:o}"
                );
            }
        }
    }

    #[test]
    fn bits_are_extracted_and_deposited_in_order() {
        // The loops, on examples worked by hand.
        assert_eq!(bit_by_bit(0b1011_0110, 0b1111_0000, true), 0b1011);
        assert_eq!(bit_by_bit(0b1011_0110, 0b0101_0101, true), 0b0110);
        assert_eq!(bit_by_bit(0b1011, 0b1111_0000, false), 0b1011_0000);
        assert_eq!(bit_by_bit(0b0110, 0b0101_0101, false), 0b0001_0100);
        // Deposit then extract on the same mask gives the low bits back.
        let mut below = crate::grid::samples::below(0x9E37_79B9_7F4A_7C15);
        for _ in 0..1000 {
            let (x, mask) = (below(u64::MAX), below(u64::MAX));
            let n = mask.count_ones();
            let low = if n == 64 { x } else { x & ((1 << n) - 1) };
            assert_eq!(bit_by_bit(bit_by_bit(x, mask, false), mask, true), low);
            // The processor's instructions, where this one has them, agree with the loops.
            #[cfg(target_arch = "x86_64")]
            if crate::solver::processor::has_v3() {
                // SAFETY: `has_v3` found BMI2.
                let (e, d) = unsafe { (move_bits(x, mask, true), move_bits(x, mask, false)) };
                assert_eq!(
                    (e, d),
                    (bit_by_bit(x, mask, true), bit_by_bit(x, mask, false))
                );
            }
        }
    }

    #[test]
    fn placement_tables_keep_exactly_the_completable_pairs() {
        // Every pair open: everything stays.
        assert_eq!(COMPLEX[0x1FF], BAND);
        assert_eq!(STACK[0x1FF], 0o7_007_007);
        // Rows 0 and 1 can only use box 0: no placement.
        assert_eq!(COMPLEX[0b111_001_001], 0);
        assert_eq!(STACK[0b111_001_001], 0);
        // Row 0 only in box 1: box 1 leaves rows 1 and 2, and row 0 leaves the other boxes.
        let m = COMPLEX[0b111_111_010];
        assert_eq!(m & ROW0, 0o070);
        assert_eq!(m & (0o070 << 9 | 0o070 << 18), 0);
        assert_eq!(m & (0o707 << 9 | 0o707 << 18), 0o707 << 9 | 0o707 << 18);
    }
}
