//! The solver engine's const tables and the small bit helpers that read them: masks of a band's rows, boxes and
//! columns, and the lookup tables of placement reasoning (built at compile time).

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

/// For the nine bits of one row: themselves when there is exactly one, else nothing.
pub(super) const LONE: [u16; 512] = {
    let mut t = [0u16; 512];
    let mut x: usize = 0;
    while x < 512 {
        if x & x.wrapping_sub(1) == 0 {
            t[x] = x as u16;
        }
        x += 1;
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
