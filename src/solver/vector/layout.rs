//! The vector engine's layout: the 16 lanes of a box, the six placement patterns of a digit in a band, and the
//! const tables that translate between them (all built at compile time from the pattern list [`PATTERN`]).
//!
//! A box is 16 lanes of 9-bit digit sets, a 4 x 4 matrix: lane `i * 4 + j` (`i`, `j` < 3) is the cell of mini-row
//! `i` and mini-column `j`; lane `i * 4 + 3` is "not in mini-row `i`" (the digits the mini-row does not hold);
//! lane `12 + j` is "not in mini-column `j`"; lane 15 holds every digit and takes part in nothing. For each digit,
//! each of the first three rows and columns of the matrix holds exactly one true literal (the digit is in one
//! cell of the mini-row, or not in the mini-row at all).
//!
//! A band (three boxes side by side: a row band, or a column band of three boxes stacked) keeps, per digit, which
//! of its six placement patterns remain: pattern `k` puts the digit in mini-line `PATTERN[k][p]` of the band's box
//! `p` (mini-rows for a row band, mini-columns for a column band), one mini-line per box and one box per line.

use super::lanes::Pick;

/// The nine digits of a lane.
pub(super) const ALL: u16 = 0x1FF;

/// Pattern `k` puts a band's digit in mini-line `PATTERN[k][p]` of its box `p`: the six permutations of 0..3.
pub(super) const PATTERN: [[usize; 3]; 6] = [
    [0, 1, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
    [0, 2, 1],
    [1, 0, 2],
];

/// The lane of the cell in mini-row `i`, mini-column `j` of a box.
#[inline(always)]
pub(super) const fn cell_lane(i: usize, j: usize) -> usize {
    i * 4 + j
}

/// The lane of "not in mini-row `i`".
#[inline(always)]
pub(super) const fn row_lane(i: usize) -> usize {
    i * 4 + 3
}

/// The lane of "not in mini-column `j`".
#[inline(always)]
pub(super) const fn col_lane(j: usize) -> usize {
    12 + j
}

/// The fewest digits each lane may keep: a cell one, a "not in mini-line" six (a mini-line holds three digits, so
/// six are not in it), lane 15 none. A lane at its minimum asserts all its digits.
pub(super) const MINIMUM: [u16; 16] = [1, 1, 1, 6, 1, 1, 1, 6, 1, 1, 1, 6, 6, 6, 6, 0];

/// Lanes of the nine cells (all digits) and of nothing else.
pub(super) const CELL_MASK: [u16; 16] = {
    let mut t = [0u16; 16];
    let mut l = 0;
    while l < 16 {
        if l % 4 < 3 && l / 4 < 3 {
            t[l] = 0xFFFF;
        }
        l += 1;
    }
    t
};

/// What a given `d` (0-based) at lane `at` of its box removes from the box: every other digit from its cell, `d`
/// from the other cells and from the "not in" lanes of its mini-row and mini-column. Indexed `[d][at]`; lanes
/// that are no cell give nothing.
pub(super) const GIVEN_REMOVES: [[[u16; 16]; 16]; 9] = {
    let mut t = [[[0u16; 16]; 16]; 9];
    let mut d = 0;
    while d < 9 {
        let bit = 1u16 << d;
        let mut at = 0;
        while at < 16 {
            if at % 4 < 3 && at / 4 < 3 {
                let mut l = 0;
                while l < 16 {
                    let same_row = l / 4 == at / 4;
                    let same_col = l % 4 == at % 4;
                    let cell = l % 4 < 3 && l / 4 < 3;
                    t[d][at][l] = if l == at {
                        ALL ^ bit
                    } else if cell || (l < 15 && (same_row || same_col)) {
                        bit
                    } else {
                        0
                    };
                    l += 1;
                }
            }
            at += 1;
        }
        d += 1;
    }
    t
};

/// `AWAY[p * 3 + e]`: the patterns that do not put the digit in mini-line `e` of box `p` (all digits in their
/// lanes, lanes 6 and 7 empty): what a digit seen in that mini-line rules out.
pub(super) const AWAY: [[u16; 8]; 9] = {
    let mut t = [[0u16; 8]; 9];
    let mut p = 0;
    while p < 3 {
        let mut e = 0;
        while e < 3 {
            let mut k = 0;
            while k < 6 {
                if PATTERN[k][p] != e {
                    t[p * 3 + e][k] = ALL;
                }
                k += 1;
            }
            e += 1;
        }
        p += 1;
    }
    t
};

/// Where a cell of the grid is: its box, its lane there, and the entries of [`AWAY`] for its mini-row in its row
/// band and its mini-column in its column band.
pub(super) struct CellAt {
    pub(super) bx: u8,
    pub(super) lane: u8,
    pub(super) row_away: u8,
    pub(super) col_away: u8,
}

/// [`CellAt`] of each cell (row-major).
pub(super) const CELL_AT: [CellAt; 81] = {
    let mut t = [const {
        CellAt {
            bx: 0,
            lane: 0,
            row_away: 0,
            col_away: 0,
        }
    }; 81];
    let mut cell = 0;
    while cell < 81 {
        let (r, c) = (cell / 9, cell % 9);
        let (bi, bj, i, j) = (r / 3, c / 3, r % 3, c % 3);
        t[cell] = CellAt {
            bx: (bi * 3 + bj) as u8,
            lane: cell_lane(i, j) as u8,
            row_away: (bj * 3 + i) as u8,
            col_away: (bi * 3 + j) as u8,
        };
        cell += 1;
    }
    t
};

/// A lane index that picks nothing (zero) in `L16::pick`.
const NONE: u8 = 0xFF;

/// `TRIADS_IDX[m]` (m < 2): for lane `p * 4 + e` of the 3 x 3 "mini-line `e` of box `p`" matrix, the `m`-th of the two
/// patterns that put the digit there; the union of the two picks is what the band allows in that mini-line.
const TRIADS_IDX: [[u8; 16]; 2] = {
    let mut t = [[NONE; 16]; 2];
    let mut k = 0;
    while k < 6 {
        let mut p = 0;
        while p < 3 {
            let l = p * 4 + PATTERN[k][p];
            let m = if t[0][l] == NONE { 0 } else { 1 };
            t[m][l] = k as u8;
            p += 1;
        }
        k += 1;
    }
    t
};

/// `IN_BOX[p]`: for pattern `k`, the lane of the matrix of [`TRIADS_IDX`] of the mini-line of box `p` where the
/// pattern puts the digit (lanes 6 and up: nothing).
const IN_BOX_IDX: [[u8; 16]; 3] = {
    let mut t = [[NONE; 16]; 3];
    let mut p = 0;
    while p < 3 {
        let mut k = 0;
        while k < 6 {
            t[p][k] = (p * 4 + PATTERN[k][p]) as u8;
            k += 1;
        }
        p += 1;
    }
    t
};

/// The lanes outside the 3 x 3 matrix of [`TRIADS`], where a band's allowance puts every digit.
pub(super) const MARGINS: [u16; 16] = {
    let mut t = [0u16; 16];
    let mut l = 0;
    while l < 16 {
        if l % 4 == 3 || l / 4 == 3 {
            t[l] = ALL;
        }
        l += 1;
    }
    t
};

/// `ALLOW_IDX[column][p][m]` (m < 2): what a band (a column band when `column` is 1) allows in its box `p`, as two
/// picks from the matrix of [`TRIADS`] with [`MARGINS`] added: a cell the digits of its mini-line, "not in
/// mini-line `e`" those of the two other mini-lines (one per pick), the lanes of the other direction everything.
const ALLOW_IDX: [[[[u8; 16]; 2]; 3]; 2] = {
    let mut t = [[[[0u8; 16]; 2]; 3]; 2];
    let mut column = 0;
    while column < 2 {
        let mut p = 0;
        while p < 3 {
            let mut m = 0;
            while m < 2 {
                let mut l = 0;
                while l < 16 {
                    let (i, j) = (l / 4, l % 4);
                    let everything = (p * 4 + 3) as u8;
                    t[column][p][m][l] = if i < 3 && j < 3 {
                        (p * 4 + if column == 1 { j } else { i }) as u8
                    } else if column == 0 && j == 3 && i < 3 {
                        (p * 4 + (i + 1 + m) % 3) as u8
                    } else if column == 1 && i == 3 && j < 3 {
                        (p * 4 + (j + 1 + m) % 3) as u8
                    } else {
                        everything
                    };
                    l += 1;
                }
                m += 1;
            }
            p += 1;
        }
        column += 1;
    }
    t
};

/// `NEXT[s]` (s = 1, 2): each "not in mini-line" lane takes the lane of the mini-line `s` further on (mini-row
/// `e` that of `(e + s) % 3`, the same for mini-columns); other lanes nothing.
pub(super) const NEXT: [Pick; 3] = picks({
    let mut t = [[NONE; 16]; 3];
    let mut s = 0;
    while s < 3 {
        let mut e = 0;
        while e < 3 {
            t[s][row_lane(e)] = row_lane((e + s) % 3) as u8;
            t[s][col_lane(e)] = col_lane((e + s) % 3) as u8;
            e += 1;
        }
        s += 1;
    }
    t
});

/// `TO_BANDS[bx]`: for pattern `k`, in lane `k` the "not in mini-row" lane of box `bx` where the pattern of its
/// row band puts the digit, in lane `8 + k` the "not in mini-column" lane where the pattern of its column band
/// does (box `bx` is box `bx % 3` of its row band and box `bx / 3` of its column band).
pub(super) const TO_BANDS: [Pick; 9] = picks({
    let mut t = [[NONE; 16]; 9];
    let mut bx = 0;
    while bx < 9 {
        let mut k = 0;
        while k < 6 {
            t[bx][k] = row_lane(PATTERN[k][bx % 3]) as u8;
            t[bx][8 + k] = col_lane(PATTERN[k][bx / 3]) as u8;
            k += 1;
        }
        bx += 1;
    }
    t
});

/// Picks that turn a box's matrix: `ROWS_BY[s]`, each row of four by `s` (lane `(l + s) % 4` of its row);
/// `COLS_BY[s]` each column by `s` (lane `(l + 4s) % 16`); `CELLS_BY[s]` the first three lanes of each of the
/// first three rows by `s`, every other lane kept.
pub(super) const ROWS_BY: [Pick; 3] = picks(turns(0));
/// See [`ROWS_BY`].
pub(super) const COLS_BY: [Pick; 3] = picks(turns(1));
/// See [`ROWS_BY`].
pub(super) const CELLS_BY: [Pick; 3] = picks(turns(2));

/// See [`TRIADS_IDX`].
pub(super) const TRIADS: [Pick; 2] = picks(TRIADS_IDX);
/// See [`IN_BOX_IDX`].
pub(super) const IN_BOX: [Pick; 3] = picks(IN_BOX_IDX);
/// See [`ALLOW_IDX`]: `ALLOW[column][p][m]`.
pub(super) const ALLOW: [[[Pick; 2]; 3]; 2] = {
    let a = ALLOW_IDX;
    [
        [picks(a[0][0]), picks(a[0][1]), picks(a[0][2])],
        [picks(a[1][0]), picks(a[1][1]), picks(a[1][2])],
    ]
};

/// Each table of `t` as a [`Pick`].
const fn picks<const N: usize>(t: [[u8; 16]; N]) -> [Pick; N] {
    let mut out = [const { Pick::new([NONE; 16]) }; N];
    let mut i = 0;
    while i < N {
        out[i] = Pick::new(t[i]);
        i += 1;
    }
    out
}

/// The three families of [`ROWS_BY`].
const fn turns(kind: usize) -> [[u8; 16]; 3] {
    let mut t = [[0u8; 16]; 3];
    let mut s = 0;
    while s < 3 {
        let mut l = 0;
        while l < 16 {
            let (i, j) = (l / 4, l % 4);
            t[s][l] = match kind {
                0 => i * 4 + (j + s) % 4,
                1 => (l + 4 * s) % 16,
                _ => {
                    if i < 3 && j < 3 {
                        i * 4 + (j + s) % 3
                    } else {
                        l
                    }
                }
            } as u8;
            l += 1;
        }
        s += 1;
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_patterns_are_the_six_permutations() {
        for (k, a) in PATTERN.iter().enumerate() {
            let mut seen = [false; 3];
            for &e in a {
                seen[e] = true;
            }
            assert_eq!(seen, [true; 3], "{k}");
            for b in &PATTERN[..k] {
                assert_ne!(a, b);
            }
        }
    }

    #[test]
    fn a_given_removes_its_digit_from_its_box_and_every_other_digit_from_its_cell() {
        let t = &GIVEN_REMOVES[4][cell_lane(1, 2)];
        assert_eq!(t[cell_lane(1, 2)], ALL ^ 16);
        assert_eq!(t[cell_lane(0, 0)], 16);
        assert_eq!((t[row_lane(1)], t[col_lane(2)]), (16, 16));
        assert_eq!((t[row_lane(0)], t[col_lane(0)], t[15]), (0, 0, 0));
        // Each mini-line of a box is taken by two patterns, so four rule it out.
        assert_eq!(AWAY[3 + 2].iter().filter(|&&x| x == ALL).count(), 4);
        // Row 3, column 2: box 3, its cell (0, 2); mini-row 0 of the row band's box 0, mini-column 2 of the
        // column band's box 1.
        let at = &CELL_AT[3 * 9 + 2];
        assert_eq!((at.bx, at.lane, at.row_away, at.col_away), (3, 2, 0, 3 + 2));
    }

    #[test]
    fn the_picks_name_the_patterns_and_lanes_they_stand_for() {
        for l in (0..12).filter(|l| l % 4 < 3) {
            let (p, e) = (l / 4, l % 4);
            let (a, b) = (usize::from(TRIADS[0].idx[l]), usize::from(TRIADS[1].idx[l]));
            assert!(a < b && b < 6 && PATTERN[a][p] == e && PATTERN[b][p] == e);
        }
        for (p, pick) in IN_BOX.iter().enumerate() {
            for (k, pattern) in PATTERN.iter().enumerate() {
                let l = usize::from(pick.idx[k]);
                assert_eq!((l / 4, l % 4), (p, pattern[p]));
            }
            assert_eq!(pick.word, p as u8);
        }
        // Row band, box 1: cell (2, 0) takes mini-row 2; "not in mini-row 0" mini-rows 1 and 2.
        assert_eq!(ALLOW[0][1][0].idx[cell_lane(2, 0)], 4 + 2);
        assert_eq!(
            (
                ALLOW[0][1][0].idx[row_lane(0)],
                ALLOW[0][1][1].idx[row_lane(0)]
            ),
            (5, 6)
        );
        assert_eq!(ALLOW[0][1][0].idx[col_lane(0)], 7);
        // Column band, box 2: cell (0, 1) takes mini-column 1.
        assert_eq!(ALLOW[1][2][1].idx[cell_lane(0, 1)], 9);
        assert_eq!(ALLOW[1][2][1].idx[col_lane(1)], 8);
        assert_eq!(ROWS_BY[1].idx[3], 0);
        assert_eq!(COLS_BY[2].idx[13], 5);
        assert_eq!(
            (CELLS_BY[1].idx[2], CELLS_BY[1].idx[3], CELLS_BY[2].idx[12]),
            (0, 3, 12)
        );
    }
}
